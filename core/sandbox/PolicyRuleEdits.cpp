// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/PolicyRuleEdits.h"

#include "policy/RequestMatch.h"

#include <QJsonArray>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcRuleEdits, "paddock.policy.rules", QtInfoMsg)

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

/** The patterns of a `policy.add`: `patterns` or the one `pattern`, trimmed, empty ones left out. */
QStringList patternsOf(const QJsonObject &params)
{
    QStringList patterns;
    for (const QJsonValue &value : params.value(QLatin1String("patterns")).toArray())
        patterns << value.toString().trimmed();
    if (params.contains(QLatin1String("pattern")))
        patterns << params.value(QLatin1String("pattern")).toString().trimmed();
    patterns.removeAll(QString());
    return patterns;
}

/** The request condition of a `policy.add` (`method`, `path`), or the reply that says what is wrong. */
std::variant<policy::RequestMatch, api::Reply> requestOf(const QJsonObject &params)
{
    if (!params.contains(QLatin1String("method")) && !params.contains(QLatin1String("path")))
        return policy::RequestMatch{};
    const Result<policy::RequestMatch> parsed = policy::RequestMatch::parse(
        params.value(QLatin1String("method")).toString(), params.value(QLatin1String("path")).toString());
    if (!parsed)
        return invalid(parsed.error().text());
    return *parsed;
}

} // namespace

QJsonValue timeJson(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null);
}

QJsonObject ruleJson(const policy::Rule &rule)
{
    QJsonObject object{{QStringLiteral("id"), rule.id},
                       {QStringLiteral("scope"), rule.scope.toString()},
                       {QStringLiteral("pattern"), rule.pattern.toString()},
                       {QStringLiteral("decision"), policy::verdictName(rule.verdict)},
                       {QStringLiteral("origin"), policy::originName(rule.origin)},
                       {QStringLiteral("program"), rule.program},
                       {QStringLiteral("created"), timeJson(rule.created)}};
    if (!rule.request.isEmpty()) // "POST /gists": the window shows it beside the pattern
        object.insert(QStringLiteral("request"), rule.request.toString());
    if (!rule.request.methods.isEmpty()) // and `policy ls --json` as its options gave them
        object.insert(QStringLiteral("method"), rule.request.methods.join(QLatin1Char(',')));
    if (!rule.request.path.isEmpty())
        object.insert(QStringLiteral("path"), rule.request.path);
    return object;
}

api::Reply addRules(policy::PolicyStore &store, const QJsonObject &params)
{
    const QStringList patterns = patternsOf(params);
    const std::optional<policy::Verdict> verdict =
        policy::verdictFromName(params.value(QLatin1String("decision")).toString(QStringLiteral("allow")));
    const std::optional<policy::Scope> scope =
        policy::Scope::fromString(params.value(QLatin1String("scope")).toString(QStringLiteral("global")));
    if (patterns.isEmpty())
        return invalid(QStringLiteral("policy.add needs a pattern"));
    if (!verdict)
        return invalid(QStringLiteral("the decision must be allow or deny"));
    if (!scope || (scope->kind != policy::Scope::Kind::Global && scope->name.isEmpty()))
        return invalid(QStringLiteral("the scope must be global, sandbox:NAME or kit:NAME"));
    const auto request = requestOf(params);
    if (const auto *failed = std::get_if<api::Reply>(&request))
        return *failed;
    const QString program = params.value(QLatin1String("program")).toString();
    if (const Result<void> checked = policy::checkProgramCondition(program); !program.isEmpty() && !checked)
        return invalid(QStringLiteral("invalid program condition: %1").arg(checked.error().text()));
    // Every pattern is checked before anything is written: all or nothing.
    for (const QString &pattern : patterns) {
        const Result<policy::HostPattern> parsed =
            policy::HostPattern::parse(pattern, policy::patternContextFor(*verdict, policy::Origin::User));
        if (!parsed)
            return invalid(QStringLiteral("invalid pattern '%1': %2").arg(pattern, parsed.error().message));
    }
    QJsonArray added;
    for (const QString &pattern : patterns) {
        const QList<policy::Rule> before = store.policy().rules;
        const policy::StoreResult result = store.addRule(*scope, *verdict, pattern, policy::Origin::User,
                                                         std::get<policy::RequestMatch>(request), program);
        if (!result.ok())
            return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), result.error().text());
        const bool existed = std::any_of(before.cbegin(), before.cend(),
                                         [&](const policy::Rule &rule) { return rule.id == result->rule->id; });
        QJsonObject rule = ruleJson(*result->rule);
        rule.insert(QStringLiteral("existed"), existed);
        added.append(rule);
        qCInfo(lcRuleEdits).noquote() << (existed ? "kept" : "added") << "rule" << result->rule->id
                                      << policy::verdictName(*verdict) << pattern << "in" << scope->toString();
    }
    const QJsonObject first = added.first().toObject();
    return api::Reply::success({{QStringLiteral("rules"), added},
                                {QStringLiteral("rule"), first},
                                {QStringLiteral("existed"), first.value(QLatin1String("existed"))}});
}

