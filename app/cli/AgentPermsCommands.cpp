// SPDX-License-Identifier: GPL-3.0-or-later
// paddock agent-perms: pi-permission-system's rules of a kit or a sandbox, the rule tester, and
// the agent's refusals, through the daemon (which also keeps running sandboxes' copies current).
#include "Cli.h"
#include "SandboxCliSupport.h"

#include "api/DaemonConnection.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <unistd.h>

namespace paddock::cli {
namespace {

const QString kJson = QStringLiteral("json");

QList<QCommandLineOption> targetOptions()
{
    return {QCommandLineOption(QStringLiteral("kit"), QStringLiteral("The kit folder whose rules to use."),
                               QStringLiteral("DIR")),
            QCommandLineOption(QStringLiteral("sandbox"), QStringLiteral("The sandbox whose rules to use."),
                               QStringLiteral("NAME")),
            jsonOption(QStringLiteral("the answer"))};
}

QList<QCommandLineOption> editOptions()
{
    return targetOptions() << QCommandLineOption(QStringLiteral("scope"),
                                                 QStringLiteral("global (the kit's file) or project (the sandbox's "
                                                                "workspace); default: project for a sandbox, "
                                                                "global for a kit."),
                                                 QStringLiteral("SCOPE"))
                           << QCommandLineOption(QStringLiteral("dry-run"),
                                                 QStringLiteral("Show the lines that would change; write nothing."));
}

// {kit: DIR} or {sandbox: NAME} from the options, or nothing after a usage error.
std::optional<QJsonObject> targetOf(const Invocation &call, int *code)
{
    const bool kit = call.parser.isSet(QStringLiteral("kit"));
    const bool sandbox = call.parser.isSet(QStringLiteral("sandbox"));
    if (kit == sandbox) {
        *code = usageError(call.commandPath, QStringLiteral("name either --kit DIR or --sandbox NAME"));
        return std::nullopt;
    }
    if (kit)
        return QJsonObject{{QStringLiteral("kit"),
                            QDir::cleanPath(QFileInfo(call.parser.value(QStringLiteral("kit"))).absoluteFilePath())}};
    return QJsonObject{{QStringLiteral("sandbox"), call.parser.value(QStringLiteral("sandbox"))}};
}

void printJson(const QJsonValue &value)
{
    out() << (value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject()))
                 .toJson(QJsonDocument::Indented);
}

void printDiff(const QJsonObject &result)
{
    for (const QJsonValue &value : result.value(QLatin1String("diff")).toArray()) {
        const QJsonObject line = value.toObject();
        out() << line.value(QLatin1String("kind")).toString()
              << QStringLiteral(" %1| ").arg(line.value(QLatin1String("line")).toInt(), 4)
              << line.value(QLatin1String("text")).toString() << '\n';
    }
}

int reportEdit(const Invocation &call, const QJsonObject &result)
{
    if (call.parser.isSet(kJson)) {
        printJson(result);
        return ExitOk;
    }
    const QString path = result.value(QLatin1String("path")).toString();
    if (!result.value(QLatin1String("changed")).toBool()) {
        out() << "no change: " << path << " already says so\n";
        return ExitOk;
    }
    printDiff(result);
    if (call.parser.isSet(QStringLiteral("dry-run"))) {
        out() << "would change " << path << " (nothing written)\n";
        return ExitOk;
    }
    out() << "changed " << path << '\n';
    const int homes = result.value(QLatin1String("homes")).toInt();
    if (homes > 0)
        out() << "also changed the copy in the home of " << homes
              << (homes == 1 ? " running sandbox\n" : " running sandboxes\n");
    return ExitOk;
}

int runEdit(const Invocation &call, const QString &method, QJsonObject params)
{
    int code = ExitOk;
    const std::optional<QJsonObject> target = targetOf(call, &code);
    if (!target)
        return code;
    for (auto it = target->begin(); it != target->end(); ++it)
        params.insert(it.key(), it.value());
    if (call.parser.isSet(QStringLiteral("scope")))
        params.insert(QStringLiteral("scope"), call.parser.value(QStringLiteral("scope")));
    params.insert(QStringLiteral("dryRun"), call.parser.isSet(QStringLiteral("dry-run")));
    const std::optional<QJsonObject> result = callDaemon(method, params);
    return result ? reportEdit(call, *result) : ExitFailed;
}

void printScope(const QString &title, const QJsonObject &file)
{
    out() << title << ": " << file.value(QLatin1String("path")).toString();
    if (!file.value(QLatin1String("exists")).toBool()) {
        out() << " (no file)\n";
        return;
    }
    out() << '\n';
    for (const QString &key : {QStringLiteral("readError"), QStringLiteral("parseError")}) {
        if (!file.value(key).toString().isEmpty())
            out() << "  error: " << file.value(key).toString() << '\n';
    }
    for (const QJsonValue &value : file.value(QLatin1String("surfaces")).toArray()) {
        const QJsonObject surface = value.toObject();
        const QJsonArray rules = surface.value(QLatin1String("rules")).toArray();
        if (surface.value(QLatin1String("shorthand")).toBool()) {
            out() << QStringLiteral("  %1: %2\n")
                         .arg(surface.value(QLatin1String("name")).toString(),
                              rules.first().toObject().value(QLatin1String("state")).toString());
            continue;
        }
        out() << "  " << surface.value(QLatin1String("name")).toString() << ":\n";
        for (const QJsonValue &rule : rules)
            out() << QStringLiteral("    %1  %2  (line %3)\n")
                         .arg(rule.toObject().value(QLatin1String("state")).toString(), -5)
                         .arg(rule.toObject().value(QLatin1String("pattern")).toString())
                         .arg(rule.toObject().value(QLatin1String("line")).toInt());
    }
    for (const QJsonValue &value : file.value(QLatin1String("problems")).toArray()) {
        const QJsonObject p = value.toObject();
        out() << QStringLiteral("  %1 line %2: %3\n")
                     .arg(p.value(QLatin1String("warning")).toBool() ? QStringLiteral("warning")
                                                                     : QStringLiteral("error"))
                     .arg(p.value(QLatin1String("line")).toInt())
                     .arg(p.value(QLatin1String("message")).toString());
    }
}

int runShow(const Invocation &call, bool checkOnly)
{
    int code = ExitOk;
    const std::optional<QJsonObject> target = targetOf(call, &code);
    if (!target)
        return code;
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("agent.config"), *target);
    if (!result)
        return ExitFailed;
    bool broken = false;
    for (const QString &scope : {QStringLiteral("global"), QStringLiteral("project"), QStringLiteral("inForce")}) {
        const QJsonObject file = result->value(scope).toObject();
        broken = broken || !file.value(QLatin1String("parseError")).toString().isEmpty() ||
                 !file.value(QLatin1String("readError")).toString().isEmpty();
        for (const QJsonValue &p : file.value(QLatin1String("problems")).toArray())
            broken = broken || !p.toObject().value(QLatin1String("warning")).toBool();
    }
    if (call.parser.isSet(kJson)) {
        printJson(*result);
    } else {
        out() << "pi-permission-system rules (schema " << result->value(QLatin1String("schemaVersion")).toString()
              << ") of kit " << result->value(QLatin1String("kit")).toString() << '\n';
        if (result->contains(QLatin1String("global")))
            printScope(QStringLiteral("global (the kit)"), result->value(QLatin1String("global")).toObject());
        if (result->contains(QLatin1String("inForce")))
            printScope(QStringLiteral("global (in the sandbox's home)"),
                       result->value(QLatin1String("inForce")).toObject());
        if (result->contains(QLatin1String("project")))
            printScope(QStringLiteral("project"), result->value(QLatin1String("project")).toObject());
        if (checkOnly)
            out() << (broken ? "the rules do not follow the schema\n" : "ok\n");
    }
    return checkOnly && broken ? ExitFailed : ExitOk;
}

