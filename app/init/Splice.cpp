// SPDX-License-Identifier: GPL-3.0-or-later
#include "Splice.h"

#include <sys/epoll.h>

namespace paddock::init {
namespace {

/** The kernel's default pipe size: a pipe per direction holds at most this much. */
constexpr int kPipeSize = 64 * 1024;

} // namespace

bool Splice::pump()
{
    return pump(a, EPOLLIN | EPOLLOUT);
}

bool Splice::pump(int fd, unsigned events)
{
    ab.attach(a, b);
    ba.attach(b, a);
    constexpr unsigned Ended = EPOLLHUP | EPOLLERR | EPOLLRDHUP;
    proxy::Flow &from = fd == a ? ab : ba; // reads fd
    proxy::Flow &to = fd == a ? ba : ab;   // writes fd
    if (((events & (EPOLLIN | Ended)) && !from.pump(kPipeSize)) ||
        ((events & (EPOLLOUT | Ended)) && !to.pump(kPipeSize)))
        return false;
    ab.shutdownDestinationOnce();
    ba.shutdownDestinationOnce();
    return true;
}

unsigned Splice::eventsFor(int fd) const
{
    // Read only when the previous bytes are gone (that is the back-pressure), write only when
    // something waits.
    const proxy::Flow &in = fd == a ? ab : ba;
    const proxy::Flow &out = fd == a ? ba : ab;
    return (in.wantsRead() ? unsigned(EPOLLIN) : 0u) | (out.wantsWrite() ? unsigned(EPOLLOUT) : 0u);
}

} // namespace paddock::init
