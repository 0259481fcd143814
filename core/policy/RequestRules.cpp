// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/RequestRules.h"

namespace paddock::policy {
namespace {

bool scopeCovers(const Scope &scope, const Request &request)
{
    switch (scope.kind) {
    case Scope::Kind::Global:
        return true;
    case Scope::Kind::Sandbox:
        return scope.name == request.sandbox;
    case Scope::Kind::Kit:
        return scope.name == request.kit;
    }
    return false;
}

const Rule *first(const std::vector<const Rule *> &rules, Verdict verdict)
{
    for (const Rule *rule : rules) {
        if (rule->verdict == verdict)
            return rule;
    }
    return nullptr;
}

Decision decideConnection(Decision decision, const Request &request, const std::vector<const Rule *> &covering)
{
    if (request.seesRequests) {
        // Each request is decided again; an allow limited to some of them opens the connection.
        if (!decision.allowed) {
            if (const Rule *allow = first(covering, Verdict::Allow)) {
                decision.allowed = true;
                decision.basis = Decision::Basis::AllowedByRule;
                decision.rule = *allow;
            }
        }
        return decision;
    }
    const Rule *deny = first(covering, Verdict::Deny);
    const Rule *allow = decision.allowed ? nullptr : first(covering, Verdict::Allow);
    if (deny || allow) {
        decision.allowed = false;
        decision.basis = Decision::Basis::RequestsUnseen;
        decision.rule = deny ? *deny : *allow;
    }
    return decision;
}

} // namespace

std::vector<const Rule *> RequestRules::covering(const Request &request, const std::vector<Rule> &rules,
                                                 std::string_view name, const std::optional<IpAddress> &literal) const
{
    std::vector<const Rule *> result;
    for (const std::uint32_t index : m_rules) {
        const Rule &rule = rules[index];
        if (!scopeCovers(rule.scope, request))
            continue;
        // A program condition as in the host rules: a deny's also holds where nobody said.
        if (!programConditionHolds(rule.program.toStdString(), rule.verdict == Verdict::Deny, request.program))
            continue;
        const bool host = literal ? rule.pattern.matchesAddress(*literal, request.port)
                                  : rule.pattern.matchesName(name, request.port);
        if (host)
            result.push_back(&rule);
    }
    return result;
}

Decision RequestRules::apply(Decision decision, const Request &request, const std::vector<Rule> &rules,
                             std::string_view name, const std::optional<IpAddress> &literal) const
{
    if (decision.basis != Decision::Basis::AllowedByRule && decision.basis != Decision::Basis::NoMatchingRule)
        return decision;
    const std::vector<const Rule *> rulesHere = covering(request, rules, name, literal);
    if (request.method.isEmpty())
        return rulesHere.empty() ? decision : decideConnection(std::move(decision), request, rulesHere);

    const std::string target = request.path.toStdString();
    const QString path = canonicalPath(target);
    decision.request = request.method + QLatin1Char(' ') + redactedTarget(target);
    for (const Rule *rule : rulesHere) {
        // A path that cannot be read is taken as any path: a deny is not escaped by an odd target.
        const bool hit = path.isEmpty() ? RequestMatch{rule->request.methods, {}}.matches(request.method, path)
                                        : rule->request.matches(request.method, path);
        if (rule->verdict == Verdict::Deny && hit) {
            decision.allowed = false;
            decision.basis = Decision::Basis::DeniedByRule;
            decision.rule = *rule;
            return decision;
        }
    }
    if (decision.allowed)
        return decision;
    for (const Rule *rule : rulesHere) {
        if (rule->verdict == Verdict::Allow && rule->request.matches(request.method, path)) {
            decision.allowed = true;
            decision.basis = Decision::Basis::AllowedByRule;
            decision.rule = *rule;
            return decision;
        }
    }
    return decision;
}

} // namespace paddock::policy
