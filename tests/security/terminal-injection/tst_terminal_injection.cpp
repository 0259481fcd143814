// SPDX-License-Identifier: GPL-3.0-or-later
// Attack: the agent pushes a command into its terminal's input with TIOCSTI, hoping it lands in
// the person's own terminal and their shell runs it once they leave the sandbox. A person's
// shell on a real pseudo-terminal runs `paddock attach`, then reads what is waiting in its
// input; the agent tries every descriptor it has and /dev/tty.
#include "AttackSupport.h"
#include "Terminal.h"

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using paddock::test::Terminal;

class TestTerminalInjection : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void keystrokesNeverReachThePersonsTerminal();

private:
    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestTerminalInjection::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestTerminalInjection::keystrokesNeverReachThePersonsTerminal()
{
    const QString name = QStringLiteral("typist");
    // The agent waits for the person to attach and say go, then tries.
    const Finished run =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("-t"),
                            QStringLiteral("--kit"), m_fixture->kitDir(), QStringLiteral("--name"), name,
                            m_fixture->workspace(), paddock::test::securityScripts(), QStringLiteral("--"),
                            QStringLiteral("echo agent-ready; read go; python3 %1; echo agent-done; sleep 1")
                                .arg(paddock::test::securityScript(QStringLiteral("tiocsti.py")))});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));

    // The person's shell: attach, and once back, whatever is waiting in the terminal's input
    // is read as the shell would read its next command.
    const QString shell =
        QStringLiteral("'%1' attach %2; echo; echo back; "
                       "if read -t 3 line; then echo \"waiting:[$line]\"; else echo nothing-waiting; fi")
            .arg(QStringLiteral(PADDOCK_BIN), name);
    Terminal terminal({QStringLiteral("-c"), shell}, m_fixture->environment(), m_fixture->workspace(), 40, 100,
                      QByteArrayLiteral("/bin/bash"));
    QVERIFY2(terminal.waitFor("agent-ready", 20000), terminal.screen().constData());
    terminal.type("go\r");
    QVERIFY2(terminal.waitFor("agent-done", 30000), terminal.screen().constData());
    QVERIFY2(terminal.waitFor("back", 30000), terminal.screen().constData());
    QVERIFY2(terminal.waitFor("nothing-waiting", 10000) || terminal.screen().contains("waiting:"),
             terminal.screen().constData());
    QCOMPARE(terminal.wait(), 0);
    const QByteArray screen = terminal.screen();
    // Each try was refused, and nothing reached the person's shell, nor the agent's own input.
    for (const char *target : {"tiocsti-fd0", "tiocsti-fd1", "tiocsti-fd2", "tiocsti-dev-tty"}) {
        QVERIFY2(screen.contains(target), screen.constData());
        QVERIFY2(!screen.contains(QByteArray(target) + " 0"), screen.constData());
    }
    QVERIFY2(screen.contains("nothing-waiting"), screen.constData());
    QVERIFY2(!screen.contains("INJECTED-42"), screen.constData());
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), name}).exitCode, 0);
}

QTEST_GUILESS_MAIN(TestTerminalInjection)
#include "tst_terminal_injection.moc"
