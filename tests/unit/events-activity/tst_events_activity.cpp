// SPDX-License-Identifier: GPL-3.0-or-later
// The activity sums the Network page draws: connections written through EventStore::write()
// and read back per time bucket, per destination and per sandbox, within their bounds.
#include "events/EventStore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::events;

namespace {

NetworkEvent connection(NetworkEvent::Outcome outcome, const QString &sandbox, const QString &host, qint64 ms,
                        qint64 up = 0, qint64 down = 0)
{
    NetworkEvent e;
    e.time = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    e.sandbox = sandbox;
    e.kit = QStringLiteral("pi");
    e.host = host;
    e.port = 443;
    e.protocol = QStringLiteral("connect");
    e.outcome = outcome;
    e.rule =
        outcome == NetworkEvent::Outcome::Allowed ? QStringLiteral("global ") + host : QStringLiteral("default deny");
    e.bytesUp = up;
    e.bytesDown = down;
    return e;
}

constexpr auto Allowed = NetworkEvent::Outcome::Allowed;
constexpr auto Denied = NetworkEvent::Outcome::Denied;
constexpr qint64 kMinute = 60'000;

} // namespace

class TestEventsActivity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<EventStore>(m_dir.filePath(QStringLiteral("events-%1.sqlite").arg(++m_files)));
        QVERIFY2(m_store->open(), qPrintable(m_store->errorString()));
        m_until = QDateTime::currentMSecsSinceEpoch();
        m_start = (m_until / kMinute + 1) * kMinute - 60 * kMinute;
    }
    void cleanup() { m_store.reset(); }

    void countsPerBucketAllowedAndRefused();
    void hostsBusiestFirstWithBytes();
    void oneSandboxOrEachOfThem();
    void boundedWhateverIsAsked();
    void aFloodOfRefusalsIsCountedWhole();
    void survivesTheJsonForm();

private:
    ActivityFilter hour() const
    {
        ActivityFilter filter;
        filter.until = QDateTime::fromMSecsSinceEpoch(m_until, Qt::UTC);
        return filter;
    }
    int bucketOf(qint64 ms) const { return int((ms - m_start) / kMinute); }
    /** Five minutes and thirty minutes ago, and two hours ago (outside the hour). */
    void writeMorning()
    {
        QList<NetworkEvent> batch;
        for (int i = 0; i < 3; ++i)
            batch << connection(Allowed, QStringLiteral("web"), QStringLiteral("api.example"), m_until - 5 * kMinute,
                                100, 1000);
        batch << connection(Denied, QStringLiteral("web"), QStringLiteral("evil.example"), m_until - 5 * kMinute)
              << connection(Denied, QStringLiteral("web"), QStringLiteral("evil.example"), m_until - 5 * kMinute + 1)
              << connection(Denied, QStringLiteral("web"), QStringLiteral("evil.example"), m_until - 30 * kMinute)
              << connection(Allowed, QStringLiteral("cli"), QStringLiteral("api.example"), m_until - 30 * kMinute, 7, 9)
              << connection(Denied, QStringLiteral("cli"), QStringLiteral("old.example"), m_until - 120 * kMinute);
        QVERIFY2(m_store->write(batch.mid(0, 5)), qPrintable(m_store->errorString()));
        // Each batch sums its groups: write the rest apart, as the hub does a moment later.
        QVERIFY2(m_store->write(batch.mid(5)), qPrintable(m_store->errorString()));
    }

    QTemporaryDir m_dir;
    int m_files = 0;
    std::unique_ptr<EventStore> m_store;
    qint64 m_until = 0;
    qint64 m_start = 0;
};

void TestEventsActivity::countsPerBucketAllowedAndRefused()
{
    writeMorning();
    bool ok = false;
    const Activity activity = m_store->activity(hour(), &ok);
    QVERIFY2(ok, qPrintable(m_store->errorString()));
    QCOMPARE(activity.bucketMs, kMinute);
    QCOMPARE(activity.buckets.size(), 60);
    QCOMPARE(activity.start.toMSecsSinceEpoch(), m_start);
    const ActivityBucket five = activity.buckets.at(bucketOf(m_until - 5 * kMinute));
    QCOMPARE(five.allowed, 3);
    QCOMPARE(five.refused, 2);
    const ActivityBucket thirty = activity.buckets.at(bucketOf(m_until - 30 * kMinute));
    QCOMPARE(thirty.allowed, 1);
    QCOMPARE(thirty.refused, 1);
    qint64 allowed = 0, refused = 0;
    for (const ActivityBucket &bucket : activity.buckets) {
        allowed += bucket.allowed;
        refused += bucket.refused;
    }
    // The refusal two hours ago is outside the hour.
    QCOMPARE(allowed, 4);
    QCOMPARE(refused, 3);

    // A day in quarter hours has it.
    ActivityFilter day = hour();
    day.bucketMs = 15 * kMinute;
    day.buckets = 96;
    const Activity wide = m_store->activity(day);
    QCOMPARE(wide.buckets.size(), 96);
    refused = 0;
    for (const ActivityBucket &bucket : wide.buckets)
        refused += bucket.refused;
    QCOMPARE(refused, 4);
}

