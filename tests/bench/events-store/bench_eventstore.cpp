// SPDX-License-Identifier: GPL-3.0-or-later
// Figures for the event log: how fast events are stored, how soon a subscriber sees one,
// and how long the queries behind `paddock policy log` and `policy export --jsonl` take.
// Each figure comes with a reference measured in the same run on the same machine.
#include "events/EventHub.h"
#include "events/EventStore.h"
#include "events/Jsonl.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <sys/resource.h>
#include <vector>

using namespace paddock::events;
using Clock = std::chrono::steady_clock;

namespace {

// A proxy's mix: most connections allowed to a few dozen hosts, one in five refused.
NetworkEvent proxyEvent(int i)
{
    NetworkEvent event;
    event.time = QDateTime::fromMSecsSinceEpoch(QDateTime::currentMSecsSinceEpoch() - 100000 + i / 10, Qt::UTC);
    event.sandbox = QStringLiteral("sandbox-%1").arg(i % 4);
    event.kit = QStringLiteral("claude-code");
    event.port = 443;
    event.protocol = QStringLiteral("connect");
    if (i % 5 == 0) {
        event.host = QStringLiteral("tracker-%1.example.com").arg(i % 500);
        event.outcome = NetworkEvent::Outcome::Denied;
        event.rule = QStringLiteral("default deny");
        event.reason =
            QStringLiteral("%1 is not allowed by any rule of the sandbox or the global policy.").arg(event.host);
    } else {
        event.host = QStringLiteral("api-%1.example.com").arg(i % 40);
        event.outcome = NetworkEvent::Outcome::Allowed;
        event.rule = QStringLiteral("allow %1").arg(event.host);
        event.bytesUp = 800;
        event.bytesDown = 20000;
    }
    return event;
}

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto index = std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5));
    return values[index];
}

long maxRssKiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Reference: the same rows inserted one by one, each its own transaction, one row per event
// (no aggregation), through Qt SQL with the same pragmas.
double referenceInsertsPerSecond(const QString &path, const std::vector<NetworkEvent> &events)
{
    double rate = 0;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("reference"));
        db.setDatabaseName(path);
        db.open();
        QSqlQuery setup(db);
        setup.exec(QStringLiteral("PRAGMA journal_mode = WAL"));
        setup.exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
        setup.exec(QStringLiteral("CREATE TABLE events (id INTEGER PRIMARY KEY, time_ms INTEGER, sandbox TEXT,"
                                  " kit TEXT, host TEXT, port INTEGER, protocol TEXT, outcome TEXT, rule TEXT,"
                                  " reason TEXT, bytes_up INTEGER, bytes_down INTEGER)"));
        setup.exec(QStringLiteral("CREATE INDEX events_by_time ON events (time_ms)"));
        QSqlQuery insert(db);
        insert.prepare(QStringLiteral("INSERT INTO events (time_ms, sandbox, kit, host, port, protocol, outcome, rule,"
                                      " reason, bytes_up, bytes_down) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        const auto start = Clock::now();
        for (const NetworkEvent &e : events) {
            insert.addBindValue(e.time.toMSecsSinceEpoch());
            insert.addBindValue(e.sandbox);
            insert.addBindValue(e.kit);
            insert.addBindValue(e.host);
            insert.addBindValue(int(e.port));
            insert.addBindValue(e.protocol);
            insert.addBindValue(outcomeToken(e.outcome));
            insert.addBindValue(e.rule);
            insert.addBindValue(e.reason.isNull() ? QStringLiteral("") : e.reason);
            insert.addBindValue(e.bytesUp);
            insert.addBindValue(e.bytesDown);
            insert.exec();
        }
        rate = double(events.size()) / seconds(Clock::now() - start);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("reference"));
    return rate;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("paddock.*.debug=false"));
    QTemporaryDir home;
    qputenv("XDG_STATE_HOME", QFile::encodeName(home.path()));
    std::printf("events-store benchmark (database in %s)\n\n", qPrintable(home.path()));

    // 1. Storing: publish as fast as one thread can, then wait until everything is on disk.
    const int stored = 200000;
    std::vector<NetworkEvent> events;
    events.reserve(stored);
    for (int i = 0; i < stored; ++i)
        events.push_back(proxyEvent(i));
    double hubRate = 0;
    {
        EventHub::Options options;
        options.databasePath = home.path() + QStringLiteral("/throughput.sqlite");
        EventHub hub(options);
        const auto start = Clock::now();
        for (int i = 0; i < stored; ++i)
            hub.publish(proxyEvent(i)); // built per connection, as the proxy does
        const auto published = Clock::now();
        hub.flush(std::chrono::minutes(5));
        const auto done = Clock::now();
        hubRate = stored / seconds(done - start);
        std::printf("store: %d events (80%% allowed, 20%% denied) published in %.3f s (%.0f ns per publish),"
                    " all stored after %.3f s: %.0f events/s; unstored %llu\n"
                    "       (times include building each event, as the proxy does)\n",
                    stored, seconds(published - start), seconds(published - start) * 1e9 / stored,
                    seconds(done - start), hubRate, static_cast<unsigned long long>(hub.unstoredCount()));
    }
    {
        // Reference for the hot path: the same publishes to a hub that stores nothing.
        EventHub::Options options;
        options.databasePath.clear();
        EventHub liveOnly(options);
        const auto start = Clock::now();
        for (int i = 0; i < stored; ++i)
            liveOnly.publish(proxyEvent(i));
        std::printf("reference: building and publishing to a hub without storage: %.0f ns per publish\n",
                    seconds(Clock::now() - start) * 1e9 / stored);
    }
    const int referenceRows = 20000;
    const std::vector<NetworkEvent> referenceEvents(events.begin(), events.begin() + referenceRows);
    const double referenceRate =
        referenceInsertsPerSecond(home.path() + QStringLiteral("/reference.sqlite"), referenceEvents);
    std::printf("reference: %d rows inserted one transaction each, no aggregation: %.0f rows/s\n", referenceRows,
                referenceRate);
    std::printf("ratio: the hub stores %.1fx as many events per second as unbatched inserts\n\n",
                hubRate / referenceRate);

    // 2. Latency: a publisher thread at a steady 5,000 events/s; subscribers on the main
    // thread (Qt signal, queued) and a callback (on the publishing thread).
    const int latencyEvents = 10000;
    std::vector<Clock::time_point> sentAt(latencyEvents);
    std::vector<double> signalMs, callbackMs;
    signalMs.reserve(latencyEvents);
    callbackMs.reserve(latencyEvents);
    {
        EventHub::Options options;
        options.databasePath = home.path() + QStringLiteral("/latency.sqlite");
        EventHub hub(options);
        QObject receiver;
        QObject::connect(&hub, &EventHub::eventPublished, &receiver, [&](const NetworkEvent &e) {
            signalMs.push_back(
                std::chrono::duration<double, std::milli>(Clock::now() - sentAt[size_t(e.bytesUp)]).count());
            if (int(signalMs.size()) == latencyEvents)
                app.quit();
        });
        hub.subscribe([&](const NetworkEvent &e) {
            callbackMs.push_back(
                std::chrono::duration<double, std::milli>(Clock::now() - sentAt[size_t(e.bytesUp)]).count());
        });
        QThread *publisher = QThread::create([&] {
            const auto start = Clock::now();
            for (int i = 0; i < latencyEvents; ++i) {
                std::this_thread::sleep_until(start + std::chrono::microseconds(200) * i);
                NetworkEvent e = proxyEvent(i);
                e.bytesUp = i; // which send time to compare with
                sentAt[size_t(i)] = Clock::now();
                hub.publish(std::move(e));
            }
        });
        QTimer::singleShot(std::chrono::minutes(2), &app, &QCoreApplication::quit);
        publisher->start();
        app.exec();
        publisher->wait();
        delete publisher;
    }
    std::printf("latency over %d events at 5,000/s while storing: Qt signal to another thread p50 %.3f ms, "
                "p99 %.3f ms, max %.3f ms (received %zu)\n",
                latencyEvents, percentile(signalMs, 0.5), percentile(signalMs, 0.99),
                signalMs.empty() ? 0.0 : *std::max_element(signalMs.begin(), signalMs.end()), signalMs.size());
    std::printf("latency: callback p50 %.4f ms, p99 %.4f ms (target: p99 under 20 ms)\n\n", percentile(callbackMs, 0.5),
                percentile(callbackMs, 0.99));

    // 3. Queries on a log holding 100,000 refusals and the allowed aggregates.
    const QString queryPath = home.path() + QStringLiteral("/query.sqlite");
    {
        EventStore store(queryPath);
        store.open();
        QList<NetworkEvent> batch;
        int denials = 0;
        for (int i = 0; denials < 100000; ++i) {
            NetworkEvent e = proxyEvent(i);
            if (e.outcome == NetworkEvent::Outcome::Denied)
                ++denials;
            batch << e;
            if (batch.size() == 10000) {
                store.write(batch);
                batch.clear();
            }
        }
        store.write(batch);
    }
    EventStore store(queryPath);
    store.open();
    std::printf("query database: %.1f MiB used\n", double(store.usedBytes()) / (1024 * 1024));
    auto start = Clock::now();
    const PolicyLog log = store.log();
    const double logSeconds = seconds(Clock::now() - start);
    start = Clock::now();
    const PolicyLog oneSandbox = store.log({QStringLiteral("sandbox-1"), {}, 100});
    const double sandboxLogSeconds = seconds(Clock::now() - start);
    std::printf("policy log (100,000 refusals, limit 100): all sandboxes %.1f ms (%lld blocked, %lld allowed lines),"
                " one sandbox %.1f ms\n",
                logSeconds * 1000, qint64(log.blocked.size()), qint64(log.allowed.size()), sandboxLogSeconds * 1000);

    start = Clock::now();
    const PolicyLog recent = store.log({{}, QDateTime::currentDateTimeUtc().addSecs(-60), 100});
    std::printf("policy log --since (last minute, %lld blocked lines): %.1f ms\n", qint64(recent.blocked.size()),
                seconds(Clock::now() - start) * 1000);

    start = Clock::now();
    qint64 count = store.countDenials(QStringLiteral("sandbox-1"), QDateTime::currentDateTimeUtc().addSecs(-60));
    std::printf("denials since a time for one sandbox: %.2f ms (%lld)\n", seconds(Clock::now() - start) * 1000, count);

    const long rssBefore = maxRssKiB();
    start = Clock::now();
    qint64 streamed = 0;
    store.forEachEvent({}, [&](const NetworkEvent &) {
        ++streamed;
        return true;
    });
    const double streamSeconds = seconds(Clock::now() - start);
    QFile sink(QStringLiteral("/dev/null"));
    sink.open(QIODevice::WriteOnly);
    start = Clock::now();
    const qint64 exported = writeJsonl(store, {}, sink);
    const double exportSeconds = seconds(Clock::now() - start);
    std::printf(
        "stream %lld stored refusals: %.0f ms; JSONL export of %lld lines: %.0f ms; peak memory grew by %ld KiB\n",
        streamed, streamSeconds * 1000, exported, exportSeconds * 1000, maxRssKiB() - rssBefore);

    // Reference for the stream: the same rows read with a plain query that Qt caches in full.
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("plain"));
        db.setDatabaseName(queryPath);
        db.open();
        QSqlQuery query(db);
        start = Clock::now();
        query.exec(QStringLiteral("SELECT * FROM events ORDER BY time_ms, id"));
        qint64 rows = 0;
        while (query.next())
            ++rows;
        const double plainSeconds = seconds(Clock::now() - start);
        std::printf("reference: plain scrollable SELECT of %lld rows: %.0f ms; ratio stream/reference %.2f\n", rows,
                    plainSeconds * 1000, streamSeconds / plainSeconds);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("plain"));
    return 0;
}
