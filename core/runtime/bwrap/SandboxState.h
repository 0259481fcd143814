// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"
#include "runtime/SandboxSpec.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::runtime::bwrap {

/**
 * @brief A process identified beyond its pid: the kernel's start time (field 22 of
 * /proc/PID/stat) tells a live sandbox from an unrelated process that reused the pid.
 */
struct ProcessIdentity
{
    qint64 pid = 0;
    quint64 startTime = 0;

    /** The identity of @p pid now, or nullopt when no such process exists. */
    static std::optional<ProcessIdentity> of(qint64 pid);
    /** Whether this very process still runs (a zombie does not). */
    bool isAlive() const;
};

/**
 * @brief How bubblewrap runs one sandbox beyond what the runtime-neutral spec says.
 *
 * Users: every sandbox has its own user namespace in which exactly one id is mapped, the
 * host user's, so the uid a process has inside is only a name for the host user. It holds
 * no power on the host whatever it is, 0 included, and the system stays read-only. @ref uid
 * and @ref gid are what `id` shows inside (bwrap --uid/--gid): the regular user, 1000, as
 * in a container made from a kit, unless the sandbox is a run of commands that asked for
 * another user (a kit's setup.install runs as "0").
 */
struct BwrapOptions
{
    static constexpr int kRegularUid = 1000;
    static constexpr int kRegularGid = 1000;

    int uid = kRegularUid;
    int gid = kRegularGid;
    /**
     * When set, the host directory mounted read-write at @ref workspaceTarget instead of the
     * spec's workspace at its own path (a disposable clone shown at the original's path).
     */
    QString workspaceSource;
    QString workspaceTarget;

    QJsonObject toJson() const;
    static BwrapOptions fromJson(const QJsonObject &object);
    bool operator==(const BwrapOptions &) const = default;
};

/**
 * @brief Where a sandbox's root file system comes from, chosen when it is created and kept
 * with it. Its writes land in an upper layer of its own (`NAME/root/upper`), kept until the
 * sandbox is removed; see app/init/RootStage.h for how it is mounted.
 */
struct RootChoice
{
    enum class Base {
        ReadOnlyHost, ///< no root of its own: the host's system read-only under a tmpfs
        Host,         ///< the host's system, under an upper layer (see @ref fuse)
        Image,        ///< an image's unpacked layers, under an upper layer (overlayfs)
    };
    Base base = Base::ReadOnlyHost;
    QString image;      ///< the reference the image was asked by, for listings
    QString imageId;    ///< its content address
    QString layersDir;  ///< the store's layer folder
    QStringList layers; ///< names of folders of @ref layersDir, top-most first
    /**
     * With Base::Host: mounted by fuse-overlayfs rather than the kernel's overlayfs (which an
     * image's layers always are). Kept with the sandbox, for the two write their upper layers
     * differently; a state without it (an earlier Paddock's) is fuse-overlayfs'.
     */
    bool fuse = false;

    bool writable() const { return base != Base::ReadOnlyHost; }
    QJsonObject toJson() const;
    static RootChoice fromJson(const QJsonObject &object);
    bool operator==(const RootChoice &) const = default;
};

/** @brief What `state.json` of one sandbox records. */
struct SandboxState
{
    SandboxSpec spec;
    BwrapOptions options;
    RootChoice root; ///< a state without one (an earlier Paddock's) has the read-only host root
    /** The kit's volumes: block ones are folders `NAME/volumes/ENCODED-PATH`, tmpfs ones bwrap's. */
    QList<SandboxVolume> volumes;
    QDateTime createdAt;
    ProcessIdentity init;      ///< the sandbox's first process (paddock-init) on the host
    ProcessIdentity bwrap;     ///< the bwrap process that waits for it
    ProcessIdentity logWriter; ///< paddock-init --write-log, which outlives the sandbox by its last output
    QDateTime startedAt;       ///< invalid when never started
    QDateTime finishedAt;
    std::optional<int> exitCode;

    QJsonObject toJson() const;
    static std::optional<SandboxState> fromJson(const QJsonObject &object, QString *error);
};

QJsonObject specToJson(const SandboxSpec &spec);
SandboxSpec specFromJson(const QJsonObject &object);

/** Reads the state file at @p path; nullopt with @p error when missing or unreadable. */
std::optional<SandboxState> readState(const QString &path, QString *error = nullptr);
/** Replaces the state file at @p path atomically (mode 0600: it holds the environment). */
bool writeState(const QString &path, const SandboxState &state, QString *error = nullptr);

/** @brief What bwrap's `--json-status-fd` reported so far. */
struct BwrapStatus
{
    qint64 childPid = 0; ///< host pid of the sandbox's first process, 0 until reported
    std::optional<int> exitCode;
};
BwrapStatus readBwrapStatus(const QString &path);

} // namespace paddock::runtime::bwrap
