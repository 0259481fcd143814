// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/AgentConfig.h"

namespace paddock::agentperms {
namespace {

std::optional<PatternRule> ruleFromValue(const QString &pattern, const JsonNode &value, const QString &text,
                                         qsizetype at, const QString &scope)
{
    PatternRule rule;
    rule.pattern = pattern;
    rule.scope = scope;
    rule.line = lineAt(text, at);
    if (value.isString()) {
        const std::optional<State> state = stateFromName(value.string);
        if (!state)
            return std::nullopt;
        rule.state = *state;
        return rule;
    }
    // The only object a map may hold: a deny with a reason.
    const JsonNode *action = value.isObject() ? value.member(QStringLiteral("action")) : nullptr;
    if (!action || !action->isString() || action->string != QLatin1String("deny"))
        return std::nullopt;
    rule.state = State::Deny;
    if (const JsonNode *reason = value.member(QStringLiteral("reason")); reason && reason->isString())
        rule.reason = reason->string;
    return rule;
}

// Sets @p name to @p value in @p list, keeping the place of a name already there.
template<typename T, typename Key>
void setOrAppend(QList<T> &list, const T &value, Key key)
{
    for (T &existing : list) {
        if (key(existing) == key(value)) {
            existing = value;
            return;
        }
    }
    list.append(value);
}

bool boolMember(const JsonNode &root, const char *key, bool fallback)
{
    const JsonNode *node = root.member(QLatin1String(key));
    return node && node->kind == JsonNode::Kind::Bool ? node->string == QLatin1String("true") : fallback;
}

} // namespace

std::optional<State> stateFromName(const QString &name)
{
    if (name == QLatin1String("allow"))
        return State::Allow;
    if (name == QLatin1String("ask"))
        return State::Ask;
    if (name == QLatin1String("deny"))
        return State::Deny;
    return std::nullopt;
}

QString stateName(State state)
{
    switch (state) {
    case State::Allow:
        return QStringLiteral("allow");
    case State::Ask:
        return QStringLiteral("ask");
    case State::Deny:
        return QStringLiteral("deny");
    }
    return {};
}

int restrictiveness(State state)
{
    return int(state);
}

const Surface *PermissionConfig::surface(const QString &name) const
{
    for (const Surface &s : surfaces) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

std::optional<State> PermissionConfig::universal() const
{
    const Surface *all = surface(QStringLiteral("*"));
    if (!all || !all->shorthand || all->rules.isEmpty())
        return std::nullopt;
    return all->rules.first().state;
}

PermissionConfig configFromJson(const JsonNode &root, const QString &text, const QString &scope)
{
    PermissionConfig config;
    if (!root.isObject())
        return config;
    config.reviewLog = boolMember(root, "permissionReviewLog", true);
    config.yoloMode = boolMember(root, "yoloMode", false);
    const JsonNode *permission = root.member(QStringLiteral("permission"));
    if (!permission || !permission->isObject())
        return config;
    for (const JsonNode::Member &member : permission->members) {
        Surface surface;
        surface.name = member.key;
        surface.line = lineAt(text, member.keyBegin);
        if (member.value.isString()) {
            std::optional<PatternRule> rule =
                ruleFromValue(QStringLiteral("*"), member.value, text, member.keyBegin, scope);
            if (!rule)
                continue;
            surface.shorthand = true;
            surface.rules.append(*rule);
        } else if (member.value.isObject()) {
            for (const JsonNode::Member &entry : member.value.members) {
                if (std::optional<PatternRule> rule =
                        ruleFromValue(entry.key, entry.value, text, entry.keyBegin, scope))
                    setOrAppend(surface.rules, *rule, [](const PatternRule &r) { return r.pattern; });
            }
        } else {
            continue;
        }
        setOrAppend(config.surfaces, surface, [](const Surface &s) { return s.name; });
    }
    return config;
}

PermissionConfig mergeConfigs(const PermissionConfig &lower, const PermissionConfig &higher)
{
    PermissionConfig merged = lower;
    merged.reviewLog = higher.reviewLog;
    merged.yoloMode = higher.yoloMode;
    for (const Surface &over : higher.surfaces) {
        Surface *base = nullptr;
        for (Surface &candidate : merged.surfaces) {
            if (candidate.name == over.name)
                base = &candidate;
        }
        if (!base) {
            merged.surfaces.append(over);
        } else if (base->shorthand || over.shorthand) {
            *base = over;
        } else {
            for (const PatternRule &rule : over.rules)
                setOrAppend(base->rules, rule, [](const PatternRule &r) { return r.pattern; });
        }
    }
    return merged;
}

QString globalConfigRelativePath()
{
    return QStringLiteral(".pi/agent/extensions/pi-permission-system/config.json");
}

QString projectConfigRelativePath()
{
    return QStringLiteral(".pi/extensions/pi-permission-system/config.json");
}

QString reviewLogRelativePath()
{
    return QStringLiteral(
        ".pi/agent/extensions/pi-permission-system/logs/pi-permission-system-permission-review.jsonl");
}

QString kitConfigRelativePath()
{
    return QStringLiteral("files/home/") + globalConfigRelativePath();
}

} // namespace paddock::agentperms
