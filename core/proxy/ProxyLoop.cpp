// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/ProxyLoop.h"

#include "proxy/ClientHello.h"

#include <QLoggingCategory>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <future>

Q_LOGGING_CATEGORY(lcProxy, "paddock.proxy")

namespace paddock::proxy {
namespace {

using Phase = Connection::Phase;
using Kind = ProxyEvent::Kind;

// epoll data: an id and what it names, in the two low bits.
enum Tag : quint64 { ClientTag = 0, UpstreamTag = 1, ListenerTag = 2, WakeTag = 3 };
quint64 tag(quint64 id, Tag kind)
{
    return id << 2 | kind;
}

constexpr std::chrono::milliseconds SweepInterval{100};
// After a last answer, what the client still sends is read and dropped for a moment, so the
// close does not turn into a reset that destroys the answer before the client reads it.
constexpr std::chrono::milliseconds DrainTime{2000};
constexpr std::size_t DrainLimit = 1024 * 1024;
constexpr std::size_t ReadChunk = 16 * 1024;
constexpr int AcceptBurst = 64;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

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

bool toSockaddr(const QHostAddress &address, quint16 port, sockaddr_storage &storage, socklen_t &length)
{
    std::memset(&storage, 0, sizeof storage);
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (isV4) {
        auto *in = reinterpret_cast<sockaddr_in *>(&storage);
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        in->sin_addr.s_addr = htonl(v4);
        length = sizeof(sockaddr_in);
        return true;
    }
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return false;
    auto *in6 = reinterpret_cast<sockaddr_in6 *>(&storage);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    const Q_IPV6ADDR bytes = address.toIPv6Address();
    std::memcpy(&in6->sin6_addr, bytes.c, 16);
    length = sizeof(sockaddr_in6);
    return true;
}

} // namespace

ProxyLoop::ProxyLoop(ProxyLimits limits) : m_limits(std::move(limits)) {}

ProxyLoop::~ProxyLoop()
{
    stop();
}

void ProxyLoop::setDecider(Decider decider)
{
    auto shared = std::make_shared<const Decider>(std::move(decider));
    const std::lock_guard lock(m_deciderMutex);
    m_decider = std::move(shared);
}

bool ProxyLoop::start(QString *error)
{
    if (m_running)
        return true;
    // Thousands of tunnels need thousands of descriptors; the hard limit is ours to use.
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
    m_epoll.reset(::epoll_create1(EPOLL_CLOEXEC));
    m_wakeFd.reset(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    m_reserveFd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!m_epoll || !m_wakeFd) {
        if (error)
            *error =
                QStringLiteral("cannot create the proxy event loop: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        stop();
        return false;
    }
    if (!epollControl(EPOLL_CTL_ADD, m_wakeFd.get(), EPOLLIN, tag(0, WakeTag))) {
        if (error)
            *error = QStringLiteral("cannot watch the proxy's wake-up descriptor: %1")
                         .arg(QString::fromLocal8Bit(strerror(errno)));
        stop();
        return false;
    }
    m_events = std::make_unique<EventDispatcher>(m_sink);
    m_resolver = std::make_unique<ResolverPool>(m_limits.resolverThreads, [this] { wake(); });
    m_stopRequested = false;
    m_running = true;
    m_thread = std::thread([this] { run(); });
    return true;
}

void ProxyLoop::stop()
{
    if (m_thread.joinable()) {
        m_stopRequested = true;
        wake();
        m_thread.join();
    }
    m_resolver.reset();
    m_events.reset(); // delivers what is queued
    m_epoll.reset();
    m_wakeFd.reset();
    m_reserveFd.reset();
    m_running = false;
}

void ProxyLoop::wake()
{
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = ::write(m_wakeFd.get(), &one, sizeof one);
}

void ProxyLoop::post(std::function<void()> command)
{
    {
        const std::lock_guard lock(m_commandMutex);
        m_commands.push_back(std::move(command));
    }
    wake();
}

void ProxyLoop::runCommands()
{
    Q_ASSERT(isLoopThread());
    std::vector<std::function<void()>> commands;
    {
        const std::lock_guard lock(m_commandMutex);
        commands.swap(m_commands);
    }
    for (auto &command : commands)
        command();
}

quint64 ProxyLoop::addEndpoint(UniqueFd fd, const QString &unixPath, const EndpointIdentity &identity)
{
    auto endpoint = std::make_shared<Endpoint>();
    endpoint->id = m_nextEndpointId++;
    endpoint->identity = identity;
    endpoint->fd = std::move(fd);
    endpoint->unixPath = unixPath;
    const quint64 id = endpoint->id;
    post([this, endpoint] {
        // A listener the loop cannot watch is closed, so clients are refused at once rather than
        // left waiting; the endpoint stays known so that removing it still cleans up.
        if (!epollControl(EPOLL_CTL_ADD, endpoint->fd.get(), EPOLLIN, tag(endpoint->id, ListenerTag))) {
            qCWarning(lcProxy) << "cannot listen for sandbox" << endpoint->identity.sandbox;
            endpoint->fd.reset();
        }
        m_endpoints.emplace(endpoint->id, endpoint);
    });
    return id;
}

bool ProxyLoop::removeEndpoint(quint64 id)
{
    if (!m_running || isLoopThread())
        return false;
    auto done = std::make_shared<std::promise<bool>>();
    std::future<bool> result = done->get_future();
    post([this, id, done] {
        const auto it = m_endpoints.find(id);
        if (it == m_endpoints.end()) {
            done->set_value(false);
            return;
        }
        const std::shared_ptr<Endpoint> endpoint = it->second;
        m_endpoints.erase(it);
        endpoint->fd.reset();
        if (!endpoint->unixPath.isEmpty())
            ::unlink(endpoint->unixPath.toLocal8Bit().constData());
        std::vector<Connection *> owned;
        for (auto &[connectionId, connection] : m_connections) {
            if (connection->endpoint == endpoint)
                owned.push_back(connection.get());
        }
        for (Connection *connection : owned)
            close(*connection);
        done->set_value(true);
    });
    return result.get();
}

bool ProxyLoop::setInterception(quint64 id, std::shared_ptr<const Interception> interception)
{
    if (!m_running || isLoopThread())
        return false;
    auto done = std::make_shared<std::promise<bool>>();
    std::future<bool> result = done->get_future();
    post([this, id, interception = std::move(interception), done] {
        const auto it = m_endpoints.find(id);
        if (it != m_endpoints.end())
            it->second->interception = interception; // tunnels already intercepted keep theirs
        done->set_value(it != m_endpoints.end());
    });
    return result.get();
}

void ProxyLoop::run()
{
    m_loopThread = std::this_thread::get_id();
    // A write to a socket whose peer left raises SIGPIPE on this thread; EPIPE is enough.
    sigset_t pipeSignal;
    sigemptyset(&pipeSignal);
    sigaddset(&pipeSignal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeSignal, nullptr);

    constexpr int MaxEvents = 256;
    epoll_event events[MaxEvents];
    m_now = Clock::now();
    m_nextSweep = m_now + SweepInterval;
    while (!m_stopRequested) {
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(m_nextSweep - Clock::now()).count();
        const int count = ::epoll_wait(m_epoll.get(), events, MaxEvents, int(std::clamp<long long>(wait, 0, 1000)));
        m_now = Clock::now();
        for (int i = 0; i < count; ++i) {
            const quint64 data = events[i].data.u64;
            const quint64 id = data >> 2;
            switch (Tag(data & 3)) {
            case WakeTag: {
                std::uint64_t value = 0;
                [[maybe_unused]] const ssize_t n = ::read(m_wakeFd.get(), &value, sizeof value);
                runCommands();
                collectResolutions();
                break;
            }
            case ListenerTag:
                if (const auto it = m_endpoints.find(id); it != m_endpoints.end())
                    accept(*it->second);
                break;
            case ClientTag:
                if (const auto it = m_connections.find(id); it != m_connections.end())
                    onClientEvent(*it->second, events[i].events);
                break;
            case UpstreamTag:
                if (const auto it = m_connections.find(id); it != m_connections.end())
                    onUpstreamEvent(*it->second, events[i].events);
                break;
            }
        }
        if (m_now >= m_nextSweep) {
            sweepDeadlines();
            m_nextSweep = m_now + SweepInterval;
        }
        destroyClosed();
    }

    runCommands();
    std::vector<Connection *> all;
    for (auto &[id, connection] : m_connections)
        all.push_back(connection.get());
    for (Connection *connection : all)
        close(*connection);
    destroyClosed();
    for (auto &[id, endpoint] : m_endpoints) {
        endpoint->fd.reset();
        if (!endpoint->unixPath.isEmpty())
            ::unlink(endpoint->unixPath.toLocal8Bit().constData());
    }
    m_endpoints.clear();
    m_loopThread = std::thread::id();
}

void ProxyLoop::sweepDeadlines()
{
    Q_ASSERT(isLoopThread());
    std::vector<Connection *> expired;
    for (auto &[id, connection] : m_connections) {
        if (connection->deadline <= m_now)
            expired.push_back(connection.get());
    }
    for (Connection *connection : expired) // a connection closed here stays alive until the batch ends
        onTimeout(*connection);
}

void ProxyLoop::accept(Endpoint &endpoint)
{
    Q_ASSERT(isLoopThread());
    for (int i = 0; i < AcceptBurst; ++i) {
        UniqueFd fd(::accept4(endpoint.fd.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (!fd) {
            if ((errno == EMFILE || errno == ENFILE) && m_reserveFd) {
                // Out of descriptors: take the waiting client and close it, rather than spin.
                m_reserveFd.reset();
                const UniqueFd dropped(::accept(endpoint.fd.get(), nullptr, nullptr)); // closed right here
                m_reserveFd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
                qCWarning(lcProxy) << "out of file descriptors; refused a connection for" << endpoint.identity.sandbox;
            }
            return;
        }
        if (endpoint.clients >= m_limits.maxClientsPerEndpoint)
            continue; // closed as fd goes
        auto connection = std::make_unique<Connection>();
        connection->id = m_nextConnectionId++;
        connection->endpoint = m_endpoints.at(endpoint.id);
        const int clientFd = fd.get();
        connection->client = std::move(fd);
        connection->deadline = m_now + m_limits.headerTimeout;
        ++endpoint.clients;
        ++m_connectionCount;
        Connection &c = *connection;
        m_connections.emplace(c.id, std::move(connection));
        c.clientMask = EPOLLIN;
        if (!epollControl(EPOLL_CTL_ADD, clientFd, EPOLLIN, tag(c.id, ClientTag)))
            close(c);
    }
}

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
        pumpFlows(c);
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
    default:
        break;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        const std::size_t limit =
            c.phase == Phase::SniPeek ? tls::MaxClientHelloBytes : m_limits.maxRequestHeaderBytes + 1;
        const ReadResult read = readClient(c, limit);
        if (read == ReadResult::Failed)
            return close(c);
        // A client may half-close right after its request; what it sent is still served.
        processInput(c);
        if (c.closed)
            return;
        if (read == ReadResult::Ended &&
            (c.phase == Phase::Greeting || c.phase == Phase::HttpHead || c.phase == Phase::SocksGreeting ||
             c.phase == Phase::SocksRequest || c.phase == Phase::SniPeek))
            return close(c);
    }
    updateInterest(c);
}

ProxyLoop::ReadResult ProxyLoop::readClient(Connection &c, std::size_t limit)
{
    while (c.in.size() < limit) {
        char buffer[ReadChunk];
        const ssize_t n = ::recv(c.client.get(), buffer, std::min(sizeof buffer, limit - c.in.size()), 0);
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

void ProxyLoop::processInput(Connection &c)
{
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
    c.request = http::ProxyRequest();
    const std::optional<http::RequestError> error = http::interpretRequest(head, c.request);
    c.protocol = c.request.kind == http::ProxyRequest::Kind::Connect ? Protocol::Connect : Protocol::Http;
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

void ProxyLoop::processSocksGreeting(Connection &c)
{
    socks5::Greeting greeting;
    switch (socks5::parseGreeting(c.in, greeting)) {
    case socks5::ParseStatus::Incomplete:
        return;
    case socks5::ParseStatus::Invalid:
        return close(c);
    case socks5::ParseStatus::Complete:
        break;
    }
    c.in.erase(0, greeting.size);
    if (!greeting.offersNoAuthentication) {
        writeClient(c, socks5::methodSelection(false));
        c.phase = Phase::Closing;
        return;
    }
    writeClient(c, socks5::methodSelection(true));
    c.phase = Phase::SocksRequest;
    processSocksRequest(c);
}

void ProxyLoop::processSocksRequest(Connection &c)
{
    socks5::Request request;
    switch (socks5::parseRequest(c.in, request)) {
    case socks5::ParseStatus::Incomplete:
        return;
    case socks5::ParseStatus::Invalid:
        return close(c);
    case socks5::ParseStatus::Complete:
        break;
    }
    c.in.erase(0, request.size);
    c.target = http::Authority{request.host, request.port, request.addressType != socks5::AddressDomain};
    using socks5::Reply;
    if (request.addressType != socks5::AddressIpv4 && request.addressType != socks5::AddressIpv6 &&
        request.addressType != socks5::AddressDomain) {
        const QString reason = QStringLiteral("SOCKS address type %1 is not supported").arg(request.addressType);
        return refuse(c, Refusal::badSocksRequest(Reply::AddressTypeNotSupported, reason));
    }
    if (request.command != socks5::CommandConnect) {
        const QString reason =
            QStringLiteral("SOCKS command %1 is not supported; only CONNECT is").arg(request.command);
        return refuse(c, Refusal::badSocksRequest(Reply::CommandNotSupported, reason));
    }
    if (request.addressType == socks5::AddressDomain) {
        // A domain carrying a port or brackets would let the name say something else.
        const auto parsed = request.host.find_first_of(":[]") == std::string::npos
                                ? http::parseAuthority(request.host, request.port)
                                : std::nullopt;
        if (!parsed)
            return refuse(c, Refusal::badSocksRequest(Reply::GeneralFailure, QStringLiteral("invalid host name")));
        c.target = *parsed;
    }
    decide(c);
}

Verdict ProxyLoop::ask(const Connection &c) const
{
    ConnectionQuery query;
    query.sandbox = c.endpoint->identity.sandbox;
    query.kit = c.endpoint->identity.kit;
    query.host = qs(c.target.host);
    query.port = c.target.port;
    query.protocol = c.protocol;
    query.addresses = c.addresses;
    std::shared_ptr<const Decider> decider;
    {
        const std::lock_guard lock(m_deciderMutex);
        decider = m_decider;
    }
    if (!decider || !*decider)
        return Verdict{false, QStringLiteral("default deny"), QStringLiteral("no policy is loaded"), {}};
    try {
        return (*decider)(query);
    } catch (...) {
        return Verdict{false, QStringLiteral("default deny"), QStringLiteral("the policy could not be evaluated"), {}};
    }
}

void ProxyLoop::decide(Connection &c)
{
    c.addresses.clear();
    if (c.target.isIpLiteral) {
        c.addresses.push_back(QHostAddress(qs(c.target.host)));
        return afterResolution(c);
    }
    // A name the policy refuses is never looked up: DNS itself would carry data out.
    const Verdict verdict = ask(c);
    if (!verdict.allowed)
        return refuse(c, Refusal::policy(verdict));
    if (auto mapped = m_overrides.lookup(c.target.host, c.target.port)) {
        c.addresses = std::move(*mapped);
        return afterResolution(c);
    }
    c.phase = Phase::Resolving;
    c.deadline = m_now + m_limits.connectTimeout;
    m_resolver->submit(c.id, c.target.host);
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
    if (!verdict.allowed)
        return refuse(c, Refusal::policy(verdict));
    c.allowRule = verdict.rule;
    if (c.endpoint->tunnels >= m_limits.maxTunnelsPerEndpoint)
        return refuse(c, Refusal::limit(503, QStringLiteral("sandbox %1 already has %2 connections open")
                                                 .arg(c.endpoint->identity.sandbox)
                                                 .arg(m_limits.maxTunnelsPerEndpoint)));
    connectUpstream(c);
}

void ProxyLoop::connectUpstream(Connection &c)
{
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
    while (c.nextAddress < c.addresses.size()) {
        sockaddr_storage address{};
        socklen_t length = 0;
        if (!toSockaddr(c.addresses[c.nextAddress++], c.target.port, address, length))
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
    refuse(c, Refusal::upstreamFailed(
                  502, socksReplyFor(error),
                  QStringLiteral("cannot connect to %1: %2")
                      .arg(qs(http::formatAuthority(c.target)), QString::fromLocal8Bit(strerror(error)))));
}

void ProxyLoop::onUpstreamEvent(Connection &c, std::uint32_t events)
{
    Q_ASSERT(isLoopThread());
    if (c.phase == Phase::Connecting) {
        int error = 0;
        socklen_t length = sizeof error;
        ::getsockopt(c.upstream.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        if (error == 0 && !(events & (EPOLLERR | EPOLLHUP)))
            return onUpstreamConnected(c);
        if (error == 0 && !(events & EPOLLOUT))
            return;
        c.lastConnectError = error ? error : ECONNREFUSED;
        c.upstream.reset();
        c.upstreamMask = 0;
        return tryNextAddress(c);
    }
    if (c.phase == Phase::HttpExchange && !c.responseHeadDone) {
        c.deadline = m_now + m_limits.idleTimeout;
        readResponseHead(c);
        return;
    }
    if (c.phase == Phase::Tunnel || c.phase == Phase::HttpExchange) {
        c.deadline = m_now + m_limits.idleTimeout;
        pumpFlows(c);
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
    writeClient(c, c.protocol == Protocol::Socks ? socks5::reply(socks5::Reply::Succeeded)
                                                 : std::string("HTTP/1.1 200 Connection established\r\n\r\n"));
    const auto &ports = m_limits.sniCheckedPorts;
    if (std::find(ports.begin(), ports.end(), c.target.port) == ports.end())
        return startTunnel(c);
    c.phase = Phase::SniPeek;
    c.deadline = m_now + m_limits.headerTimeout;
    checkClientHello(c);
}

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
    setup.greeting = c.protocol == Protocol::Socks ? socks5::reply(socks5::Reply::Succeeded)
                                                   : std::string("HTTP/1.1 200 Connection established\r\n\r\n");
    setup.limits = m_limits;
    setup.eventTemplate.sandbox = c.endpoint->identity.sandbox;
    setup.eventTemplate.kit = c.endpoint->identity.kit;
    setup.eventTemplate.host = qs(c.target.host);
    setup.eventTemplate.port = c.target.port;
    setup.eventTemplate.protocol = c.protocol;
    setup.eventTemplate.rule = c.allowRule;
    setup.report = [events = m_events.get()](ProxyEvent event) { events->post(std::move(event)); };
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
    c.interception = std::make_unique<InterceptedConnection>(std::move(setup));
    return true;
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

void ProxyLoop::startHttpExchange(Connection &c)
{
    c.phase = Phase::HttpExchange;
    c.deadline = m_now + m_limits.idleTimeout;
    c.up.attach(c.client.get(), c.upstream.get());
    c.down.attach(c.upstream.get(), c.client.get());
    const std::size_t body = std::size_t(std::min<std::uint64_t>(c.in.size(), c.request.contentLength));
    c.up.queue(c.request.upstreamHead);
    c.up.queue(std::string_view(c.in).substr(0, body));
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
        const http::ResponseRewrite rewrite = http::rewriteResponseHead(head, c.request);
        c.down.queue(rewrite.head);
        c.responseHead.erase(0, head.size);
        if (head.status >= 100 && head.status < 200 && head.status != 101)
            continue; // an interim answer (100 Continue); the final one follows
        c.keepClientAlive = rewrite.keepAlive;
        c.responseHeadDone = true;
        c.down.queue(c.responseHead);
        std::string().swap(c.responseHead);
        c.down.pause(false);
        if (head.status == 101)
            c.up.limit(std::numeric_limits<std::uint64_t>::max());
    }
    pumpFlows(c);
}

void ProxyLoop::pumpFlows(Connection &c)
{
    const int pipeSize = m_limits.pipeSize;
    if (!c.up.pump(pipeSize) || !c.down.pump(pipeSize))
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

void ProxyLoop::finishHttpExchange(Connection &c)
{
    // The response ended with the upstream connection. The client connection carries the next
    // request only if the response told it where the body ends and the request body was read.
    if (!c.keepClientAlive || !c.up.finished())
        return close(c);
    emitEvent(c, Kind::Closed, c.allowRule, {});
    releaseUpstream(c);
    c.phase = Phase::HttpHead;
    c.deadline = m_now + m_limits.idleTimeout;
    c.responseHeadDone = false;
    if (!c.in.empty())
        processInput(c);
    updateInterest(c);
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
    case Phase::Resolving:
    case Phase::Connecting:
        return refuse(c, Refusal::upstreamFailed(504, socks5::Reply::HostUnreachable,
                                                 QStringLiteral("%1 did not answer within %2 ms")
                                                     .arg(qs(http::formatAuthority(c.target)))
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
    emitEvent(c, refusal.kind, refusal.rule, refusal.reason);
    releaseUpstream(c);
    const bool tunnelOpen = c.phase == Phase::SniPeek; // the client was already told "connected"
    // The answer goes out through the plain output buffer, in one write, once nothing else can.
    c.phase = Phase::Closing;
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

void ProxyLoop::updateInterest(Connection &c)
{
    Q_ASSERT(isLoopThread());
    constexpr std::uint32_t In = EPOLLIN;
    constexpr std::uint32_t Out = EPOLLOUT;
    std::uint32_t client = 0;
    std::uint32_t upstream = 0;
    const bool outPending = c.outSent < c.out.size();
    if (c.closed || c.phase == Phase::Intercepted)
        return; // nothing to watch, or its thread waits on the sockets
    switch (c.phase) {
    case Phase::Tunnel:
    case Phase::HttpExchange:
        client = (c.up.wantsRead() ? In : 0u) | (c.down.wantsWrite() ? Out : 0u);
        upstream = (c.down.wantsRead() || (c.phase == Phase::HttpExchange && !c.responseHeadDone) ? In : 0u) |
                   (c.up.wantsWrite() ? Out : 0u);
        break;
    case Phase::Closing:
        client = c.draining ? In : Out;
        break;
    case Phase::Connecting:
        upstream = Out;
        client = outPending ? Out : 0u;
        break;
    case Phase::Resolving:
        client = outPending ? Out : 0u;
        break;
    default: // reading from the client
        client = In | (outPending ? Out : 0u);
        break;
    }
    // While relaying, a socket nobody waits on leaves the epoll set: a peer's hang-up is reported
    // whatever the mask, and would otherwise wake the loop again and again until the other
    // side drains. It comes back when a flow needs it.
    const bool relaying = c.phase == Phase::Tunnel || c.phase == Phase::HttpExchange;
    if (!setMask(c.client.get(), c.clientMask, client, tag(c.id, ClientTag), relaying) ||
        (c.upstream && !setMask(c.upstream.get(), c.upstreamMask, upstream, tag(c.id, UpstreamTag), relaying)))
        close(c);
}

bool ProxyLoop::setMask(int fd, std::uint32_t &current, std::uint32_t wanted, quint64 data, bool detachWhenIdle)
{
    Q_ASSERT(isLoopThread());
    if (current == wanted)
        return true;
    if (wanted == 0 && detachWhenIdle) {
        const bool detached = current == Connection::Detached || epollControl(EPOLL_CTL_DEL, fd, 0, data);
        current = Connection::Detached;
        return detached;
    }
    const int operation = current == Connection::Detached ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
    current = wanted;
    return epollControl(operation, fd, wanted, data);
}

bool ProxyLoop::epollControl(int operation, int fd, std::uint32_t events, quint64 data)
{
    epoll_event event{};
    event.events = events;
    event.data.u64 = data;
    if (::epoll_ctl(m_epoll.get(), operation, fd, &event) == 0)
        return true;
    const int error = errno;
    const char *name = operation == EPOLL_CTL_ADD ? "add" : operation == EPOLL_CTL_MOD ? "modify" : "remove";
    qCWarning(lcProxy).nospace() << "epoll_ctl (" << name << ") failed for descriptor " << fd << ": "
                                 << strerror(error);
    errno = error;
    return false;
}

void ProxyLoop::releaseUpstream(Connection &c)
{
    c.upstream.reset(); // also leaves the epoll set
    c.upstreamMask = 0;
    if (c.holdsTunnel)
        --c.endpoint->tunnels;
    c.holdsTunnel = false;
    c.up.reset();
    c.down.reset();
}

void ProxyLoop::close(Connection &c)
{
    Q_ASSERT(isLoopThread());
    if (c.closed)
        return;
    c.closed = true;
    if (c.phase == Phase::Tunnel || c.phase == Phase::HttpExchange)
        emitEvent(c, Kind::Closed, c.allowRule, {});
    if (c.interception) {
        // Joined before the sockets it uses are closed; its byte counts go into the event.
        c.interception->stop();
        ProxyEvent event;
        event.time = QDateTime::currentDateTimeUtc();
        event.sandbox = c.endpoint->identity.sandbox;
        event.kit = c.endpoint->identity.kit;
        event.host = qs(c.target.host);
        event.port = c.target.port;
        event.protocol = c.protocol;
        event.kind = Kind::Closed;
        event.rule = c.allowRule;
        event.bytesUp = c.interception->bytesUp();
        event.bytesDown = c.interception->bytesDown();
        m_events->post(std::move(event));
        c.interception.reset();
    }
    releaseUpstream(c);
    c.client.reset();
    --c.endpoint->clients;
    --m_connectionCount;
    // A handler up the stack may still hold c: it is destroyed once the event batch is handled,
    // and no event reaches it meanwhile since it is no longer found by id.
    const auto it = m_connections.find(c.id);
    m_closed.push_back(std::move(it->second));
    m_connections.erase(it);
}

void ProxyLoop::destroyClosed()
{
    Q_ASSERT(isLoopThread());
    m_closed.clear();
}

void ProxyLoop::emitEvent(const Connection &c, ProxyEvent::Kind kind, const QString &rule, const QString &reason)
{
    Q_ASSERT(isLoopThread());
    ProxyEvent event;
    event.time = QDateTime::currentDateTimeUtc();
    event.sandbox = c.endpoint->identity.sandbox;
    event.kit = c.endpoint->identity.kit;
    event.host = qs(c.target.host);
    event.port = c.target.port;
    event.protocol = c.protocol;
    event.kind = kind;
    event.rule = rule;
    event.reason = reason;
    event.bytesUp = c.up.bytes();
    event.bytesDown = c.down.bytes();
    m_events->post(std::move(event));
}

} // namespace paddock::proxy
