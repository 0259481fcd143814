// SPDX-License-Identifier: GPL-3.0-or-later
// paddock create|start|ls|stop|rm|recreate|volumes|logs (run, attach and exec are in SessionCommands.cpp)
#include "Cli.h"
#include "HostGrantCli.h"
#include "KitArgument.h"
#include "SandboxCliSupport.h"
#include "api/Protocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <unistd.h>

namespace paddock::cli {
namespace {

int runCreate(const Invocation &call)
{
    int code = ExitOk;
    const std::optional<QJsonObject> params = approvedCreationParams(call, &code);
    if (!params)
        return code;
    return createDetached(*params, false);
}

int runStart(const Invocation &call)
{
    for (const QString &name : call.positional) {
        // The daemon checks the kit's host grants again: approved since creation, or revoked.
        const std::optional<QJsonObject> started = callDaemon(
            QStringLiteral("sandbox.start"),
            {{QStringLiteral("name"), name},
             {QStringLiteral("sshAuthSock"), qEnvironmentVariable("SSH_AUTH_SOCK")},
             {QStringLiteral("approveHostGrants"), call.parser.isSet(approveHostGrantsOption().names().first())}});
        if (!started)
            return ExitFailed;
        printNotes(*started);
        out() << name << '\n';
    }
    return ExitOk;
}

/** What the AGENT column says: running, exited (N), or - when none was started. */
// "docker+gvisor" for a sandbox with a kernel of its own, as the window's row says it; "docker@lab"
// for one on engine lab rather than this computer's own.
QString backendColumn(const QJsonObject &sandbox)
{
    QString backend = sandbox.value(QLatin1String("backend")).toString();
    const QString engine = sandbox.value(QLatin1String("engine")).toString();
    if (!engine.isEmpty() && engine != QLatin1String("local"))
        backend += QLatin1Char('@') + engine;
    const QString isolation = sandbox.value(QLatin1String("isolation")).toString();
    return isolation == QLatin1String("gvisor") ? backend + QStringLiteral("+gvisor") : backend;
}

QString agentColumn(const QJsonObject &sandbox)
{
    const QJsonObject agent = sandbox.value(QLatin1String("agent")).toObject();
    const QString state = agent.value(QLatin1String("state")).toString();
    if (state == QLatin1String("exited"))
        return QStringLiteral("exited (%1)").arg(agent.value(QLatin1String("exitCode")).toInt());
    return state.isEmpty() || state == QLatin1String("none") ? QStringLiteral("-") : state;
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

/**
 * "1.2 MB (image pi:1)", "4 kB (host, kernel overlay)": what the sandbox wrote into its own
 * root, its base and, over the host's system, what mounts it.
 */
QString rootColumn(const QJsonObject &sandbox)
{
    const QJsonObject root = sandbox.value(QLatin1String("root")).toObject();
    const QString base = root.value(QLatin1String("base")).toString();
    if (base.isEmpty())
        return QStringLiteral("-");
    if (base == QLatin1String("read-only"))
        return QStringLiteral("read-only host");
    const QString size = humanBytes(root.value(QLatin1String("bytes")).toInteger());
    return base == QLatin1String("image")
               ? QStringLiteral("%1 (image %2)")
                     .arg(
                         size,
                         root.value(QLatin1String("reference")).toString(root.value(QLatin1String("image")).toString()))
           : root.contains(QLatin1String("mount"))
               ? QStringLiteral("%1 (host, %2)").arg(size, root.value(QLatin1String("mount")).toString())
               : QStringLiteral("%1 (host)").arg(size);
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
        out() << "No sandboxes. Start one with 'paddock run --kit KIT [PATH]'.\n";
        return ExitOk;
    }
    QList<QStringList> rows{{QStringLiteral("NAME"), QStringLiteral("KIT"), QStringLiteral("BACKEND"),
                             QStringLiteral("STATUS"), QStringLiteral("AGENT"), QStringLiteral("UPTIME"),
                             QStringLiteral("PORTS"), QStringLiteral("ROOT"), QStringLiteral("WORKSPACE")}};
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
                     backendColumn(sandbox), sandbox.value(QLatin1String("status")).toString(), agentColumn(sandbox),
                     running ? formatUptime(sandbox.value(QLatin1String("uptimeMs")).toInteger()) : QStringLiteral("-"),
                     ports.isEmpty() ? QStringLiteral("-") : ports.join(QStringLiteral(", ")), rootColumn(sandbox),
                     sandbox.value(QLatin1String("workspace")).toString()});
    }
    const QStringList header = rows.takeFirst();
    printTable(header, rows);
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

int runRecreate(const Invocation &call)
{
    const QString name = call.positional.first();
    QJsonObject params{{QStringLiteral("name"), name}};
    if (call.parser.isSet(QStringLiteral("kit"))) {
        const std::optional<QString> kit = resolveKit(call.parser.value(QStringLiteral("kit")));
        if (!kit)
            return ExitFailed;
        params.insert(QStringLiteral("kit"), *kit);
    }
    int code = ExitOk;
    const std::optional<QJsonObject> kitArgs = kitArgsJson(call, &code);
    if (!kitArgs)
        return code;
    if (!kitArgs->isEmpty())
        params.insert(QStringLiteral("kitArgs"), *kitArgs);
    const api::Reply reply = daemonReply(QStringLiteral("sandbox.recreate"), params, kCreateTimeoutMs);
    if (reply.isError()) {
        failure(reply.errorMessage());
        // A refusal by rule (a volume changed) is told apart from a failure, as `kit load` does.
        return reply.errorCode() == QLatin1String(api::errors::kRecreateRefused) ? ExitRefused : ExitFailed;
    }
    printNotes(reply.result());
    out() << "recreated " << name << '\n';
    return ExitOk;
}

