// SPDX-License-Identifier: GPL-3.0-or-later
// SandboxService: a sandbox's life, from create to remove (the methods sandbox.create,
// sandbox.start, sandbox.stop and sandbox.remove run these).
#include "sandbox/SandboxService.h"

#include "api/Server.h"
#include "common/Paths.h"
#include "kit/KitLoader.h"
#include "runtime/bwrap/BwrapRuntime.h"
#include "runtime/docker/DockerRuntime.h"
#include "sandbox/CloneWorkspace.h"
#include "sandbox/ComposedImage.h"
#include "sandbox/CreateRequest.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/HostGrantAdmission.h"
#include "sandbox/ImageService.h"
#include "sandbox/KitApplication.h"
#include "sandbox/RemoteFetchBack.h"
#include "sandbox/SandboxCreation.h"
#include "sandbox/SandboxVolumes.h"
#include "sandbox/SharedFolders.h"
#include "sandbox/WorkspaceGuard.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>

#include <algorithm>
#include <future>
#include <thread>

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)

namespace paddock::sandbox {

namespace {

/**
 * The kit scope a v3 sandbox's connections are decided under while its setup.install runs:
 * network-policy@1's install lists alone, closed again before the agent first starts.
 */
QString installPhaseKit(const QString &kitName, const QString &sandbox)
{
    return kitName + QStringLiteral(" (installing ") + sandbox + QLatin1Char(')');
}

} // namespace

void SandboxService::createSandbox(const QJsonObject &params, const api::PendingReply &reply)
{
    Result<CreateRequest> request = CreateRequest::parse(params);
    Result<void> usable = request ? request->meetKitMinimum() : request.error();
    if (usable)
        usable = request->addKitShares();
    if (!usable)
        return reply.fail(QLatin1String(api::errors::kInvalidParams), usable.error().text());
    QString engine;
    const Result<std::shared_ptr<runtime::Runtime>> found = request->backend == QLatin1String("docker")
                                                                ? engineRuntime(request->engine, &engine)
                                                                : runtimeFor(request->backend);
    if (!found)
        return reply.fail(QLatin1String(api::errors::kBackendUnavailable), found.error().text());
    const std::shared_ptr<runtime::Runtime> runtime = *found;
    QString error;
    if (!runtime->offersIsolation(request->isolation, &error))
        return reply.fail(QLatin1String(api::errors::kBackendUnavailable), error);
    // A name given is looked for on every runtime while the kit is planned: an engine's answer
    // is a round trip, which then overlaps the planning rather than following it.
    std::future<std::shared_ptr<runtime::Runtime>> holder;
    if (!request->name.isEmpty())
        holder = std::async(std::launch::async, [name = request->name, runtimes = reachableRuntimes()] {
            return holderAmong(runtimes, name);
        });
    api::Reply refusal;
    const image::RegistryOptions registry = ImageService::registryOptions(m_proxy.upstreamProxy().get());
    std::optional<CreationPlan> plan = planCreation(*request, *runtime, registry, &refusal);
    if (plan)
        plan->createParams = creationChoices(params);
    const auto holderOfPlan = [&] {
        return holder.valid() && plan->spec.name == request->name ? holder.get() : runtimeOf(plan->spec.name);
    };
    if (!plan || !admitName(*plan, runtime, holderOfPlan(), &refusal) ||
        !recordSandbox(*plan, runtime->id(), engine, &refusal) || !prepareRuntime(*plan, *runtime, &refusal))
        return reply.complete(refusal);

    const QString name = plan->spec.name;
    const QString kitName = plan->kit.name;
    // ssh-agent@1 for setup.install: open while it runs, closed before the workload first starts.
    if (SshAgentPlan &agents = plan->sshAgents; agents.install) {
        const QString knownHosts = agents.knownHosts.isEmpty() ? QString() : SshAgents::knownHostsCopy(name);
        if (const Result<void> agent = m_sshAgents.open(name, kitName, *agents.install, agents.backing, knownHosts);
            !agent) {
            plan->notes << QStringLiteral("setup.install has no SSH agent: %1").arg(agent.error().text());
            agents.install.reset();
        }
    }
    auto job = [creation = SandboxCreation(runtime, std::move(*plan))]() mutable -> Work {
        const runtime::RuntimeResult result = creation.run();
        return {result, creation.notes()};
    };
    auto done = [this, name, kitName, runtime, reply](const Work &work) {
        m_sshAgents.close(name, QStringLiteral("install"));
        m_policy.engine().removeKitRules(installPhaseKit(kitName, name));
        if (!work.result.ok) {
            closeEndpoint(name);
            if (!runtime->inspect(name)) {
                SshAgents::removeFiles(name);
                SandboxRecord::remove(name);
                CredentialInjection::forget(name);
                forgetKitRulesIfUnused(kitName);
            }
            return reply.fail(QLatin1String(api::errors::kCreateFailed), work.result.error);
        }
        closeEndpoint(name);
        qCInfo(lcSandbox) << "created sandbox" << name << "from kit" << kitName;
        const std::optional<runtime::SandboxInfo> info = runtime->inspect(name);
        reply.succeed({{QStringLiteral("sandbox"), info ? infoJson(*info) : QJsonObject{}},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(work.notes)}});
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

bool SandboxService::admitName(const CreationPlan &plan, const std::shared_ptr<runtime::Runtime> &runtime,
                               const std::shared_ptr<runtime::Runtime> &holder, api::Reply *refusal) const
{
    const QString &name = plan.spec.name;
    if (holder && holder != runtime) {
        *refusal = api::Reply::failure(QLatin1String(api::errors::kExists),
                                       QStringLiteral("a %1 sandbox named %2 exists already").arg(holder->id(), name));
        return false;
    }
    if (runtime->inspect(name)) {
        *refusal = api::Reply::failure(QLatin1String(api::errors::kExists),
                                       QStringLiteral("a sandbox named %1 exists already").arg(name));
        return false;
    }
    return true;
}

bool SandboxService::recordSandbox(CreationPlan &plan, const QString &backend, const QString &engine,
                                   api::Reply *refusal)
{
    SandboxRecord record;
    record.name = plan.spec.name;
    record.kitName = plan.kit.name;
    record.kitDirectory = plan.kitDirectory;
    record.backend = backend;
    record.engine = engine;
    record.networkAllow = plan.kit.networkAllow;
    record.networkDeny = plan.kit.networkDeny;
    record.setupFiles = plan.kit.setup.files;
    record.secretGuard = plan.secretGuard;
    record.workspace = plan.spec.workspace;
    record.agentVerbs = plan.agentVerbs;
    record.createParams = plan.createParams;
    record.composition = plan.composition;
    record.volumes = volumeRequests(plan.kit);
    if (plan.recreating) {
        // What the person added since, and the volumes no longer declared, stay with the sandbox.
        if (const std::optional<SandboxRecord> previous = SandboxRecord::read(record.name)) {
            record.services = previous->services;
            record.allowedValues = previous->allowedValues;
            for (const runtime::SandboxVolume &kept : previous->volumes) {
                if (std::none_of(record.volumes.cbegin(), record.volumes.cend(),
                                 [&](const runtime::SandboxVolume &v) { return v.path == kept.path; }))
                    record.volumes.append(kept);
            }
        }
    }
    for (const kit::CapabilityOutcome &capability : plan.kit.capabilities) {
        if (capability.status != kit::CapabilityOutcome::Status::Skipped)
            continue;
        record.skippedCapabilities << capability.type;
        const QString why = capability.type == QLatin1String(kSshAgentCapability)
                                ? capability.what.section(QStringLiteral("; "), 1)
                                : QStringLiteral("Paddock does not implement it");
        plan.notes << QStringLiteral("kit %1: the optional capability %2 is skipped (%3)")
                          .arg(plan.kit.name, capability.type, why);
    }
    if (const Result<void> kept = recordSshAgent(record, plan.sshAgents); !kept) {
        *refusal = api::Reply::failure(QLatin1String(api::errors::kInternal), kept.error().text());
        return false;
    }
    applyKitRules(record, &plan.notes);
    QString endpointKit = record.kitName;
    if (plan.kit.phasedNetwork()) {
        endpointKit = installPhaseKit(record.kitName, record.name);
        policy::KitRules install =
            policy::kitNetworkRules(endpointKit, plan.kit.networkInstallAllow, plan.kit.networkInstallDeny);
        plan.notes.append(withholdUnapprovedGrants(&install.rules, record.kitName));
        m_policy.engine().setKitRules(endpointKit, install.rules);
    }
    if (const Result<void> added = addKitCompanions(record); !added) {
        *refusal = api::Reply::failure(QLatin1String(api::errors::kInvalidParams), added.error().text());
        return false;
    }
    // setup.install may need the network; a detached sandbox's endpoint closes again once created.
    Result<void> recorded = record.write();
    if (recorded)
        recorded = CredentialInjection::remember(record.name, plan.kit.credentials,
                                                 plan.spec.disposable ? Durability::Unsynced : Durability::Synced);
    if (recorded)
        recorded = openEndpoint(record.name, endpointKit, PortForwarder::portsOf(plan.spec));
    if (!recorded) {
        *refusal = api::Reply::failure(QLatin1String(api::errors::kInternal), recorded.error().text());
        return false;
    }
    return true;
}

void SandboxService::startSandbox(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString name = params.value(QLatin1String("name")).toString();
    const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
    if (!runtime)
        return reply.fail(QLatin1String(api::errors::kNoSuchSandbox), QStringLiteral("no sandbox named %1").arg(name));
    const runtime::SandboxInfo info = *runtime->inspect(name);
    if (info.status == runtime::SandboxStatus::Running)
        return reply.fail(QLatin1String(api::errors::kRunning),
                          QStringLiteral("sandbox %1 is already running").arg(name));
    if (info.spec.lifetime == runtime::SandboxSpec::Lifetime::Foreground)
        return reply.fail(QLatin1String(api::errors::kForeground),
                          QStringLiteral("sandbox %1 was made by an earlier version to run in a terminal; remove it "
                                         "and run the kit again")
                              .arg(name));
    // A sandbox made before the workspace rules were what they are is not started on such a folder.
    const std::optional<CloneWorkspace> clone = CloneWorkspace::read(name);
    if (const std::optional<QString> problem = workspaceProblem(clone ? clone->folder() : info.workspace))
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("sandbox %1 is not started: %2").arg(name, *problem));
    // What it shares is checked again: a sandbox could have put a link where a shared folder was.
    if (const std::optional<QString> problem = sharedMountsProblem(info.spec))
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("sandbox %1 is not started: %2").arg(name, *problem));
    std::optional<SandboxRecord> record = SandboxRecord::read(name);
    if (record) {
        const QString caller = params.value(QLatin1String("sshAuthSock")).toString();
        if (const Result<void> adopted = adoptCallerAgent(*record, caller); !adopted)
            return reply.fail(QLatin1String(api::errors::kInternal), adopted.error().text());
        if (const std::optional<api::Reply> refusal =
                admitHostGrants(name, record->kitName, record->kitDirectories(), record->networkAllow,
                                params.value(QLatin1String("approveHostGrants")).toBool()))
            return reply.complete(*refusal);
    }
    QStringList notes;
    if (record)
        applyKitRules(*record, &notes);
    if (record && record->secretGuard == QLatin1String("off"))
        notes << QStringLiteral("the secret guard is off for %1: values of its workspace's .env and key files may "
                                "reach the model provider; turn it on with `paddock guard set %1 refuse`")
                     .arg(name);
    if (const Result<void> opened = openEndpoint(name, info.kitName, PortForwarder::portsOf(info.spec)); !opened)
        return reply.fail(QLatin1String(api::errors::kInternal), opened.error().text());
    const QString home = info.spec.homeDir.isEmpty() ? homeOf(name) : info.spec.homeDir;
    const QList<kit::SetupFile> files = record ? record->setupFiles : QList<kit::SetupFile>();
    // The agent starts with the sandbox, unless the caller starts it itself (`paddock run`).
    const runtime::StartOptions startOptions{params.value(QLatin1String("agent")).toBool(true)};
    auto job = [runtime, name, spec = info.spec, home, files, notes, startOptions, proxy = &m_proxy,
                endpoint = m_endpoints.value(name)]() -> Work {
        Work work{runtime::RuntimeResult::success(), notes};
        if (const Result<void> written = writeSetupFiles(files, spec, home, &work.notes); !written) {
            work.result = runtime::RuntimeResult::failure(written.error().text());
            return work;
        }
        recordForReview(name, spec.workspace);
        if (const Result<void> started = startCompanions(*proxy, endpoint, name); !started) {
            work.result = runtime::RuntimeResult::failure(started.error().text());
            return work;
        }
        work.result = runtime->start(name, {}, startOptions);
        if (work.result.ok)
            work.sandbox = runtime->inspect(name); // here, not on the daemon's thread
        return work;
    };
    auto done = [this, name, reply](const Work &work) {
        if (!work.result.ok || !work.sandbox) {
            closeEndpoint(name);
            return reply.fail(QLatin1String(api::errors::kStartFailed),
                              work.result.ok ? QStringLiteral("sandbox %1 was removed while it started").arg(name)
                                             : work.result.error);
        }
        reply.succeed({{QStringLiteral("sandbox"), infoJson(*work.sandbox)},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(work.notes)}});
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

void SandboxService::stopSandbox(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString name = params.value(QLatin1String("name")).toString();
    const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
    if (!runtime)
        return reply.fail(QLatin1String(api::errors::kNoSuchSandbox), QStringLiteral("no sandbox named %1").arg(name));
    auto job = [runtime, name]() -> Work {
        // A sandbox on another computer's engine gives its commits while it still runs.
        const QStringList remoteNotes = RemoteFetchBack::notes(*runtime, name);
        const runtime::RuntimeResult stopped = runtime->stop(name);
        if (stopped.ok)
            stopCompanions(name, false);
        return {stopped, stopped.ok ? remoteNotes + CloneWorkspace::fetchBackNotes(name) : QStringList()};
    };
    auto done = [this, name, runtime, reply](const Work &work) {
        if (!work.result.ok)
            return reply.fail(QLatin1String(api::errors::kStopFailed), work.result.error);
        closeEndpoint(name);
        reply.succeed({{QStringLiteral("sandbox"), infoJson(*runtime->inspect(name))},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(work.notes)}});
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

void SandboxService::removeSandbox(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString name = params.value(QLatin1String("name")).toString();
    const bool force = params.value(QLatin1String("force")).toBool();
    const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
    if (!runtime) {
        if (std::shared_ptr<runtime::Runtime> left = leftoverRuntime(name))
            return removeLeftovers(name, std::move(left), reply); // SandboxRecreation.cpp
        return reply.fail(QLatin1String(api::errors::kNoSuchSandbox), QStringLiteral("no sandbox named %1").arg(name));
    }
    const runtime::SandboxInfo info = *runtime->inspect(name);
    if (info.status == runtime::SandboxStatus::Running && !force)
        return reply.fail(QLatin1String(api::errors::kRunning),
                          QStringLiteral("sandbox %1 is running; stop it first or use --force").arg(name));
    auto job = [runtime, name, force]() -> Work {
        const QStringList remoteNotes = RemoteFetchBack::notes(*runtime, name);
        if (force) {
            const runtime::RuntimeResult stopped = runtime->stop(name);
            if (!stopped.ok)
                return {stopped, {}};
        }
        // The clone's last commits come back before it goes; the fetched branches stay.
        QStringList notes = remoteNotes + CloneWorkspace::fetchBackNotes(name);
        // Only a composition runs on an image the engine built for it: no engine call for the rest.
        const std::optional<SandboxRecord> record = SandboxRecord::read(name);
        auto *engine =
            record && !record->composition.isEmpty() ? dynamic_cast<runtime::DockerRuntime *>(runtime.get()) : nullptr;
        const QString composed = engine ? composedImageOf(*engine, name) : QString();
        const runtime::RuntimeResult removed = runtime->remove(name, true);
        if (removed.ok && engine)
            removeComposedImageIfUnused(engine->client(), composed, &notes);
        if (removed.ok)
            stopCompanions(name, true);
        // Layers of an image removed while this sandbox used them go with it.
        if (removed.ok && runtime->id() == QLatin1String("bwrap")) {
            QString error;
            if (!image::ImageStore().collectUnused(runtime::BwrapRuntime().layersInUse(), &error))
                qCWarning(lcSandbox).noquote() << "unused layers were not removed:" << error;
        }
        if (removed.ok) {
            if (const std::optional<CloneWorkspace> clone = CloneWorkspace::read(name)) {
                clone->discard();
                QDir().rmdir(QFileInfo(clone->path()).absolutePath());
            }
        }
        return {removed, notes};
    };
    auto done = [this, name, kitName = info.kitName, backend = runtime->id(), reply](const Work &work) {
        if (!work.result.ok)
            return reply.fail(QLatin1String(api::errors::kRemoveFailed), work.result.error);
        closeEndpoint(name);
        m_ports.forget(name);
        QFile::remove(endpointPath(name));
        QDir().rmdir(QFileInfo(endpointPath(name)).absolutePath());
        SshAgents::removeFiles(name);
        SandboxRecord::remove(name);
        CredentialInjection::forget(name);
        forgetKitRulesIfUnused(kitName);
        m_modes->forget(name);
        QDir(reviewDir(name)).removeRecursively();
        // A container's home is a host directory the runtime leaves to its owner: this service.
        if (backend != QLatin1String("bwrap"))
            QDir(homeOf(name)).removeRecursively();
        // The sandbox's folder, once the runtime and the review record have left it empty.
        QDir().rmdir(QFileInfo(homeOf(name)).absolutePath());
        qCInfo(lcSandbox) << "removed sandbox" << name;
        reply.succeed(
            {{QStringLiteral("removed"), name}, {QStringLiteral("notes"), QJsonArray::fromStringList(work.notes)}});
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

} // namespace paddock::sandbox
