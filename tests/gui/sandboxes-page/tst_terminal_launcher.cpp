// SPDX-License-Identifier: GPL-3.0-or-later
// How the window opens a terminal on a sandbox: which terminal is found, its arguments, the
// commands run in it, the shell that keeps a failed command's window open, and the clipboard.
// The shell parts run for real with /bin/sh.
#include "Clipboard.h"
#include "GuiTestSupport.h"
#include "TerminalLauncher.h"

#include <QClipboard>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

using namespace paddock;
using gui::TerminalLauncher;

namespace {

bool writeExecutable(const QString &path, const QByteArray &text)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return false;
    file.close();
    return file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

struct Run
{
    int exitCode = -1;
    QString output;
};

/** Runs @p argv (program first) with @p input on its standard input. */
Run run(QStringList argv, const QByteArray &input = {})
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(argv.takeFirst(), argv);
    process.waitForStarted();
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(10000))
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

} // namespace

class TestTerminalLauncher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void terminalArguments();
    void commands();
    void quotingForAPerson();
    void failedCommandsWaitForEnter();
    void findsTheTerminal();
    void opensDetached();
    void withoutTerminalSaysWhatToRun();
    void agentVerbsOpenAndSessionsList();
    void clipboard();

private:
    QString m_dir;
    QByteArray m_path;
};

void TestTerminalLauncher::initTestCase()
{
    m_dir = guitest::isolateEnvironment();
    m_path = qgetenv("PATH");
}

void TestTerminalLauncher::init()
{
    qputenv("PATH", m_path);
    qunsetenv("TERMINAL");
}

void TestTerminalLauncher::terminalArguments()
{
    const QStringList inner{QStringLiteral("paddock"), QStringLiteral("attach"), QStringLiteral("web")};
    QCOMPARE(TerminalLauncher::terminalArgv(QStringLiteral("/usr/bin/gnome-terminal"), inner, QStringLiteral("t")),
             (QStringList{QStringLiteral("/usr/bin/gnome-terminal"), QStringLiteral("--")} + inner));
    QCOMPARE(TerminalLauncher::terminalArgv(QStringLiteral("/usr/bin/konsole"), inner, QStringLiteral("t")),
             (QStringList{QStringLiteral("/usr/bin/konsole"), QStringLiteral("-e")} + inner));
    // xterm is told the window's title; it would otherwise be the shell's name.
    QCOMPARE(TerminalLauncher::terminalArgv(QStringLiteral("/opt/xterm"), inner, QStringLiteral("web: agent")),
             (QStringList{QStringLiteral("/opt/xterm"), QStringLiteral("-T"), QStringLiteral("web: agent"),
                          QStringLiteral("-e")} +
              inner));
    QCOMPARE(TerminalLauncher::terminalArgv(QStringLiteral("/opt/xterm"), inner),
             (QStringList{QStringLiteral("/opt/xterm"), QStringLiteral("-e")} + inner));
}

void TestTerminalLauncher::commands()
{
    TerminalLauncher launcher;
    launcher.setPaddockProgram(QStringLiteral("/opt/paddock/bin/paddock"));
    QCOMPARE(
        launcher.agentCommand(QStringLiteral("web"), false),
        (QStringList{QStringLiteral("/opt/paddock/bin/paddock"), QStringLiteral("attach"), QStringLiteral("web")}));
    QCOMPARE(launcher.agentCommand(QStringLiteral("web"), true),
             (QStringList{QStringLiteral("/opt/paddock/bin/paddock"), QStringLiteral("attach"),
                          QStringLiteral("--start"), QStringLiteral("web")}));
    const QStringList shell = launcher.shellCommand(QStringLiteral("web"));
    QCOMPARE(shell.mid(0, 6),
             (QStringList{QStringLiteral("/opt/paddock/bin/paddock"), QStringLiteral("exec"), QStringLiteral("-it"),
                          QStringLiteral("web"), QStringLiteral("sh"), QStringLiteral("-c")}));
    // The choice of shell, run by a sh without bash on its PATH and by one with it.
    const QString noBash = m_dir + QStringLiteral("/no-bash");
    QDir().mkpath(noBash);
    for (const char *tool : {"sh", "echo", "id"}) // /etc/profile asks id
        QFile::link(QStandardPaths::findExecutable(QLatin1String(tool)),
                    noBash + QLatin1Char('/') + QLatin1String(tool));
    const QByteArray probe = "echo \"$0\"\n";
    QCOMPARE(run({QStringLiteral("/usr/bin/env"), QStringLiteral("PATH=") + noBash, QStringLiteral("sh"),
                  QStringLiteral("-c"), shell.at(6)},
                 probe)
                 .output.trimmed(),
             QStringLiteral("sh"));
    QCOMPARE(run({QStringLiteral("/bin/sh"), QStringLiteral("-c"), shell.at(6)}, probe).output.trimmed(),
             QStringLiteral("bash"));
    QCOMPARE(TerminalLauncher::typedAgentCommand(QStringLiteral("web"), false), QStringLiteral("paddock attach web"));
    QCOMPARE(TerminalLauncher::typedAgentCommand(QStringLiteral("web"), true),
             QStringLiteral("paddock attach --start web"));
}

