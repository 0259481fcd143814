// SPDX-License-Identifier: GPL-3.0-or-later
// paddock agent: the verbs a kit declares for its agent (agent-sessions@1 without a terminal,
// agent-interactive-sessions@1 with one) run in a sandbox: one prompt, resume, continue, the
// agent's session picker, a new session, and the list of resumable sessions. The daemon builds
// each argv from what the sandbox keeps; this client runs it through the sandbox's supervisor.
#include "Cli.h"
#include "SandboxCliSupport.h"

#include "kit/AgentVerbs.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryFile>

#include <fcntl.h>
#include <unistd.h>

namespace paddock::cli {
namespace {

/** The sandbox @p name running: started (without its own agent) when it is not. */
std::optional<QJsonObject> runningSandbox(const QString &name)
{
    const std::optional<QJsonObject> inspected =
        callDaemon(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), name}});
    if (!inspected)
        return std::nullopt;
    const QJsonObject sandbox = inspected->value(QLatin1String("sandbox")).toObject();
    if (sandbox.value(QLatin1String("status")).toString() == QLatin1String("running"))
        return sandbox;
    const std::optional<QJsonObject> started =
        callDaemon(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name}, {QStringLiteral("agent"), false}});
    if (!started)
        return std::nullopt;
    printNotes(*started);
    return started->value(QLatin1String("sandbox")).toObject();
}

/** The argv of @p verb in sandbox @p name, as the daemon builds it; nothing (printed) when refused. */
std::optional<QStringList> verbArgv(const QString &name, kit::AgentVerb verb, bool terminal, const QString &value)
{
    const std::optional<QJsonObject> answer =
        callDaemon(QStringLiteral("sandbox.agentCommand"), {{QStringLiteral("name"), name},
                                                            {QStringLiteral("verb"), kit::agentVerbName(verb)},
                                                            {QStringLiteral("terminal"), terminal},
                                                            {QStringLiteral("value"), value}});
    if (!answer)
        return std::nullopt;
    QStringList argv;
    for (const QJsonValue &word : answer->value(QLatin1String("argv")).toArray())
        argv << word.toString();
    return argv;
}

/** Runs the kit's `list` command as its own, as the agent's user, and prints the ids it gave. */
int listSessions(runtime::Runtime &runtime, const QString &name, const QStringList &argv)
{
    QTemporaryFile output;
    QTemporaryFile errors;
    const int input = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (!output.open() || !errors.open() || input < 0) {
        if (input >= 0)
            ::close(input);
        return failure(QStringLiteral("cannot create temporary files for the session list"));
    }
    runtime::ExecRequest request;
    request.argv = argv;
    const runtime::RuntimeResult result =
        runtime.exec(name, request, {input, int(output.handle()), int(errors.handle())});
    ::close(input);
    if (!result.ok)
        return failure(result.error);
    QFile stdoutCopy(output.fileName());
    QFile stderrCopy(errors.fileName());
    const QByteArray printed = stdoutCopy.open(QIODevice::ReadOnly) ? stdoutCopy.read(1 << 20) : QByteArray();
    if (result.exitCode.value_or(0) != 0) {
        const QString said = stderrCopy.open(QIODevice::ReadOnly)
                                 ? QString::fromUtf8(stderrCopy.read(4096)).trimmed().section(QLatin1Char('\n'), 0, 2)
                                 : QString();
        return failure(QStringLiteral("the kit's list command failed (status %1)%2")
                           .arg(*result.exitCode)
                           .arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said));
    }
    const QStringList ids = kit::parseSessionIds(printed);
    for (const QString &id : ids)
        out() << id << '\n';
    if (ids.isEmpty())
        err() << "paddock: the agent in " << name << " has no session to resume\n";
    return ExitOk;
}

