// SPDX-License-Identifier: GPL-3.0-or-later
// SandboxService: `sandbox.recreate`, a sandbox made again from its kit as loaded now within the
// same sandbox, its block volumes kept; and `sandbox.volumes`, the volume storage it holds.
#include "sandbox/SandboxService.h"

#include "api/Server.h"
#include "common/Paths.h"
#include "kit/KitRules.h"
#include "sandbox/CreateRequest.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/ImageService.h"
#include "sandbox/SandboxCreation.h"
#include "sandbox/SandboxVolumes.h"

#include <QDir>
#include <QJsonArray>
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)

namespace paddock::sandbox {
namespace {

QString shownSize(const QString &bytes)
{
    return bytes.isEmpty() ? QStringLiteral("no size") : QStringLiteral("size %1 bytes").arg(bytes);
}

QString shownMode(const QString &mode)
{
    return mode.isEmpty() ? QStringLiteral("no mode") : QStringLiteral("mode %1").arg(mode);
}

QString shownKind(bool tmpfs)
{
    return tmpfs ? QStringLiteral("tmpfs") : QStringLiteral("block storage");
}

/** The params a sandbox was created with, with the kit and the argument values of @p params over them. */
QJsonObject recreationChoices(QJsonObject choices, const QJsonObject &params)
{
    if (params.contains(QLatin1String("kit"))) {
        // Another kit is a new choice: the mixins composed with the old one go with it.
        choices.insert(QStringLiteral("kit"), params.value(QLatin1String("kit")));
        choices.remove(QStringLiteral("mixins"));
    }
    QJsonObject kitArgs = choices.value(QLatin1String("kitArgs")).toObject();
    const QJsonObject newArgs = params.value(QLatin1String("kitArgs")).toObject();
    for (auto it = newArgs.constBegin(); it != newArgs.constEnd(); ++it)
        kitArgs.insert(it.key(), it.value());
    if (!kitArgs.isEmpty())
        choices.insert(QStringLiteral("kitArgs"), kitArgs);
    return choices;
}

/** A container's home is a host folder of the service's: made fresh for the kit's files too. */
runtime::RuntimeResult freshContainerHome(const runtime::Runtime &runtime, const QString &name)
{
    if (runtime.id() == QLatin1String("bwrap")) // its private home went with the sandbox
        return runtime::RuntimeResult::success();
    // What the engine's root wrote there may not go; the kit's files are written over it.
    const QString home = SandboxService::homeOf(name);
    QDir(home).removeRecursively();
    if (QString error; !paths::ensurePrivateDir(home, &error))
        return runtime::RuntimeResult::failure(
            QStringLiteral("the home of sandbox %1 was not made fresh: %2").arg(name, error));
    return runtime::RuntimeResult::success();
}

} // namespace

QList<runtime::SandboxVolume> volumeRequests(const kit::Kit &kit)
{
    QList<runtime::SandboxVolume> volumes;
    for (const kit::Volume &volume : kit.volumes) {
        const std::optional<qint64> bytes =
            volume.size.isEmpty() ? std::nullopt : kit::rules::parseByteSize(volume.size);
        bool octal = false;
        const uint mode = volume.mode.toUInt(&octal, 8);
        volumes.append({QDir::cleanPath(volume.path), volume.type == QLatin1String("tmpfs"),
                        bytes ? QString::number(*bytes) : volume.size, octal ? QString::number(mode, 8) : volume.mode});
    }
    return volumes;
}

std::optional<QString> volumeChangeProblem(const QList<runtime::SandboxVolume> &retained,
                                           const QList<runtime::SandboxVolume> &requested)
{
    QStringList differences;
    for (const runtime::SandboxVolume &asked : requested) {
        for (const runtime::SandboxVolume &kept : retained) {
            if (kept.path != asked.path || kept == asked)
                continue;
            QStringList what;
            if (kept.tmpfs != asked.tmpfs)
                what << QStringLiteral("%1 instead of %2").arg(shownKind(asked.tmpfs), shownKind(kept.tmpfs));
            if (kept.size != asked.size)
                what << QStringLiteral("%1 instead of %2").arg(shownSize(asked.size), shownSize(kept.size));
            if (kept.mode != asked.mode)
                what << QStringLiteral("%1 instead of %2").arg(shownMode(asked.mode), shownMode(kept.mode));
            differences << QStringLiteral("%1 asks for %2").arg(asked.path, what.join(QStringLiteral(", ")));
        }
    }
    if (differences.isEmpty())
        return std::nullopt;
    return QStringLiteral("the kit's volumes differ from the ones the sandbox keeps: %1. Nothing was changed; a "
                          "volume is neither resized, converted nor given new permissions: keep the kit's volume as "
                          "it was, or remove the sandbox and create it again (its volumes are deleted then)")
        .arg(differences.join(QStringLiteral("; ")));
}

/** The choices of @p params kept for a recreation: all but the one-time approvals. */
QJsonObject creationChoices(const QJsonObject &params)
{
    QJsonObject choices;
    for (auto it = params.constBegin(); it != params.constEnd(); ++it) {
        if (!it.key().startsWith(QLatin1String("approve")))
            choices.insert(it.key(), it.value());
    }
    return choices;
}

void SandboxService::recreateSandbox(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString name = params.value(QLatin1String("name")).toString();
    std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
    const bool gone = !runtime; // a recreation that failed after the old sandbox went: from the record
    if (gone)
        runtime = leftoverRuntime(name);
    if (!runtime)
        return reply.fail(QLatin1String(api::errors::kNoSuchSandbox), QStringLiteral("no sandbox named %1").arg(name));
    const std::optional<SandboxRecord> record = SandboxRecord::read(name);
    if (!record || record->createParams.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("sandbox %1 was made by an earlier Paddock, which did not keep how: it cannot "
                                         "be recreated; remove it and create it again")
                              .arg(name));
    QJsonObject choices = recreationChoices(record->createParams, params);
    choices.insert(QStringLiteral("name"), name); // also where the kit's default name gave it
    Result<CreateRequest> request = CreateRequest::parse(choices);
    Result<void> usable = request ? request->meetKitMinimum() : request.error();
    if (usable)
        usable = request->addKitShares();
    if (!usable)
        return reply.fail(QLatin1String(api::errors::kInvalidParams), usable.error().text());
    api::Reply refusal;
    const image::RegistryOptions registry = ImageService::registryOptions(m_proxy.upstreamProxy().get());
    std::optional<CreationPlan> plan = planCreation(*request, *runtime, registry, &refusal);
    if (!plan)
        return reply.complete(refusal);
    if (plan->spec.name != name)
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("sandbox %1 would be recreated as %2").arg(name, plan->spec.name));
    // Before anything is replaced: each volume asked for now must be the one kept at its path.
    if (const std::optional<QString> problem = volumeChangeProblem(record->volumes, volumeRequests(plan->kit)))
        return reply.fail(QLatin1String(api::errors::kRecreateRefused),
                          QStringLiteral("sandbox %1 is not recreated: %2").arg(name, *problem));
    plan->createParams = choices;
    plan->recreating = true;
    const bool wasRunning = !gone && runtime->inspect(name)->status == runtime::SandboxStatus::Running;
    // Opened again for the new kit's rules (its install phase first); the old sandbox is stopped next.
    closeEndpoint(name);
    if (!recordSandbox(*plan, runtime->id(), record->engine, &refusal) || !prepareRuntime(*plan, *runtime, &refusal))
        return reply.complete(refusal);
    const QString kitName = plan->kit.name;
    auto job = [runtime, name, gone, creation = SandboxCreation(runtime, std::move(*plan))]() mutable -> Work {
        // The old sandbox goes, its volumes kept; nothing to do when it is gone already.
        runtime::RuntimeResult old = gone ? runtime::RuntimeResult::success() : runtime->stop(name);
        if (old.ok)
            stopCompanions(name, false);
        if (old.ok && !gone)
            old = runtime->removeKeepingVolumes(name);
        if (!old.ok)
            return {old, {}};
        if (const runtime::RuntimeResult home = freshContainerHome(*runtime, name); !home.ok)
            return {home, {}};
        const runtime::RuntimeResult result = creation.run();
        return {result, creation.notes()};
    };
    auto done = [this, name, kitName, runtime, wasRunning, reply](const Work &work) {
        m_policy.engine().removeKitRules(kitName + QStringLiteral(" (installing ") + name + QLatin1Char(')'));
        closeEndpoint(name);
        if (!work.result.ok)
            return reply.fail(QLatin1String(api::errors::kCreateFailed),
                              QStringLiteral("sandbox %1 could not be made again: %2. Its block volumes are kept "
                                             "(`paddock volumes %1` lists them): `paddock recreate %1` tries again "
                                             "once the cause is mended, `paddock rm %1` removes them")
                                  .arg(name, work.result.error));
        qCInfo(lcSandbox) << "recreated sandbox" << name << "from kit" << kitName;
        if (wasRunning) {
            // Running before, running after: started as `paddock start` does.
            return m_credentials->admitStart(name, reply, [=, this] {
                startSandbox({{QStringLiteral("name"), name}}, reply);
            });
        }
        const std::optional<runtime::SandboxInfo> info = runtime->inspect(name);
        reply.succeed({{QStringLiteral("sandbox"), info ? infoJson(*info) : QJsonObject{}},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(work.notes)}});
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

std::shared_ptr<runtime::Runtime> SandboxService::leftoverRuntime(const QString &name)
{
    const std::optional<SandboxRecord> record = SandboxRecord::read(name);
    if (!record)
        return nullptr;
    QString engine;
    const Result<std::shared_ptr<runtime::Runtime>> runtime =
        record->backend == QLatin1String("docker")
            ? engineRuntime(record->engine, &engine)
            : runtimeFor(record->backend.isEmpty() ? QStringLiteral("bwrap") : record->backend);
    return runtime ? *runtime : nullptr;
}

void SandboxService::removeLeftovers(const QString &name, std::shared_ptr<runtime::Runtime> runtime,
                                     const api::PendingReply &reply)
{
    auto job = [runtime, name]() -> Work { return {runtime->removeLeftovers(name), {}}; };
    auto done = [this, name, reply](const Work &work) {
        if (!work.result.ok)
            return reply.fail(QLatin1String(api::errors::kRemoveFailed), work.result.error);
        SandboxRecord::remove(name);
        CredentialInjection::forget(name);
        m_modes->forget(name);
        QDir(reviewDir(name)).removeRecursively();
        QDir().rmdir(QFileInfo(homeOf(name)).absolutePath());
        qCInfo(lcSandbox) << "removed what sandbox" << name << "left behind";
        reply.succeed({{QStringLiteral("removed"), name}, {QStringLiteral("notes"), QJsonArray()}});
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

void SandboxService::listVolumes(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString name = params.value(QLatin1String("name")).toString();
    // The sandbox's runtime; once it is gone, the one named (bubblewrap by default), whose
    // storage may still hold what removing it left behind.
    std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
    if (!runtime) {
        const Result<std::shared_ptr<runtime::Runtime>> named =
            runtimeFor(params.value(QLatin1String("backend")).toString(QStringLiteral("bwrap")));
        if (!named)
            return reply.fail(QLatin1String(api::errors::kBackendUnavailable), named.error().text());
        runtime = *named;
    }
    auto job = [runtime, name]() -> Work {
        Work work{runtime::RuntimeResult::success(), runtime->volumePaths(name)};
        return work;
    };
    auto done = [reply](const Work &work) {
        reply.succeed({{QStringLiteral("volumes"), QJsonArray::fromStringList(work.notes)}});
    };
    if (const Result<void> queued = runOperation(name, std::move(job), std::move(done)); !queued)
        reply.fail(QLatin1String(api::errors::kBusy), queued.error().text());
}

} // namespace paddock::sandbox
