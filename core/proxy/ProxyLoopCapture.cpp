// SPDX-License-Identifier: GPL-3.0-or-later
// Connections captured inside a sandbox (app/init/Capture.h): the client connected to its
// destination itself, and paddock-init says where that was. Decided like a CONNECT to the same
// place; nothing is sent to the client but what the upstream sends, and a refusal is answered in
// the port's own protocol where it can be, else with a reset.
#include "proxy/ProxyLoopInternal.h"

#include "proxy/CapturedRefusal.h"

#include <sys/socket.h>

#include <algorithm>

namespace paddock::proxy {

using namespace loop;

namespace {

/** "host:port", "[v6]:port": @p to as an authority the HTTP parser reads. */
std::string authorityText(const preamble::Destination &to)
{
    const bool v6 = to.host.find(':') != std::string::npos;
    return (v6 ? "[" + to.host + "]" : to.host) + ':' + std::to_string(to.port);
}

/** A name server's ports: DNS over TCP and over TLS. */
bool isNameServerPort(quint16 port)
{
    return port == 53 || port == 853;
}

} // namespace

bool ProxyLoop::takeDestination(Connection &c, const preamble::Destination &to)
{
    const std::optional<http::Authority> target = http::parseAuthority(authorityText(to), 0);
    if (to.transport != "tcp" || !target || target->port == 0)
        return false;
    c.captured = true;
    c.target = *target;
    c.protocol = isNameServerPort(target->port) ? Protocol::Dns : Protocol::Tcp;
    return true;
}

void ProxyLoop::recordReport(Connection &c, const preamble::Destination &to)
{
    // A name looked up is reported with port 0: the authority is read with a stand-in port.
    std::optional<http::Authority> target = http::parseAuthority(to.port ? authorityText(to) : to.host, 1);
    if (!target)
        return close(c);
    target->port = quint16(to.port);
    c.target = *target;
    QString reason;
    if (to.transport == "udp") {
        c.protocol = Protocol::Udp;
        reason = QStringLiteral("a UDP datagram to %1 was refused: only TCP leaves a sandbox, and DNS, which is "
                                "answered inside it (QUIC falls back to TCP)")
                     .arg(qs(http::formatAuthority(c.target)));
    } else if (to.port == 0) {
        c.protocol = Protocol::Dns;
        reason = QStringLiteral("%1 was looked up, but connections that do not use the proxy cannot be captured in "
                                "this sandbox (gVisor, or a kernel without nftables): only programs that use its "
                                "proxy (HTTPS_PROXY) get out")
                     .arg(qs(c.target.host));
    } else {
        c.protocol = Protocol::Dns;
        reason = QStringLiteral("the sandbox's resolver gave %1 no address: the sandbox looked up too many names at "
                                "once")
                     .arg(qs(c.target.host));
    }
    emitEvent(c, Kind::Denied, Refusal::CaptureRule, reason);
    close(c);
}

void ProxyLoop::startCaptured(Connection &c)
{
    c.deadline = m_now + m_limits.headerTimeout;
    const auto &http = m_limits.plainHttpPorts;
    if (std::find(http.begin(), http.end(), c.target.port) == http.end())
        return decide(c); // decided on the destination, as a CONNECT to it would be
    // Plain HTTP: each request is decided as it comes, with its method and path.
    c.phase = Phase::HttpHead;
    c.protocol = Protocol::Http;
    if (!c.in.empty())
        return processHttpHead(c);
    updateInterest(c);
}

void ProxyLoop::refuseCaptured(Connection &c, const Refusal &refusal, bool tunnelOpen)
{
    if (tunnelOpen) { // the client began TLS with the upstream: nothing but a reset reaches it
        const linger reset{1, 0};
        ::setsockopt(c.client.get(), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        return close(c);
    }
    c.pendingRefusal = refusal;
    // A client whose bytes came already, or that waits for the server, is answered now.
    if (!c.in.empty() || serverSpeaksFirst(c.target.port))
        return answerCapturedRefusal(c);
    c.phase = Phase::RefusalPeek;
    c.deadline = m_now + RefusalPeekTime;
    updateInterest(c);
}

void ProxyLoop::answerCapturedRefusal(Connection &c)
{
    const Refusal refusal = *c.pendingRefusal;
    QString message;
    if (refusal.kind == Kind::Denied && !refusal.fix.isEmpty())
        message = QStringLiteral("Paddock refused the connection to %1 from sandbox %2 (rule: %3): %4.")
                      .arg(qs(http::formatAuthority(c.target)), c.endpoint->identity.sandbox,
                           refusal.rule.isEmpty() ? QStringLiteral("default deny") : refusal.rule, refusal.reason);
    else
        message = QStringLiteral("Paddock: %1.").arg(refusal.reason);
    const CapturedAnswer answer =
        capturedRefusal(c.target.port, c.in, message.toStdString(), refusal.fix.toStdString());
    std::string().swap(c.in);
    if (answer.kind == CapturedAnswer::Kind::Continue) {
        writeClient(c, answer.bytes);
        c.phase = Phase::RefusalPeek;
        c.deadline = m_now + RefusalPeekTime;
        return updateInterest(c);
    }
    c.phase = Phase::Closing;
    switch (answer.kind) {
    case CapturedAnswer::Kind::Reset: {
        // Nothing the client's protocol would show: a reset, at once, as a refused connect gets.
        const linger reset{1, 0};
        ::setsockopt(c.client.get(), SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        return close(c);
    }
    case CapturedAnswer::Kind::Http:
        sendHttpError(c, refusal);
        break;
    case CapturedAnswer::Kind::Text:
    case CapturedAnswer::Kind::Continue:
        writeClient(c, answer.bytes);
        break;
    }
    c.deadline = m_now + DrainTime;
    if (c.outSent == c.out.size())
        beginClosing(c);
    else
        updateInterest(c);
}

} // namespace paddock::proxy
