// SPDX-License-Identifier: GPL-3.0-or-later
// Live delivery and background storage: what the GUI's Network page and `paddock policy log`
// see while the proxy publishes, including when the database is unusable.
#include "events/EventHub.h"
#include "events/EventStore.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <mutex>

using namespace paddock::events;

namespace {

NetworkEvent denial(const QString &sandbox, const QString &host)
{
    NetworkEvent event;
    event.sandbox = sandbox;
    event.kit = QStringLiteral("pi");
    event.host = host;
    event.port = 443;
    event.outcome = NetworkEvent::Outcome::Denied;
    event.rule = QStringLiteral("default deny");
    event.reason = QStringLiteral("%1 is not allowed by any rule.").arg(host);
    return event;
}

QStringList storedHosts(const QString &path)
{
    EventStore store(path);
    QStringList hosts;
    if (!store.open())
        return {QStringLiteral("cannot open: ") + store.errorString()};
    store.forEachEvent({}, [&](const NetworkEvent &event) {
        hosts << event.host;
        return true;
    });
    return hosts;
}

/** A subscriber living on the test's thread, as a view model would. */
class Receiver : public QObject
{
public:
    QList<NetworkEvent> events;
    void connectTo(EventHub &hub)
    {
        connect(&hub, &EventHub::eventPublished, this, [this](const NetworkEvent &event) { events << event; });
    }
};

} // namespace

class EventHubTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_home;

    QString path() const { return EventStore::defaultPath(); }

