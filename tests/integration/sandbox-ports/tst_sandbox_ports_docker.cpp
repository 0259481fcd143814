// SPDX-License-Identifier: GPL-3.0-or-later
// A kit's `ports` published on the host for a Docker sandbox: the container has no network
// (NetworkMode none), so the engine publishes nothing; the same paddock-init and daemon
// mechanism as for bubblewrap carries curl's requests to a busybox httpd inside.
#include "DockerSandboxFixture.h"
#include "PortsTestSupport.h"

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;
using paddock::test::Fetched;

class TestSandboxPortsDocker : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void publishedPortAnswersOnTheHost();
    void portsComeBackAfterTheDaemonRestarts();
    void stoppedContainerPublishesNothing();

private:
    QString hostAddress(int port) { return paddock::test::hostAddressOf(m_fixture->listed().value(m_name), port); }

    std::unique_ptr<DockerSandboxFixture> m_fixture;
    const QString m_name = QStringLiteral("web-docker");
    QString m_address;
};

void TestSandboxPortsDocker::initTestCase()
{
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);

    const QString www = m_fixture->workspace() + QStringLiteral("/www");
    QVERIFY(paddock::test::writePage(www));
    const QString kit = m_fixture->writeKit(QStringLiteral("web-kit"), QStringLiteral("web"), m_fixture->imageTag(),
                                            paddock::test::serverCommand(www), paddock::test::portsBlock());
    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--backend"), QStringLiteral("docker"),
         QStringLiteral("--kit"), kit, QStringLiteral("--name"), m_name, m_fixture->workspace()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // Where 8080 is published on the host, for every test (each can run alone).
    m_address = hostAddress(8080);
}

void TestSandboxPortsDocker::publishedPortAnswersOnTheHost()
{
    const QJsonObject sandbox = m_fixture->listed().value(m_name);
    QCOMPARE(sandbox.value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    QCOMPARE(paddock::test::hostAddressOf(sandbox, 8080), m_address);
    QVERIFY2(m_address.startsWith(QLatin1String("127.0.0.1:")), qPrintable(m_address));
    const Fetched page = paddock::test::fetch(m_address);
    QCOMPARE(page.exitCode, 0);
    QCOMPARE(page.body, QByteArray(paddock::test::kPage));

    const QList<Fetched> many = paddock::test::fetchAtOnce(m_address, 8);
    for (const Fetched &result : many)
        QCOMPARE(result.body, QByteArray(paddock::test::kPage));
    // Nothing listens on 9090 inside: the connection ends without a byte.
    QCOMPARE(paddock::test::fetch(hostAddress(9090)).exitCode, 52);
    QVERIFY(m_fixture->paddock({QStringLiteral("ls")}).out.contains(m_address + QStringLiteral("->8080")));
}

void TestSandboxPortsDocker::portsComeBackAfterTheDaemonRestarts()
{
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());
    QCOMPARE(hostAddress(8080), m_address);
    QCOMPARE(paddock::test::fetch(m_address).body, QByteArray(paddock::test::kPage));
}

void TestSandboxPortsDocker::stoppedContainerPublishesNothing()
{
    const DockerFinished stop = m_fixture->paddock({QStringLiteral("stop"), m_name});
    QVERIFY2(stop.exitCode == 0, qPrintable(stop.err));
    QVERIFY(hostAddress(8080).isEmpty());
    QCOMPARE(paddock::test::fetch(m_address).exitCode, 7); // curl: connection refused
}

QTEST_GUILESS_MAIN(TestSandboxPortsDocker)
#include "tst_sandbox_ports_docker.moc"
