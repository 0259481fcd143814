// SPDX-License-Identifier: GPL-3.0-or-later
// A Docker sandbox a person lives in, as an ordinary user in the group `docker` (run by
// tests/support/run-as-user.sh, uid 1500): it outlives its agent, terminals attach to the agent
// and leave, commands run beside it as that user or as root, the files it writes are the
// user's, and its only way out is the proxy, which refuses and logs.
#include "DockerSandboxFixture.h"
#include "ProcessRun.h"

#include "Terminal.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <csignal>

#include <unistd.h>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;
using paddock::test::Terminal;

class TestDockerSessions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void runsAsAnOrdinaryUser();
    void runReturnsTheAgentsStatusAndTheSandboxStays();
    void execRunsAsTheUserOrAsRoot();
    void execPassesInputAndStatus();
    void interruptReachesTheCommand();
    void filesWrittenInsideAreTheUsers();
    void attachLeavesTheAgentRunning();
    void verifyPassesItsChecks();
    void deniedRequestIsRefusedAndLogged();
    void stopEndsTheSandbox();

private:
    DockerFinished paddock(const QStringList &arguments) { return m_fixture->paddock(arguments); }
    QJsonObject listed(const QString &name) { return m_fixture->listed().value(name); }
    QJsonObject agentOf(const QString &name) { return listed(name).value(QLatin1String("agent")).toObject(); }
    /** `paddock run --backend docker` of the test's kit, named @p name, with @p extra arguments. */
    DockerFinished run(const QString &name, const QStringList &extra)
    {
        return paddock(QStringList{QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"),
                                   QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), name,
                                   m_fixture->workspace()} +
                       extra);
    }
    DockerFinished exec(const QStringList &arguments)
    {
        return paddock(QStringList{QStringLiteral("exec")} + arguments);
    }
    /**
     * `talk`, the sandbox the exec, attach and verify tests use, started detached unless an
     * earlier test left it running: each test can run alone. -t: the agent gets a terminal of
     * its own, which attach joins.
     */
    void ensureTalk()
    {
        if (listed(QStringLiteral("talk")).value(QLatin1String("status")).toString() == QLatin1String("running"))
            return;
        const DockerFinished started =
            paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("-t"),
                     QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), m_kit,
                     QStringLiteral("--name"), QStringLiteral("talk"), m_fixture->workspace()});
        QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    }
    std::unique_ptr<QProcess> startExec(const QStringList &arguments)
    {
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(m_fixture->environment());
        process->start(QStringLiteral(PADDOCK_BIN), QStringList{QStringLiteral("exec")} + arguments);
        return process;
    }

    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
    const QString m_uid = QString::number(::getuid());
};

void TestDockerSessions::initTestCase()
{
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture, true);
    m_kit = m_fixture->writeKit(QStringLiteral("kit"), QStringLiteral("lived-in"), m_fixture->imageTag(),
                                QStringLiteral("echo agent-ready; while read line; do echo \\\"echo:$line\\\"; done"),
                                QStringLiteral("setup:\n"
                                               "  install:\n"
                                               "    - command: test \"$(id -u)\" = 0\n"
                                               "    - command: id -u > $HOME/install-user.txt\n"
                                               "      user: agent\n"
                                               "  startup:\n"
                                               "    - command: [sh, -c, 'sleep 1; echo \"startup as $(id -u)\" > "
                                               "$HOME/startup.txt']\n"));
    QVERIFY(!m_kit.isEmpty());
}

void TestDockerSessions::runsAsAnOrdinaryUser()
{
    // The point of this test: Docker as a member of its group, not as root. When the suite
    // runs as root, the runner gives this process to an ordinary user.
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
}

void TestDockerSessions::runReturnsTheAgentsStatusAndTheSandboxStays()
{
    // setup.install ran once as the users it names (root unless told otherwise: its first
    // command fails for anyone else), setup.startup before this first agent session as the
    // sandbox's user (it waits a second before writing, so an agent beside it would find none).
    const DockerFinished first =
        run(QStringLiteral("lives"),
            {QStringLiteral("--"), QStringLiteral("cat ~/install-user.txt ~/startup.txt; echo first; exit 3")});
    QVERIFY2(first.exitCode == 3, qPrintable(first.out + first.err));
    QCOMPARE(first.out, QStringLiteral("%1\nstartup as %1\nfirst\n").arg(m_uid));
    QCOMPARE(listed(QStringLiteral("lives")).value(QLatin1String("status")).toString(), QStringLiteral("running"));
    // The daemon keeps what the supervisor said for a moment: the agent's end shows up shortly.
    QTRY_COMPARE_WITH_TIMEOUT(agentOf(QStringLiteral("lives")).value(QLatin1String("state")).toString(),
                              QStringLiteral("exited"), 10000);
    QCOMPARE(agentOf(QStringLiteral("lives")).value(QLatin1String("exitCode")).toInt(), 3);
    const DockerFinished ls = paddock({QStringLiteral("ls")});
    QVERIFY2(ls.out.contains(QRegularExpression(QStringLiteral("lives .* running +exited \\(3\\)"))),
             qPrintable(ls.out));

    // The next agent session runs in the same container, whose home kept what the last wrote.
    const DockerFinished second =
        run(QStringLiteral("lives"), {QStringLiteral("--"), QStringLiteral("echo kept > ~/mark; exit 4")});
    QCOMPARE(second.exitCode, 4);
    const DockerFinished third = run(QStringLiteral("lives"), {QStringLiteral("--"), QStringLiteral("cat ~/mark")});
    QCOMPARE(third.exitCode, 0);
    QCOMPARE(third.out, QStringLiteral("kept\n"));
    QCOMPARE(listed(QStringLiteral("lives")).value(QLatin1String("status")).toString(), QStringLiteral("running"));
    // There is no agent to join now, and attach says how the last one ended.
    const DockerFinished attach = paddock({QStringLiteral("attach"), QStringLiteral("lives")});
    QCOMPARE(attach.exitCode, 1);
    QVERIFY2(attach.err.contains(QLatin1String("exited with status 0")), qPrintable(attach.err));
}

