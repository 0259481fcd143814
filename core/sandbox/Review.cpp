// SPDX-License-Identifier: GPL-3.0-or-later
// What a session changed among the files the host runs or trusts: the daemon methods
// `sandbox.review` and `sandbox.revert` of SandboxService (documented in SandboxService.h).
#include "api/Server.h"
#include "common/Paths.h"
#include "sandbox/CloneWorkspace.h"
#include "sandbox/SandboxService.h"
#include "sandbox/SharedFolders.h"
#include "sandbox/WorkspaceReview.h"

#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcReview, "paddock.sandbox.review", QtInfoMsg)

namespace paddock::sandbox {

QString SandboxService::reviewDir(const QString &name)
{
    return paths::dataDir() + QStringLiteral("/sandboxes/") + name + QStringLiteral("/review");
}

void SandboxService::recordForReview(const QString &name, const QString &workspace)
{
    // A clone is the sandbox's own copy: nothing in it runs on the host.
    if (CloneWorkspace::read(name))
        return;
    if (const Result<void> recorded = WorkspaceReview(workspace, reviewDir(name)).snapshot(); !recorded)
        qCWarning(lcReview).noquote() << "the files of" << workspace
                                      << "are not recorded for review:" << recorded.error().text();
}

QList<ReviewedChange> SandboxService::sharedFolderChanges(const QString &name) const
{
    const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
    const std::optional<runtime::SandboxInfo> info = runtime ? runtime->inspect(name) : std::nullopt;
    if (!info || !info->startedAt.isValid())
        return {};
    QList<SharedFolder> mounts;
    for (const runtime::SharedMount &mount : info->spec.sharedMounts)
        mounts.append({mount.hostPath, mount.sandboxPath, mount.writable});
    return programFolderChanges(mounts, info->startedAt);
}

void SandboxService::registerReviewMethods()
{
    auto reviewOf = [this](const QJsonObject &params, api::Reply *refusal) -> std::optional<WorkspaceReview> {
        const QString name = params.value(QLatin1String("name")).toString();
        const std::shared_ptr<runtime::Runtime> runtime = runtimeOf(name);
        if (!runtime) {
            *refusal = api::Reply::failure(QLatin1String(api::errors::kNoSuchSandbox),
                                           QStringLiteral("no sandbox named %1").arg(name));
            return std::nullopt;
        }
        if (CloneWorkspace::read(name)) {
            *refusal = api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                           QStringLiteral("sandbox %1 works on a clone: nothing it changes runs on "
                                                          "the host until you merge its branches")
                                               .arg(name));
            return std::nullopt;
        }
        return WorkspaceReview(runtime->inspect(name)->workspace, reviewDir(name));
    };
    m_server.registerMethod(
        QStringLiteral("sandbox.review"), [this, reviewOf](const QJsonObject &params, const api::CallContext &) {
            api::Reply refusal;
            const std::optional<WorkspaceReview> review = reviewOf(params, &refusal);
            if (!review)
                return refusal;
            const Result<QList<ReviewedChange>> changes = review->review();
            if (!changes)
                return api::Reply::failure(QLatin1String(api::errors::kNotFound), changes.error().text());
            QJsonArray list;
            for (const ReviewedChange &change :
                 *changes + sharedFolderChanges(params.value(QLatin1String("name")).toString()))
                list.append(change.toJson());
            return api::Reply::success({{QStringLiteral("changes"), list}});
        });
    m_server.registerMethod(
        QStringLiteral("sandbox.revert"), [reviewOf](const QJsonObject &params, const api::CallContext &) {
            api::Reply refusal;
            const std::optional<WorkspaceReview> review = reviewOf(params, &refusal);
            if (!review)
                return refusal;
            const QString path = params.value(QLatin1String("path")).toString();
            if (const Result<void> reverted = review->revert(path); !reverted)
                return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), reverted.error().text());
            qCInfo(lcReview) << "put back" << path << "in the workspace of"
                             << params.value(QLatin1String("name")).toString();
            return api::Reply::success({{QStringLiteral("reverted"), path}});
        });
}

} // namespace paddock::sandbox
