// SPDX-License-Identifier: GPL-3.0-or-later
// paddock run|attach|exec: a terminal (or a script's streams) joined to a session inside a
// running sandbox, through the sandbox's supervisor. The sandbox keeps running afterwards.
#include "Cli.h"
#include "HostGrantCli.h"
#include "SandboxCliSupport.h"

#include "api/Protocol.h"
#include "kit/Kit.h"

#include <QJsonArray>
#include <QJsonObject>

#include <unistd.h>

namespace paddock::cli {
namespace {

/** What `sandbox.inspect` says of @p name, or nullopt (printed) when there is none. */
std::optional<QJsonObject> inspect(const QString &name, bool quiet = false)
{
    if (quiet) {
        const api::Reply reply =
            daemonReply(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), name}}, kCallTimeoutMs);
        if (reply.isError())
            return std::nullopt;
        return reply.result().value(QLatin1String("sandbox")).toObject();
    }
    const std::optional<QJsonObject> reply =
        callDaemon(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), name}});
    if (!reply)
        return std::nullopt;
    return reply->value(QLatin1String("sandbox")).toObject();
}

bool isRunning(const QJsonObject &sandbox)
{
    return sandbox.value(QLatin1String("status")).toString() == QLatin1String("running");
}

/**
 * The sandbox @p name running, made from @p params when it does not exist, started (without
 * its agent: this caller starts that) when it is not running. Returns its INFO.
 */
std::optional<QJsonObject> ensureRunning(const QString &name, const QJsonObject &params, const kit::Kit &kit)
{
    std::optional<QJsonObject> sandbox = inspect(name, true);
    if (sandbox && sandbox->value(QLatin1String("kit")).toString() != kit.name) {
        failure(QStringLiteral("a sandbox named %1 exists already, made from kit %2; choose another with --name")
                    .arg(name, sandbox->value(QLatin1String("kit")).toString()));
        return std::nullopt;
    }
    const bool sharesGiven = !params.value(QLatin1String("mounts")).toArray().isEmpty() ||
                             !params.value(QLatin1String("env")).toObject().isEmpty();
    if (sandbox && sharesGiven)
        err() << "paddock: note: sandbox " << name
              << " exists already and keeps the folders and variables it was created with; --mount and --env "
                 "apply to a new sandbox ('paddock rm "
              << name << "' first to change them)\n";
    if (!sandbox) {
        QJsonObject create = params;
        create.insert(QStringLiteral("name"), name);
        const std::optional<QJsonObject> created =
            callDaemon(QStringLiteral("sandbox.create"), create, kCreateTimeoutMs);
        if (!created)
            return std::nullopt;
        printNotes(*created);
        sandbox = created->value(QLatin1String("sandbox")).toObject();
    }
    if (!isRunning(*sandbox)) {
        const std::optional<QJsonObject> started = callDaemon(
            QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name},
                                              {QStringLiteral("agent"), false},
                                              {QStringLiteral("sshAuthSock"), qEnvironmentVariable("SSH_AUTH_SOCK")}});
        if (!started)
            return std::nullopt;
        printNotes(*started);
        sandbox = started->value(QLatin1String("sandbox")).toObject();
    }
    return sandbox;
}

/** The program an agent session runs: the kit's, or its entrypoint with @p arguments. */
QStringList agentProgram(const kit::Kit &kit, const QStringList &arguments, bool terminal)
{
    if (!kit.sandbox)
        return arguments;
    if (!arguments.isEmpty())
        return kit.sandbox->entrypoint + arguments;
    // A schemaVersion 3 kit's program is its image's, which only the daemon read: empty asks
    // for the program the daemon made (with lifecycle@1's interactive tail on a terminal).
    if (kit.schemaVersion == QLatin1String("3"))
        return {};
    return terminal ? kit.sandbox->interactiveArgv() : kit.sandbox->defaultArgv();
}

