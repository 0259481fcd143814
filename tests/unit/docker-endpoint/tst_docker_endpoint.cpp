// SPDX-License-Identifier: GPL-3.0-or-later
// DOCKER_HOST and the TLS variables read the way the docker CLI reads them.
#include "runtime/docker/DockerEndpoint.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace paddock::runtime::docker;

class TestDockerEndpoint : public QObject
{
    Q_OBJECT

private:
    static QProcessEnvironment environment(const QList<std::pair<QString, QString>> &values)
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), QStringLiteral("/nonexistent-home"));
        for (const auto &[key, value] : values)
            env.insert(key, value);
        return env;
    }

private slots:
    void defaultsToTheSystemSocket()
    {
        const Result<Endpoint> endpoint = Endpoint::fromEnvironment(environment({}));
        QVERIFY(endpoint.ok());
        QCOMPARE(endpoint.value().kind, Endpoint::Kind::Unix);
        QCOMPARE(endpoint.value().socketPath, QStringLiteral("/var/run/docker.sock"));
        QCOMPARE(endpoint.value().display(), QStringLiteral("unix:///var/run/docker.sock"));
        QCOMPARE(endpoint.value().baseUrl(), QByteArray("http://localhost"));
    }

    void readsAUnixSocketPath()
    {
        const Result<Endpoint> endpoint = Endpoint::fromEnvironment(
            environment({{QStringLiteral("DOCKER_HOST"), QStringLiteral("unix:///run/user/1000/podman/podman.sock")}}));
        QVERIFY(endpoint.ok());
        QCOMPARE(endpoint.value().kind, Endpoint::Kind::Unix);
        QCOMPARE(endpoint.value().socketPath, QStringLiteral("/run/user/1000/podman/podman.sock"));
        QCOMPARE(Endpoint::parse(QStringLiteral("unix://")).value().socketPath, QStringLiteral("/var/run/docker.sock"));
    }

    void readsTcpHostAndPort()
    {
        const Result<Endpoint> endpoint = Endpoint::parse(QStringLiteral("tcp://192.0.2.7:12375"), environment({}));
        QVERIFY(endpoint.ok());
        QCOMPARE(endpoint.value().kind, Endpoint::Kind::Tcp);
        QCOMPARE(endpoint.value().host, QStringLiteral("192.0.2.7"));
        QCOMPARE(endpoint.value().port, 12375);
        QVERIFY(!endpoint.value().tls);
        QCOMPARE(endpoint.value().baseUrl(), QByteArray("http://192.0.2.7:12375"));
        QCOMPARE(endpoint.value().display(), QStringLiteral("tcp://192.0.2.7:12375"));
    }

    void tcpDefaultsAreTheClis()
    {
        // "tcp://" alone: localhost on the plain port; with TLS on the TLS port.
        Result<Endpoint> endpoint = Endpoint::parse(QStringLiteral("tcp://"), environment({}));
        QVERIFY2(endpoint.ok(), qPrintable(endpoint.errorMessage()));
        QCOMPARE(endpoint.value().host, QStringLiteral("localhost"));
        QCOMPARE(endpoint.value().port, 2375);

        endpoint = Endpoint::parse(QStringLiteral("tcp://:4243"), environment({}));
        QVERIFY2(endpoint.ok(), qPrintable(endpoint.errorMessage()));
        QCOMPARE(endpoint.value().host, QStringLiteral("localhost"));
        QCOMPARE(endpoint.value().port, 4243);

        endpoint = Endpoint::parse(QStringLiteral("tcp://docker.example"),
                                   environment({{QStringLiteral("DOCKER_TLS_VERIFY"), QStringLiteral("1")}}));
        QVERIFY(endpoint.ok());
        QCOMPARE(endpoint.value().port, 2376);
        QVERIFY(endpoint.value().tls);

        // A bare host:port is TCP, as for the CLI.
        endpoint = Endpoint::parse(QStringLiteral("127.0.0.1:2400"), environment({}));
        QVERIFY(endpoint.ok());
        QCOMPARE(endpoint.value().kind, Endpoint::Kind::Tcp);
        QCOMPARE(endpoint.value().port, 2400);
    }

    void readsIpv6AndABasePath()
    {
        const Result<Endpoint> endpoint = Endpoint::parse(QStringLiteral("tcp://[::1]:2375/engine/"), environment({}));
        QVERIFY(endpoint.ok());
        QCOMPARE(endpoint.value().host, QStringLiteral("::1"));
        QCOMPARE(endpoint.value().basePath, QStringLiteral("/engine"));
        QCOMPARE(endpoint.value().baseUrl(), QByteArray("http://[::1]:2375/engine"));
    }

    void tlsTakesCertificatesFromTheCertPath()
    {
        QTemporaryDir certs;
        for (const char *name : {"ca.pem", "cert.pem", "key.pem"}) {
            QFile file(certs.filePath(QString::fromLatin1(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        Result<Endpoint> endpoint =
            Endpoint::parse(QStringLiteral("tcp://docker.example:2376"),
                            environment({{QStringLiteral("DOCKER_TLS_VERIFY"), QStringLiteral("1")},
                                         {QStringLiteral("DOCKER_CERT_PATH"), certs.path()}}));
        QVERIFY(endpoint.ok());
        QVERIFY(endpoint.value().tls);
        QVERIFY(endpoint.value().tlsVerify);
        QCOMPARE(endpoint.value().caFile, certs.filePath(QStringLiteral("ca.pem")));
        QCOMPARE(endpoint.value().certFile, certs.filePath(QStringLiteral("cert.pem")));
        QCOMPARE(endpoint.value().keyFile, certs.filePath(QStringLiteral("key.pem")));
        QCOMPARE(endpoint.value().baseUrl(), QByteArray("https://docker.example:2376"));

        // DOCKER_CERT_PATH alone: TLS without verifying the engine, as the Go client does.
        endpoint = Endpoint::parse(QStringLiteral("tcp://docker.example:2376"),
                                   environment({{QStringLiteral("DOCKER_CERT_PATH"), certs.path()}}));
        QVERIFY(endpoint.ok());
        QVERIFY(endpoint.value().tls);
        QVERIFY(!endpoint.value().tlsVerify);

        // TLS never applies to a unix socket.
        endpoint = Endpoint::parse(QStringLiteral("unix:///var/run/docker.sock"),
                                   environment({{QStringLiteral("DOCKER_TLS_VERIFY"), QStringLiteral("1")}}));
        QVERIFY(endpoint.ok());
        QVERIFY(!endpoint.value().tls);
        QCOMPARE(endpoint.value().baseUrl(), QByteArray("http://localhost"));
    }

    void readsAnSshHostAsTheCliDoes()
    {
        Result<Endpoint> endpoint = Endpoint::parse(QStringLiteral("ssh://alice@build.example:2222"), environment({}));
        QVERIFY2(endpoint, qPrintable(endpoint.errorMessage()));
        QCOMPARE(endpoint.value().kind, Endpoint::Kind::Ssh);
        QCOMPARE(endpoint.value().sshUser, QStringLiteral("alice"));
        QCOMPARE(endpoint.value().host, QStringLiteral("build.example"));
        QCOMPARE(endpoint.value().port, 2222);
        QCOMPARE(endpoint.value().display(), QStringLiteral("ssh://alice@build.example:2222"));
        QCOMPARE(endpoint.value().baseUrl(), QByteArrayLiteral("http://localhost"));
        endpoint = Endpoint::parse(QStringLiteral("ssh://build.example"), environment({}));
        QVERIFY(endpoint);
        QCOMPARE(endpoint.value().port, 0);
        QCOMPARE(endpoint.value().display(), QStringLiteral("ssh://build.example"));
    }

    void refusesWhatItCannotUse_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ssh option") << QStringLiteral("ssh://-oProxyCommand=x@host")
                                    << QStringLiteral("expected ssh://[user@]host[:port]");
        QTest::newRow("ssh path") << QStringLiteral("ssh://user@host/engine")
                                  << QStringLiteral("expected ssh://[user@]host[:port]");
        QTest::newRow("npipe") << QStringLiteral("npipe:////./pipe/docker_engine")
                               << QStringLiteral("unix:///path, tcp://host:port or ssh://");
        QTest::newRow("relative unix") << QStringLiteral("unix://docker.sock") << QStringLiteral("must be absolute");
        QTest::newRow("bad port") << QStringLiteral("tcp://host:99999")
                                  << QStringLiteral("DOCKER_HOST=tcp://host:99999");
        QTest::newRow("not a port") << QStringLiteral("tcp://host:abc") << QStringLiteral("expected tcp://host:port");
    }

    void refusesWhatItCannotUse()
    {
        QFETCH(QString, host);
        QFETCH(QString, expected);
        const Result<Endpoint> endpoint = Endpoint::parse(host, environment({}));
        QVERIFY(!endpoint.ok());
        QVERIFY2(endpoint.errorMessage().contains(expected), qPrintable(endpoint.errorMessage()));
        QVERIFY(endpoint.errorMessage().contains(host));
    }
};

QTEST_GUILESS_MAIN(TestDockerEndpoint)
#include "tst_docker_endpoint.moc"
