// SPDX-License-Identifier: GPL-3.0-or-later
// paddock run|create|start|ls|stop|rm|exec|logs
#include "BindingApproval.h"
#include "Cli.h"
#include "SecretCliSupport.h"

#include "api/DaemonConnection.h"
#include "api/DaemonLauncher.h"
#include "common/Paths.h"
#include "kit/KitLoader.h"
#include "runtime/bwrap/BwrapRuntime.h"
#include "runtime/docker/DockerRuntime.h"
#include "sandbox/CredentialSetup.h"
#include "sandbox/KitApplication.h"
#include "secrets/SecretIndex.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <unistd.h>

namespace paddock::cli {
namespace {

constexpr int kConnectTimeoutMs = 5000;
constexpr int kCallTimeoutMs = 60000;
/** Creating a sandbox runs its kit's setup.install, which may download and build things. */
constexpr int kCreateTimeoutMs = 60 * 60 * 1000;

QCommandLineOption backendOption()
{
    return {QStringLiteral("backend"), QStringLiteral("The runtime: bwrap (the default) or docker."),
            QStringLiteral("NAME"), QStringLiteral("bwrap")};
}
QCommandLineOption nameOption()
{
    return {QStringLiteral("name"), QStringLiteral("The sandbox's name (default: KIT-FOLDER)."),
            QStringLiteral("NAME")};
}
QCommandLineOption kitOption()
{
    return {QStringLiteral("kit"), QStringLiteral("The kit directory (holding spec.yaml)."), QStringLiteral("DIR")};
}
QCommandLineOption argOption()
{
    return {QStringLiteral("arg"), QStringLiteral("A value for the kit's argument NAME (repeatable)."),
            QStringLiteral("NAME=VALUE")};
}
QCommandLineOption jsonOption()
{
    return {QStringLiteral("json"), QStringLiteral("Print the result as JSON.")};
}

/** Connects to paddockd, starting it when nothing answers. */
bool connectDaemon(api::DaemonConnection &connection, QString *error)
{
    const QString socket = paths::daemonSocket();
    const api::DaemonStatus status = api::ensureDaemonRunning(socket);
    if (!status.running) {
        *error = status.error;
        return false;
    }
    return connection.open(socket, kConnectTimeoutMs, error);
}

/** Calls @p method on a fresh connection; on failure prints the daemon's sentence. */
std::optional<QJsonObject> callDaemon(const QString &method, const QJsonObject &params, int timeoutMs = kCallTimeoutMs)
{
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error)) {
        failure(error);
        return std::nullopt;
    }
    const api::Reply reply = connection.call(method, params, timeoutMs);
    if (reply.isError()) {
        failure(reply.errorMessage());
        return std::nullopt;
    }
    return reply.result();
}

/** The runtime this process uses to run a sandbox on the user's terminal. */
std::unique_ptr<runtime::Runtime> localRuntime(const QString &backend)
{
    if (backend == QLatin1String("docker"))
        return std::make_unique<runtime::DockerRuntime>();
    return std::make_unique<runtime::BwrapRuntime>();
}

void printNotes(const QJsonObject &result)
{
    for (const QJsonValue &note : result.value(QLatin1String("notes")).toArray())
        err() << "paddock: note: " << note.toString() << '\n';
    err().flush();
}

/**
 * The arguments after `--` on the command line: the program to run instead of the kit's
 * command. The parser mixes them into the positional arguments, so they are counted here.
 */
QStringList argumentsAfterDoubleDash()
{
    const QStringList all = QCoreApplication::arguments();
    const qsizetype at = all.indexOf(QStringLiteral("--"));
    return at < 0 ? QStringList() : all.mid(at + 1);
}

