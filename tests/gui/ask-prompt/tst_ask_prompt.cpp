// SPDX-License-Identifier: GPL-3.0-or-later
// Ask mode in the window, with the real paddockd and curl in a real bubblewrap sandbox: the
// Network page's switch turns ask mode on; a connection no rule covers waits and the prompt
// asks about it (host, sandbox, how many wait, what else waits); Allow once lets curl get its
// 200, Deny always leaves a deny rule, Escape denies once and Enter does nothing; an answer
// from the CLI closes the prompt; in the background a desktop notification asks instead, and
// goes when its question does.
#include "../network-page/NetworkTestSupport.h"
#include "../network-page/PageDriver.h"

#include "AskModel.h"

#include "Needs.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QQuickWindow>
#include <QSGRendererInterface>
#include <QtTest>

#include <memory>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

/**
 * @brief Stands in for the desktop's notification server (none runs on the test's session
 * bus): records what is shown and closed, and can press a notification's button.
 */
class FakeNotifications : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    QStringList summaries;
    QList<QStringList> actions;
    QList<uint> closed;

public Q_SLOTS:
    uint Notify(const QString &, uint, const QString &, const QString &summary, const QString &,
                const QStringList &buttons, const QVariantMap &, int)
    {
        summaries << summary;
        actions << buttons;
        return uint(summaries.size());
    }
    void CloseNotification(uint id) { closed << id; }
    QStringList GetCapabilities() { return {QStringLiteral("actions")}; }
};

class TestAskPrompt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void theSwitchTurnsAskModeOn();
    void inTheBackgroundANotificationAsks();
    void allowOnceThenDenyAlwaysFromThePrompt();
    void anAnswerFromTheCliClosesThePrompt();
    void escapeDeniesOnceAndEnterDoesNothing();
    void aProgramWrittenInsideIsMarked();

private:
    /** `paddock exec net sh -c SCRIPT`, left running while the test answers. */
    std::unique_ptr<QProcess> inSandbox(const QString &script)
    {
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(m_network.fixture().environment());
        process->setWorkingDirectory(m_network.fixture().workspace());
        process->start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("exec"), QLatin1String(NetworkFixture::kSandbox),
                                                     QStringLiteral("sh"), QStringLiteral("-c"), script});
        process->closeWriteChannel();
        return process;
    }
    /** curl for @p host, printing its HTTP status. */
    QString curl(const QString &host) const
    {
        return QStringLiteral("curl -s -o /dev/null -w '%{http_code}\\n' ") + m_network.url(host);
    }
    /** What @p process printed once it ended; the window goes on answering meanwhile. */
    static QString finish(QProcess &process)
    {
        if (!QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, 60000))
            return QStringLiteral("(still running)");
        return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
    }
    QObject *prompt() { return findObject(m_window, QStringLiteral("askPrompt")); }
    bool promptOpen()
    {
        QObject *popup = prompt();
        return popup && popup->property("opened").toBool();
    }
    QString promptText(const QString &objectName)
    {
        QQuickItem *item = findItem(m_window, objectName);
        return item ? item->property("text").toString() : QString();
    }
    QString destination(const QString &host) const
    {
        return host + QLatin1Char(':') + QString::number(m_network.fixture().upstreamPort());
    }
    gui::AskModel *asks() { return qobject_cast<gui::AskModel *>(findObject(m_window, QStringLiteral("askModel"))); }
    QString saveScreenshot(const QString &name);
    /** Ask mode on for the sandbox, through the page's switch, and the window in front. */
    bool ensureAsking();

    NetworkFixture m_network;
    FakeNotifications m_notifications;
    bool m_notificationsServed = false;
    QString m_outputDir;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestAskPrompt::initTestCase()
{
    // What the other window tests get from ctest's environment, which run-as-user.sh leaves out.
    QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
    m_outputDir = qEnvironmentVariable("PADDOCK_TEST_OUTPUT", QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en"));
    QVERIFY2(m_network.setUp(), "the fixture did not start (paddockd, bubblewrap)");
    for (const char *host : {"cli.test", "escape.test", "copied.test"}) {
        const test::Finished set =
            m_network.fixture().paddock({QStringLiteral("policy"), QStringLiteral("resolve"), QStringLiteral("set"),
                                         QLatin1String(host), QStringLiteral("127.0.0.1")});
        QVERIFY2(set.exitCode == 0, qPrintable(set.err));
    }
    QVERIFY(m_network.startSandbox());

    QDBusConnection bus = QDBusConnection::sessionBus();
    QVERIFY2(bus.isConnected(), "no D-Bus session bus (run under dbus-run-session, as tests/run-all.sh does)");
    QVERIFY(bus.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &m_notifications,
                               QDBusConnection::ExportAllSlots));
    m_notificationsServed = bus.registerService(QStringLiteral("org.freedesktop.Notifications"));

    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    QVERIFY(openNetworkPage(m_window));
    QVERIFY(asks());
    QVERIFY(!promptOpen());
}

