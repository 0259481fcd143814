// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock run` in the foreground, as a user runs it: the real daemon hosting the proxy, a real
// bubblewrap sandbox built from a kit, real curl inside it.
#include "SandboxFixture.h"
#include "TestFiles.h"

#include "api/DaemonConnection.h"

using paddock::test::Finished;
using paddock::test::LocalUpstream;
using paddock::test::SandboxFixture;

class TestSandboxRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void environmentComesFromTheKitOnly();
    void homeHoldsTheKitFilesAndAgentInstructions();
    void workspaceFilesOfTheKitNeverOverwriteTheUsers();
    void exitStatusIsTheProgramsOwn();
    void kitCommandRunsWithoutArguments();
    void terminalGetsTheInteractiveCommand();
    void deniedHostGets403AndAnEventNamingSandboxAndKit();
    void aRefusalIsInTheLogTheMomentTheClientHasIt();
    void kitAllowedNameReachesTheUpstreamThroughItsOverride();
    void overrideAloneDoesNotAllowAName();
    void fileWrittenInTheWorkspaceAppearsOnTheHost();
    void dockerBackendWithoutAnEngineSaysSo();
    void aRunSaysHelloOnce();

private:
    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestSandboxRun::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxRun::environmentComesFromTheKitOnly()
{
    const Finished run = m_fixture->runScript(QStringLiteral("env-probe"), QStringLiteral("env"));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QStringList lines = run.out.split(QLatin1Char('\n'));
    QVERIFY2(lines.contains(QStringLiteral("TEST_API_KEY=proxy-managed")), qPrintable(run.out));
    QVERIFY2(lines.contains(QStringLiteral("KIT_GREETING=bonjour")), qPrintable(run.out));
    QVERIFY2(lines.contains(QStringLiteral("HTTP_PROXY=http://127.0.0.1:3128")), qPrintable(run.out));
    QVERIFY2(lines.contains(QStringLiteral("HOME=/home/agent")), qPrintable(run.out));
    QVERIFY2(!run.out.contains(QLatin1String(SandboxFixture::kMarker)), qPrintable(run.out));
    QVERIFY(!run.out.contains(QLatin1String("XDG_CONFIG_HOME")));
}

void TestSandboxRun::homeHoldsTheKitFilesAndAgentInstructions()
{
    const Finished run = m_fixture->runScript(
        QStringLiteral("home-probe"), QStringLiteral("cat \"$HOME/.config/x.txt\"; echo ---; cat \"$HOME/AGENTS.md\""));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, QLatin1String(SandboxFixture::kHomeFileText) + QStringLiteral("---\n") +
                          QLatin1String(SandboxFixture::kAgentText));
    // The agent profile goes to the sandbox's home, not into the user's repository.
    QVERIFY(!QFileInfo::exists(m_fixture->workspace() + QStringLiteral("/AGENTS.md")));
    QVERIFY(QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/sandboxes/home-probe/home/AGENTS.md"))));
}

void TestSandboxRun::workspaceFilesOfTheKitNeverOverwriteTheUsers()
{
    const Finished run =
        m_fixture->runScript(QStringLiteral("workspace-probe"), QStringLiteral("cat README.md KIT-NOTES.md"));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, QStringLiteral("the user's own readme\nnotes from the kit\n"));
}

void TestSandboxRun::exitStatusIsTheProgramsOwn()
{
    const Finished run = m_fixture->runScript(QStringLiteral("exit-probe"), QStringLiteral("echo bye; exit 7"));
    QCOMPARE(run.out, QStringLiteral("bye\n"));
    QCOMPARE(run.exitCode, 7);
    // Run again: the same sandbox, the new command.
    const Finished again = m_fixture->runScript(QStringLiteral("exit-probe"), QStringLiteral("exit 3"));
    QCOMPARE(again.exitCode, 3);
}

void TestSandboxRun::kitCommandRunsWithoutArguments()
{
    const Finished run =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(),
                            QStringLiteral("--name"), QStringLiteral("default-probe"), m_fixture->workspace()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, QStringLiteral("hello from the kit\n"));
}

void TestSandboxRun::terminalGetsTheInteractiveCommand()
{
    // script(1) gives paddock a terminal, as a person typing the command would.
    const QString command = QStringLiteral("%1 run --kit %2 --name tty-probe %3")
                                .arg(QStringLiteral(PADDOCK_BIN), m_fixture->kitDir(), m_fixture->workspace());
    const Finished run =
        m_fixture->run(QStringLiteral("script"), {QStringLiteral("-qec"), command, QStringLiteral("/dev/null")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QLatin1String("interactive")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("on a terminal")), qPrintable(run.out));
}

void TestSandboxRun::aRefusalIsInTheLogTheMomentTheClientHasIt()
{
    // As a script (or the course's check) does: the run returns with its 403, the log is read
    // at once, with no wait in between. Several times, so that luck with the writer's timer
    // cannot make it pass.
    const Finished created = m_fixture->runScript(QStringLiteral("read-at-once"), QStringLiteral("true"));
    QVERIFY2(created.exitCode == 0, qPrintable(created.err));
    for (int i = 0; i < 6; ++i) {
        const QString host = QStringLiteral("at-once-%1.test").arg(i);
        const Finished run =
            m_fixture->runScript(QStringLiteral("read-at-once"),
                                 QStringLiteral("curl -s -o /dev/null -w '%{http_code}' http://%1/").arg(host));
        QCOMPARE(run.out, QStringLiteral("403"));
        const Finished log = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"),
                                                 QStringLiteral("--json"), QStringLiteral("read-at-once")});
        QVERIFY2(log.out.contains(host), qPrintable(host + QStringLiteral(" is not in the log read at once")));
    }
}

