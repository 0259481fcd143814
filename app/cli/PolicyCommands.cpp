// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy init|ls|allow|deny|rm|check|resolve|log|export
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"

#include "api/DaemonConnection.h"
#include "api/DaemonLauncher.h"
#include "common/Paths.h"
#include "events/EventStore.h"
#include "events/Jsonl.h"
#include "kit/KitLoader.h"
#include "policy/PolicyStore.h"
#include "policy/Preset.h"

#include <QFile>
#include <QFileInfo>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <csignal>
#include <optional>

namespace paddock::cli {

namespace {

const QString kJson = QStringLiteral("json");
const QString kSandbox = QStringLiteral("sandbox");

QCommandLineOption sandboxOption(const QString &meaning)
{
    return QCommandLineOption(kSandbox, meaning, QStringLiteral("NAME"));
}

/** The scope --sandbox selects: that sandbox, or every sandbox when absent; --scope names any. */
policy::Scope scopeOf(const Invocation &call)
{
    if (call.parser.optionNames().contains(QStringLiteral("scope")) && call.parser.isSet(QStringLiteral("scope"))) {
        if (const std::optional<policy::Scope> scope = policy::Scope::fromString(call.parser.value(QStringLiteral("scope"))))
            return *scope;
    }
    const QString sandbox = call.parser.value(kSandbox);
    return sandbox.isEmpty() ? policy::Scope::global() : policy::Scope::sandbox(sandbox);
}

/** Checks --scope when given: global, sandbox:NAME or kit:NAME, and not together with --sandbox. */
bool checkScopeOption(const Invocation &call, int *code)
{
    if (!call.parser.optionNames().contains(QStringLiteral("scope")))
        return true;
    const QString text = call.parser.value(QStringLiteral("scope"));
    const std::optional<policy::Scope> scope = policy::Scope::fromString(text);
    if (!scope || (scope->kind != policy::Scope::Kind::Global && scope->name.isEmpty())) {
        *code = usageError(call.commandPath,
                           QStringLiteral("--scope takes global, sandbox:NAME or kit:NAME, got '%1'").arg(text));
        return false;
    }
    if (call.parser.isSet(kSandbox)) {
        *code = usageError(call.commandPath, QStringLiteral("give either --scope or --sandbox, not both"));
        return false;
    }
    return true;
}

/** Loads policy.yaml; a broken file is a failure naming its line, and nothing is written. */
bool loadStore(policy::PolicyStore &store, int *code)
{
    store.load();
    if (const auto error = store.lastError()) {
        *code = failure(QStringLiteral("the policy file cannot be used: %1").arg(error->toString()));
        return false;
    }
    return true;
}

/** Prints rows as columns separated by two spaces; the last column is not padded. */
void printTable(const QStringList &header, const QList<QStringList> &rows)
{
    QList<qsizetype> widths;
    for (const QString &cell : header)
        widths << cell.size();
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    }
    auto print = [&](const QStringList &row) {
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i)
            line += i + 1 < row.size() ? row[i].leftJustified(widths[i] + 2) : row[i];
        out() << line << '\n';
    };
    print(header);
    for (const QStringList &row : rows)
        print(row);
}

QString timeText(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss'Z'")) : QStringLiteral("-");
}

QJsonObject ruleJson(const policy::Rule &rule)
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
        rows << QStringList{rule.id,
                            rule.scope.toString(),
                            policy::verdictName(rule.verdict),
                            rule.pattern.toString(),
                            policy::originName(rule.origin),
                            timeText(rule.created)};
    printTable({QStringLiteral("ID"), QStringLiteral("SCOPE"), QStringLiteral("DECISION"), QStringLiteral("PATTERN"),
                QStringLiteral("ORIGIN"), QStringLiteral("CREATED")},
               rows);
}

void printJson(const QJsonDocument &document)
{
    out() << document.toJson(QJsonDocument::Indented);
}

/**
 * Calls @p method on paddockd, starting it when nothing answers; on failure prints the
 * daemon's sentence and sets @p code. Used where the daemon must act at once (a kit edited
 * under running sandboxes) or holds the state (dismissed refusals).
 */
std::optional<QJsonObject> callDaemon(const Invocation &call, const QString &method, const QJsonObject &params,
                                      int *code)
{
    const QString socket = paths::daemonSocket();
    const api::DaemonStatus status = api::ensureDaemonRunning(socket);
    api::DaemonConnection connection;
    QString error = status.error;
    if (!status.running || !connection.open(socket, 5000, &error)) {
        *code = failure(error);
        return std::nullopt;
    }
    const api::Reply reply = connection.call(method, params, 30000);
    if (reply.isError()) {
        *code = reply.errorCode() == QLatin1String(api::errors::kInvalidParams) ? usageError(call.commandPath, reply.errorMessage())
                                                                                : failure(reply.errorMessage());
        return std::nullopt;
    }
    return reply.result();
}

