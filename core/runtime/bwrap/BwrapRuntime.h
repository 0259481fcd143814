// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/AtomicFile.h"
#include "common/UniqueFd.h"
#include "runtime/Runtime.h"
#include "runtime/bwrap/BwrapCommand.h"
#include "runtime/bwrap/SandboxState.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <functional>
#include <mutex>

namespace paddock::runtime {

/**
 * @brief Runs sandboxes under bubblewrap: no daemon, no network but the loopback relay to the
 * sandbox's proxy socket; as root, the host's system read-only, or a root of the sandbox's own
 * over the host's system or an image's unpacked layers (bwrap::RootChoice).
 *
 * Each sandbox has a directory `dataDir()/sandboxes/NAME/` (0700) holding `state.json`, its
 * output (`log`, rotated to `log.1` at 8 MiB by a writer outside the sandbox: SandboxLog.h),
 * bwrap's status report, the private home (`home/`, 0700), with a root of its own `root/` (its
 * upper layer `upper/`, and where it is mounted), and, while it runs,
 * its block volumes (`volumes/`, one folder per inside path, kept until the sandbox is removed), and, while it runs,
 * `session.sock`: the session channel to its paddock-init, which listens on a socket the
 * runtime made and handed over, at a path the sandbox cannot see. The state
 * records the sandbox's first process with its kernel start time, so a stale file whose pid
 * was reused is never mistaken for a running sandbox.
 */
class BwrapRuntime : public Runtime
{
public:
    /** Sandboxes under `paths::dataDir()/sandboxes`. */
    BwrapRuntime();
    /** Sandboxes under @p sandboxesDir. */
    explicit BwrapRuntime(const QString &sandboxesDir);

    QString id() const override { return QStringLiteral("bwrap"); }
    bool isAvailable(QString *why = nullptr) const override;

    RuntimeResult create(const SandboxSpec &spec) override;
    RuntimeResult start(const QString &name, const ProcessIo &io = {}, const StartOptions &options = {}) override;
    RuntimeResult exec(const QString &name, const ExecRequest &request, const ProcessIo &io = {}) override;
    RuntimeResult attach(const QString &name, const AttachOptions &options, const ProcessIo &io = {}) override;
    std::optional<AgentInfo> agent(const QString &name, QString *error = nullptr) const override;
    RuntimeResult stop(const QString &name, std::chrono::milliseconds grace = std::chrono::seconds(10)) override;
    RuntimeResult remove(const QString &name, bool removeHome = false) override;
    /** As remove() with the home, but `NAME/volumes` stays for the next create() of @p name. */
    RuntimeResult removeKeepingVolumes(const QString &name) override;
    RuntimeResult removeLeftovers(const QString &name) override;
    /** The inside paths of the folders of `NAME/volumes`, whether the sandbox exists or not. */
    QStringList volumePaths(const QString &name) const override;

    QList<SandboxInfo> list() const override;
    std::optional<SandboxInfo> inspect(const QString &name) const override;
    std::optional<LogPage> logs(const QString &name, qint64 offset, qint64 maxBytes,
                                QString *error = nullptr) const override;

    /**
     * Keeps the root @p options ask for (setRoot()): with SandboxOptions::writableRoot, one of
     * the sandbox's own over the image's layers when given, else over the host's system through
     * the kernel's overlayfs or else fuse-overlayfs (bwrap::hostRootMount(); with neither, the
     * host's system stays read-only). The home
     * needs nothing: it is the daemon's host home of the sandbox (`dataDir()/sandboxes/NAME/home`).
     */
    bool prepareSandbox(SandboxSpec &spec, const SandboxOptions &options, QString *error) override;
    /** Yes: the sandbox's user namespace maps the host user to whatever uid a launch asks for. */
    bool choosesUserPerLaunch() const override { return true; }
    /** As setSandboxOptions() with the uid (and the same gid) and the workspace mount of @p options. */
    void setLaunchOptions(const QString &name, const LaunchOptions &options) override;

