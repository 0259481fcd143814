// SPDX-License-Identifier: GPL-3.0-or-later
// A stand-in for Paddock's egress proxy, for the runtime tests that start sandboxes without
// the daemon. Header-only, so that the benchmarks share it without linking paddock_test_support.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

#include <QList>

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::test {

/**
 * Reads what @p peer (a unix connection from paddock-init's relay) sends first into @p into,
 * waiting up to 5 s: the client socket passed with it (SCM_RIGHTS), or -1.
 */
inline int receiveWithSocket(int peer, QByteArray *into)
{
    pollfd in{peer, POLLIN, 0};
    if (::poll(&in, 1, 5000) <= 0)
        return -1;
    char buffer[4096];
    iovec data{buffer, sizeof buffer};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t n = ::recvmsg(peer, &message, MSG_CMSG_CLOEXEC);
    if (n <= 0)
        return -1;
    into->append(buffer, n);
    const cmsghdr *part = CMSG_FIRSTHDR(&message);
    int fd = -1;
    if (part && part->cmsg_level == SOL_SOCKET && part->cmsg_type == SCM_RIGHTS)
        std::memcpy(&fd, CMSG_DATA(part), sizeof fd);
    return fd;
}

/**
 * @brief A unix socket server standing in for the egress proxy: it refuses every request with
 * `403 Forbidden` and `X-Paddock-Reason: test`, as the real proxy refuses a denied one.
 */
class StandInProxy
{
public:
    explicit StandInProxy(const QString &path) : m_path(path)
    {
        m_listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray native = QFile::encodeName(path);
        std::memcpy(address.sun_path, native.constData(), size_t(native.size()) + 1);
        ::unlink(native.constData());
        if (::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
            ::listen(m_listener, 64) != 0)
            qFatal("cannot listen on %s", native.constData());
        m_thread = std::thread([this] { serve(); });
    }
    ~StandInProxy()
    {
        m_stopping = true;
        ::shutdown(m_listener, SHUT_RDWR);
        m_thread.join();
        ::close(m_listener);
        ::unlink(QFile::encodeName(m_path).constData());
    }
    StandInProxy(const StandInProxy &) = delete;
    StandInProxy &operator=(const StandInProxy &) = delete;

    int requests() const { return m_requests; }
    /** The line paddock-init wrote before each connection (common/ClientProgram.h), in order. */
    QList<QByteArray> lines() const
    {
        const std::lock_guard lock(m_mutex);
        return m_lines;
    }

private:
    void serve()
    {
        while (!m_stopping) {
            pollfd fd{m_listener, POLLIN, 0};
            if (::poll(&fd, 1, 100) <= 0)
                continue;
            const int peer = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (peer < 0)
                continue;
            QByteArray request;
            char buffer[4096];
            // paddock-init's relay may pass the client's own socket with its first line.
            const int passed = receiveWithSocket(peer, &request);
            const int client = passed >= 0 ? passed : peer;
            if (request.startsWith("PADDOCK-CLIENT ")) {
                const std::lock_guard lock(m_mutex);
                m_lines.append(request.left(request.indexOf('\n')));
            }
            if (passed >= 0) {
                ::close(peer);
                request.clear();
                ::fcntl(client, F_SETFL, ::fcntl(client, F_GETFL) & ~O_NONBLOCK);
            }
            while (!request.contains("\r\n\r\n")) {
                pollfd in{client, POLLIN, 0};
                if (::poll(&in, 1, 5000) <= 0)
                    break;
                const ssize_t n = ::read(client, buffer, sizeof buffer);
                if (n <= 0)
                    break;
                request.append(buffer, n);
            }
            ++m_requests;
            const QByteArray body = "refused by the stand-in proxy\n";
            const QByteArray response =
                "HTTP/1.1 403 Forbidden\r\nX-Paddock-Reason: test\r\nContent-Type: text/plain\r\n"
                "Content-Length: " +
                QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
            [[maybe_unused]] const ssize_t written =
                ::send(client, response.constData(), size_t(response.size()), MSG_NOSIGNAL);
            ::close(client);
        }
    }

    QString m_path;
    int m_listener = -1;
    std::atomic<bool> m_stopping{false};
    std::atomic<int> m_requests{0};
    mutable std::mutex m_mutex;
    QList<QByteArray> m_lines;
    std::thread m_thread;
};

} // namespace paddock::test
