// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <functional>

namespace paddock::runtime::docker {

/**
 * @brief Splits the engine's multiplexed output (logs, attach and exec without a TTY) back
 * into stdout and stderr.
 *
 * Each frame is an 8-byte header (stream type: 0 stdin, 1 stdout, 2 stderr; three zero
 * bytes; payload size as a big-endian uint32) followed by the payload. Bytes may arrive in
 * any chunking: a header split across feeds is reassembled.
 */
class StreamDemuxer
{
public:
    enum class Stream : uint8_t {
        Stdin = 0,
        Stdout = 1,
        Stderr = 2
    };
    using Sink = std::function<void(Stream stream, const char *data, size_t size)>;

    /** Without a sink, output is collected into stdoutData() and stderrData(). */
    explicit StreamDemuxer(Sink sink = {});

    /** Feeds raw bytes; returns false once the stream is not in the framed format. */
    bool feed(const char *data, size_t size);
    bool feed(const QByteArray &data) { return feed(data.constData(), size_t(data.size())); }

    /** True when no frame is half received. */
    bool atFrameBoundary() const { return m_headerFill == 0 && m_remaining == 0; }
    bool failed() const { return m_failed; }

    const QByteArray &stdoutData() const { return m_stdout; }
    const QByteArray &stderrData() const { return m_stderr; }

private:
    void deliver(const char *data, size_t size);

    Sink m_sink;
    unsigned char m_header[8] = {};
    size_t m_headerFill = 0;
    uint32_t m_remaining = 0;
    Stream m_current = Stream::Stdout;
    bool m_failed = false;
    QByteArray m_stdout;
    QByteArray m_stderr;
};

} // namespace paddock::runtime::docker
