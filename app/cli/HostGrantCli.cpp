// SPDX-License-Identifier: GPL-3.0-or-later
#include "HostGrantCli.h"

#include "BindingApproval.h"
#include "SandboxCliSupport.h"
#include "SecretCliSupport.h"

#include "CliSupport.h"

#include "api/Protocol.h"

#include <QJsonArray>
#include <QJsonObject>

#include <unistd.h>

namespace paddock::cli {

QCommandLineOption approveHostGrantsOption()
{
    return {QStringLiteral("approve-host-grants"),
            QStringLiteral("Approve the kit's rules that reach this computer or its networks (loopback, private "
                           "ranges, cloud metadata), without asking.")};
}

namespace {

/** Each grant of the daemon's `sandbox.hostGrants` answer still waiting for approval. */
QList<QJsonObject> pendingGrants(const QJsonObject &check)
{
    QList<QJsonObject> pending;
    for (const QJsonValue &grant : check.value(QLatin1String("grants")).toArray()) {
        if (!grant[QLatin1String("approved")].toBool())
            pending << grant.toObject();
    }
    return pending;
}

std::optional<bool> askHostGrants(const QString &kitName, const QList<QJsonObject> &pending)
{
    if (!isTerminal(STDIN_FILENO))
        return std::nullopt;
    err() << "The kit " << kitName << " asks to reach this computer or the networks it is on:\n";
    for (const QJsonObject &grant : pending)
        err() << "  " << grant.value(QLatin1String("pattern")).toString() << "  reaches "
              << grant.value(QLatin1String("reachPhrase")).toString() << '\n';
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

} // namespace

std::optional<int> checkHostGrants(const Invocation &call, const QJsonObject &params)
{
    // The daemon loads the kit and the approvals and decides again at create; this asks early.
    const api::Reply described = daemonReply(QStringLiteral("sandbox.hostGrants"), params, kCallTimeoutMs);
    if (described.isError()) {
        if (described.errorCode() == QLatin1String(api::errors::kInvalidKit))
            return std::nullopt; // sandbox.create says what is wrong with the kit
        return failure(described.errorMessage());
    }
    const QJsonObject check = described.result();
    if (!check.value(QLatin1String("blocked")).toBool())
        return std::nullopt;
    if (call.parser.isSet(approveHostGrantsOption().names().first()))
        return std::nullopt; // sandbox.create approves them, as asked
    const QString kitName = check.value(QLatin1String("kit")).toString();
    const QList<QJsonObject> pending = pendingGrants(check);
    const std::optional<bool> answer = askHostGrants(kitName, pending);
    if (!answer) {
        err().flush();
        return failure(check.value(QLatin1String("message")).toString());
    }
    if (!*answer)
        return failure(QStringLiteral("the kit %1 was not allowed to reach this computer or its networks; "
                                      "nothing was started")
                           .arg(kitName));
    QJsonArray patterns;
    for (const QJsonObject &grant : pending)
        patterns.append(grant.value(QLatin1String("pattern")));
    QJsonObject approve{{QStringLiteral("kit"), params.value(QLatin1String("kit"))},
                        {QStringLiteral("kitArgs"), params.value(QLatin1String("kitArgs"))},
                        {QStringLiteral("patterns"), patterns}};
    if (params.contains(QLatin1String("mixins"))) // a composition's grants are approved for it as a whole
        approve.insert(QStringLiteral("mixins"), params.value(QLatin1String("mixins")));
    const api::Reply approved = daemonReply(QStringLiteral("grant.approve"), approve, kCallTimeoutMs);
    if (approved.isError())
        return failure(approved.errorMessage());
    QStringList names;
    for (const QJsonValue &pattern : std::as_const(patterns))
        names << pattern.toString();
    err() << "paddock: approved for the kit " << kitName << ": " << names.join(QStringLiteral(", ")) << '\n';
    err().flush();
    return std::nullopt;
}

} // namespace paddock::cli
