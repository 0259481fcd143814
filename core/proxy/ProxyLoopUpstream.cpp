// SPDX-License-Identifier: GPL-3.0-or-later
// From a target to a connected upstream: the policy asked (before and after resolving), the name
// resolved, each address tried in turn.
#include "proxy/ProxyLoopInternal.h"

#include "common/HostAlias.h"
#include "proxy/SocketAddress.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace paddock::proxy {

using namespace loop;

namespace {

socks5::Reply socksReplyFor(int error)
{
    switch (error) {
    case ECONNREFUSED:
        return socks5::Reply::ConnectionRefused;
    case ENETUNREACH:
        return socks5::Reply::NetworkUnreachable;
    case EHOSTUNREACH:
    case ETIMEDOUT:
        return socks5::Reply::HostUnreachable;
    default:
        return socks5::Reply::GeneralFailure;
    }
}

} // namespace

std::shared_ptr<const Decider> ProxyLoop::currentDecider() const
{
    const std::lock_guard lock(m_deciderMutex);
    return m_decider;
}

ConnectionQuery ProxyLoop::queryOf(const Connection &c)
{
    ConnectionQuery query;
    query.sandbox = c.endpoint->identity.sandbox;
    query.kit = c.endpoint->identity.kit;
    query.host = qs(c.target.host);
    query.port = c.target.port;
    query.protocol = c.protocol;
    query.addresses = c.addresses;
    query.program = c.program;
    return query;
}

Verdict ProxyLoop::consult(const std::shared_ptr<const Decider> &decider, const ConnectionQuery &query)
{
    if (!decider || !*decider)
        return Verdict{false, QStringLiteral("default deny"), QStringLiteral("no policy is loaded"), {}};
    try {
        return (*decider)(query);
    } catch (...) {
        return Verdict{false, QStringLiteral("default deny"), QStringLiteral("the policy could not be evaluated"), {}};
    }
}

const ServiceRoute *ProxyLoop::serviceFor(const Connection &c) const
{
    const std::shared_ptr<const std::vector<ServiceRoute>> &services = c.endpoint->services;
    if (!services)
        return nullptr;
    for (const ServiceRoute &route : *services) {
        if (route.port == c.target.port && route.host == c.target.host)
            return &route;
    }
    return nullptr;
}

Verdict ProxyLoop::ask(const Connection &c) const
{
    // The sandbox's own companion, at its port: its, and no one else's.
    if (serviceFor(c))
        return Verdict{true,
                       QStringLiteral("service:") + qs(c.target.host),
                       QStringLiteral("%1 is a companion service of sandbox %2")
                           .arg(qs(c.target.host), c.endpoint->identity.sandbox),
                       {}};
    ConnectionQuery query = queryOf(c);
    if (c.protocol == Protocol::Http) { // each plain-HTTP request is decided with what it asks for
        query.method = qs(c.request.method);
        query.target = qs(c.request.path);
    } else {
        const std::shared_ptr<const Interception> &interception = c.endpoint->interception;
        query.seesRequests = interception && interception->intercepts(c.target.host);
    }
    return consult(currentDecider(), query);
}

void ProxyLoop::decide(Connection &c)
{
    c.answeredAllow = false; // an answer covers the request it was given for, not the next
    c.addresses.clear();
    if (c.target.isIpLiteral) {
        c.addresses.push_back(QHostAddress(qs(c.target.host)));
        return afterResolution(c);
    }
    // A name the policy refuses is never looked up: DNS itself would carry data out. Neither
    // is one waiting for an answer.
    const Verdict verdict = ask(c);
    if (verdict.ask)
        return hold(c, verdict);
    if (!verdict.allowed)
        return refuse(c, Refusal::policy(verdict));
    lookUp(c);
}