int runTest(const Invocation &call)
{
    int code = ExitOk;
    std::optional<QJsonObject> params = targetOf(call, &code);
    if (!params)
        return code;
    params->insert(QStringLiteral("query"), call.positional.join(QLatin1Char(' ')));
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("agent.test"), *params);
    if (!result)
        return ExitFailed;
    const QString state = result->value(QLatin1String("state")).toString();
    if (call.parser.isSet(kJson)) {
        printJson(*result);
    } else {
        const QJsonObject first = result->value(QLatin1String("firstStop")).toObject();
        const QJsonObject decided = result->value(QLatin1String("decidedBy")).toObject();
        out() << result->value(QLatin1String("query")).toString() << ": " << state;
        if (!decided.isEmpty())
            out() << " by " << decided.value(QLatin1String("layer")).toString() << " rule "
                  << decided.value(QLatin1String("rule")).toString();
        out() << '\n';
        if (!first.isEmpty() && first.value(QLatin1String("rule")) != decided.value(QLatin1String("rule")))
            out() << "  first stops at " << first.value(QLatin1String("layer")).toString() << " rule "
                  << first.value(QLatin1String("rule")).toString() << " ("
                  << first.value(QLatin1String("state")).toString() << ")\n";
        for (const QJsonValue &note : result->value(QLatin1String("notes")).toArray())
            out() << "  note: " << note.toString() << '\n';
    }
    return state == QLatin1String("allow") ? ExitOk : ExitFailed;
}

