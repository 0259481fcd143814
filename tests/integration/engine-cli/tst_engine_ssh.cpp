// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock engine add NAME ssh://USER@HOST:PORT` as the user: sshd started by the test on
// 127.0.0.1 with a key of its own, the key in an ssh-agent of the test's, the host key in the
// user's known hosts (removed again at the end), and the engine behind it the machine's own,
// reached through `docker system dial-stdio` as the docker CLI reaches it.
#include "DockerSandboxFixture.h"

#include "LocalServices.h"
#include "Needs.h"

#include <QTemporaryDir>

#include <pwd.h>
#include <unistd.h>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;
using paddock::test::readFile;

class TestEngineSsh : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void anEngineBehindSshIsAddedAndListed();
    void aRefusedKeyIsSaid();
    void aSandboxThereIsRefused();

private:
    QString host(const QString &user) const
    {
        return QStringLiteral("ssh://%1@127.0.0.1:%2").arg(user).arg(m_ssh.port());
    }
    QString knownHost() const { return QStringLiteral("[127.0.0.1]:%1").arg(m_ssh.port()); }
    // ssh reads the known hosts of the account's home, whatever HOME says.
    QString knownHostsFile() const
    {
        return QString::fromLocal8Bit(::getpwuid(::getuid())->pw_dir) + QStringLiteral("/.ssh/known_hosts");
    }
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

    QTemporaryDir m_dir{QStringLiteral("/tmp/pdk-engssh-XXXXXX")};
    paddock::test::SshServer m_ssh;
    QProcess m_agent;
    bool m_knownHostAdded = false;
    bool m_knownHostsExisted = false;
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
};

void TestEngineSsh::initTestCase()
{
    PADDOCK_NEED(QFileInfo(QStringLiteral("/usr/sbin/sshd")).isExecutable(), "sshd (openssh-server)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("ssh-agent")).isEmpty(), "ssh-agent (openssh-client)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("docker")).isEmpty(), "the docker CLI (docker.io)");
    PADDOCK_NEED(::getuid() != 0, "an ordinary user, whose ssh and known hosts these are (run-as-user.sh)");
    QString error;
    QVERIFY2(m_ssh.start(m_dir.filePath(QStringLiteral("sshd")), &error), qPrintable(error));

    const QString agentSocket = m_dir.filePath(QStringLiteral("agent.sock"));
    m_agent.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), agentSocket});
    QVERIFY(m_agent.waitForStarted());
    QTRY_VERIFY(QFileInfo::exists(agentSocket));
    QProcess add;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SSH_AUTH_SOCK"), agentSocket);
    add.setProcessEnvironment(env);
    add.start(QStringLiteral("ssh-add"), {m_ssh.clientKey()});
    QVERIFY(add.waitForFinished(10000) && add.exitCode() == 0);

    // The host's key, as a person accepts it once: in the user's own known hosts.
    QProcess scan;
    scan.start(QStringLiteral("ssh-keyscan"),
               {QStringLiteral("-p"), QString::number(m_ssh.port()), QStringLiteral("127.0.0.1")});
    QVERIFY(scan.waitForFinished(10000));
    const QByteArray keys = scan.readAllStandardOutput();
    QVERIFY(!keys.isEmpty());
    m_knownHostsExisted = QFileInfo::exists(knownHostsFile());
    QVERIFY(QDir().mkpath(QFileInfo(knownHostsFile()).absolutePath()));
    QFile known(knownHostsFile());
    QVERIFY(known.open(QIODevice::Append));
    known.write(keys);
    known.close();
    m_knownHostAdded = true;

    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
    m_kit = m_fixture->writeKit(QStringLiteral("kit"), QStringLiteral("far"), m_fixture->imageTag(),
                                QStringLiteral("echo started"));
    m_fixture->setVariable(QStringLiteral("SSH_AUTH_SOCK"), agentSocket);
    m_fixture->setVariable(QStringLiteral("DOCKER_CONFIG"), m_dir.filePath(QStringLiteral("docker-config")));
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());
}

void TestEngineSsh::cleanupTestCase()
{
    m_fixture.reset();
    if (m_knownHostAdded)
        QProcess::execute(QStringLiteral("ssh-keygen"),
                          {QStringLiteral("-R"), knownHost(), QStringLiteral("-f"), knownHostsFile()});
    QFile::remove(knownHostsFile() + QStringLiteral(".old"));
    // A file the test made is the test's: the account is left as it was.
    if (m_knownHostAdded && !m_knownHostsExisted && QFileInfo(knownHostsFile()).size() == 0)
        QFile::remove(knownHostsFile());
    m_agent.terminate();
    m_agent.waitForFinished(5000);
}

void TestEngineSsh::anEngineBehindSshIsAddedAndListed()
{
    const QString user = QString::fromLocal8Bit(::getpwuid(::getuid())->pw_name);
    const DockerFinished added =
        m_fixture->paddock({QStringLiteral("engine"), QStringLiteral("add"), QStringLiteral("box"), host(user)});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err + m_fixture->daemonLog().right(2000)));
    const QJsonObject box = listedEngine(QStringLiteral("box"));
    QCOMPARE(box[QLatin1String("host")].toString(), host(user));
    QVERIFY(!box[QLatin1String("onThisComputer")].toBool());
    const DockerFinished table = m_fixture->paddock({QStringLiteral("engine"), QStringLiteral("ls")});
    QVERIFY2(table.out.contains(QStringLiteral("another computer")), qPrintable(table.out));
}

void TestEngineSsh::aRefusedKeyIsSaid()
{
    const DockerFinished added = m_fixture->paddock(
        {QStringLiteral("engine"), QStringLiteral("add"), QStringLiteral("stranger"), host(QStringLiteral("nobody"))});
    QVERIFY(added.exitCode != 0);
    QVERIFY2(added.err.contains(QStringLiteral("engine stranger was not added")), qPrintable(added.err));
    QVERIFY2(added.err.contains(QStringLiteral("Permission denied")), qPrintable(added.err));
    QVERIFY(listedEngine(QStringLiteral("stranger")).isEmpty());
}

void TestEngineSsh::aSandboxThereIsRefused()
{
    const DockerFinished ran = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--engine"), QStringLiteral("box"), QStringLiteral("--kit"), m_kit,
         QStringLiteral("--name"), QStringLiteral("on-box"), m_fixture->workspace()});
    QVERIFY(ran.exitCode != 0);
    // Another computer's engine gets a copy of the workspace's commits, and this one has none.
    QVERIFY2(ran.err.contains(QStringLiteral("cannot be copied to engine box")), qPrintable(ran.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("on-box")));
}

QTEST_GUILESS_MAIN(TestEngineSsh)
#include "tst_engine_ssh.moc"
