// SPDX-License-Identifier: GPL-3.0-or-later
// The proxy under load: a thousand tunnels open at once, 256 MiB each way through one tunnel
// arriving intact (compared byte for byte with the sent stream), and the per-sandbox tunnel limit.
#include "ProxyTestSupport.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>

using namespace paddock::proxy;
using namespace paddock::proxy::testing;

namespace {

constexpr qint64 BulkBytes = 256LL * 1024 * 1024;

/** @brief Deterministic bytes, so both ends can hash the same stream without storing it. */
class ByteStream
{
public:
    void fill(QByteArray &chunk)
    {
        auto *words = reinterpret_cast<quint64 *>(chunk.data());
        for (qsizetype i = 0; i < chunk.size() / 8; ++i) {
            m_state ^= m_state << 13;
            m_state ^= m_state >> 7;
            m_state ^= m_state << 17;
            words[i] = m_state;
        }
    }

private:
    quint64 m_state = 0x9e3779b97f4a7c15ULL;
};

/** @brief Checks received bytes against the stream, byte for byte, whatever the read sizes. */
class StreamVerifier
{
public:
    void feed(const char *data, qsizetype size)
    {
        while (size > 0) {
            if (m_position == m_chunk.size()) {
                m_stream.fill(m_chunk);
                m_position = 0;
            }
            const qsizetype n = std::min(size, m_chunk.size() - m_position);
            if (std::memcmp(m_chunk.constData() + m_position, data, std::size_t(n)) != 0 && m_firstMismatch < 0)
                m_firstMismatch = m_total;
            m_position += n;
            m_total += n;
            data += n;
            size -= n;
        }
    }
    /** Checks all that arrives on the socket @p fd until it is closed or fails. */
    void feedUntilClosed(int fd)
    {
        QByteArray buffer(256 * 1024, Qt::Uninitialized);
        while (true) {
            const ssize_t n = ::recv(fd, buffer.data(), std::size_t(buffer.size()), 0);
            if (n <= 0)
                break;
            feed(buffer.constData(), n);
        }
    }
    qint64 total() const { return m_total; }
    /** Offset of the first chunk that differed, or -1. */
    qint64 firstMismatch() const { return m_firstMismatch; }

private:
    ByteStream m_stream;
    QByteArray m_chunk{1024 * 1024, Qt::Uninitialized};
    qsizetype m_position = 1024 * 1024;
    qint64 m_total = 0;
    qint64 m_firstMismatch = -1;
};

bool writeAll(int fd, const char *data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        data += n;
        size -= std::size_t(n);
    }
    return true;
}

/** @brief A loopback listener served by a function on its own thread, one connection at a time. */
class Upstream
{
public:
    explicit Upstream(std::function<void(int)> serve) : m_serve(std::move(serve))
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
        ::listen(m_fd, 4096);
        socklen_t length = sizeof address;
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length);
        port = ntohs(address.sin_port);
        m_thread = std::thread([this] {
            while (true) {
                const int fd = ::accept(m_fd, nullptr, nullptr);
                if (fd < 0)
                    return;
                m_serve(fd);
            }
        });
    }
    ~Upstream()
    {
        ::shutdown(m_fd, SHUT_RDWR);
        m_thread.join();
        ::close(m_fd);
    }
    quint16 port = 0;

private:
    std::function<void(int)> m_serve;
    int m_fd = -1;
    std::thread m_thread;
};

