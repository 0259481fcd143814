// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonStatus.h"

#include <QAbstractListModel>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief What the agents were refused or asked by pi-permission-system, one row per sandbox,
 * tool and value, most recent first: the Network page shows them beside refused connections.
 *
 * Loaded from `agent.refusals` and kept current from topic `agent`. Allow goes in two steps,
 * as for a network refusal: preview() asks the daemon for the narrowest rule and the lines
 * it would add (`dryRun`), previewReady() carries them to the confirmation dialog, and
 * allow() writes them.
 */
class AgentRefusalsModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::DaemonStatus *daemon READ daemon WRITE setDaemon NOTIFY daemonChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        SandboxRole,
        KitRole,
        ToolRole,
        ValueRole,
        StateRole,      ///< deny or ask
        ResolutionRole, ///< how an ask ended
        RuleRole,       ///< the rule that decided, as the tester names it
        CountRole,
        LastSeenTextRole,
    };
    Q_ENUM(Role)

    explicit AgentRefusalsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    DaemonStatus *daemon() const { return m_daemon; }
    void setDaemon(DaemonStatus *daemon);
    QString error() const { return m_error; }

    Q_INVOKABLE void reload();
    Q_INVOKABLE QVariantMap get(int row) const;
    /** Asks what Allow would write for refusal @p id into @p where (project or kit). */
    Q_INVOKABLE void preview(int id, const QString &where);
    Q_INVOKABLE void allow(int id, const QString &where);
    Q_INVOKABLE void dismiss(int id);

    /** Replaces the rows with an `agent.refusals` answer (dismissed ones left out). */
    void setRefusals(const QJsonArray &refusals);
    /** One refusal from topic `agent`: a new row at the top, or its row brought up to date. */
    void addRefusal(const QJsonObject &refusal);

Q_SIGNALS:
    void daemonChanged();
    void countChanged();
    void errorChanged();
    /** @p diff: the lines, "+ 12 | text" each; @p changes: "surface: pattern" each. */
    void previewReady(int id, const QString &where, const QString &path, const QString &diff, const QString &changes);
    void allowed(const QString &path);

private:
    int rowOfId(int id) const;
    void setError(const QString &error);

    QPointer<DaemonStatus> m_daemon;
    QList<QJsonObject> m_rows;
    QString m_error;
};

} // namespace paddock::gui
