// SPDX-License-Identifier: GPL-3.0-or-later
// A sandbox a person lives in, as an ordinary user (run by tests/support/run-as-user.sh):
// it outlives its agent, terminals attach to the agent and leave, commands run beside it as
// the agent's user or root, and nothing inside can reach or stop the session channel.
#include "ProcessRun.h"
#include "SandboxFixture.h"
#include "Terminal.h"

#include <QJsonObject>
#include <QtTest>

#include <csignal>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using paddock::test::Terminal;

class TestSandboxSessions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void runsAsAnOrdinaryUser();
    void sandboxOutlivesItsAgent();
    void runRemovesWithRm();
    void execTakesUserDirectoryAndEnvironment();
    void execPassesInputAndStatus();
    void interruptReachesTheCommand();
    void attachLeavesAndRejoins();
    void closingTheTerminalLeavesTheAgent();
    void terminalSizeFollows();
    void agentExitEndsAttachWithItsStatus();
    void insideCannotReachTheSupervisor();
    void sessionsSurviveADaemonRestart();
    void stopEndsEverything();

private:
    Finished paddock(const QStringList &arguments) { return m_fixture->paddock(arguments); }
    QJsonObject listed(const QString &name) { return m_fixture->listed().value(name); }
    /** A sandbox whose agent runs @p script (the kit's entrypoint is `sh -c`) in a terminal, started at once. */
    void startDetached(const QString &name, const QString &script)
    {
        const Finished run = paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("-t"),
                                      QStringLiteral("--kit"), m_fixture->kitDir(), QStringLiteral("--name"), name,
                                      m_fixture->workspace(), QStringLiteral("--"), script});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }
    /** startDetached(), unless an earlier test left @p name running: each test can run alone. */
    void ensureRunning(const QString &name, const QString &script)
    {
        if (listed(name).value(QLatin1String("status")).toString() != QLatin1String("running"))
            startDetached(name, script);
    }
    /** `execs`, an agent that sleeps, for the exec tests. */
    void ensureExecs() { ensureRunning(QStringLiteral("execs"), QStringLiteral("sleep 600")); }
    /** `talk`, an agent that echoes each line it reads, for attach and what outlives a daemon. */
    void ensureTalk()
    {
        ensureRunning(QStringLiteral("talk"), QStringLiteral("while read line; do echo \"echo:$line\"; done"));
    }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
            env.insert(QLatin1String(name), qEnvironmentVariable(name));
        env.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
        env.insert(QStringLiteral("PADDOCK_INIT"), QStringLiteral(PADDOCK_INIT_BIN));
        return env;
    }

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestSandboxSessions::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxSessions::runsAsAnOrdinaryUser()
{
    // The point of this test: no privilege on the host. When the suite runs as root, the
    // runner gives this process to an ordinary user.
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
}

void TestSandboxSessions::sandboxOutlivesItsAgent()
{
    const Finished first = m_fixture->runScript(QStringLiteral("lives"), QStringLiteral("echo first; exit 3"));
    QCOMPARE(first.exitCode, 3);
    QCOMPARE(first.out, QStringLiteral("first\n"));
    QJsonObject sandbox = listed(QStringLiteral("lives"));
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    QCOMPARE(sandbox[QLatin1String("agent")][QLatin1String("state")].toString(), QStringLiteral("exited"));
    QCOMPARE(sandbox[QLatin1String("agent")][QLatin1String("exitCode")].toInt(), 3);
    const Finished ls = paddock({QStringLiteral("ls")});
    QVERIFY2(ls.out.contains(QRegularExpression(QStringLiteral("lives .* running +exited \\(3\\)"))),
             qPrintable(ls.out));

    // The same sandbox runs the next agent session: the home it wrote is still there.
    const Finished second =
        m_fixture->runScript(QStringLiteral("lives"), QStringLiteral("echo kept > ~/mark; cat ~/mark; exit 4"));
    QCOMPARE(second.exitCode, 4);
    QCOMPARE(second.out, QStringLiteral("kept\n"));
    const Finished third = m_fixture->runScript(QStringLiteral("lives"), QStringLiteral("cat ~/mark"));
    QCOMPARE(third.out, QStringLiteral("kept\n"));
    QCOMPARE(listed(QStringLiteral("lives")).value(QLatin1String("status")).toString(), QStringLiteral("running"));
}