void TestSandboxRun::deniedHostGets403AndAnEventNamingSandboxAndKit()
{
    paddock::api::DaemonConnection subscriber;
    QString error;
    QVERIFY2(subscriber.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    const paddock::api::Reply subscribed = subscriber.call(
        QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("network")}}});
    QVERIFY2(!subscribed.isError(), qPrintable(subscribed.errorMessage()));

    const Finished run =
        m_fixture->runScript(QStringLiteral("deny-probe"), QStringLiteral("curl -s -i http://denied.test/"));
    QVERIFY2(run.out.startsWith(QLatin1String("HTTP/1.1 403")), qPrintable(run.out + run.err));
    static const QRegularExpression reason(QStringLiteral("(?im)^X-Paddock-Reason: .+$"));
    QVERIFY2(reason.match(run.out).hasMatch(), qPrintable(run.out));

    std::optional<QJsonObject> denial;
    while (!denial) {
        const std::optional<paddock::api::Event> event = subscriber.waitForEvent(20000);
        QVERIFY2(event, "no event reached the subscriber");
        QCOMPARE(event->topic, QStringLiteral("network"));
        if (event->data.value(QLatin1String("host")).toString() == QLatin1String("denied.test"))
            denial = event->data;
    }
    QCOMPARE(denial->value(QLatin1String("sandbox")).toString(), QStringLiteral("deny-probe"));
    QCOMPARE(denial->value(QLatin1String("kit")).toString(), QStringLiteral("probe"));
    QCOMPARE(denial->value(QLatin1String("outcome")).toString(), QStringLiteral("denied"));
    QCOMPARE(denial->value(QLatin1String("port")).toInt(), 80);
    QCOMPARE(denial->value(QLatin1String("protocol")).toString(), QStringLiteral("http"));
    QVERIFY(!denial->value(QLatin1String("rule")).toString().isEmpty());
    QVERIFY(!denial->value(QLatin1String("reason")).toString().isEmpty());
    QVERIFY(!denial->value(QLatin1String("time")).toString().isEmpty());
}

void TestSandboxRun::kitAllowedNameReachesTheUpstreamThroughItsOverride()
{
    // allowed.test resolves to 127.0.0.1 by a trusted override in policy.yaml: the user named
    // that address, so the rebinding guard does not refuse it; the kit's permission allows it.
    const Finished run = m_fixture->runScript(QStringLiteral("allow-probe"),
                                              QStringLiteral("curl -s -f %1").arg(m_fixture->allowedUrl()));
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err + m_fixture->daemonLog()));
    QCOMPARE(run.out, QLatin1String(LocalUpstream::kBody));
}

void TestSandboxRun::overrideAloneDoesNotAllowAName()
{
    // other.test has an override too, but no rule allows it: the override only resolves.
    const Finished run =
        m_fixture->runScript(QStringLiteral("other-probe"),
                             QStringLiteral("curl -s -o /dev/null -w '%{http_code}' %1").arg(m_fixture->otherUrl()));
    QCOMPARE(run.out, QStringLiteral("403"));
}

void TestSandboxRun::fileWrittenInTheWorkspaceAppearsOnTheHost()
{
    const QString target = m_fixture->workspace() + QStringLiteral("/from-sandbox.txt");
    QVERIFY(!QFileInfo::exists(target));
    const Finished run =
        m_fixture->runScript(QStringLiteral("write-probe"), QStringLiteral("echo written > \"$PWD/from-sandbox.txt\""));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QFile file(target);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("written\n"));
}

void TestSandboxRun::dockerBackendWithoutAnEngineSaysSo()
{
    const Finished run =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"),
                            QStringLiteral("--kit"), m_fixture->kitDir(), m_fixture->workspace()});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("the docker backend cannot run sandboxes here")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("no-docker.sock")), qPrintable(run.err));
}

void TestSandboxRun::aRunSaysHelloOnce()
{
    // Host grants, credentials, inspect, create, start and remove: one connection to paddockd,
    // as its log (each connection's first line) shows.
    SandboxFixture logged;
    logged.addEnvironment(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("paddock.api.server.debug=true"));
    QVERIFY2(logged.setUp(), "the fixture did not start (python3, paddockd)");
    const Finished run = logged.paddock({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--kit"),
                                         logged.kitDir(), QStringLiteral("--name"), QStringLiteral("hello-once"),
                                         logged.workspace(), QStringLiteral("--"), QStringLiteral("echo ran")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out, QStringLiteral("ran\n"));
    // Every connection but the fixture's own (this process's, which waited for the daemon).
    const QString log =
        QString::fromUtf8(paddock::test::readFile(logged.path(QStringLiteral("state/paddock/paddockd.log"))));
    QStringList clients;
    QRegularExpressionMatchIterator opened =
        QRegularExpression(QStringLiteral("connection \\d+ from pid (\\d+)")).globalMatch(log);
    while (opened.hasNext()) {
        const QString pid = opened.next().captured(1);
        if (pid != QString::number(QCoreApplication::applicationPid()))
            clients << pid;
    }
    QVERIFY2(clients.size() == 1, qPrintable(log));
}

QTEST_GUILESS_MAIN(TestSandboxRun)
#include "tst_sandbox_run.moc"
