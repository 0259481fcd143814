// SPDX-License-Identifier: GPL-3.0-or-later
// CONNECT tunnels with real curl (and git) against local TLS servers: allowed and refused
// tunnels, the SNI check, upstream failures, and a sandbox's own unix-socket endpoint.
#include "ProxyTestSupport.h"

#include <QLocalSocket>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace paddock::proxy;
using paddock::Result;
using namespace paddock::proxy::testing;

class TestProxyConnect : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_site;
    quint16 m_tlsPort = 0;
    QProcess m_tlsServer;
    std::unique_ptr<LocalUpstream> m_http;
    std::unique_ptr<ProxyUnderTest> m_proxy;

    QString file(const QString &name) const { return m_home.filePath(name); }

    bool openssl(const QStringList &arguments)
    {
        const RunResult result = run(QStringLiteral("openssl"), arguments, m_home.path());
        if (result.exitCode != 0)
            qWarning() << result.err;
        return result.exitCode == 0;
    }

    RunResult curl(QStringList arguments) const
    {
        arguments.prepend(QStringLiteral("-q"));
        arguments << QStringLiteral("--silent") << QStringLiteral("--show-error") << QStringLiteral("--max-time")
                  << QStringLiteral("30") << QStringLiteral("--cacert") << file(QStringLiteral("ca.pem"))
                  << QStringLiteral("--proxy") << m_proxy->url();
        return run(QStringLiteral("curl"), arguments, m_home.path());
    }

    QString https(const QString &host) const { return QStringLiteral("https://%1:%2/").arg(host).arg(m_tlsPort); }

    /** Sends @p request on a fresh connection and returns everything until the proxy closes. */
    QByteArray rawExchange(const QByteArray &request) const
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_proxy->port);
        if (!socket.waitForConnected(5000))
            return {};
        socket.write(request);
        QByteArray response;
        while (socket.waitForReadyRead(10000))
            response += socket.readAll();
        return response + socket.readAll();
    }

