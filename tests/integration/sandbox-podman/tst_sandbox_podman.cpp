// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock run --backend docker` on a desktop whose engine is rootless Podman: the real paddock
// and paddockd, `podman system service` started by the test as the ordinary user, a busybox
// image built through Podman's Docker-compatible API.
#include "DockerSandboxFixture.h"

#include "Needs.h"

#include <QTemporaryDir>

#include <sys/resource.h>
#include <unistd.h>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;

class TestSandboxPodman : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void theWorkspaceIsWrittenAsTheUser();
    void theProxyIsTheWayOut();
    void sessionsAndARestartWork();

private:
    DockerFinished runIn(const QString &script)
    {
        return m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"),
                                   QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), QStringLiteral("pod"),
                                   m_fixture->workspace(), QStringLiteral("--"), script});
    }

    QTemporaryDir m_run;
    QProcess m_service;
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
};

void TestSandboxPodman::initTestCase()
{
    const QString podman = QStandardPaths::findExecutable(QStringLiteral("podman"));
    PADDOCK_NEED(!podman.isEmpty(), "podman (installer/setup-debian.sh installs it)");
    PADDOCK_NEED(::getuid() != 0,
                 "an ordinary user: rootless Podman is one's, and ctest runs this test as one (run-as-user.sh)");
    const QString socket = m_run.filePath(QStringLiteral("podman.sock"));
    m_service.setProcessChannelMode(QProcess::MergedChannels);
    m_service.start(podman, {QStringLiteral("system"), QStringLiteral("service"), QStringLiteral("--time=0"),
                             QStringLiteral("unix://") + socket});
    QVERIFY2(m_service.waitForStarted(), qPrintable(m_service.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(socket), 20000);
    qputenv("DOCKER_HOST", QFile::encodeName(QStringLiteral("unix://") + socket));
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
    const auto version = m_fixture->client().version();
    QVERIFY(version && version.value().components.contains(QStringLiteral("Podman Engine")));
    m_kit = m_fixture->writeKit(QStringLiteral("kit"), QStringLiteral("podded"), m_fixture->imageTag(),
                                QStringLiteral("echo started"));
    QVERIFY(!m_kit.isEmpty());
}

void TestSandboxPodman::cleanupTestCase()
{
    m_fixture.reset(); // removes its sandboxes and image through the service
    m_service.terminate();
    m_service.waitForFinished(10000);
}

void TestSandboxPodman::theWorkspaceIsWrittenAsTheUser()
{
    const DockerFinished ran = runIn(QStringLiteral("id -u; echo from-podman > written; ulimit -n"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err + m_fixture->daemonLog().right(2000)));
    const QStringList lines = ran.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), QString::number(::getuid()));
    QFileInfo written(m_fixture->workspace() + QStringLiteral("/written"));
    QVERIFY(written.exists());
    QCOMPARE(written.ownerId(), ::getuid());
    // The engine may not pass the user's own limit on open files: Paddock asks for exactly that.
    rlimit files{};
    QCOMPARE(::getrlimit(RLIMIT_NOFILE, &files), 0);
    QCOMPARE(lines.value(1), QString::number(std::min<rlim_t>(files.rlim_max, 1048576)));
}

void TestSandboxPodman::theProxyIsTheWayOut()
{
    const DockerFinished ran = runIn(QStringLiteral("wget -q -O- http://denied.test/ 2>&1; true"));
    QVERIFY2(ran.out.contains(QStringLiteral("403")), qPrintable(ran.out + ran.err));
}

void TestSandboxPodman::sessionsAndARestartWork()
{
    const QStringList exec{QStringLiteral("exec"), QStringLiteral("pod"), QStringLiteral("cat"),
                           m_fixture->workspace() + QStringLiteral("/written")};
    DockerFinished read = m_fixture->paddock(exec);
    QVERIFY2(read.exitCode == 0, qPrintable(read.err));
    QCOMPARE(read.out, QStringLiteral("from-podman\n"));
    QVERIFY(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("pod")}).exitCode == 0);
    const DockerFinished started = m_fixture->paddock({QStringLiteral("start"), QStringLiteral("pod")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    read = m_fixture->paddock(exec);
    QCOMPARE(read.out, QStringLiteral("from-podman\n"));
}

QTEST_GUILESS_MAIN(TestSandboxPodman)
#include "tst_sandbox_podman.moc"