/** "network RESOURCES...": checks the resource kind and splits the comma-separated lists. */
bool networkResources(const Invocation &call, QStringList *resources, int *code)
{
    if (call.positional.constFirst() != QLatin1String("network")) {
        *code = usageError(call.commandPath,
                           QStringLiteral("'%1' is not a resource type; Paddock's rules are about 'network'")
                               .arg(call.positional.constFirst()));
        return false;
    }
    for (const QString &arg : call.positional.mid(1)) {
        for (const QString &item : arg.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!item.trimmed().isEmpty())
                *resources << item.trimmed();
        }
    }
    if (resources->isEmpty()) {
        *code = usageError(call.commandPath, QStringLiteral("missing arguments: expected network RESOURCES"));
        return false;
    }
    return true;
}

// ---- init, ls ---------------------------------------------------------------------------

int runInit(const Invocation &call)
{
    const QString name = call.positional.constFirst();
    const std::optional<policy::Preset> preset = policy::presetFromName(name);
    if (!preset)
        return usageError(call.commandPath,
                          QStringLiteral("unknown preset '%1': expected deny-all, balanced or allow-all").arg(name));
    policy::PolicyStore store;
    const policy::StoreResult result = store.setPreset(*preset);
    if (!result.ok)
        return failure(result.error);
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

    policy::PolicyStore store;
    int code = ExitOk;
    if (!loadStore(store, &code))
        return code;
    const policy::PolicyData data = store.policy();
    if (json) {
        QJsonArray array;
        for (const policy::Rule &rule : data.rules)
            array << ruleJson(rule);
        QJsonObject resolve;
        for (auto it = data.resolveOverrides.cbegin(); it != data.resolveOverrides.cend(); ++it)
            resolve.insert(it.key(), it.value().toString());
        printJson(QJsonDocument(QJsonObject{{QStringLiteral("preset"), policy::presetName(data.preset)},
                                            {QStringLiteral("rules"), array},
                                            {QStringLiteral("resolve"), resolve}}));
        return ExitOk;
    }
    const QString presetName = policy::presetName(data.preset);
    out() << "Preset: " << presetName << " (" << policy::presetRules(data.preset).size()
          << " rules; 'paddock policy ls --preset " << presetName << "' lists them)\n\n";
    if (data.rules.isEmpty()) {
        out() << "No rules yet. Add one with 'paddock policy allow network HOST'.\n";
        return ExitOk;
    }
    printRules(data.rules);
    return ExitOk;
}

// ---- allow, deny, rm --------------------------------------------------------------------

int addRules(const Invocation &call, policy::Verdict verdict)
{
    QStringList resources;
    int code = ExitOk;
    if (!checkScopeOption(call, &code) || !networkResources(call, &resources, &code))
        return code;
    // Every pattern is checked before anything is written: all or nothing.
    for (const QString &resource : std::as_const(resources)) {
        const policy::HostPatternParse parsed =
            policy::HostPattern::parse(resource, policy::patternContextFor(verdict, policy::Origin::User));
        if (!parsed)
            return usageError(call.commandPath, QStringLiteral("invalid pattern '%1': %2").arg(resource, parsed.error));
    }
    policy::PolicyStore store;
    if (!loadStore(store, &code))
        return code;
    const policy::Scope scope = scopeOf(call);
    const QString verb = verdict == policy::Verdict::Allow ? QStringLiteral("allowed") : QStringLiteral("denied");
    for (const QString &resource : std::as_const(resources)) {
        const QList<policy::Rule> before = store.policy().rules;
        const policy::StoreResult result = store.addRule(scope, verdict, resource);
        if (!result.ok)
            return failure(result.error);
        const bool existed = std::any_of(before.cbegin(), before.cend(),
                                         [&](const policy::Rule &rule) { return rule.id == result.rule->id; });
        out() << (existed ? QStringLiteral("Already %1: ").arg(verb)
                          : verb.at(0).toUpper() + verb.mid(1) + QStringLiteral(": "))
              << result.rule->pattern.toString() << " (rule " << result.rule->id << ", " << scope.toString() << ")\n";
    }
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
                          : call.parser.isSet(kSandbox)               ? QStringLiteral("sandbox")
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
    const std::optional<QJsonObject> result = callDaemon(call, QStringLiteral("policy.allow"), params, &code);
    if (!result)
        return code;
    const QString message = result->value(QLatin1String("message")).toString();
    out() << message.at(0).toUpper() << message.mid(1) << ".\n";
    return ExitOk;
}

int runAllow(const Invocation &call)
{
    if (call.parser.isSet(QStringLiteral("where")) || call.parser.isSet(QStringLiteral("what")) ||
        call.parser.isSet(QStringLiteral("port")))
        return allowThroughDaemon(call);
    return addRules(call, policy::Verdict::Allow);
}
int runDeny(const Invocation &call)
{
    return addRules(call, policy::Verdict::Deny);
}