    /**
     * How create() records sandbox @p name from now on: its user inside and its workspace
     * mount (bwrap::BwrapOptions). A name never given options gets the defaults: the regular
     * user and the spec's workspace at its own path. Safe to call from any thread.
     */
    void setSandboxOptions(const QString &name, const bwrap::BwrapOptions &options);
    bwrap::BwrapOptions optionsFor(const QString &name) const;
    /**
     * The root the next create() of @p name records (the default: the host's system read-only,
     * as a sandbox made without prepareSandbox() gets). Its upper layer is `NAME/root/upper`,
     * made by create() and removed only with the home (remove()). Safe to call from any thread.
     */
    void setRoot(const QString &name, const bwrap::RootChoice &root);
    bwrap::RootChoice rootFor(const QString &name) const;
    /**
     * Why a root over the host's system cannot be writable here (neither the kernel's overlayfs
     * nor fuse-overlayfs can mount it, bwrap::hostRootMount()); empty when it can. @p initPath:
     * the paddock-init that probes the kernel's overlayfs.
     */
    static QString hostRootProblem(const QString &initPath);
    /** The layer folders (`layersDir/NAME`) the sandboxes here are made from. */
    QSet<QString> layersInUse() const;

    /** `NAME/` under the sandboxes directory. */
    QString sandboxDir(const QString &name) const;
    /** The private home of @p name: `NAME/home`. */
    QString privateHome(const QString &name) const;
    /** Whether @p name can name a sandbox (it becomes a directory and a host name). */
    static bool isValidName(const QString &name);
    /**
     * `.removing/` under the sandboxes directory: the trees remove() took away, while the
     * background removes them (filetree::removeTreeLater()).
     */
    QString trashDir() const;
    /** Removes in the background what a daemon that ended early left in trashDir(). */
    void emptyTrash() const;

private:
    QString statePath(const QString &name) const;
    QString logPath(const QString &name) const;
    QString statusPath(const QString &name) const;
    QString sessionPath(const QString &name) const;
    /** A connection to the session channel of running sandbox @p name, or -1 with @p error. */
    int connectSession(const QString &name, QString *error) const;
    QString homeOf(const bwrap::SandboxState &state) const;
    SandboxInfo infoOf(const bwrap::SandboxState &state) const;
    bool isRunning(const bwrap::SandboxState &state) const;
    bool prepareLaunch(const bwrap::SandboxState &state, QString *error) const;
    /** Writes @p content to @p path atomically unless it holds exactly that already. */
    RuntimeResult startDetached(bwrap::SandboxState state, const StartOptions &options);
    /** Starts the writer of @p spec's log; the pipe's write end, for the sandbox's output. */
    UniqueFd startLogWriter(const SandboxSpec &spec, int devNull, std::optional<bwrap::ProcessIdentity> *writer,
                            QString *error) const;
    RuntimeResult runForeground(bwrap::SandboxState state, const ProcessIo &io);
    /** Waits until bwrap reports the sandbox's first process; false if it ended first. */
    bool awaitSandboxPid(const QString &name, const std::function<bool()> &launcherEnded, qint64 *pid) const;
    void recordFinish(bwrap::SandboxState &state, std::optional<int> exitCode) const;

    QString rootDir(const QString &name) const;
    QString volumesDir(const QString &name) const;
    /** Makes the folder of each block volume of @p state that has none yet: empty, with its mode. */
    bool prepareVolumes(const bwrap::SandboxState &state, QString *error) const;
    /** The size of @p name's upper layer, measured again when the last measure is old. */
    qint64 upperBytes(const QString &name) const;
    bwrap::LaunchPaths launchPaths(const bwrap::SandboxState &state) const;

    QString m_root;
    mutable std::mutex m_optionsMutex;
    QHash<QString, bwrap::BwrapOptions> m_options;
    QHash<QString, bwrap::RootChoice> m_roots;
    QHash<QString, QList<SandboxVolume>> m_volumes; ///< what the next create() of a name mounts
    struct Measure
    {
        qint64 bytes = 0;
        qint64 at = 0; ///< ms since the epoch
    };
    mutable QHash<QString, Measure> m_measures;
};

} // namespace paddock::runtime
