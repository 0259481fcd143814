// SPDX-License-Identifier: GPL-3.0-or-later
#include "ActivityModel.h"

#include "events/Activity.h"

#include <QLocale>

#include <algorithm>

namespace paddock::gui {

namespace {
const QString kTopic = QStringLiteral("network");
} // namespace

ActivityModel::ActivityModel(QObject *parent) : DaemonBound(parent)
{
    followTopics({kTopic});
}

void ActivityModel::daemonEvent(const QString &topic, const QJsonObject &)
{
    if (topic == kTopic)
        m_changed = true;
}

void ActivityModel::refresh()
{
    if (m_changed || !m_sinceAsked.isValid() || m_sinceAsked.hasExpired(60'000))
        reload();
}

void ActivityModel::setSandbox(const QString &sandbox)
{
    if (sandbox == m_sandbox)
        return;
    m_sandbox = sandbox;
    Q_EMIT sandboxChanged();
    reload();
}

void ActivityModel::setHours(int hours)
{
    hours = hours >= 24 ? 24 : 1;
    if (hours == m_hours)
        return;
    m_hours = hours;
    Q_EMIT hoursChanged();
    reload();
}

void ActivityModel::reload()
{
    if (m_asking) {
        m_askAgain = true;
        return;
    }
    // The hour in minutes, the day in quarter hours.
    QJsonObject params{{QStringLiteral("hours"), m_hours},
                       {QStringLiteral("buckets"), m_hours == 1 ? 60 : 96},
                       {QStringLiteral("hosts"), 12}};
    if (!m_sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), m_sandbox);
    const QString sandbox = m_sandbox;
    const int hours = m_hours;
    m_changed = false;
    m_sinceAsked.start();
    m_asking = request(QStringLiteral("events.activity"), params, [this, sandbox, hours](const api::Reply &reply) {
        m_asking = false;
        if (reply.isError())
            setError(reply.errorMessage());
        else if (sandbox == m_sandbox && hours == m_hours)
            setActivity(reply.result());
        if (std::exchange(m_askAgain, false) || sandbox != m_sandbox || hours != m_hours)
            reload();
    });
}

void ActivityModel::setActivity(const QJsonObject &result)
{
    const events::Activity activity = events::activityFromJson(result);
    const QLocale locale;
    m_buckets.clear();
    m_peak = 1;
    m_allowedTotal = 0;
    m_refusedTotal = 0;
    qint64 startMs = activity.start.toMSecsSinceEpoch();
    for (const events::ActivityBucket &bucket : activity.buckets) {
        const QDateTime start = QDateTime::fromMSecsSinceEpoch(startMs).toLocalTime();
        m_buckets.append(QVariantMap{{QStringLiteral("start"), double(startMs)},
                                     {QStringLiteral("end"), double(startMs + activity.bucketMs)},
                                     {QStringLiteral("allowed"), double(bucket.allowed)},
                                     {QStringLiteral("refused"), double(bucket.refused)},
                                     {QStringLiteral("label"), locale.toString(start.time(), QLocale::ShortFormat)}});
        m_peak = std::max(m_peak, double(bucket.allowed + bucket.refused));
        m_allowedTotal += double(bucket.allowed);
        m_refusedTotal += double(bucket.refused);
        startMs += activity.bucketMs;
    }
    m_hosts.clear();
    for (const events::ActivityHost &host : activity.hosts) {
        const QString bytes = host.bytesUp + host.bytesDown > 0
                                  ? tr("%1 up · %2 down")
                                        .arg(locale.formattedDataSize(host.bytesUp, 1, QLocale::DataSizeSIFormat),
                                             locale.formattedDataSize(host.bytesDown, 1, QLocale::DataSizeSIFormat))
                                  : QString();
        m_hosts.append(QVariantMap{{QStringLiteral("host"), host.host},
                                   {QStringLiteral("allowed"), double(host.allowed)},
                                   {QStringLiteral("refused"), double(host.refused)},
                                   {QStringLiteral("bytesUp"), double(host.bytesUp)},
                                   {QStringLiteral("bytesDown"), double(host.bytesDown)},
                                   {QStringLiteral("bytesText"), bytes},
                                   {QStringLiteral("refusedSandbox"), host.refusedSandbox},
                                   {QStringLiteral("refusedPort"), int(host.refusedPort)},
                                   {QStringLiteral("refusedKit"), host.refusedKit}});
    }
    m_hostCount = activity.hostCount;
    m_loaded = true;
    setError(QString());
    Q_EMIT activityChanged();
}

} // namespace paddock::gui