int runRm(const Invocation &call)
{
    policy::PolicyStore store;
    int code = ExitOk;
    if (!loadStore(store, &code))
        return code;
    const QString target = call.positional.constFirst();
    const QList<policy::Rule> rules = store.policy().rules;
    const bool isId =
        std::any_of(rules.cbegin(), rules.cend(), [&](const policy::Rule &rule) { return rule.id == target; });
    policy::StoreResult result;
    if (isId) {
        result = store.removeRule(target);
    } else {
        const policy::HostPatternParse parsed = policy::HostPattern::parse(target, policy::PatternContext::Deny);
        if (!parsed)
            return failure(
                QStringLiteral("no rule has the id %1, and it is not a pattern: %2").arg(target, parsed.error));
        result = store.removeRule(target, scopeOf(call));
    }
    if (!result.ok)
        return failure(result.error);
    out() << "Removed " << result.removed << (result.removed == 1 ? " rule" : " rules") << ".\n";
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
    const std::optional<QJsonObject> result = callDaemon(call, QStringLiteral("policy.update"), params, &code);
    if (!result)
        return code;
    const QJsonObject rule = result->value(QLatin1String("rule")).toObject();
    out() << "Changed: " << rule.value(QLatin1String("decision")).toString() << ' '
          << rule.value(QLatin1String("pattern")).toString() << " (rule " << rule.value(QLatin1String("id")).toString()
          << ", " << rule.value(QLatin1String("scope")).toString() << ")\n";
    return ExitOk;
}

/** `policy dismiss HOST --sandbox NAME`: hides a refused host from the lists until it is refused again. */
int runDismiss(const Invocation &call)
{
    int code = ExitOk;
    const QString host = call.positional.constFirst();
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("events.dismiss"),
                   {{QStringLiteral("host"), host}, {QStringLiteral("sandbox"), call.parser.value(kSandbox)}}, &code);
    if (!result)
        return code;
    out() << "Dismissed " << host << "; it shows again when it is refused again.\n";
    return ExitOk;
}

/** `policy denials [--sandbox NAME] [--json]`: the refused hosts as the window lists them. */
int runDenials(const Invocation &call)
{
    QJsonObject params;
    if (call.parser.isSet(kSandbox))
        params.insert(QStringLiteral("sandbox"), call.parser.value(kSandbox));
    int code = ExitOk;
    const std::optional<QJsonObject> result = callDaemon(call, QStringLiteral("events.denials"), params, &code);
    if (!result)
        return code;
    const QJsonArray denials = result->value(QLatin1String("denials")).toArray();
    if (call.parser.isSet(kJson)) {
        printJson(QJsonDocument(denials));
        return ExitOk;
    }
    if (denials.isEmpty()) {
        out() << "Nothing has been refused.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const QJsonValue &value : denials) {
        const QJsonObject denial = value.toObject();
        const QString sandbox = denial.value(QLatin1String("sandbox")).toString();
        rows << QStringList{denial.value(QLatin1String("host")).toString(),
                            QString::number(denial.value(QLatin1String("port")).toInt()),
                            sandbox.isEmpty() ? QStringLiteral("-") : sandbox,
                            QString::number(denial.value(QLatin1String("count")).toInteger()),
                            timeText(QDateTime::fromString(denial.value(QLatin1String("lastSeen")).toString(),
                                                           Qt::ISODateWithMs)),
                            denial.value(QLatin1String("reason")).toString()};
    }
    printTable({QStringLiteral("HOST"), QStringLiteral("PORT"), QStringLiteral("SANDBOX"), QStringLiteral("COUNT"),
                QStringLiteral("LAST SEEN"), QStringLiteral("REASON")},
               rows);
    return ExitOk;
}

// ---- check ------------------------------------------------------------------------------

/** The host part of a check target: `host`, `host:port`, `[v6]:port`. */
QString targetHost(const QString &target)
{
    if (target.startsWith(QLatin1Char('[')))
        return target.mid(1, target.indexOf(QLatin1Char(']')) - 1);
    if (target.count(QLatin1Char(':')) == 1)
        return target.section(QLatin1Char(':'), 0, 0);
    return target;
}

