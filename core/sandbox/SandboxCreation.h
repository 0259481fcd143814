// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Protocol.h"
#include "common/Result.h"
#include "image/ImageStore.h"
#include "image/RegistryClient.h"
#include "kit/Kit.h"
#include "runtime/Runtime.h"
#include "sandbox/CloneWorkspace.h"
#include "sandbox/KitApplication.h"
#include "sandbox/SshAgents.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace paddock::sandbox {

struct CreateRequest;

/** @brief A sandbox about to be created: a request with its kit applied, on the service's thread. */
struct CreationPlan
{
    kit::Kit kit;
    QString kitDirectory;
    /** With its endpoint bound (see SandboxService::endpointPath()) and its ports published. */
    runtime::SandboxSpec spec;
    QString home;              ///< the host directory filled from the kit (SandboxService::homeOf())
    QList<InstallRun> install; ///< `setup.install` as the runs the runtime launches (prepareRuntime())
    QStringList notes;         ///< for the caller: what was skipped and why
    SshAgentPlan sshAgents;    ///< ssh-agent@1 for the runtime phase and setup.install, backed
    bool cloneWorkspace = false;
    QString isolation;   ///< CreateRequest::isolation
    QString secretGuard; ///< CreateRequest::secretGuard
    /**
     * For a runtime that runs no image itself (bubblewrap): the kit's image from Paddock's store,
     * whose layers become the sandbox's base; or, when only the Docker engine has it, its
     * reference, exported into the store while the sandbox is created; or, when neither has it
     * and its registry answers, its reference, pulled while the sandbox is created.
     */
    std::optional<image::StoredImage> image;
    QString imageToExport;
    QString imageToPull;
    QStringList mixinLayers;         ///< a composition's mixins' layer folders over the image's, top-most first
    QJsonArray composition;          ///< each kit of a composition (kit::ComposedKit), kept with the sandbox
    image::RegistryOptions registry; ///< how imageToPull is pulled
    image::ImageConfig imageConfig;
    /**
     * For a container engine: the id (hex) of a loaded kit's image (schemaVersion "3"), from
     * Paddock's store, which the engine gets at creation when it lacks it.
     */
    QString engineImage;
    kit::AgentVerbs agentVerbs; ///< kept with the sandbox (SandboxRecord::agentVerbs)
    /** The `sandbox.create` params, kept with the sandbox for a recreation (SandboxRecord::createParams). */
    QJsonObject createParams;
    /**
     * A recreation (`paddock recreate`): the sandbox's volumes and clone workspace are kept
     * whatever happens, and what fails leaves them for the next attempt.
     */
    bool recreating = false;
};

/**
 * Loads the kit @p request names and applies it for @p runtime. Nothing is written yet.
 * Refused with @p refusal (`invalid-kit`, `invalid-params` or `internal`).
 */
std::optional<CreationPlan> planCreation(const CreateRequest &request, const runtime::Runtime &runtime,
                                         const image::RegistryOptions &registry, api::Reply *refusal);

/**
 * Hands @p runtime what the kit asks of it beyond the spec (runtime::SandboxOptions), and
 * groups `setup.install` into the runs it will launch: one per user where the runtime chooses
 * the user per launch, else one run as the image's user. Refused with @p refusal (`internal`,
 * or `invalid-kit` for a user that cannot be mapped).
 */
bool prepareRuntime(CreationPlan &plan, runtime::Runtime &runtime, api::Reply *refusal);

/**
 * @brief Creates a planned sandbox on a worker thread, since it blocks: on a clone of the
 * workspace, on the kit's `setup.install` commands and on the runtime.
 *
 * `setup.install` runs once, inside the sandbox as it will be (the same home, workspace and way
 * out), as short-lived foreground launches of the sandbox, each as the user of its commands,
 * whose writes to the system the runtime keeps for the sandbox (Runtime::keepLaunchedRoot());
 * then the sandbox is created for good as the regular user. The home is filled from the kit
 * after the first create, which makes the runtime's private home. When creating fails, a clone
 * made for a sandbox that does not exist is discarded.
 */
class SandboxCreation
{
public:
    SandboxCreation(std::shared_ptr<runtime::Runtime> runtime, CreationPlan plan);

    /** Creates the sandbox; notes() then says what the caller should know. */
    runtime::RuntimeResult run();
    const QStringList &notes() const { return m_notes; }

private:
    Result<void> openClone();
    void launchAs(std::optional<int> uid);
    runtime::RuntimeResult createAndFillHome(const runtime::SandboxSpec &launched);
    runtime::RuntimeResult install(qsizetype index);
    runtime::RuntimeResult runInstallLaunch();
    runtime::RuntimeResult failed(const runtime::RuntimeResult &result);
    /** Forgets the sandbox after a failure: with its volumes, unless recreating. */
    void discard();
    /** Exports the kit's image from the Docker engine into the store and hands its layers to the runtime. */
    Result<void> exportImage();
    /** Pulls the kit's image from its registry into the store and hands its layers to the runtime. */
    Result<void> pullImage();
    /** Loads plan.engineImage into the Docker engine from the kit's file, unless the engine has it. */
    Result<void> imageIntoEngine();
    /** The image @p reference (else the first @p loaded) of @p store becomes the sandbox's base. */
    Result<void> useStoredImage(const image::ImageStore &store, const image::LoadResult &loaded,
                                const QString &reference);

    std::shared_ptr<runtime::Runtime> m_runtime;
    CreationPlan m_plan;
    std::optional<CloneWorkspace> m_clone;
    runtime::LaunchOptions m_launch;
    std::optional<int> m_regularUid; ///< the image's User, when it names one other than root
    QStringList m_notes;
};

} // namespace paddock::sandbox
