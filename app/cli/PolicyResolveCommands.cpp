// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy resolve set|rm|ls: resolver overrides.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace paddock::cli {
namespace {

using namespace policycli;

int runResolveSet(const Invocation &call)
{
    const QHostAddress address(call.positional.at(1));
    if (address.isNull())
        return usageError(call.commandPath, QStringLiteral("'%1' is not an IP address").arg(call.positional.at(1)));
    // The daemon writes policy.yaml and resolves as set before it answers.
    int code = ExitOk;
    const std::optional<QJsonObject> result = callDaemon(
        call, QStringLiteral("policy.resolve.set"),
        {{QStringLiteral("host"), call.positional.constFirst()}, {QStringLiteral("address"), address.toString()}},
        &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    out() << result->value(QLatin1String("host")).toString() << " now resolves to "
          << result->value(QLatin1String("address")).toString() << ".\n";
    return ExitOk;
}

int runResolveRm(const Invocation &call)
{
    int code = ExitOk;
    if (!callDaemon(call, QStringLiteral("policy.resolve.remove"),
                    {{QStringLiteral("host"), call.positional.constFirst()}}, &code, kPolicyCallTimeoutMs))
        return code;
    out() << "Removed the override for " << call.positional.constFirst() << ".\n";
    return ExitOk;
}

int runResolveLs(const Invocation &call)
{
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("policy.resolve.list"), {}, &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    const QJsonArray overrides = result->value(QLatin1String("overrides")).toArray();
    if (call.parser.isSet(kJson)) {
        printJson(QJsonDocument(overrides));
        return ExitOk;
    }
    if (overrides.isEmpty()) {
        out() << "No resolver overrides. Add one with 'paddock policy resolve set HOST ADDRESS'.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const QJsonValue &value : overrides)
        rows << QStringList{value[QLatin1String("host")].toString(), value[QLatin1String("address")].toString()};
    printTable({QStringLiteral("HOST"), QStringLiteral("ADDRESS")}, rows);
    return ExitOk;
}

} // namespace

Command policyResolveCommand()
{
    Command resolve;
    resolve.name = QStringLiteral("resolve");
    resolve.summary = QStringLiteral("Map host names to addresses instead of DNS.");
    resolve.description =
        QStringLiteral("Resolver overrides send a name to an address you choose (a local mirror, a test server).\n"
                       "They are trusted: an allowed name mapped here may lead to a private or loopback address.");
    Command resolveSet = leaf(QStringLiteral("set"), QStringLiteral("Map HOST to ADDRESS."), {}, runResolveSet);
    resolveSet.positionalSyntax = QStringLiteral("HOST ADDRESS");
    resolveSet.minPositional = resolveSet.maxPositional = 2;
    Command resolveRm = leaf(QStringLiteral("rm"), QStringLiteral("Remove HOST's override."), {}, runResolveRm);
    resolveRm.positionalSyntax = QStringLiteral("HOST");
    resolveRm.minPositional = resolveRm.maxPositional = 1;
    Command resolveLs = leaf(QStringLiteral("ls"), QStringLiteral("List the overrides."), {}, runResolveLs);
    resolveLs.maxPositional = 0;
    resolveLs.options = {jsonOption(QStringLiteral("the overrides"))};
    resolve.subcommands << resolveSet << resolveRm << resolveLs;
    return resolve;
}

} // namespace paddock::cli
