// SPDX-License-Identifier: GPL-3.0-or-later
// The client side of a connection: reading what it sends until a protocol takes over, answers
// outside the relay, refusals, and what happens when a deadline passes.
#include "proxy/ProxyLoopInternal.h"

#include "proxy/ClientHello.h"
#include "proxy/Socks5.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace paddock::proxy {

using namespace loop;

void ProxyLoop::onClientEvent(Connection &c, std::uint32_t events)
{
    Q_ASSERT(isLoopThread());
    if ((events & EPOLLOUT) && c.outSent < c.out.size() && !flushOut(c))
        return close(c);
    if (c.closed) // the last answer went out, and epoll would not watch for the rest
        return;
    switch (c.phase) {
    case Phase::Tunnel:
    case Phase::HttpExchange:
        if (events & EPOLLERR)
            return close(c);
        c.deadline = m_now + m_limits.idleTimeout;
        pumpFlows(c, events, 0);
        return;
    case Phase::Closing:
        if (c.draining && (events & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
            char sink[ReadChunk];
            const ssize_t n = ::recv(c.client.get(), sink, sizeof sink, 0);
            c.drained += n > 0 ? std::size_t(n) : 0;
            if (n == 0 || (n < 0 && errno != EAGAIN) || c.drained > DrainLimit)
                return close(c);
        }
        if (!c.draining && c.outSent == c.out.size())
            beginClosing(c);
        return;
    case Phase::Resolving:
    case Phase::Connecting:
        if (events & (EPOLLHUP | EPOLLERR))
            return close(c); // the client gave up
        updateInterest(c);
        return;
    case Phase::Held:
        if (events & (EPOLLHUP | EPOLLERR | EPOLLRDHUP))
            return close(c); // the client gave up waiting
        updateInterest(c);
        return;
    case Phase::RefusalPeek:
        // Its first bytes (or its end) came: they say in which protocol to tell it.
        if (readClient(c, 4096) == ReadResult::Failed)
            return close(c);
        return answerCapturedRefusal(c);
    default:
        break;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        const std::size_t limit =
            c.phase == Phase::SniPeek ? tls::MaxClientHelloBytes : m_limits.maxRequestHeaderBytes + 1;
        const int readFrom = c.client.get();
        const ReadResult read = readClient(c, limit);
        if (read == ReadResult::Failed)
            return close(c);
        // A client may half-close right after its request; what it sent is still served.
        processInput(c);
        if (c.closed)
            return;
        // The end of paddock-init's connection once it handed the client's own socket over is not the client's.
        if (read == ReadResult::Ended && c.client.get() == readFrom &&
            (c.phase == Phase::Greeting || c.phase == Phase::HttpHead || c.phase == Phase::SocksGreeting ||
             c.phase == Phase::SocksRequest || c.phase == Phase::SniPeek))
            return close(c);
    }
    updateInterest(c);
}

ProxyLoop::ReadResult ProxyLoop::readClient(Connection &c, std::size_t limit)
{
    const bool mayPassSocket = !c.preambleDone && !c.endpoint->unixPath.isEmpty();
    while (c.in.size() < limit) {
        char buffer[ReadChunk];
        const std::size_t wanted = std::min(sizeof buffer, limit - c.in.size());
        const ssize_t n =
            mayPassSocket ? receiveFromUnixClient(c, buffer, wanted) : ::recv(c.client.get(), buffer, wanted, 0);
        if (n > 0) {
            c.in.append(buffer, std::size_t(n));
            continue;
        }
        if (n == 0)
            return ReadResult::Ended;
        return errno == EAGAIN || errno == EWOULDBLOCK ? ReadResult::Open : ReadResult::Failed;
    }
    return ReadResult::Open;
}

ssize_t ProxyLoop::receiveFromUnixClient(Connection &c, char *buffer, std::size_t size)
{
    iovec data{buffer, size};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)];
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(c.client.get(), &message, MSG_CMSG_CLOEXEC);
    if (n < 0)
        return n;
    for (cmsghdr *part = CMSG_FIRSTHDR(&message); part; part = CMSG_NXTHDR(&message, part)) {
        if (part->cmsg_level != SOL_SOCKET || part->cmsg_type != SCM_RIGHTS)
            continue;
        const std::size_t count = (part->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int fd = -1;
            std::memcpy(&fd, CMSG_DATA(part) + i * sizeof(int), sizeof fd);
            if (!c.handedOver)
                c.handedOver.reset(fd);
            else
                ::close(fd); // one socket per connection; a second is nobody's
        }
    }
    return n;
}