void TestEventsActivity::hostsBusiestFirstWithBytes()
{
    writeMorning();
    const Activity activity = m_store->activity(hour());
    QCOMPARE(activity.hostCount, 2);
    QCOMPARE(activity.hosts.size(), 2);
    const ActivityHost &api = activity.hosts.at(0);
    QCOMPARE(api.host, QStringLiteral("api.example"));
    QCOMPARE(api.allowed, 4);
    QCOMPARE(api.refused, 0);
    QCOMPARE(api.bytesUp, 307);
    QCOMPARE(api.bytesDown, 3009);
    QVERIFY(api.refusedSandbox.isEmpty());
    const ActivityHost &evil = activity.hosts.at(1);
    QCOMPARE(evil.host, QStringLiteral("evil.example"));
    QCOMPARE(evil.allowed, 0);
    QCOMPARE(evil.refused, 3);
    // What allowing it needs: where it was refused last.
    QCOMPARE(evil.refusedSandbox, QStringLiteral("web"));
    QCOMPARE(evil.refusedPort, quint16(443));
    QCOMPARE(evil.refusedKit, QStringLiteral("pi"));
}

void TestEventsActivity::oneSandboxOrEachOfThem()
{
    writeMorning();
    ActivityFilter filter = hour();
    filter.sandbox = QStringLiteral("cli");
    const Activity cli = m_store->activity(filter);
    QCOMPARE(cli.hosts.size(), 1);
    QCOMPARE(cli.hosts.at(0).allowed, 1);
    QCOMPARE(cli.buckets.at(bucketOf(m_until - 5 * kMinute)).allowed, 0);
    QCOMPARE(cli.buckets.at(bucketOf(m_until - 30 * kMinute)).allowed, 1);
    QCOMPARE(cli.buckets.at(bucketOf(m_until - 30 * kMinute)).refused, 0);

    filter = hour();
    filter.perSandbox = true;
    filter.hostLimit = 0;
    const Activity each = m_store->activity(filter);
    QVERIFY(each.hosts.isEmpty());
    QCOMPARE(each.sandboxes.size(), 2); // old.example's refusal is outside the hour
    QCOMPARE(each.sandboxes.value(QStringLiteral("web")).at(bucketOf(m_until - 5 * kMinute)).refused, 2);
    QCOMPARE(each.sandboxes.value(QStringLiteral("web")).at(bucketOf(m_until - 5 * kMinute)).allowed, 3);
    QCOMPARE(each.sandboxes.value(QStringLiteral("cli")).at(bucketOf(m_until - 30 * kMinute)).allowed, 1);
    QVERIFY(!each.sandboxesTruncated);
}

void TestEventsActivity::boundedWhateverIsAsked()
{
    QList<NetworkEvent> batch;
    for (int i = 0; i < 150; ++i)
        batch << connection(Denied, QStringLiteral("s%1").arg(i), QStringLiteral("h%1.example").arg(i),
                            m_until - (i % 50) * kMinute);
    for (int i = 0; i < kMaxActivitySandboxes + 10; ++i)
        batch << connection(Allowed, QStringLiteral("many%1").arg(i), QStringLiteral("h0.example"), m_until);
    QVERIFY(m_store->write(batch));
    ActivityFilter filter = hour();
    filter.buckets = 100000;
    filter.bucketMs = 1; // less than a minute: a minute
    filter.hostLimit = 100000;
    filter.perSandbox = true;
    const Activity activity = m_store->activity(filter);
    QCOMPARE(activity.buckets.size(), kMaxActivityBuckets);
    QCOMPARE(activity.bucketMs, kMinute);
    QCOMPARE(activity.hostCount, 150);
    QCOMPARE(activity.hosts.size(), kMaxActivityHosts);
    QCOMPARE(activity.hosts.at(0).host, QStringLiteral("h0.example"));
    QCOMPARE(activity.sandboxes.size(), kMaxActivitySandboxes);
    QVERIFY(activity.sandboxesTruncated);
}

void TestEventsActivity::aFloodOfRefusalsIsCountedWhole()
{
    // Beyond kRowsPerSecondPerDestination rows a second, a row counts the repeats.
    QList<NetworkEvent> batch;
    for (int i = 0; i < 500; ++i)
        batch << connection(Denied, QStringLiteral("web"), QStringLiteral("loop.example"), m_until - kMinute + i);
    QVERIFY(m_store->write(batch));
    const Activity activity = m_store->activity(hour());
    QCOMPARE(activity.buckets.at(bucketOf(m_until - kMinute)).refused, 500);
    QCOMPARE(activity.hosts.at(0).refused, 500);
}

void TestEventsActivity::survivesTheJsonForm()
{
    writeMorning();
    ActivityFilter filter = hour();
    filter.perSandbox = true;
    const Activity activity = m_store->activity(filter);
    const Activity read = activityFromJson(toJson(activity));
    QCOMPARE(read.start, activity.start);
    QCOMPARE(read.bucketMs, activity.bucketMs);
    QCOMPARE(read.buckets.size(), 60);
    QCOMPARE(read.buckets.at(bucketOf(m_until - 5 * kMinute)).refused, 2);
    QCOMPARE(read.hosts.size(), 2);
    QCOMPARE(read.hosts.at(1).refusedSandbox, QStringLiteral("web"));
    QCOMPARE(read.hosts.at(0).bytesDown, 3009);
    QCOMPARE(read.sandboxes.keys().size(), 2);
    // Hostile input stays within the bounds.
    QJsonArray many;
    for (int i = 0; i < 10 * kMaxActivityBuckets; ++i)
        many.append(QJsonArray{-5, 1e300});
    const Activity hostile = activityFromJson({{QStringLiteral("buckets"), many}});
    QCOMPARE(hostile.buckets.size(), kMaxActivityBuckets);
    QCOMPARE(hostile.buckets.at(0).allowed, 0);
}

QTEST_GUILESS_MAIN(TestEventsActivity)
#include "tst_events_activity.moc"
