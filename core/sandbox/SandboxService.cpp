// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SandboxService.h"
#include "sandbox/SharedFolders.h"

#include "api/Server.h"
#include "common/Paths.h"
#include "image/ImageStore.h"
#include "kit/KitLoader.h"
#include "network/PolicyDecider.h"
#include "network/ProxyEvents.h"
#include "runtime/bwrap/BwrapRuntime.h"
#include "runtime/docker/DockerRuntime.h"
#include "sandbox/CloneWorkspace.h"
#include "sandbox/CreateRequest.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/HostGrantAdmission.h"
#include "sandbox/KitApplication.h"
#include "sandbox/RemoteFetchBack.h"
#include "sandbox/SandboxCreation.h"
#include "sandbox/WorkspaceGuard.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QStandardPaths>

#include <algorithm>
#include <thread>

Q_LOGGING_CATEGORY(lcSandbox, "paddock.sandbox", QtInfoMsg)

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

} // namespace

QString SandboxService::endpointPath(const QString &name)
{
    return paths::runtimeDir() + QStringLiteral("/sandboxes/") + name + QStringLiteral("/proxy.sock");
}

QString SandboxService::homeOf(const QString &name)
{
    return paths::dataDir() + QStringLiteral("/sandboxes/") + name + QStringLiteral("/home");
}

SandboxService::SandboxService(api::Server &server, QObject *parent)
    : QObject(parent), m_server(server), m_alive(std::make_shared<int>(0))
{
    const auto bwrap = std::make_shared<runtime::BwrapRuntime>();
    bwrap->emptyTrash();
    m_runtimes.emplace(QStringLiteral("bwrap"), bwrap);
    m_runtimes.emplace(QStringLiteral("docker"), std::make_shared<runtime::DockerRuntime>());
    m_credentials = std::make_unique<CredentialInjection>(this);
    connect(m_credentials.get(), &CredentialInjection::credentialsChanged, this, [this] {
        for (auto it = m_endpoints.cbegin(); it != m_endpoints.cend(); ++it)
            m_credentials->applyTo(m_proxy, it.value(), it.key());
    });
}

SandboxService::~SandboxService()
{
    stop();
}

Result<void> SandboxService::start()
{
    if (!m_policy.load() || m_policy.lastError())
        qCWarning(lcSandbox).noquote() << "the policy file cannot be used; the default policy applies:"
                                       << (m_policy.lastError() ? m_policy.lastError()->toString() : QString());
    connect(&m_policy, &policy::PolicyStore::policyChanged, this, &SandboxService::onPolicyChanged);
    connect(&m_policy, &policy::PolicyStore::loadFailed, this, [](const policy::PolicyError &problem) {
        qCWarning(lcSandbox).noquote() << problem.toString() << "(the previous policy stays in force)";
    });

    m_hub = std::make_unique<events::EventHub>();
    connect(m_hub.get(), &events::EventHub::storageFailed, this, [](const QString &message) {
        qCWarning(lcSandbox).noquote() << "the event log is not being written:" << message;
    });
    // Subscribers' callbacks run on the proxy's event thread; the API server lives here.
    m_subscription = m_hub->subscribe([this](const events::NetworkEvent &event) {
        m_server.publishLater(event.request ? requestsTopic() : networkTopic(), [&event] { return event.toJson(); });
    });
    events::EventHub *hub = m_hub.get();
    m_proxy.setDecider(network::policyDecider(m_policy.engine(), m_modes));
    m_proxy.setProgramClassifier(
        [origins = m_origins](const proxy::EndpointIdentity &identity, ClientProgram &program) {
            origins->classify(identity.sandbox, program);
        });
    m_proxy.setEventSink([this, hub](const proxy::ProxyEvent &proxyEvent) {
        if (proxyEvent.kind == proxy::ProxyEvent::Kind::Held || proxyEvent.kind == proxy::ProxyEvent::Kind::HoldEnded) {
            // Held connections wait for a person: the service's thread keeps the list (AskService).
            QMetaObject::invokeMethod(
                this, [this, proxyEvent] { emit connectionHeld(proxyEvent); }, Qt::QueuedConnection);
            return;
        }
        if (const std::optional<events::NetworkEvent> event = network::toNetworkEvent(proxyEvent))
            hub->publish(*event);
    });
    m_overrides = network::syncResolveOverrides(m_proxy.resolveOverrides(), {}, m_policy.resolveOverrides());
    if (const Result<void> started = m_proxy.start(); !started)
        return started;

    m_server.registerTopic(networkTopic());
    m_server.registerTopic(requestsTopic());
    registerMethods();
    refindSandboxes();
    return {};
}

