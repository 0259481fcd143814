// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/docker/BuildProgress.h"
#include "runtime/docker/ContainerSpec.h"
#include "runtime/docker/DockerEndpoint.h"
#include "runtime/docker/DockerResult.h"
#include "runtime/docker/DockerTransport.h"
#include "runtime/docker/HijackedConnection.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

namespace paddock::runtime::docker {

/** @brief GET /version, the parts Paddock reads. */
struct VersionInfo
{
    QString version;
    QString apiVersion;
    QString minApiVersion;
    QString os;
    QString arch;
    QStringList components; ///< Components[].Name: "Engine" for Docker, "Podman Engine" for Podman
};

/** @brief What kind of engine answers, where it changes how a container must be asked for. */
struct EngineShape
{
    bool podman = false;   ///< Podman's Docker-compatible service
    bool rootless = false; ///< runs as an ordinary user (rootless Docker or Podman): uids inside are mapped
};

/** @brief What POST /build needs. */
struct BuildOptions
{
    QString contextDir;
    QString dockerfile = QStringLiteral("Dockerfile"); ///< relative to contextDir
    QString tag;                                       ///< e.g. "paddock/kit-claude:1"
    QString target;                                    ///< multi-stage target, empty for the last
    QMap<QString, QString> buildArgs;
    QMap<QString, QString> labels;
    bool noCache = false;
    /**
     * The network the build's RUN steps get. "none" by default: a Dockerfile comes with a kit,
     * and its RUN steps would otherwise reach anything the engine's network reaches, outside
     * every rule and every sandbox.
     */
    QString networkMode = QStringLiteral("none");
    /** The Dockerfile's text when it is not a file of the context (an inline recipe), sent as @c dockerfile. */
    QByteArray dockerfileText;
    /** A context made already: this tar file, streamed as it is, in place of contextDir's. */
    QString contextTar;
    qint64 maxContextBytes = 0;   ///< refuse a larger context (BuildContextOptions::maxBytes); 0: no bound
    bool confinedContext = false; ///< refuse links leading out of the context (BuildContextOptions::confined)
    /** Called on the calling thread as each progress message arrives. */
    BuildProgressParser::Callback onProgress;
    /** Checked while the build runs (also between messages); set it to cancel. */
    const std::atomic_bool *cancel = nullptr;
};

/** @brief A command run in a running container. */
struct ExecSpec
{
    QStringList cmd;
    QMap<QString, QString> env;
    QString user;
    QString workingDir;
    bool tty = false;
    /** Written to the command's stdin, which is then closed. Not over TLS endpoints. */
    QByteArray stdinData;
};

/** @brief The outcome of a finished exec. */
struct ExecResult
{
    int exitCode = -1;
    QByteArray stdoutData; ///< with a TTY, all output is here
    QByteArray stderrData;
};

/** @brief A container's output so far. */
struct ContainerLogs
{
    QByteArray stdoutData;
    QByteArray stderrData;
};

/** @brief Which streams an attach joins. */
struct AttachOptions
{
    bool stdinStream = true;
    bool stdoutStream = true;
    bool stderrStream = true;
    bool logs = false; ///< replay earlier output first
};

/**
 * @brief A synchronous client of the Docker Engine API (also Podman's compatible socket).
 *
 * Every operation blocks until the engine answers, so call it from a worker thread. One
 * client may be shared by several threads: each request uses a connection of its own, and
 * the API version is negotiated once (GET /version) on first use: /v1.41, or the engine's
 * own version when lower, refusing engines older than 1.40.
 *
 * Errors carry the engine's message when it gives one, and "cannot reach the Docker engine
 * at ...: is dockerd running?" when nothing answers.
 */
class DockerClient
{
public:
    /** Highest API version this client speaks, and lowest it accepts. */
    static constexpr int kApiMinor = 41;
    static constexpr int kMinimumApiMinor = 40;

    explicit DockerClient(Endpoint endpoint = Endpoint());

    const Endpoint &endpoint() const { return m_transport.endpoint(); }

    Status ping() const;
    Result<VersionInfo> version() const;
    /** "1.41" or lower; negotiated once, then cached. */
    Result<QString> apiVersion() const;
    /** Podman or Docker, rootless or not (GET /version, /info, and Podman's /libpod/info). */
    Result<EngineShape> engineShape() const;
    /** The OCI runtimes the engine has registered (GET /info → Runtimes), e.g. runc, runsc. */
    Result<QStringList> runtimes() const;

