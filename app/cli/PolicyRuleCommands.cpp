// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy init|ls|allow|deny|rm|edit|check: the rules.
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"
#include "PolicyCli.h"

#include "policy/Preset.h"
#include "policy/Rule.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <optional>

namespace paddock::cli {
namespace {

using namespace policycli;

const QString kProgramSha256 = QStringLiteral("program-sha256");

/** The scope --sandbox selects: that sandbox, or every sandbox when absent; --scope names any. */
policy::Scope scopeOf(const Invocation &call)
{
    if (call.parser.optionNames().contains(QStringLiteral("scope")) && call.parser.isSet(QStringLiteral("scope"))) {
        if (const std::optional<policy::Scope> scope =
                policy::Scope::fromString(call.parser.value(QStringLiteral("scope"))))
            return *scope;
    }
    const QString sandbox = call.parser.value(kSandbox);
    return sandbox.isEmpty() ? policy::Scope::global() : policy::Scope::sandbox(sandbox);
}

/** Checks --scope when given: global, sandbox:NAME or kit:NAME, and not together with --sandbox. */
std::optional<int> checkScopeOption(const Invocation &call)
{
    if (!call.parser.optionNames().contains(QStringLiteral("scope")))
        return std::nullopt;
    const QString text = call.parser.value(QStringLiteral("scope"));
    const std::optional<policy::Scope> scope = policy::Scope::fromString(text);
    if (!scope || (scope->kind != policy::Scope::Kind::Global && scope->name.isEmpty()))
        return usageError(call.commandPath,
                          QStringLiteral("--scope takes global, sandbox:NAME or kit:NAME, got '%1'").arg(text));
    if (call.parser.isSet(kSandbox))
        return usageError(call.commandPath, QStringLiteral("give either --scope or --sandbox, not both"));
    return std::nullopt;
}

/** The note `policy ls` and the help print about rules that look inside requests. */
const char kRequestRulesNote[] =
    "A rule with --method or --path is decided for each request Paddock sees: plain HTTP, and\n"
    "HTTPS to a host whose TLS it terminates (a bound credential). Inside other HTTPS tunnels\n"
    "requests cannot be seen, so a connection to a host such a rule names is refused there: a\n"
    "deny limited to a path does not turn into an allow of the rest, and an allow limited to a\n"
    "path does not open the whole tunnel. Host rules (without --method or --path) still apply.\n";

QString patternCell(const policy::Rule &rule)
{
    return rule.pattern.toString() + (rule.request.isEmpty() ? QString() : QLatin1Char(' ') + rule.request.toString()) +
           (rule.program.isEmpty() ? QString() : QStringLiteral(" for ") + rule.program);
}

QJsonObject ruleJsonBase(const policy::Rule &rule);

QJsonObject ruleJson(const policy::Rule &rule)
{
    QJsonObject object = ruleJsonBase(rule);
    if (!rule.request.methods.isEmpty())
        object.insert(QStringLiteral("method"), rule.request.methods.join(QLatin1Char(',')));
    if (!rule.request.path.isEmpty())
        object.insert(QStringLiteral("path"), rule.request.path);
    if (!rule.program.isEmpty())
        object.insert(QStringLiteral("program"), rule.program);
    return object;
}

QJsonObject ruleJsonBase(const policy::Rule &rule)
{
    return QJsonObject{
        {QStringLiteral("id"), rule.id},
        {QStringLiteral("scope"), rule.scope.toString()},
        {QStringLiteral("decision"), policy::verdictName(rule.verdict)},
        {QStringLiteral("pattern"), rule.pattern.toString()},
        {QStringLiteral("origin"), policy::originName(rule.origin)},
        {QStringLiteral("created"),
         rule.created.isValid() ? QJsonValue(rule.created.toString(Qt::ISODate)) : QJsonValue(QJsonValue::Null)},
    };
}

void printRules(const QList<policy::Rule> &rules)
{
    QList<QStringList> rows;
    for (const policy::Rule &rule : rules)
        rows << QStringList{rule.id,           rule.scope.toString(),           policy::verdictName(rule.verdict),
                            patternCell(rule), policy::originName(rule.origin), timeText(rule.created)};
    printTable({QStringLiteral("ID"), QStringLiteral("SCOPE"), QStringLiteral("DECISION"), QStringLiteral("PATTERN"),
                QStringLiteral("ORIGIN"), QStringLiteral("CREATED")},
               rows);
    if (std::any_of(rules.cbegin(), rules.cend(), [](const policy::Rule &rule) { return !rule.request.isEmpty(); }))
        out() << '\n' << kRequestRulesNote;
}

/** The daemon's rules (policy.get): the user's, then those of running sandboxes' kits. */
void printRuleRows(const QJsonArray &rules)
{
    QList<QStringList> own;
    QList<QStringList> kits;
    bool requestRules = false;
    for (const QJsonValue &value : rules) {
        const QJsonObject rule = value.toObject();
        const QString request = rule.value(QLatin1String("request")).toString();
        const QString program = rule.value(QLatin1String("program")).toString();
        requestRules = requestRules || !request.isEmpty();
        const QString pattern = rule.value(QLatin1String("pattern")).toString() +
                                (request.isEmpty() ? QString() : QLatin1Char(' ') + request) +
                                (program.isEmpty() ? QString() : QStringLiteral(" for ") + program);
        const QStringList row{
            rule.value(QLatin1String("id")).toString(),
            rule.value(QLatin1String("scope")).toString(),
            rule.value(QLatin1String("decision")).toString(),
            pattern,
            rule.value(QLatin1String("origin")).toString(),
            timeText(QDateTime::fromString(rule.value(QLatin1String("created")).toString(), Qt::ISODateWithMs))};
        (rule.value(QLatin1String("readOnly")).toBool() ? kits : own) << row;
    }
    const QStringList columns{QStringLiteral("ID"),      QStringLiteral("SCOPE"),  QStringLiteral("DECISION"),
                              QStringLiteral("PATTERN"), QStringLiteral("ORIGIN"), QStringLiteral("CREATED")};
    if (!own.isEmpty())
        printTable(columns, own);
    if (!kits.isEmpty()) {
        out() << (own.isEmpty() ? "" : "\n") << "From the kits of running sandboxes (edited in their spec.yaml):\n";
        printTable(columns, kits);
    }
    if (requestRules)
        out() << '\n' << kRequestRulesNote;
}

/**
 * The rule's program condition from --program and --program-sha256: `NAME`, `/PATH`,
 * `sha256:HEX` or `NAME@sha256:HEX`; empty for none. Nothing (after saying why) when invalid.
 */
std::optional<QString> programCondition(const Invocation &call)
{
    QString program = call.parser.value(QStringLiteral("program"));
    if (call.parser.isSet(kProgramSha256)) {
        const QString digest = call.parser.value(kProgramSha256).toLower();
        program =
            program.isEmpty() ? QStringLiteral("sha256:") + digest : program + QStringLiteral("@sha256:") + digest;
    }
    if (const Result<void> checked = policy::checkProgramCondition(program); !program.isEmpty() && !checked) {
        usageError(call.commandPath,
                   QStringLiteral("invalid --program or --program-sha256: %1").arg(checked.error().text()));
        return std::nullopt;
    }
    return program;
}

/** "network RESOURCES...": checks the resource kind and splits the comma-separated lists. */
std::optional<int> networkResources(const Invocation &call, QStringList *resources)
{
    if (call.positional.constFirst() != QLatin1String("network"))
        return usageError(call.commandPath,
                          QStringLiteral("'%1' is not a resource type; Paddock's rules are about 'network'")
                              .arg(call.positional.constFirst()));
    for (const QString &arg : call.positional.mid(1)) {
        for (const QString &item : arg.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!item.trimmed().isEmpty())
                *resources << item.trimmed();
        }
    }
    if (resources->isEmpty())
        return usageError(call.commandPath, QStringLiteral("missing arguments: expected network RESOURCES"));
    return std::nullopt;
}

// ---- init, ls ---------------------------------------------------------------------------

int runInit(const Invocation &call)
{
    const QString name = call.positional.constFirst();
    const std::optional<policy::Preset> preset = policy::presetFromName(name);
    if (!preset)
        return usageError(call.commandPath,
                          QStringLiteral("unknown preset '%1': expected deny-all, balanced or allow-all").arg(name));
    int code = ExitOk;
    if (!callDaemon(call, QStringLiteral("policy.preset"), {{QStringLiteral("preset"), policy::presetName(*preset)}},
                    &code, kPolicyCallTimeoutMs))
        return code;
    out() << "Preset set to " << policy::presetName(*preset) << " (" << policy::presetRules(*preset).size()
          << " rules): " << policy::presetDescription(*preset) << '\n';
    return ExitOk;
}

int runLs(const Invocation &call)
{
    const bool json = call.parser.isSet(kJson);
    if (call.parser.isSet(QStringLiteral("preset"))) {
        const QString name = call.parser.value(QStringLiteral("preset"));
        const std::optional<policy::Preset> preset = policy::presetFromName(name);
        if (!preset)
            return usageError(
                call.commandPath,
                QStringLiteral("unknown preset '%1': expected deny-all, balanced or allow-all").arg(name));
        const QList<policy::Rule> &rules = policy::presetRules(*preset);
        if (json) {
            QJsonArray array;
            for (const policy::Rule &rule : rules)
                array << ruleJson(rule);
            printJson(QJsonDocument(QJsonObject{{QStringLiteral("preset"), policy::presetName(*preset)},
                                                {QStringLiteral("description"), policy::presetDescription(*preset)},
                                                {QStringLiteral("rules"), array}}));
            return ExitOk;
        }
        out() << "Preset " << policy::presetName(*preset) << ": " << policy::presetDescription(*preset) << "\n\n";
        printRules(rules);
        return ExitOk;
    }

    // The daemon's policy in force: policy.yaml as it applies it, and the kits of running sandboxes.
    int code = ExitOk;
    const std::optional<QJsonObject> policy =
        callDaemon(call, QStringLiteral("policy.get"), {}, &code, kPolicyCallTimeoutMs);
    if (!policy)
        return code;
    if (const QString broken = policy->value(QLatin1String("fileError")).toString(); !broken.isEmpty())
        return failure(QStringLiteral("the policy file cannot be used: %1").arg(broken));
    if (json) {
        printJson(QJsonDocument(QJsonObject{{QStringLiteral("preset"), policy->value(QLatin1String("preset"))},
                                            {QStringLiteral("rules"), policy->value(QLatin1String("rules"))},
                                            {QStringLiteral("resolve"), policy->value(QLatin1String("resolve"))}}));
        return ExitOk;
    }
    const QString presetName = policy->value(QLatin1String("preset")).toString();
    const std::optional<policy::Preset> preset = policy::presetFromName(presetName);
    out() << "Preset: " << presetName << " (" << (preset ? policy::presetRules(*preset).size() : 0)
          << " rules; 'paddock policy ls --preset " << presetName << "' lists them)\n\n";
    const QJsonArray rules = policy->value(QLatin1String("rules")).toArray();
    if (rules.isEmpty()) {
        out() << "No rules yet. Add one with 'paddock policy allow network HOST'.\n";
        return ExitOk;
    }
    printRuleRows(rules);
    return ExitOk;
}

// ---- allow, deny, rm --------------------------------------------------------------------

int addRules(const Invocation &call, policy::Verdict verdict)
{
    QStringList resources;
    if (const std::optional<int> stopped = checkScopeOption(call))
        return *stopped;
    if (const std::optional<int> stopped = networkResources(call, &resources))
        return *stopped;
    const std::optional<QString> program = programCondition(call);
    if (!program)
        return ExitUsage;
    // The daemon checks every pattern before it writes any (all or nothing), writes policy.yaml
    // and gives the running proxy the rules before it answers.
    QJsonObject params{{QStringLiteral("patterns"), QJsonArray::fromStringList(resources)},
                       {QStringLiteral("decision"), policy::verdictName(verdict)},
                       {QStringLiteral("scope"), scopeOf(call).toString()},
                       {QStringLiteral("program"), *program}};
    const QStringList names = call.parser.optionNames();
    const bool requestRule = names.contains(QStringLiteral("method")) || names.contains(QStringLiteral("path"));
    if (requestRule) {
        params.insert(QStringLiteral("method"), call.parser.value(QStringLiteral("method")));
        params.insert(QStringLiteral("path"), call.parser.value(QStringLiteral("path")));
    }
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("policy.add"), params, &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    const QString verb = verdict == policy::Verdict::Allow ? QStringLiteral("allowed") : QStringLiteral("denied");
    for (const QJsonValue &value : result->value(QLatin1String("rules")).toArray()) {
        const QJsonObject rule = value.toObject();
        const QString request = rule.value(QLatin1String("request")).toString();
        const QString ruleProgram = rule.value(QLatin1String("program")).toString();
        out() << (rule.value(QLatin1String("existed")).toBool()
                      ? QStringLiteral("Already %1: ").arg(verb)
                      : verb.at(0).toUpper() + verb.mid(1) + QStringLiteral(": "))
              << rule.value(QLatin1String("pattern")).toString()
              << (request.isEmpty() ? QString() : QLatin1Char(' ') + request)
              << (ruleProgram.isEmpty() ? QString() : QStringLiteral(" for ") + ruleProgram) << " (rule "
              << rule.value(QLatin1String("id")).toString() << ", " << rule.value(QLatin1String("scope")).toString()
              << ")\n";
    }
    if (requestRule)
        out() << kRequestRulesNote;
    return ExitOk;
}

/**
 * `policy allow [network] HOST --where sandbox|kit|global [--what ...] [--port N]`: allows a
 * refused destination as the window's Allow button does, through the daemon, which edits
 * the kit's spec.yaml (one line) for `--where kit` and applies it to running sandboxes at once.
 */
int allowThroughDaemon(const Invocation &call)
{
    QStringList hosts = call.positional;
    if (!hosts.isEmpty() && hosts.constFirst() == QLatin1String("network"))
        hosts.removeFirst();
    if (hosts.size() != 1)
        return usageError(call.commandPath, QStringLiteral("--where and --what allow one HOST at a time"));
    const QString where = call.parser.isSet(QStringLiteral("where")) ? call.parser.value(QStringLiteral("where"))
                          : call.parser.isSet(kSandbox)              ? QStringLiteral("sandbox")
                                                                     : QStringLiteral("global");
    QJsonObject params{{QStringLiteral("host"), hosts.constFirst()},
                       {QStringLiteral("where"), where},
                       {QStringLiteral("what"), call.parser.isSet(QStringLiteral("what"))
                                                    ? call.parser.value(QStringLiteral("what"))
                                                    : QStringLiteral("exact")}};
    if (call.parser.isSet(kSandbox))
        params.insert(QStringLiteral("sandbox"), call.parser.value(kSandbox));
    if (call.parser.isSet(QStringLiteral("port"))) {
        bool ok = false;
        const int port = call.parser.value(QStringLiteral("port")).toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return usageError(call.commandPath, QStringLiteral("--port takes a port between 1 and 65535"));
        params.insert(QStringLiteral("port"), port);
    }
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("policy.allow"), params, &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    const QString message = result->value(QLatin1String("message")).toString();
    out() << message.at(0).toUpper() << message.mid(1) << ".\n";
    return ExitOk;
}

int runAllow(const Invocation &call)
{
    if (call.parser.isSet(QStringLiteral("where")) || call.parser.isSet(QStringLiteral("what")) ||
        call.parser.isSet(QStringLiteral("port"))) {
        if (call.parser.isSet(QStringLiteral("program")) || call.parser.isSet(kProgramSha256))
            return usageError(call.commandPath,
                              QStringLiteral("--program goes with network RESOURCES, not with --where"));
        if (call.parser.isSet(QStringLiteral("method")) || call.parser.isSet(QStringLiteral("path")))
            return usageError(call.commandPath, QStringLiteral("--method and --path go with network RESOURCES, not "
                                                               "with --where, --what or --port"));
        return allowThroughDaemon(call);
    }
    return addRules(call, policy::Verdict::Allow);
}
int runDeny(const Invocation &call)
{
    return addRules(call, policy::Verdict::Deny);
}

int runRm(const Invocation &call)
{
    // TARGET is a rule's id, or else a pattern whose rules in the scope go; the daemon decides which.
    const QString target = call.positional.constFirst();
    int code = ExitOk;
    const std::optional<QJsonObject> result = callDaemon(call, QStringLiteral("policy.remove"),
                                                         {{QStringLiteral("id"), target},
                                                          {QStringLiteral("pattern"), target},
                                                          {QStringLiteral("scope"), scopeOf(call).toString()}},
                                                         &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    const int removed = result->value(QLatin1String("removed")).toInt();
    out() << "Removed " << removed << (removed == 1 ? " rule" : " rules") << ".\n";
    return ExitOk;
}

/** `policy edit ID [--pattern P] [--decision D] [--scope S]`: the window's Edit, through the daemon. */
int runEdit(const Invocation &call)
{
    QJsonObject params{{QStringLiteral("id"), call.positional.constFirst()}};
    for (const char *name : {"pattern", "decision", "scope"}) {
        if (call.parser.isSet(QLatin1String(name)))
            params.insert(QLatin1String(name), call.parser.value(QLatin1String(name)));
    }
    if (params.size() == 1)
        return usageError(call.commandPath, QStringLiteral("say what to change: --pattern, --decision or --scope"));
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("policy.update"), params, &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    const QJsonObject rule = result->value(QLatin1String("rule")).toObject();
    out() << "Changed: " << rule.value(QLatin1String("decision")).toString() << ' '
          << rule.value(QLatin1String("pattern")).toString() << " (rule " << rule.value(QLatin1String("id")).toString()
          << ", " << rule.value(QLatin1String("scope")).toString() << ")\n";
    return ExitOk;
}

// ---- check ------------------------------------------------------------------------------

int runCheck(const Invocation &call)
{
    if (call.positional.constFirst() != QLatin1String("network"))
        return usageError(
            call.commandPath,
            QStringLiteral("'%1' is not a resource type; Paddock checks 'network'").arg(call.positional.constFirst()));
    if (call.positional.size() != 2)
        return usageError(call.commandPath, QStringLiteral("expected network TARGET"));
    // Decided by the daemon's engine, with the policy in force and, for a running sandbox, its kit.
    QJsonObject params{{QStringLiteral("target"), call.positional.at(1)}};
    if (call.parser.isSet(kSandbox))
        params.insert(QStringLiteral("sandbox"), call.parser.value(kSandbox));
    if (call.parser.isSet(QStringLiteral("kit"))) {
        const std::optional<QString> resolved = resolveKit(call.parser.value(QStringLiteral("kit")));
        if (!resolved)
            return ExitFailed;
        params.insert(QStringLiteral("kit"), *resolved);
    }
    int code = ExitOk;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("policy.check"), params, &code, kPolicyCallTimeoutMs);
    if (!answer)
        return code;
    for (const QJsonValue &warning : answer->value(QLatin1String("warnings")).toArray())
        err() << "paddock: warning: " << warning.toString() << '\n';
    const bool allowed = answer->value(QLatin1String("allowed")).toBool();
    if (call.parser.isSet(kJson)) {
        QJsonObject object = *answer;
        object.remove(QStringLiteral("warnings"));
        printJson(QJsonDocument(object));
    } else {
        const QString fix = answer->value(QLatin1String("fix")).toString();
        const QString note = answer->value(QLatin1String("note")).toString();
        out() << (allowed ? "allowed: " : "denied: ") << answer->value(QLatin1String("reason")).toString() << '\n';
        out() << "rule: " << answer->value(QLatin1String("rule")).toString() << '\n';
        if (!fix.isEmpty())
            out() << "to allow it: " << fix << '\n';
        if (!note.isEmpty())
            out() << "note: " << note << '\n';
    }
    return allowed ? ExitOk : ExitFailed;
}

// ---- the commands -----------------------------------------------------------------------

QString resourcesHelp()
{
    return QStringLiteral("One or more patterns, comma-separated or as several arguments.");
}

Command initCommand()
{
    Command init = leaf(QStringLiteral("init"), QStringLiteral("Choose the global preset."),
                        QStringLiteral("Sets the preset the rules are added to: deny-all (nothing is allowed but\n"
                                       "your rules; the default), balanced (package registries, code hosts, AI\n"
                                       "provider APIs, OS mirrors) or allow-all (every public host)."),
                        runInit);
    init.positionalSyntax = QStringLiteral("PRESET");
    init.positionalHelp = {{QStringLiteral("PRESET"), QStringLiteral("deny-all, balanced or allow-all.")}};
    init.minPositional = init.maxPositional = 1;
    return init;
}

Command lsCommand()
{
    Command ls = leaf(QStringLiteral("ls"), QStringLiteral("List the rules."),
                      QStringLiteral("Prints the preset and the rules as a table: id, scope, decision, pattern,\n"
                                     "origin and when it was created. With --preset, the preset's full list.\n"
                                     "Exits 1 when policy.yaml cannot be read, naming the line."),
                      runLs);
    ls.maxPositional = 0;
    ls.options = {QCommandLineOption(QStringLiteral("preset"), QStringLiteral("List this preset's rules instead."),
                                     QStringLiteral("NAME")),
                  jsonOption(QStringLiteral("the rules"))};
    return ls;
}

QCommandLineOption programOption(const QString &what)
{
    return QCommandLineOption(
        QStringLiteral("program"),
        what + QStringLiteral(": a file name (pip, curl) or an absolute path (/usr/bin/git), as\n"
                              "the sandbox's base has it: a copy, a link or a rewrite inside the sandbox is\n"
                              "another program. An interpreter's script counts: python3 /usr/bin/pip is pip."),
        QStringLiteral("PROGRAM"));
}

QCommandLineOption programSha256Option()
{
    return QCommandLineOption(
        kProgramSha256,
        QStringLiteral("Only this very file: its SHA-256 (64 hexadecimal digits, as sha256sum prints\n"
                       "it), wherever it is; with --program, a file of that name too."),
        QStringLiteral("HEX"));
}

QCommandLineOption methodOption()
{
    return QCommandLineOption(QStringLiteral("method"),
                              QStringLiteral("Only requests with this method (GET, POST; a comma list: GET,HEAD)."),
                              QStringLiteral("METHOD"));
}

QCommandLineOption pathOption()
{
    return QCommandLineOption(QStringLiteral("path"),
                              QStringLiteral("Only requests under this path: a prefix (/gists) or a glob where * stays "
                                             "in one segment and ** crosses them (/org/**). Queries are not matched."),
                              QStringLiteral("PATH"));
}

Command allowCommand()
{
    Command allow =
        leaf(QStringLiteral("allow"), QStringLiteral("Allow network destinations."),
             QStringLiteral("Adds an allow rule for each pattern, for every sandbox or with --sandbox for\n"
                            "one. Every pattern is checked first: an invalid one changes nothing (exit 2).\n"
                            "A bare * or ** cannot be allowed: choose the allow-all preset instead."),
             runAllow);
    allow.description +=
        QStringLiteral("\n\nWith --where (or --what, --port), allows one refused HOST the way the window's\n"
                       "Allow button does, through the daemon: --where sandbox (for --sandbox NAME),\n"
                       "kit (one line added to the spec.yaml that sandbox was made from, applied to\n"
                       "its running sandboxes at once) or global; --what exact (the host on this\n"
                       "port), anyport (HOST:*), wildcard (*.PARENT) or deep (**.PARENT). A wildcard\n"
                       "never covers more than one registrable domain. 'network' may be left out then.");
    allow.positionalSyntax = QStringLiteral("network RESOURCES...");
    allow.positionalHelp = {{QStringLiteral("RESOURCES"), resourcesHelp()}};
    allow.minPositional = 1;
    allow.options = {
        sandboxOption(QStringLiteral("Allow for this sandbox only.")),
        QCommandLineOption(QStringLiteral("scope"),
                           QStringLiteral("The rule's scope: global, sandbox:NAME or kit:NAME."),
                           QStringLiteral("SCOPE")),
        QCommandLineOption(QStringLiteral("where"), QStringLiteral("Allow a refused HOST in: sandbox, kit or global."),
                           QStringLiteral("PLACE")),
        QCommandLineOption(QStringLiteral("what"), QStringLiteral("exact, anyport, wildcard or deep (default exact)."),
                           QStringLiteral("CHOICE")),
        QCommandLineOption(QStringLiteral("port"), QStringLiteral("The port HOST was refused on (default 443)."),
                           QStringLiteral("PORT")),
        programOption(QStringLiteral("Allow only connections this program opens")),
        programSha256Option(),
        methodOption(),
        pathOption()};
    allow.description += QStringLiteral("\n\n") + QLatin1String(kRequestRulesNote);
    return allow;
}

Command denyCommand()
{
    Command deny = leaf(QStringLiteral("deny"), QStringLiteral("Deny network destinations."),
                        QStringLiteral("Adds a deny rule for each pattern, for every sandbox or with --sandbox for\n"
                                       "one. Deny wins over every allow rule. Every pattern is checked first."),
                        runDeny);
    deny.positionalSyntax = QStringLiteral("network RESOURCES...");
    deny.positionalHelp = {{QStringLiteral("RESOURCES"), resourcesHelp()}};
    deny.minPositional = 2;
    deny.options = {sandboxOption(QStringLiteral("Deny for this sandbox only.")),
                    QCommandLineOption(QStringLiteral("scope"),
                                       QStringLiteral("The rule's scope: global, sandbox:NAME or kit:NAME."),
                                       QStringLiteral("SCOPE")),
                    programOption(QStringLiteral("Deny only connections this program opens (and those whose "
                                                 "program is not known)")),
                    programSha256Option(),
                    methodOption(),
                    pathOption()};
    deny.description += QStringLiteral("\n\n") + QLatin1String(kRequestRulesNote);
    return deny;
}

Command rmCommand()
{
    Command rm = leaf(QStringLiteral("rm"), QStringLiteral("Remove a rule by id or by pattern."),
                      QStringLiteral("Removes the rule with this id (as 'paddock policy ls' shows it), or the rules\n"
                                     "of the scope (global, or --sandbox NAME) whose pattern is PATTERN."),
                      runRm);
    rm.positionalSyntax = QStringLiteral("ID|PATTERN");
    rm.minPositional = rm.maxPositional = 1;
    rm.options = {sandboxOption(QStringLiteral("Remove the pattern from this sandbox's rules."))};
    return rm;
}

Command checkCommand()
{
    Command check =
        leaf(QStringLiteral("check"), QStringLiteral("Say whether a destination would be allowed, and why."),
             QStringLiteral("Decides TARGET (host, host:port or [v6]:port; port 443 by default) as the proxy\n"
                            "would: prints the decision, the deciding rule and its reason, and for a refusal\n"
                            "the command that would allow it. An allowed name is resolved (resolver override,\n"
                            "else DNS) so a name leading to a loopback or private address is refused as the\n"
                            "proxy refuses it. Exits 1 when denied."),
             runCheck);
    check.positionalSyntax = QStringLiteral("network TARGET");
    check.minPositional = check.maxPositional = 2;
    check.options = {sandboxOption(QStringLiteral("Decide for this sandbox (its rules count too).")),
                     kitOption(QStringLiteral("Count this kit's permissions.network too.")),
                     jsonOption(QStringLiteral("the decision"))};
    return check;
}

Command editCommand()
{
    Command edit = leaf(QStringLiteral("edit"), QStringLiteral("Change a rule."),
                        QStringLiteral("Replaces the rule with this id (as 'paddock policy ls' shows it) by one with\n"
                                       "the pattern, decision or scope given; what is not given stays."),
                        runEdit);
    edit.positionalSyntax = QStringLiteral("ID");
    edit.minPositional = edit.maxPositional = 1;
    edit.options = {
        QCommandLineOption(QStringLiteral("pattern"), QStringLiteral("The new pattern."), QStringLiteral("PATTERN")),
        QCommandLineOption(QStringLiteral("decision"), QStringLiteral("allow or deny."), QStringLiteral("DECISION")),
        QCommandLineOption(QStringLiteral("scope"), QStringLiteral("global, sandbox:NAME or kit:NAME."),
                           QStringLiteral("SCOPE"))};
    return edit;
}

} // namespace

QList<Command> policyRuleCommands()
{
    return {initCommand(), lsCommand(), allowCommand(), denyCommand(), rmCommand(), editCommand(), checkCommand()};
}

} // namespace paddock::cli
