// SPDX-License-Identifier: GPL-3.0-or-later
#include "events/Activity.h"

#include <QJsonArray>

#include <algorithm>

namespace paddock::events {
namespace {

QJsonArray bucketsToJson(const QList<ActivityBucket> &buckets)
{
    QJsonArray array;
    for (const ActivityBucket &bucket : buckets)
        array.append(QJsonArray{double(bucket.allowed), double(bucket.refused)});
    return array;
}

qint64 count(const QJsonValue &value)
{
    return std::max<qint64>(0, qint64(value.toDouble()));
}

QList<ActivityBucket> bucketsFromJson(const QJsonArray &array)
{
    QList<ActivityBucket> buckets;
    for (const QJsonValue &value : array) {
        if (buckets.size() >= kMaxActivityBuckets)
            break;
        const QJsonArray pair = value.toArray();
        buckets.append({count(pair.at(0)), count(pair.at(1))});
    }
    return buckets;
}

} // namespace

QJsonObject toJson(const Activity &activity)
{
    QJsonArray hosts;
    for (const ActivityHost &host : activity.hosts) {
        hosts.append(QJsonObject{{QStringLiteral("host"), host.host},
                                 {QStringLiteral("allowed"), double(host.allowed)},
                                 {QStringLiteral("refused"), double(host.refused)},
                                 {QStringLiteral("bytesUp"), double(host.bytesUp)},
                                 {QStringLiteral("bytesDown"), double(host.bytesDown)},
                                 {QStringLiteral("refusedSandbox"), host.refusedSandbox},
                                 {QStringLiteral("refusedPort"), int(host.refusedPort)},
                                 {QStringLiteral("refusedKit"), host.refusedKit}});
    }
    QJsonObject json{{QStringLiteral("start"), activity.start.toUTC().toString(Qt::ISODateWithMs)},
                     {QStringLiteral("bucketMs"), double(activity.bucketMs)},
                     {QStringLiteral("buckets"), bucketsToJson(activity.buckets)},
                     {QStringLiteral("hosts"), hosts},
                     {QStringLiteral("hostCount"), activity.hostCount}};
    if (!activity.sandboxes.isEmpty() || activity.sandboxesTruncated) {
        QJsonObject sandboxes;
        for (auto it = activity.sandboxes.cbegin(); it != activity.sandboxes.cend(); ++it)
            sandboxes.insert(it.key(), bucketsToJson(it.value()));
        json.insert(QStringLiteral("sandboxes"), sandboxes);
        json.insert(QStringLiteral("sandboxesTruncated"), activity.sandboxesTruncated);
    }
    return json;
}

Activity activityFromJson(const QJsonObject &json)
{
    Activity activity;
    activity.start = QDateTime::fromString(json.value(QLatin1String("start")).toString(), Qt::ISODateWithMs);
    activity.bucketMs = count(json.value(QLatin1String("bucketMs")));
    activity.buckets = bucketsFromJson(json.value(QLatin1String("buckets")).toArray());
    for (const QJsonValue &value : json.value(QLatin1String("hosts")).toArray()) {
        const QJsonObject object = value.toObject();
        ActivityHost host;
        host.host = object.value(QLatin1String("host")).toString().left(255);
        if (host.host.isEmpty() || activity.hosts.size() >= kMaxActivityHosts)
            continue;
        host.allowed = count(object.value(QLatin1String("allowed")));
        host.refused = count(object.value(QLatin1String("refused")));
        host.bytesUp = count(object.value(QLatin1String("bytesUp")));
        host.bytesDown = count(object.value(QLatin1String("bytesDown")));
        host.refusedSandbox = object.value(QLatin1String("refusedSandbox")).toString().left(255);
        host.refusedPort = quint16(std::clamp(object.value(QLatin1String("refusedPort")).toInt(), 0, 65535));
        host.refusedKit = object.value(QLatin1String("refusedKit")).toString().left(255);
        activity.hosts.append(host);
    }
    activity.hostCount = std::max(0, json.value(QLatin1String("hostCount")).toInt());
    const QJsonObject sandboxes = json.value(QLatin1String("sandboxes")).toObject();
    for (auto it = sandboxes.constBegin(); it != sandboxes.constEnd(); ++it) {
        if (activity.sandboxes.size() >= kMaxActivitySandboxes)
            break;
        activity.sandboxes.insert(it.key().left(255), bucketsFromJson(it.value().toArray()));
    }
    activity.sandboxesTruncated = json.value(QLatin1String("sandboxesTruncated")).toBool();
    return activity;
}

} // namespace paddock::events
