// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the event log: the policy log's sections, the stored events and counts.
#include "events/EventStorePrivate.h"

namespace paddock::events {
namespace {

using detail::Statement;

/** The columns both sections of the policy log start with: host, port, sandbox, kit. */
template<typename Entry>
Entry placeOf(const QSqlQuery &query)
{
    Entry entry;
    entry.host = query.value(0).toString();
    entry.port = quint16(query.value(1).toUInt());
    entry.sandbox = query.value(2).toString();
    entry.kit = query.value(3).toString();
    return entry;
}

BlockedEntry blockedEntryOf(const QSqlQuery &query)
{
    auto entry = placeOf<BlockedEntry>(query);
    entry.protocol = query.value(4).toString();
    entry.rule = query.value(5).toString();
    entry.reason = query.value(6).toString();
    entry.count = query.value(7).toLongLong();
    entry.lastSeen = detail::fromMs(query.value(8).toLongLong());
    entry.program = query.value(9).toString();
    entry.command = query.value(10).toString();
    entry.written = query.value(11).toString();
    return entry;
}

AllowedEntry allowedEntryOf(const QSqlQuery &query)
{
    auto entry = placeOf<AllowedEntry>(query);
    entry.rule = query.value(4).toString();
    entry.count = query.value(5).toLongLong();
    entry.firstSeen = detail::fromMs(query.value(6).toLongLong());
    entry.lastSeen = detail::fromMs(query.value(7).toLongLong());
    entry.bytesUp = query.value(8).toLongLong();
    entry.bytesDown = query.value(9).toLongLong();
    return entry;
}

} // namespace

using namespace detail;

NetworkEvent detail::eventOf(const QSqlQuery &query)
{
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
    event.pid = query.value(11).toLongLong();
    event.program = query.value(12).toString();
    event.exe = query.value(13).toString();
    event.command = query.value(14).toString();
    event.written = query.value(15).toString();
    return event;
}

bool EventStore::Private::forEachRow(const Statement &statement, const std::function<bool(const QSqlQuery &)> &row)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!run(query, statement.sql, statement.values, "read"))
        return false;
    while (query.next()) {
        if (!row(query))
            break;
    }
    const QSqlError problem = query.lastError();
    query.finish();
    return problem.isValid() ? failQuery(problem, "read") : true;
}

template<typename Entry>
void EventStore::Private::selectInto(const QString &sql, const QVariantList &values, Entry (*rowOf)(const QSqlQuery &),
                                     QList<Entry> *out)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!run(query, sql, values, "read"))
        return;
    while (query.next())
        out->append(rowOf(query));
}

void EventStore::Private::readRefusalGroups(NetworkEvent::Outcome outcome, const LogFilter &filter,
                                            QList<BlockedEntry> *out)
{
    // Without `since`, the summary kept at write time answers; with it, only the refusals
    // since then are grouped (SQLite takes the bare columns from the row holding
    // MAX(time_ms), so each line shows the most recent reason).
    Statement statement{filter.since.isValid()
                            ? QStringLiteral("SELECT host, port, sandbox, kit, protocol, rule, reason, SUM(repeats),"
                                             " MAX(time_ms) AS last, program, command, written FROM events"
                                             " WHERE outcome = ? AND time_ms >= ?")
                            : QStringLiteral("SELECT host, port, sandbox, kit, protocol, rule, reason, count,"
                                             " last_ms AS last, program, command, written FROM refusal_groups"
                                             " WHERE outcome = ?"),
                        {outcomeToken(outcome)}};
    if (filter.since.isValid())
        statement.values << filter.since.toMSecsSinceEpoch();
    statement.andIf(!filter.sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), filter.sandbox);
    if (filter.since.isValid())
        statement.sql += QStringLiteral(" GROUP BY sandbox, host, port, rule");
    statement.sql += QStringLiteral(" ORDER BY last DESC, host");
    statement.limit(filter.limit);
    selectInto(statement.sql, statement.values, blockedEntryOf, out);
}

void EventStore::Private::readAllowed(const LogFilter &filter, QList<AllowedEntry> *out)
{
    Statement statement{QStringLiteral("SELECT host, port, sandbox, kit, rule, count, first_ms, last_ms, bytes_up,"
                                       " bytes_down FROM allowed WHERE 1"),
                        {}};
    statement.andIf(!filter.sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), filter.sandbox);
    statement.andIf(filter.since.isValid(), QLatin1String(" AND last_ms >= ?"), filter.since.toMSecsSinceEpoch());
    statement.sql += QStringLiteral(" ORDER BY last_ms DESC, host");
    statement.limit(filter.limit);
    selectInto(statement.sql, statement.values, allowedEntryOf, out);
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
    Statement statement{QStringLiteral("SELECT %1, repeats FROM events WHERE ").arg(QLatin1String(kEventColumns)),
                        {outcomeToken(NetworkEvent::Outcome::Denied)}};
    if (filter.includeUpstreamFailures)
        statement.values << outcomeToken(NetworkEvent::Outcome::UpstreamFailed);
    if (filter.includeLearned)
        statement.values << outcomeToken(NetworkEvent::Outcome::Learned);
    statement.sql +=
        QStringLiteral("outcome IN (?%1)").arg(QStringLiteral(", ?").repeated(statement.values.size() - 1));
    statement.andIf(!filter.sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), filter.sandbox);
    statement.andIf(filter.since.isValid(), QLatin1String(" AND time_ms >= ?"), filter.since.toMSecsSinceEpoch());
    statement.andIf(filter.until.isValid(), QLatin1String(" AND time_ms < ?"), filter.until.toMSecsSinceEpoch());
    statement.sql += filter.newestFirst ? QStringLiteral(" ORDER BY time_ms DESC, id DESC")
                                        : QStringLiteral(" ORDER BY time_ms, id");
    statement.limit(filter.limit);
    statement.andIf(filter.offset > 0, QLatin1String(" OFFSET ?"), filter.offset);
    return d->forEachRow(statement, [&sink](const QSqlQuery &query) {
        NetworkEvent event = eventOf(query);
        event.repeats = query.value(kEventColumnCount).toLongLong();
        return sink(event);
    });
}

qint64 EventStore::countDenials(const QString &sandbox, const QDateTime &since) const
{
    if (!isOpen())
        return 0;
    Statement statement{QStringLiteral("SELECT COALESCE(SUM(repeats), 0) FROM events WHERE outcome = ?"),
                        {outcomeToken(NetworkEvent::Outcome::Denied)}};
    statement.andIf(!sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), sandbox);
    statement.andIf(since.isValid(), QLatin1String(" AND time_ms >= ?"), since.toMSecsSinceEpoch());
    QSqlQuery query(d->db);
    if (!d->run(query, statement.sql, statement.values, "read"))
        return 0;
    return query.next() ? query.value(0).toLongLong() : 0;
}

} // namespace paddock::events