bool ProxyLoop::readPreamble(Connection &c)
{
    ClientProgram program;
    std::size_t consumed = 0;
    preamble::Delivery delivery = preamble::Delivery::Relayed;
    preamble::Destination to;
    switch (preamble::parse(c.in, &program, &consumed, &delivery, &to)) {
    case preamble::Parse::NotPreamble:
        if (c.handedOver) { // a socket passed without the line that says so
            close(c);
            return false;
        }
        c.preambleDone = true;
        return true;
    case preamble::Parse::NeedMore:
        return false;
    case preamble::Parse::Malformed:
        close(c);
        return false;
    case preamble::Parse::Done:
        break;
    }
    c.in.erase(0, consumed);
    c.preambleDone = true;
    // Anyone in the sandbox can connect to the socket and write such a line: only the one from
    // paddock-init, known by the kernel's peer credentials, is believed.
    const bool trusted = c.peerPid > 0 && c.peerPid == c.endpoint->trustedClient;
    if (delivery == preamble::Delivery::Report) {
        // Nothing comes with a report. It asks for nothing: anyone inside could cause the same
        // entry by trying the connection (and under gVisor paddock-init is no peer the kernel
        // names), so it is recorded from anyone, its program only from paddock-init.
        if (!c.in.empty() || c.handedOver) {
            close(c);
            return false;
        }
        if (trusted)
            c.program = classified(c, std::move(program));
        recordReport(c, to);
        return false;
    }
    // The line says whether the client's socket came with it, and then nothing may follow it.
    const bool attached = delivery == preamble::Delivery::Attached;
    if (attached != bool(c.handedOver) || (attached && (!c.in.empty() || !takeHandedOverSocket(c)))) {
        close(c);
        return false;
    }
    if (trusted)
        c.program = classified(c, std::move(program));
    // Where a captured connection goes asks for no more than a CONNECT does: believed from anyone.
    if (!to.empty() && !takeDestination(c, to)) {
        close(c);
        return false;
    }
    return true;
}

ClientProgram ProxyLoop::classified(const Connection &c, ClientProgram program) const
{
    std::shared_ptr<const ProgramClassifier> classifier;
    {
        const std::lock_guard lock(m_deciderMutex);
        classifier = m_classifier;
    }
    if (classifier && *classifier)
        (*classifier)(c.endpoint->identity, program);
    return program;
}

bool ProxyLoop::takeHandedOverSocket(Connection &c)
{
    // A connected TCP stream inside the sandbox is all a relay passes. Whatever else a process
    // inside might pass (a file, a listening socket) is refused; a socket it passes is its own,
    // so serving it gives it nothing it could not do by writing to the proxy itself.
    const int fd = c.handedOver.get();
    struct stat status = {};
    int type = 0;
    int domain = 0;
    int listening = 1;
    socklen_t length = sizeof(int);
    if (::fstat(fd, &status) != 0 || !S_ISSOCK(status.st_mode) ||
        ::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM ||
        ::getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) != 0 || (domain != AF_INET && domain != AF_INET6) ||
        ::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) != 0 || listening != 0)
        return false;
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
        return false;
    epollControl(EPOLL_CTL_DEL, c.client.get(), 0, 0);
    c.client = std::move(c.handedOver);
    c.clientMask = EPOLLIN;
    return epollControl(EPOLL_CTL_ADD, c.client.get(), EPOLLIN, tag(c.id, ClientTag));
}

void ProxyLoop::processInput(Connection &c)
{
    if (!c.preambleDone) {
        if (c.in.empty() || !readPreamble(c))
            return;
        // A captured client may wait for the server to speak first (SSH): it is decided now.
        if (c.captured)
            return startCaptured(c);
        if (c.in.empty())
            return;
    }
    if (c.phase == Phase::Greeting && !c.in.empty()) {
        c.phase = std::uint8_t(c.in[0]) == socks5::Version ? Phase::SocksGreeting : Phase::HttpHead;
        c.protocol = c.phase == Phase::SocksGreeting ? Protocol::Socks : Protocol::Http;
    }
    switch (c.phase) {
    case Phase::HttpHead:
        return processHttpHead(c);
    case Phase::SocksGreeting:
        return processSocksGreeting(c);
    case Phase::SocksRequest:
        return processSocksRequest(c);
    case Phase::SniPeek:
        return checkClientHello(c);
    default:
        return;
    }
}