void SandboxService::stop()
{
    if (m_proxy.isRunning())
        m_proxy.stop(); // delivers the queued events before the hub goes
    m_ports.closeAll();
    m_endpoints.clear();
    for (const auto &[id, runtime] : m_runtimes) {
        if (auto docker = std::dynamic_pointer_cast<runtime::DockerRuntime>(runtime))
            docker->setRelayObserver({}); // the hub goes now; remote sandboxes' relays tell nobody
    }
    if (m_hub) {
        m_hub->unsubscribe(m_subscription);
        m_hub->flush();
        m_hub.reset();
    }
}

void SandboxService::onPolicyChanged()
{
    m_overrides = network::syncResolveOverrides(m_proxy.resolveOverrides(), m_overrides, m_policy.resolveOverrides());
    // A host denied now is denied for the connections open to it as well, not only the next.
    m_proxy.recheck();
    qCInfo(lcSandbox) << "policy reloaded";
}

Result<void> SandboxService::openEndpoint(const QString &name, const QString &kitName, const QList<quint16> &ports)
{
    if (m_endpoints.contains(name))
        return {};
    const QString path = endpointPath(name);
    if (QString error; !paths::ensurePrivateDir(QFileInfo(path).absolutePath(), &error))
        return fail(error);
    const Result<proxy::ProxyEngine::EndpointId> added = m_proxy.addUnixEndpoint(path, {name, kitName});
    if (!added)
        return added.error();
    const proxy::ProxyEngine::EndpointId id = *added;
    m_endpoints.insert(name, id);
    m_credentials->applyTo(m_proxy, id, name);
    const QString portsSocket = QFileInfo(path).absolutePath() + QLatin1Char('/') + PortForwarder::socketName();
    if (const Result<void> opened = m_ports.open(name, portsSocket, ports); !opened) {
        closeEndpoint(name);
        return opened;
    }
    // ssh-agent@1: the relay comes and goes with the endpoint, so every start has it again.
    const std::optional<SandboxRecord> record = SandboxRecord::read(name);
    if (record && record->sshAgent) {
        const Result<void> agent =
            m_sshAgents.open(name, kitName, *record->sshAgent, recordedBacking(*record), record->sshKnownHosts);
        if (!agent) {
            closeEndpoint(name);
            return agent;
        }
    }
    return {};
}

void SandboxService::trustSandboxInit(const runtime::SandboxInfo &info)
{
    const auto endpoint = m_endpoints.constFind(info.name);
    if (endpoint == m_endpoints.cend())
        return;
    // Its first process is paddock-init, the relay every connection from inside comes through:
    // the one peer whose word on which program connected the proxy takes.
    const bool running = info.status == runtime::SandboxStatus::Running;
    m_proxy.setTrustedClient(endpoint.value(), long(running ? info.pid : 0));
    m_origins->set(info.name, ProgramOrigins::layoutOf(info));
}

void SandboxService::closeEndpoint(const QString &name)
{
    m_origins->forget(name);
    m_ports.close(name);
    m_sshAgents.close(name);
    const auto it = m_endpoints.find(name);
    if (it == m_endpoints.end())
        return;
    m_proxy.removeEndpoint(it.value());
    m_endpoints.erase(it);
}

void SandboxService::applyKitRules(const SandboxRecord &record, QStringList *notes)
{
    policy::KitRules rules = policy::kitNetworkRules(record.kitName, record.networkAllow, record.networkDeny);
    for (const QString &problem : rules.errors)
        notes->append(QStringLiteral("kit %1: network pattern %2").arg(record.kitName, problem));
    // A grant approved later, or revoked, takes effect through reloadKitRules().
    notes->append(withholdUnapprovedGrants(&rules.rules, record.kitName));
    m_policy.engine().setKitRules(record.kitName, rules.rules);
}

/** The variables a `sandbox.create` asks for, its own and its kit's settings'; none when unreadable. */
static QMap<QString, QString> requestedVariables(const QJsonObject &params)
{
    // createSandbox() reports what is wrong with the request
    Result<CreateRequest> request = CreateRequest::parse(params);
    if (!request || !request->addKitShares().ok())
        return {};
    return request->variables;
}