void TestDockerSessions::execRunsAsTheUserOrAsRoot()
{
    ensureTalk();
    DockerFinished id = exec({QStringLiteral("talk"), QStringLiteral("id"), QStringLiteral("-u")});
    QVERIFY2(id.exitCode == 0, qPrintable(id.err));
    QCOMPARE(id.out, m_uid + QLatin1Char('\n'));
    // Root through the engine, with no capability all the same.
    id = exec({QStringLiteral("-u"), QStringLiteral("0"), QStringLiteral("talk"), QStringLiteral("sh"),
               QStringLiteral("-c"), QStringLiteral("id -u; grep CapEff /proc/self/status")});
    QVERIFY2(id.exitCode == 0, qPrintable(id.err));
    QCOMPARE(id.out, QStringLiteral("0\nCapEff:\t0000000000000000\n"));

    DockerFinished env = exec({QStringLiteral("-e"), QStringLiteral("FOO=bar baz"), QStringLiteral("-w"),
                               QStringLiteral("/tmp"), QStringLiteral("talk"), QStringLiteral("sh"),
                               QStringLiteral("-c"), QStringLiteral("pwd; echo \"$FOO\"; echo $HOME")});
    QVERIFY2(env.exitCode == 0, qPrintable(env.err));
    QCOMPARE(env.out, QStringLiteral("/tmp\nbar baz\n/home/agent\n"));
    env = exec({QStringLiteral("-u"), QStringLiteral("root"), QStringLiteral("-e"), QStringLiteral("FOO=as root"),
                QStringLiteral("-w"), QStringLiteral("/"), QStringLiteral("talk"), QStringLiteral("sh"),
                QStringLiteral("-c"), QStringLiteral("pwd; echo \"$FOO\"; exit 7")});
    QCOMPARE(env.exitCode, 7);
    QCOMPARE(env.out, QStringLiteral("/\nas root\n"));

    // Nothing of the session channel is in what a command inherits.
    const DockerFinished all = exec({QStringLiteral("talk"), QStringLiteral("env")});
    QVERIFY2(!all.out.contains(QLatin1String("PADDOCK_SESSION")) && !all.out.contains(QLatin1String("token")),
             qPrintable(all.out));
}

void TestDockerSessions::execPassesInputAndStatus()
{
    ensureTalk();
    std::unique_ptr<QProcess> wc = startExec(
        {QStringLiteral("talk"), QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("wc -c; exit 42")});
    QVERIFY(wc->waitForStarted());
    const QByteArray input(300000, 'x'); // larger than any buffer on the way
    wc->write(input);
    wc->closeWriteChannel();
    QVERIFY(wc->waitForFinished(60000));
    QCOMPARE(wc->exitCode(), 42);
    QCOMPARE(wc->readAllStandardOutput().trimmed(), QByteArray("300000"));
}

void TestDockerSessions::interruptReachesTheCommand()
{
    ensureTalk();
    // No terminal: the CLI's SIGINT travels to the command (the engine could not signal it).
    std::unique_ptr<QProcess> loop =
        startExec({QStringLiteral("talk"), QStringLiteral("sh"), QStringLiteral("-c"),
                   QStringLiteral("trap 'echo got-int; exit 9' INT; echo ready; while :; do sleep 0.1; done")});
    QVERIFY(loop->waitForStarted());
    QVERIFY(paddock::test::waitForOutput(*loop, "ready", 30000));
    ::kill(pid_t(loop->processId()), SIGINT);
    QVERIFY(loop->waitForFinished(15000));
    QCOMPARE(loop->exitCode(), 9);
    QVERIFY(loop->readAllStandardOutput().contains("got-int"));
}