/** The params of sandbox.create and sandbox.prepare from a run or create command line. */
std::optional<QJsonObject> creationParams(const Invocation &call, int *code)
{
    const QString kit = call.parser.value(QStringLiteral("kit"));
    if (kit.isEmpty()) {
        *code = usageError(call.commandPath, QStringLiteral("--kit DIR is required"));
        return std::nullopt;
    }
    const QStringList command = argumentsAfterDoubleDash();
    QStringList paths = call.positional.mid(0, call.positional.size() - command.size());
    if (paths.isEmpty())
        paths << QDir::currentPath();
    QJsonArray extra;
    for (qsizetype i = 1; i < paths.size(); ++i)
        extra.append(QFileInfo(paths.at(i)).absoluteFilePath());
    QJsonObject kitArgs;
    for (const QString &pair : call.parser.values(QStringLiteral("arg"))) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0) {
            *code = usageError(call.commandPath, QStringLiteral("--arg takes NAME=VALUE, got '%1'").arg(pair));
            return std::nullopt;
        }
        kitArgs.insert(pair.left(equals), pair.mid(equals + 1));
    }
    QJsonObject params{{QStringLiteral("kit"), QFileInfo(kit).absoluteFilePath()},
                       {QStringLiteral("workspace"), QFileInfo(paths.first()).absoluteFilePath()},
                       {QStringLiteral("paths"), extra},
                       {QStringLiteral("args"), QJsonArray::fromStringList(command)},
                       {QStringLiteral("kitArgs"), kitArgs},
                       {QStringLiteral("backend"), call.parser.value(QStringLiteral("backend"))}};
    if (call.parser.isSet(QStringLiteral("name")))
        params.insert(QStringLiteral("name"), call.parser.value(QStringLiteral("name")));
    if (call.parser.isSet(QStringLiteral("clone")))
        params.insert(QStringLiteral("workspaceMode"), QStringLiteral("clone"));
    return params;
}

const QString kApproveOption = QStringLiteral("approve-credentials");

/**
 * Before a sandbox is made: a required key that is not stored stops here with the command that
 * stores it, and keys the kit would send to domains not yet approved are approved (with
 * --approve-credentials, or by the person at the terminal) or stop the start, so no sandbox
 * starts only to fail with 401 later. Optional credentials only warn. The daemon checks again.
 * Returns the exit code when the start must stop.
 */
std::optional<int> checkCredentials(const Invocation &call, const QJsonObject &params)
{
    const QString kitDir = params.value(QLatin1String("kit")).toString();
    kit::KitLoadOptions options;
    options.requireArgValues = true;
    const QJsonObject kitArgs = params.value(QLatin1String("kitArgs")).toObject();
    for (auto it = kitArgs.begin(); it != kitArgs.end(); ++it)
        options.args.insert(it.key(), it.value().toString());
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(kitDir, options);
    if (!loaded.ok() || !loaded.kit)
        return std::nullopt; // the daemon says what is wrong with the kit
    const kit::Kit &kit = *loaded.kit;
    QString name = params.value(QLatin1String("name")).toString();
    if (name.isEmpty())
        name = sandbox::defaultSandboxName(kit.name, params.value(QLatin1String("workspace")).toString());

    secrets::CredentialBindings bindings;
    if (const auto problem = bindings.load())
        return failure(problem->toString());
    QString error;
    const std::optional<QList<secrets::SecretId>> stored =
        secrets::SecretIndex(secrets::SecretIndex::defaultPath()).read(&error);
    if (!stored)
        return failure(error);
    sandbox::CredentialCheck check = sandbox::checkCredentials(kit.credentials, name, bindings, *stored);
    if (check.missingRequired()) {
        for (const sandbox::MissingSecret &missing : std::as_const(check.missingSecrets)) {
            if (missing.required)
                err() << "paddock: the kit " << kit.name << " needs the " << missing.service
                      << " key and none is stored; store it with `" << missing.command << "`\n";
        }
        return ExitFailed;
    }

    const QList<sandbox::CredentialApproval> toAsk = check.approvalsToAsk();
    if (!toAsk.isEmpty()) {
        QStringList services;
        for (const sandbox::CredentialApproval &pending : toAsk)
            services << pending.service;
        if (call.parser.isSet(kApproveOption)) {
            for (const sandbox::CredentialApproval &pending : toAsk) {
                if (!bindings.approve(pending.service, pending.domains, &error))
                    return failure(error);
                err() << "paddock: approved " << pending.service << " for "
                      << pending.domains.join(QStringLiteral(", ")) << '\n';
            }
        } else {
            const ApprovalOutcome outcome = approveInteractively(kit, bindings, services);
            if (outcome.status == ApprovalOutcome::Status::Failed)
                return failure(outcome.error);
        }
        if (const auto problem = bindings.load())
            return failure(problem->toString());
        check = sandbox::checkCredentials(kit.credentials, name, bindings, *stored);
    }
    bool stop = false;
    for (const sandbox::CredentialApproval &pending : std::as_const(check.pendingApprovals)) {
        if (!pending.required)
            continue;
        stop = true;
        err() << "paddock: the kit " << kit.name << " sends the " << pending.service << " key to "
              << pending.newDomains.join(QStringLiteral(", ")) << ", which you have not approved.\n"
              << "  Approve it with `paddock binding approve --kit " << shellQuote(kitDir) << ' '
              << shellQuote(pending.service) << "`, or run again with --approve-credentials.\n";
    }
    if (stop)
        return ExitFailed;
    for (const QString &warning : check.warnings(kitDir))
        err() << "paddock: warning: " << warning << '\n';
    err().flush();
    return std::nullopt;
}