int runCheck(const Invocation &call)
{
    if (call.positional.constFirst() != QLatin1String("network"))
        return usageError(
            call.commandPath,
            QStringLiteral("'%1' is not a resource type; Paddock checks 'network'").arg(call.positional.constFirst()));
    if (call.positional.size() != 2)
        return usageError(call.commandPath, QStringLiteral("expected network TARGET"));
    const QString target = call.positional.at(1);
    policy::PolicyStore store;
    int code = ExitOk;
    if (!loadStore(store, &code))
        return code;

    QString kitName;
    if (call.parser.isSet(QStringLiteral("kit"))) {
        const std::optional<QString> resolved = resolveKit(call.parser.value(QStringLiteral("kit")));
        if (!resolved)
            return ExitFailed;
        const QString dir = *resolved;
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(dir, {});
        if (!loaded.ok()) {
            for (const kit::Diagnostic &d : loaded.diagnostics)
                err() << d.toString() << '\n';
            return failure(QStringLiteral("the kit in %1 does not load").arg(dir));
        }
        kitName = loaded.kit->name;
        const policy::KitRules kitRules =
            policy::kitNetworkRules(kitName, loaded.kit->networkAllow, loaded.kit->networkDeny);
        for (const QString &problem : kitRules.errors)
            err() << "paddock: warning: ignoring the kit's pattern " << problem << '\n';
        store.engine().setKitRules(kitName, kitRules.rules);
    }

    const QString sandbox = call.parser.value(kSandbox);
    policy::Explanation explanation = store.engine().check(target, sandbox, kitName);
    // A name the rules allow is resolved as the proxy would (override, else DNS), so the
    // rebinding guard sees the addresses the connection would reach. A refused name is never
    // looked up.
    const QString host = targetHost(target);
    QString resolveNote;
    if (explanation.decision.allowed && !policy::IpAddress::parse(host) && !store.engine().resolveOverride(host)) {
        const QHostInfo info = QHostInfo::fromName(host);
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty())
            resolveNote = QStringLiteral("%1 does not resolve here (%2); the proxy would answer 502")
                              .arg(host, info.errorString());
        else
            explanation = store.engine().check(target, sandbox, kitName, info.addresses());
    }
    const policy::Decision &decision = explanation.decision;
    if (decision.basis == policy::Decision::Basis::InvalidHost)
        return usageError(call.commandPath, decision.reason());

    if (call.parser.isSet(kJson)) {
        QJsonObject object{
            {QStringLiteral("allowed"), decision.allowed},    {QStringLiteral("host"), decision.host},
            {QStringLiteral("port"), decision.port},          {QStringLiteral("rule"), decision.ruleLabel()},
            {QStringLiteral("basis"), decision.basisToken()}, {QStringLiteral("reason"), decision.reason()}};
        if (!explanation.fix.isEmpty())
            object.insert(QStringLiteral("fix"), explanation.fix);
        if (!resolveNote.isEmpty())
            object.insert(QStringLiteral("note"), resolveNote);
        printJson(QJsonDocument(object));
    } else {
        out() << (decision.allowed ? "allowed: " : "denied: ") << decision.reason() << '\n';
        out() << "rule: " << decision.ruleLabel() << '\n';
        if (!explanation.fix.isEmpty())
            out() << "to allow it: " << explanation.fix << '\n';
        if (!resolveNote.isEmpty())
            out() << "note: " << resolveNote << '\n';
    }
    return decision.allowed ? ExitOk : ExitFailed;
}

// ---- resolve ----------------------------------------------------------------------------

int runResolveSet(const Invocation &call)
{
    const QHostAddress address(call.positional.at(1));
    if (address.isNull())
        return usageError(call.commandPath, QStringLiteral("'%1' is not an IP address").arg(call.positional.at(1)));
    policy::PolicyStore store;
    int code = ExitOk;
    if (!loadStore(store, &code))
        return code;
    const policy::StoreResult result = store.setResolveOverride(call.positional.constFirst(), address);
    if (!result.ok)
        return failure(result.error);
    out() << call.positional.constFirst().toLower() << " now resolves to " << address.toString() << ".\n";
    return ExitOk;
}

int runResolveRm(const Invocation &call)
{
    policy::PolicyStore store;
    int code = ExitOk;
    if (!loadStore(store, &code))
        return code;
    const policy::StoreResult result = store.removeResolveOverride(call.positional.constFirst());
    if (!result.ok)
        return failure(result.error);
    out() << "Removed the override for " << call.positional.constFirst() << ".\n";
    return ExitOk;
}

int runResolveLs(const Invocation &call)
{
    policy::PolicyStore store;
    int code = ExitOk;
    if (!loadStore(store, &code))
        return code;
    const QMap<QString, QHostAddress> overrides = store.resolveOverrides();
    if (call.parser.isSet(kJson)) {
        QJsonArray array;
        for (auto it = overrides.cbegin(); it != overrides.cend(); ++it)
            array << QJsonObject{{QStringLiteral("host"), it.key()},
                                 {QStringLiteral("address"), it.value().toString()}};
        printJson(QJsonDocument(array));
        return ExitOk;
    }
    if (overrides.isEmpty()) {
        out() << "No resolver overrides. Add one with 'paddock policy resolve set HOST ADDRESS'.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (auto it = overrides.cbegin(); it != overrides.cend(); ++it)
        rows << QStringList{it.key(), it.value().toString()};
    printTable({QStringLiteral("HOST"), QStringLiteral("ADDRESS")}, rows);
    return ExitOk;
}

// ---- log, export ------------------------------------------------------------------------

/** `30s`, `10m`, `2h`, `7d` (units may be combined: `1h30m`); nullopt otherwise. */
std::optional<qint64> parseDurationSeconds(const QString &text)
{
    static const QRegularExpression part(QStringLiteral("(\\d+)([smhd])"));
    qint64 total = 0;
    qsizetype at = 0;
    auto it = part.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        if (match.capturedStart() != at)
            return std::nullopt;
        at = match.capturedEnd();
        const qint64 unit = QStringLiteral("smhd").indexOf(match.captured(2)) == 0   ? 1
                            : QStringLiteral("smhd").indexOf(match.captured(2)) == 1 ? 60
                            : QStringLiteral("smhd").indexOf(match.captured(2)) == 2 ? 3600
                                                                                     : 86400;
        total += match.captured(1).toLongLong() * unit;
    }
    if (at == 0 || at != text.size())
        return std::nullopt;
    return total;
}

