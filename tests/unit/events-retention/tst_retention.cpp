// SPDX-License-Identifier: GPL-3.0-or-later
// The event log does not grow without bound: old events go after 30 days (or the age set),
// and the oldest go first when the file passes its size limit.
#include "events/EventStore.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::events;

namespace {

NetworkEvent makeEvent(NetworkEvent::Outcome outcome, const QString &host, const QDateTime &time)
{
    NetworkEvent e;
    e.time = time;
    e.sandbox = QStringLiteral("web");
    e.kit = QStringLiteral("pi");
    e.host = host;
    e.port = 443;
    e.outcome = outcome;
    e.rule = QStringLiteral("default deny");
    e.reason = QStringLiteral("%1 is not allowed by any rule of the sandbox web or of the global policy.").arg(host);
    return e;
}

QStringList hosts(const EventStore &store)
{
    QStringList result;
    store.forEachEvent({}, [&](const NetworkEvent &e) {
        result << e.host;
        return true;
    });
    return result;
}

QStringList allowedHosts(const EventStore &store)
{
    QStringList result;
    for (const AllowedEntry &entry : store.log({{}, {}, 0}).allowed)
        result << entry.host;
    result.sort();
    return result;
}

} // namespace

class RetentionTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_home;
    const QDateTime m_now = QDateTime::currentDateTimeUtc();
    const NetworkEvent::Outcome Denied = NetworkEvent::Outcome::Denied;
    const NetworkEvent::Outcome Allowed = NetworkEvent::Outcome::Allowed;

    QString path() const { return m_home->path() + QStringLiteral("/events.sqlite"); }

private Q_SLOTS:
    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(m_home->isValid());
        qputenv("XDG_STATE_HOME", QFile::encodeName(m_home->path()));
    }

    void defaultsAreThirtyDaysAndSixtyFourMebibytes()
    {
        const RetentionPolicy policy;
        QCOMPARE(policy.maxAge, std::chrono::seconds(30 * 24 * 3600));
        QCOMPARE(policy.maxBytes, 64 * 1024 * 1024);
    }

    void eventsOlderThanTheLimitDisappear()
    {
        EventStore store(path());
        QVERIFY(store.open());
        QVERIFY(store.write({makeEvent(Denied, "forty-days.example", m_now.addDays(-40)),
                             makeEvent(Denied, "twenty-nine-days.example", m_now.addDays(-29)),
                             makeEvent(Denied, "yesterday.example", m_now.addDays(-1)),
                             makeEvent(Allowed, "old-ok.example", m_now.addDays(-31)),
                             makeEvent(Allowed, "new-ok.example", m_now.addSecs(-60))}));
        QCOMPARE(hosts(store).size(), 3);
        QCOMPARE(allowedHosts(store).size(), 2);

        QVERIFY(store.applyRetention(m_now));
        QCOMPARE(hosts(store), QStringList({"twenty-nine-days.example", "yesterday.example"}));
        QCOMPARE(store.log().blocked.size(), 2); // the Blocked section forgets them too
        QCOMPARE(allowedHosts(store), QStringList({"new-ok.example"}));

        // A shorter limit, as a user may configure.
        store.setRetention({std::chrono::hours(24 * 7), 0});
        QVERIFY(store.applyRetention(m_now));
        QCOMPARE(hosts(store), QStringList({"yesterday.example"}));
    }

    void retentionRunsWhenTheLogIsOpened()
    {
        {
            EventStore keepEverything(path(), {std::chrono::seconds(0), 0});
            QVERIFY(keepEverything.open());
            QVERIFY(keepEverything.write({makeEvent(Denied, "ancient.example", m_now.addDays(-90)),
                                          makeEvent(Denied, "recent.example", m_now)}));
            QVERIFY(keepEverything.applyRetention(m_now));
            QCOMPARE(hosts(keepEverything).size(), 2);
        }
        EventStore store(path());
        QVERIFY(store.open());
        QCOMPARE(hosts(store), QStringList({"recent.example"}));
    }

    void oldestGoFirstWhenTheSizeLimitIsPassed()
    {
        EventStore store(path(), {std::chrono::seconds(0), 0});
        QVERIFY(store.open());
        const int total = 20000;
        QList<NetworkEvent> batch;
        for (int i = 0; i < total; ++i) {
            batch << makeEvent(Denied, QStringLiteral("host-%1.example").arg(i, 5, 10, QLatin1Char('0')),
                               m_now.addSecs(i - total));
            if (batch.size() == 2000) {
                QVERIFY(store.write(batch));
                batch.clear();
            }
        }
        for (int i = 0; i < 100; ++i)
            batch << makeEvent(Allowed, QStringLiteral("ok-%1.example").arg(i), m_now.addSecs(i - 100));
        QVERIFY(store.write(batch));
        QVERIFY(store.applyRetention(m_now));
        const qint64 before = store.usedBytes();
        QVERIFY2(before > 2 * 1024 * 1024, qPrintable(QString::number(before)));

        const qint64 limit = 1024 * 1024;
        store.setRetention({std::chrono::seconds(0), limit});
        QVERIFY(store.applyRetention(m_now));

        QVERIFY2(store.usedBytes() <= limit, qPrintable(QString::number(store.usedBytes())));
        // The space is given back to the file system, not only marked free inside the file.
        const qint64 onDisk = QFileInfo(path()).size() + QFileInfo(path() + QStringLiteral("-wal")).size();
        QVERIFY2(onDisk <= limit + 64 * 1024, qPrintable(QString::number(onDisk)));

        const QStringList kept = hosts(store);
        QVERIFY(kept.size() > 1000);
        QVERIFY(kept.size() < total);
        // The newest refusals survive, and what survives is a contiguous newest range.
        QCOMPARE(kept.last(), QStringLiteral("host-19999.example"));
        QCOMPARE(kept.first(), QStringLiteral("host-%1.example").arg(total - kept.size(), 5, 10, QLatin1Char('0')));
        QVERIFY(allowedHosts(store).contains(QStringLiteral("ok-99.example")));
        // The Blocked section counts exactly the refusals that are left.
        qint64 counted = 0;
        for (const BlockedEntry &entry : store.log({{}, {}, 0}).blocked)
            counted += entry.count;
        QCOMPARE(counted, kept.size());
    }
};

QTEST_GUILESS_MAIN(RetentionTest)
#include "tst_retention.moc"