void TestAskPrompt::cleanupTestCase()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (m_notificationsServed)
        bus.unregisterService(QStringLiteral("org.freedesktop.Notifications"));
    bus.unregisterObject(QStringLiteral("/org/freedesktop/Notifications"));
}

QString TestAskPrompt::saveScreenshot(const QString &name)
{
    QDir().mkpath(m_outputDir);
    const QString path = m_outputDir + QLatin1Char('/') + name + QStringLiteral(".png");
    m_window->grabWindow().save(path);
    return path;
}

bool TestAskPrompt::ensureAsking()
{
    if (!m_window->isActive()) {
        m_window->requestActivate();
        if (!QTest::qWaitForWindowActive(m_window))
            return false;
    }
    QQuickItem *toggle = findItem(m_window, QStringLiteral("askSwitch"));
    if (!toggle || !QTest::qWaitFor([toggle] { return toggle->isEnabled(); }, 10000))
        return false;
    if (!toggle->property("checked").toBool() && !clickItem(m_window, toggle))
        return false;
    return QTest::qWaitFor([this] { return asks()->isAsking(QLatin1String(NetworkFixture::kSandbox)); }, 10000);
}

void TestAskPrompt::theSwitchTurnsAskModeOn()
{
    QQuickItem *toggle = findItem(m_window, QStringLiteral("askSwitch"));
    QVERIFY(toggle);
    QTRY_VERIFY(toggle->isEnabled()); // the sandbox is listed
    QVERIFY(!toggle->property("checked").toBool());
    QVERIFY(clickItem(m_window, toggle));
    QTRY_VERIFY(m_network.fixture()
                    .listed()
                    .value(QLatin1String(NetworkFixture::kSandbox))
                    .value(QLatin1String("asking"))
                    .toBool());
    QTRY_VERIFY(toggle->property("checked").toBool());
    QVERIFY2(WarningRecorder::messages().isEmpty(), qPrintable(WarningRecorder::messages().join(QLatin1Char('\n'))));
}

void TestAskPrompt::inTheBackgroundANotificationAsks()
{
    PADDOCK_NEED(m_notificationsServed, "a session bus where no other notification server owns "
                                        "org.freedesktop.Notifications");
    QVERIFY(ensureAsking());
    // Another window in front: Paddock's is in the background.
    QWindow other;
    other.resize(200, 100);
    other.show();
    other.requestActivate();
    QTRY_VERIFY(!m_window->isActive());

    const std::unique_ptr<QProcess> fetch = inSandbox(curl(QStringLiteral("third.test")));
    QTRY_COMPARE_WITH_TIMEOUT(m_notifications.summaries.size(), 1, 30000);
    QVERIFY2(m_notifications.summaries.constFirst().contains(destination(QStringLiteral("third.test"))),
             qPrintable(m_notifications.summaries.constFirst()));
    QVERIFY(m_notifications.summaries.constFirst().contains(QLatin1String(NetworkFixture::kSandbox)));
    QVERIFY(m_notifications.actions.constFirst().contains(QStringLiteral("allow")));
    QVERIFY(m_notifications.actions.constFirst().contains(QStringLiteral("deny")));
    QCOMPARE(fetch->state(), QProcess::Running); // it waits
    // The window knows its notification once the server's reply reached it: a person clicks after
    // that; a signal sent sooner would name a notification the window has not heard of yet.
    QObject *notifier = findObject(m_window, QStringLiteral("askNotifier"));
    QVERIFY(notifier);
    QTRY_COMPARE(notifier->property("shownCount").toInt(), 1);

    // The notification's "Allow once": curl gets its page, and the notification goes.
    QDBusMessage signal =
        QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/Notifications"),
                                   QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
    signal << uint(1) << QStringLiteral("allow");
    QVERIFY(QDBusConnection::sessionBus().send(signal));
    QCOMPARE(finish(*fetch), QStringLiteral("200"));
    QTRY_COMPARE(m_notifications.closed, QList<uint>{1});
    QTRY_VERIFY(!promptOpen());
    QVERIFY(!m_network.userRules().join(QLatin1Char('\n')).contains(QLatin1String("third.test")));

    other.close();
}

