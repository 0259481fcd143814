// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** One network rule as `policy.get` lists it. */
struct NetworkRule
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

    /** One rule of a `policy.get` answer. */
    static std::optional<NetworkRule> fromJson(const QJsonObject &object);
    /** Whether its scope, pattern, condition, decision or origin contains @p filter (any case). */
    bool matches(const QString &filter) const;
};

/**
 * @brief The network rules as `policy.get` lists them, for the Network page's table, with a
 * filter over every column.
 *
 * Rules from a running kit's spec.yaml are listed with `readOnly` set: they are changed in the
 * kit, not in policy.yaml.
 */
class RulesModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by NetworkPolicy")

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

    explicit RulesModel(QObject *parent = nullptr);

    /** Replaces every rule with those of a `policy.get` answer. */
    void setRules(const QJsonArray &rules);
    /** The row of the rule with @p id among those shown, or -1. */
    Q_INVOKABLE int rowOf(const QString &id) const;

private:
    Rows<NetworkRule> m_rows{this};
};

} // namespace paddock::gui