void TestSandboxSessions::runRemovesWithRm()
{
    const Finished run = paddock({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--kit"),
                                  m_fixture->kitDir(), QStringLiteral("--name"), QStringLiteral("gone"),
                                  m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("exit 5")});
    QCOMPARE(run.exitCode, 5);
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("gone")));
}

void TestSandboxSessions::execTakesUserDirectoryAndEnvironment()
{
    ensureExecs();
    Finished exec =
        paddock({QStringLiteral("exec"), QStringLiteral("-e"), QStringLiteral("FOO=bar baz"), QStringLiteral("-w"),
                 QStringLiteral("/tmp"), QStringLiteral("execs"), QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("id -u; pwd; echo \"$FOO\"; echo $KIT_GREETING")});
    QVERIFY2(exec.exitCode == 0, qPrintable(exec.err));
    QCOMPARE(exec.out, QStringLiteral("1000\n/tmp\nbar baz\nbonjour\n"));
    exec =
        paddock({QStringLiteral("exec"), QStringLiteral("-u"), QStringLiteral("root"), QStringLiteral("execs"),
                 QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("id -u; grep CapEff /proc/self/status")});
    QVERIFY2(exec.exitCode == 0, qPrintable(exec.err));
    QCOMPARE(exec.out, QStringLiteral("0\nCapEff:\t0000000000000000\n"));
    // Any uid: each is a user namespace of its own inside the sandbox's, holding nothing more.
    exec = paddock({QStringLiteral("exec"), QStringLiteral("-u"), QStringLiteral("4321"), QStringLiteral("execs"),
                    QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("id -u; id -g")});
    QVERIFY2(exec.exitCode == 0, qPrintable(exec.err));
    QCOMPARE(exec.out, QStringLiteral("4321\n4321\n"));
    exec = paddock({QStringLiteral("exec"), QStringLiteral("-u"), QStringLiteral("postgres"), QStringLiteral("execs"),
                    QStringLiteral("id")});
    QCOMPARE(exec.exitCode, 1);
    QVERIFY2(exec.err.contains(QLatin1String("unknown user 'postgres'")), qPrintable(exec.err));
    exec = paddock({QStringLiteral("exec"), QStringLiteral("execs"), QStringLiteral("no-such-program")});
    QCOMPARE(exec.exitCode, 127);
    QVERIFY2(exec.err.contains(QLatin1String("no-such-program: command not found")), qPrintable(exec.err));
}

void TestSandboxSessions::execPassesInputAndStatus()
{
    ensureExecs();
    QProcess exec;
    exec.setProcessEnvironment(environment());
    exec.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("exec"), QStringLiteral("execs"), QStringLiteral("sh"),
                                             QStringLiteral("-c"), QStringLiteral("wc -c; exit 42")});
    QVERIFY(exec.waitForStarted());
    const QByteArray input(300000, 'x'); // larger than any buffer on the way
    exec.write(input);
    exec.closeWriteChannel();
    QVERIFY(exec.waitForFinished(30000));
    QCOMPARE(exec.exitCode(), 42);
    QCOMPARE(exec.readAllStandardOutput().trimmed(), QByteArray("300000"));
}

void TestSandboxSessions::interruptReachesTheCommand()
{
    ensureExecs();
    QProcess exec;
    exec.setProcessEnvironment(environment());
    exec.start(QStringLiteral(PADDOCK_BIN),
               {QStringLiteral("exec"), QStringLiteral("execs"), QStringLiteral("sh"), QStringLiteral("-c"),
                QStringLiteral("trap 'echo got-int; exit 9' INT; echo ready; while :; do sleep 0.1; done")});
    QVERIFY(exec.waitForStarted());
    QVERIFY(paddock::test::waitForOutput(exec, "ready", 15000));
    ::kill(pid_t(exec.processId()), SIGINT);
    QVERIFY(exec.waitForFinished(15000));
    QCOMPARE(exec.exitCode(), 9);
    QVERIFY(exec.readAllStandardOutput().contains("got-int"));
}

