// SPDX-License-Identifier: GPL-3.0-or-later
//
// Cold start of a sandbox, to the first byte its command prints: a Paddock bubblewrap sandbox
// (all mounts, paddock-init with its relay, state written) against a bare
// `bwrap --ro-bind / / echo` of the same command. The difference is what Paddock costs.
//
//   sandbox-start-bench [RUNS]      (default 50)
#include "runtime/SandboxSpec.h"
#include "runtime/bwrap/BwrapCommand.h"
#include "runtime/bwrap/BwrapRuntime.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
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

using paddock::runtime::BwrapRuntime;
using paddock::runtime::SandboxSpec;

namespace {

/** Milliseconds from @p timer's start until @p fd has a byte to read. */
double untilFirstByte(int fd, const QElapsedTimer &timer)
{
    pollfd wait{fd, POLLIN, 0};
    if (::poll(&wait, 1, 30000) != 1) {
        std::fprintf(stderr, "no output within 30 s\n");
        std::exit(1);
    }
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    char buffer[256];
    [[maybe_unused]] const ssize_t n = ::read(fd, buffer, sizeof buffer);
    return ms;
}

/** Spawns @p command (program first) with stdout on a pipe; ms to its first output byte. */
double spawnToFirstByte(const QList<QByteArray> &command)
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

double bareBwrap(const QByteArray &bwrap)
{
    return spawnToFirstByte({bwrap, "--ro-bind", "/", "/", "echo", "hi"});
}

double bwrapWithPaddockArguments(const QByteArray &bwrap, const QList<QByteArray> &arguments)
{
    return spawnToFirstByte(QList<QByteArray>{bwrap} + arguments);
}

double paddockSandbox(BwrapRuntime &runtime, SandboxSpec spec, bool create)
{
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) != 0)
        return -1;
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    QElapsedTimer timer;
    timer.start();
    if (create)
        runtime.create(spec);
    std::thread run([&] { runtime.start(spec.name, {devNull, pipe[1], pipe[1]}); });
    const double ms = untilFirstByte(pipe[0], timer);
    run.join();
    ::close(pipe[1]);
    ::close(pipe[0]);
    ::close(devNull);
    if (create)
        runtime.remove(spec.name, true);
    return ms;
}

struct Figures
{
    double median;
    double p90;
};

Figures figures(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return {samples[samples.size() / 2], samples[std::min(samples.size() - 1, samples.size() * 9 / 10)]};
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    const QByteArray bwrap = QFile::encodeName(QStandardPaths::findExecutable(QStringLiteral("bwrap")));
    if (bwrap.isEmpty()) {
        std::fprintf(stderr, "bwrap is not installed\n");
        return 1;
    }
    QTemporaryDir root;
    for (const char *xdg : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
        qputenv(xdg, QFile::encodeName(root.filePath(QString::fromLatin1(xdg))));
    QDir().mkpath(root.filePath(QStringLiteral("workspace")));

    SandboxSpec spec;
    spec.name = QStringLiteral("bench");
    spec.workspace = root.filePath(QStringLiteral("workspace"));
    spec.initPath = QStringLiteral(PADDOCK_INIT_BIN);
    // A socket file stands in for the proxy endpoint: the relay only connects on demand.
    spec.proxySocket = root.filePath(QStringLiteral("proxy.sock"));
    QFile(spec.proxySocket).open(QIODevice::WriteOnly);
    spec.environment = paddock::runtime::baseEnvironment(spec);
    spec.argv = QStringList{QStringLiteral("echo"), QStringLiteral("hi")};
    spec.lifetime = SandboxSpec::Lifetime::Foreground;
    BwrapRuntime runtime;

    // The same mounts and init, launched without the runtime around them: what bwrap itself costs.
    QList<QByteArray> paddockArguments;
    paddock::runtime::bwrap::LaunchPaths paths;
    paths.homeDir = runtime.privateHome(spec.name);
    for (const QString &argument : paddock::runtime::bwrap::bwrapArguments(spec, paths))
        paddockArguments << QFile::encodeName(argument);

    std::vector<double> bare, mounts, started, created;
    bareBwrap(bwrap); // warm the page cache for both
    runtime.create(spec);
    paddockSandbox(runtime, spec, false);
    for (int i = 0; i < runs; ++i) {
        bare.push_back(bareBwrap(bwrap));
        mounts.push_back(bwrapWithPaddockArguments(bwrap, paddockArguments));
        started.push_back(paddockSandbox(runtime, spec, false));
        SandboxSpec fresh = spec;
        fresh.name = QStringLiteral("bench-new");
        created.push_back(paddockSandbox(runtime, fresh, true));
    }
    const Figures b = figures(bare), m = figures(mounts), s = figures(started), c = figures(created);
    std::printf("sandbox start to first output, %d runs each (ms)\n", runs);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "bare bwrap --ro-bind / / echo", b.median, b.p90);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "bwrap with paddock's arguments", m.median, m.p90);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "paddock sandbox, start", s.median, s.p90);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "paddock sandbox, create + start", c.median, c.p90);
    std::printf("  difference (start - bare): median %+.2f ms, p90 %+.2f ms (target: at most +50 ms)\n",
                s.median - b.median, s.p90 - b.p90);
    std::printf("  difference (create + start - bare): median %+.2f ms, p90 %+.2f ms\n", c.median - b.median,
                c.p90 - b.p90);
    return 0;
}
