// SPDX-License-Identifier: GPL-3.0-or-later
// paddock grant check|approve|ls|revoke: a kit's rules that reach this computer or its networks.
#include "BindingApproval.h"
#include "Cli.h"
#include "HostGrantCli.h"
#include "SandboxCliSupport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::cli {
namespace {

/**
 * {kit: DIR, kitArgs} for the daemon from --kit and --arg, with `mixins` when --kit names the
 * kits of a composition; nullopt after reporting bad usage.
 */
std::optional<QJsonObject> kitParams(const Invocation &call, int *code)
{
    const QStringList dirs = call.parser.values(QStringLiteral("kit"));
    if (dirs.isEmpty() || dirs.constFirst().isEmpty()) {
        *code = usageError(call.commandPath, QStringLiteral("--kit DIR is required"));
        return std::nullopt;
    }
    const std::optional<QJsonObject> kitArgs = kitArgsJson(call, code);
    if (!kitArgs)
        return std::nullopt;
    QJsonObject params{{QStringLiteral("kit"), QFileInfo(dirs.constFirst()).absoluteFilePath()},
                       {QStringLiteral("workspace"), QDir::currentPath()},
                       {QStringLiteral("kitArgs"), *kitArgs}};
    QJsonArray mixins;
    for (const QString &dir : dirs.mid(1))
        mixins << QFileInfo(dir).absoluteFilePath();
    if (!mixins.isEmpty())
        params.insert(QStringLiteral("mixins"), mixins);
    return params;
}

int runCheck(const Invocation &call)
{
    int code = ExitOk;
    const std::optional<QJsonObject> params = kitParams(call, &code);
    if (!params)
        return code;
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("sandbox.hostGrants"), *params);
    if (!result)
        return ExitFailed;
    const bool blocked = result->value(QLatin1String("blocked")).toBool();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(*result).toJson(QJsonDocument::Indented);
        return blocked ? ExitFailed : ExitOk;
    }
    const QString kit = result->value(QLatin1String("kit")).toString();
    const QJsonArray grants = result->value(QLatin1String("grants")).toArray();
    if (grants.isEmpty()) {
        out() << "The kit " << kit << " reaches nothing on this computer or its networks.\n";
        return ExitOk;
    }
    out() << "The kit " << kit << " reaches this computer or its networks with:\n";
    for (const QJsonValue &value : grants) {
        const QJsonObject grant = value.toObject();
        QStringList reaches;
        for (const QJsonValue &kind : grant.value(QLatin1String("reaches")).toArray())
            reaches << kind.toString();
        out() << "  " << grant.value(QLatin1String("pattern")).toString() << "  (" << reaches.join(QStringLiteral(", "))
              << ")  " << (grant.value(QLatin1String("approved")).toBool() ? "approved" : "not approved") << '\n';
    }
    if (!blocked)
        return ExitOk;
    out().flush();
    return failure(QStringLiteral("a sandbox of %1 does not start until you approve them: %2")
                       .arg(kit, result->value(QLatin1String("command")).toString()));
}

int runApprove(const Invocation &call)
{
    int code = ExitOk;
    std::optional<QJsonObject> params = kitParams(call, &code);
    if (!params)
        return code;
    params->insert(QStringLiteral("patterns"), QJsonArray::fromStringList(call.positional));
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("grant.approve"), *params);
    if (!result)
        return ExitFailed;
    const QString kit = result->value(QLatin1String("kit")).toString();
    QStringList approved;
    for (const QJsonValue &value : result->value(QLatin1String("approved")).toArray())
        approved << value.toString();
    if (approved.isEmpty())
        out() << "The kit " << kit << " has no host grant: nothing to approve.\n";
    else
        out() << "Approved for the kit " << kit << ": " << approved.join(QStringLiteral(", ")) << ".\n";
    return ExitOk;
}