api::Reply updateRule(policy::PolicyStore &store, const QJsonObject &params)
{
    const QString id = params.value(QLatin1String("id")).toString();
    const QList<policy::Rule> rules = store.policy().rules;
    const auto it = std::find_if(rules.cbegin(), rules.cend(), [&](const policy::Rule &rule) { return rule.id == id; });
    if (it == rules.cend())
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchRule),
                                   QStringLiteral("no rule has the id %1").arg(id));
    const policy::Rule old = *it;
    const QString pattern = params.value(QLatin1String("pattern")).toString(old.pattern.toString()).trimmed();
    const std::optional<policy::Verdict> verdict =
        policy::verdictFromName(params.value(QLatin1String("decision")).toString(policy::verdictName(old.verdict)));
    const std::optional<policy::Scope> scope =
        policy::Scope::fromString(params.value(QLatin1String("scope")).toString(old.scope.toString()));
    if (!verdict)
        return invalid(QStringLiteral("the decision must be allow or deny"));
    if (!scope)
        return invalid(QStringLiteral("the scope must be global, sandbox:NAME or kit:NAME"));
    // Checked before the old rule goes, so a refused edit leaves the policy as it was.
    const Result<policy::HostPattern> parsed =
        policy::HostPattern::parse(pattern, policy::patternContextFor(*verdict, old.origin));
    if (!parsed)
        return invalid(parsed.error().message);
    if (scope->kind != policy::Scope::Kind::Global && scope->name.isEmpty())
        return invalid(QStringLiteral("a sandbox or kit scope needs a name"));
    const policy::StoreResult removed = store.removeRule(id);
    if (!removed.ok())
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), removed.error().text());
    // The methods, paths and program stay: an edit of the host must not widen a rule.
    const policy::StoreResult added = store.addRule(*scope, *verdict, pattern, old.origin, old.request, old.program);
    if (!added.ok()) {
        const policy::StoreResult restored =
            store.addRule(old.scope, old.verdict, old.pattern.toString(), old.origin, old.request, old.program);
        QString why = added.error().text();
        if (!restored)
            why += QStringLiteral("; the rule %1 could not be put back either: %2")
                       .arg(old.pattern.toString(), restored.error().text());
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), why);
    }
    return api::Reply::success({{QStringLiteral("rule"), ruleJson(*added->rule)}});
}

api::Reply removeRules(policy::PolicyStore &store, const QJsonObject &params)
{
    const QString id = params.value(QLatin1String("id")).toString();
    const QString pattern = params.value(QLatin1String("pattern")).toString().trimmed();
    if (id.isEmpty() && pattern.isEmpty())
        return invalid(QStringLiteral("policy.remove needs the id of a rule or a pattern"));
    const QList<policy::Rule> rules = store.policy().rules;
    const bool isId = !id.isEmpty() && std::any_of(rules.cbegin(), rules.cend(),
                                                   [&](const policy::Rule &rule) { return rule.id == id; });
    policy::StoreResult result = policy::StoreChange{};
    if (isId) {
        result = store.removeRule(id);
    } else if (!pattern.isEmpty()) {
        const std::optional<policy::Scope> scope =
            policy::Scope::fromString(params.value(QLatin1String("scope")).toString(QStringLiteral("global")));
        if (!scope)
            return invalid(QStringLiteral("the scope must be global, sandbox:NAME or kit:NAME"));
        const Result<policy::HostPattern> parsed = policy::HostPattern::parse(pattern, policy::PatternContext::Deny);
        if (!parsed)
            return api::Reply::failure(QLatin1String(api::errors::kNoSuchRule),
                                       QStringLiteral("no rule has the id %1, and it is not a pattern: %2")
                                           .arg(pattern, parsed.error().message));
        result = store.removeRule(pattern, *scope);
    } else {
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchRule),
                                   QStringLiteral("no rule has the id %1").arg(id));
    }
    if (!result.ok())
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchRule), result.error().text());
    qCInfo(lcRuleEdits).noquote() << "removed" << result->removed << "rules:" << (isId ? id : pattern);
    return api::Reply::success({{QStringLiteral("removed"), result->removed}});
}

} // namespace paddock::sandbox
