// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/LegacyKeys.h"

#include <QHash>

namespace paddock::kit {

std::optional<QString> legacyKeyReplacement(const QString &path)
{
    // Every block v1 or an earlier v2 draft spelled differently, with where it lives in v2.
    static const QHash<QString, QString> table = {
        {QStringLiteral("caps"), QStringLiteral("`permissions` (caps.network → permissions.network)")},
        {QStringLiteral("commands"),
         QStringLiteral("`setup` (commands → setup: commands.install → setup.install, commands.startup → "
                        "setup.startup, commands.initFiles → setup.files)")},
        {QStringLiteral("agentContext"),
         QStringLiteral("`agentInstructions` (agentContext → agentInstructions.content)")},
        {QStringLiteral("memory"), QStringLiteral("`agentInstructions` (memory → agentInstructions.content)")},
        {QStringLiteral("agent"),
         QStringLiteral("`sandbox` (agent.image → sandbox.image, agent.entrypoint.run → sandbox.entrypoint, "
                        "agent.aiFilename → agentInstructions.filename)")},
        {QStringLiteral("network"),
         QStringLiteral("`permissions.network` (network.allowedDomains → permissions.network.allow, "
                        "network.deniedDomains → permissions.network.deny; network.serviceDomains and "
                        "network.serviceAuth → credentials[].apiKey.inject; network.publishedPorts → ports)")},
        {QStringLiteral("settings"), QStringLiteral("nothing: v2 has no `settings` block; remove it")},
        {QStringLiteral("tmpfs"), QStringLiteral("`volumes` (an entry with type: tmpfs)")},
        {QStringLiteral("oauth"), QStringLiteral("`credentials[].oauth` (oauth → credentials[].oauth)")},
        {QStringLiteral("secrets"), QStringLiteral("`credentials` (secrets → credentials[].apiKey)")},
        {QStringLiteral("egress"), QStringLiteral("`permissions.network` (egress → permissions.network.allow)")},
        {QStringLiteral("binary"), QStringLiteral("`sandbox.entrypoint` (binary → sandbox.entrypoint[0])")},
        {QStringLiteral("template"), QStringLiteral("`sandbox.image` (template → sandbox.image)")},
        {QStringLiteral("aiFilename"),
         QStringLiteral("`agentInstructions.filename` (aiFilename → agentInstructions.filename)")},
        {QStringLiteral("runOptions"), QStringLiteral("`sandbox.command` (runOptions → sandbox.command.default)")},
        {QStringLiteral("sandbox.aiFilename"),
         QStringLiteral("`agentInstructions.filename` (sandbox.aiFilename → agentInstructions.filename)")},
        {QStringLiteral("sandbox.template"), QStringLiteral("`sandbox.image` (sandbox.template → sandbox.image)")},
        {QStringLiteral("sandbox.persistence"), QStringLiteral("nothing: v2 has no `persistence`; remove it")},
        {QStringLiteral("sandbox.entrypoint.run"),
         QStringLiteral("`sandbox.entrypoint` as a list (entrypoint.run → sandbox.entrypoint)")},
        {QStringLiteral("sandbox.entrypoint.args"),
         QStringLiteral("`sandbox.command` (entrypoint.args → sandbox.command.default)")},
        {QStringLiteral("sandbox.entrypoint.ttyArgs"),
         QStringLiteral("`sandbox.command` (entrypoint.ttyArgs → sandbox.command.interactive)")},
        {QStringLiteral("sandbox.entrypoint.pipeMode"), QStringLiteral("nothing: v2 dropped `pipeMode`; remove it")},
        {QStringLiteral("setup.initFiles"), QStringLiteral("`setup.files` (initFiles → setup.files)")},
        {QStringLiteral("environment.proxyManaged"),
         QStringLiteral("`credentials[].apiKey.proxyManaged` (environment.proxyManaged → "
                        "credentials[].apiKey.proxyManaged: true)")},
        {QStringLiteral("credentials.sources"),
         QStringLiteral(
             "a `credentials` list (credentials.sources → credentials: [{service, apiKey: {name, inject}}])")},
        {QStringLiteral("permissions.network.allowedDomains"),
         QStringLiteral("`permissions.network.allow` (allowedDomains → allow)")},
        {QStringLiteral("permissions.network.deniedDomains"),
         QStringLiteral("`permissions.network.deny` (deniedDomains → deny)")},
        {QStringLiteral("credentials.oauth.passthroughResponse"),
         QStringLiteral("`credentials[].oauth.passthrough` (passthroughResponse → passthrough)")},
        {QStringLiteral("credentials.oauth.service"),
         QStringLiteral("the parent credential's `service` (oauth.service → credentials[].service)")},
    };
    const auto it = table.constFind(path);
    if (it == table.constEnd())
        return std::nullopt;
    return *it;
}

} // namespace paddock::kit