private slots:
    void initTestCase()
    {
        // A private CA and a server certificate valid for tls.test and evil.test.
        QFile extensions(file(QStringLiteral("san.cnf")));
        QVERIFY(extensions.open(QIODevice::WriteOnly));
        extensions.write("subjectAltName=DNS:tls.test,DNS:evil.test\n");
        extensions.close();
        const QString ec = QStringLiteral("ec");
        QVERIFY(openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), ec,
                         QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                         QStringLiteral("-nodes"), QStringLiteral("-keyout"), file(QStringLiteral("ca.key")),
                         QStringLiteral("-out"), file(QStringLiteral("ca.pem")), QStringLiteral("-days"),
                         QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=Paddock Test CA")}));
        QVERIFY(openssl({QStringLiteral("req"), QStringLiteral("-newkey"), ec, QStringLiteral("-pkeyopt"),
                         QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                         QStringLiteral("-keyout"), file(QStringLiteral("server.key")), QStringLiteral("-out"),
                         file(QStringLiteral("server.csr")), QStringLiteral("-subj"), QStringLiteral("/CN=tls.test")}));
        QVERIFY(openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                         file(QStringLiteral("server.csr")), QStringLiteral("-CA"), file(QStringLiteral("ca.pem")),
                         QStringLiteral("-CAkey"), file(QStringLiteral("ca.key")), QStringLiteral("-CAcreateserial"),
                         QStringLiteral("-out"), file(QStringLiteral("server.pem")), QStringLiteral("-days"),
                         QStringLiteral("2"), QStringLiteral("-extfile"), file(QStringLiteral("san.cnf"))}));
        m_tlsPort = freePort();
        m_tlsServer.setProcessEnvironment(isolatedEnvironment(m_home.path()));
        m_tlsServer.start(QStringLiteral("openssl"),
                          {QStringLiteral("s_server"), QStringLiteral("-accept"),
                           QStringLiteral("127.0.0.1:%1").arg(m_tlsPort), QStringLiteral("-cert"),
                           file(QStringLiteral("server.pem")), QStringLiteral("-key"),
                           file(QStringLiteral("server.key")), QStringLiteral("-www"), QStringLiteral("-quiet")});
        QVERIFY(m_tlsServer.waitForStarted());
        QVERIFY(waitForListener(m_tlsPort));

        QFile page(m_site.filePath(QStringLiteral("plain.txt")));
        QVERIFY(page.open(QIODevice::WriteOnly));
        page.write("plain text over a tunnel\n");
        page.close();
        m_http = std::make_unique<LocalUpstream>();
        QVERIFY(m_http->start(m_site.path()));
    }

    void cleanupTestCase()
    {
        m_tlsServer.kill();
        m_tlsServer.waitForFinished();
    }

    void init()
    {
        ProxyLimits limits;
        limits.connectTimeout = std::chrono::milliseconds(1500);
        limits.sniCheckedPorts = {443, m_tlsPort, m_http->port()};
        m_proxy = std::make_unique<ProxyUnderTest>(limits);
        QVERIFY(m_proxy->start());
        for (const char *host : {"tls.test", "evil.test", "denied.test", "plain.test"})
            m_proxy->mapToLoopback(QString::fromLatin1(host));
        m_proxy->allowList.allow(QStringLiteral("tls.test"));
        m_proxy->allowList.allow(QStringLiteral("plain.test"));
    }

    void cleanup() { m_proxy.reset(); }

    void allowedTunnelCarriesTls()
    {
        const RunResult result = curl({https(QStringLiteral("tls.test"))});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.out.contains("s_server"), result.out.left(300).constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("tls.test"), ProxyEvent::Kind::Closed));
        const ProxyEvent closed = *m_proxy->log.find(QStringLiteral("tls.test"), ProxyEvent::Kind::Closed);
        QCOMPARE(closed.protocol, Protocol::Connect);
        QVERIFY(closed.bytesUp > 0);
        QVERIFY(closed.bytesDown > quint64(result.out.size()));
    }

    void gitClonesOverHttpsThroughTheTunnel()
    {
        // A bare repository served over HTTPS (git's plain HTTP protocol) by a small Python
        // server with the test certificate; git reaches it only through the proxy.
        QTemporaryDir site;
        const QString home = m_home.path();
        const QString source = site.filePath(QStringLiteral("source"));
        const QString git = QStringLiteral("git");
        QCOMPARE(run(git, {QStringLiteral("init"), QStringLiteral("-q"), source}, home).exitCode, 0);
        QFile readme(source + QStringLiteral("/README"));
        QVERIFY(readme.open(QIODevice::WriteOnly));
        readme.write("cloned through the proxy\n");
        readme.close();
        QCOMPARE(
            run(git, {QStringLiteral("-C"), source, QStringLiteral("add"), QStringLiteral("README")}, home).exitCode,
            0);
        QCOMPARE(run(git,
                     {QStringLiteral("-C"), source, QStringLiteral("-c"), QStringLiteral("user.name=Test"),
                      QStringLiteral("-c"), QStringLiteral("user.email=test@example.test"), QStringLiteral("commit"),
                      QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("first")},
                     home)
                     .exitCode,
                 0);
        const QString bare = site.filePath(QStringLiteral("www/repo.git"));
        QCOMPARE(run(git, {QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--bare"), source, bare}, home)
                     .exitCode,
                 0);
        QCOMPARE(run(git, {QStringLiteral("-C"), bare, QStringLiteral("update-server-info")}, home).exitCode, 0);

        const quint16 port = freePort();
        QProcess server;
        server.setProcessEnvironment(isolatedEnvironment(home));
        server.start(
            QStringLiteral("python3"),
            {QStringLiteral("-c"),
             QStringLiteral("import functools, http.server, ssl, sys\n"
                            "handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[2])\n"
                            "httpd = http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), handler)\n"
                            "context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)\n"
                            "context.load_cert_chain(sys.argv[3], sys.argv[4])\n"
                            "httpd.socket = context.wrap_socket(httpd.socket, server_side=True)\n"
                            "httpd.serve_forever()\n"),
             QString::number(port), site.filePath(QStringLiteral("www")), file(QStringLiteral("server.pem")),
             file(QStringLiteral("server.key"))});
        QVERIFY(server.waitForStarted());
        QVERIFY(waitForListener(port));
        auto clone = [&](const QString &host, const QString &into) {
            // GIT_SSL_CAINFO is how a sandbox tells git which authorities to trust.
            return run(QStringLiteral("env"),
                       {QStringLiteral("GIT_SSL_CAINFO=%1").arg(file(QStringLiteral("ca.pem"))), git,
                        QStringLiteral("-c"), QStringLiteral("http.proxy=%1").arg(m_proxy->url()),
                        QStringLiteral("clone"), QStringLiteral("-q"),
                        QStringLiteral("https://%1:%2/repo.git").arg(host).arg(port), into},
                       home);
        };

        const QString cloned = site.filePath(QStringLiteral("cloned"));
        const RunResult allowed = clone(QStringLiteral("tls.test"), cloned);
        QVERIFY2(allowed.exitCode == 0, allowed.err.constData());
        QFile copy(cloned + QStringLiteral("/README"));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("cloned through the proxy\n"));

        const RunResult denied = clone(QStringLiteral("denied.test"), site.filePath(QStringLiteral("refused")));
        QVERIFY(denied.exitCode != 0);
        QVERIFY2(denied.err.contains("403"), denied.err.constData());
        QVERIFY(!QFile::exists(site.filePath(QStringLiteral("refused/README"))));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("denied.test"), ProxyEvent::Kind::Denied));

        server.kill();
        server.waitForFinished();
    }

    void deniedTunnelGets403WithReason()
    {
        const RunResult result = curl({QStringLiteral("--verbose"), https(QStringLiteral("denied.test"))});
        QCOMPARE(result.exitCode, 56); // curl: CONNECT refused by the proxy
        QVERIFY2(result.err.contains("< HTTP/1.1 403 Forbidden"), result.err.constData());
        QVERIFY2(result.err.contains("< X-Paddock-Reason: denied.test is not in the allowlist"),
                 result.err.constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("denied.test"), ProxyEvent::Kind::Denied));
        const ProxyEvent event = *m_proxy->log.find(QStringLiteral("denied.test"), ProxyEvent::Kind::Denied);
        QCOMPARE(event.rule, QStringLiteral("default deny"));
        QCOMPARE(event.port, m_tlsPort);

        const QByteArray raw = rawExchange(
            QStringLiteral("CONNECT denied.test:%1 HTTP/1.1\r\nHost: denied.test:%1\r\n\r\n").arg(m_tlsPort).toUtf8());
        QVERIFY2(raw.startsWith("HTTP/1.1 403"), raw.constData());
        QVERIFY2(raw.contains("To allow it: paddock policy allow network denied.test --sandbox web"), raw.constData());
    }

    void sniNamingAnotherHostIsRefused()
    {
        // The tunnel is opened to tls.test (allowed), the ClientHello names evil.test.
        const RunResult result =
            curl({QStringLiteral("--connect-to"), QStringLiteral("evil.test:%1:tls.test:%1").arg(m_tlsPort),
                  https(QStringLiteral("evil.test"))});
        QVERIFY(result.exitCode != 0);
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("tls.test"), ProxyEvent::Kind::Denied));
        const ProxyEvent event = *m_proxy->log.find(QStringLiteral("tls.test"), ProxyEvent::Kind::Denied);
        QVERIFY2(event.reason.startsWith(QStringLiteral("SNI mismatch")), qPrintable(event.reason));
        QVERIFY(event.reason.contains(QStringLiteral("evil.test")));
    }

    void nonTlsOnACheckedPortProceeds()
    {
        const QByteArray raw =
            rawExchange(QStringLiteral("CONNECT plain.test:%1 HTTP/1.1\r\n\r\nGET /plain.txt HTTP/1.0\r\n\r\n")
                            .arg(m_http->port())
                            .toUtf8());
        QVERIFY2(raw.startsWith("HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.0 200"), raw.constData());
        QVERIFY(raw.endsWith("plain text over a tunnel\n"));
    }

    void refusedUpstreamIs502()
    {
        const quint16 closed = freePort();
        const RunResult result =
            curl({QStringLiteral("--verbose"), QStringLiteral("https://tls.test:%1/").arg(closed)});
        QVERIFY(result.exitCode != 0);
        QVERIFY2(result.err.contains("< HTTP/1.1 502 Bad Gateway"), result.err.constData());
        QVERIFY2(result.err.contains("Connection refused"), result.err.constData());
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("tls.test"), ProxyEvent::Kind::UpstreamFailed));
    }

    void silentUpstreamIs504()
    {
        // A listener whose accept queue is full drops new SYNs: the connect never completes.
        const int blackhole = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(blackhole, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        QCOMPARE(::listen(blackhole, 0), 0);
        socklen_t length = sizeof address;
        ::getsockname(blackhole, reinterpret_cast<sockaddr *>(&address), &length);
        std::vector<int> fillers;
        for (int i = 0; i < 4; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
            fillers.push_back(fd);
        }
        const QByteArray raw =
            rawExchange(QStringLiteral("CONNECT tls.test:%1 HTTP/1.1\r\n\r\n").arg(ntohs(address.sin_port)).toUtf8());
        for (const int fd : fillers)
            ::close(fd);
        ::close(blackhole);
        QVERIFY2(raw.startsWith("HTTP/1.1 504 Gateway Timeout"), raw.constData());
        QVERIFY(headerValue(raw, "X-Paddock-Reason").contains("did not answer within 1500 ms"));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("tls.test"), ProxyEvent::Kind::UpstreamFailed));
    }

    void tunnelOpenWhenItsHostIsRevokedIsClosed()
    {
        // A tunnel to plain.test, whose upstream waits for a request: open until the host is
        // revoked and the engine asked to decide again.
        QTcpSocket tunnel;
        tunnel.connectToHost(QHostAddress::LocalHost, m_proxy->port);
        QVERIFY(tunnel.waitForConnected(5000));
        tunnel.write(QStringLiteral("CONNECT plain.test:%1 HTTP/1.1\r\nHost: plain.test:%1\r\n\r\n")
                         .arg(m_http->port())
                         .toLatin1());
        QVERIFY(tunnel.waitForReadyRead(5000));
        QVERIFY(tunnel.readAll().startsWith("HTTP/1.1 200"));
        m_proxy->engine.recheck(); // still allowed: nothing happens
        QVERIFY(!tunnel.waitForDisconnected(1000));
        m_proxy->allowList.revoke(QStringLiteral("plain.test"));
        m_proxy->engine.recheck();
        QVERIFY(tunnel.state() == QAbstractSocket::UnconnectedState || tunnel.waitForDisconnected(5000));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("plain.test"), ProxyEvent::Kind::Denied));
        const ProxyEvent denied = *m_proxy->log.find(QStringLiteral("plain.test"), ProxyEvent::Kind::Denied);
        QVERIFY2(denied.reason.startsWith(QLatin1String("closed when the policy changed")), qPrintable(denied.reason));
    }

    void unixEndpointNamesItsSandbox()
    {
        const QString runtime = m_home.filePath(QStringLiteral("runtime/paddock"));
        QVERIFY(QDir().mkpath(runtime));
        const QString path = runtime + QStringLiteral("/proxy-unixbox.sock");
        const Result<ProxyEngine::EndpointId> added =
            m_proxy->engine.addUnixEndpoint(path, {QStringLiteral("unixbox"), QStringLiteral("python")});
        QVERIFY2(added, qPrintable(added.errorText()));
        const ProxyEngine::EndpointId id = *added;
        struct stat info
        {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0600));

        QLocalSocket denied;
        denied.connectToServer(path);
        QVERIFY(denied.waitForConnected(5000));
        denied.write("CONNECT denied.test:443 HTTP/1.1\r\n\r\n");
        QVERIFY(denied.waitForReadyRead(5000));
        QVERIFY(denied.readAll().startsWith("HTTP/1.1 403"));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("denied.test"), ProxyEvent::Kind::Denied));
        const ProxyEvent event = *m_proxy->log.find(QStringLiteral("denied.test"), ProxyEvent::Kind::Denied);
        QCOMPARE(event.sandbox, QStringLiteral("unixbox"));
        QCOMPARE(event.kit, QStringLiteral("python"));

        QLocalSocket tunnel;
        tunnel.connectToServer(path);
        QVERIFY(tunnel.waitForConnected(5000));
        tunnel.write(QStringLiteral("CONNECT plain.test:%1 HTTP/1.1\r\n\r\n").arg(m_http->port()).toUtf8());
        QVERIFY(tunnel.waitForReadyRead(5000));
        QCOMPARE(tunnel.readAll(), QByteArray("HTTP/1.1 200 Connection established\r\n\r\n"));
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("plain.test"), ProxyEvent::Kind::Allowed));
        QCOMPARE(m_proxy->log.find(QStringLiteral("plain.test"), ProxyEvent::Kind::Allowed)->sandbox,
                 QStringLiteral("unixbox"));

        // Removing the endpoint closes its open tunnel and its socket file.
        QVERIFY(m_proxy->engine.removeEndpoint(id));
        QVERIFY(!QFile::exists(path));
        QTRY_COMPARE(tunnel.state(), QLocalSocket::UnconnectedState);
    }
};

QTEST_GUILESS_MAIN(TestProxyConnect)
#include "tst_proxy_connect.moc"
