// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy resolve set|rm|ls: resolver overrides.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

#include "policy/PolicyStore.h"

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
    policy::PolicyStore store;
    if (const std::optional<int> stopped = loadStore(store))
        return *stopped;
    const policy::StoreResult result = store.setResolveOverride(call.positional.constFirst(), address);
    if (!result.ok())
        return failure(result.error().text());
    out() << call.positional.constFirst().toLower() << " now resolves to " << address.toString() << ".\n";
    return inForce();
}

int runResolveRm(const Invocation &call)
{
    policy::PolicyStore store;
    if (const std::optional<int> stopped = loadStore(store))
        return *stopped;
    const policy::StoreResult result = store.removeResolveOverride(call.positional.constFirst());
    if (!result.ok())
        return failure(result.error().text());
    out() << "Removed the override for " << call.positional.constFirst() << ".\n";
    return inForce();
}

int runResolveLs(const Invocation &call)
{
    policy::PolicyStore store;
    if (const std::optional<int> stopped = loadStore(store))
        return *stopped;
    const QMap<QString, QHostAddress> overrides = store.resolveOverrides();
    if (call.parser.isSet(kJson)) {
        QJsonArray array;
        for (auto it = overrides.cbegin(); it != overrides.cend(); ++it)
            array << QJsonObject{{QStringLiteral("host"), it.key()},
                                 {QStringLiteral("address"), it.value().toString()}};
        printJson(QJsonDocument(array));
        return ExitOk;
    }
    if (overrides.isEmpty()) {
        out() << "No resolver overrides. Add one with 'paddock policy resolve set HOST ADDRESS'.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (auto it = overrides.cbegin(); it != overrides.cend(); ++it)
        rows << QStringList{it.key(), it.value().toString()};
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
