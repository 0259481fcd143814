// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/UniqueFd.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <sys/types.h>

namespace paddock::proxy {

/** What a flow that keeps its reads full moves through at once (see Flow). */
constexpr std::size_t BulkBufferSize = 2 * 1024 * 1024;

/**
 * @brief One direction of a relayed connection: bytes from one socket to another.
 *
 * Bytes already read by the proxy (a request head, a peeked ClientHello) go first from
 * @ref pending; after that the kernel moves them with splice(2) through a pipe that is
 * created on first use (or an empty one that another flow of the thread gave back), so an idle
 * tunnel holds no user-space buffer. A flow that keeps filling what it reads into (a download)
 * moves to a buffer of its own, @ref BulkBufferSize bytes, and reads and sends through it:
 * on loopback, measured, one large recv and send per wake-up carry a bulk transfer a third
 * faster than splice through a pipe, whose size a user cannot raise past 1 MiB. A few flows
 * of a process have such a buffer at a time; @ref releaseIdleBuffer gives it back. When
 * splice cannot be used on a pair of sockets, the flow falls back to read/write through
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
    bool drained() const { return m_pendingSent == m_pending.size() && m_inPipe == 0 && m_bulkSent == m_bulkFilled; }
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
     * Gives back the bulk buffer of a flow that moved nothing since the last call and has
     * nothing in it; the flow goes back to its pipe. Called now and then by the owner.
     */
    void releaseIdleBuffer();

    std::uint64_t bytes() const { return m_bytes; }
    /** The flow holds a bulk buffer now. */
    bool hasBulkBuffer() const { return m_bulk != nullptr; }
    /** Bulk buffers held by flows of this process now (at most eight). */
    static int bulkBuffersInUse();
    bool sourceEnded() const { return m_sourceDone; }

private:
    bool flushPending();
    bool ensurePipe(int pipeSize);
    /** Takes a bulk buffer if the process has one to spare; the flow uses it once its pipe is empty. */
    void takeBulkBuffer();
    void releaseBulkBuffer();
    /** Sends what the bulk buffer holds, then reads into it. Like @ref pump. */
    bool pumpBulk(bool &sourceMayHaveMore);
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
    char *m_bulk = nullptr; ///< BulkBufferSize bytes, mapped while the flow has it
    std::size_t m_bulkFilled = 0;
    std::size_t m_bulkSent = 0;
    std::uint64_t m_bytesAtLastLook = 0; ///< for releaseIdleBuffer
};

} // namespace paddock::proxy