bool sinceOption(const Invocation &call, QDateTime *since, int *code)
{
    if (!call.parser.isSet(QStringLiteral("since")))
        return true;
    const QString text = call.parser.value(QStringLiteral("since"));
    const std::optional<qint64> seconds = parseDurationSeconds(text);
    if (!seconds) {
        *code = usageError(call.commandPath,
                           QStringLiteral("--since takes a duration such as 30s, 10m, 2h or 7d, got '%1'").arg(text));
        return false;
    }
    *since = QDateTime::currentDateTimeUtc().addSecs(-*seconds);
    return true;
}

/** Opens the event log for reading; false with @p code set when it cannot be used. */
bool openEvents(events::EventStore &store, int *code)
{
    if (!store.open()) {
        *code = failure(store.errorString());
        return false;
    }
    return true;
}

QString hostPort(const QString &host, quint16 port)
{
    return (host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host) + QLatin1Char(':') +
           QString::number(port);
}

QJsonObject blockedJson(const events::BlockedEntry &entry)
{
    return QJsonObject{{QStringLiteral("sandbox"), entry.sandbox},
                       {QStringLiteral("kit"), entry.kit},
                       {QStringLiteral("host"), entry.host},
                       {QStringLiteral("port"), entry.port},
                       {QStringLiteral("protocol"), entry.protocol},
                       {QStringLiteral("rule"), entry.rule},
                       {QStringLiteral("reason"), entry.reason},
                       {QStringLiteral("count"), entry.count},
                       {QStringLiteral("firstSeen"), events::formatEventTime(entry.firstSeen)},
                       {QStringLiteral("lastSeen"), events::formatEventTime(entry.lastSeen)}};
}

QJsonObject allowedJson(const events::AllowedEntry &entry)
{
    return QJsonObject{{QStringLiteral("sandbox"), entry.sandbox},
                       {QStringLiteral("kit"), entry.kit},
                       {QStringLiteral("host"), entry.host},
                       {QStringLiteral("port"), entry.port},
                       {QStringLiteral("rule"), entry.rule},
                       {QStringLiteral("count"), entry.count},
                       {QStringLiteral("bytesUp"), entry.bytesUp},
                       {QStringLiteral("bytesDown"), entry.bytesDown},
                       {QStringLiteral("firstSeen"), events::formatEventTime(entry.firstSeen)},
                       {QStringLiteral("lastSeen"), events::formatEventTime(entry.lastSeen)}};
}

void printBlocked(const char *title, const QList<events::BlockedEntry> &entries)
{
    out() << title << ":\n";
    if (entries.isEmpty()) {
        out() << "  (none)\n";
        return;
    }
    QList<QStringList> rows;
    for (const events::BlockedEntry &e : entries)
        rows << QStringList{e.sandbox.isEmpty() ? QStringLiteral("-") : e.sandbox,
                            hostPort(e.host, e.port),
                            e.rule,
                            QString::number(e.count),
                            timeText(e.lastSeen),
                            e.reason};
    printTable({QStringLiteral("SANDBOX"), QStringLiteral("HOST"), QStringLiteral("RULE"), QStringLiteral("COUNT"),
                QStringLiteral("LAST SEEN"), QStringLiteral("REASON")},
               rows);
}

volatile std::sig_atomic_t g_stopFollowing = 0;
void onFollowSignal(int)
{
    g_stopFollowing = 1;
}

/**
 * Prints refusals as they are stored, polling the database every 200 ms for rows at or after
 * the newest time seen (the lines already printed at that time are remembered, so none is
 * printed twice). Stops on SIGINT or SIGTERM.
 */
