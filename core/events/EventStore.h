// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "events/Activity.h"
#include "events/NetworkEvent.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace paddock::events {

/** @brief How long and how much of the event log to keep. Zero disables a limit. */
struct RetentionPolicy
{
    std::chrono::seconds maxAge = std::chrono::hours(24 * 30);
    qint64 maxBytes = qint64(64) * 1024 * 1024;
};

/** @brief One line of the Blocked section: refusals grouped by sandbox, host, port and rule. */
struct BlockedEntry
{
    QString host;
    quint16 port = 0;
    QString sandbox;
    QString kit;      ///< of the most recent refusal
    QString protocol; ///< of the most recent refusal
    QString rule;
    QString reason;  ///< of the most recent refusal
    QString program; ///< of the most recent refusal: which program inside asked; empty when not known
    QString command; ///< its command line
    QString written; ///< where its file was written inside the sandbox; empty: its base's (NetworkEvent::written)
    qint64 count = 0;
    QDateTime firstSeen;
    QDateTime lastSeen;
};

/** @brief One line of the Allowed section: connections counted per sandbox, host, port and rule. */
struct AllowedEntry
{
    QString host;
    quint16 port = 0;
    QString sandbox;
    QString kit;
    QString rule;
    qint64 count = 0;
    QDateTime firstSeen;
    QDateTime lastSeen;
    qint64 bytesUp = 0;
    qint64 bytesDown = 0;
};

/** @brief What `paddock policy log` shows: both sections, newest first. */
struct PolicyLog
{
    QList<BlockedEntry> blocked;
    QList<AllowedEntry> allowed;
    /** Allowed connections whose destination could not be reached, grouped like `blocked`. */
    QList<BlockedEntry> failed;
};

/** @brief Which lines of the aggregated log to return. */
struct LogFilter
{
    QString sandbox; ///< empty: every sandbox
    /**
     * Only groups seen at or after this time. For Blocked lines the count covers only the
     * events since then; allowed connections are kept as running totals, so an Allowed line
     * is shown when last seen since then and its count covers the whole retention window.
     */
    QDateTime since;
    int limit = 100; ///< per section; 0 or less: no limit
};

/** @brief Which stored events (refusals and upstream failures) to stream. */
struct EventFilter
{
    QString sandbox; ///< empty: every sandbox
    QDateTime since; ///< inclusive
    QDateTime until; ///< exclusive
    bool includeUpstreamFailures = false;
    bool includeLearned = false; ///< connections let through by learning mode, stored like refusals
    bool newestFirst = false;    ///< default: oldest first, the order of an export
    int limit = 0;               ///< 0 or less: no limit
    int offset = 0;              ///< rows passed over first (an export read a page at a time)
};

/** @brief Which request records to read (`paddock policy log --requests`, the Network page). */
struct RequestFilter
{
    QString sandbox; ///< empty: every sandbox
    QString host;    ///< empty: every host
    QDateTime since; ///< inclusive
    QDateTime until; ///< exclusive
    bool newestFirst = true;
    int limit = 200; ///< 0 or less: no limit
};

/**
 * @brief The event log on disk: an SQLite database (`paths::stateDir()/events.sqlite`) kept
 * in WAL mode so several processes can read and write it at once.
 *
 * Refusals and upstream failures are stored one row each, so they can be audited and
 * exported; allowed connections are aggregated per (sandbox, host, port, rule) with a
 * count, first and last seen, and byte totals, since a busy agent makes thousands of them.
 *
 * An EventStore is a connection: use it only from the thread that created it. Several
 * stores may be open on the same file, in this process or others. Nothing here is on the
 * proxy's hot path: EventHub queues events and writes them in batches.
 */
class EventStore
{
public:
    /** The database next to Paddock's other state: `paths::stateDir()/events.sqlite`. */
    static QString defaultPath();
    /** The schema version this build writes. */
    static int currentSchemaVersion();

    explicit EventStore(QString path = defaultPath(), RetentionPolicy retention = {});
    ~EventStore();
    EventStore(const EventStore &) = delete;
    EventStore &operator=(const EventStore &) = delete;

    /**
     * Creates the directory (0700) and file (0600) if needed, sets WAL mode, brings the
     * schema up to date and applies retention. On failure errorString() is one sentence
     * naming the file and what is wrong.
     */
    bool open();
    bool isOpen() const;
    void close();
    QString path() const;
    /** The last failure, as one sentence; empty after success. */
    QString errorString() const;

    RetentionPolicy retention() const;
    void setRetention(const RetentionPolicy &retention);

    /**
     * At most this many rows a second are written for one destination's refusals (outcome,
     * sandbox, host, port, rule); beyond, the latest row counts the repeats. A loop inside a
     * sandbox refusing itself thousands of times a second costs a few rows, and every count
     * (policy log, countDenials) still includes each refusal.
     */
    static constexpr int kRowsPerSecondPerDestination = 10;

    /** Stores @p events in one transaction: refusals one row each (within the rate above), allowed ones aggregated. */
    bool write(const QList<NetworkEvent> &events);

    /**
     * Deletes events older than the age limit, then the oldest events until the database
     * fits the size limit, and returns the freed pages to the file system.
     * @p now is the reference for the age limit (the current time when invalid).
     */
    bool applyRetention(const QDateTime &now = {});
    /** Bytes the database's live pages take (the file may be larger until it is vacuumed). */
    qint64 usedBytes() const;

    /** The Blocked, Allowed and Failed sections, newest first. */
    PolicyLog log(const LogFilter &filter = {}) const;
    /**
     * Calls @p sink for each stored refusal (and upstream failure if asked) matching
     * @p filter, reading rows one at a time so a large export is not held in memory.
     * @p sink returns false to stop early. Returns false on a database error.
     */
    bool forEachEvent(const EventFilter &filter, const std::function<bool(const NetworkEvent &)> &sink) const;
    /**
     * Calls @p sink for each stored request record (NetworkEvent::request set) matching
     * @p filter; @p sink returns false to stop. Returns false on a database error.
     */
    bool forEachRequest(const RequestFilter &filter, const std::function<bool(const NetworkEvent &)> &sink) const;
    /**
     * Connections summed per time bucket, per destination (the busiest first) and, when asked,
     * per sandbox, within the bounds of ActivityFilter. Allowed connections are counted per
     * minute (kept as long as the events); refusals from their rows. @p ok is false on a
     * database error.
     */
    Activity activity(const ActivityFilter &filter, bool *ok = nullptr) const;
    /** Refusals for @p sandbox (every sandbox when empty) at or after @p since (all when invalid). */
    qint64 countDenials(const QString &sandbox, const QDateTime &since = {}) const;

    /** The version recorded in the schema_version table; 0 when not open. */
    int schemaVersion() const;
    /** PRAGMA journal_mode as SQLite reports it ("wal" once open). */
    QString journalMode() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace paddock::events
