// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Private to core/events: the connection behind EventStore, shared by its files
// (EventStore.cpp: the connection; EventStoreSchema.cpp: migrations; EventStoreWrite.cpp:
// writing and retention; EventStoreRead.cpp: queries; EventStoreActivity.cpp: activity sums).

#include "events/EventStore.h"

#include <QHash>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <optional>

namespace paddock::events {
namespace detail {

Q_DECLARE_LOGGING_CATEGORY(lcEventStore)

/** The schema steps: step N brings the schema from version N-1 to N. */
const QList<QStringList> &migrations();

/** Qt binds a null QString as SQL NULL; every text column is NOT NULL, so store "" instead. */
QVariant text(const QString &value);
QDateTime fromMs(qint64 ms);

/**
 * The columns the events and requests tables share, in this order: every SELECT that reads
 * an event back starts with them, then names its table's own (events: repeats; requests:
 * method, path, status, duration_ms), which start at kEventColumnCount.
 */
inline constexpr char kEventColumns[] = "time_ms, sandbox, kit, host, port, protocol, outcome, rule, reason, "
                                        "bytes_up, bytes_down, pid, program, exe, command, written";
inline constexpr int kEventColumnCount = 16;
/** The event in a row that starts with kEventColumns. */
NetworkEvent eventOf(const QSqlQuery &query);

/** A statement's text and the values bound to its '?', built clause by clause. */
struct Statement
{
    QString sql;
    QVariantList values;

    /** Appends @p clause (" AND column = ?") bound to @p value, when @p wanted. */
    void andIf(bool wanted, QLatin1String clause, const QVariant &value)
    {
        if (!wanted)
            return;
        sql += clause;
        values << value;
    }
    /** At most @p count rows; none or a negative count means no limit (SQLite's -1). */
    void limit(int count)
    {
        sql += QLatin1String(" LIMIT ?");
        values << (count > 0 ? qint64(count) : qint64(-1));
    }
};

/** The events of one write summed per group, so a burst to one host costs one upsert. */
struct GroupTotals
{
    const NetworkEvent *latest = nullptr;
    qint64 count = 0, firstMs = 0, lastMs = 0, bytesUp = 0, bytesDown = 0;
};

/** The groups of one write, each in the order it was first seen. */
class GroupedBatch
{
public:
    void add(const NetworkEvent &event, qint64 ms);
    /** The allowed groups. */
    QList<GroupTotals> allowed() const { return inOrder(m_allowed, m_allowedOrder); }
    /** The refused and failed groups. */
    QList<GroupTotals> refused() const { return inOrder(m_refused, m_refusedOrder); }

private:
    static QList<GroupTotals> inOrder(const QHash<QString, GroupTotals> &groups, const QStringList &order);

    QHash<QString, GroupTotals> m_allowed;
    QStringList m_allowedOrder;
    QHash<QString, GroupTotals> m_refused;
    QStringList m_refusedOrder;
};

} // namespace detail

struct EventStore::Private
{
    QString path;
    RetentionPolicy retention;
    QString connectionName;
    QSqlDatabase db;
    std::optional<QSqlQuery> insertEvent;
    std::optional<QSqlQuery> upsertAllowed;
    std::optional<QSqlQuery> upsertMinute;
    std::optional<QSqlQuery> upsertRefusalGroup;
    std::optional<QSqlQuery> insertRequest;
    std::optional<QSqlQuery> countRepeat;
    /** @brief The rows written this second for one destination's refusals, and the latest. */
    struct RowBudget
    {
        qint64 windowMs = 0;
        int rows = 0;
        qint64 lastId = 0;
    };
    QHash<QString, RowBudget> budgets;
    QString error;

    // -- failures and statements (EventStore.cpp) ---------------------------------------
    bool fail(const QString &sentence);
    /** Keeps the reason the file could not be opened, which says more than "not open". */
    bool notOpen();
    bool failQuery(const QSqlError &sqlError, const char *what);
    /** The first column of the first row (an invalid QVariant when there is none); nothing on failure. */
    std::optional<QVariant> scalar(const QString &sql, const char *what);
    bool exec(const QString &sql, const char *what);
    /**
     * BEGIN IMMEDIATE takes the write lock up front, so a second writer waits for the busy
     * timeout instead of failing when it tries to upgrade a read transaction.
     */
    bool begin(const char *what) { return exec(QStringLiteral("BEGIN IMMEDIATE"), what); }
    bool commit(const char *what);
    void rollback();
    /** Binds @p values to the prepared @p query in order and runs it. */
    bool run(QSqlQuery &query, const QVariantList &values, const char *what);
    /** Prepares @p sql on @p query, then binds @p values and runs it. */
    bool run(QSqlQuery &query, const QString &sql, const QVariantList &values, const char *what);

    // -- the connection (EventStore.cpp, EventStoreSchema.cpp) ---------------------------
    bool prepareFile();
    bool configure();
    bool migrate();
    bool prepareStatements();
    void closeConnection();

    // -- writing and retention (EventStoreWrite.cpp) -------------------------------------
    bool deleteOldest(const QString &table, const QString &orderColumn, qint64 rows);
    bool deleteEvents(const QString &condition, const QVariantList &values);
    bool trimByAge(qint64 cutoff, bool *deleted);
    bool storeRefusal(const NetworkEvent &event, qint64 ms);
    bool storeAllowedGroup(const detail::GroupTotals &totals);
    /** Adds a group to its minute of activity_minutes (the activity timeline): allowed or refused. */
    bool storeMinute(const detail::GroupTotals &totals);
    bool storeRefusalGroup(const detail::GroupTotals &totals);
    // -- request records (EventStoreRequests.cpp) ----------------------------------------
    bool prepareRequestStatements();
    bool storeRequest(const NetworkEvent &event, qint64 ms);
    /** Deletes request records older than @p cutoffMs; sets @p deleted when some went. */
    bool expireRequests(qint64 cutoffMs, bool *deleted);

    // -- queries (EventStoreRead.cpp) ------------------------------------------------------
    void readRefusalGroups(NetworkEvent::Outcome outcome, const LogFilter &filter, QList<BlockedEntry> *out);
    void readAllowed(const LogFilter &filter, QList<AllowedEntry> *out);
    /** Runs @p sql with @p values, forward only, appending each row as @p rowOf reads it to @p out. */
    template<typename Entry>
    void selectInto(const QString &sql, const QVariantList &values, Entry (*rowOf)(const QSqlQuery &),
                    QList<Entry> *out);
    /**
     * Runs @p statement forward only (rows come from SQLite one at a time, not cached by Qt),
     * handing each row to @p row until it returns false, then ends the read transaction at
     * once, so a long-lived store does not pin the WAL. False when the read failed.
     */
    bool forEachRow(const detail::Statement &statement, const std::function<bool(const QSqlQuery &)> &row);

    // -- activity (EventStoreActivity.cpp) -------------------------------------------------
    bool readActivityBuckets(const ActivityFilter &filter, Activity *out);
    bool readActivityHosts(const ActivityFilter &filter, Activity *out);
};

} // namespace paddock::events
