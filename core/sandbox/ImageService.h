// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "image/RegistryClient.h"
#include "kit/Kit.h"
#include "proxy/UpstreamProxy.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace paddock::api {
class Server;
class Reply;
} // namespace paddock::api

namespace paddock::runtime::docker {
class DockerClient;
} // namespace paddock::runtime::docker

namespace paddock::sandbox {

/** @brief What building a kit's image takes: its context, Dockerfile, arguments and tag. */
struct KitImageBuild
{
    QString contextDir;
    QString dockerfile; ///< relative to contextDir
    QMap<QString, QString> buildArgs;
    QString target;
    QString tag;
};

/**
 * @brief The daemon's container images: built from kits and loaded from saved archives, as
 * jobs whose progress every client can follow, so the command line and the desktop
 * application see the same builds.
 *
 * Methods (params → result; errors carry a sentence for the user):
 * - `image.build` {kit: DIR, tag?, kitArgs?: {..}, noCache?: bool} → {job, tag}: builds the
 *   kit's Dockerfile (see buildOf()) into @c tag, by default the kit's `sandbox.image`, so
 *   that `run --backend docker` finds it. The image carries the label `paddock.kit=NAME`.
 *   Its RUN steps run without network (`networkmode=none`): the Dockerfile is the kit's, and
 *   the engine's network is outside every rule, proxy endpoint and sandbox.
 * - `image.load` {file} → {job}: loads a `docker save` archive or an OCI layout into Paddock's
 *   own store (image::ImageStore, for bubblewrap sandboxes), then, when a Docker engine
 *   answers, into the engine too (as `docker load`). Its final event has `notes` (what the
 *   store left out, such as device nodes).
 * - `image.pull` {reference, maxLayerBytes?} → {job, reference}: pulls `[HOST[:PORT]/]REPO[:TAG|@DIGEST]` from its
 *   registry (image::pullIntoStore() with registryOptions()) into Paddock's store, without a Docker engine. Its running events name the
 *   blob and its bytes (`step` of `totalSteps` blobs); the final one has the `digest`.
 * - `image.remove` {image} → {image, layersRemoved}: forgets an image of the store and removes
 *   the layers nothing uses any more (no other image, no bubblewrap sandbox).
 * - `image.cancel` {job} → {job, cancelling: true}: stops a running job; it then ends as
 *   failed with `cancelled: true`.
 * - `image.job` {job} → {job: EVENT}: the last event of a job, for a client that looks late.
 * - `image.base` {image} → {base: image|host|read-only, source?: store|engine, problem?}: what
 *   a bubblewrap sandbox made now from a kit naming @c image would stand on: the image, from
 *   Paddock's store or exported from a local Docker engine; else the host's system, under a
 *   root of its own, or read-only with the @c problem that prevents one (no fuse-overlayfs).
 * - `image.inspect` {tag} → {tag, present: bool, id?}: whether the engine holds an image of
 *   that name (any image, Paddock's or not), so a client knows whether a build or load is needed.
 * - `image.list` {} → {images: [{tag, id, size, created, kit?, source}]}: the images that are
 *   Paddock's, one entry per tag (`<none>` when untagged), newest first: built by Paddock
 *   (source `built`), loaded through it (`loaded`, remembered in `dataDir()/images.json`),
 *   or used by a Docker sandbox (`sandbox`); then those of Paddock's store (`store`), also
 *   without an engine. @c size in bytes, @c created in ISO 8601 (UTC).
 *
 * Jobs start at once and report on topic `image`; a client that subscribes before it calls
 * misses nothing. EVENT: {job, kind: build|load|pull, state: running|done|failed, step,
 * totalSteps, percent, message, output?} while running (a build reports each instruction
 * as a step, with the text it printed in @c output; a load reports the bytes sent as
 * percent); then {.., state: done, percent: 100, image: ID, tags: [..]} or {.., state:
 * failed, error, cancelled: bool}.
 */
class ImageService : public QObject
{
    Q_OBJECT
public:
    static QString topic() { return QStringLiteral("image"); }

    /**
     * Where a kit's image is built from: `sandbox.build` when the kit has one (its `context`
     * relative to the kit directory, default the kit directory; its `dockerfile` relative to
     * the context, default `Dockerfile`; its `args` and `target`), else a `Dockerfile` beside
     * spec.yaml. The tag is @p tag, else `sandbox.image`, else `paddock/kit-NAME:latest`.
     */
    static Result<KitImageBuild> buildOf(const kit::Kit &kit, const QString &kitDir, const QString &tag);
    /** The sentence that tells how to get a kit's image when it is missing. */
    static QString missingImageHint(const kit::Kit &kit, const QString &kitDir);

    explicit ImageService(api::Server &server, QObject *parent = nullptr);
    ~ImageService() override;

    /** Registers the methods and the topic. */
    void start();
    /**
     * What a pull from a registry uses: the user's Docker logins and certificates
     * (image::RegistryOptions::forUser()) and @p upstream, the upstream proxy in force (or none).
     */
    static image::RegistryOptions registryOptions(const proxy::UpstreamProxy *upstream);
    /** The upstream proxy in force, asked for at the start of each pull. */
    void setUpstreamProxy(std::function<std::shared_ptr<const proxy::UpstreamProxy>()> upstream)
    {
        m_upstreamProxy = std::move(upstream);
    }
    /**
     * Build arguments every build gets unless its kit sets them (the upstream proxy: see
     * SettingsService::buildArguments()), asked for at the start of each build.
     */
    void setBuildArguments(std::function<QMap<QString, QString>()> arguments)
    {
        m_buildArguments = std::move(arguments);
    }

private:
    struct Job
    {
        QString id;
        QString kind;
        std::shared_ptr<std::atomic_bool> cancel;
        QJsonObject last;
        bool finished = false;
    };

    api::Reply startBuild(const QJsonObject &params);
    api::Reply startLoad(const QJsonObject &params);
    api::Reply startPull(const QJsonObject &params); ///< in ImagePull.cpp
    api::Reply cancel(const QJsonObject &params);
    Job &newJob(const QString &kind);
    /** Runs @p work on a thread of its own; its events come back to report() on this thread. */
    void runJob(const QString &job, std::function<QJsonObject(const std::function<void(QJsonObject)> &progress)> work);
    void report(const QString &job, QJsonObject event);
    Result<QJsonObject> listImages() const;
    /** The images of Paddock's own store, as image.list entries with source `store`. */
    static QJsonArray storedImages();
    static api::Reply removeStored(const QString &reference);
    void rememberLoaded(const QStringList &references);

    api::Server &m_server;
    std::shared_ptr<runtime::docker::DockerClient> m_client;
    QHash<QString, Job> m_jobs;
    QStringList m_order; ///< job ids, oldest first, so finished ones can be forgotten
    int m_nextJob = 0;
    std::shared_ptr<int> m_alive; ///< workers check it before reporting back
    std::function<QMap<QString, QString>()> m_buildArguments;
    std::function<std::shared_ptr<const proxy::UpstreamProxy>()> m_upstreamProxy;
};

} // namespace paddock::sandbox
