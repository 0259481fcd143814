// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/SandboxSpec.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

#include <unistd.h>

namespace paddock::runtime {

/** @brief Where a sandbox is in its life. */
enum class SandboxStatus {
    Created, ///< known, never started (or removed state of a previous run)
    Running,
    Stopped, ///< it ran and is gone, with or without a recorded exit status
};

/** "created", "running", "stopped": the words listings show. */
inline QString statusName(SandboxStatus status)
{
    switch (status) {
    case SandboxStatus::Created:
        return QStringLiteral("created");
    case SandboxStatus::Running:
        return QStringLiteral("running");
    case SandboxStatus::Stopped:
        return QStringLiteral("stopped");
    }
    return {};
}

/** @brief Where a sandbox's agent session is: the kit's program, which terminals attach to. */
enum class AgentState {
    None, ///< not started since the sandbox started
    Running,
    Exited, ///< it ended; the sandbox keeps running
};

inline QString agentStateName(AgentState state)
{
    switch (state) {
    case AgentState::None:
        return QStringLiteral("none");
    case AgentState::Running:
        return QStringLiteral("running");
    case AgentState::Exited:
        return QStringLiteral("exited");
    }
    return {};
}

/** @brief The agent session of a running sandbox, as its supervisor reports it. */
struct AgentInfo
{
    AgentState state = AgentState::None;
    qint64 pid = 0; ///< in the sandbox's own pid namespace
    std::optional<int> exitCode;
    QDateTime startedAt;
    QDateTime finishedAt;
    int attached = 0; ///< terminals attached to it now
    int sessions = 0; ///< other sessions running beside it
    /** Why it could not start, as the sandbox's supervisor says it ("pi: command not found"):
     *  one line of at most 200 characters, empty when it started. Written inside the sandbox. */
    QString reason;
};

/** @brief What list and inspect report about one sandbox. */
struct SandboxInfo
{
    QString name;
    QString kitName;
    QString runtime; ///< "bwrap", "docker", ...
    QString engine;  ///< the container engine it runs on, by name ("local"); empty for bubblewrap
    QString workspace;
    SandboxStatus status = SandboxStatus::Created;
    qint64 pid = 0; ///< host pid of the sandbox's first process while running, else 0
    QDateTime startedAt;
    QDateTime finishedAt;
    std::optional<int> exitCode;                     ///< as a shell reports it (128 + signal when killed)
    QString isolation = QStringLiteral("container"); ///< "container" or "gvisor" (SandboxOptions::isolation)
    SandboxSpec spec;
    /**
     * What its root file system is, for a runtime that gives it one of its own: "image" (the
     * image's layers), "host" (the host's system), "read-only" (the host's system, read-only);
     * empty where the runtime does not say (a container's is its image's).
     */
    QString rootBase;
    QString rootImage; ///< with "image": the image it was made from
    /** How a root of its own is mounted: "kernel overlay" or "fuse-overlayfs"; empty otherwise. */
    QString rootMount;
    qint64 rootBytes = -1; ///< the space its own writes take (its upper layer); -1: not known
    /** Where its root's own writes are, on the host, when the runtime keeps them there (bubblewrap). */
    QString rootUpper;
    /**
     * The mounts inside that are parts of its root, each an overlay with its share of rootUpper
     * (the kernel's overlay over the host's system mounts /usr, /etc/ssl/certs, ... one by one).
     */
    QStringList rootParts;
    /**
     * When it was made, once its kit's setup.install had run (bubblewrap), or when its
     * container was (Docker): what its root held then is its base.
     */
    QDateTime createdAt;
};

/**
 * @brief Part of a detached sandbox's output. Offsets count from the first byte the sandbox
 * ever wrote, so they stay valid when older output is rotated away.
 */
struct LogPage
{
    QByteArray data;
    qint64 offset = 0; ///< where @ref data begins: the offset asked for, or @ref start if that is gone
    qint64 start = 0;  ///< the oldest byte still kept
    qint64 end = 0;    ///< one past the newest byte
};

/** @brief Where a process run by the runtime reads and writes; the caller owns the fds. */
struct ProcessIo
{
    int in = STDIN_FILENO;
    int out = STDOUT_FILENO;
    int err = STDERR_FILENO;
};

/** @brief A command to run in an already running sandbox. */
struct ExecRequest
{
    QStringList argv;                   ///< empty with asAgent: the kit's own program
    QString workingDir;                 ///< empty: the sandbox's working directory
    QMap<QString, QString> environment; ///< added to (and overriding) the sandbox's environment
    bool interactive = false;           ///< give the command a terminal of its own
    QString user;                       ///< a name or uid inside; empty: the agent's user
    bool asAgent = false;               ///< the command becomes the sandbox's agent session, unless one runs already
    /** SIGINT, SIGTERM, SIGHUP and SIGQUIT to this process go to the command (a person's CLI);
     *  false in a process that runs commands on its own behalf (the daemon). */
    bool forwardSignals = true;
};

/** @brief How to start a sandbox. */
struct StartOptions
{
    /** Start the kit's program as the agent session at once, with a terminal nobody watches
     *  yet; otherwise the sandbox waits, and a client starts the agent (`run`, `attach --start`). */
    bool startAgent = true;
};

/** @brief How to join a running sandbox's agent session. */
struct AttachOptions
{
    bool startAgent = false; ///< start the agent first when it is not running
    bool replay = true;      ///< show its recent output first
    bool detachKeys = true;  ///< Ctrl-P Ctrl-Q leaves it running
};

/** @brief The outcome of something that may fail, with a message for a person. */
struct RuntimeResult
{
    bool ok = false;
    QString error;
    std::optional<int> exitCode; ///< for runs that wait for a program to finish

