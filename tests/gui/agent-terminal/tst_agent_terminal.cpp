// SPDX-License-Identifier: GPL-3.0-or-later
// The window runs agents, as an ordinary user sees it on a real X display with xterm as the
// terminal: the wizard, driven through its controls, creates and starts a sandbox and opens
// its agent in an xterm window; the agent is still alive (and the xterm attached to it) when
// the wizard has long closed; what is typed in the xterm reaches the agent; the row's Stop
// button ends it. Pictures of the window and of the whole screen go to the screenshots.
#include "PageDriving.h"

#include "Needs.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QtTest>

#include <csignal>

#include <unistd.h>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

const QString kName = QStringLiteral("agent-demo");
// In the agent's command line, so the host's /proc tells whether it runs.
const QByteArray kMarker = "agent-marker-7Qx2";

QByteArray kitSpec()
{
    // An agent that waits for input on its terminal, as a coding agent does.
    return "schemaVersion: \"2\"\n"
           "kind: sandbox\n"
           "name: echo-agent\n"
           "displayName: Echo agent\n"
           "description: Answers every line it reads.\n"
           "sandbox:\n"
           "  image: debian:12\n"
           "  entrypoint: [sh, -c]\n"
           "  command:\n"
           "    default: ['echo " +
           kMarker + " ready; while read line; do echo \"you said: $line\"; done']\n";
}

struct Output
{
    int exitCode = -1;
    QString text;
};

Output runTool(const QString &program, const QStringList &arguments, int timeoutMs = 30000)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForStarted() || !process.waitForFinished(timeoutMs))
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput())};
}

/** Host processes whose command line holds @p needle (the sandbox's are among them). */
QList<qint64> processesWith(const QByteArray &needle)
{
    QList<qint64> pids;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (number && pid != QCoreApplication::applicationPid() && cmdline.open(QIODevice::ReadOnly) &&
            cmdline.readAll().contains(needle))
            pids << pid;
    }
    return pids;
}

/** Host processes that are `paddock attach NAME` (the CLI a terminal runs, not the terminal). */
// `paddock attach ... agent-demo` processes: this test's sandbox only, since other tests
// running at the same time attach to sandboxes of their own with the same program.
QList<qint64> attachClients()
{
    QList<qint64> pids;
    const QByteArray head = QByteArray(PADDOCK_BIN) + '\0' + "attach" + '\0';
    const QByteArray name = '\0' + kName.toUtf8() + '\0';
    for (const qint64 pid : processesWith(head)) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QByteArray arguments = cmdline.readAll();
        if (arguments.startsWith(head) && (arguments + '\0').contains(name))
            pids << pid;
    }
    return pids;
}

} // namespace

class TestAgentTerminal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void wizardOpensTheAgentInATerminal();
    void stopEndsTheAgent();
    void openAgentStartsItAgain();
    void closingTheTerminalLeavesTheAgent();

