// SPDX-License-Identifier: GPL-3.0-or-later
// The permission surface of a kit and what an update adds to it, for the gate on kit updates.
#include "kit/KitSurface.h"

#include <QSet>

#include <algorithm>

namespace paddock::kit {

namespace {

QStringList sortedUnique(QStringList list)
{
    list.sort();
    list.removeDuplicates();
    return list;
}

QStringList missingFrom(const QStringList &have, const QStringList &wanted)
{
    const QSet<QString> known(have.cbegin(), have.cend());
    QStringList missing;
    for (const QString &entry : wanted)
        if (!known.contains(entry))
            missing << entry;
    return missing;
}

QStringList credentialLines(const Credential &credential)
{
    QStringList lines;
    if (credential.apiKey) {
        for (const Injection &injection : credential.apiKey->inject)
            lines << QStringLiteral("%1, presented to %2 in %3")
                         .arg(credential.service, injection.domain, injection.header);
        if (credential.apiKey->inject.isEmpty())
            lines << credential.service;
    }
    if (credential.oauth)
        lines << QStringLiteral("%1, signed in at %2 for %3")
                     .arg(credential.service, credential.oauth->tokenHost,
                          credential.oauth->resourceHosts.join(QStringLiteral(", ")));
    if (lines.isEmpty())
        lines << credential.service;
    return lines;
}

} // namespace

KitSurface surfaceOf(const Kit &kit)
{
    KitSurface surface;
    surface.allow = sortedUnique(kit.networkAllow);
    surface.deny = sortedUnique(kit.networkDeny);
    surface.installAllow = sortedUnique(kit.networkInstallAllow);
    surface.installDeny = sortedUnique(kit.networkInstallDeny);
    for (const Credential &credential : kit.credentials)
        surface.credentials << credentialLines(credential);
    surface.credentials = sortedUnique(surface.credentials);
    for (const Port &port : kit.ports)
        surface.ports
            << QStringLiteral("%1/%2").arg(port.container).arg(port.protocol.isEmpty() ? "tcp" : port.protocol);
    surface.ports = sortedUnique(surface.ports);
    for (const Volume &volume : kit.volumes)
        surface.volumes << volume.path;
    surface.volumes = sortedUnique(surface.volumes);
    surface.privileged = kit.privileged.value_or(false);
    surface.gitIdentity =
        std::any_of(kit.capabilities.cbegin(), kit.capabilities.cend(), [](const CapabilityOutcome &outcome) {
            return outcome.type == QLatin1String("com.docker.sandbox/git-identity@1") &&
                   outcome.status == CapabilityOutcome::Status::Applied;
        });
    return surface;
}

/** A pattern in plain words: `HOST:*` (a v3 kit's bare host) is "HOST on any port". */
static QString hostWords(const QString &pattern)
{
    return pattern.endsWith(QLatin1String(":*")) ? pattern.chopped(2) + QStringLiteral(" on any port") : pattern;
}

QStringList wideningsOf(const KitSurface &approved, const KitSurface &candidate)
{
    QStringList lines;
    for (const QString &host : missingFrom(approved.allow, candidate.allow))
        lines << QStringLiteral("may reach %1").arg(hostWords(host));
    for (const QString &host : missingFrom(candidate.deny, approved.deny))
        lines << QStringLiteral("no longer denies %1").arg(hostWords(host));
    for (const QString &host : missingFrom(approved.installAllow, candidate.installAllow))
        lines << QStringLiteral("may reach %1 while installing").arg(hostWords(host));
    for (const QString &host : missingFrom(candidate.installDeny, approved.installDeny))
        lines << QStringLiteral("no longer denies %1 while installing").arg(hostWords(host));
    for (const QString &credential : missingFrom(approved.credentials, candidate.credentials))
        lines << QStringLiteral("uses the key %1").arg(credential);
    for (const QString &port : missingFrom(approved.ports, candidate.ports))
        lines << QStringLiteral("publishes port %1 on 127.0.0.1").arg(port);
    for (const QString &path : missingFrom(approved.volumes, candidate.volumes))
        lines << QStringLiteral("keeps a volume at %1").arg(path);
    if (candidate.privileged && !approved.privileged)
        lines << QStringLiteral("runs privileged");
    if (candidate.gitIdentity && !approved.gitIdentity)
        lines << QStringLiteral("gives git inside your git name and email");
    return lines;
}

} // namespace paddock::kit
