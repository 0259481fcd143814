// SPDX-License-Identifier: GPL-3.0-or-later
// SOCKS5 through the proxy: real curl with --socks5-hostname, and a raw client for each
// address type and each reply code a sandbox can get.
#include "ProxyTestSupport.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

using namespace paddock::proxy;
using namespace paddock::proxy::testing;

namespace {

QByteArray portBytes(quint16 port)
{
    return QByteArray(1, char(port >> 8)) + QByteArray(1, char(port & 0xff));
}

QByteArray domainRequest(const QByteArray &host, quint16 port, char command = 0x01)
{
    return QByteArray("\x05", 1) + command + QByteArray("\x00\x03", 2) + char(host.size()) + host + portBytes(port);
}

} // namespace

class TestProxySocks : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_site;
    std::unique_ptr<LocalUpstream> m_http;
    std::unique_ptr<ProxyUnderTest> m_proxy;

    /** @brief A raw SOCKS5 client over a blocking QTcpSocket. */
    struct SocksClient
    {
        QTcpSocket socket;
        QByteArray read(int bytes)
        {
            QByteArray data;
            while (data.size() < bytes && (socket.bytesAvailable() || socket.waitForReadyRead(10000)))
                data += socket.read(bytes - data.size());
            return data;
        }
    };

    /** Greets with no authentication, sends @p request, returns the reply code (-1 if none). */
    int socksReply(SocksClient &client, const QByteArray &request)
    {
        client.socket.connectToHost(QHostAddress::LocalHost, m_proxy->port);
        if (!client.socket.waitForConnected(5000))
            return -1;
        client.socket.write(QByteArray("\x05\x01\x00", 3));
        if (client.read(2) != QByteArray("\x05\x00", 2))
            return -1;
        client.socket.write(request);
        const QByteArray reply = client.read(10);
        return reply.size() == 10 && reply[0] == 0x05 ? int(quint8(reply[1])) : -1;
    }

private slots:
    void initTestCase()
    {
        QFile file(m_site.filePath(QStringLiteral("hello.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("hello over socks\n");
        file.close();
        m_http = std::make_unique<LocalUpstream>();
        QVERIFY(m_http->start(m_site.path()));
    }

    void init()
    {
        m_proxy = std::make_unique<ProxyUnderTest>();
        QVERIFY(m_proxy->start());
        m_proxy->mapToLoopback(QStringLiteral("socks.test"));
        m_proxy->mapToLoopback(QStringLiteral("denied.test"));
        m_proxy->allowList.allow(QStringLiteral("socks.test"));
    }

    void cleanup() { m_proxy.reset(); }

    void curlWithRemoteNames()
    {
        RunResult result = run(QStringLiteral("curl"),
                               {QStringLiteral("-q"), QStringLiteral("--silent"), QStringLiteral("--show-error"),
                                QStringLiteral("--socks5-hostname"), QStringLiteral("127.0.0.1:%1").arg(m_proxy->port),
                                QStringLiteral("http://socks.test:%1/hello.txt").arg(m_http->port())},
                               m_home.path());
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("hello over socks\n"));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("socks.test"), ProxyEvent::Kind::Allowed));
        QCOMPARE(m_proxy->log.find(QStringLiteral("socks.test"), ProxyEvent::Kind::Allowed)->protocol, Protocol::Socks);

        result = run(QStringLiteral("curl"),
                     {QStringLiteral("-q"), QStringLiteral("--silent"), QStringLiteral("--show-error"),
                      QStringLiteral("--socks5-hostname"), QStringLiteral("127.0.0.1:%1").arg(m_proxy->port),
                      QStringLiteral("http://denied.test:%1/hello.txt").arg(m_http->port())},
                     m_home.path());
        QCOMPARE(result.exitCode, 97); // curl: proxy handshake failed
        // curl prints the SOCKS reply code: 2 is "connection not allowed by ruleset".
        QVERIFY2(result.err.contains("connection to denied.test. (2)"), result.err.constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("denied.test"), ProxyEvent::Kind::Denied));
    }

    void deniedIsNotAllowedByRuleset()
    {
        SocksClient client;
        QCOMPARE(socksReply(client, domainRequest("denied.test", m_http->port())), 0x02);
    }

    void ipv4AddressType()
    {
        m_proxy->allowList.allow(QStringLiteral("127.0.0.1"));
        SocksClient client;
        QCOMPARE(socksReply(client, QByteArray("\x05\x01\x00\x01\x7f\x00\x00\x01", 8) + portBytes(m_http->port())),
                 0x00);
        client.socket.write("GET /hello.txt HTTP/1.0\r\n\r\n");
        QByteArray response;
        while (client.socket.waitForReadyRead(10000))
            response += client.socket.readAll();
        QVERIFY2(response.endsWith("hello over socks\n"), response.constData());
        const std::vector<ConnectionQuery> queries = m_proxy->allowList.queries();
        QCOMPARE(queries.back().host, QStringLiteral("127.0.0.1"));
        QCOMPARE(queries.back().protocol, Protocol::Socks);
    }

    void ipv6AddressType()
    {
        // A one-shot upstream on [::1] that greets and closes.
        const int listener = ::socket(AF_INET6, SOCK_STREAM, 0);
        sockaddr_in6 address{};
        address.sin6_family = AF_INET6;
        address.sin6_addr = in6addr_loopback;
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        QCOMPARE(::listen(listener, 4), 0);
        socklen_t length = sizeof address;
        ::getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length);
        std::thread server([listener] {
            const int fd = ::accept(listener, nullptr, nullptr);
            if (fd >= 0) {
                [[maybe_unused]] const ssize_t n = ::write(fd, "hello v6\n", 9);
                ::close(fd);
            }
        });
        m_proxy->allowList.allow(QStringLiteral("::1"));
        SocksClient client;
        const int reply = socksReply(client, QByteArray("\x05\x01\x00\x04", 4) + QByteArray(15, '\0') + '\x01' +
                                                 portBytes(ntohs(address.sin6_port)));
        const QByteArray greeting = client.read(9);
        ::shutdown(listener, SHUT_RDWR);
        server.join();
        ::close(listener);
        QCOMPARE(reply, 0x00);
        QCOMPARE(greeting, QByteArray("hello v6\n"));
    }

    void unsupportedCommandAndAddressType()
    {
        SocksClient bind;
        QCOMPARE(socksReply(bind, domainRequest("socks.test", m_http->port(), 0x02)), 0x07);
        SocksClient unknownType;
        QCOMPARE(socksReply(unknownType, QByteArray("\x05\x01\x00\x09", 4)), 0x08);
    }

    void upstreamFailures()
    {
        SocksClient refused;
        QCOMPARE(socksReply(refused, domainRequest("socks.test", freePort())), 0x05);
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("socks.test"), ProxyEvent::Kind::UpstreamFailed));
        // Allowed, but the name does not resolve: host unreachable.
        m_proxy->allowList.allow(QStringLiteral("nowhere.invalid"));
        SocksClient unresolvable;
        QCOMPARE(socksReply(unresolvable, domainRequest("nowhere.invalid", 80)), 0x04);
    }

    void authenticationIsNotOffered()
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port);
        QVERIFY(socket.waitForConnected(5000));
        socket.write(QByteArray("\x05\x01\x02", 3)); // username/password only
        QVERIFY(socket.waitForReadyRead(5000));
        QCOMPARE(socket.readAll(), QByteArray("\x05\xff", 2));
    }
};

QTEST_GUILESS_MAIN(TestProxySocks)
#include "tst_proxy_socks.moc"
