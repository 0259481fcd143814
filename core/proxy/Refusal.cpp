// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/Refusal.h"

#include <utility>

namespace paddock::proxy {

using Kind = ProxyEvent::Kind;
using socks5::Reply;

Refusal::Refusal(int httpStatus, socks5::Reply reply, ProxyEvent::Kind eventKind, QString ruleName, QString why,
                 QString command)
    : status(httpStatus),
      socksReply(reply),
      kind(eventKind),
      rule(std::move(ruleName)),
      reason(std::move(why)),
      fix(std::move(command))
{}

Refusal Refusal::policy(const Verdict &verdict)
{
    return {403, Reply::NotAllowedByRuleset, Kind::Denied, verdict.rule, verdict.reason, verdict.fix};
}

Refusal Refusal::badRequest(const QString &reason, int status)
{
    return {status, Reply::GeneralFailure, Kind::Denied, ProtocolRule, reason};
}

Refusal Refusal::badSocksRequest(socks5::Reply reply, const QString &reason)
{
    return {0, reply, Kind::Denied, ProtocolRule, reason};
}

Refusal Refusal::limit(int status, const QString &reason)
{
    return {status, Reply::GeneralFailure, Kind::Denied, LimitRule, reason};
}

Refusal Refusal::sni(const QString &reason)
{
    return {0, Reply::NotAllowedByRuleset, Kind::Denied, SniRule, reason};
}

Refusal Refusal::upstreamFailed(int status, socks5::Reply reply, const QString &reason)
{
    return {status, reply, Kind::UpstreamFailed, {}, reason};
}

} // namespace paddock::proxy