private:
    QQuickItem *row() { return findItem(m_window, QStringLiteral("sandboxRow_") + kName); }
    QString rowText(const QString &part)
    {
        QQuickItem *r = row();
        QQuickItem *item = r ? findItem(r, part) : nullptr;
        return item ? item->property("text").toString() : QString();
    }
    /** The sandbox as `paddock ls --json` lists it. */
    QJsonObject listed()
    {
        const Output ls = runTool(QStringLiteral(PADDOCK_BIN), {QStringLiteral("ls"), QStringLiteral("--json")});
        for (const QJsonValue &value : QJsonDocument::fromJson(ls.text.toUtf8()).array()) {
            if (value.toObject().value(QLatin1String("name")).toString() == kName)
                return value.toObject();
        }
        return {};
    }
    // Types LINE into the xterm WINDOW until the agent answers it. With no window manager
    // nothing keeps the X focus on the xterm: on a loaded machine a keystroke can land while
    // the focus is elsewhere, so the focus is checked and the line typed again (at most three
    // times) when no answer came. Each line is whole, so a partial first try cannot match.
    bool typeInto(const QString &window, const QString &line)
    {
        const QString answer = QStringLiteral("you said: ") + line;
        for (int attempt = 1; attempt <= 3; ++attempt) {
            runTool(QStringLiteral("xdotool"), {QStringLiteral("windowfocus"), QStringLiteral("--sync"), window});
            const QString focused =
                runTool(QStringLiteral("xdotool"), {QStringLiteral("getwindowfocus")}).text.trimmed();
            if (focused != window)
                qInfo("try %d: the X focus is on %s, not the xterm %s", attempt, qPrintable(focused),
                      qPrintable(window));
            runTool(QStringLiteral("xdotool"), {QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("20"),
                                                QStringLiteral("\n") + line + QStringLiteral("\n")});
            QElapsedTimer waited;
            waited.start();
            while (waited.elapsed() < 8000) {
                if (runTool(QStringLiteral(PADDOCK_BIN), {QStringLiteral("logs"), kName}).text.contains(answer))
                    return true;
                QTest::qWait(250);
            }
            qInfo("try %d: the agent did not answer \"%s\"", attempt, qPrintable(line));
        }
        return false;
    }

    QStringList xtermWindows()
    {
        return runTool(QStringLiteral("xdotool"),
                       {QStringLiteral("search"), QStringLiteral("--class"), QStringLiteral("xterm")})
            .text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    void saveScreenshots(const QString &name);

    QString m_home;
    QString m_outputDir;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
    QStringList m_terminalWindows;
};

void TestAgentTerminal::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsEmpty("DISPLAY"), "an X display (tests/with-services.sh starts Xvfb)");
    for (const char *tool : {"xterm", "xdotool"}) {
        PADDOCK_NEED(!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty(),
                     "xterm and xdotool (installer/setup-debian.sh installs them)");
    }
    if (::getuid() == 0)
        qWarning("running as root: ctest runs this test as an ordinary user (tests/support/run-as-user.sh)");
    m_home = isolateEnvironment();
    m_outputDir = qEnvironmentVariable("PADDOCK_TEST_OUTPUT", QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en"));
    qputenv("PADDOCKD", PADDOCKD_BIN);
    // A desktop without a Docker engine: the wizard must not offer what cannot run.
    qputenv("DOCKER_HOST", QFile::encodeName(QStringLiteral("unix://") + m_home + QStringLiteral("/no-docker.sock")));
    qputenv("TERMINAL", QFile::encodeName(QStandardPaths::findExecutable(QStringLiteral("xterm"))));
    const QString kits = m_home + QStringLiteral("/kits");
    qputenv("PADDOCK_SAMPLE_KITS", QFile::encodeName(kits));
    QVERIFY(writeFile(kits + QStringLiteral("/echo-agent/spec.yaml"), kitSpec()));
    QVERIFY(writeFile(m_home + QStringLiteral("/project/README.md"), "a project\n"));

    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    const QObject *launcher = readyTerminalLauncher(m_window);
    QVERIFY(launcher && launcher->property("available").toBool());
}

void TestAgentTerminal::cleanupTestCase()
{
    // The xterm windows this test opened, by the process that owns each.
    for (const QString &window : std::as_const(m_terminalWindows)) {
        const qint64 pid =
            runTool(QStringLiteral("xdotool"), {QStringLiteral("getwindowpid"), window}).text.trimmed().toLongLong();
        if (pid > 0)
            ::kill(pid_t(pid), SIGTERM);
    }
    if (m_window)
        stopEverything();
    const QStringList warnings = WarningRecorder::messages();
    if (!warnings.isEmpty())
        qWarning("warnings:\n%s", qPrintable(warnings.join(QLatin1Char('\n'))));
}

void TestAgentTerminal::saveScreenshots(const QString &name)
{
    QDir().mkpath(m_outputDir);
    // With no window manager, what a moved xterm uncovered is drawn again only when asked.
    m_window->update();
    QTest::qWait(300);
    const QImage window = m_window->grabWindow();
    QVERIFY(!window.isNull());
    QVERIFY(window.save(m_outputDir + QLatin1Char('/') + name + QStringLiteral(".png")));
    // The whole screen, the xterm beside the window, when ImageMagick is there.
    const QString import = QStandardPaths::findExecutable(QStringLiteral("import"));
    if (!import.isEmpty())
        runTool(import, {QStringLiteral("-window"), QStringLiteral("root"),
                         m_outputDir + QLatin1Char('/') + name + QStringLiteral("-screen.png")});
}

