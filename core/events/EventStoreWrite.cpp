// SPDX-License-Identifier: GPL-3.0-or-later
// Writing to the event log, and keeping it within its age and size limits.
#include "events/EventStorePrivate.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace paddock::events {
namespace detail {

void GroupedBatch::add(const NetworkEvent &event, qint64 ms)
{
    const bool isAllowed = event.outcome == NetworkEvent::Outcome::Allowed;
    QHash<QString, GroupTotals> &groups = isAllowed ? m_allowed : m_refused;
    const QChar separator(0x1f);
    const QString key = outcomeToken(event.outcome) + separator + event.sandbox + separator + event.host + separator +
                        QString::number(event.port) + separator + event.rule;
    auto it = groups.find(key);
    if (it == groups.end()) {
        it = groups.insert(key, GroupTotals{&event, 0, ms, ms, 0, 0});
        (isAllowed ? m_allowedOrder : m_refusedOrder).append(key);
    }
    GroupTotals &totals = it.value();
    ++totals.count;
    totals.firstMs = std::min(totals.firstMs, ms);
    if (ms >= totals.lastMs) {
        totals.lastMs = ms;
        totals.latest = &event;
    }
    totals.bytesUp += event.bytesUp;
    totals.bytesDown += event.bytesDown;
}

QList<GroupTotals> GroupedBatch::inOrder(const QHash<QString, GroupTotals> &groups, const QStringList &order)
{
    QList<GroupTotals> list;
    list.reserve(order.size());
    for (const QString &key : order)
        list.append(groups.value(key));
    return list;
}

} // namespace detail

using namespace detail;

bool EventStore::Private::storeRefusal(const NetworkEvent &event, qint64 ms)
{
    const QChar separator(0x1f);
    const QString key = outcomeToken(event.outcome) + separator + event.sandbox + separator + event.host + separator +
                        QString::number(event.port) + separator + event.rule;
    if (budgets.size() > 4096)
        budgets.clear(); // each entry only spans a second; many keys at once are a flood anyway
    RowBudget &budget = budgets[key];
    if (ms - budget.windowMs >= 1000 || ms < budget.windowMs) {
        budget.windowMs = ms;
        budget.rows = 0;
    }
    // Over the rate: the destination's latest row counts this refusal too, if it is still there.
    if (budget.rows >= kRowsPerSecondPerDestination && budget.lastId > 0) {
        if (!run(*countRepeat, {ms, budget.lastId}, "write to"))
            return false;
        if (countRepeat->numRowsAffected() == 1)
            return true;
    }
    if (!run(*insertEvent,
             {ms, text(event.sandbox), text(event.kit), text(event.host), int(event.port), text(event.protocol),
              outcomeToken(event.outcome), text(event.rule), text(event.reason), event.bytesUp, event.bytesDown,
              event.pid, text(event.program), text(event.exe), text(event.command), text(event.written)},
             "write to"))
        return false;
    budget.lastId = insertEvent->lastInsertId().toLongLong();
    ++budget.rows;
    return true;
}

bool EventStore::Private::storeAllowedGroup(const GroupTotals &totals)
{
    const NetworkEvent &latest = *totals.latest;
    return run(*upsertAllowed,
               {text(latest.sandbox), text(latest.host), int(latest.port), text(latest.rule), text(latest.kit),
                totals.count, totals.firstMs, totals.lastMs, totals.bytesUp, totals.bytesDown},
               "write to");
}

bool EventStore::Private::storeMinute(const GroupTotals &totals)
{
    const NetworkEvent &latest = *totals.latest;
    // Let through (by a rule or by learning mode) or refused; an upstream failure is neither.
    const bool allowed =
        latest.outcome == NetworkEvent::Outcome::Allowed || latest.outcome == NetworkEvent::Outcome::Learned;
    if (!allowed && latest.outcome != NetworkEvent::Outcome::Denied)
        return true;
    if (!upsertMinute) {
        upsertMinute.emplace(db);
        if (!upsertMinute->prepare(QStringLiteral(
                "INSERT INTO activity_minutes (sandbox, host, minute_ms, allowed, refused, bytes_up, bytes_down)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sandbox, host, minute_ms) DO UPDATE SET"
                " allowed = allowed + excluded.allowed, refused = refused + excluded.refused,"
                " bytes_up = bytes_up + excluded.bytes_up, bytes_down = bytes_down + excluded.bytes_down"))) {
            const QSqlError sqlError = upsertMinute->lastError();
            upsertMinute.reset();
            return failQuery(sqlError, "prepare");
        }
    }
    // A batch spans a moment: its group is counted in the minute of its latest connection.
    const qint64 minuteMs = totals.lastMs - totals.lastMs % 60'000;
    return run(*upsertMinute,
               {text(latest.sandbox), text(latest.host), minuteMs, allowed ? totals.count : 0,
                allowed ? 0 : totals.count, totals.bytesUp, totals.bytesDown},
               "write to");
}