int createDetached(const QJsonObject &params, bool start)
{
    const std::optional<QJsonObject> created = callDaemon(QStringLiteral("sandbox.create"), params, kCreateTimeoutMs);
    if (!created)
        return ExitFailed;
    printNotes(*created);
    const QString name = created->value(QLatin1String("sandbox")).toObject().value(QLatin1String("name")).toString();
    if (start) {
        const std::optional<QJsonObject> started =
            callDaemon(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name}});
        if (!started)
            return ExitFailed;
        printNotes(*started);
    }
    out() << name << '\n';
    return ExitOk;
}

/** The foreground run: the daemon prepares, this process runs the sandbox on the user's terminal. */
int runForeground(QJsonObject params)
{
    const bool interactive = ::isatty(STDIN_FILENO);
    params.insert(QStringLiteral("interactive"), interactive);
    const std::optional<QJsonObject> prepared = callDaemon(QStringLiteral("sandbox.prepare"), params, kCreateTimeoutMs);
    if (!prepared)
        return ExitFailed;
    printNotes(*prepared);
    const QJsonObject sandbox = prepared->value(QLatin1String("sandbox")).toObject();
    const QString name = sandbox.value(QLatin1String("name")).toString();
    out().flush();

    const std::unique_ptr<runtime::Runtime> runtime = localRuntime(sandbox.value(QLatin1String("backend")).toString());
    const runtime::RuntimeResult result = runtime->start(name);
    const int code = result.ok ? result.exitCode.value_or(0) : ExitFailed;

    api::DaemonConnection connection;
    QString error;
    if (connectDaemon(connection, &error))
        printNotes(connection
                       .call(QStringLiteral("sandbox.finished"),
                             {{QStringLiteral("name"), name}, {QStringLiteral("exitCode"), code}}, kCallTimeoutMs)
                       .result());
    if (!result.ok)
        return failure(result.error);
    return code;
}

int runRun(const Invocation &call)
{
    int code = ExitOk;
    std::optional<QJsonObject> params = creationParams(call, &code);
    if (!params)
        return code;
    if (const std::optional<int> stopped = checkCredentials(call, *params))
        return *stopped;
    if (call.parser.isSet(kApproveOption))
        params->insert(QStringLiteral("approveCredentials"), true);
    if (call.parser.isSet(QStringLiteral("detach")))
        return createDetached(*params, true);
    return runForeground(*params);
}

int runCreate(const Invocation &call)
{
    int code = ExitOk;
    std::optional<QJsonObject> params = creationParams(call, &code);
    if (!params)
        return code;
    if (const std::optional<int> stopped = checkCredentials(call, *params))
        return *stopped;
    if (call.parser.isSet(kApproveOption))
        params->insert(QStringLiteral("approveCredentials"), true);
    return createDetached(*params, false);
}

