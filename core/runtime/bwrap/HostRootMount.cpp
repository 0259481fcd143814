// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/HostRootMount.h"

#include "common/FileTree.h"
#include "common/Paths.h"
#include "runtime/bwrap/BwrapCommand.h"

#include <QDir>
#include <QLoggingCategory>
#include <QProcess>
#include <QTemporaryDir>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcHostRoot, "paddock.runtime.bwrap.root", QtInfoMsg)

namespace paddock::runtime::bwrap {
namespace {

/** Why fuse-overlayfs cannot mount a root here, with the fix; empty when it can. @p device: /dev/fuse. */
QString fuseProblem(const char *device)
{
    if (fuseOverlayfsProgram().isEmpty())
        return QStringLiteral("fuse-overlayfs is not installed (install the package fuse-overlayfs)");
    // Debian's udev rule makes it 0666; a machine without it leaves it to root.
    const int fuse = ::open(device, O_RDWR | O_CLOEXEC);
    if (fuse < 0)
        return QStringLiteral(
                   "/dev/fuse cannot be opened (%1; 'sudo chmod 0666 /dev/fuse', as Debian's udev rule sets it)")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    ::close(fuse);
    return {};
}

/** Runs the probe in a fresh folder beside the sandboxes, whose file system their roots use. */
QString probeKernel(const QString &initPath)
{
    if (initPath.isEmpty())
        return QStringLiteral("paddock-init is not installed");
    const QString parent = paths::dataDir() + QStringLiteral("/sandboxes");
    QString error;
    if (!paths::ensurePrivateDir(parent, &error))
        return error;
    QTemporaryDir dir(parent + QStringLiteral("/.overlay-probe-XXXXXX"));
    dir.setAutoRemove(false);
    if (!dir.isValid())
        return QStringLiteral("cannot create a folder in %1").arg(parent);
    QProcess probe;
    probe.start(initPath, {QStringLiteral("--mount-root"), QStringLiteral("--probe"), dir.path()});
    const bool finished = probe.waitForFinished(10000);
    if (!finished)
        probe.kill();
    probe.waitForFinished();
    filetree::removeTree(dir.path()); // overlayfs' work folder is mode 0000
    const QString said = QString::fromLocal8Bit(probe.readAllStandardError()).trimmed().section(QLatin1Char('\n'), -1);
    if (finished && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
        return {};
    return said.isEmpty() ? QStringLiteral("the probe did not finish") : said;
}

} // namespace

HostRootMount hostRootMount(const QString &initPath, QString *problem)
{
    static std::mutex mutex;
    static std::optional<QString> kernelProblem;
    // The kernel's overlayfs first: it starts a sandbox without a FUSE server in between, and
    // ProgramOrigins reads its per-directory overlays as the root. fuse-overlayfs is what
    // remains where the kernel's cannot mount in a user namespace.
    // The test override names what may be used: fuse, kernel or none.
    const QString forced = qEnvironmentVariable("PADDOCK_TEST_ROOT_MOUNT");
    QString kernel;
    if (forced == QLatin1String("fuse") || forced == QLatin1String("none")) {
        kernel = QStringLiteral("left out by PADDOCK_TEST_ROOT_MOUNT=%1").arg(forced);
    } else {
        const std::lock_guard lock(mutex);
        if (!kernelProblem) {
            kernelProblem = probeKernel(initPath);
            qCInfo(lcHostRoot).noquote() << "the kernel's overlayfs"
                                         << (kernelProblem->isEmpty() ? QStringLiteral("mounts sandbox roots here")
                                                                      : QStringLiteral("cannot: ") + *kernelProblem);
        }
        kernel = *kernelProblem;
    }
    if (kernel.isEmpty())
        return HostRootMount::Kernel;
    const QString fuse = fuseProblem(
        forced == QLatin1String("none") || forced == QLatin1String("kernel") ? "/nonexistent/dev/fuse" : "/dev/fuse");
    if (fuse.isEmpty())
        return HostRootMount::Fuse;
    if (problem)
        *problem = QStringLiteral("the kernel's overlayfs cannot mount it in a user namespace (%1; it needs Linux 5.11 "
                                  "or later with unprivileged user namespaces), and %2")
                       .arg(kernel, fuse);
    return HostRootMount::None;
}

} // namespace paddock::runtime::bwrap
