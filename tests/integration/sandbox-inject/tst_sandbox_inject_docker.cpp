// SPDX-License-Identifier: GPL-3.0-or-later
// The main assertion of the injection test through a Docker container: a key from the keychain
// reaches the HTTPS upstream in the header the kit names, while the container holds only the
// sentinel. The image is built here from scratch: busybox and the host's curl with its libraries.
#include "../docker-support/DockerTestSupport.h"
#include "../proxy-inject/InjectTestSupport.h"
#include "IsolatedHome.h"
#include "KeyringSession.h"

#include "policy/PolicyStore.h"

#include "Needs.h"

#include <QLocalSocket>
#include <QRegularExpression>
#include <QUuid>

using paddock::proxy::testing::bearerModelKey;
using paddock::proxy::testing::CertificateFactory;
using paddock::proxy::testing::EchoServer;
using namespace paddock::tests::docker;

namespace {

struct Ran
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestSandboxInjectDocker : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void keyReachesTheUpstreamFromAContainer_data();
    void keyReachesTheUpstreamFromAContainer();

private:
    Ran paddock(const QStringList &arguments, const QByteArray &input = {});
    QString path(const QString &relative) const { return m_root.filePath(relative); }
    bool startDaemon();

    QTemporaryDir m_root;
    DockerClient m_client{testEndpoint()};
    QString m_image;
    QProcessEnvironment m_env;
    QProcess m_daemon;
    std::unique_ptr<CertificateFactory> m_certificates;
    EchoServer m_upstream;
    QByteArray m_key = "sk-docker-" + QUuid::createUuid().toByteArray(QUuid::Id128);
};

void TestSandboxInjectDocker::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    PADDOCK_NEED_DOCKER();
    QVERIFY(m_root.isValid());

    QTemporaryDir context;
    QVERIFY(writeBusyboxContext(context.path(), "COPY rootfs/ /\n"));
    QVERIFY(writeCurlTree(context.filePath(QStringLiteral("rootfs"))));
    m_image = uniqueName(QStringLiteral("paddock-test-inject")) + QStringLiteral(":1");
    const Result<QString> built = m_client.buildImage(ownImage(context.path(), m_image));
    QVERIFY2(built, qPrintable(built.errorMessage()));

    for (const char *dir : {"config/paddock", "workspace", "kit", "certs"})
        QDir().mkpath(path(QLatin1String(dir)));
    m_env = paddock::test::isolatedEnvironment(m_root.path(), paddock::test::XdgFolders::shortNames());
    paddock::test::useXdgOf(m_env);
    m_env.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
    m_env.insert(QStringLiteral("PADDOCK_INIT"), QStringLiteral(PADDOCK_INIT_BIN));
    m_env.remove(QStringLiteral("JOURNAL_STREAM"));

    m_certificates = std::make_unique<CertificateFactory>(path(QStringLiteral("certs")));
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("ca"), QStringLiteral("Inject Docker Test CA")));
    QVERIFY(m_certificates->makeLeaf(QStringLiteral("leaf"), QStringLiteral("api.inject.test"), QStringLiteral("ca")));
    QVERIFY(m_upstream.start(m_certificates->path(QStringLiteral("leaf.pem")),
                             m_certificates->path(QStringLiteral("leaf.key"))));
    QCOMPARE(paddock({QStringLiteral("ca"), QStringLiteral("trust"), m_certificates->path(QStringLiteral("ca.pem"))})
                 .exitCode,
             0);
    paddock::policy::PolicyStore policy(path(QStringLiteral("config/paddock/policy.yaml")));
    policy.load();
    QVERIFY(policy.setResolveOverride(u"api.inject.test", QHostAddress(QStringLiteral("127.0.0.1"))).ok());

    QFile spec(path(QStringLiteral("kit/spec.yaml")));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(QStringLiteral(R"(schemaVersion: "2"
kind: sandbox
name: inject-docker
sandbox:
  image: %1
  entrypoint: [sh, -c]
  command: ["true"]
environment:
  variables:
    LD_LIBRARY_PATH: /lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
credentials:
%2permissions:
  network:
    allow: [api.inject.test:%3]
)")
                   .arg(m_image)
                   .arg(bearerModelKey())
                   .arg(m_upstream.serverPort())
                   .toUtf8());
    spec.close();
    QVERIFY(startDaemon());
}