void TestDockerSessions::filesWrittenInsideAreTheUsers()
{
    ensureTalk();
    const QString path = m_fixture->workspace() + QStringLiteral("/written-inside.txt");
    const DockerFinished write = exec({QStringLiteral("talk"), QStringLiteral("sh"), QStringLiteral("-c"),
                                       QStringLiteral("echo from-inside > '%1' && echo home > ~/home-note").arg(path)});
    QVERIFY2(write.exitCode == 0, qPrintable(write.err));
    const QFileInfo written(path);
    QVERIFY(written.exists());
    QCOMPARE(written.ownerId(), ::getuid());
    QCOMPARE(written.groupId(), ::getgid());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("from-inside\n"));
}

void TestDockerSessions::attachLeavesTheAgentRunning()
{
    ensureTalk();
    {
        Terminal terminal({QStringLiteral("attach"), QStringLiteral("talk")}, m_fixture->environment(),
                          m_fixture->workspace());
        // The agent's recent output first: it started with the sandbox.
        QVERIFY2(terminal.waitFor("agent-ready"), terminal.screen().constData());
        terminal.type("one\r");
        QVERIFY2(terminal.waitFor("echo:one"), terminal.screen().constData());
        terminal.type("\x10\x11"); // Ctrl-P Ctrl-Q
        QCOMPARE(terminal.wait(), 0);
        QVERIFY2(terminal.screen().contains("left talk running"), terminal.screen().constData());
    }
    QCOMPARE(agentOf(QStringLiteral("talk")).value(QLatin1String("state")).toString(), QStringLiteral("running"));
    Terminal again({QStringLiteral("attach"), QStringLiteral("talk")}, m_fixture->environment(),
                   m_fixture->workspace());
    QVERIFY2(again.waitFor("echo:one"), again.screen().constData());
    again.type("two\r");
    QVERIFY2(again.waitFor("echo:two"), again.screen().constData());
    again.type("\x10\x11");
    QCOMPARE(again.wait(), 0);
    QCOMPARE(listed(QStringLiteral("talk")).value(QLatin1String("status")).toString(), QStringLiteral("running"));
}

void TestDockerSessions::verifyPassesItsChecks()
{
    ensureTalk();
    const DockerFinished verified =
        paddock({QStringLiteral("verify"), QStringLiteral("talk"), QStringLiteral("--json")});
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.out + verified.err));
    const QJsonObject root = QJsonDocument::fromJson(verified.out.toUtf8()).object();
    QVERIFY(root.value(QLatin1String("passed")).toBool());
    QHash<QString, QString> statuses;
    for (const QJsonValue &check : root.value(QLatin1String("checks")).toArray())
        statuses.insert(check[QLatin1String("id")].toString(), check[QLatin1String("status")].toString());
    // The kit names no credential, so the checks about keys have nothing to look at. The log
    // check runs before any other refusal: one the policy did not choose would fail it.
    QCOMPARE(statuses.value(QStringLiteral("blocked")), QStringLiteral("ok"));
    QCOMPARE(statuses.value(QStringLiteral("workspace")), QStringLiteral("ok"));
    QCOMPARE(statuses.value(QStringLiteral("log")), QStringLiteral("ok"));
}

void TestDockerSessions::deniedRequestIsRefusedAndLogged()
{
    ensureTalk();
    // Through the loopback relay to this sandbox's proxy socket, in the user's runtime directory.
    const DockerFinished plain = exec({QStringLiteral("talk"), QStringLiteral("curl"), QStringLiteral("-sS"),
                                       QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-w"),
                                       QStringLiteral("%{http_code}"), QStringLiteral("http://denied-plain.example/")});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
    QCOMPARE(plain.out, QStringLiteral("403"));
    const DockerFinished tunnel = exec({QStringLiteral("talk"), QStringLiteral("curl"), QStringLiteral("-sS"),
                                        QStringLiteral("https://denied-tunnel.example/")});
    QCOMPARE(tunnel.exitCode, 56); // the proxy refused the CONNECT
    QVERIFY2(tunnel.err.contains(QLatin1String("403")), qPrintable(tunnel.err));

    bool logged = false;
    QString seen;
    QVERIFY(QTest::qWaitFor(
        [&] {
            seen = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("talk")}).out;
            logged = seen.contains(QLatin1String("denied-plain.example")) &&
                     seen.contains(QLatin1String("denied-tunnel.example"));
            return logged;
        },
        15000));
    QVERIFY2(logged, qPrintable(seen));
}

void TestDockerSessions::stopEndsTheSandbox()
{
    ensureTalk();
    const DockerFinished stop = paddock({QStringLiteral("stop"), QStringLiteral("talk")});
    QVERIFY2(stop.exitCode == 0, qPrintable(stop.err));
    QCOMPARE(listed(QStringLiteral("talk")).value(QLatin1String("status")).toString(), QStringLiteral("stopped"));
    const DockerFinished after = exec({QStringLiteral("talk"), QStringLiteral("true")});
    QCOMPARE(after.exitCode, 1);
    QVERIFY2(after.err.contains(QLatin1String("not running")), qPrintable(after.err));
}

QTEST_GUILESS_MAIN(TestDockerSessions)
#include "tst_docker_sessions.moc"
