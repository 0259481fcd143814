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
    QString sql = QStringLiteral("SELECT time_ms, sandbox, kit, host, port, protocol, method, path, status, outcome,"
                                 " rule, reason, bytes_up, bytes_down, duration_ms, pid, program, exe, command, written"
                                 " FROM requests WHERE 1");
    QVariantList values;
    const auto andIf = [&](bool wanted, QLatin1String clause, const QVariant &value) {
        if (wanted) {
            sql += clause;
            values << value;
        }
    };
    andIf(!filter.sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), filter.sandbox);
    andIf(!filter.host.isEmpty(), QLatin1String(" AND host = ?"), filter.host);
    andIf(filter.since.isValid(), QLatin1String(" AND time_ms >= ?"), filter.since.toMSecsSinceEpoch());
    sql += filter.newestFirst ? QStringLiteral(" ORDER BY time_ms DESC, id DESC LIMIT ?")
                              : QStringLiteral(" ORDER BY time_ms, id LIMIT ?");
    values << (filter.limit > 0 ? qint64(filter.limit) : qint64(-1));

    QSqlQuery query(d->db);
    query.setForwardOnly(true);
    if (!d->run(query, sql, values, "read"))
        return false;
    while (query.next()) {
        NetworkEvent event;
        event.time = detail::fromMs(query.value(0).toLongLong());
        event.sandbox = query.value(1).toString();
        event.kit = query.value(2).toString();
        event.host = query.value(3).toString();
        event.port = quint16(query.value(4).toUInt());
        event.protocol = query.value(5).toString();
        event.request = RequestDetail{query.value(6).toString(), query.value(7).toString(), query.value(8).toInt(),
                                      query.value(14).toLongLong()};
        event.outcome = outcomeFromToken(query.value(9).toString()).value_or(NetworkEvent::Outcome::Denied);
        event.rule = query.value(10).toString();
        event.reason = query.value(11).toString();
        event.bytesUp = query.value(12).toLongLong();
        event.bytesDown = query.value(13).toLongLong();
        event.pid = query.value(15).toLongLong();
        event.program = query.value(16).toString();
        event.exe = query.value(17).toString();
        event.command = query.value(18).toString();
        event.written = query.value(19).toString();
        if (!sink(event))
            break;
    }
    const QSqlError error = query.lastError();
    query.finish(); // ends the read transaction at once
    if (error.isValid())
        return d->failQuery(error, "read");
    return true;
}

} // namespace paddock::events