bool TestSandboxInjectDocker::startDaemon()
{
    m_daemon.setProcessEnvironment(m_env);
    m_daemon.setStandardOutputFile(path(QStringLiteral("paddockd.out")));
    m_daemon.setStandardErrorFile(path(QStringLiteral("paddockd.out")));
    m_daemon.start(QStringLiteral(PADDOCKD_BIN), {QStringLiteral("--foreground")});
    if (!m_daemon.waitForStarted(5000))
        return false;
    return QTest::qWaitFor(
               [this] {
                   QLocalSocket probe;
                   probe.connectToServer(path(QStringLiteral("run/paddock/paddockd.sock")));
                   return probe.waitForConnected(100) || m_daemon.state() == QProcess::NotRunning;
               },
               20000) &&
           m_daemon.state() == QProcess::Running;
}

void TestSandboxInjectDocker::cleanupTestCase()
{
    // The daemon answering may be one a command started before startDaemon() (`ca trust`): the
    // sandboxes go whichever it is, and it stops too, or their containers outlive the test.
    if (!m_env.isEmpty()) {
        paddock({QStringLiteral("rm"), QStringLiteral("--all"), QStringLiteral("--force")});
        paddock({QStringLiteral("daemon"), QStringLiteral("stop")});
    }
    if (m_daemon.state() != QProcess::NotRunning) {
        m_daemon.terminate();
        if (!m_daemon.waitForFinished(10000))
            m_daemon.kill();
    }
    if (!m_image.isEmpty())
        (void)m_client.removeImage(m_image, true);
}

Ran TestSandboxInjectDocker::paddock(const QStringList &arguments, const QByteArray &input)
{
    QProcess process;
    process.setProcessEnvironment(m_env);
    process.setWorkingDirectory(path(QStringLiteral("workspace")));
    process.start(QStringLiteral(PADDOCK_BIN), arguments);
    process.write(input);
    process.closeWriteChannel();
    // The upstream answers on this thread's event loop: wait without blocking it.
    if (!QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, 300000)) {
        process.kill();
        process.waitForFinished();
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

void TestSandboxInjectDocker::keyReachesTheUpstreamFromAContainer_data()
{
    QTest::addColumn<QString>("isolation");
    QTest::newRow("runc") << QStringLiteral("container");
    // gVisor's kernel of its own changes nothing of the way out: the same proxy, the same key.
    QTest::newRow("gvisor") << QStringLiteral("gvisor");
}

void TestSandboxInjectDocker::keyReachesTheUpstreamFromAContainer()
{
    QFETCH(QString, isolation);
    if (isolation == QLatin1String("gvisor")) {
        bool skip = false;
        const QString gvisor = gvisorUnavailableReason(m_client, &skip);
        PADDOCK_NEED(!skip, gvisor);
        QVERIFY2(gvisor.isEmpty(), qPrintable(gvisor));
    }
    QCOMPARE(paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, m_key).exitCode, 0);
    const qsizetype before = m_upstream.requests.size();
    const Ran run =
        paddock({QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"),
                 QStringLiteral("--isolation"), isolation, QStringLiteral("--approve-credentials"),
                 QStringLiteral("--kit"), path(QStringLiteral("kit")), QStringLiteral("--name"),
                 QStringLiteral("in-docker-") + isolation, path(QStringLiteral("workspace")), QStringLiteral("--"),
                 QStringLiteral("echo \"variable=$LLM_API_KEY\"; curl -sS -o /dev/null -w 'status=%{http_code}\\n' "
                                "https://api.inject.test:%1/docker")
                     .arg(m_upstream.serverPort())});
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("variable=proxy-managed\n")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("status=200\n")), qPrintable(run.out + run.err));
    QCOMPARE(m_upstream.requests.size(), before + 1);
    QVERIFY2(m_upstream.requests.last().head.contains("\r\nAuthorization: Bearer " + m_key + "\r\n"),
             m_upstream.requests.last().head.constData());
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSandboxInjectDocker, QCoreApplication)

#include "tst_sandbox_inject_docker.moc"
