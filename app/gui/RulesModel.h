// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractListModel>
#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The network rules as `policy.get` lists them, for the Network page's table, with a
 * filter over every column.
 *
 * Rules from a running kit's spec.yaml are listed with `readOnly` set: they are changed in the
 * kit, not in policy.yaml.
 */
class RulesModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by NetworkPolicy")
    Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY filterChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(int totalCount READ totalCount NOTIFY countChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        ScopeRole,
        PatternRole,
        DecisionRole,
        OriginRole,
        CreatedRole,     ///< QDateTime, invalid for rules nobody created (kits)
        CreatedTextRole, ///< "2026-01-31 09:15" in local time, or empty
        SourceRole,      ///< the kit's spec.yaml for kit rules
        ReadOnlyRole,
        ConditionRole, ///< what the rule is limited to beyond its pattern: "POST /gists", "for curl"
    };
    Q_ENUM(Role)

    struct Rule
    {
        QString id;
        QString scope;
        QString pattern;
        QString condition;
        QString decision;
        QString origin;
        QDateTime created;
        QString source;
        bool readOnly = false;
    };

    explicit RulesModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    /** Replaces every rule with those of a `policy.get` answer. */
    void setRules(const QJsonArray &rules);
    QList<Rule> rules() const { return m_rules; }
    int totalCount() const { return int(m_rules.size()); }

    QString filter() const { return m_filter; }
    /** Shows only rules whose scope, pattern, decision or origin contains @p filter (any case). */
    void setFilter(const QString &filter);

    /** The row of the rule with @p id among those shown, or -1. */
    Q_INVOKABLE int rowOf(const QString &id) const;
    /** The rule shown at @p row as {id, scope, pattern, decision, origin, readOnly}. */
    Q_INVOKABLE QVariantMap get(int row) const;

Q_SIGNALS:
    void filterChanged();
    void countChanged();

private:
    bool matches(const Rule &rule) const;
    void rebuild();

    QList<Rule> m_rules;
    QList<int> m_shown; ///< indices into m_rules, in order
    QString m_filter;
};

} // namespace paddock::gui
