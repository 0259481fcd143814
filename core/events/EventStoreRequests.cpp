// SPDX-License-Identifier: GPL-3.0-or-later
// Request records: one row per HTTP request the proxy saw into, kept as long as the events.
#include "events/EventStorePrivate.h"

namespace paddock::events {

using namespace detail;

bool EventStore::Private::prepareRequestStatements()
{
    insertRequest.emplace(db);
    if (insertRequest->prepare(QStringLiteral(
            "INSERT INTO requests (time_ms, sandbox, kit, host, port, protocol, method, path, status, outcome, rule,"
            " reason, bytes_up, bytes_down, duration_ms, pid, program, exe, command, written)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")))
        return true;
    return failQuery(insertRequest->lastError(), "prepare");
}

bool EventStore::Private::storeRequest(const NetworkEvent &event, qint64 ms)
{
    const RequestDetail &request = *event.request;
    return run(*insertRequest,
               {ms,
                text(event.sandbox),
                text(event.kit),
                text(event.host),
                int(event.port),
                text(event.protocol),
                text(request.method),
                text(request.path),
                request.status,
                outcomeToken(event.outcome),
                text(event.rule),
                text(event.reason),
                event.bytesUp,
                event.bytesDown,
                request.durationMs,
                event.pid,
                text(event.program),
                text(event.exe),
                text(event.command),
                text(event.written)},
               "write to");
}

bool EventStore::Private::expireRequests(qint64 cutoffMs, bool *deleted)
{
    QSqlQuery query(db);
    if (!run(query, QStringLiteral("DELETE FROM requests WHERE time_ms < ?"), {cutoffMs}, "trim"))
        return false;
    *deleted = *deleted || query.numRowsAffected() > 0;
    return true;
}

bool EventStore::forEachRequest(const RequestFilter &filter,
                                const std::function<bool(const NetworkEvent &)> &sink) const
{
    if (!isOpen())
        return d->notOpen();
    Statement statement{QStringLiteral("SELECT %1, method, path, status, duration_ms FROM requests WHERE 1")
                            .arg(QLatin1String(kEventColumns)),
                        {}};
    statement.andIf(!filter.sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), filter.sandbox);
    statement.andIf(!filter.host.isEmpty(), QLatin1String(" AND host = ?"), filter.host);
    statement.andIf(filter.since.isValid(), QLatin1String(" AND time_ms >= ?"), filter.since.toMSecsSinceEpoch());
    statement.andIf(filter.until.isValid(), QLatin1String(" AND time_ms < ?"), filter.until.toMSecsSinceEpoch());
    statement.sql += filter.newestFirst ? QStringLiteral(" ORDER BY time_ms DESC, id DESC")
                                        : QStringLiteral(" ORDER BY time_ms, id");
    statement.limit(filter.limit);
    return d->forEachRow(statement, [&sink](const QSqlQuery &query) {
        NetworkEvent event = eventOf(query);
        const int own = kEventColumnCount;
        event.request = RequestDetail{query.value(own).toString(), query.value(own + 1).toString(),
                                      query.value(own + 2).toInt(), query.value(own + 3).toLongLong()};
        return sink(event);
    });
}

} // namespace paddock::events