void TestAskPrompt::allowOnceThenDenyAlwaysFromThePrompt()
{
    QVERIFY(ensureAsking());
    const int notified = int(m_notifications.summaries.size());
    // Two connections to one host, then one to another.
    const std::unique_ptr<QProcess> both = inSandbox(curl(QStringLiteral("fourth.test")) + QStringLiteral(" & ") +
                                                     curl(QStringLiteral("fourth.test")) + QStringLiteral(" & wait"));
    QTRY_VERIFY_WITH_TIMEOUT(promptOpen(), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(promptText(QStringLiteral("askWaiting")), QStringLiteral("2 connections"), 30000);
    const std::unique_ptr<QProcess> other = inSandbox(curl(QStringLiteral("fifth.test")));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(findItem(m_window, QStringLiteral("askMoreWaiting"))), 30000);
    QCOMPARE(promptText(QStringLiteral("askMoreWaiting")), QStringLiteral("1 more waiting after this one."));
    QCOMPARE(promptText(QStringLiteral("askDestination")), destination(QStringLiteral("fourth.test")));
    QCOMPARE(promptText(QStringLiteral("askSandbox")), QLatin1String(NetworkFixture::kSandbox));
    QCOMPARE(promptText(QStringLiteral("askKit")), QStringLiteral("probe"));
    QCOMPARE(promptText(QStringLiteral("askProtocol")), QStringLiteral("http"));
    // Which program asked, as paddock-init saw it: curl and the URL it was given.
    const QString program = promptText(QStringLiteral("askProgram"));
    QVERIFY2(program.startsWith(QLatin1String("curl ")) &&
                 program.contains(m_network.url(QStringLiteral("fourth.test"))),
             qPrintable(program));
    QVERIFY(!isShown(findItem(m_window, QStringLiteral("askWritten")))); // the sandbox's own curl
    QVERIFY2(promptText(QStringLiteral("askCountdown")).startsWith(QLatin1String("Refused in ")),
             qPrintable(promptText(QStringLiteral("askCountdown"))));
    QCOMPARE(m_notifications.summaries.size(), notified); // the window is in front: no notification
    QTest::qWait(300);
    const QString shot = saveScreenshot(QStringLiteral("ask-prompt"));
    qInfo().noquote() << "screenshot:" << shot;

    QVERIFY(clickItem(m_window, findItem(m_window, QStringLiteral("askAllowOnceButton"))));
    QCOMPARE(finish(*both), QStringLiteral("200\n200"));
    // The next question, the other host: "Deny always" leaves a rule for this sandbox.
    QTRY_COMPARE_WITH_TIMEOUT(promptText(QStringLiteral("askDestination")), destination(QStringLiteral("fifth.test")),
                              10000);
    QVERIFY(promptOpen());
    QVERIFY(!isShown(findItem(m_window, QStringLiteral("askMoreWaiting"))));
    QVERIFY(clickItem(m_window, findItem(m_window, QStringLiteral("askDenyAlwaysButton"))));
    QCOMPARE(finish(*other), QStringLiteral("403"));
    QTRY_VERIFY(!promptOpen());

    bool denied = false;
    for (const QJsonValue &value :
         m_network.call(QStringLiteral("policy.get")).result().value(QLatin1String("rules")).toArray()) {
        const QJsonObject rule = value.toObject();
        if (rule.value(QLatin1String("pattern")).toString().startsWith(QLatin1String("fifth.test")))
            denied = rule.value(QLatin1String("decision")).toString() == QLatin1String("deny") &&
                     rule.value(QLatin1String("scope")).toString() == QStringLiteral("sandbox:net");
    }
    QVERIFY2(denied, qPrintable(m_network.userRules().join(QLatin1Char('\n'))));
    QVERIFY(!m_network.userRules().join(QLatin1Char('\n')).contains(QLatin1String("fourth.test"))); // once: no rule
    // Refused at once from now on: no question.
    QCOMPARE(m_network.fetch(QStringLiteral("fifth.test")), QStringLiteral("403"));
    QVERIFY(!promptOpen());
    QVERIFY2(WarningRecorder::messages().isEmpty(), qPrintable(WarningRecorder::messages().join(QLatin1Char('\n'))));
}

