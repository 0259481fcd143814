// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock run --rm --kit shell -- true` as a user types it, the whole process, with the root
// over the host's system mounted by the kernel's overlayfs and, in the same run, by
// fuse-overlayfs (PADDOCK_TEST_ROOT_MOUNT=fuse), beside a bare `bwrap --ro-bind / / true`.
// Each way has its own XDG folders and its own daemon, started by the first run, which is not
// counted (it also makes the host's skeleton once). And a command's own start: `paddock
// --version` beside a program with Qt Core and Network only.
#pragma once

#include "../StartTiming.h"
#include "common/FileTree.h"

#include <QFileInfo>

#include <cstring>

namespace paddock::bench {

/** @brief One way of starting: its environment (the program's own XDG folders). */
struct CliWay
{
    const char *label;
    QList<QByteArray> environment;
};

/** Runs @p argv with @p environment and waits for its end; ms of the whole process, -1 when it failed. */
inline double wholeProcess(const QList<QByteArray> &argv, const QList<QByteArray> &environment)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0); // the notes of every run
    std::vector<char *> args, env;
    for (const QByteArray &item : argv)
        args.push_back(const_cast<char *>(item.constData()));
    args.push_back(nullptr);
    for (const QByteArray &item : environment)
        env.push_back(const_cast<char *>(item.constData()));
    env.push_back(nullptr);
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    int status = -1;
    if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), env.data()) == 0)
        ::waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ms : -1;
}

inline CliWay cliWay(const char *label, const QString &folder, const QByteArray &extra)
{
    CliWay way{label, {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}};
    for (const char *name : {"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"}) {
        // The runtime folder on a tmpfs, as a desktop session's /run/user/UID is.
        const bool runtime =
            std::strcmp(name, "XDG_RUNTIME_DIR") == 0 && QFileInfo(QStringLiteral("/dev/shm")).isWritable();
        const QString path = runtime ? QStringLiteral("/dev/shm/paddock-bench-%1-%2")
                                           .arg(::getuid())
                                           .arg(QString::fromLatin1(label).section(QLatin1Char(' '), -1))
                                     : folder + QLatin1Char('/') + QLatin1String(name);
        QDir().mkpath(path);
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        way.environment << QByteArray(name) + '=' + QFile::encodeName(path);
    }
    if (!extra.isEmpty())
        way.environment << extra;
    return way;
}

/**
 * Times `paddock --version`, a command's start with nothing to do, beside a Qt Core and Network
 * program that does as little (qt-start-reference), alternately, @p runs times each.
 */
inline void benchCommandStart(const QByteArray &paddock, int runs)
{
    const QList<QByteArray> environment{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"};
    std::vector<double> command, floor;
    for (int i = 0; i < runs; ++i) {
        floor.push_back(wholeProcess({QT_START_REFERENCE_BIN}, environment));
        command.push_back(wholeProcess({paddock, "--version"}, environment));
    }
    const Figures f = figures(floor);
    const Figures c = figures(command);
    std::printf("a command's start, whole process, %d runs each (ms)\n", runs);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "Qt Core + Network, nothing else", f.median, f.p90);
    std::printf("  %-36s median %7.2f   p90 %7.2f   (%.2f x that)\n", "paddock --version", c.median, c.p90,
                c.median / f.median);
}

/** Times `paddock run --rm --kit shell -- true` each way, @p runs times; 0 when every run worked. */
inline int benchCli(const QByteArray &paddock, const QByteArray &bwrap, int runs)
{
    QTemporaryDir root;
    const QString workspace = root.filePath(QStringLiteral("workspace"));
    QDir().mkpath(workspace);
    const QList<CliWay> ways{
        cliWay("paddock run, kernel overlayfs", root.filePath(QStringLiteral("kernel")),
               "PADDOCK_TEST_ROOT_MOUNT=kernel"),
        cliWay("paddock run, fuse-overlayfs", root.filePath(QStringLiteral("fuse")), "PADDOCK_TEST_ROOT_MOUNT=fuse")};
    const QList<QByteArray> run{paddock, "run", "--rm", "--kit", "shell", QFile::encodeName(workspace), "--", "true"};
    const QList<QByteArray> bare{bwrap, "--ro-bind", "/", "/", "true"};
    std::vector<std::vector<double>> samples(ways.size() + 1);
    for (const CliWay &way : ways) {
        if (wholeProcess(run, way.environment) < 0) { // starts its daemon
            std::fprintf(stderr, "%s failed; run it by hand to see why\n", way.label);
            return 1;
        }
    }
    int failures = 0;
    for (int i = 0; i < runs; ++i) {
        samples[0].push_back(wholeProcess(bare, {"PATH=/usr/bin:/bin"}));
        for (qsizetype w = 0; w < ways.size(); ++w) {
            const double ms = wholeProcess(run, ways[w].environment);
            failures += ms < 0 ? 1 : 0;
            samples[size_t(w) + 1].push_back(ms);
        }
    }
    for (const CliWay &way : ways) {
        wholeProcess({paddock, "daemon", "stop"}, way.environment);
        for (const QByteArray &variable : way.environment) {
            if (variable.startsWith("XDG_RUNTIME_DIR=/dev/shm/"))
                filetree::removeTree(QFile::decodeName(variable.mid(16)));
        }
    }
    const Figures b = figures(samples[0]);
    std::printf("paddock run --rm --kit shell -- true, whole process, as uid %d, %d runs each (ms)\n", int(::getuid()),
                runs);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "bare bwrap --ro-bind / / true", b.median, b.p90);
    for (qsizetype w = 0; w < ways.size(); ++w) {
        const Figures f = figures(samples[size_t(w) + 1]);
        std::printf("  %-36s median %7.2f   p90 %7.2f   (%.1f x bare)\n", ways[w].label, f.median, f.p90,
                    f.median / b.median);
    }
    filetree::removeTree(root.path()); // overlayfs' work folders are mode 0000
    if (failures)
        std::fprintf(stderr, "%d runs failed\n", failures);
    return failures ? 1 : 0;
}

} // namespace paddock::bench
