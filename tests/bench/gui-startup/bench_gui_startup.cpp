// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up of the Paddock window: time from process start to the first frame on screen,
// and memory once the window has settled (resident and proportional), against a minimal Qt
// Quick window (one Rectangle, gui-startup-reference: nothing of Paddock's linked) started the
// same way in the same run.
//
// Without arguments it is the driver: it starts paddockd in a private home (BENCH_PADDOCKD,
// the path of the daemon; as in a user's session, the window finds it running), then starts
// itself with `--probe paddock` and the reference program alternately, RUNS times each
// (default 7, env BENCH_GUI_RUNS), and prints medians and ratios. A child prints the lines of
// ProbeReport.h, settled BENCH_GUI_SETTLE_MS (default 5000) after its first frame. With
// BENCH_PADDOCK (run.sh sets it) each round also starts the real `paddock`, read from outside.
// Needs a display (DISPLAY, e.g. Xvfb); run.sh provides one.
#include "Application.h"
#include "ProbeReport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QLocalSocket>
#include <QProcess>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtQml/qqmlextensionplugin.h>

#include <algorithm>
#include <cstdio>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

namespace {

// The child: the window exactly as main() opens it.
int probe(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    paddock::gui::setUpApplication(app);
    paddock::gui::installTranslations(app);
    QQmlApplicationEngine engine;
    paddock::gui::prepareEngine(engine);
    benchprobe::reportWhenSettled(app, engine);
    engine.load(paddock::gui::mainQmlUrl());
    paddock::gui::releaseStartupMemory(engine);
    return app.exec();
}

struct Sample
{
    double firstFrameMs = 0;
    double rssMib = 0;
    double pssMib = 0;
};

// A private home of XDG folders, shared by the daemon and every window of the run.
QProcessEnvironment homeEnvironment(const QString &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}) {
        const QString dir = home + QLatin1Char('/') + QLatin1String(name);
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        env.insert(QLatin1String(name), dir);
    }
    const QString daemon = qEnvironmentVariable("BENCH_PADDOCKD");
    env.insert(QStringLiteral("PADDOCKD"), daemon.isEmpty() ? home + QStringLiteral("/no-such-paddockd") : daemon);
    return env;
}

// paddockd in the foreground, waited for (bounded) until its socket answers.
bool startDaemon(QProcess *daemon, const QProcessEnvironment &env)
{
    const QString program = env.value(QStringLiteral("PADDOCKD"));
    const QString socket = env.value(QStringLiteral("XDG_RUNTIME_DIR")) + QStringLiteral("/paddock/paddockd.sock");
    daemon->setProcessEnvironment(env);
    daemon->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    daemon->start(program, {QStringLiteral("--foreground")});
    if (!daemon->waitForStarted(10000))
        return false;
    for (int i = 0; i < 300 && daemon->state() == QProcess::Running; ++i) {
        QLocalSocket probe;
        probe.connectToServer(socket);
        if (probe.waitForConnected(100))
            return true;
        QThread::msleep(100);
    }
    return false;
}

bool runOnce(const QString &program, const QStringList &arguments, const QProcessEnvironment &env, Sample *sample)
{
    QProcess child;
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const qint64 started = benchprobe::monotonicNs();
    child.start(program, arguments);
    if (!child.waitForFinished(60000)) {
        child.kill();
        child.waitForFinished();
        return false;
    }
    qint64 frame = -1;
    qint64 rss = -1;
    qint64 pss = -1;
    for (const QByteArray &line : child.readAllStandardOutput().split('\n')) {
        if (line.startsWith("first-frame-ns "))
            frame = line.mid(15).toLongLong();
        else if (line.startsWith("rss-kib "))
            rss = line.mid(8).toLongLong();
        else if (line.startsWith("pss-kib "))
            pss = line.mid(8).toLongLong();
    }
    if (frame < 0 || rss < 0)
        return false;
    sample->firstFrameMs = double(frame - started) / 1e6;
    sample->rssMib = double(rss) / 1024.0;
    sample->pssMib = double(pss) / 1024.0;
    return true;
}

// The installed program as a user starts it (`paddock`, the CLI linked in, one window per
// session), read from outside: its window has no probe, so it is read @p waitMs after start
// (the probe's first frame of the same round, twice over, plus the settling time).
bool runProgram(const QString &program, const QProcessEnvironment &env, int waitMs, Sample *sample)
{
    QProcess child;
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(program, {});
    if (!child.waitForStarted(10000))
        return false;
    const bool ended = child.waitForFinished(waitMs);
    const QByteArray proc = "/proc/" + QByteArray::number(child.processId());
    const qint64 rss = ended ? -1 : benchprobe::procKib(proc + "/status", "VmRSS:");
    const qint64 pss = ended ? -1 : benchprobe::procKib(proc + "/smaps_rollup", "Pss:");
    child.terminate();
    if (!child.waitForFinished(10000)) {
        child.kill();
        child.waitForFinished();
    }
    sample->rssMib = double(rss) / 1024.0;
    sample->pssMib = double(pss) / 1024.0;
    return rss > 0;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n == 0 ? 0 : (n % 2 ? values.at(n / 2) : (values.at(n / 2 - 1) + values.at(n / 2)) / 2);
}

