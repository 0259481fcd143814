// SPDX-License-Identifier: GPL-3.0-or-later
// Through an upstream (corporate) proxy: connected to it, a tunnel is opened through it (HTTP
// CONNECT or SOCKS5) before the connection goes on as if it had reached its target; a
// plain-HTTP request goes to an HTTP proxy as it is, in absolute form.
#include "proxy/ProxyLoopInternal.h"

#include <sys/epoll.h>
#include <sys/socket.h>

#include <cerrno>

namespace paddock::proxy {

using namespace loop;

namespace {

/** @p head (a request to the origin) as an HTTP proxy takes it: the target in absolute form, the proxy's credentials. */
std::string forProxy(const std::string &head, const http::Authority &target, const std::string &authorization)
{
    const std::size_t space = head.find(' ');
    const std::size_t lineEnd = head.find("\r\n");
    if (space == std::string::npos || lineEnd == std::string::npos || space > lineEnd)
        return head;
    const std::string authority =
        target.port == 80 ? (target.host.find(':') != std::string::npos ? "[" + target.host + "]" : target.host)
                          : http::formatAuthority(target);
    return head.substr(0, space + 1) + "http://" + authority + head.substr(space + 1, lineEnd + 2 - space - 1) +
           authorization + head.substr(lineEnd + 2);
}

} // namespace

void ProxyLoop::startProxyHandshake(Connection &c)
{
    const UpstreamProxy &proxy = *c.via;
    if (proxy.kind == UpstreamProxy::Kind::Http && c.protocol == Protocol::Http) {
        c.request.upstreamHead = forProxy(c.request.upstreamHead, c.target, proxy.authorizationHeader());
        return onUpstreamConnected(c);
    }
    c.handshake = std::make_unique<UpstreamHandshake>(proxy, c.target, c.addresses);
    c.handshakeOut = c.handshake->start();
    c.phase = Phase::ProxyHandshake;
    c.deadline = m_now + m_limits.connectTimeout;
    if (!flushHandshake(c))
        return refuse(c, Refusal::upstreamFailed(
                             502, socks5::Reply::GeneralFailure,
                             QStringLiteral("the upstream proxy %1 closed the connection").arg(proxy.authority())));
    updateInterest(c);
}

bool ProxyLoop::flushHandshake(Connection &c)
{
    while (!c.handshakeOut.empty()) {
        const ssize_t sent = ::send(c.upstream.get(), c.handshakeOut.data(), c.handshakeOut.size(), MSG_NOSIGNAL);
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (sent <= 0)
            return false;
        c.handshakeOut.erase(0, std::size_t(sent));
    }
    return true;
}

void ProxyLoop::onProxyHandshakeEvent(Connection &c, std::uint32_t events)
{
    const QString proxy = c.via->authority();
    const auto failed = [&](const QString &reason) {
        refuse(c, Refusal::upstreamFailed(502, socks5::Reply::GeneralFailure, reason));
    };
    if ((events & EPOLLOUT) && !flushHandshake(c))
        return failed(QStringLiteral("the upstream proxy %1 closed the connection").arg(proxy));
    std::string received;
    bool ended = false;
    while (received.size() < 64 * 1024) {
        char buffer[4096];
        const ssize_t n = ::recv(c.upstream.get(), buffer, sizeof buffer, 0);
        if (n > 0) {
            received.append(buffer, std::size_t(n));
            continue;
        }
        ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
        break;
    }
    std::string next;
    const UpstreamHandshake::State state =
        received.empty() ? UpstreamHandshake::State::Waiting : c.handshake->feed(received, &next);
    switch (state) {
    case UpstreamHandshake::State::Refused:
        return refuse(c, Refusal::upstreamFailed(502, c.handshake->socksReply(), c.handshake->reason()));
    case UpstreamHandshake::State::Open:
        c.early = c.handshake->leftover();
        c.handshake.reset();
        return onUpstreamConnected(c);
    case UpstreamHandshake::State::Waiting:
        break;
    }
    if (ended)
        return failed(
            QStringLiteral("the upstream proxy %1 closed the connection before opening the tunnel").arg(proxy));
    c.handshakeOut += next;
    if (!flushHandshake(c))
        return failed(QStringLiteral("the upstream proxy %1 closed the connection").arg(proxy));
    updateInterest(c);
}

} // namespace paddock::proxy
