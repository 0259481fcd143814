// SPDX-License-Identifier: GPL-3.0-or-later
// Plain HTTP through the proxy with real curl and wget against a local python http.server:
// absolute-form forwarding, refusals a person can act on, keep-alive decided per request.
#include "ProxyTestSupport.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

using namespace paddock::proxy;
using namespace paddock::proxy::testing;

class TestProxyHttp : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_site;
    std::unique_ptr<LocalUpstream> m_upstream;
    std::unique_ptr<ProxyUnderTest> m_proxy;

    QString target(const QString &host, const QString &path = QStringLiteral("/hello.txt")) const
    {
        return QStringLiteral("http://%1:%2%3").arg(host).arg(m_upstream->port()).arg(path);
    }
    RunResult curl(QStringList arguments) const
    {
        arguments.prepend(QStringLiteral("-q"));
        arguments << QStringLiteral("--silent") << QStringLiteral("--show-error") << QStringLiteral("--max-time")
                  << QStringLiteral("30") << QStringLiteral("--proxy") << m_proxy->url();
        return run(QStringLiteral("curl"), arguments, m_home.path());
    }

private slots:
    void initTestCase()
    {
        QFile file(m_site.filePath(QStringLiteral("hello.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("hello from upstream\n");
        file.close();
        m_upstream = std::make_unique<LocalUpstream>();
        QVERIFY(m_upstream->start(m_site.path()));
    }

    void init()
    {
        m_proxy = std::make_unique<ProxyUnderTest>();
        QVERIFY(m_proxy->start());
        m_proxy->mapToLoopback(QStringLiteral("allowed.test"));
        m_proxy->mapToLoopback(QStringLiteral("other.test"));
        m_proxy->allowList.allow(QStringLiteral("allowed.test"));
    }

    void cleanup() { m_proxy.reset(); }

    void allowedRequestReachesTheUpstream()
    {
        const RunResult result = curl({target(QStringLiteral("allowed.test"))});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("hello from upstream\n"));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("allowed.test"), ProxyEvent::Kind::Allowed));
        const ProxyEvent event = *m_proxy->log.find(QStringLiteral("allowed.test"), ProxyEvent::Kind::Allowed);
        QCOMPARE(event.sandbox, QStringLiteral("web"));
        QCOMPARE(event.kit, QStringLiteral("node"));
        QCOMPARE(event.protocol, Protocol::Http);
        QCOMPARE(event.port, m_upstream->port());
    }

    void theDeciderSeesTheResolvedAddresses()
    {
        QCOMPARE(curl({target(QStringLiteral("allowed.test"))}).exitCode, 0);
        const std::vector<ConnectionQuery> queries = m_proxy->allowList.queries();
        QCOMPARE(queries.size(), std::size_t(2)); // once by name, once with the addresses
        QVERIFY(queries[0].addresses.empty());
        QCOMPARE(queries[1].addresses.size(), std::size_t(1));
        QCOMPARE(queries[1].addresses[0], QHostAddress(QHostAddress::LocalHost));
        QCOMPARE(queries[1].sandbox, QStringLiteral("web"));
    }

    void deniedRequestGets403WithReasonAndFix()
    {
        const RunResult result = curl({QStringLiteral("--include"), target(QStringLiteral("other.test"))});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.startsWith("HTTP/1.1 403"), result.out.constData());
        QCOMPARE(headerValue(result.out, "X-Paddock-Reason"), QByteArray("other.test is not in the allowlist"));
        const QByteArray body = result.out.mid(result.out.indexOf("\r\n\r\n") + 4);
        QVERIFY2(body.contains("Rule: default deny"), body.constData());
        QVERIFY2(body.contains("paddock policy allow network other.test --sandbox web"), body.constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("other.test"), ProxyEvent::Kind::Denied));
        // A refused name is never looked up: only the by-name question was asked.
        QCOMPARE(m_proxy->allowList.queries().size(), std::size_t(1));
    }

    void wgetThroughTheProxy()
    {
        const QString out = m_home.filePath(QStringLiteral("wget.txt"));
        RunResult result = run(QStringLiteral("wget"),
                               {QStringLiteral("--no-config"), QStringLiteral("-q"), QStringLiteral("-e"),
                                QStringLiteral("use_proxy=yes"), QStringLiteral("-e"),
                                QStringLiteral("http_proxy=%1").arg(m_proxy->url()), QStringLiteral("-O"), out,
                                target(QStringLiteral("allowed.test"))},
                               m_home.path());
        QCOMPARE(result.exitCode, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("hello from upstream\n"));

        result = run(QStringLiteral("wget"),
                     {QStringLiteral("--no-config"), QStringLiteral("-e"), QStringLiteral("use_proxy=yes"),
                      QStringLiteral("-e"), QStringLiteral("http_proxy=%1").arg(m_proxy->url()), QStringLiteral("-O"),
                      out, target(QStringLiteral("other.test"))},
                     m_home.path());
        QCOMPARE(result.exitCode, 8); // server issued an error response
        QVERIFY2(result.err.contains("403"), result.err.constData());
    }

    void hostHeaderMustMatchTheUri()
    {
        const RunResult result = curl({QStringLiteral("--include"), QStringLiteral("-H"),
                                       QStringLiteral("Host: other.test"), target(QStringLiteral("allowed.test"))});
        QVERIFY2(result.out.startsWith("HTTP/1.1 400"), result.out.constData());
        QVERIFY(headerValue(result.out, "X-Paddock-Reason").contains("Host header"));
    }

    void oversizedHeadIsRefused()
    {
        const QString big = QStringLiteral("X-Big: ") + QString(20000, QLatin1Char('a'));
        const RunResult result =
            curl({QStringLiteral("--include"), QStringLiteral("-H"), big, target(QStringLiteral("allowed.test"))});
        QVERIFY2(result.out.startsWith("HTTP/1.1 431"), result.out.left(200).constData());
    }

    void refusedUpstreamIs502()
    {
        const quint16 closedPort = freePort();
        const RunResult result =
            curl({QStringLiteral("--include"), QStringLiteral("http://allowed.test:%1/").arg(closedPort)});
        QVERIFY2(result.out.startsWith("HTTP/1.1 502"), result.out.constData());
        QVERIFY(headerValue(result.out, "X-Paddock-Reason").contains("Connection refused"));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("allowed.test"), ProxyEvent::Kind::UpstreamFailed));
    }

    void upstreamThatClosesWithoutAnswerIs502()
    {
        const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        QCOMPARE(::listen(listener, 4), 0);
        socklen_t length = sizeof address;
        ::getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length);
        std::thread hangUp([listener] {
            const int fd = ::accept(listener, nullptr, nullptr);
            char buffer[4096];
            if (fd >= 0 && ::recv(fd, buffer, sizeof buffer, 0) > 0) // the request head, then nothing
                ::close(fd);
        });
        const RunResult result =
            curl({QStringLiteral("--include"), QStringLiteral("http://allowed.test:%1/").arg(ntohs(address.sin_port))});
        hangUp.join();
        ::close(listener);
        QVERIFY2(result.out.startsWith("HTTP/1.1 502"), result.out.constData());
        QVERIFY(headerValue(result.out, "X-Paddock-Reason").contains("without a response"));
    }

    void eachRequestOnAKeptAliveConnectionIsDecided()
    {
        // curl reuses its proxy connection for both URLs; the second host is decided again.
        const RunResult result =
            curl({QStringLiteral("--write-out"), QStringLiteral("%{http_code} %{num_connects}\n"), QStringLiteral("-o"),
                  QStringLiteral("/dev/null"), target(QStringLiteral("allowed.test")), QStringLiteral("-o"),
                  QStringLiteral("/dev/null"), target(QStringLiteral("other.test"))});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("200 1\n403 0\n"));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("other.test"), ProxyEvent::Kind::Denied));
    }

    void aDeciderChangeAppliesToTheNextRequest()
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port);
        QVERIFY(socket.waitForConnected(5000));
        const QByteArray request = QStringLiteral("GET %1 HTTP/1.1\r\nHost: allowed.test:%2\r\n\r\n")
                                       .arg(target(QStringLiteral("allowed.test")))
                                       .arg(m_upstream->port())
                                       .toUtf8();
        const auto exchange = [&]() {
            socket.write(request);
            QByteArray response;
            // The body is short: wait for the head and a complete body.
            while (!response.contains("\r\n\r\n") || response.size() - response.indexOf("\r\n\r\n") - 4 <
                                                         headerValue(response, "Content-Length").toInt()) {
                if (!socket.waitForReadyRead(10000))
                    break;
                response += socket.readAll();
            }
            return response;
        };
        QVERIFY(exchange().startsWith("HTTP/1.0 200"));
        m_proxy->allowList.revoke(QStringLiteral("allowed.test"));
        const QByteArray second = exchange();
        QVERIFY2(second.startsWith("HTTP/1.1 403"), second.constData());
    }

    void requestBodiesAreForwardedOnAKeptAliveConnection()
    {
        // An upstream that answers a POST with the body it received.
        const quint16 port = freePort();
        QProcess echo;
        echo.setProcessEnvironment(isolatedEnvironment(m_home.path()));
        echo.start(QStringLiteral("python3"),
                   {QStringLiteral("-c"),
                    QStringLiteral("import http.server as h\n"
                                   "class E(h.BaseHTTPRequestHandler):\n"
                                   "    def do_POST(self):\n"
                                   "        body = self.rfile.read(int(self.headers['Content-Length']))\n"
                                   "        self.send_response(200)\n"
                                   "        self.send_header('Content-Length', str(len(body)))\n"
                                   "        self.end_headers()\n"
                                   "        self.wfile.write(body)\n"
                                   "h.HTTPServer(('127.0.0.1', %1), E).serve_forever()\n")
                        .arg(port)});
        QVERIFY(echo.waitForStarted());
        QVERIFY(waitForListener(port));
        QByteArray body;
        for (int i = 0; i < 20000; ++i)
            body += QByteArray::number(i) + ',';
        QFile file(m_home.filePath(QStringLiteral("body.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(body);
        file.close();
        const QString url = QStringLiteral("http://allowed.test:%1/echo").arg(port);
        const RunResult result = curl({QStringLiteral("--data-binary"), QStringLiteral("@") + file.fileName(),
                                       QStringLiteral("-H"), QStringLiteral("Expect:"), QStringLiteral("--write-out"),
                                       QStringLiteral("|%{num_connects}|"), url, url});
        echo.kill();
        echo.waitForFinished();
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out.size(), 2 * body.size() + 6);
        QCOMPARE(result.out, body + "|1|" + body + "|0|");
    }

    void slowHeadsAndIdleTunnelsAreClosed()
    {
        ProxyLimits limits;
        limits.headerTimeout = std::chrono::milliseconds(300);
        limits.idleTimeout = std::chrono::milliseconds(300);
        ProxyUnderTest proxy(limits);
        QVERIFY(proxy.start());
        proxy.mapToLoopback(QStringLiteral("allowed.test"));
        proxy.allowList.allow(QStringLiteral("allowed.test"));

        QTcpSocket slow;
        slow.connectToHost(QHostAddress::LocalHost, proxy.port);
        QVERIFY(slow.waitForConnected(5000));
        slow.write("GET http://allowed.test/ HTTP/1.1\r\n"); // and never the rest
        QByteArray answer;
        while (slow.waitForReadyRead(10000))
            answer += slow.readAll();
        QVERIFY2(answer.startsWith("HTTP/1.1 408"), answer.constData());

        QTcpSocket idle;
        idle.connectToHost(QHostAddress::LocalHost, proxy.port);
        QVERIFY(idle.waitForConnected(5000));
        idle.write(QStringLiteral("CONNECT allowed.test:%1 HTTP/1.1\r\n\r\n").arg(m_upstream->port()).toUtf8());
        QVERIFY(idle.waitForReadyRead(5000));
        QCOMPARE(idle.readAll(), QByteArray("HTTP/1.1 200 Connection established\r\n\r\n"));
        QVERIFY(idle.waitForDisconnected(10000)); // nothing either way: the tunnel is closed
        QTRY_VERIFY(proxy.log.find(QStringLiteral("allowed.test"), ProxyEvent::Kind::Closed));
    }

    void stopClosesEverything()
    {
        QTcpSocket idle;
        idle.connectToHost(QHostAddress::LocalHost, m_proxy->port);
        QVERIFY(idle.waitForConnected(5000));
        QTRY_COMPARE(m_proxy->engine.connectionCount(), 1);
        m_proxy->engine.stop();
        QVERIFY(!m_proxy->engine.isRunning());
        QVERIFY(idle.waitForDisconnected(5000) || idle.state() == QAbstractSocket::UnconnectedState);
    }
};

QTEST_GUILESS_MAIN(TestProxyHttp)
#include "tst_proxy_http.moc"