int runRevoke(const Invocation &call)
{
    const QJsonObject params{{QStringLiteral("kit"), call.positional.constFirst()},
                             {QStringLiteral("patterns"), QJsonArray::fromStringList(call.positional.mid(1))}};
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("grant.revoke"), params);
    if (!result)
        return ExitFailed;
    out() << "Withdrew " << result->value(QLatin1String("removed")).toInt() << " host grant(s) of the kit "
          << result->value(QLatin1String("kit")).toString() << "; its sandboxes lose them at once.\n";
    return ExitOk;
}

int runList(const Invocation &call)
{
    const std::optional<QJsonObject> result = callDaemon(QStringLiteral("grant.list"), {});
    if (!result)
        return ExitFailed;
    const QJsonArray grants = result->value(QLatin1String("grants")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(grants).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (grants.isEmpty()) {
        out() << "No host grant is approved.\n";
        return ExitOk;
    }
    qsizetype width = 3;
    for (const QJsonValue &value : grants)
        width = std::max(width, value.toObject().value(QLatin1String("kit")).toString().size());
    out() << QStringLiteral("KIT").leftJustified(width + 2) << "APPROVED\n";
    for (const QJsonValue &value : grants) {
        const QJsonObject grant = value.toObject();
        QStringList patterns;
        for (const QJsonValue &pattern : grant.value(QLatin1String("patterns")).toArray())
            patterns << pattern.toString();
        out() << grant.value(QLatin1String("kit")).toString().leftJustified(width + 2)
              << patterns.join(QStringLiteral(", ")) << '\n';
    }
    return ExitOk;
}

} // namespace

Command grantCommand()
{
    Command grant;
    grant.name = QStringLiteral("grant");
    grant.summary = QStringLiteral("Approve a kit's rules that reach this computer or its networks.");
    grant.description =
        QStringLiteral("A host grant is a pattern of a kit's permissions.network.allow that reaches this computer or\n"
                       "the networks it is on: loopback (127.0.0.1:*, localhost:11434), private ranges (10.0.0.0/8),\n"
                       "link-local and cloud metadata (169.254.169.254:80), this computer's own addresses and the\n"
                       "other special-purpose ranges. A sandbox of such a kit is neither created nor started until\n"
                       "you approve each one for that kit; an approval opens exactly the pattern, for that kit only.\n"
                       "Approvals are kept in host-grants.yaml in the config directory. A composition of v3 kits is\n"
                       "named by one --kit per kit, and its grants are approved for the composition as a whole.");

    Command check =
        leaf(QStringLiteral("check"), QStringLiteral("List a kit's host grants and whether each is approved."),
             QStringLiteral("Exits 1 when one is not approved, with the command that approves them."), runCheck);
    check.options = {kitOption(), argOption(), jsonOption()};
    check.maxPositional = 0;

    Command approve = leaf(QStringLiteral("approve"), QStringLiteral("Approve a kit's host grants."),
                           QStringLiteral("Approves every host grant of the kit, or the PATTERNs named (each must be "
                                          "one of them).\nThe kit's running sandboxes use them at once."),
                           runApprove);
    approve.options = {kitOption(), argOption()};
    approve.positionalSyntax = QStringLiteral("[PATTERN...]");

    Command revoke = leaf(QStringLiteral("revoke"), QStringLiteral("Withdraw the host grants approved for KIT."),
                          QStringLiteral("Withdraws every grant approved for the kit named KIT, or the PATTERNs "
                                         "named.\nIts running sandboxes lose them at once. Exits 1 when none was "
                                         "approved."),
                          runRevoke);
    revoke.positionalSyntax = QStringLiteral("KIT [PATTERN...]");
    revoke.minPositional = 1;

    Command list = leaf(QStringLiteral("ls"), QStringLiteral("List the approved host grants, kit by kit."),
                        QStringLiteral("Lists host-grants.yaml: each kit and the patterns approved for it."), runList);
    list.options = {jsonOption()};
    list.maxPositional = 0;

    grant.subcommands << check << approve << list << revoke;
    return grant;
}

} // namespace paddock::cli
