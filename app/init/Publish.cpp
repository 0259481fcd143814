// SPDX-License-Identifier: GPL-3.0-or-later
#include "Publish.h"
#include "Splice.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::init {

bool parsePublishSpec(const std::string &text, PublishSpec *spec, std::string *error)
{
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 >= text.size()) {
        *error = "--publish expects PORT=UNIX_SOCKET, got '" + text + "'";
        return false;
    }
    const std::string port = text.substr(0, equals);
    char *end = nullptr;
    const long value = std::strtol(port.c_str(), &end, 10);
    if (*end != '\0' || value < 1 || value > 65535) {
        *error = "--publish port must be 1-65535, got '" + port + "'";
        return false;
    }
    spec->port = int(value);
    spec->socketPath = text.substr(equals + 1);
    if (spec->socketPath.size() >= sizeof(sockaddr_un::sun_path)) {
        *error = "--publish socket path is too long: " + spec->socketPath;
        return false;
    }
    return true;
}

bool parsePublishList(const std::string &text, std::vector<PublishSpec> *specs, std::string *error)
{
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        PublishSpec spec;
        if (!parsePublishSpec(word, &spec, error))
            return false;
        specs->push_back(spec);
    }
    return true;
}

namespace {

using Clock = std::chrono::steady_clock;

/** Idle connections kept per port, so a burst of clients (a browser opens several) waits less. */
constexpr int kIdlePerPort = 2;
/** After the daemon is gone or refused us, dial again no sooner than this. */
constexpr auto kRedialDelay = std::chrono::seconds(1);
constexpr char kConnectByte = 'C';

struct Channel
{
    enum class State {
        Idle,
        Connecting,
        Joined
    };
    State state = State::Idle;
    size_t port = 0;  ///< index into the specs
    int daemon = -1;  ///< the connection to the daemon's socket
    int sandbox = -1; ///< the connection to 127.0.0.1:PORT, once asked for
    Splice splice;    ///< a = daemon, b = sandbox, once joined
};

class Publisher
{
public:
    explicit Publisher(const std::vector<PublishSpec> &specs)
        : m_specs(specs),
          m_idle(specs.size(), 0),
          m_nextDial(specs.size(), Clock::time_point()),
          m_epoll(epoll_create1(EPOLL_CLOEXEC))
    {}

    void run()
    {
        epoll_event events[64];
        for (;;) {
            const int n = epoll_wait(m_epoll, events, 64, topUp());
            for (int i = 0; i < n; ++i) {
                const auto it = m_channels.find(events[i].data.fd);
                if (it != m_channels.end())
                    handle(it->second, events[i].data.fd);
            }
        }
    }

private:
    /**
     * Dials the idle connections that are missing; returns how long epoll may wait before the
     * next attempt is due, in milliseconds (-1: nothing is missing).
     */
    int topUp()
    {
        const Clock::time_point now = Clock::now();
        std::optional<Clock::time_point> next;
        for (size_t port = 0; port < m_specs.size(); ++port) {
            while (m_idle[port] < kIdlePerPort && now >= m_nextDial[port]) {
                if (!dial(port))
                    m_nextDial[port] = now + kRedialDelay;
            }
            if (m_idle[port] < kIdlePerPort && (!next || m_nextDial[port] < *next))
                next = m_nextDial[port];
        }
        if (!next)
            return -1;
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(*next - now).count();
        return int(std::clamp<long long>(wait, 0, 1000));
    }

    bool dial(size_t port)
    {
        const PublishSpec &spec = m_specs[port];
        const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return false;
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::memcpy(addr.sun_path, spec.socketPath.c_str(), spec.socketPath.size() + 1);
        const std::string hello = "port " + std::to_string(spec.port) + "\n";
        // A unix connect completes at once or fails (EAGAIN when the daemon's backlog is
        // full: tried again later), and the greeting fits any socket buffer.
        if (connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
            write(fd, hello.data(), hello.size()) != ssize_t(hello.size())) {
            close(fd);
            return false;
        }
        auto channel = std::make_shared<Channel>();
        channel->port = port;
        channel->daemon = fd;
        m_channels[fd] = channel;
        ++m_idle[port];
        watch(fd, EPOLLIN, EPOLL_CTL_ADD);
        return true;
    }

    void watch(int fd, unsigned events, int op)
    {
        epoll_event event{};
        event.events = events;
        event.data.fd = fd;
        epoll_ctl(m_epoll, op, fd, &event);
    }

    void handle(std::shared_ptr<Channel> channel, int fd)
    {
        switch (channel->state) {
        case Channel::State::Idle:
            return onAsked(channel);
        case Channel::State::Connecting:
            // The daemon's side reports only a hang-up while the connection inside is made.
            return fd == channel->sandbox ? onConnected(channel) : drop(channel);
        case Channel::State::Joined:
            return pump(channel);
        }
    }

    void onAsked(const std::shared_ptr<Channel> &channel)
    {
        // Exactly one byte: whatever follows it is already the client's data.
        char byte = 0;
        const ssize_t got = read(channel->daemon, &byte, 1);
        if (got < 0 && (errno == EAGAIN || errno == EINTR))
            return; // nothing yet: still idle
        --m_idle[channel->port];
        if (got != 1 || byte != kConnectByte) {
            // The daemon went away (or stopped publishing): wait before dialling again.
            m_nextDial[channel->port] = Clock::now() + kRedialDelay;
            return drop(channel);
        }
        const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return drop(channel);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(uint16_t(m_specs[channel->port].port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        channel->sandbox = fd;
        m_channels[fd] = channel;
        watch(fd, 0, EPOLL_CTL_ADD);
        // The daemon's side waits until the program inside answers.
        watch(channel->daemon, 0, EPOLL_CTL_MOD);
        if (connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0)
            return join(channel);
        if (errno != EINPROGRESS)
            return drop(channel);
        channel->state = Channel::State::Connecting;
        watch(fd, EPOLLOUT, EPOLL_CTL_MOD);
    }

    void onConnected(const std::shared_ptr<Channel> &channel)
    {
        int error = 0;
        socklen_t size = sizeof error;
        if (getsockopt(channel->sandbox, SOL_SOCKET, SO_ERROR, &error, &size) != 0 || error != 0)
            return drop(channel); // nothing listens inside: the host's client sees the connection close
        join(channel);
    }

    void join(const std::shared_ptr<Channel> &channel)
    {
        channel->state = Channel::State::Joined;
        channel->splice.a = channel->daemon;
        channel->splice.b = channel->sandbox;
        pump(channel);
    }

    void pump(const std::shared_ptr<Channel> &channel)
    {
        Splice &splice = channel->splice;
        if (!splice.pump() || splice.done())
            return drop(channel);
        watch(splice.a, splice.eventsFor(splice.a), EPOLL_CTL_MOD);
        watch(splice.b, splice.eventsFor(splice.b), EPOLL_CTL_MOD);
    }

    void drop(const std::shared_ptr<Channel> &channel)
    {
        for (const int fd : {channel->daemon, channel->sandbox}) {
            if (fd < 0)
                continue;
            m_channels.erase(fd);
            close(fd); // closing removes it from the epoll set
        }
        channel->daemon = channel->sandbox = -1;
    }

    std::vector<PublishSpec> m_specs;
    std::vector<int> m_idle;
    std::vector<Clock::time_point> m_nextDial;
    int m_epoll;
    std::unordered_map<int, std::shared_ptr<Channel>> m_channels;
};

} // namespace

void runPublisher(const std::vector<PublishSpec> &specs)
{
    Publisher(specs).run();
}

} // namespace paddock::init
