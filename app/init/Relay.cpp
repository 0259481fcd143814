// SPDX-License-Identifier: GPL-3.0-or-later
#include "Relay.h"
#include "Capture.h"
#include "ClientOwner.h"
#include "Splice.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <unordered_map>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::init {

bool parseRelaySpec(const std::string &text, RelaySpec *spec, std::string *error)
{
    const auto equals = text.find('=');
    const auto colon = text.rfind(':', equals);
    if (equals == std::string::npos || colon == std::string::npos || colon == 0 || equals + 1 >= text.size()) {
        *error = "--relay expects HOST:PORT=UNIX_SOCKET, got '" + text + "'";
        return false;
    }
    spec->host = text.substr(0, colon);
    spec->socketPath = text.substr(equals + 1);
    const std::string port = text.substr(colon + 1, equals - colon - 1);
    char *end = nullptr;
    const long value = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || value < 1 || value > 65535) {
        *error = "--relay port must be 1-65535, got '" + port + "'";
        return false;
    }
    spec->port = int(value);
    in_addr addr{};
    if (inet_pton(AF_INET, spec->host.c_str(), &addr) != 1) {
        *error = "--relay host must be an IPv4 address, got '" + spec->host + "'";
        return false;
    }
    if (spec->socketPath.size() >= sizeof(sockaddr_un::sun_path)) {
        *error = "--relay socket path is too long: " + spec->socketPath;
        return false;
    }
    return true;
}

int listenOn(const RelaySpec &spec, std::string *error)
{
    const bool v6 = spec.host.find(':') != std::string::npos;
    const int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = std::string("cannot create a socket: ") + std::strerror(errno);
        return -1;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_storage addr{};
    socklen_t length = 0;
    if (v6) {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        auto &in6 = reinterpret_cast<sockaddr_in6 &>(addr);
        in6.sin6_family = AF_INET6;
        in6.sin6_port = htons(uint16_t(spec.port));
        inet_pton(AF_INET6, spec.host.c_str(), &in6.sin6_addr);
        length = sizeof in6;
    } else {
        auto &in = reinterpret_cast<sockaddr_in &>(addr);
        in.sin_family = AF_INET;
        in.sin_port = htons(uint16_t(spec.port));
        inet_pton(AF_INET, spec.host.c_str(), &in.sin_addr);
        length = sizeof in;
    }
    if (bind(fd, reinterpret_cast<sockaddr *>(&addr), length) != 0 || listen(fd, 1024) != 0) {
        *error = "cannot listen on " + spec.host + ":" + std::to_string(spec.port) + ": " + std::strerror(errno);
        close(fd);
        return -1;
    }
    return fd;
}

namespace {

/** A connection from inside the sandbox (a) joined to the proxy socket (b). */
struct Pair
{
    Splice splice;
    /** What a and b are registered for in the epoll set: changed only when a flow needs it. */
    unsigned maskA = 0;
    unsigned maskB = 0;
};

class RelayLoop
{
public:
    RelayLoop(const std::vector<RelaySpec> &specs, const std::vector<int> &listeners, std::shared_ptr<NameTable> names)
        : m_specs(specs), m_listeners(listeners), m_epoll(epoll_create1(EPOLL_CLOEXEC)), m_names(std::move(names))
    {
        for (size_t i = 0; i < listeners.size(); ++i) {
            epoll_event event{};
            event.events = EPOLLIN;
            event.data.fd = listeners[i];
            epoll_ctl(m_epoll, EPOLL_CTL_ADD, listeners[i], &event);
        }
    }

    void run()
    {
        epoll_event events[64];
        for (;;) {
            const int n = epoll_wait(m_epoll, events, 64, -1);
            for (int i = 0; i < n; ++i) {
                const int fd = events[i].data.fd;
                if (const int index = listenerIndex(fd); index >= 0)
                    acceptAll(fd, m_specs[size_t(index)]);
                else if (auto it = m_pairs.find(fd); it != m_pairs.end())
                    pump(it->second, fd, events[i].events);
            }
        }
    }

private:
    int listenerIndex(int fd) const
    {
        for (size_t i = 0; i < m_listeners.size(); ++i) {
            if (m_listeners[i] == fd)
                return int(i);
        }
        return -1;
    }