int followLog(events::EventStore &store, const QString &sandbox, bool json)
{
    struct sigaction action = {};
    action.sa_handler = onFollowSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);

    events::EventFilter filter;
    filter.sandbox = sandbox;
    filter.includeUpstreamFailures = true;
    filter.since = events::currentEventTime();
    QSet<QByteArray> printedAtSince;
    if (!json) {
        err() << "Following refusals as they happen; Ctrl-C stops.\n";
        err().flush();
    }
    while (!g_stopFollowing) {
        QDateTime newest = filter.since;
        QSet<QByteArray> printedAtNewest;
        const bool ok = store.forEachEvent(filter, [&](const events::NetworkEvent &event) {
            const QByteArray line = events::toJsonLine(event);
            if (event.time == filter.since && printedAtSince.contains(line))
                return true;
            if (json)
                out() << line;
            else
                out() << timeText(event.time) << "  " << (event.sandbox.isEmpty() ? QStringLiteral("-") : event.sandbox)
                      << "  " << events::outcomeToken(event.outcome) << "  " << hostPort(event.host, event.port) << "  "
                      << event.rule << "  " << event.reason << '\n';
            if (event.time > newest) {
                newest = event.time;
                printedAtNewest.clear();
            }
            printedAtNewest.insert(line);
            return true;
        });
        out().flush();
        if (!ok)
            return failure(store.errorString());
        if (newest == filter.since)
            printedAtSince.unite(printedAtNewest);
        else
            printedAtSince = printedAtNewest;
        filter.since = newest;
        QThread::msleep(200);
    }
    return ExitOk;
}

int runLog(const Invocation &call)
{
    const QString sandbox = call.positional.value(0);
    const bool json = call.parser.isSet(kJson);
    int code = ExitOk;
    events::LogFilter filter;
    filter.sandbox = sandbox;
    if (!sinceOption(call, &filter.since, &code))
        return code;
    if (call.parser.isSet(QStringLiteral("limit"))) {
        bool ok = false;
        filter.limit = call.parser.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || filter.limit < 1)
            return usageError(call.commandPath, QStringLiteral("--limit takes a positive number"));
    }
    events::EventStore store;
    if (!openEvents(store, &code))
        return code;
    if (call.parser.isSet(QStringLiteral("follow")))
        return followLog(store, sandbox, json);

    const events::PolicyLog log = store.log(filter);
    if (json) {
        QJsonArray blocked, allowed, failed;
        for (const events::BlockedEntry &entry : log.blocked)
            blocked << blockedJson(entry);
        for (const events::AllowedEntry &entry : log.allowed)
            allowed << allowedJson(entry);
        for (const events::BlockedEntry &entry : log.failed)
            failed << blockedJson(entry);
        printJson(QJsonDocument(QJsonObject{{QStringLiteral("blocked"), blocked},
                                            {QStringLiteral("allowed"), allowed},
                                            {QStringLiteral("failed"), failed}}));
        return ExitOk;
    }
    printBlocked("Blocked requests", log.blocked);
    out() << "\nAllowed requests:\n";
    if (log.allowed.isEmpty()) {
        out() << "  (none)\n";
    } else {
        QList<QStringList> rows;
        for (const events::AllowedEntry &e : log.allowed)
            rows << QStringList{e.sandbox.isEmpty() ? QStringLiteral("-") : e.sandbox, hostPort(e.host, e.port), e.rule,
                                QString::number(e.count), timeText(e.lastSeen)};
        printTable({QStringLiteral("SANDBOX"), QStringLiteral("HOST"), QStringLiteral("RULE"), QStringLiteral("COUNT"),
                    QStringLiteral("LAST SEEN")},
                   rows);
    }
    if (!log.failed.isEmpty()) {
        out() << '\n';
        printBlocked("Failed connections (allowed, upstream unreachable)", log.failed);
    }
    return ExitOk;
}

int runExport(const Invocation &call)
{
    if (!call.parser.isSet(QStringLiteral("jsonl")))
        return usageError(call.commandPath, QStringLiteral("choose the format: --jsonl"));
    int code = ExitOk;
    events::EventFilter filter;
    filter.sandbox = call.parser.value(kSandbox);
    filter.includeUpstreamFailures = true;
    if (!sinceOption(call, &filter.since, &code))
        return code;
    events::EventStore store;
    if (!openEvents(store, &code))
        return code;
    QString error;
    const QString path = call.parser.value(QStringLiteral("output"));
    if (path.isEmpty() || path == QLatin1String("-")) {
        out().flush();
        QFile stdoutFile;
        if (!stdoutFile.open(stdout, QIODevice::WriteOnly))
            return failure(QStringLiteral("cannot write to standard output"));
        if (events::writeJsonl(store, filter, stdoutFile, &error) < 0)
            return failure(error);
        return ExitOk;
    }
    // Written beside the target and renamed into place, so a reader never sees half a file.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    const qint64 lines = events::writeJsonl(store, filter, file, &error);
    if (lines < 0)
        return failure(error);
    if (!file.commit())
        return failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    err() << "Wrote " << lines << (lines == 1 ? " event" : " events") << " to " << path << ".\n";
    return ExitOk;
}

