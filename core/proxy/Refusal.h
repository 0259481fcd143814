// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/ProxyTypes.h"
#include "proxy/Socks5.h"

#include <QLatin1String>
#include <QString>

namespace paddock::proxy {

/**
 * @brief Why the proxy turns a connection down and what the client is told: an HTTP status, or
 * a SOCKS reply, and the event (kind, rule, reason, and the command that would allow it).
 *
 * Made only through the named constructors, so every refusal of one sort carries the same rule
 * name and the same answer whichever handler gives it.
 */
struct Refusal
{
    // The rule names of refusals the proxy decides itself rather than the policy. Events carry
    // them, and the denial log groups by them.
    static constexpr QLatin1String LimitRule{"limit"};       ///< a size, time or count bound
    static constexpr QLatin1String ProtocolRule{"protocol"}; ///< a request that cannot be forwarded as sent
    static constexpr QLatin1String SniRule{"sni"};           ///< the TLS server name is not the tunnel's host
    static constexpr QLatin1String TlsRule{"tls"};           ///< the sandbox's TLS handshake with the proxy failed
    static constexpr QLatin1String CaptureRule{"capture"};   ///< what capture refuses in the sandbox (UDP, names)

    /** The policy refused: 403, with the rule that decided and the command that would allow it. */
    static Refusal policy(const Verdict &verdict);
    /** A request the proxy will not forward as sent (malformed, ambiguous, out of order). */
    static Refusal badRequest(const QString &reason, int status = 400);
    /** A SOCKS request the proxy does not serve, answered with @p reply. */
    static Refusal badSocksRequest(socks5::Reply reply, const QString &reason);
    /** A bound was reached: a head too large or too slow, too many connections. */
    static Refusal limit(int status, const QString &reason);
    /** The ClientHello of a granted tunnel names another host, or is not one; the tunnel closes. */
    static Refusal sni(const QString &reason);
    /** Allowed, but the upstream could not be resolved, reached or understood. */
    static Refusal upstreamFailed(int status, socks5::Reply reply, const QString &reason);

    int status = 0; ///< the HTTP answer; 0: none, the connection just closes
    socks5::Reply socksReply = socks5::Reply::GeneralFailure;
    ProxyEvent::Kind kind = ProxyEvent::Kind::Denied;
    QString rule;   ///< empty for an upstream failure
    QString reason; ///< one sentence, in the event and the X-Paddock-Reason header
    QString fix;    ///< the command that would allow it, when the policy refused

private:
    Refusal(int httpStatus, socks5::Reply reply, ProxyEvent::Kind eventKind, QString ruleName, QString why,
            QString command = {});
};

} // namespace paddock::proxy