void ProxyLoop::onTimeout(Connection &c)
{
    switch (c.phase) {
    case Phase::Greeting:
    case Phase::HttpHead:
        if (c.in.empty())
            return close(c); // an idle keep-alive connection, or a client that never spoke
        return refuse(c, Refusal::limit(408, QStringLiteral("the request head did not arrive in time")));
    case Phase::SocksGreeting:
    case Phase::SocksRequest:
        return close(c);
    case Phase::Held:
        return holdExpired(c);
    case Phase::RefusalPeek:
        return answerCapturedRefusal(c);
    case Phase::Resolving:
    case Phase::Connecting:
        return refuse(c, Refusal::upstreamFailed(504, socks5::Reply::HostUnreachable,
                                                 QStringLiteral("%1 did not answer within %2 ms")
                                                     .arg(qs(http::formatAuthority(c.target)))
                                                     .arg(m_limits.connectTimeout.count())));
    case Phase::ProxyHandshake:
        return refuse(c, Refusal::upstreamFailed(504, socks5::Reply::HostUnreachable,
                                                 QStringLiteral("the upstream proxy %1 did not open a tunnel to %2 "
                                                                "within %3 ms")
                                                     .arg(c.via->authority(), qs(http::formatAuthority(c.target)))
                                                     .arg(m_limits.connectTimeout.count())));
    case Phase::SniPeek:
        // The client sent nothing: a protocol where the server speaks first. Not TLS, so relay.
        if (c.in.empty())
            return startTunnel(c);
        return refuse(c, Refusal::sni(QStringLiteral("incomplete TLS ClientHello")));
    case Phase::Tunnel:
    case Phase::HttpExchange:
    case Phase::Closing:
    case Phase::Intercepted:
        return close(c);
    }
}

void ProxyLoop::refuse(Connection &c, const Refusal &refusal)
{
    Q_ASSERT(isLoopThread());
    endHold(c);
    emitEvent(c, refusal.kind, refusal.rule, refusal.reason);
    recordRequest(c, refusal.status, refusal.rule, refusal.kind == Kind::Denied, refusal.reason);
    releaseUpstream(c);
    const bool tunnelOpen = c.phase == Phase::SniPeek; // the client was already told "connected"
    // The answer goes out through the plain output buffer, in one write, once nothing else can.
    c.phase = Phase::Closing;
    if (c.captured && c.protocol != Protocol::Http)
        return refuseCaptured(c, refusal, tunnelOpen);
    if (c.protocol == Protocol::Socks) {
        if (!tunnelOpen)
            writeClient(c, socks5::reply(refusal.socksReply));
    } else if (refusal.status != 0 && !tunnelOpen) {
        sendHttpError(c, refusal);
    }
    c.deadline = m_now + DrainTime;
    if (c.outSent == c.out.size())
        beginClosing(c);
    else
        updateInterest(c);
}

void ProxyLoop::sendHttpError(Connection &c, const Refusal &refusal)
{
    const int status = refusal.status;
    const QString &rule = refusal.rule;
    const QString &reason = refusal.reason;
    QString body;
    if (status == 403) {
        body = QStringLiteral("Paddock refused the connection to %1 from sandbox %2.\n")
                   .arg(qs(http::formatAuthority(c.target)), c.endpoint->identity.sandbox);
        body += QStringLiteral("Rule: %1\nReason: %2\n")
                    .arg(rule.isEmpty() ? QStringLiteral("default deny") : rule, reason);
        if (!refusal.fix.isEmpty())
            body += QStringLiteral("To allow it: %1\n").arg(refusal.fix);
    } else {
        body = QStringLiteral("Paddock proxy: %1\n").arg(reason);
    }
    const QByteArray bodyBytes = body.toUtf8();
    std::string head = "HTTP/1.1 " + std::to_string(status) + " " + std::string(http::statusText(status)) + "\r\n";
    head += "X-Paddock-Reason: " + http::headerSafe(reason.toStdString()) + "\r\n";
    if (!rule.isEmpty())
        head += "X-Paddock-Rule: " + http::headerSafe(rule.toStdString()) + "\r\n";
    head += "Content-Type: text/plain; charset=utf-8\r\nContent-Length: " + std::to_string(bodyBytes.size()) +
            "\r\nConnection: close\r\n\r\n";
    head.append(bodyBytes.constData(), std::size_t(bodyBytes.size()));
    writeClient(c, head);
}

void ProxyLoop::writeClient(Connection &c, std::string_view bytes)
{
    if (c.phase == Phase::Tunnel || c.phase == Phase::HttpExchange) {
        c.down.queue(bytes);
        return;
    }
    if (c.outSent == c.out.size()) {
        c.out.clear();
        c.outSent = 0;
    }
    c.out.append(bytes);
    flushOut(c);
}

bool ProxyLoop::flushOut(Connection &c)
{
    while (c.outSent < c.out.size()) {
        const ssize_t n = ::send(c.client.get(), c.out.data() + c.outSent, c.out.size() - c.outSent, MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK;
        c.outSent += std::size_t(n);
    }
    if (c.phase == Phase::Closing && !c.draining)
        beginClosing(c);
    return true;
}

void ProxyLoop::beginClosing(Connection &c)
{
    if (c.draining)
        return;
    c.draining = true;
    ::shutdown(c.client.get(), SHUT_WR);
    std::string().swap(c.in);
    updateInterest(c);
}

} // namespace paddock::proxy
