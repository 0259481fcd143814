// SPDX-License-Identifier: GPL-3.0-or-later
//
// Start of a bubblewrap sandbox with a root of its own, to the first byte its command prints,
// against a bare `bwrap --ro-bind / / echo` of the same command: over an image's layers
// (kernel overlayfs in the sandbox's user namespace) and over the host's system
// (fuse-overlayfs). Creation (the upper layer made, the state written) and loading the image
// into the store are timed apart, as they happen once per sandbox and once per image.
//
// The image is made here: busybox-static in a base layer, a second layer over it, as a
// `docker save` archive loaded with the store paddock template load uses.
//
//   image-start-bench [RUNS]      (default 30)
#include "../../unit/image-store/ArchiveBuilder.h"
#include "image/ImageStore.h"
#include "runtime/SandboxSpec.h"
#include "runtime/bwrap/BwrapRuntime.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLoggingCategory>
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

using paddock::image::ImageStore;
using paddock::image::StoredImage;
using paddock::runtime::BwrapRuntime;
using paddock::runtime::SandboxOptions;
using paddock::runtime::SandboxSpec;

namespace {

/** Milliseconds from @p timer's start until @p fd has a byte to read; the bytes read go to @p got. */
double untilFirstByte(int fd, const QElapsedTimer &timer, QByteArray *got = nullptr)
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

double bareBwrap(const QByteArray &bwrap)
{
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1);
    const char *argv[] = {bwrap.constData(), "--ro-bind", "/", "/", "echo", "hi", nullptr};
    char *envp[] = {nullptr};
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    posix_spawn(&pid, argv[0], &actions, nullptr, const_cast<char **>(argv), envp);
    ::close(pipe[1]);
    const double ms = untilFirstByte(pipe[0], timer);
    ::close(pipe[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    return ms;
}

/** Starts the created sandbox @p name; ms to its first output byte, which must be its command's. */
double startToFirstByte(BwrapRuntime &runtime, const QString &name)
{
    int pipe[2];
    if (::pipe2(pipe, O_CLOEXEC) != 0)
        return -1;
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    QElapsedTimer timer;
    timer.start();
    std::thread run([&] { runtime.start(name, {devNull, pipe[1], pipe[1]}); });
    QByteArray got;
    const double ms = untilFirstByte(pipe[0], timer, &got);
    run.join();
    ::close(pipe[1]);
    ::close(pipe[0]);
    ::close(devNull);
    // An error message is output too: only the command's own counts.
    if (!got.startsWith("hi")) {
        std::fprintf(stderr, "sandbox %s printed: %s\n", qPrintable(name), got.constData());
        std::exit(1);
    }
    return ms;
}

/** Creates sandbox @p spec with @p options (its root); ms the creation took. */
double create(BwrapRuntime &runtime, SandboxSpec spec, const SandboxOptions &options)
{
    QElapsedTimer timer;
    timer.start();
    QString error;
    runtime.prepareSandbox(spec, options, &error);
    const paddock::runtime::RuntimeResult made = runtime.create(spec);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (!made.ok) {
        std::fprintf(stderr, "create failed: %s\n", qPrintable(made.error));
        std::exit(1);
    }
    return ms;
}

/** A busybox image in two layers, loaded into @p store; ms the load took, or -1. */
double loadImage(ImageStore &store, const QString &archivePath, StoredImage *image)
{
    using namespace paddock::test;
    QFile busybox(QStringLiteral("/bin/busybox"));
    if (!busybox.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray base = tarOf({folder("bin"), file("bin/busybox", busybox.readAll(), 0755),
                                   softLink("bin/sh", "busybox"), softLink("bin/echo", "busybox"), folder("etc"),
                                   file("etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"), folder("tmp", 01777)});
    const QByteArray top = tarOf({folder("etc"), file("etc/marker", "from the image\n")});
    QFile archive(archivePath);
    if (!archive.open(QIODevice::WriteOnly) ||
        archive.write(dockerArchive({base, top}, {QStringLiteral("bench:1")})) < 0)
        return -1;
    archive.close();
    QElapsedTimer timer;
    timer.start();
    const paddock::image::LoadResult loaded = store.load(archivePath);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (!loaded.ok || loaded.images.isEmpty()) {
        std::fprintf(stderr, "the image did not load: %s\n", qPrintable(loaded.error));
        return -1;
    }
    *image = loaded.images.constFirst();
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

void print(const char *what, const std::vector<double> &samples)
{
    const Figures f = figures(samples);
    std::printf("  %-40s median %7.2f   p90 %7.2f\n", what, f.median, f.p90);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("paddock.*.info=false\npaddock.*.debug=false"));
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 30;
    const QByteArray bwrap = QFile::encodeName(QStandardPaths::findExecutable(QStringLiteral("bwrap")));
    if (bwrap.isEmpty() || !QFileInfo::exists(QStringLiteral("/bin/busybox"))) {
        std::fprintf(stderr, "bwrap or busybox-static is not installed\n");
        return 1;
    }
    QTemporaryDir root;
    for (const char *xdg : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
        qputenv(xdg, QFile::encodeName(root.filePath(QString::fromLatin1(xdg))));
    QDir().mkpath(root.filePath(QStringLiteral("workspace")));

    ImageStore store;
    StoredImage image;
    const double loadMs = loadImage(store, root.filePath(QStringLiteral("image.tar")), &image);
    if (loadMs < 0)
        return 1;

    SandboxSpec spec;
    spec.workspace = root.filePath(QStringLiteral("workspace"));
    spec.initPath = QStringLiteral(PADDOCK_INIT_BIN);
    // A socket file stands in for the proxy endpoint: the relay only connects on demand.
    spec.proxySocket = root.filePath(QStringLiteral("proxy.sock"));
    QFile(spec.proxySocket).open(QIODevice::WriteOnly);
    spec.environment = paddock::runtime::baseEnvironment(spec);
    spec.argv = QStringList{QStringLiteral("echo"), QStringLiteral("hi")};
    spec.lifetime = SandboxSpec::Lifetime::Foreground;

    SandboxOptions onImage;
    onImage.writableRoot = true;
    onImage.image = QStringLiteral("bench:1");
    onImage.imageId = image.id;
    onImage.imageLayersDir = store.layersDir();
    onImage.imageLayers = image.layersTopFirst();
    SandboxOptions onHost;
    onHost.writableRoot = true;
    const bool hostRoot = BwrapRuntime::hostRootProblem().isEmpty();

    BwrapRuntime runtime;
    SandboxSpec imageSpec = spec, hostSpec = spec;
    imageSpec.name = QStringLiteral("bench-image");
    hostSpec.name = QStringLiteral("bench-host");
    create(runtime, imageSpec, onImage);
    if (hostRoot)
        create(runtime, hostSpec, onHost);
    // Warm the page cache for every kind.
    bareBwrap(bwrap);
    startToFirstByte(runtime, imageSpec.name);
    if (hostRoot)
        startToFirstByte(runtime, hostSpec.name);

    std::vector<double> bare, onImageStart, onHostStart, imageCreate;
    for (int i = 0; i < runs; ++i) {
        bare.push_back(bareBwrap(bwrap));
        onImageStart.push_back(startToFirstByte(runtime, imageSpec.name));
        if (hostRoot)
            onHostStart.push_back(startToFirstByte(runtime, hostSpec.name));
        SandboxSpec fresh = spec;
        fresh.name = QStringLiteral("bench-new");
        imageCreate.push_back(create(runtime, fresh, onImage));
        runtime.remove(fresh.name, true);
    }
    std::printf("sandbox start to first output, %d runs each (ms)\n", runs);
    print("bare bwrap --ro-bind / / echo", bare);
    print("paddock sandbox on an image, start", onImageStart);
    if (hostRoot)
        print("paddock sandbox on the host's system, start", onHostStart);
    else
        std::printf("  (no root over the host's system here: %s)\n", qPrintable(BwrapRuntime::hostRootProblem()));
    const Figures b = figures(bare), s = figures(onImageStart);
    std::printf("  difference (image start - bare): median %+.2f ms, p90 %+.2f ms (target: at most +50 ms)\n",
                s.median - b.median, s.p90 - b.p90);
    if (hostRoot) {
        const Figures h = figures(onHostStart);
        std::printf("  difference (host-root start - bare): median %+.2f ms, p90 %+.2f ms\n", h.median - b.median,
                    h.p90 - b.p90);
    }
    std::printf("created apart from starting (ms)\n");
    print("paddock sandbox on an image, create", imageCreate);
    std::printf("  %-40s once   %7.2f\n", "template load of the image (2 layers)", loadMs);
    runtime.remove(imageSpec.name, true);
    if (hostRoot)
        runtime.remove(hostSpec.name, true);
    return 0;
}
