// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sandbox/WorkspaceReview.h"

#include "events/EventHub.h"
#include "network/PolicyDecider.h"
#include "policy/PolicyStore.h"
#include "proxy/ProxyEngine.h"
#include "runtime/Runtime.h"
#include "sandbox/PortForwarder.h"
#include "sandbox/ProgramOrigins.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SshAgents.h"

#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace paddock::api {
class Server;
class PendingReply;
class Reply;
struct CallContext;
} // namespace paddock::api

namespace paddock::runtime {
class DockerRuntime;
namespace docker {
struct Endpoint;
}
} // namespace paddock::runtime

namespace paddock::sandbox {

struct Engine;

class CredentialInjection;
struct CreationPlan;

/**
 * @brief The daemon's owner of sandboxes: the egress proxy with one endpoint per sandbox, the
 * policy it decides with, the event log, and the runtimes.
 *
 * The policy is policy.yaml through a PolicyStore (edits apply to the next connection) plus,
 * for each sandbox, its kit's `permissions.network` as rules of scope `kit:KIT`. Each sandbox
 * has its own endpoint at `paths::runtimeDir()/sandboxes/NAME/proxy.sock`, created with the
 * sandbox and kit names, so every decision and event names them whatever the client sends.
 * Every event the proxy reports is stored and pushed to clients subscribed to topic `network`
 * (NetworkEvent::toJson(): time, sandbox, kit, host, port, protocol, outcome, rule, reason,
 * bytes).
 *
 * The endpoint's directory, not only the socket, is visible inside the sandbox, so when the
 * daemon is restarted and listens again at the same path, a sandbox that kept running reaches
 * the new socket: at start the service finds the runtime's running sandboxes and re-creates
 * their endpoints.
 *
 * Methods (params → result; errors carry a sentence for the user):
 * - `sandbox.create` {kit: DIR, workspace, name?, paths?: [..], args?: [..], kitArgs?: {..},
 *   backend?: "bwrap"|"docker", interactive?: bool, protectHostFiles?: bool, mounts?: [{host,
 *   inside, mode: rw|ro}], env?: {NAME: VALUE}, kitShares?: bool, disposable?: bool} → {sandbox: INFO, notes: [..]}:
 *   records
 *   a sandbox, fills its home and runs `setup.install` once. `interactive` (default true)
 *   gives the agent started with the sandbox a terminal of its own. A docker sandbox's home is
 *   the same kind of host directory, `paths::dataDir()/sandboxes/NAME/home`. A kit's
 *   ssh-agent@1 relays to `sshAuthSock` (else the daemon's SSH_AUTH_SOCK), to that alone with
 *   `sshAgentOnly: true`, with the servers' keys of `sshKnownHosts` (an absolute path); a
 *   required one that cannot be backed here is refused with error `capability-refused`.
 * - Credentials (CredentialInjection::admit()): a sandbox whose kit injects a
 *   required key that has no secret, or whose binding does not approve the kit's domains, is
 *   refused with error `credentials-required`, whose message names each service with the
 *   command that fixes it (`paddock secret set SERVICE`, `paddock binding approve --kit DIR
 *   SERVICE`); optional credentials never refuse. `approveCredentials: true` records the
 *   approvals in credentials.yaml first (required credentials, and optional ones that have a
 *   secret), as the user's "approve" in a dialog. The errors of the protocol carry no data, so
 *   the desktop application asks `sandbox.credentials` with the same params for the dialog.
 * - Host grants (HostGrantAdmission): a sandbox whose kit's `permissions.network.allow` reaches
 *   this computer or its networks (loopback, private ranges, cloud metadata, its own addresses)
 *   is neither created nor started until each such pattern is approved for the kit in
 *   host-grants.yaml; the refusal, error `host-grants-required`, names each grant and the
 *   command that approves it (`paddock grant approve --kit DIR`). `approveHostGrants: true`
 *   (on `sandbox.create` and `sandbox.start`) records them first. Unapproved grants of a
 *   running sandbox's kit allow nothing.
 * - `sandbox.hostGrants`: the params of `sandbox.create` → {sandbox, kit, grants: [{pattern,
 *   reaches: [..], approved}], pending: [PATTERN..], blocked: bool, message, command}.
 * - `sandbox.credentials`: the same params → {sandbox: NAME, blocked: bool, missingSecrets:
 *   [{service, description, required, command}], pendingApprovals: [{service, description,
 *   required, domains, newDomains, hasSecret}], messages: [..], warnings: [..]}: what a create
 *   with these params would refuse (@c messages) or only warn about.
 * - `sandbox.finished` {name, exitCode?} → {notes}: a session the caller ran ended (`paddock
 *   run`): a clone workspace's commits are fetched back now.
 * - `sandbox.start` {name, agent?: bool, approveHostGrants?: bool} → {sandbox: INFO}: starts a
 *   detached sandbox; it runs until stopped. Its agent starts with it in a terminal of its own,
 *   unless `agent` is false (the caller starts it then, through the session channel).
 * - `sandbox.stop` {name} → {sandbox: INFO}.
 * - `sandbox.remove` {name, force?: bool} → {removed: NAME}: with force a running one is
 *   stopped first; its home goes with it.
 *   Its block volumes go too (recreated or not, declared now or not).
 * - `sandbox.recreate` {name, kit?, kitArgs?} → {sandbox: INFO}: the sandbox made again from its
 *   kit as loaded now (or the kit directory given), with its recorded choices (workspace, shares,
 *   variables, backend, engine; kitArgs replaced by name): a fresh root and home, setup.install run
 *   again, its block volumes kept and mounted again. A volume asked for with another size, mode or
 *   kind than the one kept at its path refuses it first (`recreate-refused`), changing nothing. A
 *   running sandbox is started again.
 * - `sandbox.volumes` {name, backend?} → {volumes: [PATH..]}: the inside paths of the block
 *   volume storage the runtime holds for NAME, mounted or retained; also once it is removed.
 * - `sandbox.list` {} → {sandboxes: [INFO..]}.
 * - `sandbox.isolations` {} → {isolations: [{id: container|gvisor, available, backend?,
 *   problem?}], backends: [{id: bwrap|docker, available, problem?}]}: the levels and backends a
 *   new sandbox may ask for here (`isolation`, `backend` of `sandbox.create`), with what stands
 *   in the way of one that is not available and how to fix it.
 * - `sandbox.inspect` {name} → {sandbox: INFO} with `spec` (argv, environment, mounts).
 *   INFO's `agentVerbs` {terminal: [..], headless: [..]} names the verbs its kit declares.
 * - `sandbox.agentCommand` {name, verb, terminal?: bool, value?} → {argv, kit}: the argv of an
 *   agent verb (kit::AgentVerbs: new-session, prompt, resume, continue, session-picker, list)
 *   for the caller to run in the sandbox; a verb the kit does not declare is refused, saying so.
 * - Companion services (Companions.h), kept in the sandbox's record: `service.add` {sandbox,
 *   service: {name, image, env, ports, volumes, command}} → {service, routes}, `service.remove`
 *   {sandbox, name} → {removed}, `service.list` {sandbox} → {services: [..], running: bool}. They
 *   start before and stop after the sandbox; one added to a running sandbox starts at once. They
 *   need a Docker engine whatever runs the sandbox. With {kit: DIR} for {sandbox}, the kit's
 *   settings (kit::KitSettings), which every sandbox of the kit created afterwards gets.
 * - Shared folders and variables (SharedFolders.h): `mounts` and `env` of `sandbox.create`, then
 *   those of the kit's settings (kit::KitSettings; not with `kitShares: false`, for a caller that
 *   sent them itself), each checked, and a value holding a key of the keychain refused.
 *   `sandbox.checkShares` {kit?, workspace?, mounts, env} → {mounts: [{host, inside, mode,
 *   problem?, warning?}], env: [{name, problem?}], workspaceProblem?} says the same before a
 *   create (the window's wizard, `paddock env`), host paths made canonical, and why the
 *   workspace is refused (WorkspaceGuard); INFO carries them as `mounts` and `env`.
 * - `sandbox.logs` {name, offset?} → {data: base64, offset, next, start, size}: the output of
 *   a detached sandbox from @c offset, at most 512 KiB per call. Offsets count from the first
 *   byte the sandbox wrote; only the newest output is kept (Runtime::logs), from @c start to
 *   @c size, and an @c offset before @c start reads from @c start.
 *
 * - `sandbox.review` {name} → {changes: [{path, change: added|modified|removed, what, diff,
 *   revertible}]}: what changed since the sandbox started among the workspace's files the
 *   host runs or trusts (WorkspaceReview); `sandbox.revert` {name, path} → {reverted} puts one
 *   back as it was at the start (or removes one the session added).
 * - `sandbox.learning` {name, enabled: bool} → {sandbox: INFO}: learning mode on or off (see
 *   network::SandboxModes); a connection only the default refuses then passes and is
 *   recorded as `learned` with the rule and reason that would have refused it.
 * - `sandbox.ask` {name, enabled: bool} → {sandbox: INFO}: ask mode on or off (see
 *   network::SandboxModes); a connection only the default refuses is then held while a person
 *   decides (AskService). Turned off, the connections it holds are refused at once.
 * - `policy.proposal` {sandbox, since?: ISO time} → {sandbox, kit, entries: [{host, port,
 *   count, lastSeen, suggestion}], patterns: [..]}: what the sandbox was refused or learned,
 *   folded into the smallest allowlist (proposePolicy()).
 *
 * `sandbox.create` also takes `workspaceMode`: "direct" (the default, the folder itself) or
 * "clone" (a CloneWorkspace, bubblewrap only); a clone's commits are fetched back when a
 * session of `paddock run` ends and when the sandbox is stopped or removed.
 *
 * INFO: {name, kit, backend, status: created|running|stopped, workspace, pid, startedAt,
 * finishedAt, exitCode, uptimeMs, lifetime: detached, proxySocket, ports?, agent?,
 * learning, asking, workspaceMode: direct|clone, clone?: {path, branchPrefix}, root?: {base:
 * image|host|read-only, image?, bytes?}}. `root` is a bubblewrap sandbox's own root: its base
 * (the kit's image, the host's system, or the host's system read-only) and the bytes its
 * upper layer takes.
 * `ports` lists the kit's TCP `ports`: [{sandbox: 8080, host: "127.0.0.1:41234"}], `host`
 * only while the sandbox runs and the port is published (see PortForwarder): the daemon
 * publishes them wherever it opens the sandbox's endpoint, on both runtimes.
 */
class SandboxService : public QObject
{
    Q_OBJECT
public:
    /** The `network` topic clients subscribe to for live events. */
    static QString networkTopic() { return QStringLiteral("network"); }
    /** Request records (method, path, status, bytes, duration) of plain HTTP and terminated TLS. */
    static QString requestsTopic() { return QStringLiteral("requests"); }
    /** `paths::runtimeDir()/sandboxes/NAME/proxy.sock`. */
    static QString endpointPath(const QString &name);
    /** Where paddock-init is: `$PADDOCK_INIT`, next to the executable, or in ../libexec/paddock. */
    static QString findInitProgram();
    /** The home of sandbox @p name on the host: `paths::dataDir()/sandboxes/NAME/home`. */
    static QString homeOf(const QString &name);