int runStart(const Invocation &call)
{
    for (const QString &name : call.positional) {
        const std::optional<QJsonObject> started =
            callDaemon(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name}});
        if (!started)
            return ExitFailed;
        printNotes(*started);
        out() << name << '\n';
    }
    return ExitOk;
}

QString formatUptime(qint64 ms)
{
    const qint64 seconds = ms / 1000;
    if (seconds < 60)
        return QStringLiteral("%1s").arg(seconds);
    if (seconds < 3600)
        return QStringLiteral("%1m %2s").arg(seconds / 60).arg(seconds % 60);
    if (seconds < 86400)
        return QStringLiteral("%1h %2m").arg(seconds / 3600).arg(seconds % 3600 / 60);
    return QStringLiteral("%1d %2h").arg(seconds / 86400).arg(seconds % 86400 / 3600);
}

int runLs(const Invocation &call)
{
    const std::optional<QJsonObject> listed = callDaemon(QStringLiteral("sandbox.list"), {});
    if (!listed)
        return ExitFailed;
    const QJsonArray sandboxes = listed->value(QLatin1String("sandboxes")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(sandboxes).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (sandboxes.isEmpty()) {
        out() << "No sandboxes. Start one with 'paddock run --kit DIR [PATH]'.\n";
        return ExitOk;
    }
    QList<QStringList> rows{{QStringLiteral("NAME"), QStringLiteral("KIT"), QStringLiteral("BACKEND"),
                             QStringLiteral("STATUS"), QStringLiteral("UPTIME"), QStringLiteral("PORTS"),
                             QStringLiteral("WORKSPACE")}};
    for (const QJsonValue &value : sandboxes) {
        const QJsonObject sandbox = value.toObject();
        const bool running = sandbox.value(QLatin1String("status")).toString() == QLatin1String("running");
        // As `docker ps` shows them: HOST->PORT while published, PORT/tcp otherwise.
        QStringList ports;
        for (const QJsonValue &port : sandbox.value(QLatin1String("ports")).toArray()) {
            const QString inside = QString::number(port[QLatin1String("sandbox")].toInt());
            const QString host = port[QLatin1String("host")].toString();
            ports << (host.isEmpty() ? inside + QStringLiteral("/tcp") : host + QStringLiteral("->") + inside);
        }
        rows.append({sandbox.value(QLatin1String("name")).toString(), sandbox.value(QLatin1String("kit")).toString(),
                     sandbox.value(QLatin1String("backend")).toString(),
                     sandbox.value(QLatin1String("status")).toString(),
                     running ? formatUptime(sandbox.value(QLatin1String("uptimeMs")).toInteger()) : QStringLiteral("-"),
                     ports.isEmpty() ? QStringLiteral("-") : ports.join(QStringLiteral(", ")),
                     sandbox.value(QLatin1String("workspace")).toString()});
    }
    QList<qsizetype> widths(rows.first().size(), 0);
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row.at(i).size());
    }
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size(); ++i)
            out() << (i + 1 < row.size() ? row.at(i).leftJustified(widths[i] + 2) : row.at(i));
        out() << '\n';
    }
    return ExitOk;
}

int runStop(const Invocation &call)
{
    int code = ExitOk;
    for (const QString &name : call.positional) {
        if (const std::optional<QJsonObject> stopped =
                callDaemon(QStringLiteral("sandbox.stop"), {{QStringLiteral("name"), name}})) {
            printNotes(*stopped); // where a clone's commits went
            out() << "stopped " << name << '\n';
        } else
            code = ExitFailed;
    }
    return code;
}

