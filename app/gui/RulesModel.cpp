// SPDX-License-Identifier: GPL-3.0-or-later
#include "RulesModel.h"

#include <QJsonObject>

namespace paddock::gui {

RulesModel::RulesModel(QObject *parent) : RowListModel(parent)
{
    using R = const NetworkRule &;
    m_rows.setRoles({{IdRole, "ruleId", [](R rule) { return rule.id; }},
                     {ScopeRole, "scope", [](R rule) { return rule.scope; }},
                     {PatternRole, "pattern", [](R rule) { return rule.pattern; }},
                     {DecisionRole, "decision", [](R rule) { return rule.decision; }},
                     {OriginRole, "origin", [](R rule) { return rule.origin; }},
                     {CreatedRole, "created", [](R rule) { return rule.created; }},
                     {CreatedTextRole, "createdText",
                      [](R rule) {
                          return rule.created.isValid()
                                     ? rule.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                     : QString();
                      }},
                     {SourceRole, "source", [](R rule) { return rule.source; }},
                     {ReadOnlyRole, "readOnly", [](R rule) { return rule.readOnly; }},
                     {ConditionRole, "condition", [](R rule) { return rule.condition; }}},
                    PatternRole);
}

std::optional<NetworkRule> NetworkRule::fromJson(const QJsonObject &object)
{
    NetworkRule rule;
    rule.id = object.value(QLatin1String("id")).toString();
    rule.scope = object.value(QLatin1String("scope")).toString();
    rule.pattern = object.value(QLatin1String("pattern")).toString();
    // A rule limited to requests or to one program says so beside its pattern.
    QStringList condition;
    if (const QString request = object.value(QLatin1String("request")).toString(); !request.isEmpty())
        condition << request;
    if (const QString program = object.value(QLatin1String("program")).toString(); !program.isEmpty())
        condition << RulesModel::tr("for %1").arg(program);
    rule.condition = condition.join(QLatin1Char(' '));
    rule.decision = object.value(QLatin1String("decision")).toString();
    rule.origin = object.value(QLatin1String("origin")).toString();
    rule.created = QDateTime::fromString(object.value(QLatin1String("created")).toString(), Qt::ISODateWithMs);
    rule.source = object.value(QLatin1String("source")).toString();
    rule.readOnly = object.value(QLatin1String("readOnly")).toBool();
    return rule;
}

void RulesModel::setRules(const QJsonArray &rules)
{
    m_rows.reset(Rows<NetworkRule>::fromJson(rules));
}

bool NetworkRule::matches(const QString &filter) const
{
    for (const QString &field : {scope, pattern, condition, decision, origin}) {
        if (field.contains(filter, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

int RulesModel::rowOf(const QString &id) const
{
    return m_rows.shownRow(m_rows.find([&id](const NetworkRule &rule) { return rule.id == id; }));
}

} // namespace paddock::gui