    explicit SandboxService(api::Server &server, QObject *parent = nullptr);
    ~SandboxService() override;

    /** Loads the policy, starts the proxy, registers the methods and refinds running sandboxes. */
    Result<void> start();
    /** Closes every endpoint (running sandboxes keep running) and flushes the event log. */
    void stop();

    proxy::ProxyEngine &proxy() { return m_proxy; }
    CredentialInjection &credentials() { return *m_credentials; }
    /** The policy in force (policy.yaml): PolicyService edits it, the proxy decides with it. */
    policy::PolicyStore &policyStore() { return m_policy; }
    /** Where every proxy event goes; null before start(). */
    events::EventHub *eventHub() const { return m_hub.get(); }
    /**
     * Writes into the event log every event of what the proxy did before the call (its current
     * turn ended, its dispatcher drained, the hub flushed). False when that took too long.
     */
    bool flushEvents();
    /** [{id: bwrap|docker, available, problem?}]: the backends a new sandbox may use here. */
    QJsonArray backends() const;
    /** What stands in the way of the Docker backend, for a person: the engine's @p why and the fix. */
    static QString dockerProblem(const QString &why);
    /** The names of the sandboxes running now, on every runtime that answers. */
    QStringList runningSandboxes() const;
    /** What the runtime that holds sandbox @p name knows of it; nothing when none does. */
    std::optional<runtime::SandboxInfo> inspect(const QString &name) const;
    /**
     * Reads the spec.yaml of kit @p kitName again, from the directory of each sandbox made from
     * it, and applies its `permissions.network` at once: a kit edited while its sandboxes run
     * decides their next connection. An error when no sandbox uses the kit or its spec.yaml no
     * longer loads: the rules of that spec.yaml as it last loaded stay in force then, with the
     * host grants approved now (a withdrawn one is withheld all the same).
     */
    Result<void> reloadKitRules(const QString &kitName);
    /** Applies credentials.yaml and the keychain's index as they are now (CredentialInjection::reloadNow()). */
    void applyCredentialsNow();
    /** The runtime that knows sandbox @p name, among those that answer now; null when none does. */
    std::shared_ptr<runtime::Runtime> runtimeOf(const QString &name) const;
    /** The sandboxes recorded as running on the Docker engine @p engine (EngineList). */
    QStringList sandboxesOnEngine(const QString &engine) const;
    /** Drops the runtime of engine @p engine, which is no longer there. */
    void forgetEngine(const QString &engine);

Q_SIGNALS:
    /** An operation on sandbox @p name (create, start, stop, remove) has finished, well or not. */
    void operationFinished(const QString &name);
    /** The proxy holds a connection for a person's answer, or stopped holding it (Held / HoldEnded). */
    void connectionHeld(const paddock::proxy::ProxyEvent &event);

private:
    struct Work
    {
        runtime::RuntimeResult result;
        QStringList notes;
        /** The sandbox as the work left it, read on the work's thread (a start sets it). */
        std::optional<runtime::SandboxInfo> sandbox = std::nullopt;
    };

