// SPDX-License-Identifier: GPL-3.0-or-later
//
// Cold start of a Docker sandbox to its command's end: a Paddock sandbox through
// DockerRuntime (create with every mount and label, paddock-init with its relay, a foreground
// start that attaches, starts and waits, then remove with its home volume) against
// `docker run --rm --network none IMAGE true` of the same busybox image, which does the same
// create, attach, start, wait and remove through the docker CLI. Runs alternate so both see
// the same engine load.
//
//   docker-start-bench [RUNS]      (default 20)
#include "DockerRuntimeTestSupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace paddock::tests::docker;

namespace {

struct Figures
{
    double median = 0;
    double p90 = 0;
};

Figures figuresOf(std::vector<double> samples)
{
    std::sort(samples.begin(), samples.end());
    const auto at = [&samples](double q) {
        return samples[std::min(samples.size() - 1, size_t(q * double(samples.size() - 1) + 0.5))];
    };
    return {at(0.5), at(0.9)};
}

/** Milliseconds for `docker run --rm --network none IMAGE true`; negative when it failed. */
double dockerRun(const QString &docker, const QString &image)
{
    QProcess process;
    QElapsedTimer timer;
    timer.start();
    process.start(docker, {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--network"),
                           QStringLiteral("none"), image, QStringLiteral("true")});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return -1;
    return double(timer.nsecsElapsed()) / 1e6;
}

/** Milliseconds to create, run in the foreground and remove a sandbox running `true`. */
double paddockRun(DockerTestBed &bed, double *untilExit)
{
    const QString name = bed.newName(QStringLiteral("bench"));
    paddock::runtime::SandboxSpec spec = bed.spec(name, {});
    spec.argv = {QStringLiteral("true")};
    spec.lifetime = paddock::runtime::SandboxSpec::Lifetime::Foreground;
    QElapsedTimer timer;
    timer.start();
    if (!bed.runtime().create(spec).ok)
        return -1;
    const CommandRun run =
        bed.capture([&](const paddock::runtime::ProcessIo &io) { return bed.runtime().start(name, io); });
    if (run.result.exitCode != 0)
        return -1;
    *untilExit = double(timer.nsecsElapsed()) / 1e6;
    if (!bed.runtime().remove(name, true).ok)
        return -1;
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, atoi(argv[1])) : 20;
    const QString docker = QStandardPaths::findExecutable(QStringLiteral("docker"));
    if (docker.isEmpty()) {
        std::fprintf(stderr, "docker-start-bench: the docker CLI is not installed\n");
        return 1;
    }
    QLoggingCategory::setFilterRules(QStringLiteral("paddock.*.info=false"));
    DockerTestBed bed;
    const QString reason = bed.prepare();
    if (!reason.isEmpty()) {
        std::fprintf(stderr, "docker-start-bench: %s\n", qPrintable(reason));
        return 1;
    }
    // One of each first, unmeasured: the image's layers and the CLI's binary are then cached.
    double ignored = 0;
    dockerRun(docker, bed.image());
    paddockRun(bed, &ignored);

    std::vector<double> paddock, paddockExit, reference;
    for (int i = 0; i < runs; ++i) {
        double exit = 0;
        const double total = paddockRun(bed, &exit);
        const double bare = dockerRun(docker, bed.image());
        if (total < 0 || bare < 0) {
            std::fprintf(stderr, "docker-start-bench: run %d failed\n", i + 1);
            return 1;
        }
        paddock.push_back(total);
        paddockExit.push_back(exit);
        reference.push_back(bare);
    }
    const Figures ours = figuresOf(paddock);
    const Figures toExit = figuresOf(paddockExit);
    const Figures theirs = figuresOf(reference);
    std::printf("docker-start: %d runs each, milliseconds\n", runs);
    std::printf("  %-44s median %7.1f  p90 %7.1f\n", "DockerRuntime create+start+wait (to exit)", toExit.median,
                toExit.p90);
    std::printf("  %-44s median %7.1f  p90 %7.1f\n", "DockerRuntime create+start+wait+remove", ours.median, ours.p90);
    std::printf("  %-44s median %7.1f  p90 %7.1f\n", "docker run --rm --network none IMAGE true", theirs.median,
                theirs.p90);
    std::printf("  ratio (with remove / docker run): median %.2fx  p90 %.2fx (target <= 1.0x)\n",
                ours.median / theirs.median, ours.p90 / theirs.p90);
    return 0;
}
