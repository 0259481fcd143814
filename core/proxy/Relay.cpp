// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/Relay.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <vector>

namespace paddock::proxy {
namespace {

constexpr std::size_t CopyChunk = 16 * 1024;
constexpr int DefaultPipeSize = 64 * 1024;
// Large pipes at once in this process: each counts against the user's bound on pipe pages
// (fs.pipe-user-pages-soft), and holds pages only while bytes are in it.
constexpr int MaxLargePipes = 8;
std::atomic<int> largePipes{0};
// Rounds per wake-up: a busy flow yields so one tunnel cannot starve the others.
constexpr int MaxRounds = 8;

/**
 * Empty pipes of the default size that flows of this thread gave back: a tunnel carrying one
 * request and its answer would otherwise spend more calls making and closing its two pipes
 * than moving its bytes.
 */
struct SparePipe
{
    UniqueFd out;
    UniqueFd in;
};
constexpr std::size_t MaxSparePipes = 64;
thread_local std::vector<SparePipe> sparePipes;

bool wouldBlock()
{
    return errno == EAGAIN || errno == EWOULDBLOCK;
}

} // namespace

Flow::~Flow()
{
    reset();
}

void Flow::attach(int from, int to)
{
    m_from = from;
    m_to = to;
}

void Flow::queue(std::string_view bytes)
{
    if (m_pendingSent == m_pending.size()) {
        m_pending.clear();
        m_pendingSent = 0;
    }
    m_pending.append(bytes);
}

void Flow::reset()
{
    releaseLargePipe();
    // Nothing left in the pipe (every byte spliced in went out): the next flow may use it.
    if (m_pipeOut && m_inPipe == 0 && m_pipeCapacity == std::size_t(DefaultPipeSize) &&
        sparePipes.size() < MaxSparePipes)
        sparePipes.push_back({std::move(m_pipeOut), std::move(m_pipeIn)});
    m_pipeOut.reset();
    m_pipeIn.reset();
    m_from = m_to = -1;
    std::string().swap(m_pending);
    m_pendingSent = m_inPipe = m_pipeCapacity = 0;
    m_remaining = std::numeric_limits<std::uint64_t>::max();
    m_bytes = m_bytesAtLastLook = 0;
    m_sourceDone = m_paused = m_copyMode = m_shutDown = false;
}

int Flow::largePipesInUse()
{
    return largePipes.load();
}

void Flow::growPipe()
{
    if (m_large || m_copyMode || !m_pipeIn)
        return;
    if (++largePipes > MaxLargePipes) {
        --largePipes; // asked again on a later full read, when another flow may have given one back
        return;
    }
    // Growing keeps what the pipe holds. Past the user's bound on pipe pages the kernel refuses:
    // the flow goes on with the pipe it has.
    const int capacity = ::fcntl(m_pipeIn.get(), F_SETPIPE_SZ, LargePipeSize);
    if (capacity <= int(m_pipeCapacity)) {
        --largePipes;
        return;
    }
    m_pipeCapacity = std::size_t(capacity);
    m_large = true;
}

void Flow::releaseLargePipe()
{
    if (!m_large)
        return;
    m_large = false;
    --largePipes;
}

void Flow::shrinkIdlePipe()
{
    if (m_large && m_bytes == m_bytesAtLastLook && m_inPipe == 0) {
        // Closed rather than shrunk: the next bytes take a spare pipe of the default size.
        m_pipeOut.reset();
        m_pipeIn.reset();
        m_pipeCapacity = 0;
        releaseLargePipe();
    }
    m_bytesAtLastLook = m_bytes;
}

void Flow::shutdownDestinationOnce()
{
    if (!m_shutDown && finished()) {
        ::shutdown(m_to, SHUT_WR);
        m_shutDown = true;
    }
}

bool Flow::flushPending()
{
    while (m_pendingSent < m_pending.size()) {
        const ssize_t n =
            ::send(m_to, m_pending.data() + m_pendingSent, m_pending.size() - m_pendingSent, MSG_NOSIGNAL);
        if (n < 0)
            return wouldBlock();
        m_pendingSent += std::size_t(n);
    }
    if (!m_pending.empty()) { // keep no buffer around once it is sent
        std::string().swap(m_pending);
        m_pendingSent = 0;
    }
    return true;
}

bool Flow::ensurePipe(int pipeSize)
{
    if (m_pipeOut)
        return true;
    if ((pipeSize <= 0 || pipeSize == DefaultPipeSize) && !sparePipes.empty()) {
        m_pipeOut = std::move(sparePipes.back().out);
        m_pipeIn = std::move(sparePipes.back().in);
        sparePipes.pop_back();
        m_pipeCapacity = DefaultPipeSize;
        return true;
    }
    int ends[2] = {-1, -1};
    if (::pipe2(ends, O_NONBLOCK | O_CLOEXEC) != 0)
        return false;
    m_pipeOut.reset(ends[0]);
    m_pipeIn.reset(ends[1]);
    // F_SETPIPE_SZ answers the capacity it gave. A pipe left as made is taken to hold the default:
    // were it smaller (its user is past the bound on pipe pages), reads would only be shorter.
    const int capacity =
        pipeSize > 0 && pipeSize != DefaultPipeSize ? ::fcntl(m_pipeIn.get(), F_SETPIPE_SZ, pipeSize) : -1;
    m_pipeCapacity = std::size_t(capacity > 0 ? capacity : DefaultPipeSize);
    return true;
}

bool Flow::pump(int pipeSize)
{
    // A read that returns much less than asked for has emptied the socket for now: the loops using
    // a flow watch their sockets level-triggered, so they are woken again when more comes,
    // and asking again here would only cost a call that fails with EAGAIN.
    bool sourceMayHaveMore = true;
    for (int round = 0; round < MaxRounds; ++round) {
        if (!flushPending())
            return false;
        if (m_pendingSent < m_pending.size())
            return true; // destination full
        if (m_inPipe > 0) {
            const ssize_t n =
                ::splice(m_pipeOut.get(), nullptr, m_to, nullptr, m_inPipe, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
            if (n < 0)
                return wouldBlock();
            m_inPipe -= std::size_t(n);
            if (m_inPipe > 0)
                return true;
        }
        if (m_sourceDone || m_paused || m_remaining == 0 || !sourceMayHaveMore)
            return true;
        if (!m_copyMode && !ensurePipe(pipeSize))
            return false;
        const std::size_t room = m_copyMode ? CopyChunk : m_pipeCapacity;
        const std::size_t want = std::size_t(std::min<std::uint64_t>(m_remaining, room));
        const ssize_t n =
            m_copyMode ? readCopy(want)
                       : ::splice(m_from, nullptr, m_pipeIn.get(), nullptr, want, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
        if (n == 0) {
            m_sourceDone = true;
            return true;
        }
        if (n < 0) {
            if (wouldBlock())
                return true;
            if (m_copyMode || errno != EINVAL)
                return false;
            m_copyMode = true; // this socket type cannot splice
            continue;
        }
        if (!m_copyMode)
            m_inPipe += std::size_t(n);
        m_bytes += std::uint64_t(n);
        m_remaining -= std::uint64_t(n);
        // A pipe's room is counted in pages, and the socket's data seldom fills them whole:
        // a read of at least half of what was asked for is taken for a stream, not a message.
        sourceMayHaveMore = std::size_t(n) >= want / 2;
        if (sourceMayHaveMore && m_remaining > 0 && !m_copyMode)
            growPipe();
    }
    return true;
}

ssize_t Flow::readCopy(std::size_t want)
{
    m_pending.resize(want);
    const ssize_t n = ::recv(m_from, m_pending.data(), m_pending.size(), 0);
    m_pending.resize(n > 0 ? std::size_t(n) : 0);
    return n;
}

} // namespace paddock::proxy
