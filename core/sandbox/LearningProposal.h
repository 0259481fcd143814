// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/PolicyEngine.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace paddock::sandbox {

/** @brief One destination a sandbox asked for that the policy did not allow: learned or refused. */
struct ObservedDestination
{
    QString host;
    quint16 port = 443;
    qint64 count = 0;
    QDateTime lastSeen;
};

/** @brief One line of a proposal: a destination and the pattern proposed for it. */
struct ProposalEntry
{
    QString host;
    quint16 port = 443;
    qint64 count = 0;
    QDateTime lastSeen;
    /** The pattern of the proposal that covers it, or a sentence saying why none does. */
    QString suggestion;
};

/** @brief What `policy.proposal` answers: the destinations and the allowlist that covers them. */
struct PolicyProposal
{
    QList<ProposalEntry> entries;
    QStringList patterns; ///< the smallest allowlist, sorted

    /** {entries: [{host, port, count, lastSeen, suggestion}], patterns: [..]}. */
    QJsonObject toJson() const;
};

/**
 * The registrable domain of @p host (its public suffix and one more label, after the public
 * suffix list in /usr/share/publicsuffix; without the list, the last two labels), or an empty
 * string when @p host is itself a public suffix or an IP address.
 */
QString registrableDomain(const QString &host);

/**
 * Folds what sandbox @p sandbox (running kit @p kit) asked for into the smallest reasonable
 * allowlist, judged against @p engine as it stands:
 *
 * - one exact pattern per host (`host`, `host:port` off 443), IP addresses as they are;
 * - two or more hosts one label below the same parent, on the same port, become
 *   `*.parent` when the parent is the registrable domain or below it (never `*.com`, never
 *   `*.co.uk`), and no deny rule that applies to the sandbox could match a host of it;
 * - a destination an explicit rule denies gets no pattern (its suggestion says which rule),
 *   nor does one the policy allows already.
 */
PolicyProposal proposePolicy(const QList<ObservedDestination> &observed, const policy::PolicyEngine &engine,
                             const QString &sandbox, const QString &kit);

} // namespace paddock::sandbox