/** These commands report every problem themselves, in one sentence: the libraries stay quiet. */
void quietWhileRunning(Command &command)
{
    if (command.run) {
        command.run = [run = std::move(command.run)](const Invocation &call) {
            quietLibraryLogs(QStringLiteral("paddock.*"));
            return run(call);
        };
    }
    for (Command &sub : command.subcommands)
        quietWhileRunning(sub);
}

} // namespace

Command policyCommand()
{
    Command command;
    command.name = QStringLiteral("policy");
    command.summary = QStringLiteral("Manage the network policy and read the log of what it refused.");
    command.description =
        QStringLiteral("Every sandbox reaches the network only through Paddock's proxy, which lets through only\n"
                       "what the policy allows: the preset, global rules, per-sandbox rules and the kit's\n"
                       "permissions.network, together. Deny wins over allow; no match is deny. Rules are kept in\n"
                       "policy.yaml in the configuration directory and apply to the next connection.\n\n"
                       "Patterns: host (port 443), host:port, host:80-443, host:*, *.example.com (one label),\n"
                       "**.example.com (any depth), IP addresses and CIDR ranges.");

    Command init = leaf(QStringLiteral("init"), QStringLiteral("Choose the global preset."),
                        QStringLiteral("Sets the preset the rules are added to: deny-all (nothing is allowed but\n"
                                       "your rules; the default), balanced (package registries, code hosts, AI\n"
                                       "provider APIs, OS mirrors) or allow-all (every public host)."),
                        runInit);
    init.positionalSyntax = QStringLiteral("PRESET");
    init.positionalHelp = {{QStringLiteral("PRESET"), QStringLiteral("deny-all, balanced or allow-all.")}};
    init.minPositional = init.maxPositional = 1;

    Command ls = leaf(QStringLiteral("ls"), QStringLiteral("List the rules."),
                      QStringLiteral("Prints the preset and the rules as a table: id, scope, decision, pattern,\n"
                                     "origin and when it was created. With --preset, the preset's full list.\n"
                                     "Exits 1 when policy.yaml cannot be read, naming the line."),
                      runLs);
    ls.maxPositional = 0;
    ls.options = {QCommandLineOption(QStringLiteral("preset"), QStringLiteral("List this preset's rules instead."),
                                     QStringLiteral("NAME")),
                  jsonOption(QStringLiteral("the rules"))};

    const QString resourcesHelp = QStringLiteral("One or more patterns, comma-separated or as several arguments.");
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
                       "its running sandboxes at once) or global; --what exact (the host), wildcard\n"
                       "(*.PARENT), deep (**.PARENT) or hostport (host:port). A wildcard never covers\n"
                       "more than one registrable domain. 'network' may be left out then.");
    allow.positionalSyntax = QStringLiteral("network RESOURCES...");
    allow.positionalHelp = {{QStringLiteral("RESOURCES"), resourcesHelp}};
    allow.minPositional = 1;
    allow.options = {sandboxOption(QStringLiteral("Allow for this sandbox only.")),
                     QCommandLineOption(QStringLiteral("scope"),
                                        QStringLiteral("The rule's scope: global, sandbox:NAME or kit:NAME."),
                                        QStringLiteral("SCOPE")),
                     QCommandLineOption(QStringLiteral("where"),
                                        QStringLiteral("Allow a refused HOST in: sandbox, kit or global."),
                                        QStringLiteral("PLACE")),
                     QCommandLineOption(QStringLiteral("what"),
                                        QStringLiteral("exact, wildcard, deep or hostport (default exact)."),
                                        QStringLiteral("CHOICE")),
                     QCommandLineOption(QStringLiteral("port"),
                                        QStringLiteral("The port HOST was refused on (default 443)."),
                                        QStringLiteral("PORT"))};

    Command deny = leaf(QStringLiteral("deny"), QStringLiteral("Deny network destinations."),
                        QStringLiteral("Adds a deny rule for each pattern, for every sandbox or with --sandbox for\n"
                                       "one. Deny wins over every allow rule. Every pattern is checked first."),
                        runDeny);
    deny.positionalSyntax = allow.positionalSyntax;
    deny.positionalHelp = allow.positionalHelp;
    deny.minPositional = 2;
    deny.options = {sandboxOption(QStringLiteral("Deny for this sandbox only.")),
                    QCommandLineOption(QStringLiteral("scope"),
                                       QStringLiteral("The rule's scope: global, sandbox:NAME or kit:NAME."),
                                       QStringLiteral("SCOPE"))};

    Command rm = leaf(QStringLiteral("rm"), QStringLiteral("Remove a rule by id or by pattern."),
                      QStringLiteral("Removes the rule with this id (as 'paddock policy ls' shows it), or the rules\n"
                                     "of the scope (global, or --sandbox NAME) whose pattern is PATTERN."),
                      runRm);
    rm.positionalSyntax = QStringLiteral("ID|PATTERN");
    rm.minPositional = rm.maxPositional = 1;
    rm.options = {sandboxOption(QStringLiteral("Remove the pattern from this sandbox's rules."))};

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

    Command resolve;
    resolve.name = QStringLiteral("resolve");
    resolve.summary = QStringLiteral("Map host names to addresses instead of DNS.");
    resolve.description =
        QStringLiteral("Resolver overrides send a name to an address you choose (a local mirror, a test server).\n"
                       "They are trusted: an allowed name mapped here may lead to a private or loopback address.");
    Command resolveSet = leaf(QStringLiteral("set"), QStringLiteral("Map HOST to ADDRESS."), {}, runResolveSet);
    resolveSet.positionalSyntax = QStringLiteral("HOST ADDRESS");
    resolveSet.minPositional = resolveSet.maxPositional = 2;
    Command resolveRm = leaf(QStringLiteral("rm"), QStringLiteral("Remove HOST's override."), {}, runResolveRm);
    resolveRm.positionalSyntax = QStringLiteral("HOST");
    resolveRm.minPositional = resolveRm.maxPositional = 1;
    Command resolveLs = leaf(QStringLiteral("ls"), QStringLiteral("List the overrides."), {}, runResolveLs);
    resolveLs.maxPositional = 0;
    resolveLs.options = {jsonOption(QStringLiteral("the overrides"))};
    resolve.subcommands << resolveSet << resolveRm << resolveLs;

    Command log = leaf(QStringLiteral("log"), QStringLiteral("Show what was refused and allowed."),
                       QStringLiteral("Prints the Blocked section (refusals grouped by sandbox, host, port and rule,\n"
                                      "with the reason, the count and when last seen), the Allowed section, and\n"
                                      "connections that were allowed but could not reach their destination.\n"
                                      "With --follow, prints each refusal as it happens until interrupted."),
                       runLog);
    log.positionalSyntax = QStringLiteral("[SANDBOX]");
    log.positionalHelp = {{QStringLiteral("SANDBOX"), QStringLiteral("Only this sandbox's connections.")}};
    log.maxPositional = 1;
    log.options = {jsonOption(QStringLiteral("the log")),
                   QCommandLineOption(QStringLiteral("limit"),
                                      QStringLiteral("At most N lines per section (default 100)."),
                                      QStringLiteral("N")),
                   QCommandLineOption(QStringLiteral("since"),
                                      QStringLiteral("Only what happened in the last DURATION (30s, 10m, 2h, 7d)."),
                                      QStringLiteral("DURATION")),
                   QCommandLineOption(QStringLiteral("follow"), QStringLiteral("Print new refusals as they happen."))};

    Command exportCommand =
        leaf(QStringLiteral("export"), QStringLiteral("Export the stored refusals for audit."),
             QStringLiteral("Writes every stored refusal and upstream failure, oldest first, one JSON\n"
                            "object per line (time, sandbox, kit, host, port, protocol, outcome, rule,\n"
                            "reason, bytesUp, bytesDown), to standard output or FILE."),
             runExport);
    exportCommand.maxPositional = 0;
    exportCommand.options = {
        QCommandLineOption(QStringLiteral("jsonl"), QStringLiteral("JSON lines (the only format).")),
        QCommandLineOption({QStringLiteral("o"), QStringLiteral("output")},
                           QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE")),
        sandboxOption(QStringLiteral("Only this sandbox's events.")),
        QCommandLineOption(QStringLiteral("since"), QStringLiteral("Only the last DURATION (30s, 10m, 2h, 7d)."),
                           QStringLiteral("DURATION")),
    };

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

    Command denials = leaf(QStringLiteral("denials"), QStringLiteral("List the refused hosts, grouped."),
                           QStringLiteral("Prints the refused connections as the window lists them: one line per\n"
                                          "host and sandbox with the count, when last refused and why. Dismissed\n"
                                          "hosts are left out until they are refused again."),
                           runDenials);
    denials.maxPositional = 0;
    denials.options = {sandboxOption(QStringLiteral("Only this sandbox's refusals.")),
                       jsonOption(QStringLiteral("the refusals"))};

    Command dismiss = leaf(QStringLiteral("dismiss"), QStringLiteral("Hide a refused host until it is refused again."),
                           QStringLiteral("Takes HOST off the list of refused connections of the sandbox given with\n"
                                          "--sandbox (or of connections without a sandbox); the next refusal\n"
                                          "brings it back."),
                           runDismiss);
    dismiss.positionalSyntax = QStringLiteral("HOST");
    dismiss.minPositional = dismiss.maxPositional = 1;
    dismiss.options = {sandboxOption(QStringLiteral("The sandbox HOST was refused for."))};

    command.subcommands << init << ls << allow << deny << rm << edit << check << resolve << log << denials << dismiss
                        << exportCommand;
    quietWhileRunning(command);
    command.subcommands << policyProposeCommand(); // LearnCommands.cpp
    return command;
}

} // namespace paddock::cli
