// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/HostGrantAdmission.h"

#include "sandbox/KitApplication.h"

#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcHostGrants, "paddock.sandbox.grants")

namespace paddock::sandbox {

QString HostGrantCheck::blockingMessage(const QString &sandbox, const QStringList &kitDirectories) const
{
    if (pending.isEmpty())
        return {};
    QStringList described;
    for (const policy::HostGrant &grant : pending)
        described << grant.describe();
    return QStringLiteral("sandbox %1 cannot start: the kit %2 opens this computer or its networks to it with host "
                          "grants you have not approved: %3; approve them with `%4`, or run again with "
                          "--approve-host-grants")
        .arg(sandbox, kit, described.join(QStringLiteral(", ")), approveGrantsCommand(kitDirectories));
}

QJsonObject HostGrantCheck::toJson() const
{
    QJsonArray all;
    QJsonArray waiting;
    for (const policy::HostGrant &grant : grants) {
        const bool approved = !pending.contains(grant);
        all.append(QJsonObject{{QStringLiteral("pattern"), grant.pattern},
                               {QStringLiteral("reaches"), QJsonArray::fromStringList(grant.reaches)},
                               {QStringLiteral("reachPhrase"), grant.reachPhrase()},
                               {QStringLiteral("approved"), approved}});
        if (!approved)
            waiting.append(grant.pattern);
    }
    return {{QStringLiteral("kit"), kit},
            {QStringLiteral("grants"), all},
            {QStringLiteral("pending"), waiting},
            {QStringLiteral("blocked"), blocksStart()}};
}

HostGrantCheck checkHostGrants(const QString &kitName, const QStringList &allow,
                               const policy::HostGrantApprovals &approvals)
{
    HostGrantCheck check;
    check.kit = kitName;
    check.grants = policy::hostGrantsOf(allow);
    check.pending = approvals.pending(kitName, check.grants);
    return check;
}

QStringList kitDirectoriesOf(const QJsonObject &params)
{
    QStringList directories{params.value(QLatin1String("kit")).toString()};
    for (const QJsonValue &mixin : params.value(QLatin1String("mixins")).toArray())
        directories << mixin.toString();
    return directories;
}

QString approveGrantsCommand(const QStringList &kitDirectories)
{
    QString command = QStringLiteral("paddock grant approve");
    for (const QString &directory : kitDirectories.isEmpty() ? QStringList{QString()} : kitDirectories)
        command += QStringLiteral(" --kit ") + shellQuote(directory.isEmpty() ? QStringLiteral("DIR") : directory);
    return command;
}

std::optional<api::Reply> admitHostGrants(const QString &sandbox, const QString &kitName,
                                          const QStringList &kitDirectories, const QStringList &allow, bool approve)
{
    policy::HostGrantApprovals approvals;
    if (const std::optional<policy::PolicyError> problem = approvals.load())
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), problem->toString());
    HostGrantCheck check = checkHostGrants(kitName, allow, approvals);
    if (approve && check.blocksStart()) {
        QStringList patterns;
        for (const policy::HostGrant &grant : std::as_const(check.pending))
            patterns << grant.pattern;
        if (const Result<void> approved = approvals.approve(kitName, patterns); !approved)
            return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), approved.error().text());
        qCInfo(lcHostGrants).noquote() << "approved host grants" << patterns.join(QStringLiteral(", ")) << "for kit"
                                       << kitName << "as asked by the caller";
        check = checkHostGrants(kitName, allow, approvals);
    }
    if (!check.blocksStart())
        return std::nullopt;
    return api::Reply::failure(QLatin1String(api::errors::kHostGrantsRequired),
                               check.blockingMessage(sandbox, kitDirectories));
}

QStringList withholdUnapprovedGrants(QList<policy::Rule> *rules, const QString &kitName)
{
    policy::HostGrantApprovals approvals;
    const std::optional<policy::PolicyError> problem = approvals.load();
    QStringList notes;
    for (qsizetype i = rules->size() - 1; i >= 0; --i) {
        const policy::Rule &rule = rules->at(i);
        if (rule.verdict != policy::Verdict::Allow)
            continue;
        const std::optional<policy::HostGrant> grant = policy::hostGrantOf(rule.pattern);
        if (!grant || (!problem && approvals.isApproved(kitName, *grant)))
            continue;
        notes.prepend(QStringLiteral("kit %1: %2 is a host grant you have not approved, so it allows nothing")
                          .arg(kitName, grant->describe()));
        rules->removeAt(i);
    }
    if (problem && !notes.isEmpty())
        notes.prepend(QStringLiteral("host-grants.yaml cannot be used (%1)").arg(problem->toString()));
    return notes;
}

} // namespace paddock::sandbox