QString refusalLine(const QJsonObject &r)
{
    QString line = QStringLiteral("%1  %2  %3  %4  %5: %6")
                       .arg(r.value(QLatin1String("id")).toInt(), 4)
                       .arg(r.value(QLatin1String("time")).toString(), r.value(QLatin1String("sandbox")).toString(),
                            r.value(QLatin1String("state")).toString(), r.value(QLatin1String("tool")).toString(),
                            r.value(QLatin1String("value")).toString());
    if (!r.value(QLatin1String("rule")).toString().isEmpty())
        line += QStringLiteral("  [%1]").arg(r.value(QLatin1String("rule")).toString());
    if (r.value(QLatin1String("count")).toInt() > 1)
        line += QStringLiteral("  x%1").arg(r.value(QLatin1String("count")).toInt());
    return line;
}

int followRefusals(const QString &sandbox, bool json)
{
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error))
        return failure(error);
    const api::Reply subscribed =
        connection.call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("agent")}}});
    if (subscribed.isError())
        return failure(subscribed.errorMessage());
    out().flush();
    while (connection.isOpen()) {
        const std::optional<api::Event> event = connection.waitForEvent(1000);
        if (!event || event->data.value(QLatin1String("type")).toString() != QLatin1String("refusal"))
            continue;
        const QJsonObject refusal = event->data.value(QLatin1String("refusal")).toObject();
        if (!sandbox.isEmpty() && refusal.value(QLatin1String("sandbox")).toString() != sandbox)
            continue;
        out() << (json ? QString::fromUtf8(QJsonDocument(refusal).toJson(QJsonDocument::Compact))
                       : refusalLine(refusal))
              << '\n';
        out().flush();
    }
    return failure(QStringLiteral("the daemon went away"));
}

int runRefusals(const Invocation &call)
{
    const QString sandbox = call.parser.value(QStringLiteral("sandbox"));
    if (call.parser.isSet(QStringLiteral("follow")))
        return followRefusals(sandbox, call.parser.isSet(kJson));
    QJsonObject params;
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("agent.refusals"), params);
    if (!result)
        return ExitFailed;
    const QJsonArray refusals = result->value(QLatin1String("refusals")).toArray();
    if (call.parser.isSet(kJson)) {
        printJson(refusals);
        return ExitOk;
    }
    if (refusals.isEmpty())
        out() << "no agent refusals\n";
    for (const QJsonValue &value : refusals)
        out() << refusalLine(value.toObject()) << '\n';
    return ExitOk;
}

bool confirmed()
{
    if (!::isatty(STDIN_FILENO))
        return false;
    out() << "Write this change? [y/N] ";
    out().flush();
    QTextStream in(stdin);
    const QString answer = in.readLine().trimmed().toLower();
    return answer == QLatin1String("y") || answer == QLatin1String("yes");
}

