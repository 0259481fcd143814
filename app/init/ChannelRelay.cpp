// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChannelRelay.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::init {
namespace {

/** Copies what @p from has to @p to; false at end of file or on an error. */
bool copy(int from, int to)
{
    char buffer[65536];
    const ssize_t n = read(from, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
        return true;
    if (n <= 0)
        return false;
    for (ssize_t done = 0; done < n;) {
        const ssize_t written = write(to, buffer + done, size_t(n - done));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        done += written;
    }
    return true;
}

} // namespace

int relayChannel(const std::string &abstractName)
{
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const size_t length = std::min(abstractName.size(), sizeof addr.sun_path - 2);
    std::memcpy(addr.sun_path + 1, abstractName.data(), length);
    if (fd < 0 || connect(fd, reinterpret_cast<sockaddr *>(&addr), socklen_t(sizeof(sa_family_t) + 1 + length)) != 0) {
        std::fprintf(stderr, "paddock-init: the sandbox's session server does not answer: %s\n", std::strerror(errno));
        return 1;
    }
    bool inputOpen = true;
    for (;;) {
        pollfd fds[2] = {{fd, POLLIN, 0}, {inputOpen ? STDIN_FILENO : -1, POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        if (fds[0].revents && !copy(fd, STDOUT_FILENO))
            return 0;
        if (fds[1].revents && !copy(STDIN_FILENO, fd)) {
            inputOpen = false;
            shutdown(fd, SHUT_WR);
        }
    }
}

} // namespace paddock::init