bool EventStore::Private::storeRefusalGroup(const GroupTotals &totals)
{
    const NetworkEvent &latest = *totals.latest;
    return run(*upsertRefusalGroup,
               {outcomeToken(latest.outcome), text(latest.sandbox), text(latest.host), int(latest.port),
                text(latest.rule), text(latest.kit), text(latest.protocol), text(latest.reason), totals.count,
                totals.lastMs, text(latest.program), text(latest.command), text(latest.written)},
               "write to");
}

bool EventStore::Private::deleteOldest(const QString &table, const QString &orderColumn, qint64 rows)
{
    if (rows <= 0)
        return true;
    const QString oldest =
        QStringLiteral("rowid IN (SELECT rowid FROM %1 ORDER BY %2, rowid LIMIT ?)").arg(table, orderColumn);
    if (table == QLatin1String("events"))
        return deleteEvents(oldest, {rows});
    QSqlQuery query(db);
    return run(query, QStringLiteral("DELETE FROM %1 WHERE %2").arg(table, oldest), {rows}, "trim");
}

// Deletes the events matching @p condition and takes them out of their groups' counts, so the
// summary always equals what a GROUP BY over the events would say. Call inside a transaction.
bool EventStore::Private::deleteEvents(const QString &condition, const QVariantList &values)
{
    const QString statements[] = {
        QStringLiteral("UPDATE refusal_groups SET count = count - gone.n FROM"
                       " (SELECT outcome, sandbox, host, port, rule, SUM(repeats) AS n FROM events WHERE %1"
                       "  GROUP BY outcome, sandbox, host, port, rule) AS gone"
                       " WHERE refusal_groups.outcome = gone.outcome AND refusal_groups.sandbox = gone.sandbox"
                       " AND refusal_groups.host = gone.host AND refusal_groups.port = gone.port"
                       " AND refusal_groups.rule = gone.rule")
            .arg(condition),
        QStringLiteral("DELETE FROM refusal_groups WHERE count <= 0"),
        QStringLiteral("DELETE FROM events WHERE %1").arg(condition),
    };
    for (const QString &sql : statements) {
        QSqlQuery query(db);
        if (!run(query, sql, sql.contains(QLatin1Char('?')) ? values : QVariantList(), "trim"))
            return false;
    }
    return true;
}

bool EventStore::write(const QList<NetworkEvent> &events)
{
    if (!isOpen())
        return d->notOpen();
    if (events.isEmpty())
        return true;

    // Events are summed per group here first, so a burst to one host costs one upsert; refusals
    // are also stored one row each.
    GroupedBatch batch;
    if (!d->begin("write to"))
        return false;
    for (const NetworkEvent &event : events) {
        const qint64 ms = event.time.isValid() ? event.time.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
        if (event.request) { // a request record: its own table, not the connection counts
            if (!d->storeRequest(event, ms)) {
                d->rollback();
                return false;
            }
            continue;
        }
        batch.add(event, ms);
        if (event.outcome != NetworkEvent::Outcome::Allowed && !d->storeRefusal(event, ms)) {
            d->rollback();
            return false;
        }
    }
    for (const GroupTotals &totals : batch.allowed()) {
        if (!d->storeAllowedGroup(totals) || !d->storeMinute(totals)) {
            d->rollback();
            return false;
        }
    }
    for (const GroupTotals &totals : batch.refused()) {
        if (!d->storeRefusalGroup(totals) || !d->storeMinute(totals)) {
            d->rollback();
            return false;
        }
    }
    return d->commit("write to");
}

qint64 EventStore::usedBytes() const
{
    if (!isOpen())
        return 0;
    const auto pages = d->scalar(QStringLiteral("PRAGMA page_count"), "measure");
    const auto freePages = d->scalar(QStringLiteral("PRAGMA freelist_count"), "measure");
    const auto pageSize = d->scalar(QStringLiteral("PRAGMA page_size"), "measure");
    if (!pages || !freePages || !pageSize)
        return 0;
    return (pages->toLongLong() - freePages->toLongLong()) * pageSize->toLongLong();
}

