// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/Relay.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace paddock::proxy {
namespace {

constexpr std::size_t CopyChunk = 16 * 1024;
// Rounds per wake-up: a busy flow yields so one tunnel cannot starve the others.
constexpr int MaxRounds = 8;

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
    m_pipeOut.reset();
    m_pipeIn.reset();
    m_from = m_to = -1;
    std::string().swap(m_pending);
    m_pendingSent = m_inPipe = 0;
    m_remaining = std::numeric_limits<std::uint64_t>::max();
    m_bytes = 0;
    m_sourceDone = m_paused = m_copyMode = m_shutDown = false;
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
    int ends[2] = {-1, -1};
    if (::pipe2(ends, O_NONBLOCK | O_CLOEXEC) != 0)
        return false;
    m_pipeOut.reset(ends[0]);
    m_pipeIn.reset(ends[1]);
    if (pipeSize > 0 && pipeSize != 65536)
        ::fcntl(m_pipeIn.get(), F_SETPIPE_SZ, pipeSize);
    return true;
}

bool Flow::pump(int pipeSize)
{
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
        if (m_sourceDone || m_paused || m_remaining == 0)
            return true;

        const std::size_t want =
            std::size_t(std::min<std::uint64_t>(m_remaining, std::uint64_t(std::max(pipeSize, 4096))));
        if (m_copyMode) {
            m_pending.resize(std::min(want, CopyChunk));
            const ssize_t n = ::recv(m_from, m_pending.data(), m_pending.size(), 0);
            if (n <= 0)
                m_pending.clear();
            if (n == 0)
                m_sourceDone = true;
            if (n <= 0)
                return n == 0 || wouldBlock();
            m_pending.resize(std::size_t(n));
            m_bytes += std::uint64_t(n);
            m_remaining -= std::uint64_t(n);
            continue;
        }
        if (!ensurePipe(pipeSize))
            return false;
        const ssize_t n = ::splice(m_from, nullptr, m_pipeIn.get(), nullptr, want, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
        if (n == 0) {
            m_sourceDone = true;
            return true;
        }
        if (n < 0) {
            if (wouldBlock())
                return true;
            if (errno != EINVAL)
                return false;
            m_copyMode = true; // this socket type cannot splice
            continue;
        }
        m_inPipe += std::size_t(n);
        m_bytes += std::uint64_t(n);
        m_remaining -= std::uint64_t(n);
    }
    return true;
}

} // namespace paddock::proxy