    void registerMethods();
    void registerQueryMethods();   ///< isolations, list, inspect, logs: in SandboxQueries.cpp
    void registerServiceMethods(); ///< service.add, service.remove, service.list: in CompanionService.cpp
    void addService(const QJsonObject &params, const api::PendingReply &reply);
    void removeService(const QJsonObject &params, const api::PendingReply &reply);
    /**
     * Starts sandbox @p name's companion services (its record's) and gives endpoint @p endpoint
     * their routes; on any thread. Succeeds when it has none; an error when one fails.
     */
    static Result<void> startCompanions(proxy::ProxyEngine &proxy, proxy::ProxyEngine::EndpointId endpoint,
                                        const QString &name);
    /** Stops (or with @p remove, removes with their volumes and network) sandbox @p name's services. */
    static void stopCompanions(const QString &name, bool remove);
    /** Adds the kit's services (kit::KitSettings) that @p record has none of the same name of. */
    static Result<void> addKitCompanions(SandboxRecord &record);
    void registerLearningMethods(); ///< learning and ask mode, in Learning.cpp
    void registerReviewMethods();   ///< in Review.cpp
    /** Where the files of @p name's workspace are recorded at each start, for `sandbox.review`. */
    static QString reviewDir(const QString &name);
    /** Records, for review, what the host runs or trusts in @p workspace (not for a clone). */
    static void recordForReview(const QString &name, const QString &workspace);
    /** What changed since @p name started in the read-write folders it shares that the host runs programs from. */
    QList<ReviewedChange> sharedFolderChanges(const QString &name) const;
    void refindSandboxes();
    void onPolicyChanged();

