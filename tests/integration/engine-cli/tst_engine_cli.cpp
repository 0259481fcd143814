// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock engine` and `--engine` with the real paddock and paddockd: a second Docker engine
// started by the test on 127.0.0.1 with TLS (certificates made here with openssl, a data root
// of its own), added with its CA and client certificate and refused with a wrong CA; a sandbox
// run on it; a docker context written where the docker CLI keeps them, listed, and refused for
// sandboxes since it does not answer.
#include "DockerSandboxFixture.h"

#include "Needs.h"
#include "runtime/docker/DockerRuntime.h"

#include <QCryptographicHash>
#include <QTcpServer>
#include <QTemporaryDir>

#include <unistd.h>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;
using paddock::test::readFile;
namespace docker = paddock::runtime::docker;

namespace {

// A CA, the engine's certificate for 127.0.0.1 signed by it, a client certificate, and a CA
// that signed neither.
const char kMakeCertificates[] = R"(set -e
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=lab-ca -keyout ca-key.pem -out ca.pem 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other-key.pem -out other.pem 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server-key.pem -out server.csr 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -extfile server.ext -out server.pem 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=client -keyout key.pem -out client.csr 2>/dev/null
printf 'extendedKeyUsage=clientAuth\n' > client.ext
openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -extfile client.ext -out cert.pem 2>/dev/null
)";

int freePort()
{
    QTcpServer server;
    return server.listen(QHostAddress::LocalHost, 0) ? server.serverPort() : 0;
}

} // namespace

class TestEngineCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void contextsAreListed();
    void aWrongAuthorityIsRefused();
    void anEngineIsAddedAndListed();
    void aSandboxRunsOnTheChosenEngine();
    void anEngineOnAnotherComputerIsRefused();
    void anEngineInUseCannotBeRemoved();

private:
    QString file(const QString &name) const { return m_dir.filePath(name); }
    docker::Endpoint labEndpoint() const
    {
        docker::Endpoint endpoint = docker::Endpoint::parse(QStringLiteral("tcp://127.0.0.1:%1").arg(m_port)).value();
        endpoint.tls = endpoint.tlsVerify = true;
        endpoint.caFile = file(QStringLiteral("ca.pem"));
        endpoint.certFile = file(QStringLiteral("cert.pem"));
        endpoint.keyFile = file(QStringLiteral("key.pem"));
        return endpoint;
    }
    QString labHost() const { return QStringLiteral("tcp://127.0.0.1:%1").arg(m_port); }
    QJsonObject listedEngine(const QString &name)
    {
        const DockerFinished listed =
            m_fixture->paddock({QStringLiteral("engine"), QStringLiteral("ls"), QStringLiteral("--json")});
        for (const QJsonValue &engine : QJsonDocument::fromJson(listed.out.toUtf8())["engines"].toArray()) {
            if (engine[QLatin1String("name")].toString() == name)
                return engine.toObject();
        }
        return {};
    }
    DockerFinished addLab(const QString &ca)
    {
        return m_fixture->paddock({QStringLiteral("engine"), QStringLiteral("add"), QStringLiteral("lab"), labHost(),
                                   QStringLiteral("--tls-ca"), file(ca), QStringLiteral("--tls-cert"),
                                   file(QStringLiteral("cert.pem")), QStringLiteral("--tls-key"),
                                   file(QStringLiteral("key.pem"))});
    }
    void writeContext(const QString &name, const QString &host);

    QTemporaryDir m_dir{QStringLiteral("/tmp/pdk-engines-XXXXXX")};
    QProcess m_engine;
    int m_port = 0;
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
};

void TestEngineCli::writeContext(const QString &name, const QString &host)
{
    const QString folder =
        QString::fromLatin1(QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256).toHex());
    const QString meta = file(QStringLiteral("docker-config/contexts/meta/") + folder);
    QVERIFY(QDir().mkpath(meta));
    QFile json(meta + QStringLiteral("/meta.json"));
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write(
        QJsonDocument(
            QJsonObject{
                {QStringLiteral("Name"), name},
                {QStringLiteral("Metadata"), QJsonObject{{QStringLiteral("Description"), QStringLiteral("the lab's")}}},
                {QStringLiteral("Endpoints"),
                 QJsonObject{{QStringLiteral("docker"),
                              QJsonObject{{QStringLiteral("Host"), host}, {QStringLiteral("SkipTLSVerify"), false}}}}}})
            .toJson());
}

