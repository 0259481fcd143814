// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"
#include "runtime/docker/DockerClient.h"
#include "runtime/docker/RemoteRelay.h"
#include "runtime/session/SessionClient.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>

#include <map>
#include <mutex>
#include <optional>

namespace paddock::runtime {

/**
 * A volume of a Docker sandbox: a tmpfs, or a named volume `paddock-NAME-PATH` kept until the
 * sandbox is removed with its home.
 */
using DockerVolume = SandboxVolume;
/** A container port, published on the host's loopback on a port the engine picks. */
using DockerPort = SandboxPort;

/**
 * @brief What a Docker sandbox needs beyond its SandboxSpec: the image and the kit's
 * resources, volumes, ports and user. Given to DockerRuntime before create(), keyed by name,
 * directly or through prepareSandbox().
 */
struct DockerSandboxOptions
{
    QString image;
    double cpus = 0;        ///< 0: no limit
    qint64 memoryBytes = 0; ///< 0: no limit
    QList<DockerVolume> volumes;
    QList<DockerPort> ports;
    QString user;          ///< who the container runs as, "UID:GID"; empty: the invoking user's ids
    QString engineRuntime; ///< the engine's OCI runtime (runsc for gVisor); empty: its default
    bool remote = false;   ///< nothing of this computer is bound in (DockerRemote.cpp)

    bool operator==(const DockerSandboxOptions &) const = default;
};

/**
 * @brief Runs sandboxes as containers of a Docker (or Podman) engine, through its API.
 *
 * A sandbox is one container named `paddock-NAME` with the labels `paddock.sandbox=NAME`,
 * `paddock.kit`, `paddock.workspace`, `paddock.runtime=docker`, `paddock.spec` (the
 * SandboxSpec as JSON) and `paddock.session-token`. The engine is the only state: a new
 * instance, as in a restarted daemon or the CLI, finds every sandbox again by its labels.
 *
 * The container has no network (`NetworkMode: none`), every capability dropped and
 * no-new-privileges, and runs as the invoking user's uid:gid (DockerSandboxOptions::user
 * overrides it), so the workspace, the home and the proxy socket, all that user's, are
 * reachable inside as their owner. paddock-init is bound read-only at /run/paddock/init and is
 * the entrypoint; it relays 127.0.0.1:proxyPort to the proxy socket, which is bound (the socket
 * itself, not its directory, so no other endpoint is visible) at sandboxProxySocket. Also
 * bound: the workspace at its own path, the home at sandboxHome (a host directory when
 * SandboxSpec::homeDir is set, else the named volume `paddock-home-NAME`), the read-only
 * binds and the grants. The environment is exactly the spec's, to which the engine adds
 * HOSTNAME (and PATH, HOME, or with a TTY TERM, only when the spec lacks them).
 *
 * A detached sandbox's paddock-init is its supervisor (app/init/Supervisor.h): it listens on an
 * abstract unix socket in the container's network namespace and requires a random token, kept
 * in a label, in every client's Hello; it runs setup.startup, then waits. start() waits for it
 * to answer and for setup.startup to end and, unless told otherwise, starts the kit's program
 * as the agent session (in a terminal of its own when the spec is interactive, as under
 * bubblewrap). The host reaches that session channel through an Engine exec of
 * `paddock-init --session-client` (docker::SessionBridge): attach(), agent(), and exec() for
 * the agent's user go through it; exec() for any other user (root) is an Engine exec of its
 * own. A container made without a token (by an earlier Paddock) has no channel: its program
 * runs alone and its commands are Engine execs.
 *
 * The image and resources come from prepareSandbox() or setSandboxOptions() (else
 * setDefaultOptions()), read by create(); afterwards they live in the container. Named
 * volumes are `paddock-NAME-PATH`. Ports are recorded as bindings on 127.0.0.1 with an
 * ephemeral host port, but an engine publishes nothing for a container without a network:
 * they are published by paddock-init and the daemon instead. When the spec's environment
 * holds PADDOCK_PUBLISH (which the daemon sets, see sandbox::PortForwarder), it becomes
 * paddock-init's `--publish` options rather than a variable of the container. When a
 * read-only bind already shows the proxy socket's directory where the socket is expected, the
 * socket is not bound on its own: a bound file would keep the socket of the daemon that
 * created it, and after a daemon restart the container would dial a dead socket instead of
 * the new one at the same path.
 *
 * A foreground sandbox (a setup step) is not supervised: paddock-init runs its program to the
 * end. Its start attaches to the container before starting it, so no output is lost, and
 * relays the caller's fds (stdin only when the spec is interactive) until it exits. The
 * container outlives a caller that is killed; the daemon's stop() ends it.
 */
class DockerRuntime : public Runtime
{
public:
    /** The engine DOCKER_HOST names, else /var/run/docker.sock. */
    DockerRuntime();
    /** The engine at @p endpoint, which its sandboxes' SandboxInfo::engine names @p engineName. */
    explicit DockerRuntime(const docker::Endpoint &endpoint, const QString &engineName = QStringLiteral("local"));

