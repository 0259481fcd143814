// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClientOwner.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace paddock::init {
namespace {

/** "0100007F:1F90": how /proc/net/tcp prints an IPv4 socket address. */
std::string tableAddress(const sockaddr_in &address)
{
    char text[16];
    std::snprintf(text, sizeof text, "%08X:%04X", unsigned(address.sin_addr.s_addr), unsigned(ntohs(address.sin_port)));
    return text;
}

/** The inode of the socket whose local address is @p client and remote @p server; 0 if none. */
unsigned long socketInode(const sockaddr_in &client, const sockaddr_in &server)
{
    FILE *table = std::fopen("/proc/net/tcp", "re");
    if (!table)
        return 0;
    const std::string local = tableAddress(client);
    const std::string remote = tableAddress(server);
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
            local == localText && remote == remoteText)
            inode = found;
    }
    std::fclose(table);
    return inode;
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

ClientProgram ClientOwnerFinder::find(const sockaddr_in &client, const sockaddr_in &server)
{
    ClientProgram program;
    const unsigned long inode = socketInode(client, server);
    if (inode == 0)
        return program;
    const long pid = ownerOf(inode, m_lastOwner);
    if (pid == 0)
        return program;
    m_lastOwner = pid;
    program.exe = readLink("/proc/" + std::to_string(pid) + "/exe");
    program.args = commandLine(pid, &program.truncated);
    program.pid = pid;
    return program;
}

} // namespace paddock::init
