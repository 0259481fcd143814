// SPDX-License-Identifier: GPL-3.0-or-later
// 100,000 stored refusals (one host each, so 100,000 rows), listed on the Network page by a
// real paddockd, then scrolled: prints how long the list took to load, the worst frame time
// and how many frames took longer than 16 ms. Beside it, from the same store, the page's
// activity chart: its first draw, and the daemon's aggregate query (events.activity) for the
// hour and the day. Runs on the display it is given (Xvfb from run-benchmarks.sh) or offscreen.
#include "../../gui/shell/GuiTestSupport.h"

#include "ActivityModel.h"
#include "DenialsModel.h"
#include "NetworkPolicy.h"
#include "api/DaemonConnection.h"
#include "events/EventStore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QLocalSocket>
#include <QProcess>
#include <QTest>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <cstdio>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;

namespace {

constexpr int kEvents = 100000;

bool storeEvents(const QString &path)
{
    events::EventStore store(path);
    if (!store.open())
        return false;
    QList<events::NetworkEvent> batch;
    const QDateTime start = QDateTime::currentDateTimeUtc().addSecs(-3600);
    for (int i = 0; i < kEvents; ++i) {
        events::NetworkEvent event;
        event.time = start.addMSecs(i * 30);
        event.sandbox = QStringLiteral("bench");
        event.kit = QStringLiteral("pi");
        event.host = QStringLiteral("h%1.denied.example.org").arg(i, 6, 10, QLatin1Char('0'));
        event.port = 443;
        event.rule = QStringLiteral("default deny");
        event.reason = QStringLiteral("no rule allows this host");
        batch.append(event);
        if (batch.size() == 5000) {
            if (!store.write(batch))
                return false;
            batch.clear();
        }
    }
    if (!store.write(batch))
        return false;
    // Allowed connections beside them: 50 hosts, about one a second each over the hour.
    batch.clear();
    for (int i = 0; i < 3600 * 50; ++i) {
        events::NetworkEvent event;
        event.time = start.addMSecs((i / 50) * 1000);
        event.sandbox = QStringLiteral("bench");
        event.kit = QStringLiteral("pi");
        event.host = QStringLiteral("h%1.allowed.example.org").arg(i % 50);
        event.port = 443;
        event.outcome = events::NetworkEvent::Outcome::Allowed;
        event.rule = QStringLiteral("global *.allowed.example.org");
        event.bytesUp = 500;
        event.bytesDown = 20000;
        batch.append(event);
        if (batch.size() == 5000) {
            if (!store.write(batch))
                return false;
            batch.clear();
        }
    }
    return store.write(batch);
}

/**
 * Applies @p change and renders the frame that shows it, synchronously (polish, layout of the
 * delegates, scene graph, rendering): the time a frame costs, without waiting for a swap.
 */
double timeFrame(QQuickWindow *window, const std::function<void()> &change)
{
    QElapsedTimer timer;
    timer.start();
    change();
    const QImage frame = window->grabWindow();
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    Q_UNUSED(frame);
    return ms;
}

/** The activity chart of the page: its first draw after a reload, and the daemon's query alone. */
void measureActivity(QQuickWindow *window, QQuickItem *page, const QString &socket, QTextStream &out)
{
    QQuickItem *section = guitest::findItem(page, QStringLiteral("activitySection"));
    auto *activity = section ? section->property("activity").value<gui::ActivityModel *>() : nullptr;
    if (!activity) {
        out << "the activity chart is not there\n";
        return;
    }
    for (QQuickItem *parent = section->parentItem(); parent; parent = parent->parentItem()) {
        if (parent->inherits("QQuickFlickable"))
            parent->setProperty("contentY", 0);
    }
    for (const int hours : {24, 1}) {
        bool drawn = false;
        QElapsedTimer timer;
        timer.start();
        const auto connection =
            QObject::connect(activity, &gui::ActivityModel::activityChanged, [&drawn] { drawn = true; });
        activity->setHours(hours);
        const bool answered = QTest::qWaitFor([&drawn] { return drawn; }, 60000);
        QObject::disconnect(connection);
        if (!answered) {
            out << "the activity chart got no answer in a minute\n";
            return;
        }
        const QImage frame = window->grabWindow();
        Q_UNUSED(frame);
        out << "activity chart (" << (hours == 1 ? "hour, 60 bars" : "day, 96 bars") << ") drawn in " << timer.elapsed()
            << " ms after asking\n";
    }
    api::DaemonConnection connection;
    QString error;
    if (!connection.open(socket, 5000, &error))
        return;
    for (const int hours : {1, 24}) {
        QList<double> times;
        for (int i = 0; i < 5; ++i) {
            QElapsedTimer timer;
            timer.start();
            const api::Reply reply = connection.call(
                QStringLiteral("events.activity"),
                {{QStringLiteral("hours"), hours}, {QStringLiteral("buckets"), hours == 1 ? 60 : 96}}, 60000);
            times << double(timer.nsecsElapsed()) / 1e6;
            if (reply.isError())
                out << "events.activity failed: " << reply.errorMessage() << '\n';
        }
        std::sort(times.begin(), times.end());
        out << "events.activity (" << hours << " h, whole store): median " << QString::number(times.at(2), 'f', 1)
            << " ms, worst " << QString::number(times.last(), 'f', 1) << " ms\n";
    }
    QElapsedTimer timer;
    timer.start();
    connection.call(
        QStringLiteral("events.activity"),
        {{QStringLiteral("buckets"), 30}, {QStringLiteral("hosts"), 0}, {QStringLiteral("perSandbox"), true}}, 60000);
    out << "events.activity (sparklines, per sandbox): " << QString::number(double(timer.nsecsElapsed()) / 1e6, 'f', 1)
        << " ms\n";
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QTextStream out(stdout);
    const QString home = guitest::isolateEnvironment();
    const QString stateDir = qEnvironmentVariable("XDG_STATE_HOME") + QStringLiteral("/paddock");
    QDir().mkpath(stateDir);

    QElapsedTimer timer;
    timer.start();
    if (!storeEvents(stateDir + QStringLiteral("/events.sqlite"))) {
        out << "cannot write the event log\n";
        return 1;
    }
    out << "stored " << kEvents << " refusals in " << timer.elapsed() << " ms\n";

    QProcess daemon;
    daemon.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    daemon.start(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--foreground")});
    if (!daemon.waitForStarted(5000)) {
        out << "paddockd did not start\n";
        return 1;
    }
    const QString socket = qEnvironmentVariable("XDG_RUNTIME_DIR") + QStringLiteral("/paddock/paddockd.sock");
    QElapsedTimer wait;
    wait.start();
    for (;;) {
        QLocalSocket probe;
        probe.connectToServer(socket);
        if (probe.waitForConnected(100))
            break;
        if (wait.hasExpired(20000)) {
            out << "paddockd does not answer\n";
            return 1;
        }
        QThread::msleep(50);
    }

    gui::setUpApplication(app);
    QQmlApplicationEngine engine;
    QQuickWindow *window = guitest::loadMainWindow(engine);
    if (!window) {
        out << "the window did not load\n";
        return 1;
    }
    window->resize(1100, 900);
    window->setProperty("currentIndex", 2);
    QQuickItem *page = guitest::findItem(window, QStringLiteral("page_network"));
    auto *policy = page->property("policy").value<gui::NetworkPolicy *>();
    gui::DenialsModel *denials = policy->denials();
    denials->setLimit(kEvents);
    if (!QTest::qWaitFor([policy] { return policy->connected(); }, 20000)) {
        out << "the window did not connect to paddockd\n";
        return 1;
    }
    timer.restart();
    denials->reload();
    if (!QTest::qWaitFor([denials] { return !denials->loading() && denials->rowCount() == kEvents; }, 600000))
        out << "still loading after 10 minutes\n";
    out << "listed " << denials->rowCount() << " rows in " << timer.elapsed() << " ms\n";

    QQuickItem *list = guitest::findItem(window, QStringLiteral("denialList"));
    if (!list || denials->rowCount() != kEvents) {
        out << "the list is not there\n";
        return 1;
    }
    // Bring the list into the page's view, then scroll it as a wheel would, and jump as a
    // dragged scroll bar would.
    for (QQuickItem *parent = list->parentItem(); parent; parent = parent->parentItem()) {
        if (parent->inherits("QQuickFlickable"))
            parent->setProperty("contentY", 0);
    }
    QList<double> frames;
    const qreal step = 48;
    auto scrollBy = [&](int count, qreal delta) {
        for (int i = 0; i < count; ++i)
            frames << timeFrame(window, [&] {
                list->setProperty("contentY", std::max<qreal>(0, list->property("contentY").toReal() + delta));
            });
    };
    scrollBy(600, step);
    const qreal contentHeight = list->property("contentHeight").toReal();
    for (const qreal fraction : {0.25, 0.5, 0.75, 0.999, 0.1}) {
        frames << timeFrame(window, [&] { list->setProperty("contentY", contentHeight * fraction); });
        scrollBy(100, fraction > 0.9 ? -step : step);
    }
    // A live refusal arriving while scrolled far down: counted in place, the view stays put.
    frames << timeFrame(window, [&] {
        denials->addEvent({{QStringLiteral("outcome"), QStringLiteral("denied")},
                           {QStringLiteral("host"), QStringLiteral("h050000.denied.example.org")},
                           {QStringLiteral("sandbox"), QStringLiteral("bench")},
                           {QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}});
    });

    std::vector<double> sorted(frames.cbegin(), frames.cend());
    std::sort(sorted.begin(), sorted.end());
    const auto over = std::count_if(sorted.cbegin(), sorted.cend(), [](double ms) { return ms > 16.0; });
    out << "five worst frames (ms):";
    for (auto it = sorted.crbegin(); it != sorted.crend() && it - sorted.crbegin() < 5; ++it)
        out << ' ' << QString::number(*it, 'f', 1);
    out << '\n';
    out << "frames " << sorted.size() << ", worst " << QString::number(sorted.back(), 'f', 1) << " ms, median "
        << QString::number(sorted[sorted.size() / 2], 'f', 1) << " ms, over 16 ms: " << over << " ("
        << (qEnvironmentVariableIsEmpty("DISPLAY") ? "offscreen" : "display " + qEnvironmentVariable("DISPLAY"))
        << ")\n";
    measureActivity(window, page, socket, out);
    out.flush();

    api::DaemonConnection connection;
    QString error;
    if (connection.open(socket, 5000, &error))
        connection.call(QStringLiteral("shutdown"));
    daemon.waitForFinished(10000);
    Q_UNUSED(home);
    return 0;
}
