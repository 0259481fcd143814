// SPDX-License-Identifier: GPL-3.0-or-later
// The loop itself: its thread, commands from other threads, accepting clients, the epoll
// set, and closing connections (endpoints and what they allow: ProxyLoopEndpoints.cpp).
#include "proxy/ProxyLoopInternal.h"

#include <fcntl.h>
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

using namespace loop;

namespace {

constexpr std::chrono::milliseconds SweepInterval{100};
constexpr int AcceptBurst = 64;

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

void ProxyLoop::setUpstreamProxy(std::shared_ptr<const UpstreamProxy> proxy)
{
    const std::lock_guard lock(m_deciderMutex);
    m_upstreamProxy = std::move(proxy);
}

void ProxyLoop::setProgramClassifier(ProgramClassifier classifier)
{
    auto shared = std::make_shared<const ProgramClassifier>(std::move(classifier));
    const std::lock_guard lock(m_deciderMutex);
    m_classifier = std::move(shared);
}

Result<void> ProxyLoop::start()
{
    if (m_running)
        return {};
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
        const QString why = QString::fromLocal8Bit(strerror(errno));
        stop();
        return fail(QStringLiteral("cannot create the proxy event loop: %1").arg(why));
    }
    if (!epollControl(EPOLL_CTL_ADD, m_wakeFd.get(), EPOLLIN, tag(0, WakeTag))) {
        const QString why = QString::fromLocal8Bit(strerror(errno));
        stop();
        return fail(QStringLiteral("cannot watch the proxy's wake-up descriptor: %1").arg(why));
    }
    m_events = std::make_unique<EventDispatcher>(m_sink);
    m_resolver = std::make_unique<ResolverPool>(
        ResolverPool::Limits{m_limits.resolverThreads, m_limits.lookupsPerEndpoint, m_limits.queuedLookupsPerEndpoint},
        [this] { wake(); });
    m_stopRequested = false;
    m_running = true;
    m_thread = std::thread([this] { run(); });
    return {};
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

bool ProxyLoop::drainEvents(std::chrono::milliseconds timeout)
{
    if (!m_running || isLoopThread())
        return false;
    // A command runs between turns: once it has, the events of every turn before it are posted.
    auto turnEnded = std::make_shared<std::promise<void>>();
    std::future<void> ended = turnEnded->get_future();
    post([turnEnded] { turnEnded->set_value(); });
    if (ended.wait_for(timeout) != std::future_status::ready)
        return false;
    return m_events->drain(timeout);
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
        m_events->post(m_turnEvents);
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
    m_events->post(m_turnEvents);
    m_loopThread = std::thread::id();
}

void ProxyLoop::sweepDeadlines()
{
    Q_ASSERT(isLoopThread());
    std::vector<Connection *> expired;
    for (auto &[id, connection] : m_connections) {
        if (connection->deadline <= m_now)
            expired.push_back(connection.get());
        // A large pipe goes back once its flow moved nothing for a sweep interval.
        connection->up.shrinkIdlePipe();
        connection->down.shrinkIdlePipe();
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
        if (!endpoint.unixPath.isEmpty()) {
            ucred peer{};
            socklen_t length = sizeof peer;
            if (::getsockopt(clientFd, SOL_SOCKET, SO_PEERCRED, &peer, &length) == 0 && length == sizeof peer)
                connection->peerPid = peer.pid;
        }
        ++endpoint.clients;
        ++m_connectionCount;
        Connection &c = *connection;
        m_connections.emplace(c.id, std::move(connection));
        c.clientMask = EPOLLIN;
        if (!epollControl(EPOLL_CTL_ADD, clientFd, EPOLLIN, tag(c.id, ClientTag)))
            close(c);
    }
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
    case Phase::ProxyHandshake:
        upstream = In | (c.handshakeOut.empty() ? 0u : Out);
        client = outPending ? Out : 0u;
        break;
    case Phase::Resolving:
        client = outPending ? Out : 0u;
        break;
    case Phase::Held:
        // A client that leaves is noticed, and its question goes with it. A client that only
        // half-closes after its request is taken as gone too: a person would otherwise be
        // asked about nobody, for the whole wait.
        client = EPOLLRDHUP;
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
    endHold(c);
    if (c.phase == Phase::HttpExchange)
        recordRequest(c, c.responseStatus, c.allowRule, false, {});
    if (c.phase == Phase::Tunnel || c.phase == Phase::HttpExchange)
        emitEvent(c, Kind::Closed, c.allowRule, {});
    if (c.phase == Phase::Resolving)
        m_resolver->cancel(c.endpoint->id, c.id);
    if (c.interception) {
        // Joined before the sockets it uses are closed; its byte counts go into the event.
        c.interception->stop();
        ProxyEvent event = eventOf(c, Kind::Closed, c.allowRule, {});
        event.bytesUp = c.interception->bytesUp();
        event.bytesDown = c.interception->bytesDown();
        postEvent(std::move(event));
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

ProxyEvent ProxyLoop::eventOf(const Connection &c, ProxyEvent::Kind kind, const QString &rule,
                              const QString &reason) const
{
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
    event.connection = c.id;
    event.program = c.program;
    return event;
}

void ProxyLoop::emitEvent(const Connection &c, ProxyEvent::Kind kind, const QString &rule, const QString &reason)
{
    Q_ASSERT(isLoopThread());
    postEvent(eventOf(c, kind, rule, reason));
}

} // namespace paddock::proxy