std::optional<api::Reply> SandboxService::admitCreation(const QJsonObject &params)
{
    QString name;
    const std::optional<kit::Kit> kit = CredentialInjection::kitOf(params, &name);
    if (!kit)
        return std::nullopt; // createSandbox() says what is wrong with the kit
    return admitHostGrants(name, kit->name, kitDirectoriesOf(params), kit->networkAllow + kit->networkInstallAllow,
                           params.value(QLatin1String("approveHostGrants")).toBool());
}

api::Reply SandboxService::describeHostGrants(const QJsonObject &params)
{
    QString name;
    const std::optional<kit::Kit> kit = CredentialInjection::kitOf(params, &name);
    if (!kit)
        return api::Reply::failure(QLatin1String(api::errors::kInvalidKit),
                                   QStringLiteral("the kit in %1 cannot be used; `paddock kit validate %1` says why")
                                       .arg(params.value(QLatin1String("kit")).toString()));
    policy::HostGrantApprovals approvals;
    if (const std::optional<policy::PolicyError> problem = approvals.load())
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), problem->toString());
    const HostGrantCheck check = checkHostGrants(kit->name, kit->networkAllow + kit->networkInstallAllow, approvals);
    QJsonObject result = check.toJson();
    result.insert(QStringLiteral("sandbox"), name);
    result.insert(QStringLiteral("message"), check.blockingMessage(name, kitDirectoriesOf(params)));
    result.insert(QStringLiteral("command"), approveGrantsCommand(kitDirectoriesOf(params)));
    return api::Reply::success(result);
}

void SandboxService::forgetKitRulesIfUnused(const QString &kitName)
{
    // The records name every sandbox made here, on every engine, whether or not its engine
    // answers now; no engine is asked, so a removal's answer waits for none.
    const QList<SandboxRecord> records = SandboxRecord::all();
    if (std::any_of(records.begin(), records.end(),
                    [&kitName](const SandboxRecord &record) { return record.kitName == kitName; }))
        return;
    m_policy.engine().removeKitRules(kitName);
}

QStringList SandboxService::runningSandboxes() const
{
    QStringList names;
    for (const std::shared_ptr<runtime::Runtime> &runtime : reachableRuntimes()) {
        for (const runtime::SandboxInfo &info : runtime->list()) {
            if (info.status == runtime::SandboxStatus::Running)
                names << info.name;
        }
    }
    return names;
}

std::optional<runtime::SandboxInfo> SandboxService::inspect(const QString &name) const
{
    const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
    return runtime ? runtime->inspect(name) : std::nullopt;
}

Result<void> SandboxService::reloadKitRules(const QString &kitName)
{
    // The record keeps the lists a sandbox was created with, so that a restart does not need
    // the kit directory; after an edit of spec.yaml it is brought up to date as well.
    bool found = false;
    std::optional<Error> problem;
    for (const std::shared_ptr<runtime::Runtime> &runtime : reachableRuntimes()) {
        for (const runtime::SandboxInfo &info : runtime->list()) {
            std::optional<SandboxRecord> record = SandboxRecord::read(info.name);
            if (info.kitName != kitName || !record)
                continue;
            const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(record->kitDirectory);
            if (loaded.ok()) {
                record->networkAllow = loaded.kit->networkAllow;
                record->networkDeny = loaded.kit->networkDeny;
                if (const Result<void> written = record->write(); !written && !problem)
                    problem = written.error();
            } else if (!problem) {
                problem = fail(QStringLiteral("the kit in %1 no longer loads").arg(record->kitDirectory));
            }
            // Whatever became of the kit, its rules are applied again with the host grants approved
            // now: a grant withdrawn is withdrawn from the sandboxes running already.
            QStringList notes;
            applyKitRules(*record, &notes);
            for (const QString &note : std::as_const(notes))
                qCWarning(lcSandbox).noquote() << note;
            found = true;
        }
    }
    if (problem)
        return *problem;
    if (!found)
        return fail(QStringLiteral("no sandbox uses the kit %1").arg(kitName));
    qCInfo(lcSandbox) << "network permissions of kit" << kitName << "read again";
    return {};
}

