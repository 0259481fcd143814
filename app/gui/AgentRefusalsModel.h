// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"

#include <QJsonObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** One refusal of pi-permission-system, as `agent.refusals` and topic `agent` send it. */
struct AgentRefusal
{
    int id = 0;
    QString sandbox;
    QString kit;
    QString tool;
    QString value;
    QString state;      ///< deny or ask
    QString resolution; ///< how an ask ended
    QString rule;       ///< the rule that decided, as the tester names it
    int count = 0;
    QString time; ///< when it was last seen, ISO 8601

    /** One refusal as the daemon sends it; a dismissed one is left out. */
    static std::optional<AgentRefusal> fromJson(const QJsonObject &json);
};

/**
 * @brief What the agents were refused or asked by pi-permission-system, one row per sandbox,
 * tool and value, most recent first: the Network page shows them beside refused connections.
 *
 * Loaded from `agent.refusals` and kept current from topic `agent`. Allow goes in two steps,
 * as for a network refusal: preview() asks the daemon for the narrowest rule and the lines
 * it would add (`dryRun`), previewReady() carries them to the confirmation dialog, and
 * allow() writes them.
 */
class AgentRefusalsModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        SandboxRole,
        KitRole,
        ToolRole,
        ValueRole,
        StateRole,
        ResolutionRole,
        RuleRole,
        CountRole,
        LastSeenTextRole,
    };
    Q_ENUM(Role)

    explicit AgentRefusalsModel(QObject *parent = nullptr);

    Q_INVOKABLE void reload();
    /** Asks what Allow would write for refusal @p id into @p where (project or kit). */
    Q_INVOKABLE void preview(int id, const QString &where);
    Q_INVOKABLE void allow(int id, const QString &where);
    Q_INVOKABLE void dismiss(int id);

    /** Replaces the rows with an `agent.refusals` answer (dismissed ones left out). */
    void setRefusals(const QJsonArray &refusals);
    /** One refusal from topic `agent`: a new row at the top, or its row brought up to date. */
    void addRefusal(const QJsonObject &refusal);

Q_SIGNALS:
    /** @p diff: the lines, "+ 12 | text" each; @p changes: "surface: pattern" each. */
    void previewReady(int id, const QString &where, const QString &path, const QString &diff, const QString &changes);
    void allowed(const QString &path);

protected:
    void daemonConnected() override { reload(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    int rowOfId(int id) const;

    Rows<AgentRefusal> m_rows{this};
};

} // namespace paddock::gui
