// SPDX-License-Identifier: GPL-3.0-or-later
#include "RulesModel.h"

#include <QJsonObject>
#include <QLocale>

namespace paddock::gui {

RulesModel::RulesModel(QObject *parent) : QAbstractListModel(parent) {}

int RulesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_shown.size());
}

QVariant RulesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Rule &rule = m_rules.at(m_shown.at(index.row()));
    switch (role) {
    case Qt::DisplayRole:
    case PatternRole:
        return rule.pattern;
    case ConditionRole:
        return rule.condition;
    case IdRole:
        return rule.id;
    case ScopeRole:
        return rule.scope;
    case DecisionRole:
        return rule.decision;
    case OriginRole:
        return rule.origin;
    case CreatedRole:
        return rule.created;
    case CreatedTextRole:
        return rule.created.isValid() ? rule.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                      : QString();
    case SourceRole:
        return rule.source;
    case ReadOnlyRole:
        return rule.readOnly;
    default:
        return {};
    }
}

QHash<int, QByteArray> RulesModel::roleNames() const
{
    return {{IdRole, "ruleId"},
            {ScopeRole, "scope"},
            {PatternRole, "pattern"},
            {DecisionRole, "decision"},
            {OriginRole, "origin"},
            {CreatedRole, "created"},
            {CreatedTextRole, "createdText"},
            {SourceRole, "source"},
            {ReadOnlyRole, "readOnly"},
            {ConditionRole, "condition"}};
}

void RulesModel::setRules(const QJsonArray &rules)
{
    QList<Rule> next;
    for (const QJsonValue &value : rules) {
        const QJsonObject object = value.toObject();
        Rule rule;
        rule.id = object.value(QLatin1String("id")).toString();
        rule.scope = object.value(QLatin1String("scope")).toString();
        rule.pattern = object.value(QLatin1String("pattern")).toString();
        // A rule limited to requests or to one program says so beside its pattern.
        QStringList condition;
        if (const QString request = object.value(QLatin1String("request")).toString(); !request.isEmpty())
            condition << request;
        if (const QString program = object.value(QLatin1String("program")).toString(); !program.isEmpty())
            condition << tr("for %1").arg(program);
        rule.condition = condition.join(QLatin1Char(' '));
        rule.decision = object.value(QLatin1String("decision")).toString();
        rule.origin = object.value(QLatin1String("origin")).toString();
        rule.created = QDateTime::fromString(object.value(QLatin1String("created")).toString(), Qt::ISODateWithMs);
        rule.source = object.value(QLatin1String("source")).toString();
        rule.readOnly = object.value(QLatin1String("readOnly")).toBool();
        next.append(rule);
    }
    beginResetModel();
    m_rules = next;
    rebuild();
    endResetModel();
    emit countChanged();
}

void RulesModel::setFilter(const QString &filter)
{
    if (filter == m_filter)
        return;
    beginResetModel();
    m_filter = filter;
    rebuild();
    endResetModel();
    emit filterChanged();
    emit countChanged();
}

bool RulesModel::matches(const Rule &rule) const
{
    const QString needle = m_filter.trimmed();
    if (needle.isEmpty())
        return true;
    for (const QString &field : {rule.scope, rule.pattern, rule.condition, rule.decision, rule.origin}) {
        if (field.contains(needle, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

void RulesModel::rebuild()
{
    m_shown.clear();
    for (int i = 0; i < m_rules.size(); ++i) {
        if (matches(m_rules.at(i)))
            m_shown.append(i);
    }
}

int RulesModel::rowOf(const QString &id) const
{
    for (int row = 0; row < m_shown.size(); ++row) {
        if (m_rules.at(m_shown.at(row)).id == id)
            return row;
    }
    return -1;
}

QVariantMap RulesModel::get(int row) const
{
    if (row < 0 || row >= m_shown.size())
        return {};
    const Rule &rule = m_rules.at(m_shown.at(row));
    return {{QStringLiteral("ruleId"), rule.id},       {QStringLiteral("scope"), rule.scope},
            {QStringLiteral("pattern"), rule.pattern}, {QStringLiteral("decision"), rule.decision},
            {QStringLiteral("origin"), rule.origin},   {QStringLiteral("readOnly"), rule.readOnly},
            {QStringLiteral("source"), rule.source}};
}

} // namespace paddock::gui
