// SPDX-License-Identifier: GPL-3.0-or-later
// A kit's `ports` published on the host for a bubblewrap sandbox: a real busybox httpd inside
// a sandbox that has no network of its own, reached with curl on the address `paddock ls`
// shows, through paddock-init and the daemon.
#include "PortsTestSupport.h"
#include "SandboxFixture.h"

#include <QTcpSocket>

using paddock::test::Fetched;
using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestSandboxPorts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void publishedPortIsListedAndAnswersOnTheHost();
    void listingShowsTheHostSideOfEachPort();
    void manyClientsAtOnceAreAllServed();
    void portWithoutAServerInsideClosesTheConnection();
    void portsComeBackAfterTheDaemonRestarts();
    void stoppedSandboxPublishesNothing();

private:
    QString hostAddress(int port) { return paddock::test::hostAddressOf(m_fixture->listed().value(m_name), port); }

    std::unique_ptr<SandboxFixture> m_fixture;
    const QString m_name = QStringLiteral("web-probe");
    QString m_address;
};

void TestSandboxPorts::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    const QString www = m_fixture->workspace() + QStringLiteral("/www");
    QVERIFY(paddock::test::writePage(www));
    const QString kitDir = m_fixture->path(QStringLiteral("web-kit"));
    QDir().mkpath(kitDir);
    QFile spec(kitDir + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(QStringLiteral("schemaVersion: \"2\"\n"
                              "kind: sandbox\n"
                              "name: web\n"
                              "sandbox:\n"
                              "  image: debian:12\n"
                              "  entrypoint: [sh, -c]\n"
                              "  command:\n"
                              "    default: [\"%1\"]\n")
                   .arg(paddock::test::serverCommand(www))
                   .toUtf8() +
               paddock::test::portsBlock().toUtf8());
    spec.close();

    const Finished run = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                                             kitDir, QStringLiteral("--name"), m_name, m_fixture->workspace()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // UDP cannot go through the stream the sandbox dials: the user is told, the rest is published.
    QVERIFY2(run.err.contains(QLatin1String("port 5353/udp is not published")), qPrintable(run.err));
    // Where 8080 is published on the host, for every test (each can run alone).
    m_address = hostAddress(8080);
}

void TestSandboxPorts::publishedPortIsListedAndAnswersOnTheHost()
{
    const QJsonObject sandbox = m_fixture->listed().value(m_name);
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    const QJsonArray ports = sandbox.value(QLatin1String("ports")).toArray();
    QCOMPARE(ports.size(), 2); // 8080 and 9090; not the UDP one
    QCOMPARE(paddock::test::hostAddressOf(sandbox, 8080), m_address);
    static const QRegularExpression loopback(QStringLiteral("^127\\.0\\.0\\.1:\\d+$"));
    QVERIFY2(loopback.match(m_address).hasMatch(), qPrintable(m_address));

    const Fetched page = paddock::test::fetch(m_address);
    QCOMPARE(page.exitCode, 0);
    QCOMPARE(page.body, QByteArray(paddock::test::kPage));
    // Again: each client gets a connection of its own.
    QCOMPARE(paddock::test::fetch(m_address).body, QByteArray(paddock::test::kPage));
}

void TestSandboxPorts::listingShowsTheHostSideOfEachPort()
{
    const Finished ls = m_fixture->paddock({QStringLiteral("ls")});
    QVERIFY2(ls.out.contains(QLatin1String("PORTS")), qPrintable(ls.out));
    QVERIFY2(ls.out.contains(m_address + QStringLiteral("->8080")), qPrintable(ls.out));
    QVERIFY2(ls.out.contains(hostAddress(9090) + QStringLiteral("->9090")), qPrintable(ls.out));
}

void TestSandboxPorts::manyClientsAtOnceAreAllServed()
{
    const QList<Fetched> results = paddock::test::fetchAtOnce(m_address, 12);
    QCOMPARE(results.size(), 12);
    for (const Fetched &result : results) {
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.body, QByteArray(paddock::test::kPage));
    }
}

void TestSandboxPorts::portWithoutAServerInsideClosesTheConnection()
{
    const QString address = hostAddress(9090);
    QVERIFY(!address.isEmpty());
    // The host side accepts; with nothing listening inside the connection ends without a byte.
    QCOMPARE(paddock::test::fetch(address).exitCode, 52); // curl: empty reply from server
    // The published port next to it is unaffected.
    QCOMPARE(paddock::test::fetch(m_address).body, QByteArray(paddock::test::kPage));
}

void TestSandboxPorts::portsComeBackAfterTheDaemonRestarts()
{
    m_fixture->killDaemon();
    QVERIFY(m_fixture->startDaemon());
    // The sandbox kept running; the new daemon publishes its ports again, on the same host
    // port when it is free, and paddock-init dials the new socket by itself.
    QCOMPARE(hostAddress(8080), m_address);
    const Fetched page = paddock::test::fetch(m_address);
    QCOMPARE(page.exitCode, 0);
    QCOMPARE(page.body, QByteArray(paddock::test::kPage));
}

void TestSandboxPorts::stoppedSandboxPublishesNothing()
{
    const Finished stop = m_fixture->paddock({QStringLiteral("stop"), m_name});
    QVERIFY2(stop.exitCode == 0, qPrintable(stop.err));
    const QJsonObject sandbox = m_fixture->listed().value(m_name);
    QCOMPARE(sandbox.value(QLatin1String("ports")).toArray().size(), 2);
    QVERIFY(paddock::test::hostAddressOf(sandbox, 8080).isEmpty());
    QVERIFY2(m_fixture->paddock({QStringLiteral("ls")}).out.contains(QLatin1String("8080/tcp")),
             "the table shows the port without a host side");
    QTcpSocket probe;
    probe.connectToHost(QHostAddress::LocalHost, m_address.section(QLatin1Char(':'), 1).toUShort());
    QVERIFY(!probe.waitForConnected(5000));
    QCOMPARE(probe.error(), QAbstractSocket::ConnectionRefusedError);
}

QTEST_GUILESS_MAIN(TestSandboxPorts)
#include "tst_sandbox_ports.moc"