void ProxyLoop::lookUp(Connection &c)
{
    // A sandbox's name for this computer is its loopback, whatever a resolver would say.
    if (c.target.host == kHostAlias) {
        c.addresses = {QHostAddress(QHostAddress::LocalHost), QHostAddress(QHostAddress::LocalHostIPv6)};
        return afterResolution(c);
    }
    if (const ServiceRoute *service = serviceFor(c)) {
        c.addresses = {service->address};
        return afterResolution(c);
    }
    if (auto mapped = m_overrides.lookup(c.target.host, c.target.port)) {
        c.addresses = std::move(*mapped);
        return afterResolution(c);
    }
    // Behind an HTTP or socks5h upstream proxy the proxy resolves the name, as curl leaves it
    // to the proxy: a lookup here would only wait for an intranet name this computer cannot
    // resolve. (socks5:// sends an address, so it needs one.)
    if (const std::shared_ptr<const UpstreamProxy> via = upstreamProxyFor(c);
        via && via->kind != UpstreamProxy::Kind::Socks5)
        return afterResolution(c);
    // Each sandbox has its own share of the resolver: one that asks for many slow names
    // waits behind its own lookups, never the others'.
    if (!m_resolver->submit(c.endpoint->id, c.id, c.target.host))
        return refuse(c, Refusal::limit(503, QStringLiteral("sandbox %1 already has %2 name lookups waiting")
                                                 .arg(c.endpoint->identity.sandbox)
                                                 .arg(m_limits.queuedLookupsPerEndpoint)));
    c.phase = Phase::Resolving;
    c.deadline = m_now + m_limits.connectTimeout;
    updateInterest(c);
}

void ProxyLoop::collectResolutions()
{
    Q_ASSERT(isLoopThread());
    for (ResolverPool::Result &result : m_resolver->takeResults()) {
        const auto it = m_connections.find(result.ticket);
        if (it == m_connections.end() || it->second->phase != Phase::Resolving)
            continue; // the client left or timed out meanwhile
        Connection &c = *it->second;
        if (!result.error.empty()) {
            refuse(c, Refusal::upstreamFailed(
                          502, socks5::Reply::HostUnreachable,
                          QStringLiteral("cannot resolve %1: %2").arg(qs(c.target.host), qs(result.error))));
            continue;
        }
        c.addresses = std::move(result.addresses);
        afterResolution(c);
    }
}

void ProxyLoop::afterResolution(Connection &c)
{
    const Verdict verdict = ask(c);
    // A person's "allow" stands in for the missing rule; a refusal the addresses bring (the
    // local network) still refuses.
    if (verdict.ask && !c.answeredAllow)
        return hold(c, verdict);
    if (!verdict.allowed && !(verdict.ask && c.answeredAllow))
        return refuse(c, Refusal::policy(verdict));
    if (verdict.allowed)
        c.allowRule = verdict.rule;
    if (c.endpoint->tunnels >= m_limits.maxTunnelsPerEndpoint)
        return refuse(c, Refusal::limit(503, QStringLiteral("sandbox %1 already has %2 connections open")
                                                 .arg(c.endpoint->identity.sandbox)
                                                 .arg(m_limits.maxTunnelsPerEndpoint)));
    connectUpstream(c);
}

std::shared_ptr<const UpstreamProxy> ProxyLoop::upstreamProxyFor(const Connection &c) const
{
    std::shared_ptr<const UpstreamProxy> proxy;
    {
        const std::lock_guard lock(m_deciderMutex);
        proxy = m_upstreamProxy;
    }
    // A sandbox's name for this computer, and the user's own mappings, are reached directly.
    if (!proxy || c.target.host == kHostAlias || m_overrides.lookup(c.target.host, c.target.port) || serviceFor(c))
        return nullptr;
    return proxy->carries(c.target.host, c.target.port, c.addresses) ? proxy : nullptr;
}

void ProxyLoop::connectUpstream(Connection &c)
{
    c.via = upstreamProxyFor(c);
    if (c.via && !c.via->unresolved.isEmpty())
        return refuse(c, Refusal::upstreamFailed(502, socks5::Reply::GeneralFailure, c.via->unresolved));
    c.phase = Phase::Connecting;
    c.deadline = m_now + m_limits.connectTimeout;
    c.nextAddress = 0;
    c.lastConnectError = 0;
    c.holdsTunnel = true;
    ++c.endpoint->tunnels;
    tryNextAddress(c);
}

