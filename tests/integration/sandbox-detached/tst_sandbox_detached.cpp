// SPDX-License-Identifier: GPL-3.0-or-later
// A detached sandbox's life through the CLI and the daemon: create, start, ls, logs, exec,
// the daemon killed and started again under it, stop, rm.
#include "SandboxFixture.h"

using paddock::test::Finished;
using paddock::test::LocalUpstream;
using paddock::test::SandboxFixture;

class TestSandboxDetached : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void createdSandboxIsListedButNotRunning();
    void startedSandboxRunsAndLogsItsOutput();
    void execReachesTheUpstreamThroughTheProxy();
    void sandboxSurvivesADaemonKilledAndRestarted();
    void stopThenRemove();
    void defaultNameIsKitAndWorkspaceFolder();

private:
    static constexpr const char *kName = "bg";
    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestSandboxDetached::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxDetached::createdSandboxIsListedButNotRunning()
{
    const Finished create =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), m_fixture->kitDir(),
                            QStringLiteral("--name"), QLatin1String(kName), m_fixture->workspace(),
                            QStringLiteral("--"), QStringLiteral("echo started; while :; do sleep 1; done")});
    QVERIFY2(create.exitCode == 0, qPrintable(create.err));
    QCOMPARE(create.out.trimmed(), QLatin1String(kName));
    const QJsonObject sandbox = m_fixture->listed().value(QLatin1String(kName));
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("created"));
    QCOMPARE(sandbox.value(QLatin1String("kit")).toString(), QStringLiteral("probe"));
    QCOMPARE(sandbox.value(QLatin1String("backend")).toString(), QStringLiteral("bwrap"));
    QCOMPARE(sandbox.value(QLatin1String("workspace")).toString(), m_fixture->workspace());
}

void TestSandboxDetached::startedSandboxRunsAndLogsItsOutput()
{
    const Finished start = m_fixture->paddock({QStringLiteral("start"), QLatin1String(kName)});
    QVERIFY2(start.exitCode == 0, qPrintable(start.err));
    const QJsonObject sandbox = m_fixture->listed().value(QLatin1String(kName));
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    QVERIFY(sandbox.value(QLatin1String("pid")).toInteger() > 0);
    QVERIFY(sandbox.contains(QLatin1String("uptimeMs")));
    // The program writes its line once it runs; the wait is bounded, not a measurement.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_fixture->paddock({QStringLiteral("logs"), QLatin1String(kName)}).out == QLatin1String("started\n"), 20000);
}

void TestSandboxDetached::execReachesTheUpstreamThroughTheProxy()
{
    const Finished exec = m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("curl"),
                                              QStringLiteral("-s"), QStringLiteral("-f"), m_fixture->allowedUrl()});
    QVERIFY2(exec.exitCode == 0, qPrintable(exec.err + m_fixture->daemonLog()));
    QCOMPARE(exec.out, QLatin1String(LocalUpstream::kBody));
    const Finished status = m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("sh"),
                                                QStringLiteral("-c"), QStringLiteral("exit 5")});
    QCOMPARE(status.exitCode, 5);
}

void TestSandboxDetached::sandboxSurvivesADaemonKilledAndRestarted()
{
    m_fixture->killDaemon();
    QVERIFY(m_fixture->startDaemon());
    const QJsonObject sandbox = m_fixture->listed().value(QLatin1String(kName));
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    // The new daemon listens at the same path; the sandbox, untouched, reaches it.
    const Finished exec = m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("curl"),
                                              QStringLiteral("-s"), QStringLiteral("-f"), m_fixture->allowedUrl()});
    QVERIFY2(exec.exitCode == 0, qPrintable(exec.err + m_fixture->daemonLog()));
    QCOMPARE(exec.out, QLatin1String(LocalUpstream::kBody));
    // And the kit's permissions came back with it: other names are still refused.
    const Finished denied =
        m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("curl"), QStringLiteral("-s"),
                            QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-w"),
                            QStringLiteral("%{http_code}"), m_fixture->otherUrl()});
    QCOMPARE(denied.out, QStringLiteral("403"));
}

void TestSandboxDetached::stopThenRemove()
{
    const Finished stop = m_fixture->paddock({QStringLiteral("stop"), QLatin1String(kName)});
    QVERIFY2(stop.exitCode == 0, qPrintable(stop.err));
    QCOMPARE(m_fixture->listed().value(QLatin1String(kName)).value(QLatin1String("status")).toString(),
             QStringLiteral("stopped"));
    const Finished rm = m_fixture->paddock({QStringLiteral("rm"), QLatin1String(kName)});
    QVERIFY2(rm.exitCode == 0, qPrintable(rm.err));
    QVERIFY(!m_fixture->listed().contains(QLatin1String(kName)));
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/sandboxes/bg/home"))));
    // The workspace is the user's: removing the sandbox leaves it.
    QVERIFY(QFileInfo::exists(m_fixture->workspace() + QStringLiteral("/README.md")));
}

void TestSandboxDetached::defaultNameIsKitAndWorkspaceFolder()
{
    const QString folder = m_fixture->path(QStringLiteral("My Project_2"));
    QVERIFY(QDir().mkpath(folder));
    const Finished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), m_fixture->kitDir(), folder});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.trimmed(), QStringLiteral("probe-my-project-2"));
    QVERIFY(m_fixture->listed().contains(QStringLiteral("probe-my-project-2")));
    const Finished rm =
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("probe-my-project-2")});
    QVERIFY2(rm.exitCode == 0, qPrintable(rm.err));
}

QTEST_GUILESS_MAIN(TestSandboxDetached)
#include "tst_sandbox_detached.moc"
