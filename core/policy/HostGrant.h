// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/HostPattern.h"
#include "policy/LocalAddresses.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>
#include <vector>

namespace paddock::policy {

/**
 * @brief An allow pattern that reaches this computer or a network it sits on: loopback,
 * link-local and cloud metadata, private and the other guarded ranges (guardedRanges()), or
 * one of the computer's own addresses.
 *
 * A kit or a bundle that asks for one opens the host to the sandbox, so it is used only once
 * the person approved it (HostGrantApprovals); a pattern the user typed into the policy is
 * the user's own decision. Names count when their meaning is fixed (`localhost`, the cloud
 * metadata names) and when they are an address spelled the way inet_aton(3) reads it
 * (`127.1`, `0x7f000001`), since the resolver reads them that way too.
 */
struct HostGrant
{
    QString pattern;     ///< canonical, as HostPattern::toString() writes it
    QStringList reaches; ///< the kinds of address it reaches: "loopback", "private", "cloud metadata", ...

    /** "127.0.0.1:* (loopback)", for lists and messages. */
    QString describe() const;
    /** "loopback addresses", "cloud metadata and link-local addresses". */
    QString reachPhrase() const;
    friend bool operator==(const HostGrant &, const HostGrant &) = default;
};

/** The grant @p pattern makes, or nullopt when it reaches no guarded address. */
std::optional<HostGrant> hostGrantOf(const HostPattern &pattern,
                                     const LocalAddresses &local = *LocalAddresses::system());
/** hostGrantOf() for pattern text; nullopt too when @p text is not a pattern. */
std::optional<HostGrant> hostGrantOf(QStringView text, const LocalAddresses &local = *LocalAddresses::system());
/** The grants among @p allow (a kit's `permissions.network.allow`), in order, without repeats. */
QList<HostGrant> hostGrantsOf(const QStringList &allow, const LocalAddresses &local = *LocalAddresses::system());

/**
 * Whether @p normalisedName always means loopback: `localhost` and names under it (RFC 6761),
 * and `host.paddock.internal`, a sandbox's name for this computer (common/HostAlias.h).
 */
bool isLoopbackName(std::string_view normalisedName);

/**
 * For a host name whose meaning is fixed, the addresses it means: `localhost` and names under
 * it are loopback (RFC 6761), so is `host.paddock.internal`, the cloud metadata names are the
 * metadata services. A rule
 * naming such a name (`localhost:8080`, `*.localhost`) opens exactly these addresses; every
 * other name reaches a guarded address only through a trusted resolver override. Empty for
 * other names; @p normalisedName is a name as HostPattern::domain() holds it.
 */
std::vector<IpNetwork> fixedReachOf(std::string_view normalisedName);

/**
 * The address a host name denotes when inet_aton(3) reads it as one (`127.1`, `2130706433`,
 * `0x7f.0.0.1`), as getaddrinfo does; nullopt for a real name or a strict literal.
 */
std::optional<IpAddress> legacyIpv4Spelling(std::string_view name);

} // namespace paddock::policy
