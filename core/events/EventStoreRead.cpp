// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the event log: the policy log's sections, the stored events and counts.
#include "events/EventStorePrivate.h"

namespace paddock::events {

using namespace detail;

void EventStore::Private::readRefusalGroups(NetworkEvent::Outcome outcome, const LogFilter &filter,
                                            QList<BlockedEntry> *out)
{
    // Without `since`, the summary kept at write time answers; with it, only the refusals
    // since then are grouped (SQLite takes the bare columns from the row holding
    // MAX(time_ms), so each line shows the most recent reason).
    QString sql = filter.since.isValid()
                      ? QStringLiteral("SELECT host, port, sandbox, kit, protocol, rule, reason, COUNT(*),"
                                       " MAX(time_ms) AS last FROM events WHERE outcome = ? AND time_ms >= ?")
                      : QStringLiteral("SELECT host, port, sandbox, kit, protocol, rule, reason, count,"
                                       " last_ms AS last FROM refusal_groups WHERE outcome = ?");
    QVariantList values{outcomeToken(outcome)};
    if (filter.since.isValid())
        values << filter.since.toMSecsSinceEpoch();
    if (!filter.sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << filter.sandbox;
    }
    if (filter.since.isValid())
        sql += QStringLiteral(" GROUP BY sandbox, host, port, rule");
    sql += QStringLiteral(" ORDER BY last DESC, host LIMIT ?");
    values << (filter.limit > 0 ? qint64(filter.limit) : qint64(-1));
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!run(query, sql, values, "read"))
        return;
    while (query.next()) {
        BlockedEntry entry;
        entry.host = query.value(0).toString();
        entry.port = quint16(query.value(1).toUInt());
        entry.sandbox = query.value(2).toString();
        entry.kit = query.value(3).toString();
        entry.protocol = query.value(4).toString();
        entry.rule = query.value(5).toString();
        entry.reason = query.value(6).toString();
        entry.count = query.value(7).toLongLong();
        entry.lastSeen = fromMs(query.value(8).toLongLong());
        out->append(entry);
    }
}

void EventStore::Private::readAllowed(const LogFilter &filter, QList<AllowedEntry> *out)
{
    QString sql = QStringLiteral("SELECT host, port, sandbox, kit, rule, count, first_ms, last_ms, bytes_up,"
                                 " bytes_down FROM allowed WHERE 1");
    QVariantList values;
    if (!filter.sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << filter.sandbox;
    }
    if (filter.since.isValid()) {
        sql += QStringLiteral(" AND last_ms >= ?");
        values << filter.since.toMSecsSinceEpoch();
    }
    sql += QStringLiteral(" ORDER BY last_ms DESC, host LIMIT ?");
    values << (filter.limit > 0 ? qint64(filter.limit) : qint64(-1));
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!run(query, sql, values, "read"))
        return;
    while (query.next()) {
        AllowedEntry entry;
        entry.host = query.value(0).toString();
        entry.port = quint16(query.value(1).toUInt());
        entry.sandbox = query.value(2).toString();
        entry.kit = query.value(3).toString();
        entry.rule = query.value(4).toString();
        entry.count = query.value(5).toLongLong();
        entry.firstSeen = fromMs(query.value(6).toLongLong());
        entry.lastSeen = fromMs(query.value(7).toLongLong());
        entry.bytesUp = query.value(8).toLongLong();
        entry.bytesDown = query.value(9).toLongLong();
        out->append(entry);
    }
}

PolicyLog EventStore::log(const LogFilter &filter) const
{
    PolicyLog result;
    if (!isOpen())
        return result;
    d->readRefusalGroups(NetworkEvent::Outcome::Denied, filter, &result.blocked);
    d->readRefusalGroups(NetworkEvent::Outcome::UpstreamFailed, filter, &result.failed);
    d->readAllowed(filter, &result.allowed);
    return result;
}

bool EventStore::forEachEvent(const EventFilter &filter, const std::function<bool(const NetworkEvent &)> &sink) const
{
    if (!isOpen())
        return d->notOpen();
    QString sql = QStringLiteral("SELECT time_ms, sandbox, kit, host, port, protocol, outcome, rule, reason,"
                                 " bytes_up, bytes_down FROM events WHERE ");
    QVariantList values{outcomeToken(NetworkEvent::Outcome::Denied)};
    if (filter.includeUpstreamFailures)
        values << outcomeToken(NetworkEvent::Outcome::UpstreamFailed);
    if (filter.includeLearned)
        values << outcomeToken(NetworkEvent::Outcome::Learned);
    sql += QStringLiteral("outcome IN (?%1)").arg(QStringLiteral(", ?").repeated(values.size() - 1));
    if (!filter.sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << filter.sandbox;
    }
    if (filter.since.isValid()) {
        sql += QStringLiteral(" AND time_ms >= ?");
        values << filter.since.toMSecsSinceEpoch();
    }
    if (filter.until.isValid()) {
        sql += QStringLiteral(" AND time_ms < ?");
        values << filter.until.toMSecsSinceEpoch();
    }
    sql += filter.newestFirst ? QStringLiteral(" ORDER BY time_ms DESC, id DESC")
                              : QStringLiteral(" ORDER BY time_ms, id");
    sql += QStringLiteral(" LIMIT ?");
    values << (filter.limit > 0 ? qint64(filter.limit) : qint64(-1));

    // Forward-only: rows come from SQLite one at a time instead of being cached by Qt.
    QSqlQuery query(d->db);
    query.setForwardOnly(true);
    if (!d->run(query, sql, values, "read"))
        return false;
    while (query.next()) {
        NetworkEvent event;
        event.time = fromMs(query.value(0).toLongLong());
        event.sandbox = query.value(1).toString();
        event.kit = query.value(2).toString();
        event.host = query.value(3).toString();
        event.port = quint16(query.value(4).toUInt());
        event.protocol = query.value(5).toString();
        event.outcome = outcomeFromToken(query.value(6).toString()).value_or(NetworkEvent::Outcome::Denied);
        event.rule = query.value(7).toString();
        event.reason = query.value(8).toString();
        event.bytesUp = query.value(9).toLongLong();
        event.bytesDown = query.value(10).toLongLong();
        if (!sink(event))
            break;
    }
    const QSqlError error = query.lastError();
    // Ends the read transaction at once, so a long-lived store does not pin the WAL.
    query.finish();
    if (error.isValid())
        return d->failQuery(error, "read");
    return true;
}

qint64 EventStore::countDenials(const QString &sandbox, const QDateTime &since) const
{
    if (!isOpen())
        return 0;
    QString sql = QStringLiteral("SELECT COUNT(*) FROM events WHERE outcome = ?");
    QVariantList values{outcomeToken(NetworkEvent::Outcome::Denied)};
    if (!sandbox.isEmpty()) {
        sql += QStringLiteral(" AND sandbox = ?");
        values << sandbox;
    }
    if (since.isValid()) {
        sql += QStringLiteral(" AND time_ms >= ?");
        values << since.toMSecsSinceEpoch();
    }
    QSqlQuery query(d->db);
    if (!d->run(query, sql, values, "read"))
        return 0;
    return query.next() ? query.value(0).toLongLong() : 0;
}

} // namespace paddock::events
