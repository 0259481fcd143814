// SPDX-License-Identifier: GPL-3.0-or-later
// Connections captured inside a sandbox (app/init/Capture.h) as the real proxy engine gets them
// from paddock-init: the client's own TCP socket passed with a line saying where it was going.
// Decided like a CONNECT to the same place; allowed ones carry any protocol, refused ones are
// answered in their port's protocol or reset, port 80 gets the HTTP treatment, and paddock-init's
// reports of refused datagrams become events. The same through real sandboxes, with ssh, psql,
// curl and Node, is in tests/integration/sandbox-capture.
#include "ProxyTestSupport.h"

#include "common/ClientProgram.h"

#include <QtTest>

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace paddock::proxy;
using paddock::Result;
using namespace paddock::proxy::testing;
namespace preamble = paddock::preamble;

namespace {

/** A connected pair of loopback TCP sockets: @ref mine is the client's end, @ref theirs the one passed. */
struct SocketPair
{
    int mine = -1;
    int theirs = -1;
};

SocketPair tcpPair()
{
    QTcpServer listener;
    listener.listen(QHostAddress::LocalHost, 0);
    const int client = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(listener.serverPort());
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(client, reinterpret_cast<sockaddr *>(&address), sizeof address);
    listener.waitForNewConnection(5000);
    QTcpSocket *accepted = listener.nextPendingConnection();
    const int server = accepted ? ::dup(int(accepted->socketDescriptor())) : -1;
    delete accepted;
    return {client, server};
}

/** Reads from @p fd until it ends, fails or @p until is in what came; what came, and the errno of a failure. */
QByteArray readFrom(int fd, int *error, const QByteArray &until = {}, int timeoutMs = 10000)
{
    const timeval wait{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    QByteArray bytes;
    *error = 0;
    for (;;) {
        char buffer[4096];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n > 0) {
            bytes.append(buffer, int(n));
            if (!until.isEmpty() && bytes.contains(until))
                return bytes;
            continue;
        }
        *error = n < 0 ? errno : 0;
        return bytes;
    }
}

/** A PostgreSQL 3.0 startup message for user paddock. */
const QByteArray kStartup = QByteArray::fromHex("0000001600030000") + QByteArray("user\0paddock\0\0", 14);

} // namespace

