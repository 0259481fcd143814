// SPDX-License-Identifier: GPL-3.0-or-later
//
// The sessions of a running Docker sandbox: the agent's, which terminals attach to and leave,
// and commands run beside it. Those of the agent's user go through the sandbox's supervisor
// (paddock-init) over the session channel that docker::SessionBridge opens; those of any other
// user are Engine execs.
#include "runtime/SandboxSpecJson.h"
#include "runtime/docker/DockerRuntime.h"

#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/SessionBridge.h"
#include "runtime/docker/StreamRelay.h"
#include "runtime/session/RawIo.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QThread>

#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcDockerRuntime)

namespace paddock::runtime {

using docker::ContainerInfo;
using docker::Result;
namespace layout = docker::layout;

namespace {

/** How long a started sandbox's supervisor may take to answer. */
constexpr int kSupervisorWaitMs = 15000;
/** How long start() waits for setup.startup to end before the agent starts. */
constexpr int kStartupWaitMs = 60000;
/** agent() is asked on every listing: its answer is kept this long. */
constexpr qint64 kAgentCacheMs = 2000;
constexpr int kExecSettleAttempts = 100;

template<typename T>
RuntimeResult failure(const Result<T> &result)
{
    return RuntimeResult::failure(result.errorMessage());
}

QString tokenOf(const ContainerInfo &container)
{
    return container.labels.value(layout::kLabelSessionToken);
}

SandboxSpec specOf(const ContainerInfo &container)
{
    return sandboxSpecFromJson(QJsonDocument::fromJson(container.labels.value(layout::kLabelSpec).toUtf8()).object());
}

QString nameOf(const ContainerInfo &container)
{
    return container.labels.value(layout::kLabelSandbox);
}

/** The agent's user inside ("1500:1500"): the one paddock-init became, else the one the container runs as. */
QString agentUserOf(const ContainerInfo &container)
{
    const QString became = container.labels.value(layout::kLabelAgentUser);
    if (!became.isEmpty())
        return became;
    return container.raw.value(QStringLiteral("Config")).toObject().value(QStringLiteral("User")).toString();
}

/** The agent's uid ("1500" of "1500:1500"). */
QString containerUid(const ContainerInfo &container)
{
    return agentUserOf(container).section(QLatin1Char(':'), 0, 0);
}

/**
 * Whether a command for @p user runs through the supervisor: the agent's user (the
 * container's) does; any other (root, above all) is an Engine exec, as paddock-init runs as
 * the agent's user and cannot start a process as another.
 *
 * Every command of the agent's user goes through the supervisor, with a terminal or without,
 * rather than only those without one: the Engine cannot signal an exec, while the supervisor
 * passes on the signals the CLI receives (Ctrl-C without a terminal), hangs up a command whose
 * caller went away, counts it among the agent's sessions and ends it with the sandbox. The same
 * user's commands thus behave the same whatever the terminal. A root command without a terminal
 * is left with the Engine's limit: a signal ends the CLI, and the command sees its input end.
 */
bool runsAsAgent(const QString &user, const ContainerInfo &container)
{
    if (user.isEmpty() || user == QLatin1String("agent"))
        return true;
    const QString uid = containerUid(container);
    return user == uid || (user == QLatin1String("root") && uid == QLatin1String("0"));
}

QString noChannel(const ContainerInfo &container)
{
    return QStringLiteral("sandbox %1 has no agent session: it was made by an earlier Paddock (or runs a setup "
                          "step); remove it and create it again")
        .arg(nameOf(container));
}

} // namespace

RuntimeResult DockerRuntime::awaitSupervisor(const ContainerInfo &container, const StartOptions &options)
{
    const QString name = nameOf(container);
    if (tokenOf(container).isEmpty()) {
        qCWarning(lcDockerRuntime) << "sandbox" << name << "predates supervised sandboxes: it runs its program alone";
        return RuntimeResult::success();
    }
    // paddock-init listens a moment after the container starts; the sandbox takes sessions
    // once it answers, which is what a caller of start() expects.
    QElapsedTimer timer;
    timer.start();
    QString error;
    std::optional<AgentInfo> status;
    while (!(status = queryAgent(container, &error))) {
        const Result<ContainerInfo> now = m_client.inspectContainer(container.id);
        if (now && !now.value().running) {
            QString log = QString::fromUtf8(logs(name, 0, 1 << 20).value_or(LogPage()).data.right(1024)).trimmed();
            return RuntimeResult::failure(QStringLiteral("sandbox %1 ended as it started (status %2)%3")
                                              .arg(name)
                                              .arg(now.value().exitCode)
                                              .arg(log.isEmpty() ? QString() : QStringLiteral(": ") + log));
        }
        if (timer.elapsed() > kSupervisorWaitMs)
            return RuntimeResult::failure(
                QStringLiteral("sandbox %1 started, but its supervisor does not answer: %2").arg(name, error));
        QThread::msleep(50);
    }
    // setup.startup runs before the agent, as the only session of a fresh start; a startup
    // that outlasts the wait is left to finish beside the agent.
    while (status && status->sessions > 0 && timer.elapsed() < kStartupWaitMs) {
        QThread::msleep(100);
        status = queryAgent(container, &error);
    }
    if (!options.startAgent)
        return RuntimeResult::success();
    std::unique_ptr<docker::SessionBridge> bridge =
        docker::SessionBridge::open(m_client, container.id, agentUserOf(container), layout::kSessionSocket, &error);
    // A terminal of its own when the sandbox was made for one, as paddock-init's --agent-terminal.
    const bool terminal = specOf(container).interactive;
    const bool started = bridge && session::startAgent(bridge->takeFd(), tokenOf(container), terminal, &error);
    const QString relayErrors = bridge ? bridge->finish() : QString();
    if (!started && !relayErrors.isEmpty())
        error = relayErrors;
    forgetAgent(name);
    if (!started)
        return RuntimeResult::failure(QStringLiteral("the agent of sandbox %1 did not start: %2").arg(name, error));
    qCInfo(lcDockerRuntime) << "started the agent of sandbox" << name;
    return RuntimeResult::success();
}

RuntimeResult DockerRuntime::runSessionRequest(const ContainerInfo &container, const session::SessionRequest &request,
                                               const ProcessIo &io)
{
    if (tokenOf(container).isEmpty())
        return RuntimeResult::failure(noChannel(container));
    QString error;
    std::unique_ptr<docker::SessionBridge> bridge =
        docker::SessionBridge::open(m_client, container.id, agentUserOf(container), layout::kSessionSocket, &error);
    if (!bridge)
        return RuntimeResult::failure(error);
    session::SessionRequest withToken = request;
    withToken.token = tokenOf(container);
    const session::SessionOutcome outcome = session::runSession(bridge->takeFd(), withToken, io);
    return session::resultOf(outcome, bridge->finish());
}

std::optional<AgentInfo> DockerRuntime::queryAgent(const ContainerInfo &container, QString *error) const
{
    if (tokenOf(container).isEmpty()) {
        if (error)
            *error = noChannel(container);
        return std::nullopt;
    }
    QString problem;
    std::unique_ptr<docker::SessionBridge> bridge =
        docker::SessionBridge::open(m_client, container.id, agentUserOf(container), layout::kSessionSocket, &problem);
    std::optional<AgentInfo> info;
    if (bridge) {
        info = session::queryAgent(bridge->takeFd(), tokenOf(container), &problem);
        const QString relayErrors = bridge->finish();
        if (!info && !relayErrors.isEmpty())
            problem = relayErrors;
    }
    if (!info && error)
        *error = problem;
    return info;
}

void DockerRuntime::forgetAgent(const QString &name) const
{
    const std::lock_guard lock(m_agentMutex);
    m_agents.remove(name);
}

std::optional<AgentInfo> DockerRuntime::agent(const QString &name, QString *error) const
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    {
        const std::lock_guard lock(m_agentMutex);
        const auto cached = m_agents.constFind(name);
        if (cached != m_agents.cend() && now - cached->at < kAgentCacheMs) {
            if (!cached->info && error)
                *error = cached->error;
            return cached->info;
        }
    }
    const Result<ContainerInfo> container = runningContainerOf(name);
    if (!container) {
        if (error)
            *error = container.errorMessage();
        return std::nullopt;
    }
    QString problem;
    const std::optional<AgentInfo> info = queryAgent(container.value(), &problem);
    {
        const std::lock_guard lock(m_agentMutex);
        m_agents.insert(name, CachedAgent{now, info, problem});
    }
    if (!info && error)
        *error = problem;
    return info;
}