int runRm(const Invocation &call)
{
    QStringList names = call.positional;
    const bool all = call.parser.isSet(QStringLiteral("all"));
    if (all == !names.isEmpty())
        return usageError(call.commandPath, QStringLiteral("name the sandboxes to remove, or use --all"));
    if (all) {
        const std::optional<QJsonObject> listed = callDaemon(QStringLiteral("sandbox.list"), {});
        if (!listed)
            return ExitFailed;
        for (const QJsonValue &value : listed->value(QLatin1String("sandboxes")).toArray())
            names << value.toObject().value(QLatin1String("name")).toString();
    }
    const bool force = call.parser.isSet(QStringLiteral("force"));
    int code = ExitOk;
    for (const QString &name : std::as_const(names)) {
        if (const std::optional<QJsonObject> removed = callDaemon(
                QStringLiteral("sandbox.remove"), {{QStringLiteral("name"), name}, {QStringLiteral("force"), force}})) {
            printNotes(*removed); // where a clone's commits went
            out() << "removed " << name << '\n';
        } else
            code = ExitFailed;
    }
    return code;
}

int runExec(const Invocation &call)
{
    const QString name = call.positional.first();
    const std::optional<QJsonObject> inspected =
        callDaemon(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), name}});
    if (!inspected)
        return ExitFailed;
    const QString backend =
        inspected->value(QLatin1String("sandbox")).toObject().value(QLatin1String("backend")).toString();
    runtime::ExecRequest request;
    request.argv = call.positional.mid(1);
    // -it as Docker spells it: a terminal for the command, when there is one to give.
    request.interactive =
        call.parser.isSet(QStringLiteral("it")) ||
        (call.parser.isSet(QStringLiteral("interactive")) && call.parser.isSet(QStringLiteral("tty")));
    out().flush();
    const runtime::RuntimeResult result = localRuntime(backend)->exec(name, request);
    if (!result.ok)
        return failure(result.error);
    return result.exitCode.value_or(0);
}

int runLogs(const Invocation &call)
{
    const QString name = call.positional.first();
    qint64 offset = 0;
    out().flush();
    for (;;) {
        const std::optional<QJsonObject> chunk = callDaemon(
            QStringLiteral("sandbox.logs"), {{QStringLiteral("name"), name}, {QStringLiteral("offset"), offset}});
        if (!chunk)
            return ExitFailed;
        const QByteArray data = QByteArray::fromBase64(chunk->value(QLatin1String("data")).toString().toLatin1());
        qsizetype written = 0;
        while (written < data.size()) {
            const ssize_t n = ::write(STDOUT_FILENO, data.constData() + written, size_t(data.size() - written));
            if (n <= 0)
                return ExitFailed;
            written += n;
        }
        const qint64 next = chunk->value(QLatin1String("next")).toInteger();
        if (data.isEmpty() || next >= chunk->value(QLatin1String("size")).toInteger())
            return ExitOk;
        offset = next;
    }
}

Command leaf(const QString &name, const QString &summary, const QString &description,
             std::function<int(const Invocation &)> run)
{
    Command command;
    command.name = name;
    command.summary = summary;
    command.description = description;
    command.run = std::move(run);
    return command;
}

} // namespace