    QString id() const override { return QStringLiteral("docker"); }
    bool isAvailable(QString *why = nullptr) const override;

    RuntimeResult create(const SandboxSpec &spec) override;
    RuntimeResult start(const QString &name, const ProcessIo &io = {}, const StartOptions &options = {}) override;
    RuntimeResult exec(const QString &name, const ExecRequest &request, const ProcessIo &io = {}) override;
    RuntimeResult attach(const QString &name, const AttachOptions &options, const ProcessIo &io = {}) override;
    std::optional<AgentInfo> agent(const QString &name, QString *error = nullptr) const override;
    RuntimeResult stop(const QString &name, std::chrono::milliseconds grace = std::chrono::seconds(10)) override;
    /** Removes the container; with @p removeHome also its private home, named volumes and installed image. */
    RuntimeResult remove(const QString &name, bool removeHome = false) override;
    /** As remove() without the home, then its home volume and installed image: the kit's named volumes stay. */
    RuntimeResult removeKeepingVolumes(const QString &name) override;
    /** Commits the ended launch's container as the sandbox's image (docker::InstalledImage), removed with it. */
    RuntimeResult keepLaunchedRoot(const QString &name) override;
    /** The names of the kit volumes the engine holds for @p sandbox, mounted or not. */
    QStringList keptVolumes(const QString &sandbox) const;

    QList<SandboxInfo> list() const override;
    std::optional<SandboxInfo> inspect(const QString &name) const override;
    /**
     * stdout and stderr in one buffer, in the order the engine logged them (one stream with a
     * TTY). The engine copies the two streams apart, so lines close in time may swap.
     */
    std::optional<LogPage> logs(const QString &name, qint64 offset, qint64 maxBytes,
                                QString *error = nullptr) const override;

    /**
     * Keeps the image, resources, volumes, ports and image hint of @p options for the next
     * create() (setSandboxOptions(), setImageHint()). With SandboxOptions::hostHome the home is
     * that host directory (created 0700 if missing) rather than the named volume.
     */
    bool prepareSandbox(SandboxSpec &spec, const SandboxOptions &options, QString *error) override;
    /** "container", and "gvisor" when the engine reports its runsc runtime (gvisorRuntime()). */
    bool offersIsolation(const QString &isolation, QString *why) const override;
    /** Yes: the container runs as the user a launch names (setup.install as root, say). */
    bool choosesUserPerLaunch() const override { return true; }
    /**
     * The next create() of @p name runs the container as LaunchOptions::uid (its group the
     * same number), or as the invoking user's ids when it names none (the regular user). A
     * workspace shown from another directory is not honoured: the spec's is mounted.
     */
    void setLaunchOptions(const QString &name, const LaunchOptions &options) override;

    /** Used by create() for sandboxes without options of their own. */
    void setDefaultOptions(const DockerSandboxOptions &options);
    /** Used by the next create() of @p name. */
    void setSandboxOptions(const QString &name, const DockerSandboxOptions &options);
    DockerSandboxOptions optionsFor(const QString &name) const;
    /**
     * containerSpec() as the engine that answers needs it: on a rootless one the user's file
     * limit, and keep-id (Podman) or the agent as uid 0 inside, which is the user (Docker).
     */
    docker::ContainerSpec engineContainerSpec(const SandboxSpec &spec, DockerSandboxOptions options) const;
    /**
     * What the next create() of @p name tells the user when the image is missing, e.g.
     * "build it from its kit with `paddock template build --kit DIR`".
     */
    void setImageHint(const QString &name, const QString &hint);

    /** Host ports the engine bound for the sandbox's ports (empty while none are). */
    QList<docker::PortBinding> publishedPorts(const QString &name) const;

    docker::DockerClient &client() { return m_client; }