    Result<std::shared_ptr<runtime::Runtime>> runtimeFor(const QString &backend) const;
    /**
     * The Docker backend on engine @p engine (empty: the one in use), named in @p engineName;
     * an error when there is none of that name or it does not answer.
     */
    Result<std::shared_ptr<runtime::Runtime>> engineRuntime(const QString &engine, QString *engineName);
    /** The Docker runtime of @p engine; one of another computer copies in and relays (RemoteRelay). */
    std::shared_ptr<runtime::DockerRuntime> engineDockerRuntime(const Engine &engine,
                                                                const runtime::docker::Endpoint &endpoint);
    /** Adds the runtimes of the engines that recorded sandboxes run on (at start). */
    void addRecordedEngines();
    /** Every runtime that can answer now (bwrap always; a container engine when it is up). */
    QList<std::shared_ptr<runtime::Runtime>> reachableRuntimes() const;
    /**
     * Whether @p info is its sandbox as seen on the engine it was made on: two names of one
     * engine (an added engine or a context at this computer's socket) both list its containers.
     */
    static bool onItsEngine(const runtime::SandboxInfo &info);
    /** runtimeOf() among @p runtimes; from any thread. */
    static std::shared_ptr<runtime::Runtime> holderAmong(const QList<std::shared_ptr<runtime::Runtime>> &runtimes,
                                                         const QString &name);

    /** Also publishes @p ports (see PortForwarder) through `ports.sock` beside the endpoint. */
    Result<void> openEndpoint(const QString &name, const QString &kitName, const QList<quint16> &ports = {});
    void closeEndpoint(const QString &name);
    /**
     * The sandbox @p info runs with a new paddock-init (pid 0: none): the one peer whose word on
     * which program connected its proxy takes, and what its layout says of its programs' files.
     */
    void trustSandboxInit(const runtime::SandboxInfo &info);
    void applyKitRules(const SandboxRecord &record, QStringList *notes);
    void forgetKitRulesIfUnused(const QString &kitName);