void TestAskPrompt::anAnswerFromTheCliClosesThePrompt()
{
    QVERIFY(ensureAsking());
    const std::unique_ptr<QProcess> fetch = inSandbox(curl(QStringLiteral("cli.test")));
    QTRY_VERIFY_WITH_TIMEOUT(promptOpen(), 30000);
    QCOMPARE(promptText(QStringLiteral("askDestination")), destination(QStringLiteral("cli.test")));
    const QString id = asks()->oldest().value(QStringLiteral("askId")).toString();
    QVERIFY(!id.isEmpty());
    const test::Finished answered =
        m_network.fixture().paddock({QStringLiteral("policy"), QStringLiteral("answer"), id, QStringLiteral("allow")});
    QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
    QCOMPARE(finish(*fetch), QStringLiteral("200"));
    QTRY_VERIFY(!promptOpen());
    QCOMPARE(asks()->rowCount(), 0);
}

void TestAskPrompt::escapeDeniesOnceAndEnterDoesNothing()
{
    QVERIFY(ensureAsking());
    const std::unique_ptr<QProcess> fetch = inSandbox(curl(QStringLiteral("escape.test")));
    QTRY_VERIFY_WITH_TIMEOUT(promptOpen(), 30000);
    QCOMPARE(promptText(QStringLiteral("askDestination")), destination(QStringLiteral("escape.test")));
    // A stray Enter lets nothing through.
    QTest::keyClick(m_window, Qt::Key_Return);
    QTest::keyClick(m_window, Qt::Key_Enter);
    QTest::qWait(1000);
    QVERIFY(promptOpen());
    QCOMPARE(fetch->state(), QProcess::Running);
    QCOMPARE(asks()->rowCount(), 1);
    // "Allow…" shows the Allow dialog's choices and the command; Escape goes back from them.
    QVERIFY(clickItem(m_window, findItem(m_window, QStringLiteral("askAllowChooseButton"))));
    QTRY_VERIFY(isShown(findItem(m_window, QStringLiteral("askAllowWhatExact"))));
    QCOMPARE(promptText(QStringLiteral("askAllowWhatExact")),
             QStringLiteral("This host on this port: ") + destination(QStringLiteral("escape.test")));
    QVERIFY(isShown(findItem(m_window, QStringLiteral("askAllowConfirmButton"))));
    QTest::qWait(300);
    saveScreenshot(QStringLiteral("ask-prompt-allow-choices"));
    QTest::keyClick(m_window, Qt::Key_Escape);
    QTRY_VERIFY(!isShown(findItem(m_window, QStringLiteral("askAllowWhatExact"))));
    QCOMPARE(fetch->state(), QProcess::Running);
    // Escape again: "Deny once".
    QTest::keyClick(m_window, Qt::Key_Escape);
    QCOMPARE(finish(*fetch), QStringLiteral("403"));
    QTRY_VERIFY(!promptOpen());
    QVERIFY(!m_network.userRules().join(QLatin1Char('\n')).contains(QLatin1String("escape.test")));
    QVERIFY2(WarningRecorder::messages().isEmpty(), qPrintable(WarningRecorder::messages().join(QLatin1Char('\n'))));
}

void TestAskPrompt::aProgramWrittenInsideIsMarked()
{
    QVERIFY(ensureAsking());
    // A copy of curl in /tmp: the person is told it is not the sandbox's curl before answering.
    const std::unique_ptr<QProcess> fetch =
        inSandbox(QStringLiteral("cp /usr/bin/curl /tmp/curl && /tmp/") + curl(QStringLiteral("copied.test")));
    QTRY_VERIFY_WITH_TIMEOUT(promptOpen(), 30000);
    QCOMPARE(promptText(QStringLiteral("askDestination")), destination(QStringLiteral("copied.test")));
    QTRY_VERIFY(isShown(findItem(m_window, QStringLiteral("askWritten"))));
    QCOMPARE(promptText(QStringLiteral("askWritten")),
             QStringLiteral("Written inside the sandbox (/tmp): not the sandbox's own curl, whatever its name says"));
    QTest::qWait(300);
    saveScreenshot(QStringLiteral("ask-prompt-written-inside"));
    QTest::keyClick(m_window, Qt::Key_Escape);
    QCOMPARE(finish(*fetch), QStringLiteral("403"));
    QTRY_VERIFY(!promptOpen());
}

QTEST_MAIN(TestAskPrompt)
#include "tst_ask_prompt.moc"
