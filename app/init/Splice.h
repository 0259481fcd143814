// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>

namespace paddock::init {

/** @brief Bytes read from one socket and not yet written to the other. */
struct Direction
{
    static constexpr size_t kBufferSize = 32 * 1024;

    char data[kBufferSize];
    size_t begin = 0;
    size_t end = 0;
    bool eof = false; ///< the reading side closed; the writing side is shut once drained
    bool pending() const { return begin < end; }
};

/**
 * @brief Two connected non-blocking sockets joined both ways, for an epoll loop.
 *
 * Each end's end of stream is passed on as a half-close, so a peer that shuts its writing
 * side still gets the answer.
 */
struct Splice
{
    int a = -1;
    int b = -1;
    Direction ab; ///< a -> b
    Direction ba; ///< b -> a

    /** Moves what both directions can move now; false when a socket failed. */
    bool pump();
    /** Both directions ended and drained. */
    bool done() const { return ab.eof && ba.eof && !ab.pending() && !ba.pending(); }
    /** The epoll events @p fd (a or b) waits for in the current state. */
    unsigned eventsFor(int fd) const;
};

} // namespace paddock::init
