// SPDX-License-Identifier: GPL-3.0-or-later
// A sandbox's companion services (a dev database beside the agent): the daemon methods
// `service.add`, `service.remove` and `service.list` of SandboxService (documented in
// SandboxService.h), and their start and stop with the sandbox.
#include "api/Server.h"
#include "kit/KitSettings.h"
#include "runtime/docker/DockerClient.h"
#include "runtime/docker/DockerEndpoint.h"
#include "sandbox/Companions.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SandboxService.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcServices, "paddock.sandbox.services", QtInfoMsg)

namespace paddock::sandbox {
namespace {

runtime::docker::DockerClient engine()
{
    return runtime::docker::DockerClient(runtime::docker::Endpoint::environmentOrDefault());
}

api::Reply fail(const char *code, const QString &message)
{
    return api::Reply::failure(QLatin1String(code), message);
}

/** Why services cannot be added now (no engine, or the image is not in it), else nullopt. */
std::optional<api::Reply> engineProblem(const runtime::docker::DockerClient &client, const Companion &companion)
{
    if (const auto answered = client.ping(); !answered)
        return fail(api::errors::kBackendUnavailable,
                    QStringLiteral("services run on a Docker engine, whatever runs the sandbox, and none answers at "
                                   "%1 (%2): install docker.io and join the docker group (sudo usermod -aG docker "
                                   "$USER, then log in again)")
                        .arg(client.endpoint().display(), answered.errorMessage()));
    const auto exists = client.imageExists(companion.image);
    if (exists && !exists.value())
        return fail(api::errors::kInvalidParams,
                    QStringLiteral("the image %1 is not in the Docker engine: load or build it first (docker load -i "
                                   "FILE, or docker build -t %1 .)")
                        .arg(companion.image));
    return std::nullopt;
}

QJsonObject routesJson(const QString &sandbox, const Companion &companion)
{
    QJsonArray ports;
    for (const quint16 port : companion.ports)
        ports.append(QStringLiteral("%1:%2").arg(companion.name).arg(port));
    return {{QStringLiteral("sandbox"), sandbox}, {QStringLiteral("reach"), ports}};
}

/** The kit's services, each read as the sandbox's are; a wrong one says why. */
Result<QList<Companion>> kitCompanions(const QString &kitDirectory)
{
    QString unreadable;
    const QJsonArray stored = kit::KitSettings::services(kitDirectory, &unreadable);
    if (!unreadable.isEmpty())
        return paddock::fail(QStringLiteral("the kits' settings cannot be read: %1").arg(unreadable));
    QList<Companion> companions;
    for (const QJsonValue &value : stored) {
        const Result<Companion> companion = Companion::fromJson(value.toObject());
        if (!companion)
            return paddock::fail(QStringLiteral("the settings of kit %1: service %2: %3")
                                     .arg(kitDirectory, value.toObject().value(QLatin1String("name")).toString(),
                                          companion.error().text()));
        companions.append(*companion);
    }
    return companions;
}

/** `service.add`, `.remove` and `.list` with {kit: DIR}: the kit's settings, not a sandbox. */
api::Reply kitServiceCall(const QString &method, const QJsonObject &params)
{
    const QString kitDirectory = params.value(QLatin1String("kit")).toString();
    if (!QDir::isAbsolutePath(kitDirectory) || !QFileInfo(kitDirectory).isDir())
        return fail(api::errors::kInvalidParams, QStringLiteral("no kit folder %1").arg(kitDirectory));
    Result<QList<Companion>> companions = kitCompanions(kitDirectory);
    if (!companions)
        return fail(api::errors::kInvalidParams, companions.error().text());
    if (method == QLatin1String("list"))
        return api::Reply::success({{QStringLiteral("services"), toJson(*companions)}});
    if (method == QLatin1String("remove")) {
        const QString service = params.value(QLatin1String("name")).toString();
        if (companions->removeIf([&service](const Companion &c) { return c.name == service; }) == 0)
            return fail(api::errors::kNotFound, QStringLiteral("kit %1 has no service %2").arg(kitDirectory, service));
    } else {
        const Result<Companion> companion = Companion::fromJson(params.value(QLatin1String("service")).toObject());
        if (!companion)
            return fail(api::errors::kInvalidParams, companion.error().text());
        companions->removeIf([&companion](const Companion &c) { return c.name == companion->name; });
        companions->append(*companion);
    }
    if (QString error; !kit::KitSettings::setServices(kitDirectory, toJson(*companions), &error))
        return fail(api::errors::kInternal, error);
    qCInfo(lcServices) << "kit" << kitDirectory << "has" << companions->size() << "services";
    return api::Reply::success(
        {{QStringLiteral("kit"), kitDirectory}, {QStringLiteral("services"), toJson(*companions)}});
}

} // namespace

Result<void> SandboxService::addKitCompanions(SandboxRecord &record)
{
    const Result<QList<Companion>> companions = kitCompanions(record.kitDirectory);
    if (!companions)
        return companions.error();
    for (const Companion &companion : *companions) {
        const bool own = std::any_of(record.services.cbegin(), record.services.cend(),
                                     [&companion](const Companion &c) { return c.name == companion.name; });
        if (!own)
            record.services.append(companion);
    }
    return {};
}

Result<void> SandboxService::startCompanions(proxy::ProxyEngine &proxy, proxy::ProxyEngine::EndpointId endpoint,
                                             const QString &name)
{
    const std::optional<SandboxRecord> record = SandboxRecord::read(name);
    const QList<Companion> services = record ? record->services : QList<Companion>();
    if (services.isEmpty()) {
        proxy.setServices(endpoint, {});
        return {};
    }
    const runtime::docker::DockerClient client = engine();
    const Result<std::vector<proxy::ServiceRoute>> routes = CompanionRunner(client).start(name, services);
    if (!routes)
        return routes.error();
    proxy.setServices(endpoint, *routes);
    qCInfo(lcServices) << "sandbox" << name << "reaches" << routes->size() << "service ports";
    return {};
}

void SandboxService::stopCompanions(const QString &name, bool remove)
{
    const std::optional<SandboxRecord> record = SandboxRecord::read(name);
    if (!record || record->services.isEmpty())
        return;
    const runtime::docker::DockerClient client = engine();
    if (remove)
        CompanionRunner(client).removeAll(name, record->services);
    else
        CompanionRunner(client).stop(name);
}

void SandboxService::addService(const QJsonObject &params, const api::PendingReply &reply)
{
    if (params.contains(QLatin1String("kit")))
        return reply.complete(kitServiceCall(QStringLiteral("add"), params));
    const QString name = params.value(QLatin1String("sandbox")).toString();
    std::optional<SandboxRecord> record = SandboxRecord::read(name);
    if (!record)
        return reply.complete(fail(api::errors::kNoSuchSandbox, QStringLiteral("no sandbox named %1").arg(name)));
    const Result<Companion> companion = Companion::fromJson(params.value(QLatin1String("service")).toObject());
    if (!companion)
        return reply.complete(fail(api::errors::kInvalidParams, companion.error().text()));
    for (const Companion &existing : std::as_const(record->services)) {
        if (existing.name == companion->name)
            return reply.complete(fail(api::errors::kInvalidParams,
                                       QStringLiteral("sandbox %1 has a service %2 already; 'paddock service rm "
                                                      "%1 %2' first")
                                           .arg(name, companion->name)));
    }
    if (const std::optional<api::Reply> problem = engineProblem(engine(), *companion))
        return reply.complete(*problem);
    record->services.append(*companion);
    if (const Result<void> written = record->write(); !written)
        return reply.complete(fail(api::errors::kInternal, written.error().text()));
    qCInfo(lcServices) << "sandbox" << name << "has a new service" << companion->name << companion->image;
    const QJsonObject added = routesJson(name, *companion);
    if (!m_endpoints.contains(name)) // not running: it starts with the sandbox
        return reply.succeed(added);
    auto job = [proxy = &m_proxy, endpoint = m_endpoints.value(name), name]() -> Work {
        if (const Result<void> started = startCompanions(*proxy, endpoint, name); !started)
            return {runtime::RuntimeResult::failure(started.error().text()), {}};
        return {runtime::RuntimeResult::success(), {}};
    };
    auto done = [reply, added](const Work &work) {
        if (!work.result.ok)
            return reply.fail(QLatin1String(api::errors::kStartFailed), work.result.error);
        reply.succeed(added);
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

void SandboxService::removeService(const QJsonObject &params, const api::PendingReply &reply)
{
    if (params.contains(QLatin1String("kit")))
        return reply.complete(kitServiceCall(QStringLiteral("remove"), params));
    const QString name = params.value(QLatin1String("sandbox")).toString();
    const QString service = params.value(QLatin1String("name")).toString();
    std::optional<SandboxRecord> record = SandboxRecord::read(name);
    if (!record)
        return reply.complete(fail(api::errors::kNoSuchSandbox, QStringLiteral("no sandbox named %1").arg(name)));
    const auto it = std::find_if(record->services.begin(), record->services.end(),
                                 [&service](const Companion &c) { return c.name == service; });
    if (it == record->services.end())
        return reply.complete(
            fail(api::errors::kNotFound, QStringLiteral("sandbox %1 has no service %2").arg(name, service)));
    const Companion removed = *it;
    record->services.erase(it);
    if (const Result<void> written = record->write(); !written)
        return reply.complete(fail(api::errors::kInternal, written.error().text()));
    const bool running = m_endpoints.contains(name);
    auto job = [proxy = &m_proxy, endpoint = m_endpoints.value(name), name, removed, running]() -> Work {
        CompanionRunner(engine()).remove(name, removed, true);
        if (const Result<void> started = running ? startCompanions(*proxy, endpoint, name) : Result<void>(); !started)
            qCWarning(lcServices).noquote() << "sandbox" << name << ":" << started.error().text();
        return {runtime::RuntimeResult::success(), {}};
    };
    auto done = [reply, service](const Work &) { reply.succeed({{QStringLiteral("removed"), service}}); };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

void SandboxService::registerServiceMethods()
{
    m_server.registerAsyncMethod(QStringLiteral("service.add"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { addService(params, reply); });
    m_server.registerAsyncMethod(QStringLiteral("service.remove"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { removeService(params, reply); });
    m_server.registerMethod(
        QStringLiteral("service.list"), [this](const QJsonObject &params, const api::CallContext &) {
            if (params.contains(QLatin1String("kit")))
                return kitServiceCall(QStringLiteral("list"), params);
            const QString name = params.value(QLatin1String("sandbox")).toString();
            const std::optional<SandboxRecord> record = SandboxRecord::read(name);
            if (!record)
                return fail(api::errors::kNoSuchSandbox, QStringLiteral("no sandbox named %1").arg(name));
            return api::Reply::success({{QStringLiteral("services"), toJson(record->services)},
                                        {QStringLiteral("running"), m_endpoints.contains(name)}});
        });
}

} // namespace paddock::sandbox