int runAgent(const Invocation &call)
{
    const QString name = call.positional.first();
    const QList<QPair<const char *, kit::AgentVerb>> flags{{"prompt", kit::AgentVerb::Prompt},
                                                           {"resume", kit::AgentVerb::Resume},
                                                           {"continue", kit::AgentVerb::Continue},
                                                           {"picker", kit::AgentVerb::SessionPicker},
                                                           {"sessions", kit::AgentVerb::List}};
    kit::AgentVerb verb = kit::AgentVerb::NewSession;
    QString value;
    int chosen = 0;
    for (const auto &[flag, named] : flags) {
        if (!call.parser.isSet(QLatin1String(flag)))
            continue;
        ++chosen;
        verb = named;
        if (verb == kit::AgentVerb::Prompt || verb == kit::AgentVerb::Resume)
            value = call.parser.value(QLatin1String(flag));
    }
    if (chosen > 1)
        return usageError(call.commandPath,
                          QStringLiteral("give one of --prompt, --resume, --continue, --picker and --sessions"));
    if (verb == kit::AgentVerb::Resume && value.isEmpty())
        return usageError(call.commandPath, QStringLiteral("--resume takes a session id ('--sessions' lists them)"));
    // A new session and the picker are terminal verbs; the others run without one unless -t.
    const bool terminal = call.parser.isSet(QStringLiteral("tty")) || verb == kit::AgentVerb::NewSession ||
                          verb == kit::AgentVerb::SessionPicker;
    const std::optional<QStringList> argv = verbArgv(name, verb, terminal, value);
    if (!argv)
        return ExitFailed;
    const std::optional<QJsonObject> sandbox = runningSandbox(name);
    if (!sandbox)
        return ExitFailed;
    const std::unique_ptr<runtime::Runtime> runtime = localRuntime(*sandbox);
    out().flush();
    if (verb == kit::AgentVerb::List)
        return listSessions(*runtime, name, *argv);
    runtime::ExecRequest request;
    request.argv = *argv;
    request.interactive = terminal;
    // With a terminal it is the agent's session (or one beside it when that runs already).
    request.asAgent = terminal;
    const runtime::RuntimeResult result = runtime->exec(name, request);
    if (!result.ok)
        return failure(result.error);
    return result.exitCode.value_or(ExitOk);
}

} // namespace

Command agentCommand()
{
    Command agent =
        leaf(QStringLiteral("agent"), QStringLiteral("Drive a sandbox's agent with the verbs its kit declares."),
             QStringLiteral("Runs the agent of sandbox NAME the way its kit says (agent-sessions@1 and\n"
                            "agent-interactive-sessions@1): the workload's own program with the verb's arguments\n"
                            "added, your text passed as one argument, never through a shell. Without an option, a\n"
                            "new session in this terminal. --prompt, --resume and --continue run without a terminal\n"
                            "(the output is printed, the status is the agent's) unless -t asks for the kit's\n"
                            "terminal verbs; --picker opens the agent's own session picker. --sessions lists the\n"
                            "session ids the kit's list command prints, most recent first. A verb the kit does not\n"
                            "declare is refused, saying so. A stopped sandbox is started first."),
             runAgent);
    agent.options = {
        QCommandLineOption(QStringLiteral("prompt"), QStringLiteral("Run the agent on TEXT."), QStringLiteral("TEXT")),
        QCommandLineOption(QStringLiteral("resume"), QStringLiteral("Reopen the session ID."), QStringLiteral("ID")),
        QCommandLineOption(QStringLiteral("continue"), QStringLiteral("Reopen the most recent session.")),
        QCommandLineOption(QStringLiteral("picker"), QStringLiteral("Open the agent's own session picker.")),
        QCommandLineOption(QStringLiteral("sessions"), QStringLiteral("List the resumable session ids.")),
        QCommandLineOption({QStringLiteral("t"), QStringLiteral("tty")},
                           QStringLiteral("Use the kit's terminal verbs, in this terminal."))};
    agent.positionalSyntax = QStringLiteral("NAME");
    agent.minPositional = agent.maxPositional = 1;
    return agent;
}

} // namespace paddock::cli
