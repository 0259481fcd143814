// SPDX-License-Identifier: GPL-3.0-or-later
// What SandboxService tells of its sandboxes: the daemon methods `sandbox.isolations`,
// `sandbox.list`, `sandbox.inspect`, `sandbox.agentCommand` and `sandbox.logs` (documented in SandboxService.h), and the
// INFO object every sandbox method answers with.
#include "api/Server.h"
#include "sandbox/CloneWorkspace.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SandboxService.h"
#include "sandbox/SharedFolders.h"
#include "sandbox/WorkspaceGuard.h"

#include "kit/KitArchive.h"
#include "kit/KitLoader.h"
#include <QDir>

#include <QJsonArray>

namespace paddock::sandbox {
namespace {

constexpr qint64 kLogChunkBytes = 512 * 1024;

QString lifetimeName(runtime::SandboxSpec::Lifetime lifetime)
{
    return lifetime == runtime::SandboxSpec::Lifetime::Foreground ? QStringLiteral("foreground")
                                                                  : QStringLiteral("detached");
}

/** The answer to `sandbox.checkShares` (see SandboxService.h). */
api::Reply checkShares(const QJsonObject &params)
{
    QStringList kitVariables;
    const QString kitDirectory = params.value(QLatin1String("kit")).toString();
    if (!kitDirectory.isEmpty()) {
        if (const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(kitDirectory); loaded.kit)
            kitVariables = credentialVariables(*loaded.kit);
    }
    const QString workspace = params.value(QLatin1String("workspace")).toString();
    QJsonArray mounts;
    for (const QJsonValue &value : params.value(QLatin1String("mounts")).toArray()) {
        SharedFolder folder = SharedFolder::fromJson(value.toObject());
        QString warning;
        const std::optional<QString> problem =
            QDir::isAbsolutePath(folder.hostPath) && QDir::isAbsolutePath(folder.insidePath)
                ? sharedFolderProblem(&folder, workspace, runtime::SandboxSpec().sandboxHome, &warning)
                : std::optional<QString>(QStringLiteral("both paths must be absolute"));
        QJsonObject entry = folder.toJson();
        if (problem)
            entry.insert(QStringLiteral("problem"), *problem);
        if (!warning.isEmpty())
            entry.insert(QStringLiteral("warning"), warning);
        mounts.append(entry);
    }
    QJsonArray env;
    const QJsonObject variables = params.value(QLatin1String("env")).toObject();
    for (auto it = variables.begin(); it != variables.end(); ++it) {
        QJsonObject entry{{QStringLiteral("name"), it.key()}};
        if (const auto problem = variableProblem(it.key(), it.value().toString(), kitVariables))
            entry.insert(QStringLiteral("problem"), *problem);
        env.append(entry);
    }
    QJsonObject result{{QStringLiteral("mounts"), mounts}, {QStringLiteral("env"), env}};
    if (!workspace.isEmpty()) {
        if (const std::optional<QString> problem = workspaceProblem(workspace))
            result.insert(QStringLiteral("workspaceProblem"), *problem);
    }
    return api::Reply::success(result);
}

/** The answer to `sandbox.agentCommand` (see SandboxService.h), from the sandbox's record. */
api::Reply agentCommand(const QJsonObject &params, const std::optional<SandboxRecord> &record)
{
    const QString name = params.value(QLatin1String("name")).toString();
    const QString verbName = params.value(QLatin1String("verb")).toString();
    const std::optional<kit::AgentVerb> verb = kit::agentVerbNamed(verbName);
    if (!verb)
        return api::Reply::failure(
            QLatin1String(api::errors::kInvalidParams),
            QStringLiteral("'%1' is not an agent verb (new-session, prompt, resume, continue, session-picker or list)")
                .arg(verbName.left(40)));
    if (!record || record->agentVerbs.launch.isEmpty())
        return api::Reply::failure(QLatin1String(api::errors::kInvalidKit),
                                   QStringLiteral("sandbox %1 keeps no launch command for its agent (made before "
                                                  "Paddock kept one): remove it and create it again")
                                       .arg(name));
    kit::AgentVerbs verbs = record->agentVerbs;
    if (verbs.kitName.isEmpty())
        verbs.kitName = record->kitName;
    if (verbs.isEmpty())
        return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                   QStringLiteral("kit %1 declares no agent verbs (agent-sessions@1 or "
                                                  "agent-interactive-sessions@1); 'paddock attach --start %2' opens "
                                                  "its agent")
                                       .arg(verbs.kitName, name));
    const Result<QStringList> argv = verbs.argv(*verb, params.value(QLatin1String("terminal")).toBool(),
                                                params.value(QLatin1String("value")).toString());
    if (!argv)
        return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), argv.errorText());
    return api::Reply::success(
        {{QStringLiteral("argv"), QJsonArray::fromStringList(*argv)}, {QStringLiteral("kit"), verbs.kitName}});
}