void TestTerminalLauncher::quotingForAPerson()
{
    QCOMPARE(TerminalLauncher::shellJoin({QStringLiteral("paddock"), QStringLiteral("exec"), QStringLiteral("-it"),
                                          QStringLiteral("web"), QStringLiteral("sh"), QStringLiteral("-c"),
                                          QStringLiteral("echo it's $HOME")}),
             QStringLiteral("paddock exec -it web sh -c 'echo it'\\''s $HOME'"));
    // What a shell makes of the line is the list again.
    const Run echoed = run({QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                            QStringLiteral("printf '%s\\n' ") +
                                TerminalLauncher::shellJoin({QStringLiteral("a b"), QStringLiteral("it's"),
                                                             QStringLiteral("$(x)"), QStringLiteral("")})});
    QCOMPARE(echoed.output, QStringLiteral("a b\nit's\n$(x)\n\n"));
}

void TestTerminalLauncher::failedCommandsWaitForEnter()
{
    // Success: the window closes at once, nothing is asked.
    Run ok = run(TerminalLauncher::holdOnFailure({QStringLiteral("true")}));
    QCOMPARE(ok.exitCode, 0);
    QCOMPARE(ok.output, QString());

    // Failure: the status is said, and the shell waits for Enter before it ends with that status.
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    QStringList argv = TerminalLauncher::holdOnFailure(
        {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo the agent failed; exit 3")});
    process.start(argv.takeFirst(), argv);
    QVERIFY(process.waitForStarted());
    QTRY_VERIFY(process.bytesAvailable() > 0 &&
                QString::fromUtf8(process.peek(4096)).contains(QStringLiteral("press Enter")));
    QVERIFY(!process.waitForFinished(500)); // still waiting
    process.write("\n");
    QVERIFY(process.waitForFinished(5000));
    QCOMPARE(process.exitCode(), 3);
    QCOMPARE(QString::fromUtf8(process.readAll()),
             QStringLiteral("the agent failed\n\n[ended with status 3: press Enter to close this window] "));

    // Arguments are passed as they are, never read as shell code.
    const QString marker = m_dir + QStringLiteral("/ran");
    const Run literal = run(TerminalLauncher::holdOnFailure(
        {QStringLiteral("printf"), QStringLiteral("%s"), QStringLiteral("$(touch %1)").arg(marker)}));
    QCOMPARE(literal.output, QStringLiteral("$(touch %1)").arg(marker));
    QVERIFY(!QFileInfo::exists(marker));
}

void TestTerminalLauncher::findsTheTerminal()
{
    const QString bin = m_dir + QStringLiteral("/bin");
    QDir().mkpath(bin);
    qputenv("PATH", QFile::encodeName(bin));
    TerminalLauncher launcher;
    QVERIFY(!launcher.available());
    QCOMPARE(launcher.terminal(), QString());

    // One is installed: refresh() finds it.
    QVERIFY(writeExecutable(bin + QStringLiteral("/konsole"), "#!/bin/sh\n"));
    QSignalSpy changed(&launcher, &TerminalLauncher::terminalChanged);
    launcher.refresh();
    QCOMPARE(changed.count(), 1);
    QVERIFY(launcher.available());
    QCOMPARE(launcher.terminal(), bin + QStringLiteral("/konsole"));
    // Debian's alternative comes before the named terminals.
    QVERIFY(writeExecutable(bin + QStringLiteral("/x-terminal-emulator"), "#!/bin/sh\n"));
    QCOMPARE(TerminalLauncher::findTerminal(), bin + QStringLiteral("/x-terminal-emulator"));
    // $TERMINAL wins, by name on PATH or by path.
    QVERIFY(writeExecutable(bin + QStringLiteral("/mine"), "#!/bin/sh\n"));
    qputenv("TERMINAL", "mine");
    QCOMPARE(TerminalLauncher::findTerminal(), bin + QStringLiteral("/mine"));
    qputenv("TERMINAL", QFile::encodeName(bin + QStringLiteral("/mine")));
    QCOMPARE(TerminalLauncher::findTerminal(), bin + QStringLiteral("/mine"));
    // A $TERMINAL that is not there is passed over.
    qputenv("TERMINAL", "no-such-terminal");
    QCOMPARE(TerminalLauncher::findTerminal(), bin + QStringLiteral("/x-terminal-emulator"));
}

void TestTerminalLauncher::opensDetached()
{
    const QString record = m_dir + QStringLiteral("/args");
    const QString fake = m_dir + QStringLiteral("/fake-terminal");
    QVERIFY(writeExecutable(
        fake,
        QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1.tmp' && mv '%1.tmp' '%1'\n").arg(record).toUtf8()));
    qputenv("TERMINAL", QFile::encodeName(fake));
    TerminalLauncher launcher;
    launcher.setPaddockProgram(QStringLiteral("/opt/paddock"));
    QVERIFY(launcher.openAgent(QStringLiteral("web"), true));
    QCOMPARE(launcher.error(), QString());
    QTRY_VERIFY(QFileInfo::exists(record));
    QFile file(record);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList args = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(args.mid(0, 3), (QStringList{QStringLiteral("-e"), QStringLiteral("/bin/sh"), QStringLiteral("-c")}));
    QCOMPARE(args.mid(5), (QStringList{QStringLiteral("/opt/paddock"), QStringLiteral("attach"),
                                       QStringLiteral("--start"), QStringLiteral("web")}));
}

void TestTerminalLauncher::agentVerbsOpenAndSessionsList()
{
    // A stand-in paddock: `agent NAME --sessions` prints ids (a blank line and a control
    // character among them), and fails for the sandbox "broken".
    const QString paddock = m_dir + QStringLiteral("/fake-paddock");
    QVERIFY(writeExecutable(paddock,
                            "#!/bin/sh\n"
                            "[ \"$1 $3\" = 'agent --sessions' ] || exit 9\n"
                            "[ \"$2\" = broken ] && { echo 'kit k does not declare a list verb' >&2; exit 1; }\n"
                            "printf 'newest\\n\\nold one *\\nbad\\001id\\n'\n"));
    TerminalLauncher launcher;
    launcher.setPaddockProgram(paddock);
    QCOMPARE(launcher.agentVerbCommand(QStringLiteral("web"),
                                       {QStringLiteral("-t"), QStringLiteral("--resume"), QStringLiteral("old one *")}),
             (QStringList{paddock, QStringLiteral("agent"), QStringLiteral("web"), QStringLiteral("-t"),
                          QStringLiteral("--resume"), QStringLiteral("old one *")}));
    QSignalSpy listed(&launcher, &TerminalLauncher::sessionsListed);
    launcher.listSessions(QStringLiteral("web"));
    QTRY_COMPARE(listed.size(), 1);
    QCOMPARE(listed.at(0).at(0).toString(), QStringLiteral("web"));
    QCOMPARE(listed.at(0).at(1).toStringList(), (QStringList{QStringLiteral("newest"), QStringLiteral("old one *")}));
    QCOMPARE(listed.at(0).at(2).toString(), QString());
    launcher.listSessions(QStringLiteral("broken"));
    QTRY_COMPARE(listed.size(), 2);
    QCOMPARE(listed.at(1).at(1).toStringList(), QStringList());
    QCOMPARE(listed.at(1).at(2).toString(), QStringLiteral("kit k does not declare a list verb"));

    const QString record = m_dir + QStringLiteral("/verb-args");
    const QString fake = m_dir + QStringLiteral("/verb-terminal");
    QVERIFY(writeExecutable(
        fake,
        QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1.tmp' && mv '%1.tmp' '%1'\n").arg(record).toUtf8()));
    qputenv("TERMINAL", QFile::encodeName(fake));
    QVERIFY(launcher.openAgentVerb(QStringLiteral("web"), {QStringLiteral("-t"), QStringLiteral("--continue")}));
    QTRY_VERIFY(QFileInfo::exists(record));
    QFile file(record);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList args = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(args.mid(5), (QStringList{paddock, QStringLiteral("agent"), QStringLiteral("web"), QStringLiteral("-t"),
                                       QStringLiteral("--continue")}));
}

void TestTerminalLauncher::withoutTerminalSaysWhatToRun()
{
    qputenv("PATH", QFile::encodeName(m_dir + QStringLiteral("/nothing-here")));
    TerminalLauncher launcher;
    launcher.setPaddockProgram(QStringLiteral("/opt/paddock"));
    QVERIFY(!launcher.openShell(QStringLiteral("web")));
    QVERIFY2(launcher.error().startsWith(QStringLiteral("No terminal emulator was found: install xterm, GNOME "
                                                        "Terminal or Konsole, or set TERMINAL. The command is: "
                                                        "paddock exec -it web sh -c '")),
             qPrintable(launcher.error()));
    QVERIFY(!launcher.openAgent(QStringLiteral("web"), false));
    QVERIFY(launcher.error().endsWith(QStringLiteral("The command is: paddock attach web")));
}

void TestTerminalLauncher::clipboard()
{
    gui::Clipboard::setText(QStringLiteral("paddock attach web"));
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("paddock attach web"));
    QCOMPARE(gui::Clipboard::text(), QStringLiteral("paddock attach web"));
}

QTEST_MAIN(TestTerminalLauncher)
#include "tst_terminal_launcher.moc"