    /** The engine is on another computer: copies instead of binds, RemoteRelay as the way out. */
    void setRemote(bool remote) { m_remote = remote; }
    bool isRemote() const { return m_remote; }
    /** The name its sandboxes' SandboxInfo::engine gives. */
    QString engineName() const { return m_engineName; }
    /** Told, on a thread of the relay, when the way out of sandbox NAME drops or is back. */
    using RelayObserver = std::function<void(const QString &name, bool up, const QString &sentence)>;
    void setRelayObserver(RelayObserver observer);
    /** Keeps the way out of running sandbox @p name open (remote engines only; once per sandbox). */
    void keepWayOut(const QString &name);
    /**
     * The container, with every mount and label, that create() asks the engine for; a detached
     * sandbox's gets a new session token.
     */
    static docker::ContainerSpec containerSpec(const SandboxSpec &spec, const DockerSandboxOptions &options);
    /**
     * Gives the kit's volumes of @p paths to the user of container @p id (its agent), with the kit's
     * modes, before it starts. Each is done once, by the first container of the sandbox's agent.
     */
    docker::Status claimVolumes(const QString &id, const docker::ContainerSpec &container,
                                const DockerSandboxOptions &options, const QStringList &paths) const;
    /** The paths of @p name's kit volumes no container of its agent has claimed yet: new ones. */
    QStringList volumesToClaim(const QString &name, const DockerSandboxOptions &options) const;
    /**
     * Who made a container: the user and their Paddock data folder, as a short digest. An
     * engine is shared by every user in the group docker (and by every test run): containers
     * and volumes carry it in their names and the label `paddock.owner`, and each Paddock lists
     * and touches only its own.
     */
    static QString owner();
    /** `paddock-OWNER-NAME`. */
    static QString containerName(const QString &sandbox);
    /** `paddock-OWNER-NAME-home`. */
    static QString homeVolumeName(const QString &sandbox);
    /** `paddock-OWNER-NAME-v-PATH` with the path's separators as dashes. */
    static QString volumeName(const QString &sandbox, const QString &path);
    static bool isValidName(const QString &name);
    /** The engine runtime that gives gVisor: runsc, or $PADDOCK_GVISOR_RUNTIME where it is
     *  registered under another name (e.g. runsc-kvm). */
    static QString gvisorRuntime();
    /** How to install gVisor and register it with the engine, with the daemon.json lines. */
    static QString gvisorInstallHint();
    /** Whether the engine reports @p runtime (GET /info); else @p error says how to get it. */
    bool engineHasRuntime(const QString &runtime, QString *error) const;

private:
    /** @brief What agent() said of one sandbox, and when. */
    struct CachedAgent
    {
        qint64 at = 0; ///< QDateTime::currentMSecsSinceEpoch()
        std::optional<AgentInfo> info;
        QString error;
    };

    /** The container of @p name, or an error saying there is none. */
    docker::Result<docker::ContainerInfo> containerOf(const QString &name) const;
    /** The container of @p name when it runs, or an error saying what it is instead. */
    docker::Result<docker::ContainerInfo> runningContainerOf(const QString &name) const;
    SandboxInfo infoOf(const docker::ContainerInfo &container) const;
    RuntimeResult runForeground(const docker::ContainerInfo &container, const ProcessIo &io);

    // The session channel (DockerSessions.cpp).
    /**
     * Waits until the supervisor of the just started @p container answers and setup.startup
     * has run, then starts the agent when @p options ask for it.
     */
    RuntimeResult awaitSupervisor(const docker::ContainerInfo &container, const StartOptions &options);
    /** Runs @p request over a new session channel to @p container. */
    RuntimeResult runSessionRequest(const docker::ContainerInfo &container, const session::SessionRequest &request,
                                    const ProcessIo &io);
    std::optional<AgentInfo> queryAgent(const docker::ContainerInfo &container, QString *error) const;
    void forgetAgent(const QString &name) const;
    /** @p request run by an Engine exec as its user, with the caller's fds relayed. */
    RuntimeResult execThroughEngine(const docker::ContainerInfo &container, const ExecRequest &request,
                                    const ProcessIo &io);
    /** The exit code the engine recorded for the exec @p execId once its stream ended. */
    RuntimeResult execExitCode(const QString &execId) const;
    /** Asks the engine to size the terminal of @p path ("/exec/ID" or "/containers/ID") like @p fd's. */
    void resizeLike(const QString &path, int fd) const;
    /** A request the client has no call for; @p path without the version prefix. */
    docker::Result<docker::HttpResponse> engineCall(docker::HttpRequest request) const;

    /** create() on a remote engine: checked, created, paddock-init and the workspace copied in. */
    RuntimeResult createRemote(const SandboxSpec &spec, const docker::ContainerSpec &container);
    void endWayOut(const QString &name);
    docker::DockerClient m_client;
    QString m_engineName;
    bool m_remote = false;
    std::mutex m_relayMutex;
    RelayObserver m_relayObserver; // outlives the relays, whose threads read it
    std::map<QString, std::unique_ptr<docker::RemoteRelay>> m_relays;
    docker::DockerTransport m_transport;
    mutable std::mutex m_optionsMutex;
    DockerSandboxOptions m_defaults;
    QMap<QString, DockerSandboxOptions> m_options;
    QMap<QString, QString> m_imageHints;
    /** Per sandbox being made: its kit volumes that were new, until its agent's first container claims them. */
    QMap<QString, QStringList> m_unclaimedVolumes;
    mutable std::mutex m_agentMutex;
    mutable QHash<QString, CachedAgent> m_agents;
};

} // namespace paddock::runtime
