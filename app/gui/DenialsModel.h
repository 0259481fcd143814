// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractListModel>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

namespace paddock::api {
class DaemonClient;
class Reply;
} // namespace paddock::api

namespace paddock::gui {

/**
 * @brief The refused connections, one row per host and sandbox, most recent first.
 *
 * Filled from the daemon's `events.denials` when connected, then kept up to date from the
 * `network` topic: a refusal of a new host (or one dismissed earlier) adds a row at the top,
 * a refusal of a host already listed raises its count and last-seen time in place. It
 * subscribes before it asks, and the daemon answers with everything sent before, so the
 * refusals that arrive while it loads are skipped rather than counted twice.
 */
class DenialsModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by NetworkPolicy")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(int limit READ limit WRITE setLimit NOTIFY limitChanged)

public:
    enum Role {
        HostRole = Qt::UserRole + 1,
        SandboxRole,
        KitRole,
        PortRole,
        ProtocolRole,
        ReasonRole,
        ProgramRole,
        CommandRole,
        WrittenRole, ///< where its file was written inside the sandbox; empty: its base's
        RuleRole,
        CountRole,
        FirstSeenRole,
        LastSeenRole,
        LastSeenTextRole, ///< "09:15:02" today, else "2026-01-31 09:15"
    };
    Q_ENUM(Role)

    struct Denial
    {
        QString host;
        QString sandbox;
        QString kit;
        int port = 0;
        QString protocol;
        QString reason;
        QString program; ///< which program inside asked last; empty: not known
        QString command;
        QString written;
        QString rule;
        qint64 count = 0;
        QDateTime firstSeen;
        QDateTime lastSeen;
    };

    explicit DenialsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    /** Follows @p client: loads when it connects and listens to its `network` events. */
    void setClient(api::DaemonClient *client);
    bool loading() const { return m_loading; }
    /** How many groups to ask the daemon for (default 1000). */
    int limit() const { return m_limit; }
    void setLimit(int limit);

    /** Asks the daemon again and replaces the rows. */
    Q_INVOKABLE void reload();
    /** The row of @p host refused for @p sandbox, or -1. */
    Q_INVOKABLE int rowOf(const QString &host, const QString &sandbox) const;
    /** The row as {host, sandbox, kit, port, reason, count, ...} for QML. */
    Q_INVOKABLE QVariantMap get(int row) const;

    /** Replaces the rows with an `events.denials` answer. */
    void setDenials(const QJsonArray &denials);
    /** Counts one `network` event (only refusals count). */
    void addEvent(const QJsonObject &event);
    /** Takes the row away (after a dismissal); it comes back with the next refusal. */
    void removeDenial(const QString &host, const QString &sandbox);
    const QList<Denial> &denials() const { return m_rows; }

Q_SIGNALS:
    void countChanged();
    void loadingChanged();
    void limitChanged();
    /** A refusal arrived live; @p newRow when it made a new row. */
    void denied(const QString &host, const QString &sandbox, int port, bool newRow);
    void loadFailed(const QString &message);

private:
    static QString keyOf(const QString &host, const QString &sandbox);
    void reindex(int from);
    void setLoading(bool loading);
    void fetchPage(quint64 generation, int offset);

    /** Groups per `events.denials` call: an answer must fit one protocol line. */
    static constexpr int kPageSize = 1000;

    QPointer<api::DaemonClient> m_client;
    QList<Denial> m_rows;
    QHash<QString, int> m_index; ///< key → row
    /** Last-seen times of the rows as loaded: a live event not newer is already counted. */
    QHash<QString, QDateTime> m_loadedUpTo;
    bool m_loading = false;
    int m_limit = 1000;
    quint64 m_generation = 0;
    QJsonArray m_incoming; ///< pages read so far of the load under way
};

} // namespace paddock::gui