QList<Command> sandboxCommands()
{
    const QString creationHelp =
        QStringLiteral("The sandbox sees PATH (default: the current directory) read-write at the same path, further\n"
                       "PATHs read-only, a private home filled from the kit, and the network only through its own\n"
                       "endpoint of paddockd's proxy, which applies the policy and the kit's network permissions.\n"
                       "Arguments after '--' replace the kit's command (the entrypoint stays).\n\n"
                       "Provider keys stay in the keychain: the proxy adds them to requests for the domains the kit\n"
                       "names, once approved. A required key that is not stored stops the start with the command\n"
                       "that stores it; keys going to domains not yet approved are asked about on a terminal,\n"
                       "approved with --approve-credentials, and otherwise stop the start (exit 1).");

    Command run =
        leaf(QStringLiteral("run"), QStringLiteral("Run a kit in a sandbox."),
             QStringLiteral("Runs the kit in a sandbox on this terminal (interactively when standard input is\n"
                            "a terminal) and exits with the program's status; with --detach it runs in the\n"
                            "background and 'paddock logs NAME' shows its output. Running a stopped sandbox\n"
                            "again reuses it.\n\n") +
                 creationHelp,
             runRun);
    const QCommandLineOption approve(
        kApproveOption, QStringLiteral("Approve the kit's credentials for the domains it names, without asking."));
    run.options = {
        backendOption(), nameOption(),
        kitOption(),     argOption(),
        approve,         QCommandLineOption(QStringLiteral("detach"), QStringLiteral("Run in the background."))};
    const QCommandLineOption clone(
        QStringLiteral("clone"),
        QStringLiteral("Work on a disposable clone of PATH's git repository; its commits come back as branches "
                       "paddock/NAME/<branch>."));
    run.options << clone;
    run.positionalSyntax = QStringLiteral("[PATH...] [-- ARGS...]");

    Command create = leaf(QStringLiteral("create"), QStringLiteral("Create a sandbox without starting it."),
                          QStringLiteral("Creates a detached sandbox (its home filled, setup.install run) for 'paddock "
                                         "start NAME'.\nPrints its name.\n\n") +
                              creationHelp,
                          runCreate);
    create.options = run.options.mid(0, 5);
    create.options << clone;
    create.positionalSyntax = run.positionalSyntax;

    Command start =
        leaf(QStringLiteral("start"), QStringLiteral("Start created or stopped sandboxes in the background."),
             QStringLiteral("Starts each NAME detached; its output goes to 'paddock logs NAME'."), runStart);
    start.positionalSyntax = QStringLiteral("NAME...");
    start.minPositional = 1;

    Command ls = leaf(QStringLiteral("ls"), QStringLiteral("List sandboxes."),
                      QStringLiteral("Lists every sandbox: name, kit, backend, status, uptime, published ports and "
                                     "workspace."),
                      runLs);
    ls.options = {jsonOption()};
    ls.maxPositional = 0;

    Command stop =
        leaf(QStringLiteral("stop"), QStringLiteral("Stop running sandboxes."),
             QStringLiteral("Asks each sandbox's program to end (SIGTERM), then kills it after ten seconds."), runStop);
    stop.positionalSyntax = QStringLiteral("NAME...");
    stop.minPositional = 1;

    Command rm = leaf(QStringLiteral("rm"), QStringLiteral("Remove sandboxes and their homes."),
                      QStringLiteral("Removes each stopped sandbox with its private home; the workspace is never "
                                     "touched.\nWith --force a running sandbox is stopped first."),
                      runRm);
    rm.options = {QCommandLineOption(QStringLiteral("all"), QStringLiteral("Remove every sandbox.")),
                  QCommandLineOption({QStringLiteral("f"), QStringLiteral("force")},
                                     QStringLiteral("Stop running sandboxes first."))};
    rm.positionalSyntax = QStringLiteral("[NAME...]");

    Command exec = leaf(QStringLiteral("exec"), QStringLiteral("Run a command in a running sandbox."),
                        QStringLiteral("Runs CMD inside sandbox NAME with its environment, in its workspace, and exits "
                                       "with CMD's status.\n-it gives the command a terminal."),
                        runExec);
    exec.options = {
        QCommandLineOption({QStringLiteral("i"), QStringLiteral("interactive")},
                           QStringLiteral("Keep standard input open (with -t).")),
        QCommandLineOption({QStringLiteral("t"), QStringLiteral("tty")}, QStringLiteral("Give CMD a terminal.")),
        QCommandLineOption(QStringLiteral("it"), QStringLiteral("Both -i and -t."))};
    exec.positionalSyntax = QStringLiteral("NAME CMD [ARG...]");
    exec.minPositional = 2;
    exec.optionsAfterPositionalsArePositional = true;

    Command logs = leaf(QStringLiteral("logs"), QStringLiteral("Print a detached sandbox's output."),
                        QStringLiteral("Prints everything sandbox NAME wrote so far."), runLogs);
    logs.positionalSyntax = QStringLiteral("NAME");
    logs.minPositional = logs.maxPositional = 1;

    return {run, create, start, ls, stop, rm, exec, logs};
}

} // namespace paddock::cli
