// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon and a CLI command (or two daemons after a restart race) may have the event log
// open at once: a second process reads and writes the same file while the first is writing.
#include "events/EventHub.h"
#include "events/EventStore.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace paddock::events;

namespace {

constexpr int kEventsPerProcess = 3000;
constexpr int kBatch = 50;

NetworkEvent denial(const QString &sandbox, int i)
{
    NetworkEvent event;
    event.time = QDateTime::currentDateTimeUtc();
    event.sandbox = sandbox;
    event.host = QStringLiteral("%1-%2.example").arg(sandbox).arg(i);
    event.port = 443;
    event.outcome = NetworkEvent::Outcome::Denied;
    event.rule = QStringLiteral("default deny");
    return event;
}

// The second process: the same executable, run with PADDOCK_EVENTS_TEST_ROLE=writer.
int runWriter()
{
    EventStore store;
    if (!store.open()) {
        std::fprintf(stderr, "%s\n", qPrintable(store.errorString()));
        return 1;
    }
    QList<NetworkEvent> batch;
    for (int i = 0; i < kEventsPerProcess; ++i) {
        batch << denial(QStringLiteral("child"), i);
        if (batch.size() == kBatch) {
            if (!store.write(batch)) {
                std::fprintf(stderr, "%s\n", qPrintable(store.errorString()));
                return 1;
            }
            batch.clear();
        }
    }
    // Proof that this process also reads what the other one wrote.
    std::printf("parent-rows-seen=%lld\n", store.countDenials(QStringLiteral("parent")));
    return 0;
}

} // namespace

class SharedFileTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twoProcessesWriteTheSameLog()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}) {
            const QString dir = home.path() + QLatin1Char('/') + QLatin1String(name);
            env.insert(QLatin1String(name), dir);
            qputenv(name, QFile::encodeName(dir));
        }
        env.insert(QStringLiteral("PADDOCK_EVENTS_TEST_ROLE"), QStringLiteral("writer"));

        // This process holds the log open through a hub, as the daemon does.
        EventHub::Options options;
        options.flushInterval = std::chrono::milliseconds(2);
        EventHub hub(options);
        QVERIFY2(hub.isStoring(), qPrintable(hub.storageError()));

        QProcess child;
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted());
        for (int i = 0; i < kEventsPerProcess; ++i) {
            hub.publish(denial(QStringLiteral("parent"), i));
            if (i % kBatch == 0)
                QVERIFY(hub.flush());
        }
        QVERIFY(hub.flush());
        QVERIFY(child.waitForFinished(60000));
        const QByteArray childErrors = child.readAllStandardError();
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, childErrors.constData());
        QVERIFY(child.readAllStandardOutput().startsWith("parent-rows-seen="));
        QVERIFY(hub.isStoring());

        EventStore reader;
        QVERIFY(reader.open());
        QCOMPARE(reader.countDenials(QStringLiteral("parent")), kEventsPerProcess);
        QCOMPARE(reader.countDenials(QStringLiteral("child")), kEventsPerProcess);
        QSet<QString> hosts;
        reader.forEachEvent({}, [&](const NetworkEvent &event) {
            hosts.insert(event.host);
            return true;
        });
        QCOMPARE(hosts.size(), 2 * kEventsPerProcess);
        QCOMPARE(reader.journalMode(), QStringLiteral("wal"));
    }
};

int main(int argc, char **argv)
{
    if (qEnvironmentVariable("PADDOCK_EVENTS_TEST_ROLE") == QLatin1String("writer")) {
        QCoreApplication app(argc, argv);
        return runWriter();
    }
    QCoreApplication app(argc, argv);
    SharedFileTest test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_sharedfile.moc"