void TestEngineCli::initTestCase()
{
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("dockerd"), {QStringLiteral("/usr/sbin")}).isEmpty(),
                 "dockerd (docker.io)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty(), "openssl");
    PADDOCK_NEED(::getuid() == 0, "root, to start a second Docker engine");
    QVERIFY(m_dir.isValid());
    QProcess openssl;
    openssl.setWorkingDirectory(m_dir.path());
    openssl.start(QStringLiteral("sh"), {QStringLiteral("-c"), QString::fromLatin1(kMakeCertificates)});
    QVERIFY(openssl.waitForFinished(60000) && openssl.exitCode() == 0);

    m_port = freePort();
    QVERIFY(m_port > 0);
    QFile config(file(QStringLiteral("daemon.json")));
    QVERIFY(config.open(QIODevice::WriteOnly) && config.write("{}\n") > 0);
    config.close();
    m_engine.setProcessChannelMode(QProcess::MergedChannels);
    m_engine.setStandardOutputFile(file(QStringLiteral("dockerd.log")));
    m_engine.start(QStringLiteral("/usr/sbin/dockerd"), {QStringLiteral("--config-file"),
                                                         file(QStringLiteral("daemon.json")),
                                                         QStringLiteral("--data-root"),
                                                         file(QStringLiteral("data")),
                                                         QStringLiteral("--exec-root"),
                                                         file(QStringLiteral("x")),
                                                         QStringLiteral("--pidfile"),
                                                         file(QStringLiteral("dockerd.pid")),
                                                         QStringLiteral("--host"),
                                                         labHost(),
                                                         QStringLiteral("--tlsverify"),
                                                         QStringLiteral("--tlscacert"),
                                                         file(QStringLiteral("ca.pem")),
                                                         QStringLiteral("--tlscert"),
                                                         file(QStringLiteral("server.pem")),
                                                         QStringLiteral("--tlskey"),
                                                         file(QStringLiteral("server-key.pem")),
                                                         QStringLiteral("--bridge=none"),
                                                         QStringLiteral("--iptables=false"),
                                                         QStringLiteral("--ip6tables=false")});
    QVERIFY2(m_engine.waitForStarted(), qPrintable(m_engine.errorString()));
    const docker::DockerClient lab(labEndpoint());
    QTRY_VERIFY_WITH_TIMEOUT(m_engine.state() != QProcess::Running || lab.version(), 60000);
    QVERIFY2(m_engine.state() == QProcess::Running,
             qPrintable(QString::fromUtf8(readFile(file(QStringLiteral("dockerd.log"))).right(3000))));

    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
    // The test's image, built on this computer's engine, goes into the lab's as `docker load` takes it.
    const QString archive = file(QStringLiteral("image.tar"));
    QVERIFY(m_fixture->client().saveImage(m_fixture->imageTag(), archive));
    QVERIFY(lab.loadImage(archive));
    m_kit = m_fixture->writeKit(QStringLiteral("kit"), QStringLiteral("lab"), m_fixture->imageTag(),
                                QStringLiteral("echo hello from $(hostname)"));
    // The docker CLI's own contexts: one on another computer, the docker CLI's current one.
    writeContext(QStringLiteral("far"), QStringLiteral("tcp://192.0.2.7:2376"));
    QFile dockerConfig(file(QStringLiteral("docker-config/config.json")));
    QVERIFY(dockerConfig.open(QIODevice::WriteOnly));
    dockerConfig.write(R"({"currentContext": "far"})");
    dockerConfig.close();
    m_fixture->setVariable(QStringLiteral("DOCKER_CONFIG"), file(QStringLiteral("docker-config")));
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());
}

void TestEngineCli::cleanupTestCase()
{
    m_fixture.reset(); // removes its sandboxes, on both engines, while both answer
    if (m_engine.state() == QProcess::Running) {
        m_engine.terminate();
        if (!m_engine.waitForFinished(30000)) {
            m_engine.kill();
            m_engine.waitForFinished(5000);
        }
    }
}

void TestEngineCli::contextsAreListed()
{
    const QJsonObject far = listedEngine(QStringLiteral("far"));
    QCOMPARE(far[QLatin1String("source")].toString(), QStringLiteral("docker context"));
    QCOMPARE(far[QLatin1String("host")].toString(), QStringLiteral("tcp://192.0.2.7:2376"));
    QVERIFY(far[QLatin1String("dockerCurrent")].toBool());
    QVERIFY(!far[QLatin1String("onThisComputer")].toBool());
    const QJsonObject local = listedEngine(QStringLiteral("local"));
    QVERIFY(local[QLatin1String("inUse")].toBool());
    const DockerFinished table = m_fixture->paddock({QStringLiteral("engine"), QStringLiteral("ls")});
    QVERIFY2(table.exitCode == 0, qPrintable(table.err));
    QVERIFY(table.out.contains(QStringLiteral("local *")));
    QVERIFY(table.out.contains(QStringLiteral("docker context (docker's current)")));
}

void TestEngineCli::aWrongAuthorityIsRefused()
{
    const DockerFinished added = addLab(QStringLiteral("other.pem"));
    QVERIFY2(added.exitCode != 0, qPrintable(added.out));
    QVERIFY2(added.err.contains(QStringLiteral("engine lab was not added")), qPrintable(added.err));
    QVERIFY2(added.err.contains(QStringLiteral("TLS")), qPrintable(added.err));
    QVERIFY(listedEngine(QStringLiteral("lab")).isEmpty());
}