RuntimeResult DockerRuntime::attach(const QString &name, const AttachOptions &options, const ProcessIo &io)
{
    const Result<ContainerInfo> container = runningContainerOf(name);
    if (!container)
        return failure(container);
    if (options.startAgent)
        forgetAgent(name);
    return runSessionRequest(container.value(), session::attachRequest(options), io);
}

RuntimeResult DockerRuntime::exec(const QString &name, const ExecRequest &request, const ProcessIo &io)
{
    if (request.argv.isEmpty() && !request.asAgent)
        return RuntimeResult::failure(QStringLiteral("no command to run"));
    const Result<ContainerInfo> container = runningContainerOf(name);
    if (!container)
        return failure(container);
    // A container made before sandboxes were supervised has no session channel: the engine
    // runs its commands, as it did then.
    const bool channel = !tokenOf(container.value()).isEmpty();
    if (!request.asAgent && (!channel || !runsAsAgent(request.user, container.value())))
        return execThroughEngine(container.value(), request, io);

    session::SessionRequest spawn = session::spawnRequest(request);
    // The supervisor runs as the agent's user and starts every command as it (runsAsAgent()).
    spawn.user.clear();
    if (request.asAgent)
        forgetAgent(name);
    return runSessionRequest(container.value(), spawn, io);
}