int runAllow(const Invocation &call)
{
    bool ok = false;
    const int id = call.positional.first().toInt(&ok);
    if (!ok)
        return usageError(call.commandPath, QStringLiteral("ID is the number 'paddock agent-perms refusals' shows"));
    const QString where = call.parser.value(QStringLiteral("where"));
    QJsonObject params{{QStringLiteral("id"), id}, {QStringLiteral("where"), where}, {QStringLiteral("dryRun"), true}};
    // Confirm, then write: the same question the window asks.
    std::optional<QJsonObject> preview = callDaemon(QStringLiteral("agent.allow"), params);
    if (!preview)
        return ExitFailed;
    const bool json = call.parser.isSet(kJson);
    if (!json) {
        printDiff(*preview);
        out() << "in " << preview->value(QLatin1String("path")).toString() << '\n';
    }
    if (!preview->value(QLatin1String("changed")).toBool() || call.parser.isSet(QStringLiteral("dry-run"))) {
        if (json)
            printJson(*preview);
        return ExitOk;
    }
    if (!call.parser.isSet(QStringLiteral("yes")) && !confirmed())
        return failure(QStringLiteral("nothing written; add --yes to write without a question"));
    params.insert(QStringLiteral("dryRun"), false);
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("agent.allow"), params);
    if (!result)
        return ExitFailed;
    if (json)
        printJson(*result);
    else
        out() << "changed " << result->value(QLatin1String("path")).toString() << '\n';
    return ExitOk;
}

Command targetLeaf(const QString &name, const QString &summary, const QString &description,
                   std::function<int(const Invocation &)> run, bool edit)
{
    Command command = leaf(name, summary, description, std::move(run));
    command.options = edit ? editOptions() : targetOptions();
    return command;
}

// set, rm, move: edits through the daemon, each a minimal change of one file.
QList<Command> editCommands()
{
    Command set = targetLeaf(
        QStringLiteral("set"), QStringLiteral("Set a pattern of a surface to allow, ask or deny."),
        QStringLiteral("SURFACE is *, path, bash, external_directory, read, write, edit, find, grep, ls, mcp,\n"
                       "skill or another tool. A new pattern goes last, so it wins over those before it.\n"
                       "Without PATTERN the surface becomes one state: \"bash\": \"ask\"."),
        [](const Invocation &c) {
            QJsonObject params{{QStringLiteral("surface"), c.positional.first()},
                               {QStringLiteral("state"), c.positional.last()}};
            if (c.positional.size() == 3)
                params.insert(QStringLiteral("pattern"), c.positional.at(1));
            return runEdit(c, QStringLiteral("agent.set"), params);
        },
        true);
    set.positionalSyntax = QStringLiteral("SURFACE [PATTERN] allow|ask|deny");
    set.minPositional = 2;
    set.maxPositional = 3;
    Command remove = targetLeaf(
        QStringLiteral("rm"), QStringLiteral("Remove a pattern, or a whole surface."),
        QStringLiteral("A surface left without patterns goes too."),
        [](const Invocation &c) {
            QJsonObject params{{QStringLiteral("surface"), c.positional.first()}};
            if (c.positional.size() == 2)
                params.insert(QStringLiteral("pattern"), c.positional.at(1));
            return runEdit(c, QStringLiteral("agent.remove"), params);
        },
        true);
    remove.positionalSyntax = QStringLiteral("SURFACE [PATTERN]");
    remove.minPositional = 1;
    remove.maxPositional = 2;
    Command move = targetLeaf(
        QStringLiteral("move"), QStringLiteral("Move a pattern to another place in its surface."),
        QStringLiteral("INDEX counts from 0; order matters, since the last match wins."),
        [](const Invocation &c) {
            return runEdit(c, QStringLiteral("agent.move"),
                           {{QStringLiteral("surface"), c.positional.at(0)},
                            {QStringLiteral("pattern"), c.positional.at(1)},
                            {QStringLiteral("index"), c.positional.at(2).toInt()}});
        },
        true);
    move.positionalSyntax = QStringLiteral("SURFACE PATTERN INDEX");
    move.minPositional = move.maxPositional = 3;
    return {set, remove, move};
}

