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

QStringList sshAgentLines(const QList<SshAgentGrant> &grants)
{
    QStringList lines;
    for (const SshAgentGrant &grant : grants) {
        if (grant.unrestricted)
            lines << grant.phase + QStringLiteral(" any");
        for (const QString &space : grant.sign)
            lines << grant.phase + QStringLiteral(" sign ") + space;
        for (const QString &server : grant.authenticate)
            lines << grant.phase + QStringLiteral(" login ") + server;
    }
    return lines;
}

/** Whether @p line ("PHASE login [USER@]HOST") is within @p approved: `host` covers `user@host`. */
bool sshAgentCovered(const QStringList &approved, const QString &line)
{
    if (approved.contains(line) || approved.contains(line.section(QLatin1Char(' '), 0, 0) + QStringLiteral(" any")))
        return true;
    const qsizetype at = line.indexOf(QLatin1Char('@'));
    return line.section(QLatin1Char(' '), 1, 1) == QLatin1String("login") && at > 0 &&
           approved.contains(line.section(QLatin1Char(' '), 0, 1) + QLatin1Char(' ') + line.mid(at + 1));
}

/** An sshAgent line in plain words, as the update gate and the create's approval say it. */
QString sshAgentWords(const QString &line)
{
    const QString phase = line.section(QLatin1Char(' '), 0, 0) == QLatin1String("install")
                              ? QStringLiteral(" while installing")
                              : QString();
    const QString what = line.section(QLatin1Char(' '), 1, 1);
    const QString value = line.section(QLatin1Char(' '), 2);
    if (what == QLatin1String("sign"))
        return QStringLiteral("may sign %1 signatures with your SSH keys%2").arg(value, phase);
    if (what == QLatin1String("login"))
        return QStringLiteral("may log in with your SSH keys to %1%2").arg(value, phase);
    return QStringLiteral("may use your SSH keys for anything%1").arg(phase);
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
    surface.sshAgent = sortedUnique(sshAgentLines(kit.sshAgents));
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
    for (const QString &line : candidate.sshAgent)
        if (!sshAgentCovered(approved.sshAgent, line))
            lines << sshAgentWords(line);
    return lines;
}

} // namespace paddock::kit