void TestSandboxSessions::attachLeavesAndRejoins()
{
    ensureTalk();
    {
        Terminal terminal({QStringLiteral("attach"), QStringLiteral("talk")}, environment(), m_fixture->workspace());
        terminal.type("one\r");
        QVERIFY2(terminal.waitFor("echo:one"), terminal.screen().constData());
        terminal.type("\x10\x11"); // Ctrl-P Ctrl-Q
        QCOMPARE(terminal.wait(), 0);
        QVERIFY2(terminal.screen().contains("left talk running"), terminal.screen().constData());
    }
    QJsonObject sandbox = listed(QStringLiteral("talk"));
    QCOMPARE(sandbox[QLatin1String("agent")][QLatin1String("state")].toString(), QStringLiteral("running"));
    {
        // The agent's recent output comes first, then it answers this terminal.
        Terminal terminal({QStringLiteral("attach"), QStringLiteral("talk")}, environment(), m_fixture->workspace());
        QVERIFY2(terminal.waitFor("echo:one"), terminal.screen().constData());
        terminal.type("two\r");
        QVERIFY2(terminal.waitFor("echo:two"), terminal.screen().constData());
        // A Ctrl-P not followed by Ctrl-Q reaches the agent: the terminal does not leave.
        terminal.type("\x10"
                      "x\r");
        QVERIFY2(terminal.waitFor("echo:\x10x"), terminal.screen().constData());
        terminal.type("\x10\x11");
        QCOMPARE(terminal.wait(), 0);
    }
    QCOMPARE(listed(QStringLiteral("talk"))[QLatin1String("agent")][QLatin1String("state")].toString(),
             QStringLiteral("running"));
}

void TestSandboxSessions::closingTheTerminalLeavesTheAgent()
{
    startDetached(QStringLiteral("closer"), QStringLiteral("while read line; do echo \"echo:$line\"; done"));
    // As the window's terminal runs it: a shell that stays (to keep a failure on screen) is the
    // terminal's session leader, so attach reads the hang-up before any SIGHUP reaches it.
    Terminal terminal(
        {QStringLiteral("-c"), QStringLiteral("\"$0\" attach closer; sleep 30"), QStringLiteral(PADDOCK_BIN)},
        environment(), m_fixture->workspace(), 40, 100, QByteArrayLiteral("/bin/sh"));
    terminal.type("one\r");
    QVERIFY2(terminal.waitFor("echo:one"), terminal.screen().constData());
    QCOMPARE(listed(QStringLiteral("closer"))[QLatin1String("agent")][QLatin1String("attached")].toInt(), 1);
    terminal.hangUp();
    QTRY_COMPARE_WITH_TIMEOUT(
        listed(QStringLiteral("closer"))[QLatin1String("agent")][QLatin1String("attached")].toInt(), 0, 10000);
    // The agent got no end of input: it still runs, and answers the next terminal.
    QTest::qWait(500);
    QCOMPARE(listed(QStringLiteral("closer"))[QLatin1String("agent")][QLatin1String("state")].toString(),
             QStringLiteral("running"));
    Terminal again({QStringLiteral("attach"), QStringLiteral("closer")}, environment(), m_fixture->workspace());
    again.type("two\r");
    QVERIFY2(again.waitFor("echo:two"), again.screen().constData());
    again.type("\x10\x11");
    QCOMPARE(again.wait(), 0);
}

void TestSandboxSessions::terminalSizeFollows()
{
    startDetached(QStringLiteral("sized"), QStringLiteral("while read line; do eval \"$line\"; done"));
    Terminal terminal({QStringLiteral("attach"), QStringLiteral("sized")}, environment(), m_fixture->workspace(), 33,
                      91);
    terminal.type("echo size=$(stty size)\r");
    QVERIFY2(terminal.waitFor("size=33 91"), terminal.screen().constData());
    terminal.resize(50, 120);
    QTest::qWait(600);
    terminal.type("echo size=$(stty size)\r");
    QVERIFY2(terminal.waitFor("size=50 120"), terminal.screen().constData());
    terminal.type("\x10\x11");
    QCOMPARE(terminal.wait(), 0);
}