void TestAgentTerminal::wizardOpensTheAgentInATerminal()
{
    QVERIFY(xtermWindows().isEmpty());
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QQuickItem *stepTitle = findInPopup(wizard, QStringLiteral("wizardStepTitle"));

    QVERIFY(
        type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_home + QStringLiteral("/project")));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("2. Kit"));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_echo-agent"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("3. Backend and workspace"));
    // No engine answers: Docker cannot be chosen, and the step says why and what fixes it.
    QTRY_VERIFY(!findInPopup(wizard, QStringLiteral("wizardBackendDocker"))->isEnabled());
    QVERIFY(!findInPopup(wizard, QStringLiteral("wizardBackendGvisor"))->isEnabled());
    QQuickItem *dockerProblem = findInPopup(wizard, QStringLiteral("wizardDockerProblem"));
    QVERIFY(dockerProblem && dockerProblem->isVisible());
    QVERIFY2(dockerProblem->property("text").toString().startsWith(
                 QStringLiteral("The Docker engine does not answer: install it (sudo apt install docker.io)")),
             qPrintable(dockerProblem->property("text").toString()));
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardBackendBwrap"))->property("checked").toBool());
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardNameField")), kName));
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("4. Shared folders and variables"));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("5. Review"));
    QVERIFY(press(m_window, next));
    // No keys to ask for: straight to the last step.
    QTRY_COMPARE_WITH_TIMEOUT(stepTitle->property("text").toString(), QStringLiteral("6. Create and start"), 15000);
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardSummary"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("open its agent in a terminal")));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardCreateButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard->property("visible").toBool(), 60000);
    QElapsedTimer sinceClosed;
    sinceClosed.start();

    // An xterm window appears, named after the sandbox.
    QTRY_VERIFY_WITH_TIMEOUT(!xtermWindows().isEmpty(), 15000);
    m_terminalWindows = xtermWindows();
    QCOMPARE(m_terminalWindows.size(), 1);
    QCOMPARE(
        runTool(QStringLiteral("xdotool"), {QStringLiteral("getwindowname"), m_terminalWindows.first()}).text.trimmed(),
        kName + QStringLiteral(": agent"));
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("sandboxStatus")), QStringLiteral("Running · agent running"),
                              15000);

    // Five seconds after the wizard closed, the agent still runs, with the xterm attached to it.
    QTest::qWait(int(qMax<qint64>(0, 5000 - sinceClosed.elapsed())));
    const QJsonObject sandbox = listed();
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    const QJsonObject agent = sandbox.value(QLatin1String("agent")).toObject();
    QCOMPARE(agent.value(QLatin1String("state")).toString(), QStringLiteral("running"));
    QCOMPARE(agent.value(QLatin1String("attached")).toInt(), 1);
    // Inside the sandbox, the agent's pid is the kit's program.
    const Output cmdline =
        runTool(QStringLiteral(PADDOCK_BIN),
                {QStringLiteral("exec"), kName, QStringLiteral("cat"),
                 QStringLiteral("/proc/%1/cmdline").arg(agent.value(QLatin1String("pid")).toInteger())});
    QCOMPARE(cmdline.exitCode, 0);
    QVERIFY2(cmdline.text.contains(QString::fromLatin1(kMarker)), qPrintable(cmdline.text));
    QVERIFY(!processesWith(kMarker).isEmpty());
    QCOMPARE(attachClients().size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(
        rowText(QStringLiteral("sandboxDetails")).contains(QStringLiteral("agent open in a terminal")), 10000);

    // What is typed in the xterm reaches the agent, whose answer is in its output.
    const QString window = m_terminalWindows.first();
    runTool(QStringLiteral("xdotool"),
            {QStringLiteral("windowmove"), window, QStringLiteral("230"), QStringLiteral("330")});
    QVERIFY(typeInto(window, QStringLiteral("hello from xterm")));
    saveScreenshots(QStringLiteral("sandboxes-agent-running"));
}

