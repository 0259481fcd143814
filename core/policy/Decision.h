// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/ClientProgram.h"
#include "policy/IpAddress.h"
#include "policy/Rule.h"

#include <QHostAddress>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace paddock::policy {

/** @brief One connection the proxy is about to make on behalf of a sandbox. */
struct Request
{
    QString sandbox; ///< the sandbox the connection comes from (known from its endpoint)
    QString kit;     ///< the kit that sandbox runs
    QString host;    ///< a name or an IP literal, as the client asked for it
    std::uint16_t port = 443;
    /** What the caller resolved @ref host to; empty for IP literals or when not resolved yet. */
    QList<QHostAddress> addresses;
    /** Which program inside the sandbox connects, when known: what rules' program conditions match. */
    ClientProgram program;
    /**
     * For one HTTP request the proxy sees: its method and target (as sent, query included);
     * empty when the question is about a connection. Rules with methods or paths decide these.
     */
    QString method;
    QString path;
    /** For a connection: the proxy sees each of its requests and asks about each again. */
    bool seesRequests = false;
};

/** @brief The answer for one Request: allowed or not, which rule decided, and why. */
struct Decision
{
    enum class Basis {
        AllowedByRule,    ///< an allow rule matched and no deny rule did
        DeniedByRule,     ///< a deny rule matched (deny wins over allow)
        NoMatchingRule,   ///< nothing allowed it: the default is deny
        NonPublicAddress, ///< allowed, but it leads to a guarded address no rule names (IpAddress::isNonPublic())
        InvalidHost,      ///< the host is not a host name or address
        /**
         * A rule with methods or paths covers the host, and the proxy cannot see the requests of
         * this connection (a tunnel it does not terminate): refused rather than let through unchecked.
         */
        RequestsUnseen,
    };

    bool allowed = false;
    Basis basis = Basis::NoMatchingRule;
    std::optional<Rule> rule; ///< the deciding rule; for NonPublicAddress the rule that allowed the name
    QString host;             ///< as requested
    std::uint16_t port = 0;
    IpAddress address;                 ///< for NonPublicAddress, the address that was refused
    const char *addressKind = nullptr; ///< for NonPublicAddress: "loopback", "this computer's own", ...
    bool literal = false;              ///< the host was an address, not a name
    QString request;                   ///< for a request: "POST /gists" (query redacted); empty for a connection

    /** The rule id, or "default deny" when no rule decided. */
    QString ruleLabel() const;
    /** One sentence a person understands, naming the host, the rule or default, and why. */
    QString reason() const;
    /** A stable token for machines (the proxy's reason header, the event log). */
    QString basisToken() const;
};

/** @brief A decision and, when refused, the command that would change it. */
struct Explanation
{
    Decision decision;
    QString fix; ///< e.g. "paddock policy allow network example.com --sandbox web"; empty when allowed
};

} // namespace paddock::policy