/** @brief Echoes every connection it holds; keeps them all open until the peer closes. */
class EchoUpstream
{
public:
    EchoUpstream()
    {
        m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
        m_listener = std::make_unique<Upstream>([this](int fd) {
            epoll_event event{};
            event.events = EPOLLIN;
            event.data.fd = fd;
            ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event);
        });
        port = m_listener->port;
        m_thread = std::thread([this] {
            epoll_event events[64];
            while (!m_stop) {
                const int count = ::epoll_wait(m_epoll, events, 64, 100);
                for (int i = 0; i < count; ++i) {
                    char buffer[4096];
                    const ssize_t n = ::recv(events[i].data.fd, buffer, sizeof buffer, 0);
                    if (n <= 0 || !writeAll(events[i].data.fd, buffer, std::size_t(n)))
                        ::close(events[i].data.fd);
                }
            }
        });
    }
    ~EchoUpstream()
    {
        m_listener.reset();
        m_stop = true;
        m_thread.join();
        ::close(m_epoll);
    }
    quint16 port = 0;

private:
    int m_epoll = -1;
    std::unique_ptr<Upstream> m_listener;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

class TestProxyScale : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ProxyUnderTest> m_proxy;

    /** A blocking socket with an open tunnel to @p host:@p port, or -1. */
    int openTunnel(const QString &host, quint16 port)
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(m_proxy->port);
        if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
            ::close(fd);
            return -1;
        }
        const QByteArray request = QStringLiteral("CONNECT %1:%2 HTTP/1.1\r\n\r\n").arg(host).arg(port).toUtf8();
        const QByteArray expected("HTTP/1.1 200 Connection established\r\n\r\n");
        QByteArray reply(expected.size(), '\0');
        qsizetype got = 0;
        if (writeAll(fd, request.constData(), std::size_t(request.size()))) {
            while (got < reply.size()) {
                const ssize_t n = ::recv(fd, reply.data() + got, std::size_t(reply.size() - got), 0);
                if (n <= 0)
                    break;
                got += n;
            }
        }
        if (reply != expected) {
            qWarning() << "tunnel refused:" << reply.left(int(got));
            ::close(fd);
            return -1;
        }
        return fd;
    }