    void acceptAll(int listener, const RelaySpec &spec)
    {
        for (;;) {
            const int client = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (client < 0)
                return;
            // What the proxy answers comes in pieces (a TLS record, then the next): each goes
            // out at once, not held back until the client acknowledges the one before.
            const int one = 1;
            setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            const int proxy = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            sockaddr_un addr{};
            addr.sun_family = AF_UNIX;
            std::memcpy(addr.sun_path, spec.socketPath.c_str(), spec.socketPath.size() + 1);
            // A unix connect completes at once or fails: there is no in-progress state to track.
            if (proxy < 0 || connect(proxy, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
                if (proxy >= 0)
                    close(proxy);
                close(client);
                continue;
            }
            // Who asked goes first, before any byte of the client's: the proxy believes it
            // because this process (paddock-init) is the socket's peer (core/common/ClientProgram.h).
            sockaddr_storage original{};
            const bool captured = spec.captures && m_names && originalDestination(client, &original);
            preamble::Destination to;
            if (captured)
                to = {"tcp", hostOf(original, *m_names), ntohs(reinterpret_cast<sockaddr_in &>(original).sin_port)};
            const ClientProgram program = ownerOf(client, captured ? &original : nullptr);
            const HandOver passed = spec.handOver ? handOver(program, to, client, proxy) : HandOver::NotSent;
            if (passed != HandOver::NotSent) {
                close(proxy); // sent: the proxy holds the client's socket now, the line waits for it
                close(client);
                continue;
            }
            if (!sendPreamble(program, to, proxy)) {
                close(proxy);
                close(client);
                continue;
            }
            auto pair = std::make_shared<Pair>();
            pair->splice.a = client;
            pair->splice.b = proxy;
            m_pairs[client] = pair;
            m_pairs[proxy] = pair;
            watch(client, pair->maskA, pair->splice.eventsFor(client), EPOLL_CTL_ADD);
            watch(proxy, pair->maskB, pair->splice.eventsFor(proxy), EPOLL_CTL_ADD);
        }
    }

    /**
     * The process inside that holds @p client's other end. Its socket is connected to where it
     * was going: @p captured when it was redirected here, else this relay.
     */
    ClientProgram ownerOf(int client, const sockaddr_storage *captured)
    {
        sockaddr_storage peer{};
        sockaddr_storage local{};
        socklen_t peerLength = sizeof peer;
        socklen_t localLength = sizeof local;
        if (getpeername(client, reinterpret_cast<sockaddr *>(&peer), &peerLength) != 0 ||
            getsockname(client, reinterpret_cast<sockaddr *>(&local), &localLength) != 0)
            return {};
        return m_owners.find(peer, captured ? *captured : local, IPPROTO_TCP, captured != nullptr);
    }

    static bool sendPreamble(const ClientProgram &program, const preamble::Destination &to, int proxy)
    {
        const std::string line = preamble::encode(program, preamble::Delivery::Relayed, to);
        // An empty unix socket takes a few kilobytes at once: this write never blocks or splits.
        return send(proxy, line.data(), line.size(), MSG_NOSIGNAL) == ssize_t(line.size());
    }

    enum class HandOver {
        Sent,
        NotSent,
        Broken
    };

    /** Sends the line with @p client attached; NotSent: nothing went, splice instead. */
    static HandOver handOver(const ClientProgram &program, const preamble::Destination &to, int client, int proxy)
    {
        const std::string line = preamble::encode(program, preamble::Delivery::Attached, to);
        // Into an empty unix socket it all goes at once; a part is a broken connection.
        const ssize_t sent = preamble::sendAttached(proxy, line, client);
        if (sent == ssize_t(line.size()))
            return HandOver::Sent;
        return sent > 0 ? HandOver::Broken : HandOver::NotSent;
    }

    /** Registers @p fd for @p wanted, unless it already is: most pumps change nothing. */
    void watch(int fd, unsigned &current, unsigned wanted, int op)
    {
        if (op == EPOLL_CTL_MOD && current == wanted)
            return;
        epoll_event event{};
        event.events = wanted;
        event.data.fd = fd;
        epoll_ctl(m_epoll, op, fd, &event);
        current = wanted;
    }

    void pump(std::shared_ptr<Pair> pair, int fd, unsigned events)
    {
        Splice &splice = pair->splice;
        const bool ok = splice.pump(fd, events);
        if (!ok || splice.done()) {
            m_pairs.erase(splice.a);
            m_pairs.erase(splice.b);
            close(splice.a); // closing removes them from the epoll set
            close(splice.b);
            return;
        }
        watch(splice.a, pair->maskA, splice.eventsFor(splice.a), EPOLL_CTL_MOD);
        watch(splice.b, pair->maskB, splice.eventsFor(splice.b), EPOLL_CTL_MOD);
    }

    std::vector<RelaySpec> m_specs;
    std::vector<int> m_listeners;
    int m_epoll;
    std::unordered_map<int, std::shared_ptr<Pair>> m_pairs;
    ClientOwnerFinder m_owners;
    std::shared_ptr<NameTable> m_names; ///< null: capture is off, every client is a proxy client
};

} // namespace

void runRelay(const std::vector<RelaySpec> &specs, const std::vector<int> &listeners, std::shared_ptr<NameTable> names)
{
    RelayLoop(specs, listeners, std::move(names)).run();
}

} // namespace paddock::init
