// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/KitLoadMethods.h"

#include "api/Server.h"
#include "common/Paths.h"
#include "image/ImageStore.h"
#include "image/RegistryPull.h"
#include "kit/KitArchive.h"
#include "sandbox/ImageService.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QUuid>

#include <thread>

Q_LOGGING_CATEGORY(lcKitLoads, "paddock.sandbox.kitload", QtInfoMsg)

namespace paddock::sandbox {
namespace {

QJsonObject kitJson(const kit::Kit &kit)
{
    QJsonArray capabilities;
    for (const kit::CapabilityOutcome &outcome : kit.capabilities)
        capabilities << QJsonObject{{QStringLiteral("status"), kit::outcomeName(outcome.status)},
                                    {QStringLiteral("type"), outcome.type},
                                    {QStringLiteral("label"), outcome.label},
                                    {QStringLiteral("what"), outcome.what}};
    return {{QStringLiteral("name"), kit.name},
            {QStringLiteral("kind"), kit.isSandbox() ? QStringLiteral("workload") : QStringLiteral("mixin")},
            {QStringLiteral("schemaVersion"), kit.schemaVersion},
            {QStringLiteral("reference"), kit.reference},
            {QStringLiteral("digest"), kit.digest},
            {QStringLiteral("directory"), kit.directory},
            {QStringLiteral("provides"), QJsonArray::fromStringList(kit.provides)},
            {QStringLiteral("capabilities"), capabilities}};
}

QJsonObject loadJson(const kit::KitArchiveResult &result, bool approved)
{
    QJsonArray diagnostics;
    for (const kit::Diagnostic &diagnostic : result.diagnostics)
        diagnostics << QJsonObject{{QStringLiteral("text"), diagnostic.toString()},
                                   {QStringLiteral("error"), diagnostic.isError()}};
    QJsonObject answer{{QStringLiteral("loaded"), result.ok()},
                       {QStringLiteral("diagnostics"), diagnostics},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(result.notes)},
                       {QStringLiteral("widenings"), QJsonArray::fromStringList(result.widenings)},
                       {QStringLiteral("needsApproval"), !result.widenings.isEmpty() && !approved},
                       // Declined on purpose (KitArchiveResult::refused()), not broken: `kit load` exits 3.
                       {QStringLiteral("refused"), result.refused()}};
    if (result.ok())
        answer.insert(QStringLiteral("kit"), kitJson(*result.kit));
    return answer;
}

/** Runs @p work on a thread of its own and completes @p reply with its answer on the main thread. */
void offThread(const api::PendingReply &reply, std::function<api::Reply()> work)
{
    // Detached: a load holds no lock the daemon waits on, and the application outlives it.
    std::thread([reply, work = std::move(work)] {
        const api::Reply answer = work();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(), [reply, answer] { reply.complete(answer); }, Qt::QueuedConnection);
    }).detach();
}

kit::KitArchiveOptions optionsOf(const QJsonObject &params)
{
    kit::KitArchiveOptions options;
    options.name = params.value(QLatin1String("name")).toString();
    options.approveWidening = params.value(QLatin1String("approve")).toBool();
    return options;
}

api::Reply loaded(const QString &source, const kit::KitArchiveResult &result, bool approved)
{
    if (result.ok())
        qCInfo(lcKitLoads).noquote() << "loaded kit" << result.kit->name << "from" << source;
    else
        qCInfo(lcKitLoads).noquote() << "did not load a kit from" << source
                                     << (result.widenings.isEmpty() ? "" : "(an update that needs approval)");
    return api::Reply::success(loadJson(result, approved));
}

void load(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString file = params.value(QLatin1String("file")).toString();
    if (file.isEmpty() || !QDir::isAbsolutePath(file))
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("kit.load needs the archive as an absolute file path"));
    if (!QFileInfo(file).isFile() || !QFileInfo(file).isReadable())
        return reply.fail(QLatin1String(api::errors::kNoSuchFile),
                          QStringLiteral("%1 is not a file that can be read").arg(file));
    const kit::KitArchiveOptions options = optionsOf(params);
    offThread(reply,
              [file, options] { return loaded(file, kit::loadKitArchive(file, options), options.approveWidening); });
}

void pull(const UpstreamProxyGetter &upstream, const QJsonObject &params, const api::PendingReply &reply)
{
    const QString reference = params.value(QLatin1String("reference")).toString().trimmed();
    if (reference.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams), QStringLiteral("kit.pull needs a reference"));
    const image::ImageStore store;
    QString error;
    if (!paths::ensurePrivateDir(store.root(), &error))
        return reply.fail(QLatin1String(api::errors::kKitFailed), error);
    const std::shared_ptr<const proxy::UpstreamProxy> through = upstream ? upstream() : nullptr;
    const image::RegistryOptions registry = ImageService::registryOptions(through.get());
    kit::KitArchiveOptions options = optionsOf(params);
    const QString archive =
        store.root() + QStringLiteral("/kit-pull-%1.tar").arg(QUuid::createUuid().toString(QUuid::Id128));
    offThread(reply, [reference, archive, registry, options]() mutable {
        const image::PullResult pulled = image::pullToArchive(reference, archive, registry);
        if (!pulled.ok)
            return api::Reply::failure(QLatin1String(api::errors::kKitFailed), pulled.error);
        options.source = pulled.name;
        const kit::KitArchiveResult result = kit::loadKitArchive(archive, options);
        QFile::remove(archive);
        return loaded(reference, result, options.approveWidening);
    });
}

} // namespace

void registerKitLoadMethods(api::Server &server, UpstreamProxyGetter upstream)
{
    server.registerAsyncMethod(QStringLiteral("kit.load"), [](const QJsonObject &params, const api::CallContext &,
                                                              const api::PendingReply &reply) { load(params, reply); });
    server.registerAsyncMethod(
        QStringLiteral("kit.pull"),
        [upstream = std::move(upstream)](const QJsonObject &params, const api::CallContext &,
                                         const api::PendingReply &reply) { pull(upstream, params, reply); });
}

} // namespace paddock::sandbox