int runVolumes(const Invocation &call)
{
    QJsonObject params{{QStringLiteral("name"), call.positional.first()}};
    if (call.parser.isSet(QStringLiteral("backend")))
        params.insert(QStringLiteral("backend"), call.parser.value(QStringLiteral("backend")));
    const std::optional<QJsonObject> listed = callDaemon(QStringLiteral("sandbox.volumes"), params);
    if (!listed)
        return ExitFailed;
    const QJsonArray volumes = listed->value(QLatin1String("volumes")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(volumes).toJson(QJsonDocument::Compact) << '\n';
        return ExitOk;
    }
    for (const QJsonValue &volume : volumes)
        out() << volume.toString() << '\n';
    return ExitOk;
}

int runInspect(const Invocation &call)
{
    const std::optional<QJsonObject> inspected =
        callDaemon(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), call.positional.first()}});
    if (!inspected)
        return ExitFailed;
    out() << QJsonDocument(inspected->value(QLatin1String("sandbox")).toObject()).toJson(QJsonDocument::Indented);
    return ExitOk;
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

/** `paddock recreate` and `paddock volumes`. */
QList<Command> recreationCommands()
{
    Command recreate =
        leaf(QStringLiteral("recreate"), QStringLiteral("Make a sandbox again from its kit, keeping its volumes."),
             QStringLiteral("Replaces sandbox NAME's root and home with fresh ones from its kit as loaded now "
                            "(setup.install runs\nagain), keeping its name, workspace, shares, variables, backend "
                            "and the contents of its volumes.\nA running sandbox is started again. Refused, with "
                            "nothing changed, when a volume the kit asks for\nnow has another size, mode or kind "
                            "than the one kept at its path (exit status 3). With --kit,\nanother kit; with --arg, "
                            "new values of the kit's arguments."),
             runRecreate);
    recreate.options = {kitOption(QStringLiteral("Another kit to make the sandbox from.")), argOption()};
    recreate.positionalSyntax = QStringLiteral("NAME");
    recreate.minPositional = recreate.maxPositional = 1;

    Command volumes =
        leaf(QStringLiteral("volumes"), QStringLiteral("List the volume storage a sandbox holds."),
             QStringLiteral("Prints the inside path of each block volume kept for sandbox NAME, mounted or no longer "
                            "declared\nby its kit; nothing once the sandbox and its volumes are removed. --backend "
                            "names where to\nlook for a sandbox that is gone (bwrap by default)."),
             runVolumes);
    volumes.options = {jsonOption(), backendOption()};
    volumes.positionalSyntax = QStringLiteral("NAME");
    volumes.minPositional = volumes.maxPositional = 1;

    return {recreate, volumes};
}

} // namespace

QList<Command> sandboxCommands()
{
    Command create = leaf(QStringLiteral("create"), QStringLiteral("Create a sandbox without starting it."),
                          QStringLiteral("Creates a sandbox (its home filled, setup.install run) for 'paddock start "
                                         "NAME'.\nPrints its name.\n\n") +
                              creationHelp(),
                          runCreate);
    create.options = {backendOption(),     engineOption(),      isolationOption(),   nameOption(),
                      composedKitOption(), argOption(),         approveOption(),     approveHostGrantsOption(),
                      cloneOption(),       ttyOption(),         unprotectedOption(), mountOption(),
                      envOption(),         secretGuardOption(), sshAgentOption(),    sshKnownHostsOption()};
    create.positionalSyntax = QStringLiteral("[PATH...] [-- ARGS...]");

    Command start = leaf(QStringLiteral("start"), QStringLiteral("Start created or stopped sandboxes."),
                         QStringLiteral("Starts each NAME with its agent in a terminal of its own, which 'paddock "
                                        "attach NAME'\njoins. The sandbox runs until 'paddock stop NAME', whatever "
                                        "the agent does; the agent's\noutput also goes to 'paddock logs NAME'."),
                         runStart);
    start.options = {approveHostGrantsOption()};
    start.positionalSyntax = QStringLiteral("NAME...");
    start.minPositional = 1;

    Command ls = leaf(QStringLiteral("ls"), QStringLiteral("List sandboxes."),
                      QStringLiteral("Lists every sandbox: name, kit, backend, status, its agent (running, exited "
                                     "with a status,\nor - when none was started), uptime, published ports and "
                                     "workspace."),
                      runLs);
    ls.options = {jsonOption()};
    ls.maxPositional = 0;

    Command stop = leaf(QStringLiteral("stop"), QStringLiteral("Stop running sandboxes."),
                        QStringLiteral("Asks every process of each sandbox to end (SIGTERM), then kills what is left "
                                       "after ten seconds."),
                        runStop);
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

    Command logs = leaf(QStringLiteral("logs"), QStringLiteral("Print a sandbox's output."),
                        QStringLiteral("Prints everything sandbox NAME's agent and setup wrote so far."), runLogs);
    logs.positionalSyntax = QStringLiteral("NAME");
    logs.minPositional = logs.maxPositional = 1;

    Command inspect =
        leaf(QStringLiteral("inspect"), QStringLiteral("Print what a sandbox is, as JSON."),
             QStringLiteral("Prints sandbox NAME as JSON: its kit, backend, status and workspace, the folders\n"
                            "and variables it shares (mounts, env), its published ports, its program and environment."),
             runInspect);
    inspect.positionalSyntax = QStringLiteral("NAME");
    inspect.minPositional = inspect.maxPositional = 1;

    return QList<Command>{create, start, ls, inspect, stop, rm} + recreationCommands() + QList<Command>{logs};
}

} // namespace paddock::cli
