// SPDX-License-Identifier: GPL-3.0-or-later
// What the sandbox start benchmarks share: the time from a launch to the first byte its command
// prints, a bare `bwrap --ro-bind / / echo hi` to compare with, the sandbox they all start
// (`echo hi` in the foreground, in private XDG folders) and the median and p90 of samples.
#pragma once

#include "runtime/SandboxSpec.h"
#include "runtime/bwrap/BwrapRuntime.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace paddock::bench {

struct Figures
{
    double median;
    double p90;
};

inline Figures figures(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return {samples[samples.size() / 2], samples[std::min(samples.size() - 1, samples.size() * 9 / 10)]};
}

/** Milliseconds from @p timer's start until @p fd has a byte to read; the bytes read go to @p got. */
inline double untilFirstByte(int fd, const QElapsedTimer &timer, QByteArray *got = nullptr)
{
    pollfd wait{fd, POLLIN, 0};
    if (::poll(&wait, 1, 30000) != 1) {
        std::fprintf(stderr, "no output within 30 s\n");
        std::exit(1);
    }
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    char buffer[256];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (got && n > 0)
        *got = QByteArray(buffer, int(n));
    return ms;
}

/** Spawns @p command (program first) with stdout on a pipe; ms to its first output byte. */
inline double spawnToFirstByte(const QList<QByteArray> &command)
{
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1);
    std::vector<char *> argv;
    for (const QByteArray &item : command)
        argv.push_back(const_cast<char *>(item.constData()));
    argv.push_back(nullptr);
    char *envp[] = {nullptr};
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp);
    ::close(pipe[1]);
    const double ms = untilFirstByte(pipe[0], timer);
    ::close(pipe[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    return ms;
}

inline double bareBwrap(const QByteArray &bwrap)
{
    return spawnToFirstByte({bwrap, "--ro-bind", "/", "/", "echo", "hi"});
}

/**
 * Starts the created sandbox @p name; ms from @p since (or from the call) to its first output
 * byte, which must be its command's `hi`: an error message is output too.
 */
inline double startToFirstByte(runtime::BwrapRuntime &runtime, const QString &name,
                               const QElapsedTimer *since = nullptr)
{
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) != 0)
        return -1;
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    QElapsedTimer timer;
    timer.start();
    std::thread run([&] { runtime.start(name, {devNull, pipe[1], pipe[1]}); });
    QByteArray got;
    const double ms = untilFirstByte(pipe[0], since ? *since : timer, &got);
    run.join();
    ::close(pipe[1]);
    ::close(pipe[0]);
    ::close(devNull);
    if (!got.startsWith("hi")) {
        std::fprintf(stderr, "sandbox %s printed: %s\n", qPrintable(name), got.constData());
        std::exit(1);
    }
    return ms;
}

/**
 * Points the XDG folders into @p root and returns the spec every start benchmark times: `echo hi`
 * in the foreground, with paddock-init, a workspace, and a socket file that stands in for the
 * proxy endpoint (the relay only connects on demand). Unnamed.
 */
inline runtime::SandboxSpec echoSpec(const QTemporaryDir &root)
{
    for (const char *xdg : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
        qputenv(xdg, QFile::encodeName(root.filePath(QString::fromLatin1(xdg))));
    QDir().mkpath(root.filePath(QStringLiteral("workspace")));
    runtime::SandboxSpec spec;
    spec.workspace = root.filePath(QStringLiteral("workspace"));
    spec.initPath = QStringLiteral(PADDOCK_INIT_BIN);
    spec.proxySocket = root.filePath(QStringLiteral("proxy.sock"));
    QFile(spec.proxySocket).open(QIODevice::WriteOnly);
    spec.environment = runtime::baseEnvironment(spec);
    spec.argv = QStringList{QStringLiteral("echo"), QStringLiteral("hi")};
    spec.lifetime = runtime::SandboxSpec::Lifetime::Foreground;
    return spec;
}

} // namespace paddock::bench
