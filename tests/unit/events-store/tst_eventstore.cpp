// SPDX-License-Identifier: GPL-3.0-or-later
// The event log on disk: what `paddock policy log` and `policy export --jsonl` read back,
// and the properties of the file itself (WAL, permissions, schema version, corruption).
#include "EventLines.h"
#include "events/EventStore.h"
#include "events/Jsonl.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <algorithm>

#include <sys/stat.h>

using namespace paddock::events;

namespace {

QDateTime at(int minute, int msec = 0)
{
    return QDateTime(QDate(2026, 5, 1), QTime(10, 0), QTimeZone::utc()).addSecs(minute * 60).addMSecs(msec);
}

NetworkEvent denial(const QString &sandbox, const QString &host, const QDateTime &time, quint16 port = 443)
{
    NetworkEvent event;
    event.time = time;
    event.sandbox = sandbox;
    event.kit = QStringLiteral("pi");
    event.host = host;
    event.port = port;
    event.protocol = QStringLiteral("connect");
    event.outcome = NetworkEvent::Outcome::Denied;
    event.rule = QStringLiteral("default deny");
    event.reason = QStringLiteral("%1 is not allowed by any rule.").arg(host);
    return event;
}

NetworkEvent allowed(const QString &sandbox, const QString &host, const QDateTime &time)
{
    NetworkEvent event = denial(sandbox, host, time);
    event.outcome = NetworkEvent::Outcome::Allowed;
    event.rule = QStringLiteral("allow %1").arg(host);
    event.reason.clear();
    event.bytesUp = 10;
    event.bytesDown = 100;
    return event;
}

int mode(const QString &path)
{
    struct stat st
    {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 0777);
}

// Reads the file with a connection of its own, as another tool would.
QVariant rawScalar(const QString &path, const QString &sql)
{
    QVariant value;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery query(db);
            if (query.exec(sql) && query.next())
                value = query.value(0);
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
    return value;
}

QList<NetworkEvent> storedEvents(const EventStore &store, EventFilter filter = {})
{
    QList<NetworkEvent> events;
    store.forEachEvent(filter, [&](const NetworkEvent &event) {
        events << event;
        return true;
    });
    return events;
}

} // namespace

class EventStoreTest : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_home;

    QString stateDir() const { return m_home->path() + QStringLiteral("/state/paddock"); }