void ProxyLoop::tryNextAddress(Connection &c)
{
    const std::vector<QHostAddress> &addresses = c.via ? c.via->addresses : c.addresses;
    const quint16 port = c.via ? c.via->port : c.target.port;
    while (c.nextAddress < addresses.size()) {
        sockaddr_storage address{};
        socklen_t length = 0;
        if (!toSockaddr(addresses[c.nextAddress++], port, address, length))
            continue;
        UniqueFd fd(::socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
        if (!fd) {
            c.lastConnectError = errno;
            continue;
        }
        const int one = 1;
        ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (::connect(fd.get(), reinterpret_cast<sockaddr *>(&address), length) != 0 && errno != EINPROGRESS) {
            c.lastConnectError = errno;
            continue;
        }
        c.upstream = std::move(fd);
        c.upstreamMask = EPOLLOUT;
        if (!epollControl(EPOLL_CTL_ADD, c.upstream.get(), EPOLLOUT, tag(c.id, UpstreamTag)))
            return close(c);
        updateInterest(c);
        return;
    }
    const int error = c.lastConnectError ? c.lastConnectError : EHOSTUNREACH;
    const QString where =
        c.via ? QStringLiteral("the upstream proxy ") + c.via->authority() : qs(http::formatAuthority(c.target));
    refuse(c, Refusal::upstreamFailed(
                  502, socksReplyFor(error),
                  QStringLiteral("cannot connect to %1: %2").arg(where, QString::fromLocal8Bit(strerror(error)))));
}

void ProxyLoop::onUpstreamEvent(Connection &c, std::uint32_t events)
{
    Q_ASSERT(isLoopThread());
    if (c.phase == Phase::Connecting) {
        int error = 0;
        socklen_t length = sizeof error;
        ::getsockopt(c.upstream.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        if (error == 0 && !(events & (EPOLLERR | EPOLLHUP)))
            return c.via ? startProxyHandshake(c) : onUpstreamConnected(c);
        if (error == 0 && !(events & EPOLLOUT))
            return;
        c.lastConnectError = error ? error : ECONNREFUSED;
        c.upstream.reset();
        c.upstreamMask = 0;
        return tryNextAddress(c);
    }
    if (c.phase == Phase::ProxyHandshake)
        return onProxyHandshakeEvent(c, events);
    if (c.phase == Phase::HttpExchange && !c.responseHeadDone) {
        c.deadline = m_now + m_limits.idleTimeout;
        readResponseHead(c);
        return;
    }
    if (c.phase == Phase::Tunnel || c.phase == Phase::HttpExchange) {
        c.deadline = m_now + m_limits.idleTimeout;
        pumpFlows(c, 0, events);
        return;
    }
    if (events & (EPOLLERR | EPOLLHUP)) // the upstream left while the client is still being checked
        close(c);
}

void ProxyLoop::onUpstreamConnected(Connection &c)
{
    emitEvent(c, Kind::Allowed, c.allowRule, {});
    if (c.protocol == Protocol::Http)
        return startHttpExchange(c);
    // A tunnel to an inject domain of the endpoint's credentials is terminated, not spliced.
    if (startInterception(c))
        return;
    // A captured client believes it is connected already; the upstream speaks next.
    if (!c.captured)
        writeClient(c, c.protocol == Protocol::Socks ? socks5::reply(socks5::Reply::Succeeded)
                                                     : std::string("HTTP/1.1 200 Connection established\r\n\r\n"));
    // What the target said first, read with the upstream proxy's answer (an SSH banner).
    if (!c.early.empty()) {
        writeClient(c, c.early);
        std::string().swap(c.early);
    }
    const auto &ports = m_limits.sniCheckedPorts;
    if (std::find(ports.begin(), ports.end(), c.target.port) == ports.end())
        return startTunnel(c);
    c.phase = Phase::SniPeek;
    c.deadline = m_now + m_limits.headerTimeout;
    checkClientHello(c);
}

} // namespace paddock::proxy
