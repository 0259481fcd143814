// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/UniqueFd.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <sys/types.h>

namespace paddock::proxy {

/** The pipe a flow that keeps its reads full moves to (see Flow): the most a user may ask for. */
constexpr int LargePipeSize = 1024 * 1024;

/**
 * @brief One direction of a relayed connection: bytes from one socket to another.
 *
 * Bytes already read by the proxy (a request head, a peeked ClientHello) go first from
 * @ref pending; after that the kernel moves them with splice(2) through a pipe that is
 * created on first use (or an empty one that another flow of the thread gave back), so the
 * bytes are never copied into this process and an idle tunnel holds no buffer. A flow that
 * keeps filling what it reads (a download) has its pipe grown to @ref LargePipeSize, so each
 * wake-up moves up to a mebibyte by reference: on loopback, measured from inside a sandbox,
 * that halves the proxy's CPU per byte against reading into a buffer and sending it again.
 * A few flows of a process have such a pipe at a time; @ref shrinkIdlePipe gives it back.
 * When splice cannot be used on a pair of sockets, the flow falls back to read/write through
 * @ref pending.
 *
 * The caller watches the sockets level-triggered: a read that returns less than it asked for
 * ends the pump, and the caller is woken again when more bytes come.
 */
class Flow
{
public:
    Flow() = default;
    ~Flow();
    Flow(const Flow &) = delete;
    Flow &operator=(const Flow &) = delete;

    /** Sets the sockets; the flow does not own them. */
    void attach(int from, int to);
    /**
     * Moves as many bytes as the sockets accept now, through a pipe of @p pipeSize bytes at
     * first. False on an error that ends the connection.
     */
    bool pump(int pipeSize);

    /** The flow wants to know when @ref from is readable. */
    bool wantsRead() const { return !m_sourceDone && !m_paused && m_remaining > 0 && drained(); }
    /** The flow has bytes waiting for @ref to to be writable. */
    bool wantsWrite() const { return !drained(); }
    bool drained() const { return m_pendingSent == m_pending.size() && m_inPipe == 0; }
    /** The source ended (or its byte budget is spent) and everything reached the destination. */
    bool finished() const { return (m_sourceDone || m_remaining == 0) && drained(); }

    /** Bytes to send before anything read from the source. */
    void queue(std::string_view bytes);
    /** Stops reading from the source after @p bytes more (an HTTP request body). */
    void limit(std::uint64_t bytes) { m_remaining = bytes; }
    /** While paused the flow only flushes what is queued (a response head is being parsed). */
    void pause(bool paused) { m_paused = paused; }
    /** Half-closes the destination once, when the source has ended. */
    void shutdownDestinationOnce();
    /** Releases the pipe and buffers; the flow can be attached again. */
    void reset();
    /**
     * Closes the large pipe of a flow that moved nothing since the last call and has nothing in
     * it; the flow takes a pipe of the default size when bytes come again. Called now and then
     * by the owner.
     */
    void shrinkIdlePipe();

    std::uint64_t bytes() const { return m_bytes; }
    /** The flow's pipe is a large one now. */
    bool hasLargePipe() const { return m_large; }
    /** Large pipes held by flows of this process now (at most eight). */
    static int largePipesInUse();
    bool sourceEnded() const { return m_sourceDone; }

private:
    bool flushPending();
    bool ensurePipe(int pipeSize);
    /** Grows the pipe to @ref LargePipeSize if the process has one to spare. */
    void growPipe();
    void releaseLargePipe();
    /** recv() into @ref m_pending, for sockets that cannot splice. */
    ssize_t readCopy(std::size_t want);

    int m_from = -1;
    int m_to = -1;
    std::string m_pending;
    std::size_t m_pendingSent = 0;
    UniqueFd m_pipeOut; ///< the pipe's read end, towards @ref m_to
    UniqueFd m_pipeIn;  ///< the pipe's write end, from @ref m_from
    std::size_t m_inPipe = 0;
    std::size_t m_pipeCapacity = 0;
    std::uint64_t m_remaining = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t m_bytes = 0;
    bool m_sourceDone = false;
    bool m_paused = false;
    bool m_copyMode = false;
    bool m_shutDown = false;
    bool m_large = false;                ///< the pipe was grown (growPipe)
    std::uint64_t m_bytesAtLastLook = 0; ///< for shrinkIdlePipe
};

} // namespace paddock::proxy
