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
#include "../StartTiming.h"
#include "image/ImageStore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLoggingCategory>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace paddock::bench;
using paddock::image::ImageStore;
using paddock::image::StoredImage;
using paddock::runtime::BwrapRuntime;
using paddock::runtime::SandboxOptions;
using paddock::runtime::SandboxSpec;

namespace {

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
    const SandboxSpec spec = echoSpec(root);

    ImageStore store;
    StoredImage image;
    const double loadMs = loadImage(store, root.filePath(QStringLiteral("image.tar")), &image);
    if (loadMs < 0)
        return 1;

    SandboxOptions onImage;
    onImage.writableRoot = true;
    onImage.image = QStringLiteral("bench:1");
    onImage.imageId = image.id;
    onImage.imageLayersDir = store.layersDir();
    onImage.imageLayers = image.layersTopFirst();
    SandboxOptions onHost;
    onHost.writableRoot = true;
    const bool hostRoot = BwrapRuntime::hostRootProblem(QStringLiteral(PADDOCK_INIT_BIN)).isEmpty();

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
        std::printf("  (no root over the host's system here: %s)\n",
                    qPrintable(BwrapRuntime::hostRootProblem(QStringLiteral(PADDOCK_INIT_BIN))));
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
