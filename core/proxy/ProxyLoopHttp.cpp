// SPDX-License-Identifier: GPL-3.0-or-later
// Plain HTTP through the proxy: a request head, one exchange with the upstream, and the next
// request on a kept-alive client connection.
#include "proxy/ProxyLoopInternal.h"

#include "common/RequestTarget.h"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <limits>

namespace paddock::proxy {

using namespace loop;

void ProxyLoop::processHttpHead(Connection &c)
{
    http::RequestHead head;
    switch (http::parseRequestHead(c.in, m_limits.maxRequestHeaderBytes, head)) {
    case http::ParseStatus::Incomplete:
        return;
    case http::ParseStatus::TooLarge: {
        const QString reason =
            QStringLiteral("the request head is larger than %1 bytes").arg(m_limits.maxRequestHeaderBytes);
        return refuse(c, Refusal::limit(431, reason));
    }
    case http::ParseStatus::Invalid:
        return refuse(c, Refusal::badRequest(QStringLiteral("malformed request head")));
    case http::ParseStatus::Complete:
        break;
    }
    if (c.captured) {
        // The client connected to the server itself, and asks for a path on it.
        if (head.target.empty() || head.target.front() != '/')
            return refuse(c, Refusal::badRequest(QStringLiteral("a request to port 80 must ask for a path")));
        head.target = "http://" + http::formatAuthority(c.target) + head.target;
    }
    c.request = http::ProxyRequest();
    const std::optional<http::RequestError> error = http::interpretRequest(head, c.request);
    c.protocol = c.request.kind == http::ProxyRequest::Kind::Connect ? Protocol::Connect : Protocol::Http;
    c.recordPending = c.protocol == Protocol::Http && head.method != "CONNECT";
    c.requestStarted = m_now;
    c.responseStatus = 0;
    if (error) {
        // Name the host in the event when the target says one, even if the request is refused.
        std::string_view authority = head.target;
        if (const std::size_t scheme = authority.find("//"); scheme != std::string_view::npos)
            authority = authority.substr(scheme + 2);
        if (const auto target = http::parseAuthority(authority.substr(0, authority.find_first_of("/?#")), 80))
            c.target = *target;
        return refuse(c, Refusal::badRequest(qs(error->reason), error->status));
    }
    c.in.erase(0, head.size);
    c.target = c.request.target;
    decide(c);
}

void ProxyLoop::startHttpExchange(Connection &c)
{
    c.phase = Phase::HttpExchange;
    c.deadline = m_now + m_limits.idleTimeout;
    c.up.attach(c.client.get(), c.upstream.get());
    c.down.attach(c.upstream.get(), c.client.get());
    const std::size_t body = std::size_t(std::min<std::uint64_t>(c.in.size(), c.request.contentLength));
    c.up.queue(c.request.upstreamHead);
    c.up.queue(std::string_view(c.in).substr(0, body));
    c.queuedUp = c.request.upstreamHead.size() + body;
    c.queuedDown = 0;
    c.in.erase(0, body);
    c.up.limit(c.request.contentLength - body);
    std::string().swap(c.request.upstreamHead);
    c.down.pause(true);
    c.responseHead.clear();
    c.responseHeadDone = false;
    pumpFlows(c);
}

void ProxyLoop::readResponseHead(Connection &c)
{
    const std::size_t limit = m_limits.maxResponseHeaderBytes + 1;
    bool ended = false;
    while (c.responseHead.size() < limit) {
        char buffer[ReadChunk];
        const ssize_t n = ::recv(c.upstream.get(), buffer, std::min(sizeof buffer, limit - c.responseHead.size()), 0);
        if (n > 0) {
            c.responseHead.append(buffer, std::size_t(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        ended = true;
        break;
    }
    while (!c.responseHeadDone) {
        http::ResponseHead head;
        const http::ParseStatus status = http::parseResponseHead(c.responseHead, m_limits.maxResponseHeaderBytes, head);
        if (status == http::ParseStatus::Incomplete && !ended)
            break;
        if (status != http::ParseStatus::Complete) {
            const QString reason = status == http::ParseStatus::Incomplete
                                       ? QStringLiteral("the upstream closed the connection without a response")
                                       : QStringLiteral("the upstream sent an invalid response head");
            if (c.down.bytes() == 0 && c.down.drained() && !c.keepClientAlive)
                return refuse(c, Refusal::upstreamFailed(502, socks5::Reply::GeneralFailure, reason));
            emitEvent(c, Kind::UpstreamFailed, {}, reason);
            return close(c);
        }
        // Only a proxy answers 407: the corporate proxy refused the request, not the server.
        if (head.status == 407 && c.via && c.down.bytes() == 0 && c.down.drained())
            return refuse(
                c,
                Refusal::upstreamFailed(
                    502, socks5::Reply::NotAllowedByRuleset,
                    QStringLiteral("the upstream proxy %1 refused: 407 %2").arg(c.via->authority(), qs(head.reason))));
        const http::ResponseRewrite rewrite = http::rewriteResponseHead(head, c.request);
        c.down.queue(rewrite.head);
        c.queuedDown += rewrite.head.size();
        c.responseHead.erase(0, head.size);
        if (head.status >= 100 && head.status < 200 && head.status != 101)
            continue; // an interim answer (100 Continue); the final one follows
        c.keepClientAlive = rewrite.keepAlive;
        c.responseHeadDone = true;
        c.responseStatus = head.status;
        c.down.queue(c.responseHead);
        c.queuedDown += c.responseHead.size();
        std::string().swap(c.responseHead);
        c.down.pause(false);
        if (head.status == 101)
            c.up.limit(std::numeric_limits<std::uint64_t>::max());
    }
    pumpFlows(c);
}

void ProxyLoop::finishHttpExchange(Connection &c)
{
    // The response ended with the upstream connection. The client connection carries the next
    // request only if the response told it where the body ends and the request body was read.
    if (!c.keepClientAlive || !c.up.finished())
        return close(c);
    recordRequest(c, c.responseStatus, c.allowRule, false, {});
    emitEvent(c, Kind::Closed, c.allowRule, {});
    releaseUpstream(c);
    c.phase = Phase::HttpHead;
    c.deadline = m_now + m_limits.idleTimeout;
    c.responseHeadDone = false;
    if (!c.in.empty())
        processInput(c);
    updateInterest(c);
}

void ProxyLoop::recordRequest(Connection &c, int status, const QString &rule, bool refused, const QString &reason)
{
    if (!c.recordPending)
        return;
    c.recordPending = false;
    ProxyEvent event = eventOf(c, Kind::Request, rule, reason);
    event.method = qs(c.request.method);
    event.path = redactedTarget(c.request.path);
    event.status = status;
    event.refused = refused;
    event.duration = std::chrono::duration_cast<std::chrono::milliseconds>(m_now - c.requestStarted);
    event.bytesUp = refused ? 0 : event.bytesUp + c.queuedUp; // refused: nothing went upstream
    event.bytesDown = refused ? 0 : event.bytesDown + c.queuedDown;
    c.queuedUp = c.queuedDown = 0;
    postEvent(std::move(event));
}

} // namespace paddock::proxy