private slots:
    void initTestCase()
    {
        rlimit limit{};
        QCOMPARE(::getrlimit(RLIMIT_NOFILE, &limit), 0);
        limit.rlim_cur = limit.rlim_max;
        QCOMPARE(::setrlimit(RLIMIT_NOFILE, &limit), 0);
        QVERIFY2(limit.rlim_cur >= 8192, "the test needs 8192 file descriptors");
    }

    void init()
    {
        ProxyLimits limits;
        limits.maxTunnelsPerEndpoint = 2;
        m_proxy = std::make_unique<ProxyUnderTest>(limits);
        if (QByteArray(QTest::currentTestFunction()) != "tunnelLimitPerSandbox") {
            limits.maxTunnelsPerEndpoint = 2048;
            m_proxy = std::make_unique<ProxyUnderTest>(limits);
        }
        QVERIFY(m_proxy->start());
        m_proxy->mapToLoopback(QStringLiteral("bulk.test"));
        m_proxy->allowList.allow(QStringLiteral("bulk.test"));
    }

    void cleanup() { m_proxy.reset(); }

    void thousandTunnelsAtOnce()
    {
        EchoUpstream echo;
        constexpr int Count = 1000;
        std::vector<int> tunnels;
        for (int i = 0; i < Count; ++i) {
            const int fd = openTunnel(QStringLiteral("bulk.test"), echo.port);
            QVERIFY2(fd >= 0, qPrintable(QStringLiteral("tunnel %1 did not open").arg(i)));
            tunnels.push_back(fd);
        }
        QCOMPARE(m_proxy->engine.connectionCount(), Count);
        // Every tunnel still carries bytes while all of them are open.
        for (int i = 0; i < Count; ++i) {
            const QByteArray ping = QByteArray::number(i) + '\n';
            QVERIFY(writeAll(tunnels[i], ping.constData(), std::size_t(ping.size())));
        }
        for (int i = 0; i < Count; ++i) {
            const QByteArray ping = QByteArray::number(i) + '\n';
            QByteArray echoed(ping.size(), '\0');
            qsizetype got = 0;
            while (got < echoed.size()) {
                const ssize_t n = ::recv(tunnels[i], echoed.data() + got, std::size_t(echoed.size() - got), 0);
                QVERIFY(n > 0);
                got += n;
            }
            QCOMPARE(echoed, ping);
        }
        for (const int fd : tunnels)
            ::close(fd);
        QTRY_COMPARE_WITH_TIMEOUT(m_proxy->engine.connectionCount(), 0, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(m_proxy->log.count(QStringLiteral("bulk.test"), ProxyEvent::Kind::Closed), Count,
                                  30000);
    }

    void bulkDownloadArrivesIntact()
    {
        Upstream source([](int fd) {
            ByteStream stream;
            QByteArray chunk(1024 * 1024, Qt::Uninitialized);
            for (qint64 sent = 0; sent < BulkBytes; sent += chunk.size()) {
                stream.fill(chunk);
                if (!writeAll(fd, chunk.constData(), std::size_t(chunk.size())))
                    break;
            }
            ::close(fd);
        });
        const int fd = openTunnel(QStringLiteral("bulk.test"), source.port);
        QVERIFY(fd >= 0);
        StreamVerifier verifier;
        verifier.feedUntilClosed(fd);
        ::close(fd);
        QCOMPARE(verifier.total(), BulkBytes);
        QCOMPARE(verifier.firstMismatch(), qint64(-1));
    }

    void bulkUploadArrivesIntact()
    {
        // The upstream checks what it receives until the client half-closes, then answers how much
        // arrived and where the first difference was (-1: none).
        Upstream sink([](int fd) {
            StreamVerifier verifier;
            verifier.feedUntilClosed(fd);
            const QByteArray answer =
                QByteArray::number(verifier.total()) + ' ' + QByteArray::number(verifier.firstMismatch());
            writeAll(fd, answer.constData(), std::size_t(answer.size()));
            ::close(fd);
        });
        const int fd = openTunnel(QStringLiteral("bulk.test"), sink.port);
        QVERIFY(fd >= 0);
        ByteStream stream;
        QByteArray chunk(1024 * 1024, Qt::Uninitialized);
        for (qint64 sent = 0; sent < BulkBytes; sent += chunk.size()) {
            stream.fill(chunk);
            QVERIFY(writeAll(fd, chunk.constData(), std::size_t(chunk.size())));
        }
        ::shutdown(fd, SHUT_WR);
        QByteArray answer;
        char buffer[256];
        ssize_t n = 0;
        while ((n = ::recv(fd, buffer, sizeof buffer, 0)) > 0)
            answer.append(buffer, n);
        ::close(fd);
        QCOMPARE(answer, QByteArray::number(BulkBytes) + " -1");
    }

    void tunnelLimitPerSandbox()
    {
        EchoUpstream echo;
        const int first = openTunnel(QStringLiteral("bulk.test"), echo.port);
        const int second = openTunnel(QStringLiteral("bulk.test"), echo.port);
        QVERIFY(first >= 0 && second >= 0);
        QTcpSocket third;
        third.connectToHost(QHostAddress::LocalHost, m_proxy->port);
        QVERIFY(third.waitForConnected(5000));
        third.write(QStringLiteral("CONNECT bulk.test:%1 HTTP/1.1\r\n\r\n").arg(echo.port).toUtf8());
        QByteArray reply;
        while (third.waitForReadyRead(5000))
            reply += third.readAll();
        QVERIFY2(reply.startsWith("HTTP/1.1 503"), reply.constData());
        QVERIFY(headerValue(reply, "X-Paddock-Reason").contains("already has 2 connections open"));
        ::close(first);
        ::close(second);
        // Once they are closed, a new tunnel opens again.
        QTRY_COMPARE(m_proxy->engine.connectionCount(), 0);
        const int again = openTunnel(QStringLiteral("bulk.test"), echo.port);
        QVERIFY(again >= 0);
        ::close(again);
    }
};

QTEST_GUILESS_MAIN(TestProxyScale)
#include "tst_proxy_scale.moc"
