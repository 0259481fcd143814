// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock run --backend docker` on a desktop whose engine is rootless Docker: the real paddock
// and paddockd, dockerd-rootless.sh started by the test as the ordinary user (its own runtime
// directory and data root), a busybox image built through that engine.
#include "DockerSandboxFixture.h"

#include "runtime/docker/DockerRuntime.h"

#include "Needs.h"

#include <QTemporaryDir>

#include <unistd.h>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;

namespace {

const QString kRootlessScript = QStringLiteral("/usr/share/docker.io/contrib/dockerd-rootless.sh");

} // namespace

class TestSandboxDockerRootless : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void theWorkspaceIsWrittenAsTheUser();
    void theProxyIsTheWayOut();
    void sessionsAndARestartWork();
    void whatSetupInstallPutInTheSystemRunsAndStays();

private:
    DockerFinished runIn(const QString &script)
    {
        return m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"),
                                   QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), QStringLiteral("rootless"),
                                   m_fixture->workspace(), QStringLiteral("--"), script});
    }
    bool engineAnswers() const
    {
        QProcess info;
        info.start(QStringLiteral("docker"),
                   {QStringLiteral("info"), QStringLiteral("--format"), QStringLiteral("{{json .SecurityOptions}}")});
        return info.waitForFinished(10000) && info.exitCode() == 0 &&
               info.readAllStandardOutput().contains("name=rootless");
    }

    QTemporaryDir m_run;
    QProcess m_engine;
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
};