    QJsonObject infoJson(const runtime::SandboxInfo &info, bool withSpec = false) const;
    /** @p object with `agent` {state, pid?, exitCode?, reason?, startedAt?, finishedAt?, attached,
     *  sessions} for a running sandbox, as its supervisor reports it; `reason` says why the agent
     *  could not start ("pi: command not found"). */
    QJsonObject withAgent(QJsonObject object, const runtime::Runtime &runtime, const runtime::SandboxInfo &info) const;

    /** The host grants of a `sandbox.create`'s kit (HostGrantAdmission): nullopt, or the refusal. */
    static std::optional<api::Reply> admitCreation(const QJsonObject &params);
    /** `sandbox.hostGrants`. */
    static api::Reply describeHostGrants(const QJsonObject &params);
    /** `sandbox.create`: planned here, then created on a worker (SandboxCreation). */
    void createSandbox(const QJsonObject &params, const api::PendingReply &reply);
    /** Refuses the name of a sandbox that exists already, on any runtime (@p holder: runtimeOf(its name)). */
    bool admitName(const CreationPlan &plan, const std::shared_ptr<runtime::Runtime> &runtime,
                   const std::shared_ptr<runtime::Runtime> &holder, api::Reply *refusal) const;
    /** Records the sandbox with its kit's rules and credentials, and opens its endpoint. */
    bool recordSandbox(CreationPlan &plan, const QString &backend, const QString &engine, api::Reply *refusal);
    void startSandbox(const QJsonObject &params, const api::PendingReply &reply);
    void stopSandbox(const QJsonObject &params, const api::PendingReply &reply);
    void removeSandbox(const QJsonObject &params, const api::PendingReply &reply);
    /** `sandbox.recreate` {name, kit?, kitArgs?} (SandboxRecreation.cpp). */
    void recreateSandbox(const QJsonObject &params, const api::PendingReply &reply);
    /** For a sandbox gone but recorded (a recreation failed): its record's runtime, and removing what is left. */
    std::shared_ptr<runtime::Runtime> leftoverRuntime(const QString &name);
    void removeLeftovers(const QString &name, std::shared_ptr<runtime::Runtime> runtime,
                         const api::PendingReply &reply);
    /** `sandbox.volumes` {name, backend?} → {volumes: [inside path]}. */
    void listVolumes(const QJsonObject &params, const api::PendingReply &reply);

    /**
     * Runs @p work on a thread of its own (runtime calls block: a start waits for the sandbox,
     * an install for its commands) and @p done back on the service's thread. At most one
     * operation runs per sandbox; another one is refused meanwhile.
     */
    Result<void> runOperation(const QString &name, std::function<Work()> work, std::function<void(const Work &)> done);

    api::Server &m_server;
    policy::PolicyStore m_policy;
    proxy::ProxyEngine m_proxy;
    std::unique_ptr<events::EventHub> m_hub;
    /** Shared with running operations, which may outlive the service at exit. */
    std::map<QString, std::shared_ptr<runtime::Runtime>> m_runtimes;
    struct EngineCheck
    {
        QElapsedTimer checked;
        bool reachable = false;
    };
    mutable QHash<QString, EngineCheck> m_engineChecks;
    QHash<QString, proxy::ProxyEngine::EndpointId> m_endpoints;
    PortForwarder m_ports;
    QSet<QString> m_busy;
    QMap<QString, QHostAddress> m_overrides;
    int m_subscription = -1;
    std::shared_ptr<int> m_alive; ///< workers check it before reporting back
    /** Shared with the proxy's decider, which reads it on the proxy's thread. */
    std::shared_ptr<network::SandboxModes> m_modes = std::make_shared<network::SandboxModes>();
    /** Where running sandboxes' programs come from; shared with the proxy's classifier. */
    std::shared_ptr<ProgramOrigins> m_origins = std::make_shared<ProgramOrigins>();
    SshAgents m_sshAgents{[this](events::NetworkEvent event) {
        if (m_hub)
            m_hub->publish(std::move(event));
    }};
    std::unique_ptr<CredentialInjection> m_credentials; ///< keys into endpoints, the bundle sandboxes trust
};

} // namespace paddock::sandbox