void TestEngineCli::anEngineIsAddedAndListed()
{
    const DockerFinished added = addLab(QStringLiteral("ca.pem"));
    QVERIFY2(added.exitCode == 0, qPrintable(added.err + m_fixture->daemonLog().right(2000)));
    const QJsonObject lab = listedEngine(QStringLiteral("lab"));
    QCOMPARE(lab[QLatin1String("source")].toString(), QStringLiteral("paddock"));
    QCOMPARE(lab[QLatin1String("host")].toString(), labHost());
    QVERIFY(lab[QLatin1String("tls")].toBool());
    QVERIFY(lab[QLatin1String("onThisComputer")].toBool());
    // Kept in the user's configuration, without copying the key.
    const QByteArray stored = readFile(m_fixture->environment().value(QStringLiteral("XDG_CONFIG_HOME")) +
                                       QStringLiteral("/paddock/engines.yaml"));
    QVERIFY2(stored.contains(labHost().toUtf8()), stored.constData());
    QVERIFY(!stored.contains("PRIVATE KEY"));
}

void TestEngineCli::aSandboxRunsOnTheChosenEngine()
{
    const DockerFinished ran = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--engine"), QStringLiteral("lab"), QStringLiteral("--kit"), m_kit,
         QStringLiteral("--name"), QStringLiteral("on-lab"), m_fixture->workspace()});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(2000)));
    QVERIFY2(ran.out.contains(QStringLiteral("hello from")), qPrintable(ran.out));
    // The container is the lab engine's, not this computer's engine's.
    QVERIFY(paddock::runtime::DockerRuntime(labEndpoint(), QStringLiteral("lab")).inspect(QStringLiteral("on-lab")));
    QVERIFY(
        !paddock::runtime::DockerRuntime(docker::Endpoint::environmentOrDefault()).inspect(QStringLiteral("on-lab")));
    QCOMPARE(m_fixture->listed().value(QStringLiteral("on-lab"))[QLatin1String("engine")].toString(),
             QStringLiteral("lab"));
    const DockerFinished table = m_fixture->paddock({QStringLiteral("ls")});
    QVERIFY2(table.out.contains(QStringLiteral("docker@lab")), qPrintable(table.out));

    // A daemon started anew finds it on the same engine, and stops and starts it there.
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());
    QCOMPARE(m_fixture->listed().value(QStringLiteral("on-lab"))[QLatin1String("engine")].toString(),
             QStringLiteral("lab"));
    const DockerFinished stopped = m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("on-lab")});
    QVERIFY2(stopped.exitCode == 0, qPrintable(stopped.err));
    QCOMPARE(m_fixture->listed().value(QStringLiteral("on-lab"))[QLatin1String("status")].toString(),
             QStringLiteral("stopped"));
    const DockerFinished started = m_fixture->paddock({QStringLiteral("start"), QStringLiteral("on-lab")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err + m_fixture->daemonLog().right(2000)));
    const DockerFinished exec = m_fixture->paddock(
        {QStringLiteral("exec"), QStringLiteral("on-lab"), QStringLiteral("echo"), QStringLiteral("inside-lab")});
    QVERIFY2(exec.out.contains(QStringLiteral("inside-lab")), qPrintable(exec.out + exec.err));
}

void TestEngineCli::anEngineOnAnotherComputerIsRefused()
{
    const DockerFinished ran = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--engine"), QStringLiteral("far"), QStringLiteral("--kit"), m_kit,
         QStringLiteral("--name"), QStringLiteral("on-far"), m_fixture->workspace()});
    QVERIFY(ran.exitCode != 0);
    // Another computer's engine is no reason to refuse (tst_engine_remote); one that does not answer is.
    QVERIFY2(ran.err.contains(QStringLiteral("engine far (tcp://192.0.2.7:2376) cannot run sandboxes now")),
             qPrintable(ran.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("on-far")));
}

void TestEngineCli::anEngineInUseCannotBeRemoved()
{
    const DockerFinished use =
        m_fixture->paddock({QStringLiteral("engine"), QStringLiteral("use"), QStringLiteral("lab")});
    QVERIFY2(use.exitCode == 0, qPrintable(use.err));
    QVERIFY(listedEngine(QStringLiteral("lab"))[QLatin1String("inUse")].toBool());
    const QStringList remove{QStringLiteral("engine"), QStringLiteral("rm"), QStringLiteral("lab")};
    DockerFinished removed = m_fixture->paddock(remove);
    QVERIFY(removed.exitCode != 0);
    QVERIFY2(removed.err.contains(QStringLiteral("on-lab")), qPrintable(removed.err));
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("on-lab")}).exitCode,
             0);
    QVERIFY(!paddock::runtime::DockerRuntime(labEndpoint(), QStringLiteral("lab")).inspect(QStringLiteral("on-lab")));
    removed = m_fixture->paddock(remove);
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QVERIFY(listedEngine(QStringLiteral("lab")).isEmpty());
    QVERIFY(listedEngine(QStringLiteral("local"))[QLatin1String("inUse")].toBool());
}

QTEST_GUILESS_MAIN(TestEngineCli)
#include "tst_engine_cli.moc"
