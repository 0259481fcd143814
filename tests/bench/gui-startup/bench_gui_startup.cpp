// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up of the Paddock window: time from process start to the first frame on screen,
// and resident memory once the window has settled, against a minimal Qt Quick window
// (one Rectangle) started the same way in the same run.
//
// Without arguments it is the driver: it starts itself as a child, alternately with
// `--probe paddock` and `--probe reference`, RUNS times each (default 7, env
// BENCH_GUI_RUNS), and prints medians and ratios. A child prints two lines, read by the
// driver: "first-frame-ns T" (CLOCK_MONOTONIC when the first frame was swapped) and
// "rss-kib N" (VmRSS after SETTLE ms, default 1500, env BENCH_GUI_SETTLE_MS).
// Needs a display (DISPLAY, e.g. Xvfb); run.sh provides one.
#include "Application.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QProcess>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QTemporaryDir>
#include <QTimer>
#include <QtQml/qqmlextensionplugin.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

namespace {

qint64 monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

qint64 residentKib()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').constFirst().toLongLong();
    }
    return -1;
}

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok && value > 0 ? value : fallback;
}

// The child: the window exactly as main() opens it, or the reference window.
int probe(int argc, char *argv[], bool reference)
{
    QGuiApplication app(argc, argv);
    paddock::gui::setUpApplication(app);
    paddock::gui::installTranslations(app);
    QQmlApplicationEngine engine;
    paddock::gui::prepareEngine(engine);
    const int settleMs = envInt("BENCH_GUI_SETTLE_MS", 1500);

    QObject::connect(&engine, &QQmlApplicationEngine::objectCreated, &app, [&](QObject *object, const QUrl &) {
        auto *window = qobject_cast<QQuickWindow *>(object);
        if (!window) {
            std::fprintf(stderr, "the window did not load\n");
            QCoreApplication::exit(1);
            return;
        }
        auto once = std::make_shared<bool>(false);
        QObject::connect(window, &QQuickWindow::frameSwapped, &app, [once, settleMs] {
            if (*once)
                return;
            *once = true;
            std::printf("first-frame-ns %lld\n", static_cast<long long>(monotonicNs()));
            std::fflush(stdout);
            QTimer::singleShot(settleMs, [] {
                std::printf("rss-kib %lld\n", static_cast<long long>(residentKib()));
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        });
    });
    if (reference) {
        engine.loadData("import QtQuick\n"
                        "Window { width: 1100; height: 720; visible: true; title: \"reference\"\n"
                        "  Rectangle { anchors.fill: parent; anchors.margins: 40; color: \"steelblue\" } }\n");
    } else {
        engine.load(paddock::gui::mainQmlUrl());
    }
    return app.exec();
}

struct Sample
{
    double firstFrameMs = 0;
    double rssMib = 0;
};

bool runOnce(const QString &variant, const QString &home, Sample *sample)
{
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}) {
        const QString dir = home + QLatin1Char('/') + QLatin1String(name);
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        env.insert(QLatin1String(name), dir);
    }
    // The window looks for its daemon; none is started, so both windows do only their own work.
    env.insert(QStringLiteral("PADDOCKD"), home + QStringLiteral("/no-such-paddockd"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const qint64 started = monotonicNs();
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--probe"), variant});
    if (!child.waitForFinished(60000)) {
        child.kill();
        child.waitForFinished();
        return false;
    }
    qint64 frame = -1;
    qint64 rss = -1;
    for (const QByteArray &line : child.readAllStandardOutput().split('\n')) {
        if (line.startsWith("first-frame-ns "))
            frame = line.mid(15).toLongLong();
        else if (line.startsWith("rss-kib "))
            rss = line.mid(8).toLongLong();
    }
    if (frame < 0 || rss < 0)
        return false;
    sample->firstFrameMs = double(frame - started) / 1e6;
    sample->rssMib = double(rss) / 1024.0;
    return true;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n == 0 ? 0 : (n % 2 ? values.at(n / 2) : (values.at(n / 2 - 1) + values.at(n / 2)) / 2);
}

int drive(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        std::fprintf(stderr, "gui-startup-bench: needs a display (run it through run.sh, which starts Xvfb)\n");
        return 1;
    }
    const int runs = envInt("BENCH_GUI_RUNS", 7);
    QTemporaryDir home;
    QList<double> frames[2];
    QList<double> rss[2];
    const QString variants[2] = {QStringLiteral("paddock"), QStringLiteral("reference")};
    // One warm-up of each, not counted: the first start reads libraries from disk.
    for (const QString &variant : variants) {
        Sample ignored;
        if (!runOnce(variant, home.path(), &ignored)) {
            std::fprintf(stderr, "gui-startup-bench: the %s window did not show a frame\n", qPrintable(variant));
            return 1;
        }
    }
    for (int run = 0; run < runs; ++run) {
        for (int v = 0; v < 2; ++v) {
            Sample sample;
            if (!runOnce(variants[v], home.path(), &sample)) {
                std::fprintf(stderr, "gui-startup-bench: the %s window did not show a frame\n",
                             qPrintable(variants[v]));
                return 1;
            }
            frames[v] << sample.firstFrameMs;
            rss[v] << sample.rssMib;
        }
    }
    const double frameP = median(frames[0]);
    const double frameR = median(frames[1]);
    const double rssP = median(rss[0]);
    const double rssR = median(rss[1]);
    // The scene graph backend weighs most on memory: Mesa's software OpenGL under Xvfb alone
    // costs tens of MiB that QT_QUICK_BACKEND=software does not.
    std::printf("gui start-up, %d runs each, medians (platform %s, scene graph %s)\n", runs,
                qPrintable(qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("default"))),
                qPrintable(qEnvironmentVariable("QT_QUICK_BACKEND", QStringLiteral("default"))));
    std::printf("  %-34s %10s %12s %8s %8s\n", "", "paddock", "reference", "ratio", "target");
    std::printf("  %-34s %10.0f %12.0f %8.2f %8s\n", "process start to first frame (ms)", frameP, frameR,
                frameR > 0 ? frameP / frameR : 0.0, "<= 500");
    std::printf("  %-34s %10.1f %12.1f %8.2f %8s\n", "resident memory when idle (MiB)", rssP, rssR,
                rssR > 0 ? rssP / rssR : 0.0, "<= 150");
    std::printf("  reference: a Qt Quick window with one Rectangle, started the same way\n");
    std::printf("  %s, %s\n", frameP <= 500 ? "first frame within target" : "FIRST FRAME OVER TARGET",
                rssP <= 150 ? "memory within target" : "MEMORY OVER TARGET");
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc == 3 && qstrcmp(argv[1], "--probe") == 0)
        return probe(argc, argv, qstrcmp(argv[2], "reference") == 0);
    return drive(argc, argv);
}