// Deletes what is older than @p cutoff in one transaction; sets @p deleted when something went.
bool EventStore::Private::trimByAge(qint64 cutoff, bool *deleted)
{
    if (!begin("trim"))
        return false;
    QSqlQuery query(db);
    query.prepare(QStringLiteral("DELETE FROM allowed WHERE last_ms < ?"));
    query.addBindValue(cutoff);
    const auto expired = scalar(QStringLiteral("SELECT COUNT(*) FROM events WHERE time_ms < %1").arg(cutoff), "trim");
    if (!expired || !query.exec() || !deleteEvents(QStringLiteral("time_ms < ?"), {cutoff})) {
        if (query.lastError().isValid())
            failQuery(query.lastError(), "trim");
        rollback();
        return false;
    }
    *deleted = expired->toLongLong() > 0 || query.numRowsAffected() > 0;
    QSqlQuery minutes(db);
    if (!run(minutes, QStringLiteral("DELETE FROM activity_minutes WHERE minute_ms < ?"), {cutoff}, "trim")) {
        rollback();
        return false;
    }
    *deleted = *deleted || minutes.numRowsAffected() > 0;
    if (!expireRequests(cutoff, deleted)) {
        rollback();
        return false;
    }
    return commit("trim");
}

bool EventStore::applyRetention(const QDateTime &now)
{
    if (!isOpen())
        return d->notOpen();
    const RetentionPolicy &policy = d->retention;
    bool deleted = false;

    if (policy.maxAge.count() > 0) {
        const qint64 nowMs = now.isValid() ? now.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
        const qint64 cutoff = nowMs - qint64(policy.maxAge.count()) * 1000;
        if (!d->trimByAge(cutoff, &deleted))
            return false;
    }

    if (policy.maxBytes > 0) {
        // Trim to 90% of the limit so the next few batches do not trigger another pass.
        const qint64 target = policy.maxBytes / 10 * 9;
        qint64 used = usedBytes();
        for (int pass = 0; pass < 16 && used > policy.maxBytes; ++pass) {
            const auto events = d->scalar(QStringLiteral("SELECT COUNT(*) FROM events"), "measure");
            const auto aggregates = d->scalar(QStringLiteral("SELECT COUNT(*) FROM allowed"), "measure");
            const auto requests = d->scalar(QStringLiteral("SELECT COUNT(*) FROM requests"), "measure");
            const auto minutes = d->scalar(QStringLiteral("SELECT COUNT(*) FROM activity_minutes"), "measure");
            if (!events || !aggregates || !requests || !minutes)
                return false;
            if (events->toLongLong() + aggregates->toLongLong() + requests->toLongLong() + minutes->toLongLong() == 0)
                break;
            // Rows are about the same size, so the share of bytes to free is the share of rows.
            const double share = double(used - target) / double(used);
            const auto rowsFor = [share](qint64 rows) { return qint64(std::ceil(double(rows) * share)); };
            if (!d->begin("trim"))
                return false;
            if (!d->deleteOldest(QStringLiteral("events"), QStringLiteral("time_ms"), rowsFor(events->toLongLong())) ||
                !d->deleteOldest(QStringLiteral("allowed"), QStringLiteral("last_ms"),
                                 rowsFor(aggregates->toLongLong())) ||
                !d->deleteOldest(QStringLiteral("requests"), QStringLiteral("time_ms"),
                                 rowsFor(requests->toLongLong())) ||
                !d->deleteOldest(QStringLiteral("activity_minutes"), QStringLiteral("minute_ms"),
                                 rowsFor(minutes->toLongLong()))) {
                d->rollback();
                return false;
            }
            if (!d->commit("trim"))
                return false;
            deleted = true;
            used = usedBytes();
        }
    }

    if (deleted) {
        // Fold the WAL into the file so the space counted above is what the disk holds.
        QSqlQuery checkpoint(d->db);
        checkpoint.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    // Freed pages are reused by later writes, so a file that reached its limit stays there;
    // only when it is larger than the limit (the limit was lowered) is it rebuilt smaller.
    if (policy.maxBytes > 0 && QFileInfo(d->path).size() > policy.maxBytes) {
        if (!d->exec(QStringLiteral("VACUUM"), "compact"))
            return false;
        QSqlQuery checkpoint(d->db);
        checkpoint.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    return true;
}

} // namespace paddock::events