void TestAgentTerminal::stopEndsTheAgent()
{
    // Back from the xterm to the window. Without a window manager the X focus may stay with
    // the xterm under load; the clicks below go to the window itself either way.
    runTool(QStringLiteral("xdotool"),
            {QStringLiteral("windowfocus"), QStringLiteral("--sync"), QString::number(m_window->winId())});
    m_window->requestActivate();
    if (!QTest::qWaitForWindowActive(m_window))
        qInfo("the window did not become active; clicking it all the same");
    QQuickItem *stop = findItem(row(), QStringLiteral("sandboxStartStopButton"));
    QCOMPARE(stop->property("text").toString(), QStringLiteral("Stop"));
    QVERIFY(press(m_window, stop));
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("sandboxStatus")), QStringLiteral("Stopped"), 20000);
    const QJsonObject sandbox = listed();
    QCOMPARE(sandbox.value(QLatin1String("status")).toString(), QStringLiteral("stopped"));
    QVERIFY(!sandbox.contains(QLatin1String("agent")));
    QTRY_VERIFY_WITH_TIMEOUT(processesWith(kMarker).isEmpty(), 10000);
    // The terminal's attach ended too; its window says so and waits for Enter.
    QTRY_VERIFY_WITH_TIMEOUT(attachClients().isEmpty(), 10000);
    QVERIFY(!findItem(row(), QStringLiteral("sandboxShellButton"))->isEnabled());
    saveScreenshots(QStringLiteral("sandboxes-agent-stopped"));
}

void TestAgentTerminal::openAgentStartsItAgain()
{
    // Open agent on a stopped sandbox: `attach --start` starts it and its agent, in a new xterm.
    QVERIFY(press(m_window, findItem(row(), QStringLiteral("sandboxAgentButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(xtermWindows().size() == 2, 15000);
    for (const QString &window : xtermWindows()) {
        if (!m_terminalWindows.contains(window))
            m_terminalWindows << window;
    }
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("sandboxStatus")), QStringLiteral("Running · agent running"),
                              20000);
    QTRY_COMPARE_WITH_TIMEOUT(
        listed().value(QLatin1String("agent")).toObject().value(QLatin1String("attached")).toInt(), 1, 10000);
    QVERIFY(!processesWith(kMarker).isEmpty());
    QCOMPARE(attachClients().size(), 1);
}

void TestAgentTerminal::closingTheTerminalLeavesTheAgent()
{
    // The window of the running agent's xterm is closed: the agent keeps running, alone.
    QString open;
    for (const QString &window : xtermWindows()) {
        if (runTool(QStringLiteral("xdotool"), {QStringLiteral("getwindowname"), window}).text.trimmed() ==
                kName + QStringLiteral(": agent") &&
            window == m_terminalWindows.last())
            open = window;
    }
    QVERIFY(!open.isEmpty());
    // Without a window manager to ask it to close, its connection to the display is cut, which
    // ends xterm as closing does: the terminal hangs up.
    runTool(QStringLiteral("xdotool"), {QStringLiteral("windowkill"), open});
    QTRY_VERIFY_WITH_TIMEOUT(attachClients().isEmpty(), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(
        listed().value(QLatin1String("agent")).toObject().value(QLatin1String("attached")).toInt(), 0, 10000);
    QTest::qWait(1000);
    QCOMPARE(listed().value(QLatin1String("agent")).toObject().value(QLatin1String("state")).toString(),
             QStringLiteral("running"));
    QVERIFY(!processesWith(kMarker).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("sandboxStatus")), QStringLiteral("Running · agent running"),
                              10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !rowText(QStringLiteral("sandboxDetails")).contains(QStringLiteral("agent open in a terminal")), 10000);
}

int main(int argc, char **argv)
{
    // Without a display the test says so and skips, instead of failing in the platform plugin.
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    TestAgentTerminal test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_agent_terminal.moc"