    static RuntimeResult success() { return {true, {}, {}}; }
    static RuntimeResult exited(int code) { return {true, {}, code}; }
    static RuntimeResult failure(const QString &message) { return {false, message, {}}; }
};

/** @brief A volume of its own that a sandbox asks for (a kit's `volumes` entry). */
struct SandboxVolume
{
    QString path;       ///< inside the sandbox
    bool tmpfs = false; ///< true: in memory, gone when the sandbox stops; false: kept until it is removed
    QString size;       ///< in bytes ("67108864"), or empty: a capacity where the runtime limits it
    QString mode;       ///< octal ("1777"), or empty: the permissions of fresh storage (reattached keeps its own)

    bool operator==(const SandboxVolume &) const = default;
};

/** @brief A port of the sandbox to publish on the host's loopback, on a port the host picks. */
struct SandboxPort
{
    quint16 containerPort = 0;
    QString protocol = QStringLiteral("tcp");

    bool operator==(const SandboxPort &) const = default;
};

/**
 * @brief What a sandbox asks of its runtime beyond its SandboxSpec: a kit's image, resources,
 * volumes and ports. Each runtime takes what it can use: a container engine all of it,
 * bubblewrap the image's unpacked layers and the writable root.
 */
struct SandboxOptions
{
    QString image;
    /**
     * For a runtime that runs no image itself (bubblewrap): give the sandbox a root file system
     * of its own, kept until it is removed, over @ref imageLayers when set, else over the host's
     * system.
     */
    bool writableRoot = false;
    QString imageId;         ///< the content address of the image the layers are
    QString imageLayersDir;  ///< the folder holding @ref imageLayers
    QStringList imageLayers; ///< folder names, top-most first
    /** What to tell the user when the image is missing, e.g. how to build it from its kit. */
    QString imageHint;
    double cpus = 0;        ///< 0: no limit
    qint64 memoryBytes = 0; ///< 0: no limit
    QList<SandboxVolume> volumes;
    QList<SandboxPort> ports;
    /**
     * The host directory the caller fills as the sandbox's home (a kit's `files/home`). A
     * runtime whose own home is not a host directory (a container's is a named volume) mounts
     * this one instead, through SandboxSpec::homeDir; bubblewrap's private home is this very
     * directory.
     */
    QString hostHome;
    /**
     * The isolation level asked for: "container" (the default: namespaces over the host's
     * kernel) or "gvisor" (a user-space kernel of its own, through the engine's runsc
     * runtime). A runtime that cannot give it refuses in prepareSandbox(); none falls back.
     */
    QString isolation;
};

/**
 * @brief How the next launch of a sandbox differs from the sandbox itself: the user a run of a
 * kit's `setup.install` commands asked for, and a workspace shown from another host directory.
 */
struct LaunchOptions
{
    /** The uid inside; nullopt: the runtime's regular user. See Runtime::choosesUserPerLaunch(). */
    std::optional<int> uid;
    /**
     * When set, the host directory mounted read-write at @ref workspaceTarget instead of the
     * spec's workspace at its own path (a disposable clone shown at the original's path).
     */
    QString workspaceSource;
    QString workspaceTarget;
};

/**
 * @brief A way to run sandboxes: bubblewrap on Linux, a container engine elsewhere.
 *
 * Sandboxes are named; every call takes the name. State lives with the runtime, so another
 * process (the CLI, the daemon) sees the same sandboxes. Calls block until done.
 */
class Runtime
{
public:
    virtual ~Runtime() = default;

    /** A short identifier: "bwrap", "docker". */
    virtual QString id() const = 0;
    /** Whether this runtime can run sandboxes here; otherwise @p why says what is missing. */
    virtual bool isAvailable(QString *why = nullptr) const = 0;