/** The program the daemon made for @p name from its kit and its image (the image's Entrypoint and Cmd). */
QStringList programOfSandbox(const QString &name)
{
    const std::optional<QJsonObject> sandbox = inspect(name, true);
    if (!sandbox)
        return {};
    QStringList argv;
    for (const QJsonValue &item : sandbox->value(QLatin1String("spec"))[QLatin1String("argv")].toArray())
        argv << item.toString();
    return argv;
}

int outcomeCode(const runtime::RuntimeResult &result, const QString &name, bool attached)
{
    if (!result.ok)
        return failure(result.error);
    if (!result.exitCode) {
        err() << "\r\npaddock: left " << name << " running; 'paddock attach " << name << "' joins its agent again\n";
        err().flush();
        return ExitOk;
    }
    if (attached && ::isatty(STDIN_FILENO)) {
        err() << "paddock: the agent exited (status " << *result.exitCode << "); sandbox " << name
              << " keeps running until 'paddock stop " << name << "'\n";
        err().flush();
    }
    return *result.exitCode;
}

int runRun(const Invocation &call)
{
    int code = ExitOk;
    std::optional<QJsonObject> params = approvedCreationParams(call, &code);
    if (!params)
        return code;
    if (call.parser.isSet(QStringLiteral("rm")) && !call.parser.isSet(QStringLiteral("detach")))
        params->insert(QStringLiteral("disposable"), true); // removed at the end: its root need not be synced
    if (call.parser.isSet(QStringLiteral("detach")))
        return createDetached(*params, true);
    const std::optional<kit::Kit> kit = loadKitOf(*params);
    if (!kit) // the daemon names every problem of the kit
        return callDaemon(QStringLiteral("sandbox.create"), *params) ? ExitOk : ExitFailed;
    const QString name = sandboxNameOf(*params, *kit);
    const std::optional<QJsonObject> sandbox = ensureRunning(name, *params, *kit);
    if (!sandbox)
        return ExitFailed;

    const std::unique_ptr<runtime::Runtime> runtime = localRuntime(*sandbox);
    const QStringList arguments = argumentsAfterDoubleDash();
    const bool terminal = ::isatty(STDIN_FILENO);
    const std::optional<runtime::AgentInfo> agent = runtime->agent(name);
    const bool agentRunning = agent && agent->state == runtime::AgentState::Running;
    out().flush();
    runtime::RuntimeResult result;
    if (agentRunning && arguments.isEmpty() && !call.parser.isSet(QStringLiteral("new-session"))) {
        // The agent runs already: this terminal joins it, as `attach` does.
        result = runtime->attach(name, runtime::AttachOptions{});
    } else {
        runtime::ExecRequest request;
        request.argv = agentProgram(*kit, arguments, terminal);
        // A kit that leaves the program to its image: what the daemon made of the image's.
        if (request.argv.isEmpty() && arguments.isEmpty())
            request.argv = programOfSandbox(name);
        if (request.argv.isEmpty())
            return failure(QStringLiteral("kit %1 names no program to run; give it after '--'").arg(kit->name));
        request.interactive = terminal;
        request.asAgent = true; // the agent session, or beside it when one runs already
        result = runtime->exec(name, request);
    }
    const int status = outcomeCode(result, name, false);
    // A clone's commits come back to the user's repository once the agent is done, and so do
    // those of a sandbox on another computer's engine (the daemon knows which engines are).
    const QString engine = sandbox->value(QLatin1String("engine")).toString();
    if (sandbox->value(QLatin1String("workspaceMode")).toString() == QLatin1String("clone") ||
        (!engine.isEmpty() && engine != QLatin1String("local"))) {
        if (const std::optional<QJsonObject> finished =
                callDaemon(QStringLiteral("sandbox.finished"),
                           {{QStringLiteral("name"), name}, {QStringLiteral("exitCode"), status}}))
            printNotes(*finished);
    }
    if (call.parser.isSet(QStringLiteral("rm"))) {
        if (!callDaemon(QStringLiteral("sandbox.remove"),
                        {{QStringLiteral("name"), name}, {QStringLiteral("force"), true}}))
            return ExitFailed;
    }
    return status;
}