Result<void> SandboxService::runOperation(const QString &name, std::function<Work()> work,
                                          std::function<void(const Work &)> done)
{
    if (m_busy.contains(name))
        return fail(QStringLiteral("sandbox %1 is busy with another operation").arg(name),
                    QStringLiteral("try again in a moment"));
    m_busy.insert(name);
    std::weak_ptr<int> alive = m_alive;
    // Detached: a runtime call is bounded (start and stop wait a few seconds at most; an
    // install as long as its commands), and the daemon must not wait for one to exit.
    std::thread([this, alive, name, work = std::move(work), done = std::move(done)] {
        const Work result = work();
        if (alive.expired())
            return;
        QMetaObject::invokeMethod(
            this,
            [this, name, done, result] {
                m_busy.remove(name);
                done(result);
                if (result.sandbox) // started: its paddock-init is new
                    trustSandboxInit(*result.sandbox);
                emit operationFinished(name);
            },
            Qt::QueuedConnection);
    }).detach();
    return {};
}

void SandboxService::applyCredentialsNow()
{
    m_credentials->reloadNow();
}

void SandboxService::registerMethods()
{
    registerLearningMethods();
    registerReviewMethods();
    // A command that changed credentials.yaml or a key (the CLI's binding and secret verbs) has
    // them applied before it returns, not when the file watch settles.
    m_server.registerMethod(QStringLiteral("credentials.reload"),
                            [this](const QJsonObject &, const api::CallContext &) {
                                applyCredentialsNow();
                                return api::Reply::success({});
                            });
    m_server.registerAsyncMethod(
        QStringLiteral("sandbox.create"),
        [this](const QJsonObject &params, const api::CallContext &, const api::PendingReply &reply) {
            if (const std::optional<api::Reply> refusal = admitCreation(params))
                return reply.complete(*refusal);
            m_credentials->admit(params, reply, [=, this] {
                // A variable's value may be a key of the keychain: only the daemon can tell.
                m_credentials->refuseStoredKeys(requestedVariables(params), [=, this](const QString &problem) {
                    if (!problem.isEmpty())
                        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                                          QStringLiteral("--env: %1").arg(problem));
                    createSandbox(params, reply);
                });
            });
        });
    m_server.registerMethod(
        QStringLiteral("sandbox.hostGrants"),
        [](const QJsonObject &params, const api::CallContext &) { return describeHostGrants(params); });
    m_server.registerMethod(
        QStringLiteral("sandbox.credentials"),
        [this](const QJsonObject &params, const api::CallContext &) { return m_credentials->describe(params); });
    m_server.registerAsyncMethod(
        QStringLiteral("sandbox.start"),
        [this](const QJsonObject &params, const api::CallContext &, const api::PendingReply &reply) {
            m_credentials->admitStart(params.value(QLatin1String("name")).toString(), reply,
                                      [=, this] { startSandbox(params, reply); });
        });
    m_server.registerAsyncMethod(QStringLiteral("sandbox.stop"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { stopSandbox(params, reply); });
    m_server.registerAsyncMethod(QStringLiteral("sandbox.remove"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { removeSandbox(params, reply); });
    m_server.registerAsyncMethod(QStringLiteral("sandbox.recreate"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { recreateSandbox(params, reply); });
    m_server.registerAsyncMethod(QStringLiteral("sandbox.volumes"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { listVolumes(params, reply); });

    m_server.registerAsyncMethod(
        QStringLiteral("sandbox.finished"),
        [this](const QJsonObject &params, const api::CallContext &, const api::PendingReply &reply) {
            const QString name = params.value(QLatin1String("name")).toString();
            if (name.isEmpty())
                return reply.complete(invalid(QStringLiteral("sandbox.finished needs a name")));
            // A session ended; the sandbox may run on (its endpoint stays open then).
            const std::shared_ptr<runtime::Runtime> owner = runtimeOf(name);
            const std::optional<runtime::SandboxInfo> info = owner ? owner->inspect(name) : std::nullopt;
            if (!info || info->status != runtime::SandboxStatus::Running)
                closeEndpoint(name);
            qCInfo(lcSandbox) << "a session of sandbox" << name << "finished"
                              << params.value(QLatin1String("exitCode")).toInt(-1);
            // A clone's commits come back to the user's repository once the run is over.
            auto job = [name, owner]() -> Work {
                return {runtime::RuntimeResult::success(),
                        CloneWorkspace::fetchBackNotes(name) +
                            (owner ? RemoteFetchBack::notes(*owner, name) : QStringList())};
            };
            auto done = [reply](const Work &work) {
                reply.succeed({{QStringLiteral("notes"), QJsonArray::fromStringList(work.notes)}});
            };
            if (!runOperation(name, std::move(job), std::move(done)).ok())
                reply.succeed({});
        });
    registerQueryMethods();
    registerServiceMethods();
}

} // namespace paddock::sandbox
