// SPDX-License-Identifier: GPL-3.0-or-later
#include "HostGrantCli.h"

#include "BindingApproval.h"
#include "SandboxCliSupport.h"
#include "SecretCliSupport.h"

#include "policy/HostGrantApprovals.h"
#include "sandbox/HostGrantAdmission.h"

#include <unistd.h>

namespace paddock::cli {

QCommandLineOption approveHostGrantsOption()
{
    return {QStringLiteral("approve-host-grants"),
            QStringLiteral("Approve the kit's rules that reach this computer or its networks (loopback, private "
                           "ranges, cloud metadata), without asking.")};
}

void printHostGrants(const QList<policy::HostGrant> &grants)
{
    for (const policy::HostGrant &grant : grants)
        err() << "  " << grant.pattern << "  reaches " << grant.reachPhrase() << '\n';
}

std::optional<bool> askHostGrants(const QString &kitName, const QList<policy::HostGrant> &pending)
{
    if (!isTerminal(STDIN_FILENO))
        return std::nullopt;
    err() << "The kit " << kitName << " asks to reach this computer or the networks it is on:\n";
    printHostGrants(pending);
    err() << "A sandbox allowed this can talk to services that trust this computer (databases, the cloud "
             "metadata service, your router).\n";
    for (;;) {
        const std::optional<QString> answer =
            readAnswer(QStringLiteral("Allow the kit %1 to reach these? [y/N] ").arg(kitName));
        if (!answer)
            return false;
        const QString word = answer->toLower();
        if (word.isEmpty() || word == QLatin1String("n") || word == QLatin1String("no"))
            return false;
        if (word == QLatin1String("y") || word == QLatin1String("yes"))
            return true;
        err() << "Answer y to allow them or n to refuse.\n";
    }
}

std::optional<int> checkHostGrants(const Invocation &call, const QJsonObject &params)
{
    const std::optional<kit::Kit> kit = loadKitOf(params);
    if (!kit)
        return std::nullopt; // the daemon says what is wrong with the kit
    policy::HostGrantApprovals approvals;
    if (const std::optional<policy::PolicyError> problem = approvals.load())
        return failure(problem->toString());
    const sandbox::HostGrantCheck check = sandbox::checkHostGrants(kit->name, kit->networkAllow, approvals);
    if (!check.blocksStart())
        return std::nullopt;

    bool approve = call.parser.isSet(approveHostGrantsOption().names().first());
    if (!approve) {
        const std::optional<bool> answer = askHostGrants(kit->name, check.pending);
        if (!answer) {
            err().flush();
            return failure(
                check.blockingMessage(sandboxNameOf(params, *kit), params.value(QLatin1String("kit")).toString()));
        }
        if (!*answer)
            return failure(QStringLiteral("the kit %1 was not allowed to reach this computer or its networks; "
                                          "nothing was started")
                               .arg(kit->name));
        approve = true;
    }
    QStringList patterns;
    for (const policy::HostGrant &grant : check.pending)
        patterns << grant.pattern;
    QString error;
    if (!approvals.approve(kit->name, patterns, &error))
        return failure(error);
    err() << "paddock: approved for the kit " << kit->name << ": " << patterns.join(QStringLiteral(", ")) << '\n';
    err().flush();
    return std::nullopt;
}

} // namespace paddock::cli