RuntimeResult DockerRuntime::execThroughEngine(const ContainerInfo &container, const ExecRequest &request,
                                               const ProcessIo &io)
{
    docker::ExecSpec spec;
    spec.cmd = request.argv;
    // Added to the container's environment by the engine, overriding what it names.
    spec.env = request.environment;
    spec.workingDir = request.workingDir;
    spec.user = request.user == QLatin1String("root") ? QStringLiteral("0") : request.user;
    // A container started as root for capture: the engine would give an exec its capabilities.
    // The agent's user is named, and any other gives them up before its command runs.
    if (container.labels.contains(layout::kLabelAgentUser)) {
        if (spec.user.isEmpty() || spec.user == QLatin1String("agent"))
            spec.user = agentUserOf(container);
        else
            spec.cmd = QStringList{layout::kInitInside, layout::kDropCapabilities, QStringLiteral("--")} + spec.cmd;
    }
    spec.tty = request.interactive && ::isatty(io.in);
    // The client attaches stdin when there is input to send; the input here is the caller's
    // fd, relayed below, so any non-empty placeholder asks for the attachment.
    spec.stdinData = QByteArrayLiteral("-");
    const Result<QString> execId = m_client.createExec(container.id, spec);
    if (!execId)
        return failure(execId);
    auto stream = m_client.startExecAttached(execId.value(), spec.tty);
    if (!stream)
        return failure(stream);
    QString error;
    bool relayed = false;
    {
        std::optional<session::RawTerminal> raw;
        if (spec.tty) {
            raw.emplace(io.in);
            resizeLike(QStringLiteral("/exec/") + execId.value(), io.in);
        }
        relayed = docker::relayStream(*stream.value(), io, true, true, spec.tty, &error);
    }
    if (!relayed)
        return RuntimeResult::failure(error);
    return execExitCode(execId.value());
}

RuntimeResult DockerRuntime::execExitCode(const QString &execId) const
{
    // The stream ends as the process exits; the engine records the exit code a moment later.
    for (int attempt = 0; attempt < kExecSettleAttempts; ++attempt) {
        docker::HttpRequest inspect;
        inspect.path = QStringLiteral("/exec/%1/json").arg(execId);
        const Result<docker::HttpResponse> response = engineCall(inspect);
        if (!response)
            return failure(response);
        const QJsonObject json = QJsonDocument::fromJson(response.value().body).object();
        if (!json.value(QStringLiteral("Running")).toBool() && !json.value(QStringLiteral("ExitCode")).isNull())
            return RuntimeResult::exited(json.value(QStringLiteral("ExitCode")).toInt());
        QThread::msleep(50);
    }
    return RuntimeResult::failure(QStringLiteral("the command ended but the engine gave no exit code"));
}

} // namespace paddock::runtime
