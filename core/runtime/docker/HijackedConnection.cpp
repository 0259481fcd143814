// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/HijackedConnection.h"

#include "runtime/docker/CurlLibrary.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace paddock::runtime::docker {

HijackedConnection::HijackedConnection(void *curlHandle, int fd, bool encrypted, QByteArray buffered)
    : m_curl(curlHandle), m_fd(fd), m_encrypted(encrypted), m_buffered(std::move(buffered))
{}

HijackedConnection::~HijackedConnection()
{
    curlLibrary()->easy_cleanup(static_cast<CURL *>(m_curl));
}

QByteArray HijackedConnection::buffered()
{
    return std::exchange(m_buffered, QByteArray());
}

bool HijackedConnection::waitFor(short events, int timeoutMs) const
{
    pollfd p{m_fd, events, 0};
    int rc;
    do {
        rc = ::poll(&p, 1, timeoutMs);
    } while (rc < 0 && errno == EINTR);
    return rc > 0;
}

qint64 HijackedConnection::read(char *data, qint64 max, int timeoutMs)
{
    if (max <= 0)
        return 0;
    if (!m_buffered.isEmpty()) {
        const qint64 n = std::min<qint64>(max, m_buffered.size());
        std::memcpy(data, m_buffered.constData(), size_t(n));
        m_buffered.remove(0, qsizetype(n));
        return n;
    }
    for (;;) {
        size_t received = 0;
        // Tried before polling: TLS may hold decrypted bytes the socket no longer shows.
        const CURLcode rc = curlLibrary()->easy_recv(static_cast<CURL *>(m_curl), data, size_t(max), &received);
        if (rc == CURLE_OK)
            return qint64(received); // 0: the engine closed the stream
        if (rc != CURLE_AGAIN)
            return -1;
        if (!waitFor(POLLIN, timeoutMs))
            return -2;
    }
}

bool HijackedConnection::readAll(QByteArray *out, int timeoutMs)
{
    char buffer[16384];
    for (;;) {
        const qint64 n = read(buffer, sizeof buffer, timeoutMs);
        if (n == 0)
            return true;
        if (n < 0)
            return false;
        out->append(buffer, qsizetype(n));
    }
}

bool HijackedConnection::write(const QByteArray &data)
{
    qsizetype offset = 0;
    while (offset < data.size()) {
        size_t sent = 0;
        const CURLcode rc = curlLibrary()->easy_send(static_cast<CURL *>(m_curl), data.constData() + offset,
                                                     size_t(data.size() - offset), &sent);
        if (rc == CURLE_AGAIN) {
            if (!waitFor(POLLOUT, 30000))
                return false;
            continue;
        }
        if (rc != CURLE_OK)
            return false;
        offset += qsizetype(sent);
    }
    return true;
}

bool HijackedConnection::closeWrite()
{
    if (m_encrypted)
        return false;
    return ::shutdown(m_fd, SHUT_WR) == 0;
}

} // namespace paddock::runtime::docker
