// SPDX-License-Identifier: GPL-3.0-or-later
//
// The floor the proxy benchmark measures Paddock against: the smallest correct CONNECT relay.
// It accepts, reads the request up to its blank line, connects to the host:port the request
// line names, answers 200, and relays both ways until either side ends. No policy, no events,
// no names resolved (the benchmark's targets are addresses), one thread per connection.
// Built for the benchmark only; never part of Paddock.
//
//   bare-relay PORT        (listens on 127.0.0.1:PORT until killed)
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

constexpr size_t kMaxHeader = 8192;
constexpr size_t kBuffer = 128 * 1024;

bool writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

/** The request's head, up to and with its blank line; empty when the client left or sent too much. */
std::string readHead(int fd, std::string *rest)
{
    std::string head;
    char buffer[2048];
    while (head.size() < kMaxHeader) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            return {};
        head.append(buffer, size_t(n));
        if (const size_t end = head.find("\r\n\r\n"); end != std::string::npos) {
            *rest = head.substr(end + 4);
            return head.substr(0, end + 4);
        }
    }
    return {};
}

/** A connection to "CONNECT A.B.C.D:PORT HTTP/1.1"'s address, or -1. */
int connectTarget(const std::string &head)
{
    if (head.rfind("CONNECT ", 0) != 0)
        return -1;
    const size_t start = 8, space = head.find(' ', start);
    const std::string authority = head.substr(start, space == std::string::npos ? 0 : space - start);
    const size_t colon = authority.rfind(':');
    sockaddr_in address{};
    address.sin_family = AF_INET;
    const int port = colon == std::string::npos ? 0 : std::atoi(authority.c_str() + colon + 1);
    if (port <= 0 || port > 65535 || ::inet_pton(AF_INET, authority.substr(0, colon).c_str(), &address.sin_addr) != 1)
        return -1;
    address.sin_port = htons(uint16_t(port));
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0)
        return fd;
    if (fd >= 0)
        ::close(fd);
    return -1;
}

/** Copies both ways until one side ends, then passes the end on. */
void relay(int client, int target)
{
    static thread_local char buffer[kBuffer];
    pollfd fds[2] = {{client, POLLIN, 0}, {target, POLLIN, 0}};
    for (;;) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        for (int i = 0; i < 2; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n <= 0 || !writeAll(fds[1 - i].fd, buffer, size_t(n)))
                return;
        }
    }
}

void serve(int client)
{
    std::string rest;
    const std::string head = readHead(client, &rest);
    const int target = head.empty() ? -1 : connectTarget(head);
    if (target < 0) {
        const char refused[] = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        writeAll(client, refused, sizeof refused - 1);
    } else {
        const int one = 1;
        ::setsockopt(target, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
        if (writeAll(client, ok, sizeof ok - 1) && writeAll(target, rest.data(), rest.size()))
            relay(client, target);
        ::close(target);
    }
    ::close(client);
}

} // namespace

int main(int argc, char *argv[])
{
    const int port = argc > 1 ? std::atoi(argv[1]) : 0;
    if (port <= 0 || port > 65535) {
        std::fprintf(stderr, "usage: bare-relay PORT\n");
        return 2;
    }
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(listener, 4096) != 0) {
        std::perror("bare-relay: cannot listen");
        return 1;
    }
    for (;;) {
        const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) {
            if (errno == EMFILE)
                ::usleep(1000);
            if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE)
                continue;
            std::perror("bare-relay: accept");
            return 1;
        }
        ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        std::thread(serve, client).detach();
    }
}