/** What @p record adds to a sandbox's details: its services and what its kit was granted. */
void addRecorded(QJsonObject &object, const SandboxRecord &record)
{
    if (!record.services.isEmpty())
        object.insert(QStringLiteral("services"), toJson(record.services));
    // What a v3 kit asked for that this sandbox goes without.
    if (!record.skippedCapabilities.isEmpty())
        object.insert(QStringLiteral("skippedCapabilities"), QJsonArray::fromStringList(record.skippedCapabilities));
    // The workload and mixins it was composed of, with their digests.
    if (!record.composition.isEmpty())
        object.insert(QStringLiteral("composition"), record.composition);
    // ssh-agent@1 as applied for the runtime phase: what the sandbox's agent signs.
    if (record.sshAgent)
        object.insert(QStringLiteral("sshAgent"), appliedSshAgentJson(record));
    // The verbs its kit declares for `paddock agent` (they grant nothing).
    if (!record.agentVerbs.isEmpty())
        object.insert(QStringLiteral("agentVerbs"), record.agentVerbs.declaredJson());
}

} // namespace

QJsonObject SandboxService::infoJson(const runtime::SandboxInfo &info, bool withSpec) const
{
    QJsonObject object{{QStringLiteral("name"), info.name},
                       {QStringLiteral("kit"), info.kitName},
                       {QStringLiteral("backend"), info.runtime},
                       {QStringLiteral("engine"), info.engine},
                       {QStringLiteral("isolation"), info.isolation},
                       {QStringLiteral("status"), runtime::statusName(info.status)},
                       {QStringLiteral("workspace"), info.workspace},
                       {QStringLiteral("pid"), info.pid},
                       {QStringLiteral("lifetime"), lifetimeName(info.spec.lifetime)},
                       {QStringLiteral("proxySocket"), endpointPath(info.name)},
                       {QStringLiteral("learning"), m_modes->isLearning(info.name)},
                       {QStringLiteral("asking"), m_modes->isAsking(info.name)},
                       {QStringLiteral("workspaceMode"), QStringLiteral("direct")}};
    const std::optional<SandboxRecord> record = SandboxRecord::read(info.name);
    object.insert(QStringLiteral("secretGuard"), record ? record->secretGuard : QStringLiteral("off"));
    if (const std::optional<CloneWorkspace> clone = CloneWorkspace::read(info.name)) {
        object.insert(QStringLiteral("workspace"), clone->folder());
        object.insert(QStringLiteral("workspaceMode"), QStringLiteral("clone"));
        object.insert(QStringLiteral("clone"), clone->toInfoJson());
    }
    if (info.startedAt.isValid())
        object.insert(QStringLiteral("startedAt"), info.startedAt.toUTC().toString(Qt::ISODateWithMs));
    if (info.finishedAt.isValid())
        object.insert(QStringLiteral("finishedAt"), info.finishedAt.toUTC().toString(Qt::ISODateWithMs));
    if (info.exitCode)
        object.insert(QStringLiteral("exitCode"), *info.exitCode);
    if (info.status == runtime::SandboxStatus::Running && info.startedAt.isValid())
        object.insert(QStringLiteral("uptimeMs"), info.startedAt.msecsTo(QDateTime::currentDateTimeUtc()));
    if (!info.rootBase.isEmpty()) {
        QJsonObject root{{QStringLiteral("base"), info.rootBase}};
        if (!info.rootImage.isEmpty())
            root.insert(QStringLiteral("image"), info.rootImage);
        // A kit image's layers are known by their id in the store; the person knows the reference.
        if (const QString reference = record ? kit::referenceOf(record->kitDirectory, info.rootImage) : QString();
            !reference.isEmpty())
            root.insert(QStringLiteral("reference"), reference);
        if (!info.rootMount.isEmpty())
            root.insert(QStringLiteral("mount"), info.rootMount);
        if (info.rootBytes >= 0)
            root.insert(QStringLiteral("bytes"), info.rootBytes);
        object.insert(QStringLiteral("root"), root);
    }
    QJsonArray ports;
    for (const PublishedPort &port : m_ports.ports(info.name, PortForwarder::portsOf(info.spec))) {
        QJsonObject entry{{QStringLiteral("sandbox"), port.sandboxPort}};
        if (!port.hostAddress.isEmpty() && info.status == runtime::SandboxStatus::Running)
            entry.insert(QStringLiteral("host"), port.hostAddress);
        ports.append(entry);
    }
    if (!ports.isEmpty())
        object.insert(QStringLiteral("ports"), ports);
    // What the person shared beyond the kit (--mount, --env, the kit's settings).
    QJsonArray mounts;
    for (const runtime::SharedMount &mount : info.spec.sharedMounts)
        mounts.append(SharedFolder{mount.hostPath, mount.sandboxPath, mount.writable}.toJson());
    QJsonObject variables;
    for (const QString &name : info.spec.personVariables)
        variables.insert(name, info.spec.environment.value(name));
    if (!mounts.isEmpty())
        object.insert(QStringLiteral("mounts"), mounts);
    if (!variables.isEmpty())
        object.insert(QStringLiteral("env"), variables);
    if (record)
        addRecorded(object, *record);
    if (withSpec) {
        QJsonObject environment;
        for (auto it = info.spec.environment.cbegin(); it != info.spec.environment.cend(); ++it)
            environment.insert(it.key(), it.value());
        object.insert(QStringLiteral("spec"),
                      QJsonObject{{QStringLiteral("argv"), QJsonArray::fromStringList(info.spec.argv)},
                                  {QStringLiteral("environment"), environment},
                                  {QStringLiteral("home"), info.spec.sandboxHome},
                                  {QStringLiteral("interactive"), info.spec.interactive}});
    }
    return object;
}