int runAttach(const Invocation &call)
{
    const QString name = call.positional.first();
    std::optional<QJsonObject> sandbox = inspect(name);
    if (!sandbox)
        return ExitFailed;
    const bool start = call.parser.isSet(QStringLiteral("start"));
    if (!isRunning(*sandbox)) {
        if (!start)
            return failure(QStringLiteral("sandbox %1 is not running; 'paddock start %1' starts it, or "
                                          "'paddock attach --start %1' starts it and joins its agent")
                               .arg(name));
        const std::optional<QJsonObject> started = callDaemon(
            QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name},
                                              {QStringLiteral("agent"), false},
                                              {QStringLiteral("sshAuthSock"), qEnvironmentVariable("SSH_AUTH_SOCK")}});
        if (!started)
            return ExitFailed;
        sandbox = started->value(QLatin1String("sandbox")).toObject();
    }
    runtime::AttachOptions options;
    options.startAgent = start;
    options.replay = !call.parser.isSet(QStringLiteral("no-replay"));
    out().flush();
    const runtime::RuntimeResult result = localRuntime(*sandbox)->attach(name, options);
    // Starting again helps an agent that ended, not one whose program this sandbox lacks
    // (126, 127: the supervisor's reason says which program).
    const int agentExit = sandbox->value(QLatin1String("agent")).toObject().value(QLatin1String("exitCode")).toInt(-1);
    const bool programMissing = agentExit == 126 || agentExit == 127 ||
                                result.error.contains(QLatin1String("(exit 127)")) ||
                                result.error.contains(QLatin1String("(exit 126)"));
    if (!result.ok && !start && programMissing)
        return failure(result.error + QStringLiteral("; the kit's program is not in this sandbox (is the kit's image "
                                                     "loaded?), see 'paddock logs %1'")
                                          .arg(name));
    if (!result.ok && !start)
        return failure(result.error + QStringLiteral("; 'paddock attach --start %1' starts it again").arg(name));
    return outcomeCode(result, name, true);
}

int runExec(const Invocation &call)
{
    const QString name = call.positional.first();
    const std::optional<QJsonObject> sandbox = inspect(name);
    if (!sandbox)
        return ExitFailed;
    runtime::ExecRequest request;
    request.argv = call.positional.mid(1);
    // `exec NAME -- CMD` as `run ... -- CMD` is written: the separator is not a command.
    if (request.argv.first() == QLatin1String("--"))
        request.argv.removeFirst();
    if (request.argv.isEmpty())
        return usageError(call.commandPath, QStringLiteral("no command to run after --"));
    // -it as Docker spells it: a terminal for the command, when there is one to give.
    request.interactive = call.parser.isSet(QStringLiteral("it")) || call.parser.isSet(QStringLiteral("tty"));
    request.user = call.parser.value(QStringLiteral("user"));
    request.workingDir = call.parser.value(QStringLiteral("workdir"));
    for (const QString &pair : call.parser.values(QStringLiteral("env"))) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return usageError(call.commandPath, QStringLiteral("-e takes NAME=VALUE, got '%1'").arg(pair));
        request.environment.insert(pair.left(equals), pair.mid(equals + 1));
    }
    if (!request.workingDir.isEmpty() && !request.workingDir.startsWith(QLatin1Char('/')))
        return usageError(call.commandPath, QStringLiteral("-w takes an absolute path inside the sandbox"));
    out().flush();
    const runtime::RuntimeResult result = localRuntime(*sandbox)->exec(name, request);
    if (!result.ok)
        return failure(result.error);
    return result.exitCode.value_or(ExitOk);
}

} // namespace