void TestSandboxSessions::agentExitEndsAttachWithItsStatus()
{
    startDetached(QStringLiteral("ends"), QStringLiteral("read line; echo \"got:$line\"; exit 6"));
    Terminal terminal({QStringLiteral("attach"), QStringLiteral("ends")}, environment(), m_fixture->workspace());
    terminal.type("bye\r");
    QVERIFY2(terminal.waitFor("got:bye"), terminal.screen().constData());
    QCOMPARE(terminal.wait(), 6);
    QJsonObject sandbox = listed(QStringLiteral("ends"));
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    QCOMPARE(sandbox[QLatin1String("agent")][QLatin1String("exitCode")].toInt(), 6);
    // Attaching to an agent that ended says so, and --start runs it again.
    const Finished again = paddock({QStringLiteral("attach"), QStringLiteral("ends")});
    QCOMPARE(again.exitCode, 1);
    QVERIFY2(again.err.contains(QLatin1String("exited with status 6")), qPrintable(again.err));
    Terminal restarted({QStringLiteral("attach"), QStringLiteral("--start"), QStringLiteral("ends")}, environment(),
                       m_fixture->workspace());
    restarted.type("again\r");
    QVERIFY2(restarted.waitFor("got:again"), restarted.screen().constData());
    QCOMPARE(restarted.wait(), 6);
}

void TestSandboxSessions::insideCannotReachTheSupervisor()
{
    ensureExecs();
    // Nothing inside names the session socket, paddock-init's memory, environment and fds are
    // closed to the agent's user and to root alike, and signals from inside cannot end it.
    const QString probe =
        QStringLiteral("find / -path /proc -prune -o -name 'session.sock' -print 2>/dev/null | grep -c . ; "
                       "cat /proc/1/environ >/dev/null 2>&1 && echo environ-readable; "
                       "readlink /proc/1/fd/0 >/dev/null 2>&1 && echo fd-readable; "
                       "head -c1 /proc/1/mem >/dev/null 2>&1 && echo mem-readable; "
                       "kill -TERM 1; kill -INT 1; kill -HUP 1; kill -KILL 1; echo done");
    for (const QString &user : {QStringLiteral("agent"), QStringLiteral("root")}) {
        const Finished exec = paddock({QStringLiteral("exec"), QStringLiteral("-u"), user, QStringLiteral("execs"),
                                       QStringLiteral("sh"), QStringLiteral("-c"), probe});
        QVERIFY2(exec.exitCode == 0, qPrintable(exec.err));
        QCOMPARE(exec.out, QStringLiteral("0\ndone\n"));
    }
    QTest::qWait(500);
    QCOMPARE(listed(QStringLiteral("execs")).value(QLatin1String("status")).toString(), QStringLiteral("running"));
    const Finished still = paddock({QStringLiteral("exec"), QStringLiteral("execs"), QStringLiteral("true")});
    QCOMPARE(still.exitCode, 0);
}

void TestSandboxSessions::sessionsSurviveADaemonRestart()
{
    ensureTalk();
    m_fixture->killDaemon();
    QVERIFY(m_fixture->startDaemon());
    const Finished exec = paddock(
        {QStringLiteral("exec"), QStringLiteral("talk"), QStringLiteral("echo"), QStringLiteral("after restart")});
    QVERIFY2(exec.exitCode == 0, qPrintable(exec.err));
    QCOMPARE(exec.out, QStringLiteral("after restart\n"));
    QCOMPARE(listed(QStringLiteral("talk"))[QLatin1String("agent")][QLatin1String("state")].toString(),
             QStringLiteral("running"));
}

void TestSandboxSessions::stopEndsEverything()
{
    ensureTalk();
    const Finished stop = paddock({QStringLiteral("stop"), QStringLiteral("talk")});
    QVERIFY2(stop.exitCode == 0, qPrintable(stop.err));
    QCOMPARE(listed(QStringLiteral("talk")).value(QLatin1String("status")).toString(), QStringLiteral("stopped"));
    const Finished exec = paddock({QStringLiteral("exec"), QStringLiteral("talk"), QStringLiteral("true")});
    QCOMPARE(exec.exitCode, 1);
    QVERIFY2(exec.err.contains(QLatin1String("not running")), qPrintable(exec.err));
}

QTEST_GUILESS_MAIN(TestSandboxSessions)
#include "tst_sandbox_sessions.moc"