QJsonObject SandboxService::withAgent(QJsonObject object, const runtime::Runtime &runtime,
                                      const runtime::SandboxInfo &info) const
{
    if (info.status != runtime::SandboxStatus::Running)
        return object;
    const std::optional<runtime::AgentInfo> agent = runtime.agent(info.name);
    if (!agent)
        return object;
    QJsonObject json{{QStringLiteral("state"), runtime::agentStateName(agent->state)},
                     {QStringLiteral("attached"), agent->attached},
                     {QStringLiteral("sessions"), agent->sessions}};
    if (agent->pid > 0 && agent->state == runtime::AgentState::Running)
        json.insert(QStringLiteral("pid"), agent->pid);
    if (agent->exitCode)
        json.insert(QStringLiteral("exitCode"), *agent->exitCode);
    if (!agent->reason.isEmpty())
        json.insert(QStringLiteral("reason"), agent->reason);
    if (agent->startedAt.isValid())
        json.insert(QStringLiteral("startedAt"), agent->startedAt.toString(Qt::ISODate));
    if (agent->finishedAt.isValid())
        json.insert(QStringLiteral("finishedAt"), agent->finishedAt.toString(Qt::ISODate));
    object.insert(QStringLiteral("agent"), json);
    return object;
}

QJsonArray SandboxService::backends() const
{
    QString why;
    const auto docker = m_runtimes.find(QStringLiteral("docker"));
    const bool reachable = docker != m_runtimes.end() && docker->second->isAvailable(&why);
    QJsonObject dockerEntry{{QStringLiteral("id"), QStringLiteral("docker")}, {QStringLiteral("available"), reachable}};
    if (!reachable)
        dockerEntry.insert(QStringLiteral("problem"), dockerProblem(why));
    return {QJsonObject{{QStringLiteral("id"), QStringLiteral("bwrap")}, {QStringLiteral("available"), true}},
            dockerEntry};
}

QString SandboxService::dockerProblem(const QString &why)
{
    if (why.contains(QLatin1String("permission denied"), Qt::CaseInsensitive))
        return QStringLiteral("Docker is there, but your account may not use it: join the docker group (sudo usermod "
                              "-aG docker $USER) and log in again. (%1)")
            .arg(why);
    return QStringLiteral("The Docker engine does not answer: install it (sudo apt install docker.io) and start it "
                          "(sudo systemctl start docker), or use bubblewrap. (%1)")
        .arg(why);
}

