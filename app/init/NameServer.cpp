// SPDX-License-Identifier: GPL-3.0-or-later
#include "NameServer.h"
#include "Capture.h"
#include "ClientOwner.h"
#include "DnsAnswer.h"

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace paddock::init {
namespace {

int bindDatagram(int family, unsigned short port)
{
    const int fd = ::socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_storage address{};
    socklen_t length = 0;
    if (family == AF_INET) {
        auto &in = reinterpret_cast<sockaddr_in &>(address);
        in.sin_family = AF_INET;
        in.sin_port = htons(port);
        in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        length = sizeof in;
    } else {
        auto &in6 = reinterpret_cast<sockaddr_in6 &>(address);
        in6.sin6_family = AF_INET6;
        in6.sin6_port = htons(port);
        in6.sin6_addr = in6addr_loopback;
        const int only = 1;
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof only);
        length = sizeof in6;
    }
    if (bind(fd, reinterpret_cast<sockaddr *>(&address), length) != 0) {
        const int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/** Answers what waits on @p fd; reports a name that could not be given an address. */
void serve(int fd, NameTable *names, bool ipv6, RefusalReporter &reporter, ClientOwnerFinder &owners)
{
    char query[1500];
    sockaddr_storage from{};
    socklen_t length = sizeof from;
    const ssize_t n = recvfrom(fd, query, sizeof query, MSG_DONTWAIT, reinterpret_cast<sockaddr *>(&from), &length);
    if (n <= 0)
        return;
    const dns::Result result = dns::answer(std::string_view(query, std::size_t(n)), names, ipv6);
    if (!result.response.empty())
        sendto(fd, result.response.data(), result.response.size(), MSG_DONTWAIT, reinterpret_cast<sockaddr *>(&from),
               length);
    if (result.outcome != dns::Outcome::Full && result.outcome != dns::Outcome::Uncaptured)
        return;
    sockaddr_storage self{};
    socklen_t selfLength = sizeof self;
    getsockname(fd, reinterpret_cast<sockaddr *>(&self), &selfLength);
    // Port 0: a name looked up where connections cannot be captured; 53: one the table had no room for.
    preamble::Destination to{"dns", result.name, result.outcome == dns::Outcome::Full ? 53u : 0u};
    reporter.report(owners.find(from, self, IPPROTO_UDP), to);
}

} // namespace

bool openNameServer(unsigned short port, NameServer *server, std::string *error)
{
    server->ipv4 = bindDatagram(AF_INET, port);
    if (server->ipv4 < 0) {
        *error = "cannot answer names on 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno);
        return false;
    }
    if (hasIpv6Loopback())
        server->ipv6 = bindDatagram(AF_INET6, port);
    return true;
}

void runNameServer(NameServer server, std::shared_ptr<NameTable> names, std::shared_ptr<RefusalReporter> reporter)
{
    // Names get IPv6 addresses only where the sandbox can reach them.
    const bool ipv6 = hasIpv6Loopback();
    ClientOwnerFinder owners;
    pollfd fds[2] = {{server.ipv4, POLLIN, 0}, {server.ipv6, POLLIN, 0}};
    for (;;) {
        if (poll(fds, server.ipv6 >= 0 ? 2 : 1, -1) < 0)
            continue; // EINTR
        for (const pollfd &ready : fds) {
            if (ready.fd >= 0 && (ready.revents & POLLIN))
                serve(ready.fd, names.get(), ipv6, *reporter, owners);
        }
    }
}

} // namespace paddock::init