struct Figures
{
    QList<double> frames;
    QList<double> rss;
    QList<double> pss;
};

// One warm-up of each window, not counted (the first start reads libraries from disk), then
// RUNS of each, alternating.
bool measure(const QProcessEnvironment &env, int runs, Figures figures[3])
{
    const QString self = QCoreApplication::applicationFilePath();
    const QString program[2] = {self,
                                QCoreApplication::applicationDirPath() + QStringLiteral("/gui-startup-reference")};
    const QStringList arguments[2] = {{QStringLiteral("--probe"), QStringLiteral("paddock")}, {}};
    const QString installed = qEnvironmentVariable("BENCH_PADDOCK");
    const int settleMs = benchprobe::envInt("BENCH_GUI_SETTLE_MS", 5000);
    for (int run = -1; run < runs; ++run) {
        for (int v = 0; v < 2; ++v) {
            Sample sample;
            if (!runOnce(program[v], arguments[v], env, &sample)) {
                std::fprintf(stderr, "gui-startup-bench: the %s window did not show a frame\n",
                             v == 0 ? "paddock" : "reference");
                return false;
            }
            if (run < 0)
                continue;
            figures[v].frames << sample.firstFrameMs;
            figures[v].rss << sample.rssMib;
            figures[v].pss << sample.pssMib;
        }
        Sample itself;
        const int waitMs = int(2 * figures[0].frames.value(figures[0].frames.size() - 1, 1000)) + settleMs;
        if (!installed.isEmpty() && run >= 0) {
            if (!runProgram(installed, env, waitMs, &itself)) {
                std::fprintf(stderr, "gui-startup-bench: %s did not keep its window open\n", qPrintable(installed));
                return false;
            }
            figures[2].rss << itself.rssMib;
            figures[2].pss << itself.pssMib;
        }
    }
    return true;
}

void printRow(const char *what, const QList<double> &paddock, const QList<double> &reference, const char *target)
{
    const double p = median(paddock);
    const double r = median(reference);
    std::printf("  %-36s %10.1f %12.1f %8.2f %8s\n", what, p, r, r > 0 ? p / r : 0.0, target);
}

int drive(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        std::fprintf(stderr, "gui-startup-bench: needs a display (run it through run.sh, which starts Xvfb)\n");
        return 1;
    }
    const int runs = benchprobe::envInt("BENCH_GUI_RUNS", 7);
    QTemporaryDir home;
    const QProcessEnvironment env = homeEnvironment(home.path());
    QProcess daemon;
    const bool withDaemon = !qEnvironmentVariableIsEmpty("BENCH_PADDOCKD");
    if (withDaemon && !startDaemon(&daemon, env)) {
        std::fprintf(stderr, "gui-startup-bench: paddockd did not start\n");
        return 1;
    }
    Figures figures[3];
    const bool measured = measure(env, runs, figures);
    if (withDaemon) {
        daemon.terminate();
        if (!daemon.waitForFinished(10000))
            daemon.kill();
    }
    if (!measured)
        return 1;
    // The scene graph backend weighs most on memory: Mesa's software OpenGL under Xvfb alone
    // costs tens of MiB that QT_QUICK_BACKEND=software does not.
    std::printf("gui start-up, %d runs each, medians (platform %s, scene graph %s, %s, settled %d ms)\n", runs,
                qPrintable(qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("default"))),
                qPrintable(qEnvironmentVariable("QT_QUICK_BACKEND", QStringLiteral("default"))),
                withDaemon ? "paddockd running" : "no daemon", benchprobe::envInt("BENCH_GUI_SETTLE_MS", 5000));
    std::printf("  %-36s %10s %12s %8s %8s\n", "", "paddock", "reference", "ratio", "target");
    printRow("process start to first frame (ms)", figures[0].frames, figures[1].frames, "<= 500");
    printRow("resident memory when idle (MiB)", figures[0].rss, figures[1].rss, "<= 150");
    printRow("proportional memory (Pss, MiB)", figures[0].pss, figures[1].pss, "");
    if (!figures[2].rss.isEmpty()) {
        printRow("paddock itself: resident (MiB)", figures[2].rss, figures[1].rss, "<= 150");
        printRow("paddock itself: proportional (MiB)", figures[2].pss, figures[1].pss, "");
    }
    std::printf("  reference: a Qt Quick window with one Rectangle (gui-startup-reference), started the same way\n");
    const double frameP = median(figures[0].frames);
    const double rssP = median(figures[2].rss.isEmpty() ? figures[0].rss : figures[2].rss);
    std::printf("  %s, %s\n", frameP <= 500 ? "first frame within target" : "FIRST FRAME OVER TARGET",
                rssP <= 150 ? "memory within target" : "MEMORY OVER TARGET");
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc == 3 && qstrcmp(argv[1], "--probe") == 0 && qstrcmp(argv[2], "paddock") == 0)
        return probe(argc, argv);
    return drive(argc, argv);
}