    /** Records a sandbox without starting it. Fails if the name is taken. */
    virtual RuntimeResult create(const SandboxSpec &spec) = 0;
    /**
     * Starts a created (or stopped) sandbox. A detached one returns once it runs, and runs until
     * it is stopped whatever its agent does; a foreground one (a setup step) returns when its
     * program exits, with the exit status, its terminal connected to @p io.
     */
    virtual RuntimeResult start(const QString &name, const ProcessIo &io = {}, const StartOptions &options = {}) = 0;
    /** Runs a command in a running sandbox, connected to @p io, and returns its exit status. */
    virtual RuntimeResult exec(const QString &name, const ExecRequest &request, const ProcessIo &io = {}) = 0;
    /**
     * Joins @p io to the running sandbox's agent session until it ends (its exit status) or the
     * caller leaves it (success without an exit status).
     */
    virtual RuntimeResult attach(const QString &name, const AttachOptions &options, const ProcessIo &io = {}) = 0;
    /** The agent session of running sandbox @p name; nullopt with @p error when it cannot be asked. */
    virtual std::optional<AgentInfo> agent(const QString &name, QString *error = nullptr) const = 0;
    /** Asks the sandbox to end (SIGTERM to its program), then kills it after @p grace. */
    virtual RuntimeResult stop(const QString &name, std::chrono::milliseconds grace = std::chrono::seconds(10)) = 0;
    /** Forgets a stopped sandbox; its private home goes too only when @p removeHome. */
    virtual RuntimeResult remove(const QString &name, bool removeHome = false) = 0;
    /**
     * Forgets stopped sandbox @p name as remove() with its home does (its root, its container,
     * its private home), but keeps the storage of its block volumes, which the next create() of
     * the same name mounts again: what a recreation replaces and what it keeps.
     */
    virtual RuntimeResult removeKeepingVolumes(const QString &name)
    {
        return RuntimeResult::failure(QStringLiteral("the %1 runtime cannot recreate sandbox %2").arg(id(), name));
    }
    /**
     * Keeps what the foreground launch of @p name that has just ended (a run of `setup.install`)
     * wrote to the sandbox's system root: every later create() of @p name starts from it, until
     * the sandbox is removed or recreated. A runtime whose root outlives each launch by itself
     * (bubblewrap's writable root) has nothing to do.
     */
    virtual RuntimeResult keepLaunchedRoot(const QString & /*name*/) { return RuntimeResult::success(); }
    /**
     * The cleaned inside paths of the block volume storage this runtime holds for sandbox
     * @p name: mounted or retained, and also after the sandbox is gone (then none, unless removing
     * it left some behind).
     */
    virtual QStringList volumePaths(const QString & /*name*/) const { return {}; }
    /**
     * Deletes what sandbox @p name, which this runtime no longer has, left behind: the storage of
     * its volumes after a recreation failed once its old sandbox was gone. Refused while the
     * sandbox exists (remove() is for that).
     */
    virtual RuntimeResult removeLeftovers(const QString & /*name*/) { return RuntimeResult::success(); }

    virtual QList<SandboxInfo> list() const = 0;
    virtual std::optional<SandboxInfo> inspect(const QString &name) const = 0;
    /**
     * At most @p maxBytes of the output of sandbox @p name from @p offset on. The output kept
     * is bounded (the oldest is rotated away), and so is each read: a reader pages through it.
     */
    virtual std::optional<LogPage> logs(const QString &name, qint64 offset, qint64 maxBytes,
                                        QString *error = nullptr) const = 0;

    /**
     * Gets ready for the next create() of @p spec's sandbox: keeps what it can use of
     * @p options and completes @p spec where the runtime needs it (where the home is). Returns
     * false with @p error when that fails.
     */
    virtual bool prepareSandbox(SandboxSpec &spec, const SandboxOptions &options, QString *error) = 0;

    /**
     * Whether this runtime, here and now, gives the isolation level @p isolation (see
     * SandboxOptions::isolation); else false with @p why, a sentence that says how to get it.
     * Namespaces over the host's kernel ("container") is every runtime's.
     */
    virtual bool offersIsolation(const QString &isolation, QString *why) const
    {
        if (isolation.isEmpty() || isolation == QLatin1String("container"))
            return true;
        *why =
            isolation == QLatin1String("gvisor")
                ? QStringLiteral("gVisor runs through the Docker engine: use --backend docker (or leave --backend out)")
                : QStringLiteral("unknown isolation '%1': expected container or gvisor").arg(isolation);
        return false;
    }
    /**
     * Whether each launch chooses the uid its processes have inside (LaunchOptions::uid), so a
     * kit's `setup.install` commands run as the user they name; otherwise they all run as one.
     */
    virtual bool choosesUserPerLaunch() const = 0;
    /**
     * How create() launches sandbox @p name from now on, until set again; what the runtime
     * cannot honour it ignores. Safe to call from any thread.
     */
    virtual void setLaunchOptions(const QString &name, const LaunchOptions &options) = 0;
};

} // namespace paddock::runtime