// refusals, allow, dismiss: the agents' refusals, and the narrowest rule that lets one pass.
QList<Command> refusalCommands()
{
    Command refusals =
        leaf(QStringLiteral("refusals"), QStringLiteral("List what the agents were refused or asked."),
             QStringLiteral("Read live from the extension's review log in each running sandbox."), runRefusals);
    refusals.options = {
        QCommandLineOption(QStringLiteral("sandbox"), QStringLiteral("Only this sandbox."), QStringLiteral("NAME")),
        QCommandLineOption(QStringLiteral("follow"), QStringLiteral("Print new refusals as they come.")),
        QCommandLineOption(kJson, QStringLiteral("Print JSON."))};
    refusals.maxPositional = 0;
    Command allow = leaf(QStringLiteral("allow"), QStringLiteral("Allow a refused call with the narrowest rule."),
                         QStringLiteral("Shows the lines the rule adds, asks, then writes them into the sandbox's\n"
                                        "project file (--where project) or its kit (--where kit, also copied into\n"
                                        "the homes of the kit's running sandboxes)."),
                         runAllow);
    allow.positionalSyntax = QStringLiteral("ID");
    allow.minPositional = allow.maxPositional = 1;
    allow.options = {QCommandLineOption(QStringLiteral("where"), QStringLiteral("project or kit."),
                                        QStringLiteral("WHERE"), QStringLiteral("project")),
                     QCommandLineOption(QStringLiteral("yes"), QStringLiteral("Write without asking.")),
                     QCommandLineOption(QStringLiteral("dry-run"), QStringLiteral("Show the change only.")),
                     QCommandLineOption(kJson, QStringLiteral("Print JSON."))};
    Command dismiss = leaf(QStringLiteral("dismiss"), QStringLiteral("Hide a refusal until it happens again."), {},
                           [](const Invocation &c) {
                               const std::optional<QJsonObject> result =
                                   callDaemon(QStringLiteral("agent.dismiss"),
                                              {{QStringLiteral("id"), c.positional.first().toInt()}});
                               return result ? ExitOk : ExitFailed;
                           });
    dismiss.positionalSyntax = QStringLiteral("ID");
    dismiss.minPositional = dismiss.maxPositional = 1;
    return {refusals, allow, dismiss};
}

} // namespace

Command agentPermsCommand()
{
    Command group;
    group.name = QStringLiteral("agent-perms");
    group.summary = QStringLiteral("The agent's own rules (pi-permission-system): show, edit, test, refusals.");
    group.description = QStringLiteral(
        "Inside a sandbox, the Pi extension pi-permission-system decides each tool call of the agent\n"
        "(bash commands, file paths, MCP calls, skills) by allow / ask / deny rules. A kit carries its\n"
        "global rules in files/home/.pi/agent/extensions/pi-permission-system/config.json; a sandbox's\n"
        "workspace may add project rules in .pi/extensions/pi-permission-system/config.json. Edits change\n"
        "only the lines concerned and are checked against the extension's schema before they are written.");

    Command show = targetLeaf(
        QStringLiteral("show"), QStringLiteral("Show the rules of a kit or a sandbox, in order."),
        QStringLiteral("Within a surface the last matching pattern wins: rules are listed in the "
                       "order the extension reads them."),
        [](const Invocation &c) { return runShow(c, false); }, false);
    Command check = targetLeaf(
        QStringLiteral("check"), QStringLiteral("Check the rules against the extension's schema."),
        QStringLiteral("Exits 1 when a file does not parse or does not follow the schema."),
        [](const Invocation &c) { return runShow(c, true); }, false);
    Command test = targetLeaf(
        QStringLiteral("test"), QStringLiteral("What the rules decide for a call: 'bash: rm -rf game', 'read: .env'."),
        QStringLiteral("Evaluates the merged scopes with the extension's matching and layers, and names the rule\n"
                       "that decides. Where the extension would parse a bash command further, it says so.\n"
                       "Exits 0 when the call is allowed, 1 when it is asked or denied."),
        runTest, false);
    test.positionalSyntax = QStringLiteral("TOOL: VALUE");
    test.minPositional = 1;
    group.subcommands << show << check << editCommands() << test << refusalCommands();
    return group;
}

} // namespace paddock::cli
