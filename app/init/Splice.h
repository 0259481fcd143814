// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/Relay.h"

namespace paddock::init {

/**
 * @brief Two connected non-blocking sockets joined both ways, for an epoll loop.
 *
 * The bytes go through the kernel (splice(2) through a pipe per direction, proxy::Flow), never
 * through a buffer of this process; a pair of sockets that cannot splice is copied instead.
 * Each end's end of stream is passed on as a half-close, so a peer that shuts its writing side
 * still gets the answer.
 */
struct Splice
{
    int a = -1;
    int b = -1;
    proxy::Flow ab; ///< a -> b
    proxy::Flow ba; ///< b -> a

    /** Moves what both directions can move now; false when a socket failed. */
    bool pump();
    /** Moves what epoll @p events on @p fd (a or b) let move: reading from it, writing to it. */
    bool pump(int fd, unsigned events);
    /** Both directions ended and drained. */
    bool done() const { return ab.finished() && ba.finished(); }
    /** The epoll events @p fd (a or b) waits for in the current state. */
    unsigned eventsFor(int fd) const;
};

} // namespace paddock::init