private Q_SLOTS:
    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(m_home->isValid());
        qputenv("XDG_STATE_HOME", QFile::encodeName(m_home->path()));
    }

    void publishedEventsReachSubscribersWithTheirOwnTime()
    {
        EventHub hub;
        QVERIFY2(hub.isStoring(), qPrintable(hub.storageError()));
        Receiver receiver;
        receiver.connectTo(hub);
        QList<NetworkEvent> called;
        std::mutex calledMutex;
        hub.subscribe([&](const NetworkEvent &event) {
            std::lock_guard lock(calledMutex);
            called << event;
        });

        NetworkEvent event = denial("web", "tracker.example");
        event.time = QDateTime::currentDateTimeUtc().addSecs(-3600); // the proxy's own timestamp
        event.time = QDateTime::fromMSecsSinceEpoch(event.time.toMSecsSinceEpoch(), Qt::UTC);
        QThread *proxy = QThread::create([&] { hub.publish(event); });
        proxy->start();
        QVERIFY(proxy->wait(10000));
        delete proxy;

        QTRY_COMPARE(receiver.events.size(), 1); // queued to this thread
        QCOMPARE(receiver.events.first(), event);
        std::lock_guard lock(calledMutex);
        QCOMPARE(called, QList<NetworkEvent>{event});
    }

    void anEventWithoutATimeGetsTheCurrentOne()
    {
        EventHub hub;
        Receiver receiver;
        receiver.connectTo(hub);
        const QDateTime before = QDateTime::currentDateTimeUtc().addMSecs(-1);
        hub.publish(denial("web", "a.example"));
        QTRY_COMPARE(receiver.events.size(), 1);
        QVERIFY(receiver.events.first().time >= before);
        QVERIFY(receiver.events.first().time <= QDateTime::currentDateTimeUtc());
    }

    void eventsAreStoredInTheBackground_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("writer thread") << int(EventHub::FlushMode::WriterThread);
        QTest::newRow("timer") << int(EventHub::FlushMode::Timer);
    }

    void eventsAreStoredInTheBackground()
    {
        QFETCH(int, mode);
        EventHub::Options options;
        options.flushMode = EventHub::FlushMode(mode);
        options.flushInterval = std::chrono::milliseconds(20);
        EventHub hub(options);
        QCOMPARE(hub.databasePath(), path());
        hub.publish(denial("web", "one.example"));
        hub.publish(denial("cli", "two.example"));
        for (int i = 0; i < 5; ++i) {
            NetworkEvent ok = denial("web", "ok.example");
            ok.outcome = NetworkEvent::Outcome::Allowed;
            hub.publish(ok);
        }
        // Written without anyone asking, within the flush interval.
        QTRY_COMPARE(storedHosts(path()), QStringList({"one.example", "two.example"}));
        QVERIFY(hub.flush());

        EventStore store(path());
        QVERIFY(store.open());
        const PolicyLog log = store.log();
        QCOMPARE(log.blocked.size(), 2);
        QCOMPARE(log.allowed.size(), 1);
        QCOMPARE(log.allowed.first().count, 5);
        QCOMPARE(store.countDenials(QStringLiteral("web")), 1);
    }

    void publishingFromFourThreadsStoresEachEventOnce()
    {
        EventHub::Options options;
        options.flushInterval = std::chrono::milliseconds(5);
        EventHub hub(options);
        std::atomic<int> delivered{0};
        hub.subscribe([&](const NetworkEvent &) { ++delivered; });

        constexpr int threads = 4, perThread = 5000;
        QList<QThread *> publishers;
        for (int t = 0; t < threads; ++t) {
            publishers << QThread::create([&hub, t] {
                for (int i = 0; i < perThread; ++i)
                    hub.publish(
                        denial(QStringLiteral("sandbox-%1").arg(t), QStringLiteral("h%1-%2.example").arg(t).arg(i)));
            });
        }
        for (QThread *thread : publishers)
            thread->start();
        for (QThread *thread : publishers) {
            QVERIFY(thread->wait(60000));
            delete thread;
        }
        QVERIFY(hub.flush());
        QCOMPARE(delivered.load(), threads * perThread);
        QCOMPARE(hub.unstoredCount(), 0u);

        const QStringList hosts = storedHosts(path());
        QCOMPARE(hosts.size(), threads * perThread);
        const QSet<QString> unique(hosts.begin(), hosts.end());
        QCOMPARE(unique.size(), threads * perThread);
        for (int t = 0; t < threads; ++t)
            QVERIFY(unique.contains(QStringLiteral("h%1-%2.example").arg(t).arg(perThread - 1)));
    }

    void queuedEventsAreWrittenWhenTheHubCloses()
    {
        {
            EventHub::Options options;
            options.flushInterval = std::chrono::hours(1);
            EventHub hub(options);
            hub.publish(denial("web", "last-words.example"));
        }
        QCOMPARE(storedHosts(path()), QStringList({"last-words.example"}));
    }

    void aGarbageDatabaseIsReportedAndLiveEventsContinue()
    {
        QVERIFY(QDir().mkpath(QFileInfo(path()).absolutePath()));
        QFile file(path());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(8192, '\x5a'));
        file.close();

        EventHub hub;
        QVERIFY(!hub.isStoring());
        const QString message = hub.storageError();
        QVERIFY2(message.contains(path()) && message.contains(QStringLiteral("not a readable SQLite database")),
                 qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));

        Receiver receiver;
        receiver.connectTo(hub);
        std::atomic<int> called{0};
        hub.subscribe([&](const NetworkEvent &) { ++called; });
        QThread *proxy = QThread::create([&] {
            for (int i = 0; i < 3; ++i)
                hub.publish(denial("web", QStringLiteral("h%1.example").arg(i)));
        });
        proxy->start();
        QVERIFY(proxy->wait(10000));
        delete proxy;
        QTRY_COMPARE(receiver.events.size(), 3);
        QCOMPARE(called.load(), 3);
        QCOMPARE(hub.unstoredCount(), 3u);
        QVERIFY(!hub.flush());
    }

    void aFailingWriteIsSignalledAndDeliveryGoesOn()
    {
        EventHub::Options options;
        options.flushMode = EventHub::FlushMode::Timer;
        options.flushInterval = std::chrono::hours(1);
        EventHub hub(options);
        QVERIFY(hub.isStoring());
        QSignalSpy failures(&hub, &EventHub::storageFailed);

        // Another program damages the log under the running hub: every write now fails.
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("vandal"));
            db.setDatabaseName(path());
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("DROP TABLE events")));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("vandal"));

        Receiver receiver;
        receiver.connectTo(hub);
        hub.publish(denial("web", "a.example"));
        hub.flush();
        hub.publish(denial("web", "b.example"));
        hub.flush();
        QTRY_COMPARE(receiver.events.size(), 2);
        QVERIFY(!hub.isStoring());
        QVERIFY(!hub.storageError().isEmpty());
        QCOMPARE(failures.size(), 1); // reported once, not once per batch
        QCOMPARE(hub.unstoredCount(), 2u);
    }

    void unsubscribedCallbacksAreNotCalled()
    {
        EventHub::Options liveOnly;
        liveOnly.databasePath.clear();
        EventHub hub(liveOnly);
        int first = 0, second = 0;
        const int id = hub.subscribe([&](const NetworkEvent &) { ++first; });
        hub.subscribe([&](const NetworkEvent &) { ++second; });
        hub.publish(denial("web", "a.example"));
        hub.unsubscribe(id);
        hub.publish(denial("web", "b.example"));
        QCOMPARE(first, 1);
        QCOMPARE(second, 2);
        QVERIFY(!QFile::exists(path())); // no path: live delivery only
    }
};

QTEST_GUILESS_MAIN(EventHubTest)
#include "tst_eventhub.moc"
