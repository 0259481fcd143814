// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace paddock::events {

/**
 * @brief Which activity to sum (the Network page's timeline and top destinations, the
 * sandboxes' sparklines): a window of equal time buckets that ends at the bucket holding
 * `until`.
 */
struct ActivityFilter
{
    QString sandbox;          ///< empty: every sandbox
    QDateTime until;          ///< invalid: now
    qint64 bucketMs = 60'000; ///< a whole number of minutes (allowed connections are kept per minute)
    int buckets = 60;         ///< at most kMaxActivityBuckets
    int hostLimit = 20;       ///< top destinations returned; 0: none; at most kMaxActivityHosts
    bool perSandbox = false;  ///< also the buckets of each sandbox, at most kMaxActivitySandboxes
};

inline constexpr int kMaxActivityBuckets = 240;
inline constexpr int kMaxActivityHosts = 100;
inline constexpr int kMaxActivitySandboxes = 500;

/** @brief Connections in one time bucket. */
struct ActivityBucket
{
    qint64 allowed = 0; ///< let through (by a rule or by learning mode)
    qint64 refused = 0;
};

/** @brief One destination over the whole window. */
struct ActivityHost
{
    QString host;
    qint64 allowed = 0;
    qint64 refused = 0;
    qint64 bytesUp = 0; ///< of allowed connections (a refusal carries none)
    qint64 bytesDown = 0;
    /** The latest refusal's sandbox, port and kit, what allowing the host needs; empty when none. */
    QString refusedSandbox;
    quint16 refusedPort = 0;
    QString refusedKit;
};

/** @brief What EventStore::activity() sums: buckets oldest first, hosts busiest first. */
struct Activity
{
    QDateTime start; ///< the first bucket's start
    qint64 bucketMs = 0;
    QList<ActivityBucket> buckets;
    QList<ActivityHost> hosts;
    int hostCount = 0;                               ///< destinations in the window, those left out of `hosts` too
    QHash<QString, QList<ActivityBucket>> sandboxes; ///< when asked per sandbox
    bool sandboxesTruncated = false;
};

/**
 * The form `events.activity` answers: {start, bucketMs, buckets: [[allowed, refused]...],
 * hosts: [{host, allowed, refused, bytesUp, bytesDown, refusedSandbox, refusedPort,
 * refusedKit}], hostCount, sandboxes?: {name: [[allowed, refused]...]}, sandboxesTruncated?}.
 */
QJsonObject toJson(const Activity &activity);
/** Reads what toJson() wrote, within the same bounds; what is missing or malformed is left out. */
Activity activityFromJson(const QJsonObject &json);

} // namespace paddock::events