    Result<ImageInfo> inspectImage(const QString &reference) const;
    Result<bool> imageExists(const QString &reference) const;
    /**
     * Images carrying every label of @p labels ("key" or "key=value"); all of them when empty.
     * With @p intermediate also the untagged images others are made from, which are left out otherwise.
     */
    Result<QList<ImageInfo>> listImages(const QStringList &labels = {}, bool intermediate = false) const;
    /**
     * Loads a `docker save` tar, streamed from disk; returns the images it named. @p onUpload
     * is told the bytes sent so far and the file's size as they go (on the calling thread).
     */
    /**
     * Writes image @p reference as a `docker save` archive (GET /images/NAME/get) to the new
     * file @p toFile, streamed: an image need not fit in memory.
     */
    Status saveImage(const QString &reference, const QString &toFile, const std::atomic_bool *cancel = nullptr) const;
    Result<QStringList> loadImage(const QString &tarPath, const std::atomic_bool *cancel = nullptr,
                                  const std::function<void(qint64 sent, qint64 total)> &onUpload = {}) const;
    /** Builds an image; returns its id. A set cancel flag ends it with Error::Kind::Cancelled. */
    Result<QString> buildImage(const BuildOptions &options) const;
    /**
     * Makes an image of ended container @p containerId's files (POST /commit), tagged
     * @p repository:@p tag, with @p config as its configuration; returns its id. The engine fills
     * what @p config leaves empty (and adds the variables and labels it lacks) from the
     * container's own configuration.
     */
    Result<QString> commitContainer(const QString &containerId, const QString &repository, const QString &tag,
                                    const QJsonObject &config) const;
    /**
     * The paths container @p containerId added to its image's files (GET /containers/ID/changes,
     * kind 1), folders before what they hold.
     */
    Result<QStringList> addedPaths(const QString &containerId) const;
    /**
     * Unpacks tar @p tar into container @p containerId's files at folder @p path (PUT
     * /containers/ID/archive), each entry owned and with the mode the tar gives, also a folder
     * that exists.
     */
    Status putArchive(const QString &containerId, const QString &path, const QByteArray &tar) const;
    /**
     * Removes one image; its untagged parents (cache another build may be using) are kept
     * unless @p withParents. Without @p force, the engine refuses while a container uses it.
     */
    Status removeImage(const QString &reference, bool force = false, bool withParents = false) const;

    /** Returns the new container's id. */
    Result<QString> createContainer(const ContainerSpec &spec) const;
    /**
     * Creates bridge network @p name; @p internal: no route out of it (the engine's isolation).
     * An existing network of that name is fine.
     */
    Status createNetwork(const QString &name, bool internal, const QMap<QString, QString> &labels) const;
    /** Removes network @p name; one that does not exist is fine. */
    Status removeNetwork(const QString &name) const;
    /** Removes named volume @p name; one that does not exist is fine. */
    Status removeVolume(const QString &name) const;
    Status startContainer(const QString &id) const;
    /** SIGTERM, then SIGKILL after @p timeoutSeconds. Stopping a stopped container succeeds. */
    Status stopContainer(const QString &id, int timeoutSeconds = 10) const;
    Status killContainer(const QString &id, const QString &signal = QStringLiteral("SIGKILL")) const;
    Status removeContainer(const QString &id, bool force = false, bool removeVolumes = false) const;
    /** Containers, running or not, carrying every label of @p labels ("key" or "key=value"). */
    Result<QList<ContainerSummary>> listContainers(const QStringList &labels = {}, bool all = true) const;
    Result<ContainerInfo> inspectContainer(const QString &id) const;
    /** stdout and stderr so far, separated unless the container has a TTY. */
    Result<ContainerLogs> logs(const QString &id) const;
    /** Blocks until the container stops; returns its exit code. */
    Result<int> waitContainer(const QString &id) const;

    Result<QString> createExec(const QString &containerId, const ExecSpec &spec) const;
    /** Runs a created exec to its end and collects its output and exit code. */
    Result<ExecResult> startExec(const QString &execId, const ExecSpec &spec) const;
    /** createExec() then startExec(). */
    Result<ExecResult> exec(const QString &containerId, const ExecSpec &spec) const;

    /**
     * Joins a running container's stdin and output on a hijacked connection (see
     * HijackedConnection for how to use it as a raw fd or a stream). Without a TTY the
     * output is multiplexed: feed it to a StreamDemuxer.
     */
    Result<std::unique_ptr<HijackedConnection>> attach(const QString &id, const AttachOptions &options = {}) const;
    /** Starts a created exec on a hijacked connection, for interactive use. */
    Result<std::unique_ptr<HijackedConnection>> startExecAttached(const QString &execId, bool tty) const;

private:
    Result<HttpResponse> call(HttpRequest request) const;
    Result<QString> versionedPath(const QString &path) const;

    DockerTransport m_transport;
    mutable std::mutex m_versionMutex;
    mutable QString m_apiVersion;
};

} // namespace paddock::runtime::docker
