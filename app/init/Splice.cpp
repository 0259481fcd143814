// SPDX-License-Identifier: GPL-3.0-or-later
#include "Splice.h"

#include <cerrno>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace paddock::init {
namespace {

/** Moves what it can from @p from to @p to; false when the connection is broken. */
bool transfer(int from, int to, Direction &dir)
{
    for (;;) {
        if (dir.pending()) {
            const ssize_t written = write(to, dir.data + dir.begin, dir.end - dir.begin);
            if (written < 0)
                return errno == EAGAIN || errno == EINTR;
            dir.begin += size_t(written);
            if (dir.pending())
                continue;
        }
        dir.begin = dir.end = 0;
        if (dir.eof)
            return true;
        const ssize_t got = read(from, dir.data, sizeof dir.data);
        if (got < 0)
            return errno == EAGAIN || errno == EINTR;
        if (got == 0) {
            dir.eof = true;
            shutdown(to, SHUT_WR);
            return true;
        }
        dir.end = size_t(got);
    }
}

} // namespace

bool Splice::pump()
{
    return transfer(a, b, ab) && transfer(b, a, ba);
}

unsigned Splice::eventsFor(int fd) const
{
    // Read only when the previous chunk is gone (that is the back-pressure), write only
    // when something waits.
    const Direction &in = fd == a ? ab : ba;
    const Direction &out = fd == a ? ba : ab;
    return (in.eof || in.pending() ? 0u : unsigned(EPOLLIN)) | (out.pending() ? unsigned(EPOLLOUT) : 0u);
}

} // namespace paddock::init