void TestSandboxDockerRootless::initTestCase()
{
    PADDOCK_NEED(QFileInfo::exists(kRootlessScript), "dockerd-rootless.sh (Debian's docker.io ships it)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("rootlesskit")).isEmpty(),
                 "rootlesskit (installer/setup-debian.sh installs it)");
    PADDOCK_NEED(::getuid() != 0,
                 "an ordinary user: rootless Docker is one's, and ctest runs this test as one (run-as-user.sh)");
    // slirp4netns makes a tap device in the engine's namespace: /dev/net/tun must be the user's to open.
    PADDOCK_NEED(::access("/dev/net/tun", R_OK | W_OK) == 0,
                 "/dev/net/tun usable by the user (mode 0666, as on a stock Debian) for rootless Docker's network");
    const QString runtimeDir = m_run.filePath(QStringLiteral("run"));
    QVERIFY(QDir().mkpath(runtimeDir));
    QVERIFY(QFile::setPermissions(runtimeDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir);
    env.insert(QStringLiteral("HOME"), m_run.path());
    // dockerd is in /usr/sbin, which an ordinary user's PATH may not hold.
    env.insert(QStringLiteral("PATH"), env.value(QStringLiteral("PATH")) + QStringLiteral(":/usr/sbin:/sbin"));
    m_engine.setProcessEnvironment(env);
    m_engine.setProcessChannelMode(QProcess::MergedChannels);
    m_engine.setStandardOutputFile(m_run.filePath(QStringLiteral("dockerd.log")));
    const QString socket = runtimeDir + QStringLiteral("/docker.sock");
    m_engine.start(kRootlessScript, {QStringLiteral("--data-root"), m_run.filePath(QStringLiteral("data")),
                                     QStringLiteral("--exec-root"), runtimeDir + QStringLiteral("/exec"),
                                     QStringLiteral("--host"), QStringLiteral("unix://") + socket});
    QVERIFY2(m_engine.waitForStarted(), qPrintable(m_engine.errorString()));
    qputenv("DOCKER_HOST", QFile::encodeName(QStringLiteral("unix://") + socket));
    QTRY_VERIFY_WITH_TIMEOUT(m_engine.state() != QProcess::Running || engineAnswers(), 60000);
    if (m_engine.state() != QProcess::Running) {
        QFile log(m_run.filePath(QStringLiteral("dockerd.log")));
        log.open(QIODevice::ReadOnly);
        QFAIL(qPrintable(QStringLiteral("rootless Docker did not start: ") +
                         QString::fromUtf8(log.readAll().right(3000))));
    }
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
    m_kit = m_fixture->writeKit(QStringLiteral("kit"), QStringLiteral("rootless"), m_fixture->imageTag(),
                                QStringLiteral("echo started"));
    QVERIFY(!m_kit.isEmpty());
}

void TestSandboxDockerRootless::cleanupTestCase()
{
    m_fixture.reset(); // removes its sandboxes and image through the engine
    // rootlesskit passes the signal on to dockerd, which stops its containers and then itself.
    m_engine.terminate();
    if (!m_engine.waitForFinished(30000)) {
        m_engine.kill();
        m_engine.waitForFinished(5000);
    }
}

void TestSandboxDockerRootless::theWorkspaceIsWrittenAsTheUser()
{
    const DockerFinished ran =
        runIn(QStringLiteral("echo from-rootless > written; grep -E '^Cap(Eff|Prm|Bnd):' /proc/self/status"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(2000)));
    // Whatever uid it has inside, the agent holds no capability and cannot regain one.
    QCOMPARE(ran.out.count(QStringLiteral(":\t0000000000000000")), 3);
    QFileInfo written(m_fixture->workspace() + QStringLiteral("/written"));
    QVERIFY(written.exists());
    QCOMPARE(written.ownerId(), ::getuid());
    QCOMPARE(written.groupId(), ::getgid());
}

void TestSandboxDockerRootless::theProxyIsTheWayOut()
{
    const DockerFinished ran = runIn(QStringLiteral("wget -q -O- http://denied.test/ 2>&1; true"));
    QVERIFY2(ran.out.contains(QStringLiteral("403")), qPrintable(ran.out + ran.err));
}

void TestSandboxDockerRootless::sessionsAndARestartWork()
{
    const QStringList exec{QStringLiteral("exec"), QStringLiteral("rootless"), QStringLiteral("cat"),
                           m_fixture->workspace() + QStringLiteral("/written")};
    DockerFinished read = m_fixture->paddock(exec);
    QVERIFY2(read.exitCode == 0, qPrintable(read.out + read.err));
    QCOMPARE(read.out, QStringLiteral("from-rootless\n"));
    // A session writes as the user too.
    const DockerFinished wrote =
        m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("rootless"), QStringLiteral("touch"),
                            m_fixture->workspace() + QStringLiteral("/from-exec")});
    QVERIFY2(wrote.exitCode == 0, qPrintable(wrote.out + wrote.err));
    QCOMPARE(QFileInfo(m_fixture->workspace() + QStringLiteral("/from-exec")).ownerId(), ::getuid());
    QVERIFY(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("rootless")}).exitCode == 0);
    const DockerFinished started = m_fixture->paddock({QStringLiteral("start"), QStringLiteral("rootless")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    read = m_fixture->paddock(exec);
    QCOMPARE(read.out, QStringLiteral("from-rootless\n"));
}

void TestSandboxDockerRootless::whatSetupInstallPutInTheSystemRunsAndStays()
{
    // Root inside is the user here: the install writes the system as root of the container, and
    // the engine commits it as the sandbox's image.
    const QString kit = m_fixture->writeKit(
        QStringLiteral("install-kit"), QStringLiteral("rootless-tooled"), m_fixture->imageTag(),
        QStringLiteral("echo started"),
        QStringLiteral("setup:\n  install:\n"
                       "    - command: 'mkdir -p /usr/local/bin && printf \"#!/bin/sh\\necho kit-tool ran\\n\" > "
                       "/usr/local/bin/kit-tool && chmod 755 /usr/local/bin/kit-tool'\n"
                       "volumes:\n  - path: /scratch\n    type: tmpfs\n"));
    QVERIFY(!kit.isEmpty());
    const DockerFinished created = m_fixture->paddock(
        {QStringLiteral("create"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), kit,
         QStringLiteral("--name"), QStringLiteral("rootless-tool"), m_fixture->workspace()});
    QVERIFY2(created.exitCode == 0, qPrintable(created.out + created.err + m_fixture->daemonLog().right(2000)));
    const QStringList tool{QStringLiteral("exec"), QStringLiteral("rootless-tool"), QStringLiteral("--"),
                           QStringLiteral("kit-tool")};
    for (int start = 0; start < 2; ++start) {
        QCOMPARE(m_fixture->paddock({QStringLiteral("start"), QStringLiteral("rootless-tool")}).exitCode, 0);
        const DockerFinished ran = m_fixture->paddock(tool);
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
        QCOMPARE(ran.out, QStringLiteral("kit-tool ran\n"));
        // The kit's tmpfs is as on its image, where the committed root has the folder made for it.
        const DockerFinished scratch = m_fixture->paddock(
            {QStringLiteral("exec"), QStringLiteral("rootless-tool"), QStringLiteral("--"), QStringLiteral("sh"),
             QStringLiteral("-c"), QStringLiteral("echo ram > /scratch/file && stat -c %a /scratch")});
        QVERIFY2(scratch.exitCode == 0, qPrintable(scratch.out + scratch.err));
        QCOMPARE(scratch.out, QStringLiteral("1777\n"));
        QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("rootless-tool")}).exitCode, 0);
    }
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("rootless-tool")}).exitCode, 0);
    const auto images =
        m_fixture->client().listImages({QStringLiteral("paddock.installed-for=rootless-tool"),
                                        QStringLiteral("paddock.owner=") + paddock::runtime::DockerRuntime::owner()},
                                       true);
    QVERIFY2(images, qPrintable(images.errorMessage()));
    QCOMPARE(images.value().size(), 0);
}

QTEST_GUILESS_MAIN(TestSandboxDockerRootless)
#include "tst_sandbox_docker_rootless.moc"
