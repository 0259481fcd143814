// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <cstddef>

namespace paddock::runtime::docker {

/**
 * @brief A connection the engine has taken over ("hijacked") after answering an attach or
 * exec start: from then on it carries the process's stdin one way and its output the other.
 *
 * Without a TTY the output is multiplexed (see StreamDemuxer); with a TTY it is raw.
 *
 * How a caller bridges it to a terminal: first take buffered() (output that arrived with the
 * response headers), then either
 * - use read() and write(), which work for every endpoint including TLS, polling
 *   socketDescriptor() for readability; or
 * - when isEncrypted() is false, use socketDescriptor() directly as a raw fd (poll, read,
 *   write, shutdown(SHUT_WR) for end of input), e.g. with a QSocketNotifier.
 * The connection (and the fd) is closed when this object is destroyed.
 */
class HijackedConnection
{
public:
    HijackedConnection(void *curlHandle, int fd, bool encrypted, QByteArray buffered);
    ~HijackedConnection();
    HijackedConnection(const HijackedConnection &) = delete;
    HijackedConnection &operator=(const HijackedConnection &) = delete;

    int socketDescriptor() const { return m_fd; }
    bool isEncrypted() const { return m_encrypted; }
    /** Output bytes received together with the response headers; empties the buffer. */
    QByteArray buffered();

    /**
     * Reads up to @p max bytes, waiting at most @p timeoutMs (-1: forever). Returns the byte
     * count, 0 at end of stream, -1 on error, -2 on timeout. Starts with buffered() bytes.
     */
    qint64 read(char *data, qint64 max, int timeoutMs = -1);
    /** Reads until the engine closes the stream (the process ended and output drained). */
    bool readAll(QByteArray *out, int timeoutMs = -1);
    bool write(const QByteArray &data);
    /** Ends the process's stdin. Plain sockets only: TLS cannot half-close through libcurl. */
    bool closeWrite();

private:
    friend class DockerTransport; // fills m_buffered after reading the response headers

    bool waitFor(short events, int timeoutMs) const;

    void *m_curl;
    int m_fd;
    bool m_encrypted;
    QByteArray m_buffered;
};

} // namespace paddock::runtime::docker
