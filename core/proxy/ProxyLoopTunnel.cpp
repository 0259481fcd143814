// SPDX-License-Identifier: GPL-3.0-or-later
// CONNECT and SOCKS tunnels once the upstream answers: the ClientHello check, the relay both ways
// (an HTTP exchange uses it too), or handing an inject domain's tunnel to its interception thread.
#include "proxy/ProxyLoopInternal.h"

#include "proxy/ClientHello.h"

#include <sys/epoll.h>

#include <algorithm>

namespace paddock::proxy {

using namespace loop;

void ProxyLoop::checkClientHello(Connection &c)
{
    using Status = tls::ClientHelloInfo::Status;
    const tls::ClientHelloInfo hello = tls::parseClientHello(c.in);
    switch (hello.status) {
    case Status::Incomplete:
        if (c.in.size() >= tls::MaxClientHelloBytes)
            break;
        updateInterest(c);
        return;
    case Status::NotTls:
    case Status::NoSni:
        // Without a name there is nothing to compare; the target itself was allowed.
        return startTunnel(c);
    case Status::Sni: {
        if (hello.serverName == c.target.host)
            return startTunnel(c);
        const QString reason = QStringLiteral("SNI mismatch: the TLS server name is %1 but the tunnel goes to %2")
                                   .arg(qs(hello.serverName), qs(c.target.host));
        return refuse(c, Refusal::sni(reason));
    }
    case Status::Malformed:
        break;
    }
    refuse(c, Refusal::sni(QStringLiteral("malformed TLS ClientHello")));
}

void ProxyLoop::startTunnel(Connection &c)
{
    c.phase = Phase::Tunnel;
    c.deadline = m_now + m_limits.idleTimeout;
    c.up.attach(c.client.get(), c.upstream.get());
    c.down.attach(c.upstream.get(), c.client.get());
    c.up.queue(c.in);
    c.down.queue(std::string_view(c.out).substr(c.outSent));
    std::string().swap(c.in);
    std::string().swap(c.out);
    c.outSent = 0;
    pumpFlows(c);
}

inject::RequestCheck ProxyLoop::requestCheck(const Connection &c) const
{
    return [decider = currentDecider(), base = queryOf(c)](const std::string &method, const std::string &target) {
        ConnectionQuery query = base;
        query.method = QString::fromStdString(method);
        query.target = QString::fromStdString(target);
        // Ask holds connections, not requests inside one: unanswered here is refused.
        const Verdict verdict = consult(decider, query);
        if (verdict.allowed) // the reason and the fix are a refusal's
            return inject::RequestVerdict{true, verdict.rule.toStdString(), {}, {}};
        return inject::RequestVerdict{false, verdict.rule.toStdString(), verdict.reason.toStdString(),
                                      verdict.fix.toStdString()};
    };
}

bool ProxyLoop::startInterception(Connection &c)
{
    const std::shared_ptr<const Interception> interception = c.endpoint->interception;
    if (!interception || !interception->intercepts(c.target.host))
        return false;
    if (!c.in.empty()) { // TLS bytes sent before the tunnel was granted: no client does this
        refuse(c, Refusal::badRequest(QStringLiteral("data sent before the tunnel was established")));
        return true;
    }
    InterceptedSetup setup;
    setup.interception = interception;
    setup.client = c.client.get();
    setup.upstream = c.upstream.get();
    setup.host = c.target.host;
    setup.hostIsAddress = c.target.isIpLiteral;
    if (!c.captured)
        setup.greeting = c.protocol == Protocol::Socks ? socks5::reply(socks5::Reply::Succeeded)
                                                       : std::string("HTTP/1.1 200 Connection established\r\n\r\n");
    setup.limits = m_limits;
    setup.eventTemplate.sandbox = c.endpoint->identity.sandbox;
    setup.eventTemplate.kit = c.endpoint->identity.kit;
    setup.eventTemplate.host = qs(c.target.host);
    setup.eventTemplate.port = c.target.port;
    setup.eventTemplate.protocol = c.protocol;
    setup.eventTemplate.rule = c.allowRule;
    setup.eventTemplate.program = c.program;
    setup.report = [events = m_events.get()](ProxyEvent event) { events->post(std::move(event)); };
    setup.checkRequest = requestCheck(c);
    const quint64 id = c.id;
    setup.finished = [this, id] {
        post([this, id] {
            const auto it = m_connections.find(id);
            if (it != m_connections.end() && it->second->phase == Phase::Intercepted)
                close(*it->second);
        });
    };
    // The thread owns the sockets' I/O from now on: the loop stops watching them. Were one still
    // watched, the loop would read bytes that belong to the thread's TLS session.
    if (!setMask(c.client.get(), c.clientMask, 0, tag(c.id, ClientTag), true) ||
        !setMask(c.upstream.get(), c.upstreamMask, 0, tag(c.id, UpstreamTag), true)) {
        close(c);
        return true;
    }
    c.phase = Phase::Intercepted;
    c.deadline = Clock::time_point::max(); // the thread keeps its own timeouts
    c.interceptedWith = interception;
    c.interception = std::make_unique<InterceptedConnection>(std::move(setup));
    return true;
}

void ProxyLoop::pumpFlows(Connection &c, std::uint32_t clientEvents, std::uint32_t upstreamEvents)
{
    // Only the flows the events concern are pumped: asking a socket that did not wake the loop
    // would mostly cost a call that fails with EAGAIN. The sockets are watched level-triggered,
    // so a flow left alone here is woken on its own when its socket is ready.
    constexpr std::uint32_t Ended = EPOLLHUP | EPOLLERR | EPOLLRDHUP;
    const bool upReady = (clientEvents & (EPOLLIN | Ended)) || (upstreamEvents & (EPOLLOUT | Ended));
    const bool downReady = (upstreamEvents & (EPOLLIN | Ended)) || (clientEvents & (EPOLLOUT | Ended));
    const int pipeSize = m_limits.pipeSize;
    if ((upReady && !c.up.pump(pipeSize)) || (downReady && !c.down.pump(pipeSize)))
        return close(c);
    if (c.phase == Phase::Tunnel) {
        c.up.shutdownDestinationOnce();
        c.down.shutdownDestinationOnce();
        if (c.up.finished() && c.down.finished())
            return close(c);
    } else if (c.responseHeadDone && c.down.finished()) {
        return finishHttpExchange(c);
    }
    updateInterest(c);
}

} // namespace paddock::proxy
