// SPDX-License-Identifier: GPL-3.0-or-later
// SandboxService: the runtimes sandboxes run on (bubblewrap, and the Docker backend on each
// container engine of EngineList), which of them answer, and which holds a sandbox. An engine of
// another computer gets copies instead of binds and its sandboxes' way out through the daemon's
// stream (runtime/docker/DockerRemote.cpp, RemoteRelay).
#include "sandbox/Engines.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SandboxService.h"

#include "runtime/docker/DockerRuntime.h"

#include "events/EventHub.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QStandardPaths>

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)

namespace paddock::sandbox {
namespace {

constexpr qint64 kEngineRecheckMs = 10000;

QString engineRuntimeId(const QString &engine)
{
    return QStringLiteral("docker@") + engine;
}

} // namespace

QList<std::shared_ptr<runtime::Runtime>> SandboxService::reachableRuntimes() const
{
    // bubblewrap needs nothing running; a container engine may be down, and is then asked
    // again only after a while rather than on every listing.
    QList<std::shared_ptr<runtime::Runtime>> result;
    for (const auto &[id, runtime] : m_runtimes) {
        if (id == QLatin1String("bwrap")) {
            result.append(runtime);
            continue;
        }
        EngineCheck &check = m_engineChecks[id];
        if (!check.checked.isValid() || check.checked.hasExpired(kEngineRecheckMs)) {
            check.reachable = runtime->isAvailable();
            check.checked.start();
        }
        if (check.reachable)
            result.append(runtime);
    }
    return result;
}

void SandboxService::refindSandboxes()
{
    addRecordedEngines();
    for (const std::shared_ptr<runtime::Runtime> &runtime : reachableRuntimes()) {
        for (const runtime::SandboxInfo &info : runtime->list()) {
            const std::optional<SandboxRecord> record = SandboxRecord::read(info.name);
            QStringList notes;
            if (record)
                applyKitRules(*record, &notes);
            if (info.status != runtime::SandboxStatus::Running)
                continue;
            const Result<void> opened = openEndpoint(info.name, info.kitName, PortForwarder::portsOf(info.spec));
            if (opened) {
                qCInfo(lcSandbox) << "found running sandbox" << info.name << "; its endpoint is open again";
                trustSandboxInit(info);
                if (auto docker = std::dynamic_pointer_cast<runtime::DockerRuntime>(runtime))
                    docker->keepWayOut(info.name);
                const Result<void> started = startCompanions(m_proxy, m_endpoints.value(info.name), info.name);
                if (!started)
                    qCWarning(lcSandbox).noquote()
                        << "sandbox" << info.name << "has lost its services:" << started.error().text();
            } else
                qCWarning(lcSandbox).noquote()
                    << "running sandbox" << info.name << "has no way out:" << opened.error().text();
        }
    }
}

Result<std::shared_ptr<runtime::Runtime>> SandboxService::runtimeFor(const QString &backend) const
{
    const QString id = backend.isEmpty() ? QStringLiteral("bwrap") : backend;
    const auto it = m_runtimes.find(id);
    if (it != m_runtimes.end()) {
        QString why;
        if (!it->second->isAvailable(&why))
            return fail(QStringLiteral("the %1 backend cannot run sandboxes here: %2").arg(id, why));
        m_engineChecks.remove(id); // reachable now: list it again at once
        return it->second;
    }
    return fail(QStringLiteral("unknown backend '%1': expected bwrap or docker").arg(id));
}

/** paddock-init, which every runtime starts a sandbox with (SandboxService.h). */
QString SandboxService::findInitProgram()
{
    const QString fromEnvironment = qEnvironmentVariable("PADDOCK_INIT");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    const QString here = QCoreApplication::applicationDirPath();
    // Installed next to the daemon, in ../libexec/paddock (the package layout), or in the
    // build tree's app/init next to app/daemon.
    for (const QString &candidate :
         {here + QStringLiteral("/paddock-init"), here + QStringLiteral("/../libexec/paddock/paddock-init"),
          here + QStringLiteral("/../init/paddock-init")}) {
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("paddock-init"));
}

std::shared_ptr<runtime::Runtime> SandboxService::runtimeOf(const QString &name) const
{
    return holderAmong(reachableRuntimes(), name);
}

std::shared_ptr<runtime::Runtime> SandboxService::holderAmong(const QList<std::shared_ptr<runtime::Runtime>> &runtimes,
                                                              const QString &name)
{
    // The engine the sandbox was made on, when another name of that engine lists it too.
    std::shared_ptr<runtime::Runtime> found;
    for (const std::shared_ptr<runtime::Runtime> &runtime : runtimes) {
        const std::optional<runtime::SandboxInfo> info = runtime->inspect(name);
        if (info && onItsEngine(*info))
            return runtime;
        if (info && !found)
            found = runtime;
    }
    return found;
}

bool SandboxService::onItsEngine(const runtime::SandboxInfo &info)
{
    if (info.engine.isEmpty())
        return true; // bubblewrap's
    const std::optional<SandboxRecord> record = SandboxRecord::read(info.name);
    if (!record)
        return true;
    // Records from before engines had a name were all made on this computer's.
    return (record->engine.isEmpty() ? QStringLiteral("local") : record->engine) == info.engine;
}

Result<std::shared_ptr<runtime::Runtime>> SandboxService::engineRuntime(const QString &requested, QString *engineName)
{
    const EngineList engines = EngineList::read();
    const QString name = requested.isEmpty() ? engines.use : requested;
    *engineName = name;
    if (name == QLatin1String("local"))
        return runtimeFor(QStringLiteral("docker"));
    const std::optional<Engine> engine = engines.find(name);
    if (!engine)
        return fail(QStringLiteral("there is no engine named %1 (paddock engine ls lists them)").arg(name));
    const runtime::docker::Result<runtime::docker::Endpoint> endpoint = engine->endpoint();
    if (!endpoint)
        return fail(endpoint.errorMessage());
    const QString id = engineRuntimeId(name);
    auto it = m_runtimes.find(id);
    if (it == m_runtimes.end())
        it = m_runtimes.emplace(id, engineDockerRuntime(*engine, endpoint.value())).first;
    QString why;
    if (!it->second->isAvailable(&why))
        return fail(QStringLiteral("engine %1 (%2) cannot run sandboxes now: %3").arg(name, engine->host, why));
    m_engineChecks.remove(id); // reachable now: list it again at once
    return it->second;
}

void SandboxService::addRecordedEngines()
{
    const EngineList engines = EngineList::read();
    for (const SandboxRecord &record : SandboxRecord::all()) {
        const QString id = engineRuntimeId(record.engine);
        if (record.engine.isEmpty() || record.engine == QLatin1String("local") || m_runtimes.count(id))
            continue;
        const std::optional<Engine> engine = engines.find(record.engine);
        const runtime::docker::Result<runtime::docker::Endpoint> endpoint =
            engine ? engine->endpoint() : runtime::docker::Endpoint();
        if (!engine || !endpoint) {
            qCWarning(lcSandbox).noquote()
                << "sandbox" << record.name << "runs on engine" << record.engine << ", which is gone or cannot be used";
            continue;
        }
        m_runtimes.emplace(id, engineDockerRuntime(*engine, endpoint.value()));
    }
}

std::shared_ptr<runtime::DockerRuntime> SandboxService::engineDockerRuntime(const Engine &engine,
                                                                            const runtime::docker::Endpoint &endpoint)
{
    auto runtime = std::make_shared<runtime::DockerRuntime>(endpoint, engine.name);
    if (engine.onThisComputer())
        return runtime;
    // Another computer's engine: its sandboxes get out through the daemon's own stream to it,
    // and when that stream drops they have no way out at all, which the event log says.
    runtime->setRemote(true);
    events::EventHub *hub = m_hub.get();
    const QString engineName = engine.name;
    runtime->setRelayObserver([hub, engineName](const QString &sandbox, bool up, const QString &sentence) {
        if (up || !hub)
            return;
        events::NetworkEvent event;
        event.time = QDateTime::currentDateTimeUtc();
        event.sandbox = sandbox;
        event.host = QStringLiteral("engine ") + engineName;
        event.protocol = QStringLiteral("tcp");
        event.outcome = events::NetworkEvent::Outcome::UpstreamFailed;
        event.reason = QStringLiteral("the way out through engine %1 is down, and the sandbox has no other: %2")
                           .arg(engineName, sentence);
        hub->publish(event);
    });
    return runtime;
}

QStringList SandboxService::sandboxesOnEngine(const QString &engine) const
{
    QStringList names;
    for (const SandboxRecord &record : SandboxRecord::all()) {
        if (record.engine == engine)
            names << record.name;
    }
    return names;
}

void SandboxService::forgetEngine(const QString &engine)
{
    m_runtimes.erase(engineRuntimeId(engine));
    m_engineChecks.remove(engineRuntimeId(engine));
}

} // namespace paddock::sandbox
