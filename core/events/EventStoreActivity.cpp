// SPDX-License-Identifier: GPL-3.0-or-later
// Activity summed in SQL from the minutes of activity_minutes: connections per time bucket, per
// destination and per sandbox, over a bounded window, so a reader gets a few hundred numbers
// whatever the log holds.
#include "events/EventStorePrivate.h"

#include <algorithm>

namespace paddock::events {
namespace {

using detail::Statement;

/** The window asked for, its bounds made safe. */
struct Window
{
    qint64 startMs = 0;
    qint64 endMs = 0;
    qint64 bucketMs = 60'000;
    int buckets = 1;
    QString sandbox;
};

Window windowOf(const ActivityFilter &filter)
{
    Window window;
    constexpr qint64 minute = 60'000;
    window.bucketMs = std::clamp<qint64>(filter.bucketMs / minute, 1, 24 * 60) * minute;
    window.buckets = std::clamp(filter.buckets, 1, kMaxActivityBuckets);
    const qint64 untilMs =
        filter.until.isValid() ? filter.until.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
    window.endMs = (untilMs / window.bucketMs + 1) * window.bucketMs;
    window.startMs = window.endMs - window.bucketMs * window.buckets;
    window.sandbox = filter.sandbox;
    return window;
}

/**
 * The window's minutes as columns sandbox, host, t, a (allowed), r (refused), up, down, each
 * row one sandbox's connections to one host in one minute (a refusal's repeats counted).
 */
Statement connections(const Window &window, const QString &select, const QString &tail)
{
    Statement statement{select + QStringLiteral(" FROM (SELECT sandbox, host, minute_ms AS t, allowed AS a,"
                                                " refused AS r, bytes_up AS up, bytes_down AS down"
                                                " FROM activity_minutes WHERE minute_ms >= ? AND minute_ms < ?"),
                        {}};
    statement.values << window.startMs << window.endMs;
    statement.andIf(!window.sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), window.sandbox);
    statement.sql += QLatin1String(")") + tail;
    return statement;
}

/** The bucket column: which bucket t falls in (its two values bound first). */
QString bucketColumn(const Window &window)
{
    return QStringLiteral("(t - %1) / %2").arg(window.startMs).arg(window.bucketMs);
}

void addTo(QList<ActivityBucket> *buckets, qint64 index, const QSqlQuery &query, int firstColumn)
{
    if (index < 0 || index >= buckets->size())
        return;
    (*buckets)[index].allowed += query.value(firstColumn).toLongLong();
    (*buckets)[index].refused += query.value(firstColumn + 1).toLongLong();
}

} // namespace

using namespace detail;

bool EventStore::Private::readActivityBuckets(const ActivityFilter &filter, Activity *out)
{
    const Window window = windowOf(filter);
    out->start = fromMs(window.startMs);
    out->bucketMs = window.bucketMs;
    out->buckets = QList<ActivityBucket>(window.buckets);
    const QString bucket = bucketColumn(window);
    if (!forEachRow(connections(window, QStringLiteral("SELECT %1 AS b, SUM(a), SUM(r)").arg(bucket),
                                QStringLiteral(" GROUP BY b")),
                    [out](const QSqlQuery &query) {
                        addTo(&out->buckets, query.value(0).toLongLong(), query, 1);
                        return true;
                    }))
        return false;
    if (!filter.perSandbox)
        return true;
    return forEachRow(connections(window, QStringLiteral("SELECT sandbox, %1 AS b, SUM(a), SUM(r)").arg(bucket),
                                  QStringLiteral(" GROUP BY sandbox, b ORDER BY sandbox")),
                      [out, &window](const QSqlQuery &query) {
                          const QString sandbox = query.value(0).toString();
                          auto it = out->sandboxes.find(sandbox);
                          if (it == out->sandboxes.end()) {
                              if (out->sandboxes.size() >= kMaxActivitySandboxes) {
                                  out->sandboxesTruncated = true;
                                  return false;
                              }
                              it = out->sandboxes.insert(sandbox, QList<ActivityBucket>(window.buckets));
                          }
                          addTo(&it.value(), query.value(1).toLongLong(), query, 2);
                          return true;
                      });
}

bool EventStore::Private::readActivityHosts(const ActivityFilter &filter, Activity *out)
{
    const Window window = windowOf(filter);
    const int limit = std::clamp(filter.hostLimit, 0, kMaxActivityHosts);
    if (limit == 0)
        return true;
    // COUNT(*) OVER () counts the groups: the destinations of the window, those left out too.
    Statement busiest =
        connections(window, QStringLiteral("SELECT host, SUM(a), SUM(r), SUM(up), SUM(down), COUNT(*) OVER ()"),
                    QStringLiteral(" GROUP BY host ORDER BY SUM(a) + SUM(r) DESC, host"));
    busiest.limit(limit);
    if (!forEachRow(busiest, [out](const QSqlQuery &query) {
            ActivityHost host;
            host.host = query.value(0).toString();
            host.allowed = query.value(1).toLongLong();
            host.refused = query.value(2).toLongLong();
            host.bytesUp = query.value(3).toLongLong();
            host.bytesDown = query.value(4).toLongLong();
            out->hostCount = query.value(5).toInt();
            out->hosts.append(host);
            return true;
        }))
        return false;
    for (ActivityHost &host : out->hosts) {
        if (host.refused == 0)
            continue;
        Statement latest{QStringLiteral("SELECT sandbox, port, kit FROM refusal_groups"
                                        " WHERE outcome = 'denied' AND host = ?"),
                         {host.host}};
        latest.andIf(!window.sandbox.isEmpty(), QLatin1String(" AND sandbox = ?"), window.sandbox);
        latest.sql += QLatin1String(" ORDER BY last_ms DESC");
        latest.limit(1);
        if (!forEachRow(latest, [&host](const QSqlQuery &query) {
                host.refusedSandbox = query.value(0).toString();
                host.refusedPort = quint16(query.value(1).toUInt());
                host.refusedKit = query.value(2).toString();
                return false;
            }))
            return false;
    }
    return true;
}

Activity EventStore::activity(const ActivityFilter &filter, bool *ok) const
{
    Activity result;
    bool read = isOpen() ? true : d->notOpen();
    read = read && d->readActivityBuckets(filter, &result) && d->readActivityHosts(filter, &result);
    if (ok)
        *ok = read;
    return result;
}

} // namespace paddock::events
