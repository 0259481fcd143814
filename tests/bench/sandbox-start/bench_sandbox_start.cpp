// SPDX-License-Identifier: GPL-3.0-or-later
//
// Cold start of a sandbox, to the first byte its command prints: a Paddock bubblewrap sandbox
// (all mounts, paddock-init with its relay, state written) against a bare
// `bwrap --ro-bind / / echo` of the same command. The difference is what Paddock costs.
//
//   sandbox-start-bench [RUNS]      (default 50)
//   sandbox-start-bench --cli PADDOCK [RUNS]   (default 30): `paddock run` whole, CliStart.h
#include "../StartTiming.h"
#include "CliStart.h"
#include "runtime/bwrap/BwrapCommand.h"

#include <QCoreApplication>
#include <QStandardPaths>

#include <cstring>

using namespace paddock::bench;
using paddock::runtime::BwrapRuntime;
using paddock::runtime::SandboxSpec;

namespace {

double bwrapWithPaddockArguments(const QByteArray &bwrap, const QList<QByteArray> &arguments)
{
    return spawnToFirstByte(QList<QByteArray>{bwrap} + arguments);
}

/** Starts @p spec, created first when @p create (and removed after); ms to its first output byte. */
double paddockSandbox(BwrapRuntime &runtime, const SandboxSpec &spec, bool create)
{
    QElapsedTimer timer;
    timer.start();
    if (create)
        runtime.create(spec);
    const double ms = startToFirstByte(runtime, spec.name, &timer);
    if (create)
        runtime.remove(spec.name, true);
    return ms;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QByteArray bwrap = QFile::encodeName(QStandardPaths::findExecutable(QStringLiteral("bwrap")));
    if (bwrap.isEmpty()) {
        std::fprintf(stderr, "bwrap is not installed\n");
        return 1;
    }
    if (argc > 2 && std::strcmp(argv[1], "--cli") == 0) {
        const int cliRuns = argc > 3 ? std::max(1, std::atoi(argv[3])) : 30;
        benchCommandStart(argv[2], cliRuns);
        std::printf("\n");
        return benchCli(argv[2], bwrap, cliRuns);
    }
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    QTemporaryDir root;
    SandboxSpec spec = echoSpec(root);
    spec.name = QStringLiteral("bench");
    BwrapRuntime runtime;

    // The same mounts and init, launched without the runtime around them: what bwrap itself costs.
    QList<QByteArray> paddockArguments;
    paddock::runtime::bwrap::LaunchPaths paths;
    paths.homeDir = runtime.privateHome(spec.name);
    for (const QString &argument : paddock::runtime::bwrap::bwrapArguments(spec, paths))
        paddockArguments << QFile::encodeName(argument);

    // Sandboxes with a root of their own over the host's system, made once and started each
    // round: the kernel's overlayfs (with the skeleton for an ordinary user) and fuse-overlayfs.
    std::vector<SandboxSpec> overHost;
    for (const bool fuse : {false, true}) {
        SandboxSpec over = spec;
        over.name = fuse ? QStringLiteral("bench-fuse") : QStringLiteral("bench-kernel");
        paddock::runtime::bwrap::RootChoice choice;
        choice.base = paddock::runtime::bwrap::RootChoice::Base::Host;
        choice.fuse = fuse;
        runtime.setRoot(over.name, choice);
        runtime.create(over);
        paddockSandbox(runtime, over, false); // the skeleton is made at the first start
        overHost.push_back(over);
    }

    std::vector<double> bare, mounts, started, created, kernel, fuse;
    bareBwrap(bwrap); // warm the page cache for both
    runtime.create(spec);
    paddockSandbox(runtime, spec, false);
    for (int i = 0; i < runs; ++i) {
        kernel.push_back(paddockSandbox(runtime, overHost[0], false));
        fuse.push_back(paddockSandbox(runtime, overHost[1], false));
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
    const Figures k = figures(kernel), f = figures(fuse);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "start, root over host, kernel overlayfs", k.median, k.p90);
    std::printf("  %-36s median %7.2f   p90 %7.2f\n", "start, root over host, fuse-overlayfs", f.median, f.p90);
    std::printf("  difference (start - bare): median %+.2f ms, p90 %+.2f ms (target: at most +50 ms)\n",
                s.median - b.median, s.p90 - b.p90);
    std::printf("  difference (create + start - bare): median %+.2f ms, p90 %+.2f ms\n", c.median - b.median,
                c.p90 - b.p90);
    for (const SandboxSpec &over : overHost)
        runtime.remove(over.name, true);
    return 0;
}
