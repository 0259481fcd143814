// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"
#include "runtime/SandboxSpec.h"
#include "runtime/bwrap/SandboxState.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace paddock::runtime::bwrap {

/** /etc/resolv.conf of a sandbox whose paddock-init answers names (app/init/NameServer.h). */
inline constexpr char kResolvConf[] = "# paddock-init answers every name inside this sandbox\nnameserver 127.0.0.1\n";

/** @brief Host paths a launch needs besides the spec: where the runtime keeps this sandbox. */
struct LaunchPaths
{
    QString homeDir;        ///< host directory mounted as $HOME (already created, 0700)
    QString hostsFile;      ///< generated /etc/hosts naming only loopback and the sandbox
    QString resolvConfFile; ///< generated /etc/resolv.conf naming the sandbox's own resolver (kResolvConf)
    int statusFd = -1;      ///< fd bwrap reports the sandbox pid and exit code on, or -1
    /** Files bwrap copies into the sandbox from an fd it inherits: (fd, path inside). */
    QList<QPair<int, QString>> copiedFiles;
    /** The user the sandbox runs as inside, and where its workspace comes from. */
    BwrapOptions options;
    /**
     * The session socket paddock-init inherits as this fd (listening), or -1. With it the
     * sandbox is supervised (see app/init/Supervisor.h): paddock-init starts as uid 0 with the
     * capabilities of the sandbox's own user namespace, makes the agent's user, drops them,
     * and serves sessions until the sandbox is stopped.
     */
    int sessionFd = -1;
    /** With @ref sessionFd: start the kit's program as the agent session at once. */
    bool startAgent = true;
    /**
     * The sandbox's seccomp program (bwrap::sandboxSeccompProgram()) as an inherited fd, or -1.
     * A supervised sandbox's paddock-init loads it into each session; otherwise bwrap loads it
     * before paddock-init starts.
     */
    int seccompFd = -1;
    /**
     * The sandbox's root. With a writable one, bwrap runs on the root the stage of
     * rootStageArguments() mounted at `rootDir/mnt`, instead of a tmpfs holding the host's
     * system read-only.
     */
    RootChoice root;
    QString rootDir;       ///< `NAME/root`: upper/, work/, mnt/ and, for the host's system, base/
    QString fuseOverlayfs; ///< the host's fuse-overlayfs, for RootChoice::Base::Host with RootChoice::fuse
    QString skeleton;      ///< for the kernel's overlayfs over the host's system: HostSkeleton.h, or empty
    /** The kit's volumes: tmpfs ones mounted fresh, block ones from @ref volumesDir (volumeFolderName()). */
    QList<SandboxVolume> volumes;
    QString volumesDir; ///< `NAME/volumes`
};

/** The folder of `NAME/volumes` holding the block volume at inside path @p path (percent-encoded). */
QString volumeFolderName(const QString &path);
/** The inside path whose volume folder is @p folderName; empty when it is not one. */
QString volumePathOfFolder(const QString &folderName);

/** Small host files the sandbox gets a copy of (each to the same path): see BwrapCommand.cpp. */
QStringList copiedHostFiles();

/**
 * The bubblewrap arguments (without the program name) that run @p spec under paddock-init.
 * Every mount of the sandbox is decided here and nowhere else.
 *
 * Users: the sandbox's user namespace maps one id, the host user's, to
 * `paths.options.uid`/`gid` (bwrap --uid/--gid). The kit's users therefore map as follows:
 * `setup.install` commands (default "0") run in a sandbox launched with their uid, so
 * `id -u` says 0 for root; the program and `setup.startup` commands (default "1000") run as
 * the regular user, 1000. Whatever the uid inside, it is the host user outside, every
 * capability is dropped and the system is mounted read-only, so root inside can write only
 * where the user could: the home and the workspace. A supervised sandbox (@ref
 * LaunchPaths::sessionFd) runs paddock-init as 0, and the program and sessions as the user
 * they name (the regular user by default) through paddock-init.
 */
QStringList bwrapArguments(const SandboxSpec &spec, const LaunchPaths &paths);

/**
 * The arguments of a short-lived confinement for a host tool that must read one directory
 * it cannot trust (a git repository written by a sandbox): the host's system read-only, no
 * network, no other file of the host, and @p directory read-only at its own path. Followed
 * by the tool's argv after `--`, with the environment given by @p environment only.
 */
QStringList confinementArguments(const QString &directory, const QMap<QString, QString> &environment);

/**
 * What goes before bwrap's own command line for a sandbox with a writable root: paddock-init's
 * root stage (app/init/RootStage.h) with its options and `--`, starting with the host path of
 * paddock-init; empty for a read-only root. @p foreground: the stage dies with its caller.
 */
QStringList rootStageCommand(const SandboxSpec &spec, const LaunchPaths &paths, bool foreground);

/** The host's directories a sandbox sees at their own paths (/usr, ...): what a skeleton copies (HostSkeleton.h). */
QStringList hostSystemDirectories();

/** Where paddock-init appears inside every sandbox. */
QString initPathInSandbox();

/**
 * The `bwrap` sandboxes run: Paddock's own path to it, `../libexec/paddock/bwrap` beside the
 * running executable, when it is there (the package keeps a copy of the system's bubblewrap
 * there, the one path its AppArmor profile lets create user namespaces); otherwise the one on
 * PATH. Empty when there is neither.
 */
QString bwrapProgram();

/** The host's `fuse-overlayfs`, or empty when it is not installed. */
QString fuseOverlayfsProgram();

} // namespace paddock::runtime::bwrap
