// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/StreamDemuxer.h"

#include <algorithm>
#include <utility>

namespace paddock::runtime::docker {

StreamDemuxer::StreamDemuxer(Sink sink) : m_sink(std::move(sink)) {}

void StreamDemuxer::deliver(const char *data, size_t size)
{
    if (size == 0)
        return;
    if (m_sink) {
        m_sink(m_current, data, size);
        return;
    }
    (m_current == Stream::Stderr ? m_stderr : m_stdout).append(data, qsizetype(size));
}

bool StreamDemuxer::feed(const char *data, size_t size)
{
    while (size > 0 && !m_failed) {
        if (m_remaining > 0) {
            const size_t n = std::min<size_t>(size, m_remaining);
            deliver(data, n);
            data += n;
            size -= n;
            m_remaining -= uint32_t(n);
            continue;
        }
        const size_t n = std::min(size, sizeof m_header - m_headerFill);
        std::copy_n(data, n, m_header + m_headerFill);
        m_headerFill += n;
        data += n;
        size -= n;
        if (m_headerFill < sizeof m_header)
            break;
        m_headerFill = 0;
        if (m_header[0] > 2 || m_header[1] != 0 || m_header[2] != 0 || m_header[3] != 0) {
            m_failed = true; // not a frame header: the stream was a TTY's raw output
            break;
        }
        m_current = Stream(m_header[0]);
        m_remaining = uint32_t(m_header[4]) << 24 | uint32_t(m_header[5]) << 16 | uint32_t(m_header[6]) << 8 |
                      uint32_t(m_header[7]);
    }
    return !m_failed;
}

} // namespace paddock::runtime::docker