private Q_SLOTS:
    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(m_home->isValid());
        for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}) {
            const QString dir =
                m_home->path() + QLatin1Char('/') + QString::fromLatin1(name).section('_', 1, 1).toLower();
            qputenv(name, QFile::encodeName(dir));
        }
    }

    void defaultPathIsInTheStateDirectory()
    {
        QCOMPARE(EventStore::defaultPath(), stateDir() + QStringLiteral("/events.sqlite"));
    }

    void storesADenialWithEveryField()
    {
        EventStore store;
        QVERIFY2(store.open(), qPrintable(store.errorString()));
        NetworkEvent event = denial("web", "tracker.example.com", at(0, 123), 8080);
        event.kit = QStringLiteral("claude-code");
        event.protocol = QStringLiteral("socks");
        event.rule = QStringLiteral("deny **.example.com");
        event.reason = QStringLiteral("tracker.example.com is denied by **.example.com — «quoted»");
        event.bytesUp = 7;
        event.bytesDown = 9;
        event.pid = 77;
        event.program = QStringLiteral("curl");
        event.exe = QStringLiteral("/tmp/curl");
        event.command = QStringLiteral("curl https://tracker.example.com");
        event.written = QStringLiteral("/tmp");
        QVERIFY(store.write({event}));

        const QList<NetworkEvent> back = storedEvents(store);
        QCOMPARE(back.size(), 1);
        QCOMPARE(back.first(), event);
        // The summary a person reads says the program was written inside the sandbox.
        QCOMPARE(store.log().blocked.value(0).written, QStringLiteral("/tmp"));
        QCOMPARE(back.first().time.timeSpec(), Qt::UTC);
    }

    void aggregatesAllowedConnections()
    {
        EventStore store;
        QVERIFY(store.open());
        // Several batches, as the writer would deliver them.
        for (int batch = 0; batch < 4; ++batch) {
            QList<NetworkEvent> events;
            for (int i = 0; i < 250; ++i)
                events << allowed("web", "api.anthropic.com", at(batch, i));
            QVERIFY(store.write(events));
        }

        const PolicyLog log = store.log();
        QVERIFY(log.blocked.isEmpty());
        QCOMPARE(log.allowed.size(), 1);
        const AllowedEntry &entry = log.allowed.first();
        QCOMPARE(entry.host, QStringLiteral("api.anthropic.com"));
        QCOMPARE(entry.port, quint16(443));
        QCOMPARE(entry.sandbox, QStringLiteral("web"));
        QCOMPARE(entry.rule, QStringLiteral("allow api.anthropic.com"));
        QCOMPARE(entry.count, 1000);
        QCOMPARE(entry.firstSeen, at(0, 0));
        QCOMPARE(entry.lastSeen, at(3, 249));
        QCOMPARE(entry.bytesUp, 10 * 1000);
        QCOMPARE(entry.bytesDown, 100 * 1000);

        // Not one row per connection: the file holds a single aggregate.
        store.close();
        QCOMPARE(rawScalar(EventStore::defaultPath(), "SELECT COUNT(*) FROM allowed").toInt(), 1);
        QCOMPARE(rawScalar(EventStore::defaultPath(), "SELECT COUNT(*) FROM events").toInt(), 0);
    }

    void blockedAndAllowedSectionsFilterBySandbox()
    {
        EventStore store;
        QVERIFY(store.open());
        QVERIFY(store.write({denial("web", "a.example", at(1)), denial("web", "a.example", at(2)),
                             denial("cli", "b.example", at(3)), allowed("web", "ok.example", at(4)),
                             allowed("cli", "ok.example", at(5))}));

        const PolicyLog all = store.log();
        QCOMPARE(all.blocked.size(), 2);
        QCOMPARE(all.allowed.size(), 2);

        const PolicyLog web = store.log({QStringLiteral("web"), {}, 100});
        QCOMPARE(web.blocked.size(), 1);
        QCOMPARE(web.blocked.first().host, QStringLiteral("a.example"));
        QCOMPARE(web.blocked.first().sandbox, QStringLiteral("web"));
        QCOMPARE(web.blocked.first().count, 2);
        QCOMPARE(web.blocked.first().lastSeen, at(2));
        QCOMPARE(web.blocked.first().rule, QStringLiteral("default deny"));
        QCOMPARE(web.blocked.first().reason, QStringLiteral("a.example is not allowed by any rule."));
        QCOMPARE(web.allowed.size(), 1);
        QCOMPARE(web.allowed.first().sandbox, QStringLiteral("web"));

        QVERIFY(store.log({QStringLiteral("nosuch"), {}, 100}).blocked.isEmpty());
    }

    void groupsByPortAndRuleAndShowsTheLatestReason()
    {
        EventStore store;
        QVERIFY(store.open());
        NetworkEvent first = denial("web", "x.example", at(1));
        NetworkEvent second = denial("web", "x.example", at(2));
        second.reason = QStringLiteral("the latest reason");
        NetworkEvent otherPort = denial("web", "x.example", at(3), 80);
        NetworkEvent otherRule = denial("web", "x.example", at(4));
        otherRule.rule = QStringLiteral("deny x.example");
        QVERIFY(store.write({second, first, otherPort, otherRule}));

        const QList<BlockedEntry> blocked = store.log().blocked;
        QCOMPARE(blocked.size(), 3);
        QCOMPARE(blocked.at(0).rule, QStringLiteral("deny x.example"));
        QCOMPARE(blocked.at(1).port, quint16(80));
        QCOMPARE(blocked.at(2).count, 2);
        QCOMPARE(blocked.at(2).reason, QStringLiteral("the latest reason"));

        // Across batches too: a newer refusal replaces the reason, a late-arriving older one does not.
        NetworkEvent newer = denial("web", "x.example", at(10));
        newer.reason = QStringLiteral("newer still");
        NetworkEvent late = denial("web", "x.example", at(5));
        late.reason = QStringLiteral("arrived late");
        QVERIFY(store.write({newer}));
        QVERIFY(store.write({late}));
        const BlockedEntry group = store.log().blocked.first();
        QCOMPARE(group.count, 4);
        QCOMPARE(group.reason, QStringLiteral("newer still"));
        QCOMPARE(group.lastSeen, at(10));
    }

    void newestFirstWithALimit()
    {
        EventStore store;
        QVERIFY(store.open());
        // Written out of order: the order comes from the events' own times.
        QVERIFY(store.write({denial("web", "two.example", at(2)), denial("web", "three.example", at(3)),
                             denial("web", "one.example", at(1)), allowed("web", "b.example", at(5)),
                             allowed("web", "c.example", at(6)), allowed("web", "a.example", at(4))}));

        PolicyLog log = store.log();
        QCOMPARE(log.blocked.size(), 3);
        QCOMPARE(log.blocked.at(0).host, QStringLiteral("three.example"));
        QCOMPARE(log.blocked.at(1).host, QStringLiteral("two.example"));
        QCOMPARE(log.blocked.at(2).host, QStringLiteral("one.example"));
        QCOMPARE(log.allowed.at(0).host, QStringLiteral("c.example"));
        QCOMPARE(log.allowed.at(2).host, QStringLiteral("a.example"));

        log = store.log({{}, {}, 2});
        QCOMPARE(log.blocked.size(), 2);
        QCOMPARE(log.blocked.at(1).host, QStringLiteral("two.example"));
        QCOMPARE(log.allowed.size(), 2);
        QCOMPARE(log.allowed.at(1).host, QStringLiteral("b.example"));
    }

    void sinceLimitsBothSections()
    {
        EventStore store;
        QVERIFY(store.open());
        QVERIFY(store.write({denial("web", "x.example", at(1)), denial("web", "x.example", at(5)),
                             denial("web", "x.example", at(6)), denial("web", "old.example", at(2)),
                             allowed("web", "old-ok.example", at(2)), allowed("web", "new-ok.example", at(7))}));

        const PolicyLog log = store.log({{}, at(5), 100});
        QCOMPARE(log.blocked.size(), 1);
        QCOMPARE(log.blocked.first().host, QStringLiteral("x.example"));
        QCOMPARE(log.blocked.first().count, 2); // only the refusals since then
        QCOMPARE(log.allowed.size(), 1);
        QCOMPARE(log.allowed.first().host, QStringLiteral("new-ok.example"));

        EventFilter filter;
        filter.since = at(5);
        QCOMPARE(storedEvents(store, filter).size(), 2);
        filter.until = at(6);
        QCOMPARE(storedEvents(store, filter).size(), 1);
    }

    void countsDenialsForASandboxSinceATime()
    {
        EventStore store;
        QVERIFY(store.open());
        QVERIFY(store.write({denial("web", "a.example", at(1)), denial("web", "b.example", at(2)),
                             denial("web", "c.example", at(3)), denial("cli", "a.example", at(3)),
                             allowed("web", "ok.example", at(3))}));
        QCOMPARE(store.countDenials(QStringLiteral("web"), at(2)), 2);
        QCOMPARE(store.countDenials(QStringLiteral("web")), 3);
        QCOMPARE(store.countDenials(QString()), 4);
        QCOMPARE(store.countDenials(QStringLiteral("cli"), at(4)), 0);
    }

    void aLoopOfRefusalsCostsAFewRowsAndEveryOneIsCounted()
    {
        EventStore store;
        QVERIFY(store.open());
        // 5,000 refusals of one destination within half a second, as a loop inside would make,
        // in batches as the hub writes them; and one other destination beside them.
        for (int batch = 0; batch < 50; ++batch) {
            QList<NetworkEvent> events;
            for (int i = 0; i < 100; ++i)
                events << denial("loop", "flood.example", at(0, batch * 10 + i / 10), 22);
            events << denial("loop", "other.example", at(0, batch * 10), 22);
            QVERIFY(store.write(events));
        }
        const qint64 rows = rawScalar(store.path(), QStringLiteral("SELECT COUNT(*) FROM events WHERE host = "
                                                                   "'flood.example'"))
                                .toLongLong();
        QVERIFY2(rows <= EventStore::kRowsPerSecondPerDestination, qPrintable(QString::number(rows)));
        // Another destination is not held back by the flood: each of its refusals has a row.
        QCOMPARE(rawScalar(store.path(), QStringLiteral("SELECT COUNT(*) FROM events WHERE host = 'other.example'"))
                     .toLongLong(),
                 qint64(EventStore::kRowsPerSecondPerDestination));
        const PolicyLog log = store.log();
        const auto flood = std::find_if(log.blocked.cbegin(), log.blocked.cend(),
                                        [](const BlockedEntry &e) { return e.host == QLatin1String("flood.example"); });
        QVERIFY(flood != log.blocked.cend());
        QCOMPARE(flood->count, 5000);
        QCOMPARE(store.countDenials(QStringLiteral("loop")), 5050);
        LogFilter since;
        since.since = at(0);
        const PolicyLog recent = store.log(since);
        QCOMPARE(std::find_if(recent.blocked.cbegin(), recent.blocked.cend(),
                              [](const BlockedEntry &e) { return e.host == QLatin1String("flood.example"); })
                     ->count,
                 5000);
        // A second later the destination gets rows of its own again.
        QVERIFY(store.write({denial("loop", "flood.example", at(0, 2000), 22)}));
        QCOMPARE(rawScalar(store.path(), QStringLiteral("SELECT COUNT(*) FROM events WHERE host = 'flood.example'"))
                     .toLongLong(),
                 rows + 1);
        // Trimming by age takes the repeats with their row: the summary stays the sum of what is kept.
        QVERIFY(store.applyRetention(at(0).addSecs(30 * 24 * 3600 + 1)));
        QCOMPARE(store.countDenials(QStringLiteral("loop")), 1);
    }

    void upstreamFailuresAreKeptApartFromRefusals()
    {
        EventStore store;
        QVERIFY(store.open());
        NetworkEvent failed = allowed("web", "down.example", at(2));
        failed.outcome = NetworkEvent::Outcome::UpstreamFailed;
        failed.reason = QStringLiteral("down.example did not answer.");
        QVERIFY(store.write({denial("web", "no.example", at(1)), failed}));

        const PolicyLog log = store.log();
        QCOMPARE(log.blocked.size(), 1);
        QCOMPARE(log.failed.size(), 1);
        QCOMPARE(log.failed.first().host, QStringLiteral("down.example"));
        QVERIFY(log.allowed.isEmpty());
        QCOMPARE(store.countDenials(QString()), 1);

        QCOMPARE(storedEvents(store).size(), 1);
        EventFilter filter;
        filter.includeUpstreamFailures = true;
        QCOMPARE(storedEvents(store, filter).last(), failed);
    }

    void streamsInTimeOrderAndStopsWhenAsked()
    {
        EventStore store;
        QVERIFY(store.open());
        QList<NetworkEvent> events;
        for (int i = 9; i >= 0; --i)
            events << denial("web", QStringLiteral("h%1.example").arg(i), at(i));
        QVERIFY(store.write(events));

        const QList<NetworkEvent> back = storedEvents(store);
        QCOMPARE(back.size(), 10);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(back.at(i).time, at(i));

        int seen = 0;
        QVERIFY(store.forEachEvent({}, [&](const NetworkEvent &) { return ++seen < 3; }));
        QCOMPARE(seen, 3);

        EventFilter newest;
        newest.newestFirst = true;
        newest.limit = 2;
        const QList<NetworkEvent> latest = storedEvents(store, newest);
        QCOMPARE(latest.size(), 2);
        QCOMPARE(latest.first().time, at(9));
    }

    void exportedJsonLinesReadBackAsTheSameEvents()
    {
        EventStore store;
        QVERIFY(store.open());
        QList<NetworkEvent> events;
        for (int i = 0; i < 50; ++i) {
            NetworkEvent event = denial(i % 2 ? "web" : "cli", QStringLiteral("h%1.example").arg(i), at(0, i * 7));
            event.protocol = i % 3 ? QStringLiteral("http") : QStringLiteral("connect");
            event.reason = QStringLiteral("line\nbreak \"quoted\" %1").arg(i);
            events << event;
        }
        QVERIFY(store.write(events + QList<NetworkEvent>{allowed("web", "ok.example", at(1))}));

        QByteArray text;
        QBuffer out(&text);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QString error;
        QCOMPARE(writeJsonl(store, {}, out, &error), 50);
        out.close();
        QCOMPARE(text.count('\n'), 50);

        const std::optional<QList<NetworkEvent>> back = paddock::test::readEventLines(text, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, events);
    }

    void usesWriteAheadLogging()
    {
        EventStore store;
        QVERIFY(store.open());
        QCOMPARE(store.journalMode(), QStringLiteral("wal"));
        QVERIFY(store.write({denial("web", "a.example", at(1))}));
        // Recorded in the file, so every later connection (another process too) uses it.
        QCOMPARE(rawScalar(EventStore::defaultPath(), "PRAGMA journal_mode").toString(), QStringLiteral("wal"));
    }

    void fileIsPrivate()
    {
        QDir().mkpath(stateDir());
        QFile::setPermissions(stateDir(), QFileDevice::Permissions(0x7755)); // rwxr-xr-x
        QCOMPARE(mode(stateDir()), 0755);
        const mode_t previous = ::umask(0);
        EventStore store;
        const bool opened = store.open();
        const bool wrote = store.write({denial("web", "a.example", at(1))});
        ::umask(previous);
        QVERIFY(opened && wrote);
        QCOMPARE(mode(stateDir()), 0700);
        QCOMPARE(mode(EventStore::defaultPath()), 0600);
        QCOMPARE(mode(EventStore::defaultPath() + QStringLiteral("-wal")), 0600);
    }

    void existingFileIsMadePrivate()
    {
        QDir().mkpath(stateDir());
        QFile file(EventStore::defaultPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(::chmod(QFile::encodeName(EventStore::defaultPath()).constData(), 0644) == 0);
        EventStore store;
        QVERIFY(store.open());
        QCOMPARE(mode(EventStore::defaultPath()), 0600);
    }

    void requestRecordsAreKeptApartAndExpire()
    {
        const QDateTime now = currentEventTime();
        NetworkEvent record = allowed(QStringLiteral("web"), QStringLiteral("api.example"), now);
        record.request = RequestDetail{QStringLiteral("POST"), QStringLiteral("/gists?") + QChar(0x2026), 201, 42};
        record.bytesUp = 300;
        record.bytesDown = 1200;
        record.pid = 4242;
        record.program = QStringLiteral("curl");
        record.exe = QStringLiteral("/usr/bin/curl");
        record.command = QStringLiteral("curl -X POST https://api.example/gists?\u2026");
        record.written = QStringLiteral("the workspace");
        NetworkEvent old = record;
        old.time = now.addDays(-40);
        NetworkEvent other = record;
        other.sandbox = QStringLiteral("cli");
        EventStore store;
        QVERIFY(store.open());
        QVERIFY(store.write({old, record, other}));
        // Not counted as connections.
        QVERIFY(store.log().allowed.isEmpty());
        QList<NetworkEvent> read;
        const auto collect = [&read](const NetworkEvent &event) {
            read << event;
            return true;
        };
        RequestFilter filter;
        filter.sandbox = QStringLiteral("web");
        QVERIFY(store.forEachRequest(filter, collect));
        QCOMPARE(read.size(), 2);
        QCOMPARE(read.first(), record); // newest first, every field back
        QVERIFY(store.applyRetention());
        read.clear();
        QVERIFY(store.forEachRequest(filter, collect));
        QCOMPARE(read.size(), 1); // the 40-day-old one went with the age limit
        QCOMPARE(read.first().toJson().value(QLatin1String("status")).toInt(), 201);
    }

    void recordsTheSchemaVersion()
    {
        EventStore store;
        QVERIFY(store.open());
        QCOMPARE(EventStore::currentSchemaVersion(), 8);
        QCOMPARE(store.schemaVersion(), EventStore::currentSchemaVersion());
        store.close();
        QCOMPARE(rawScalar(EventStore::defaultPath(), "SELECT MAX(version) FROM schema_version").toInt(),
                 EventStore::currentSchemaVersion());
        // Opening again does not apply the migration twice.
        QVERIFY(store.open());
        store.close();
        QCOMPARE(rawScalar(EventStore::defaultPath(), "SELECT COUNT(*) FROM schema_version").toInt(), 8);
    }

    void migratesAVersionOneLog()
    {
        // A log as the first schema left it: refusals only as rows, no summary table.
        QDir().mkpath(stateDir());
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            db.setDatabaseName(EventStore::defaultPath());
            QVERIFY(db.open());
            QSqlQuery query(db);
            for (const char *sql :
                 {"CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)",
                  "INSERT INTO schema_version VALUES (1, 0)",
                  "CREATE TABLE events (id INTEGER PRIMARY KEY, time_ms INTEGER NOT NULL, sandbox TEXT NOT NULL,"
                  " kit TEXT NOT NULL, host TEXT NOT NULL, port INTEGER NOT NULL, protocol TEXT NOT NULL,"
                  " outcome TEXT NOT NULL, rule TEXT NOT NULL, reason TEXT NOT NULL, bytes_up INTEGER NOT NULL,"
                  " bytes_down INTEGER NOT NULL)",
                  "CREATE TABLE allowed (sandbox TEXT NOT NULL, host TEXT NOT NULL, port INTEGER NOT NULL,"
                  " rule TEXT NOT NULL, kit TEXT NOT NULL, count INTEGER NOT NULL, first_ms INTEGER NOT NULL,"
                  " last_ms INTEGER NOT NULL, bytes_up INTEGER NOT NULL, bytes_down INTEGER NOT NULL,"
                  " PRIMARY KEY (sandbox, host, port, rule))",
                  "INSERT INTO events VALUES (1, 1000, 'web', 'pi', 'a.example', 443, 'connect', 'denied',"
                  " 'default deny', 'old reason', 0, 0)",
                  "INSERT INTO events VALUES (2, 2000, 'web', 'pi', 'a.example', 443, 'connect', 'denied',"
                  " 'default deny', 'new reason', 0, 0)"})
                QVERIFY2(query.exec(QLatin1String(sql)), sql);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));

        EventStore store(EventStore::defaultPath(), {std::chrono::seconds(0), 0});
        QVERIFY2(store.open(), qPrintable(store.errorString()));
        QCOMPARE(store.schemaVersion(), 8);
        const PolicyLog log = store.log();
        QCOMPARE(log.blocked.size(), 1);
        QCOMPARE(log.blocked.first().count, 2);
        QCOMPARE(log.blocked.first().reason, QStringLiteral("new reason"));
        QCOMPARE(log.blocked.first().lastSeen, QDateTime::fromMSecsSinceEpoch(2000, Qt::UTC));
        // And it goes on counting from there.
        NetworkEvent later = denial("web", "a.example", QDateTime::fromMSecsSinceEpoch(3000, Qt::UTC));
        QVERIFY(store.write({later}));
        QCOMPARE(store.log().blocked.first().count, 3);
    }

    void refusesADatabaseFromANewerVersion()
    {
        {
            EventStore store;
            QVERIFY(store.open());
        }
        rawScalar(EventStore::defaultPath(), "INSERT INTO schema_version VALUES (99, 0)");
        EventStore store;
        QVERIFY(!store.open());
        QVERIFY2(store.errorString().contains(QStringLiteral("newer version of Paddock")),
                 qPrintable(store.errorString()));
    }

    void reopeningKeepsTheData()
    {
        {
            EventStore store;
            QVERIFY(store.open());
            QVERIFY(store.write({denial("web", "kept.example", QDateTime::currentDateTimeUtc()),
                                 allowed("web", "ok.example", QDateTime::currentDateTimeUtc())}));
        }
        EventStore store;
        QVERIFY(store.open());
        const PolicyLog log = store.log();
        QCOMPARE(log.blocked.size(), 1);
        QCOMPARE(log.blocked.first().host, QStringLiteral("kept.example"));
        QCOMPARE(log.allowed.size(), 1);
    }

    void anUnusableLocationIsReportedInOneSentence()
    {
        // The state directory's place is taken by a file: nothing can be created there.
        QDir().mkpath(QFileInfo(stateDir()).absolutePath());
        QFile blocker(stateDir());
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();

        EventStore store;
        QVERIFY(!store.open());
        const QString message = store.errorString();
        QVERIFY2(message.startsWith(QStringLiteral("The event log cannot be kept in ")), qPrintable(message));
        QVERIFY2(message.contains(stateDir()) && message.endsWith(QLatin1Char('.')), qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
    }

    void garbageFileIsReportedInOneSentence()
    {
        QDir().mkpath(stateDir());
        QFile file(EventStore::defaultPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray garbage;
        for (int i = 0; i < 65536; ++i)
            garbage.append(char((i * 7919) & 0xff));
        file.write(garbage);
        file.close();

        EventStore store;
        QVERIFY(!store.open());
        QVERIFY(!store.isOpen());
        const QString message = store.errorString();
        QVERIFY2(message.contains(EventStore::defaultPath()), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("not a readable SQLite database")), qPrintable(message));
        QVERIFY2(message.endsWith(QLatin1Char('.')) && !message.contains(QLatin1Char('\n')), qPrintable(message));
        QCOMPARE(message.count(QStringLiteral(". ")), 0);
        // Nothing was overwritten: the user may still want to look at the file.
        QFile check(EventStore::defaultPath());
        QVERIFY(check.open(QIODevice::ReadOnly));
        QCOMPARE(check.readAll(), garbage);
        QVERIFY(!store.write({denial("web", "a.example", at(1))}));
    }
};

QTEST_GUILESS_MAIN(EventStoreTest)
#include "tst_eventstore.moc"
