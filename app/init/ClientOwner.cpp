// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClientOwner.h"
#include "Netlink.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <unistd.h>

namespace paddock::init {
namespace {

/** Whether two /proc/net/udp addresses name the same port, the one bound to any address. */
bool sameUdpPort(const std::string &sent, const char *bound)
{
    const std::string text(bound);
    const std::size_t colon = text.rfind(':');
    return colon != std::string::npos && text.find_first_not_of('0') == colon &&
           sent.substr(sent.rfind(':')) == text.substr(colon);
}

/** "0100007F:1F90" (or 32 hex digits for IPv6): how /proc/net/tcp prints a socket address. */
std::string tableAddress(const sockaddr_storage &address)
{
    char text[48];
    if (address.ss_family == AF_INET) {
        const auto &in = reinterpret_cast<const sockaddr_in &>(address);
        std::snprintf(text, sizeof text, "%08X:%04X", unsigned(in.sin_addr.s_addr), unsigned(ntohs(in.sin_port)));
        return text;
    }
    const auto &in6 = reinterpret_cast<const sockaddr_in6 &>(address);
    std::uint32_t words[4];
    std::memcpy(words, &in6.sin6_addr, sizeof words);
    std::snprintf(text, sizeof text, "%08X%08X%08X%08X:%04X", unsigned(words[0]), unsigned(words[1]),
                  unsigned(words[2]), unsigned(words[3]), unsigned(ntohs(in6.sin6_port)));
    return text;
}

/** The inode from this namespace's table in /proc/net; 0 if none. */
unsigned long inodeFromTable(const sockaddr_storage &client, const sockaddr_storage &server, int protocol)
{
    std::string path = protocol == IPPROTO_UDP ? "/proc/net/udp" : "/proc/net/tcp";
    if (client.ss_family == AF_INET6)
        path += '6';
    FILE *table = std::fopen(path.c_str(), "re");
    if (!table)
        return 0;
    const std::string local = tableAddress(client);
    // An unconnected datagram socket has no remote address: its local one says enough.
    const std::string remote = protocol == IPPROTO_UDP ? std::string() : tableAddress(server);
    unsigned long inode = 0;
    char line[512];
    bool heading = true;
    while (inode == 0 && std::fgets(line, sizeof line, table)) {
        if (std::exchange(heading, false))
            continue;
        char localText[64], remoteText[64];
        unsigned long found = 0;
        // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
        if (std::sscanf(line, "%*s %63s %63s %*s %*s %*s %*s %*s %*s %lu", localText, remoteText, &found) == 3 &&
            (local == localText || (protocol == IPPROTO_UDP && sameUdpPort(local, localText))) &&
            (remote.empty() || remote == remoteText))
            inode = found;
    }
    std::fclose(table);
    return inode;
}

/**
 * The inode of a TCP socket connected (or connecting) to @p server, from a dump of this
 * namespace's sockets: for a captured connection whose source port NAT changed, where the
 * exact question finds nothing. Several sockets to one destination are nearly always one
 * program's; the first is taken. 0 if none.
 */
unsigned long inodeByDestination(const sockaddr_storage &server)
{
    netlink::Socket diag(NETLINK_SOCK_DIAG);
    if (!diag.valid())
        return 0;
    inet_diag_req_v2 request{};
    request.sdiag_family = std::uint8_t(server.ss_family);
    request.sdiag_protocol = IPPROTO_TCP;
    request.idiag_states = (1u << 1) | (1u << 2); // TCP_ESTABLISHED, TCP_SYN_SENT
    netlink::Message message(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, &request, sizeof request);
    const std::string sent = message.finish(1);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (sendto(diag.fd(), sent.data(), sent.size(), 0, reinterpret_cast<sockaddr *>(&kernel), sizeof kernel) < 0)
        return 0;
    const std::size_t addressBytes = server.ss_family == AF_INET ? 4 : 16;
    const void *address = server.ss_family == AF_INET
                              ? static_cast<const void *>(&reinterpret_cast<const sockaddr_in &>(server).sin_addr)
                              : static_cast<const void *>(&reinterpret_cast<const sockaddr_in6 &>(server).sin6_addr);
    const std::uint16_t port = reinterpret_cast<const sockaddr_in &>(server).sin_port;
    alignas(nlmsghdr) char buffer[16384];
    for (;;) {
        const ssize_t n = recv(diag.fd(), buffer, sizeof buffer, 0);
        if (n <= 0)
            return 0;
        int left = int(n);
        for (auto *header = reinterpret_cast<nlmsghdr *>(buffer); NLMSG_OK(header, unsigned(left));
             header = NLMSG_NEXT(header, left)) {
            if (header->nlmsg_type == NLMSG_DONE || header->nlmsg_type == NLMSG_ERROR)
                return 0;
            inet_diag_msg found{};
            std::memcpy(&found, NLMSG_DATA(header), sizeof found);
            if (found.id.idiag_dport == port && std::memcmp(found.id.idiag_dst, address, addressBytes) == 0)
                return found.idiag_inode;
        }
    }
}

/** The inode of exactly that socket, asked of the kernel (NETLINK_SOCK_DIAG); 0 if none. */
unsigned long inodeFromKernel(const sockaddr_storage &client, const sockaddr_storage &server, int protocol)
{
    static thread_local netlink::Socket diag(NETLINK_SOCK_DIAG);
    if (!diag.valid())
        return 0;
    inet_diag_req_v2 request{};
    request.sdiag_family = std::uint8_t(client.ss_family);
    request.sdiag_protocol = std::uint8_t(protocol);
    request.idiag_states = ~0u;
    request.id.idiag_cookie[0] = request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    // TCP's lookup takes the socket's own address as the source; UDP's, for historical reasons,
    // the other way round.
    const sockaddr_storage &source = protocol == IPPROTO_UDP ? server : client;
    const sockaddr_storage &destination = protocol == IPPROTO_UDP ? client : server;
    // The port sits at the same place in both address families.
    request.id.idiag_sport = reinterpret_cast<const sockaddr_in &>(source).sin_port;
    request.id.idiag_dport = reinterpret_cast<const sockaddr_in &>(destination).sin_port;
    if (client.ss_family == AF_INET) {
        request.id.idiag_src[0] = reinterpret_cast<const sockaddr_in &>(source).sin_addr.s_addr;
        request.id.idiag_dst[0] = reinterpret_cast<const sockaddr_in &>(destination).sin_addr.s_addr;
    } else {
        std::memcpy(request.id.idiag_src, &reinterpret_cast<const sockaddr_in6 &>(source).sin6_addr, 16);
        std::memcpy(request.id.idiag_dst, &reinterpret_cast<const sockaddr_in6 &>(destination).sin6_addr, 16);
    }
    netlink::Message message(SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, &request, sizeof request);
    std::string answer;
    static thread_local std::uint32_t sequence = 0;
    if (!diag.query(message.finish(++sequence), &answer) || answer.size() < NLMSG_HDRLEN + sizeof(inet_diag_msg))
        return 0;
    nlmsghdr header{};
    std::memcpy(&header, answer.data(), sizeof header);
    if (header.nlmsg_type != SOCK_DIAG_BY_FAMILY)
        return 0;
    inet_diag_msg found{};
    std::memcpy(&found, answer.data() + NLMSG_HDRLEN, sizeof found);
    return found.idiag_inode;
}

/** Whether process @p pid holds a descriptor for the socket @p link ("socket:[INODE]"). */
bool holds(long pid, const std::string &link)
{
    const std::string directory = "/proc/" + std::to_string(pid) + "/fd";
    DIR *fds = opendir(directory.c_str());
    if (!fds)
        return false;
    bool found = false;
    char target[64];
    while (!found) {
        const dirent *entry = readdir(fds);
        if (!entry)
            break;
        if (entry->d_name[0] == '.')
            continue;
        const ssize_t n = readlinkat(dirfd(fds), entry->d_name, target, sizeof target - 1);
        found = n > 0 && std::string_view(target, std::size_t(n)) == link;
    }
    closedir(fds);
    return found;
}

/** The process holding socket @p inode, @p hint first; 0 if none. */
long ownerOf(unsigned long inode, long hint)
{
    const std::string link = "socket:[" + std::to_string(inode) + "]";
    if (hint > 0 && holds(hint, link))
        return hint;
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    long owner = 0;
    const long self = long(getpid());
    while (owner == 0) {
        const dirent *entry = readdir(proc);
        if (!entry)
            break;
        char *end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (pid <= 0 || *end != '\0' || pid == self || pid == hint)
            continue;
        if (holds(pid, link))
            owner = pid;
    }
    closedir(proc);
    return owner;
}

std::string readLink(const std::string &path)
{
    char target[preamble::MaxExeBytes + 1];
    const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
    return n > 0 ? std::string(target, std::size_t(n)) : std::string();
}

/** /proc/PID/cmdline, split at its NULs, at most about MaxArgBytes of it. */
std::vector<std::string> commandLine(long pid, bool *truncated)
{
    std::vector<std::string> args;
    const std::string path = "/proc/" + std::to_string(pid) + "/cmdline";
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return args;
    std::string bytes(preamble::MaxArgBytes + 1, '\0');
    std::size_t size = 0;
    while (size < bytes.size()) {
        const ssize_t n = read(fd, bytes.data() + size, bytes.size() - size);
        if (n <= 0)
            break;
        size += std::size_t(n);
    }
    close(fd);
    *truncated = size > preamble::MaxArgBytes;
    bytes.resize(std::min(size, preamble::MaxArgBytes));
    std::size_t start = 0;
    while (start < bytes.size()) {
        const std::size_t nul = bytes.find('\0', start);
        args.push_back(bytes.substr(start, nul == std::string::npos ? std::string::npos : nul - start));
        if (nul == std::string::npos)
            break;
        start = nul + 1;
    }
    return args;
}

} // namespace

ClientProgram ClientOwnerFinder::find(const sockaddr_storage &client, const sockaddr_storage &server, int protocol,
                                      bool redirected)
{
    ClientProgram program;
    unsigned long inode = inodeFromKernel(client, server, protocol);
    if (inode == 0 && redirected)
        inode = inodeByDestination(server);
    if (inode == 0)
        inode = inodeFromTable(client, server, protocol);
    if (inode == 0)
        return program;
    const long pid = ownerOf(inode, m_lastOwner);
    if (pid == 0)
        return program;
    m_lastOwner = pid;
    program.exe = readLink("/proc/" + std::to_string(pid) + "/exe");
    program.args = commandLine(pid, &program.truncated);
    program.pid = pid;
    m_files.identify(program);
    return program;
}

} // namespace paddock::init