class TestProxyCapture : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<LocalUpstream> m_upstream;
    std::unique_ptr<ProxyUnderTest> m_proxy;
    ProxyEngine::EndpointId m_unix = 0;

    QString socketPath() const { return m_dir.filePath(QStringLiteral("proxy.sock")); }

    void startProxy(ProxyLimits limits = {})
    {
        m_proxy = std::make_unique<ProxyUnderTest>(limits);
        QVERIFY(m_proxy->start());
        const Result<ProxyEngine::EndpointId> added =
            m_proxy->engine.addUnixEndpoint(socketPath(), {QStringLiteral("box"), QStringLiteral("kit")});
        QVERIFY2(added, qPrintable(added.errorText()));
        m_unix = *added;
        // This test plays paddock-init: its own lines are believed.
        m_proxy->engine.setTrustedClient(m_unix, long(::getpid()));
        for (const char *host : {"raw.test", "db.test", "ssh.test", "web.test", "ask.test"})
            m_proxy->mapToLoopback(QLatin1String(host));
    }

    int dialProxy() const
    {
        const int proxy = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray path = QFile::encodeName(socketPath());
        std::memcpy(address.sun_path, path.constData(), size_t(path.size()) + 1);
        return ::connect(proxy, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 ? proxy : -1;
    }

    /** A connection captured on its way to @p host:@p port, as paddock-init hands it over: the client's end. */
    int captured(const QString &host, quint16 port)
    {
        const SocketPair pair = tcpPair();
        const int proxy = dialProxy();
        paddock::ClientProgram program;
        program.pid = 42;
        program.exe = "/usr/bin/ssh";
        program.args = {"ssh", host.toStdString()};
        const std::string line =
            preamble::encode(program, preamble::Delivery::Attached, {"tcp", host.toStdString(), port});
        preamble::sendAttached(proxy, line, pair.theirs);
        ::close(proxy);
        ::close(pair.theirs);
        return pair.mine;
    }

    void sendAll(int fd, const QByteArray &bytes)
    {
        QCOMPARE(::send(fd, bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL), ssize_t(bytes.size()));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_upstream = std::make_unique<LocalUpstream>();
        QVERIFY(m_upstream->start());
    }
    void cleanup() { m_proxy.reset(); }

    void anAllowedConnectionCarriesAnyProtocol()
    {
        startProxy();
        m_proxy->allowList.allow(QStringLiteral("raw.test"));
        const int client = captured(QStringLiteral("raw.test"), m_upstream->port());
        // Nothing comes from the proxy itself: no "200 Connection established", the client is connected already.
        sendAll(client, "GET /hello.txt HTTP/1.0\r\n\r\n");
        int error = 0;
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        QVERIFY2(answer.startsWith("HTTP/1.0 200"), answer.constData());
        QVERIFY(answer.contains(LocalUpstream::kBody));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("raw.test"), ProxyEvent::Kind::Allowed));
        const ProxyEvent allowed = *m_proxy->log.find(QStringLiteral("raw.test"), ProxyEvent::Kind::Allowed);
        QCOMPARE(protocolName(allowed.protocol), QStringLiteral("tcp"));
        QCOMPARE(allowed.port, m_upstream->port());
        QCOMPARE(allowed.program.exe, std::string("/usr/bin/ssh"));
        // The decision was asked about the name and the port, as for a CONNECT.
        const auto queries = m_proxy->allowList.queries();
        QVERIFY(std::any_of(queries.begin(), queries.end(), [this](const ConnectionQuery &q) {
            return q.host == QLatin1String("raw.test") && q.port == m_upstream->port() && q.protocol == Protocol::Tcp;
        }));
    }

    void aRefusedConnectionIsResetAtOnceAndLogged()
    {
        startProxy();
        const int client = captured(QStringLiteral("raw.test"), m_upstream->port());
        int error = 0;
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        QVERIFY2(answer.isEmpty(), answer.constData());
        QCOMPARE(error, ECONNRESET); // not a timeout, not a quiet end
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("raw.test"), ProxyEvent::Kind::Denied));
        const ProxyEvent denied = *m_proxy->log.find(QStringLiteral("raw.test"), ProxyEvent::Kind::Denied);
        QCOMPARE(protocolName(denied.protocol), QStringLiteral("tcp"));
        QCOMPARE(denied.rule, QStringLiteral("default deny"));
        QCOMPARE(denied.program.exe, std::string("/usr/bin/ssh"));
    }

    void aRefusalSpeaksTheProtocolOfItsPort_data()
    {
        QTest::addColumn<int>("port");
        QTest::addColumn<QByteArray>("start");
        QTest::newRow("ssh") << 22 << QByteArray("SSH-2.0-Paddock\r\n");
        QTest::newRow("postgresql") << 5432 << QByteArray("E");
        QTest::newRow("mysql") << 3306 << QByteArray();
        QTest::newRow("smtp") << 25 << QByteArray("554 5.7.1 Paddock refused");
        QTest::newRow("redis") << 6379 << QByteArray("-ERR Paddock refused");
    }

    void aRefusalSpeaksTheProtocolOfItsPort()
    {
        QFETCH(int, port);
        QFETCH(QByteArray, start);
        startProxy();
        const int client = captured(QStringLiteral("db.test"), quint16(port));
        int error = 0;
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        QVERIFY2(answer.startsWith(start), answer.toPercentEncoding().constData());
        // The reason and the command that allows it, whatever the framing.
        QVERIFY2(answer.contains("Paddock refused the connection to db.test:" + QByteArray::number(port)),
                 answer.constData());
        QVERIFY2(answer.contains("paddock policy allow network db.test"), answer.constData());
        QCOMPARE(error, 0); // said, then closed: the client reads all of it
    }

    void theClientsFirstBytesSayWhatItSpeaks_data()
    {
        QTest::addColumn<QByteArray>("first");
        QTest::addColumn<QByteArray>("start");
        QTest::newRow("ssh on a port of its own")
            << QByteArray("SSH-2.0-OpenSSH_9.2p1\r\n") << QByteArray("SSH-2.0-Paddock\r\n");
        QTest::newRow("postgresql") << kStartup << QByteArray("E");
        QTest::newRow("http") << QByteArray("GET / HTTP/1.1\r\nHost: db.test\r\n\r\n")
                              << QByteArray("HTTP/1.1 403 Forbidden");
        QTest::newRow("redis") << QByteArray("*1\r\n$4\r\nPING\r\n") << QByteArray("-ERR Paddock refused");
        QTest::newRow("tls: nothing it would show") << QByteArray::fromHex("160301002a0100") << QByteArray();
    }

    void theClientsFirstBytesSayWhatItSpeaks()
    {
        QFETCH(QByteArray, first);
        QFETCH(QByteArray, start);
        startProxy();
        const int client = captured(QStringLiteral("db.test"), 40000);
        sendAll(client, first);
        int error = 0;
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        if (start.isEmpty()) {
            QVERIFY2(answer.isEmpty(), answer.constData());
            QCOMPARE(error, ECONNRESET);
            return;
        }
        QVERIFY2(answer.startsWith(start), answer.toPercentEncoding().constData());
        QVERIFY2(answer.contains("db.test:40000") && answer.contains("paddock policy allow network db.test"),
                 answer.constData());
    }

    void postgresqlIsToldNoTlsFirst()
    {
        // libpq asks for TLS first and reads no error before it is told "no" (it would say only
        // "server sent an error response during SSL exchange"); the error answers its startup.
        startProxy();
        const int client = captured(QStringLiteral("db.test"), 40001);
        sendAll(client, QByteArray::fromHex("0000000804d2162f")); // SSLRequest
        int error = 0;
        QCOMPARE(readFrom(client, &error, "N"), QByteArray("N"));
        sendAll(client, kStartup);
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        QVERIFY2(answer.startsWith("E") && answer.contains("FATAL") && answer.contains("28000"),
                 answer.toPercentEncoding().constData());
        QVERIFY2(answer.contains("Paddock refused the connection to db.test:40001"), answer.constData());
    }

    void aCapturedHttpPortIsDecidedRequestByRequest()
    {
        ProxyLimits limits;
        limits.plainHttpPorts = {m_upstream->port()};
        startProxy(limits);
        m_proxy->allowList.allow(QStringLiteral("web.test"));
        const int client = captured(QStringLiteral("web.test"), m_upstream->port());
        const QByteArray host = "web.test:" + QByteArray::number(m_upstream->port());
        sendAll(client, "GET /hello.txt?token=secret HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
        int error = 0;
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        QVERIFY2(answer.startsWith("HTTP/1.1 200") || answer.startsWith("HTTP/1.0 200"), answer.constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("web.test"), ProxyEvent::Kind::Request));
        const ProxyEvent request = *m_proxy->log.find(QStringLiteral("web.test"), ProxyEvent::Kind::Request);
        QCOMPARE(request.method, QStringLiteral("GET"));
        QCOMPARE(request.path, QStringLiteral("/hello.txt?…"));
        QCOMPARE(request.status, 200);
        QCOMPARE(protocolName(request.protocol), QStringLiteral("http"));
        // A Host naming another server than the one connected to is refused.
        const int other = captured(QStringLiteral("web.test"), m_upstream->port());
        sendAll(other, "GET /hello.txt HTTP/1.1\r\nHost: raw.test\r\n\r\n");
        const QByteArray refused = readFrom(other, &error, "\r\n\r\n");
        ::close(other);
        QVERIFY2(refused.startsWith("HTTP/1.1 400"), refused.constData());
    }

    void aRefusedHttpRequestGetsA403()
    {
        ProxyLimits limits;
        limits.plainHttpPorts = {m_upstream->port()};
        startProxy(limits);
        const int client = captured(QStringLiteral("web.test"), m_upstream->port());
        sendAll(client,
                "GET /hello.txt HTTP/1.1\r\nHost: web.test:" + QByteArray::number(m_upstream->port()) + "\r\n\r\n");
        int error = 0;
        const QByteArray answer = readFrom(client, &error, "\r\n\r\n");
        ::close(client);
        QVERIFY2(answer.startsWith("HTTP/1.1 403"), answer.constData());
        QCOMPARE(headerValue(answer, "X-Paddock-Rule"), QByteArray("default deny"));
    }

    void heldWhileAPersonDecides()
    {
        startProxy();
        m_proxy->allowList.ask(QStringLiteral("ask.test"));
        const int client = captured(QStringLiteral("ask.test"), m_upstream->port());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("ask.test"), ProxyEvent::Kind::Held));
        const ProxyEvent held = *m_proxy->log.find(QStringLiteral("ask.test"), ProxyEvent::Kind::Held);
        QCOMPARE(protocolName(held.protocol), QStringLiteral("tcp"));
        m_proxy->engine.answer({held.connection}, HoldAnswer{true, QStringLiteral("allowed once"), {}, {}});
        sendAll(client, "GET /hello.txt HTTP/1.0\r\n\r\n");
        int error = 0;
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        QVERIFY2(answer.contains(LocalUpstream::kBody), answer.constData());
    }

    void thisComputerIsReachedByItsName()
    {
        startProxy();
        m_proxy->allowList.allow(QStringLiteral("host.paddock.internal"));
        const int client = captured(QStringLiteral("host.paddock.internal"), m_upstream->port());
        sendAll(client, "GET /hello.txt HTTP/1.0\r\n\r\n");
        int error = 0;
        const QByteArray answer = readFrom(client, &error);
        ::close(client);
        QVERIFY2(answer.contains(LocalUpstream::kBody), answer.constData());
    }

    void reportsOfRefusedDatagramsNameTheProgramFromPaddockInitOnly()
    {
        startProxy();
        const auto report = [this](const std::string &host) {
            const int proxy = dialProxy();
            paddock::ClientProgram program;
            program.pid = 7;
            program.exe = "/usr/bin/dig";
            const std::string line = preamble::encode(program, preamble::Delivery::Report, {"udp", host, 123});
            ::send(proxy, line.data(), line.size(), MSG_NOSIGNAL);
            int error = 0;
            readFrom(proxy, &error); // the proxy closes once it has read the line
            ::close(proxy);
        };
        report("time.test");
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("time.test"), ProxyEvent::Kind::Denied));
        const ProxyEvent denied = *m_proxy->log.find(QStringLiteral("time.test"), ProxyEvent::Kind::Denied);
        QCOMPARE(protocolName(denied.protocol), QStringLiteral("udp"));
        QCOMPARE(denied.port, quint16(123));
        QCOMPARE(denied.rule, QStringLiteral("capture"));
        QVERIFY2(denied.reason.contains(QLatin1String("only TCP leaves a sandbox")), qPrintable(denied.reason));
        QCOMPARE(denied.program.exe, std::string("/usr/bin/dig"));
        // From any other process the report is recorded (anyone inside could cause the same by
        // trying), but the program it claims is not believed.
        m_proxy->engine.setTrustedClient(m_unix, 1);
        report("forged.test");
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("forged.test"), ProxyEvent::Kind::Denied));
        const ProxyEvent forged = *m_proxy->log.find(QStringLiteral("forged.test"), ProxyEvent::Kind::Denied);
        QVERIFY(!forged.program.known());
        QCOMPARE(protocolName(forged.protocol), QStringLiteral("udp"));
    }
};

QTEST_GUILESS_MAIN(TestProxyCapture)
#include "tst_proxy_capture.moc"
