// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** The refusals of one host for one sandbox: the row of the Network page's refused connections. */
struct DenialGroup
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
    /** A request the secret guard refused: the value's file and name (from its rule); else empty. */
    QString guardFile;
    QString guardName;
    qint64 count = 0;
    QDateTime firstSeen;
    QDateTime lastSeen;

    /** A group of `events.denials`, or one refusal of topic `network` (a group of one). */
    static std::optional<DenialGroup> fromJson(const QJsonObject &json);
};

/**
 * @brief The refused connections, one row per host and sandbox, most recent first.
 *
 * Filled from the daemon's `events.denials` when connected, then kept up to date from the
 * `network` topic: a refusal of a new host (or one dismissed earlier) adds a row at the top,
 * a refusal of a host already listed raises its count and last-seen time in place. It
 * subscribes before it asks, and the daemon answers with everything sent before, so the
 * refusals that arrive while it loads are skipped rather than counted twice.
 */
class DenialsModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by NetworkPolicy")
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
        GuardFileRole, ///< a secret-guard refusal: the file of the value it carried; else empty
        GuardNameRole, ///< and its name: what "Allow this value" allows
        CountRole,
        FirstSeenRole,
        LastSeenRole,
        LastSeenTextRole, ///< "09:15:02" today, else "2026-01-31 09:15"
    };
    Q_ENUM(Role)

    explicit DenialsModel(QObject *parent = nullptr);

    /** How many groups to ask the daemon for (default 1000). */
    int limit() const { return m_limit; }
    void setLimit(int limit);

    /** Asks the daemon again and replaces the rows. */
    Q_INVOKABLE void reload();
    /** The row of @p host refused for @p sandbox, or -1. */
    Q_INVOKABLE int rowOf(const QString &host, const QString &sandbox) const;
    /** Replaces the rows with an `events.denials` answer. */
    void setDenials(const QJsonArray &denials);
    /** Counts one `network` event (only refusals count). */
    void addEvent(const QJsonObject &event);
    /** Takes the row away (after a dismissal); it comes back with the next refusal. */
    void removeDenial(const QString &host, const QString &sandbox);

Q_SIGNALS:
    void limitChanged();
    /** A refusal arrived live; @p newRow when it made a new row. */
    void denied(const QString &host, const QString &sandbox, int port, bool newRow);
    /** A request of @p sandbox went unsent: the command or reference of @p service failed (@p reason). */
    void secretNotSent(const QString &service, const QString &sandbox, const QString &reason);

protected:
    void daemonConnected() override { reload(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    static QString keyOf(const QString &host, const QString &sandbox);
    void reindex();
    void fetchPage(quint64 generation, int offset);

    /** Groups per `events.denials` call: an answer must fit one protocol line. */
    static constexpr int kPageSize = 1000;

    Rows<DenialGroup> m_rows{this};
    QHash<QString, int> m_index; ///< key → row
    /** Last-seen times of the rows as loaded: a live event not newer is already counted. */
    QHash<QString, QDateTime> m_loadedUpTo;
    int m_limit = 1000;
    quint64 m_generation = 0;
    QJsonArray m_incoming; ///< pages read so far of the load under way
};

} // namespace paddock::gui