QList<Command> sessionCommands()
{
    Command run =
        leaf(QStringLiteral("run"), QStringLiteral("Run a kit's agent in a sandbox, on this terminal."),
             QStringLiteral("Runs the kit's agent in its sandbox (KIT-FOLDER unless --name), making and starting the\n"
                            "sandbox first when needed, and exits with the agent's status. The sandbox keeps running\n"
                            "afterwards, until 'paddock stop NAME' (or with --rm, it is removed at the end).\n"
                            "When its agent is already running, this terminal joins it (as 'paddock attach'); with\n"
                            "'-- ARGS' a new session runs the kit's entrypoint with ARGS beside it.\n"
                            "Ctrl-P Ctrl-Q leaves an agent running. With --detach the sandbox and its agent start\n"
                            "in the background and the name is printed.\n\n") +
                 creationHelp(),
             runRun);
    run.options = {backendOption(),
                   engineOption(),
                   isolationOption(),
                   nameOption(),
                   composedKitOption(),
                   argOption(),
                   approveOption(),
                   approveHostGrantsOption(),
                   QCommandLineOption(QStringLiteral("detach"), QStringLiteral("Start it in the background.")),
                   QCommandLineOption(QStringLiteral("rm"), QStringLiteral("Remove the sandbox when the agent ends.")),
                   QCommandLineOption(QStringLiteral("new-session"),
                                      QStringLiteral("Start the agent anew beside a running one instead of joining it "
                                                     "(what shims do).")),
                   cloneOption(),
                   ttyOption(),
                   unprotectedOption(),
                   mountOption(),
                   envOption(),
                   secretGuardOption(),
                   sshAgentOption(),
                   sshKnownHostsOption()};
    run.positionalSyntax = QStringLiteral("[PATH...] [-- ARGS...]");

    Command attach =
        leaf(QStringLiteral("attach"), QStringLiteral("Join a running sandbox's agent on this terminal."),
             QStringLiteral("Joins this terminal to the agent of sandbox NAME, showing its recent output first.\n"
                            "Ctrl-P Ctrl-Q leaves it running; when the agent ends, attach exits with its status.\n"
                            "With --start, the sandbox and its agent are started first when they are not running."),
             runAttach);
    attach.options = {
        QCommandLineOption(QStringLiteral("start"), QStringLiteral("Start the sandbox or its agent when needed.")),
        QCommandLineOption(QStringLiteral("no-replay"), QStringLiteral("Do not show the agent's recent output."))};
    attach.positionalSyntax = QStringLiteral("NAME");
    attach.minPositional = attach.maxPositional = 1;

    Command exec = leaf(QStringLiteral("exec"), QStringLiteral("Run a command in a running sandbox."),
                        QStringLiteral("Runs CMD inside sandbox NAME with its environment, in its workspace, and exits "
                                       "with CMD's status.\n-it gives the command a terminal. Ctrl-C reaches CMD."),
                        runExec);
    exec.options = {
        QCommandLineOption({QStringLiteral("i"), QStringLiteral("interactive")},
                           QStringLiteral("Keep standard input open (always the case).")),
        QCommandLineOption({QStringLiteral("t"), QStringLiteral("tty")}, QStringLiteral("Give CMD a terminal.")),
        QCommandLineOption(QStringLiteral("it"), QStringLiteral("Both -i and -t.")),
        QCommandLineOption({QStringLiteral("u"), QStringLiteral("user")},
                           QStringLiteral("Run as USER inside (root, agent or a uid; default: the agent's user)."),
                           QStringLiteral("USER")),
        QCommandLineOption({QStringLiteral("w"), QStringLiteral("workdir")},
                           QStringLiteral("Run in DIR inside (default: the workspace)."), QStringLiteral("DIR")),
        QCommandLineOption({QStringLiteral("e"), QStringLiteral("env")},
                           QStringLiteral("Set a variable for CMD (repeatable)."), QStringLiteral("NAME=VALUE"))};
    exec.positionalSyntax = QStringLiteral("NAME CMD [ARG...]");
    exec.minPositional = 2;
    exec.optionsAfterPositionalsArePositional = true;

    return {run, attach, exec};
}

} // namespace paddock::cli
