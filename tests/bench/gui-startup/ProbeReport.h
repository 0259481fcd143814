// SPDX-License-Identifier: GPL-3.0-or-later
// What a probed window prints for the start-up benchmark's driver: "first-frame-ns T"
// (CLOCK_MONOTONIC when the first frame was swapped), then, BENCH_GUI_SETTLE_MS (default
// 5000) later, "rss-kib N" (VmRSS of /proc/self/status) and "pss-kib N" (Pss of
// /proc/self/smaps_rollup), and quits. Header-only: shared by the window's probe and the
// reference program.
#pragma once

#include <QCoreApplication>
#include <QFile>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <memory>

namespace benchprobe {

inline qint64 monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/** The figure after @p key (e.g. "VmRSS:") in a /proc file of "Key: N kB" lines, or -1. */
inline qint64 procKib(const char *file, const char *key)
{
    QFile status{QString::fromLatin1(file)};
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray prefix(key);
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').constFirst().toLongLong();
    }
    return -1;
}

inline int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok && value > 0 ? value : fallback;
}

inline void reportWhenSettled(QCoreApplication &app, QQmlApplicationEngine &engine)
{
    const int settleMs = envInt("BENCH_GUI_SETTLE_MS", 5000);
    QObject::connect(&engine, &QQmlApplicationEngine::objectCreated, &app, [&app, settleMs](QObject *object) {
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
                std::printf("rss-kib %lld\n", static_cast<long long>(procKib("/proc/self/status", "VmRSS:")));
                std::printf("pss-kib %lld\n", static_cast<long long>(procKib("/proc/self/smaps_rollup", "Pss:")));
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        });
    });
}

} // namespace benchprobe
