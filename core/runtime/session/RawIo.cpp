// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/session/RawIo.h"

#include <cerrno>

#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

namespace paddock::runtime::session {
namespace {

template<typename Transfer>
bool transferAll(const char *data, size_t size, Transfer transfer)
{
    while (size > 0) {
        const ssize_t n = transfer(data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

} // namespace

bool writeAll(int fd, const char *data, size_t size)
{
    return transferAll(data, size, [fd](const char *bytes, size_t count) { return ::write(fd, bytes, count); });
}

bool sendAll(int fd, const char *data, size_t size)
{
    return transferAll(data, size,
                       [fd](const char *bytes, size_t count) { return ::send(fd, bytes, count, MSG_NOSIGNAL); });
}

RawTerminal::RawTerminal(int fd) : m_fd(fd)
{
    if (::isatty(fd) && ::tcgetattr(fd, &m_saved) == 0) {
        termios raw = m_saved;
        ::cfmakeraw(&raw);
        m_active = ::tcsetattr(fd, TCSANOW, &raw) == 0;
    }
}

RawTerminal::~RawTerminal()
{
    if (m_active)
        ::tcsetattr(m_fd, TCSANOW, &m_saved);
}

} // namespace paddock::runtime::session