bool SandboxService::flushEvents()
{
    const bool drained = m_proxy.drainEvents(std::chrono::seconds(2));
    return m_hub && m_hub->flush(std::chrono::seconds(5)) && drained;
}

void SandboxService::registerQueryMethods()
{
    m_server.registerMethod(QStringLiteral("sandbox.checkShares"),
                            [](const QJsonObject &params, const api::CallContext &) { return checkShares(params); });
    m_server.registerMethod(QStringLiteral("sandbox.isolations"), [this](const QJsonObject &,
                                                                         const api::CallContext &) {
        // What a new sandbox may get here; gVisor when the engine reports its runsc runtime.
        QJsonArray levels{
            QJsonObject{{QStringLiteral("id"), QStringLiteral("container")}, {QStringLiteral("available"), true}}};
        QString why = QStringLiteral("the Docker engine does not answer");
        const auto docker = m_runtimes.find(QStringLiteral("docker"));
        const bool gvisor = docker != m_runtimes.end() && docker->second->isAvailable(&why) &&
                            docker->second->offersIsolation(QStringLiteral("gvisor"), &why);
        levels.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("gvisor")},
                                  {QStringLiteral("backend"), QStringLiteral("docker")},
                                  {QStringLiteral("available"), gvisor},
                                  {QStringLiteral("problem"), gvisor ? QString() : why}});
        return api::Reply::success({{QStringLiteral("isolations"), levels}, {QStringLiteral("backends"), backends()}});
    });
    m_server.registerMethod(QStringLiteral("sandbox.list"), [this](const QJsonObject &, const api::CallContext &) {
        QJsonArray sandboxes;
        for (const std::shared_ptr<runtime::Runtime> &runtime : reachableRuntimes()) {
            for (const runtime::SandboxInfo &info : runtime->list()) {
                if (onItsEngine(info))
                    sandboxes.append(withAgent(infoJson(info), *runtime, info));
            }
        }
        return api::Reply::success({{QStringLiteral("sandboxes"), sandboxes}});
    });
    m_server.registerMethod(
        QStringLiteral("sandbox.inspect"), [this](const QJsonObject &params, const api::CallContext &) {
            const QString name = params.value(QLatin1String("name")).toString();
            const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
            if (!runtime)
                return api::Reply::failure(QLatin1String(api::errors::kNoSuchSandbox),
                                           QStringLiteral("no sandbox named %1").arg(name));
            const runtime::SandboxInfo info = *runtime->inspect(name);
            return api::Reply::success({{QStringLiteral("sandbox"), withAgent(infoJson(info, true), *runtime, info)}});
        });
    m_server.registerMethod(QStringLiteral("sandbox.agentCommand"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                const QString name = params.value(QLatin1String("name")).toString();
                                if (!runtimeOf(name))
                                    return api::Reply::failure(QLatin1String(api::errors::kNoSuchSandbox),
                                                               QStringLiteral("no sandbox named %1").arg(name));
                                return agentCommand(params, SandboxRecord::read(name));
                            });
    m_server.registerMethod(
        QStringLiteral("sandbox.logs"), [this](const QJsonObject &params, const api::CallContext &) {
            const QString name = params.value(QLatin1String("name")).toString();
            const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
            if (!runtime)
                return api::Reply::failure(QLatin1String(api::errors::kNoSuchSandbox),
                                           QStringLiteral("no sandbox named %1").arg(name));
            QString error;
            // Chunks keep every answer well under the protocol's line limit once in base64, and
            // the daemon never holds more of a log than one chunk.
            const qint64 offset = std::max<qint64>(0, params.value(QLatin1String("offset")).toInteger());
            const std::optional<runtime::LogPage> page = runtime->logs(name, offset, kLogChunkBytes, &error);
            if (!page)
                return api::Reply::failure(QLatin1String(api::errors::kInternal), error);
            return api::Reply::success({{QStringLiteral("data"), QString::fromLatin1(page->data.toBase64())},
                                        {QStringLiteral("offset"), page->offset},
                                        {QStringLiteral("next"), page->offset + page->data.size()},
                                        {QStringLiteral("start"), page->start},
                                        {QStringLiteral("size"), page->end}});
        });
}

} // namespace paddock::sandbox
