// SPDX-License-Identifier: GPL-3.0-or-later
// The window in English: it loads cleanly, its five pages are reachable by keyboard and
// mouse, everything reachable by keyboard has a name, and the status line tells the truth
// about the daemon.
#include "GuiTestSupport.h"

#include "api/Server.h"
#include "common/Paths.h"

#include <QClipboard>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestGuiShell : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void windowLoadsWithoutWarnings();
    void refusalNotifierRunsBeforeTheNetworkPage();
    void everyPageShowsItsTitle();
    void ctrlNumberSwitchesPages_data();
    void ctrlNumberSwitchesPages();
    void clickingNavigationSwitchesPages_data();
    void clickingNavigationSwitchesPages();
    void tabReachesNavigationInOrder();
    void keyboardReachableControlsHaveNames();
    void pagesOfferOnlyRealCommands();
    void copyButtonCopiesTheCommand();
    void statusLineSaysDaemonIsNotConnected();
    void statusLineShowsDaemonVersion();
    void aboutDialogShowsVersion();

private:
    QQuickItem *page(const QString &key) { return findItem(m_window, QStringLiteral("page_") + key); }
    QQuickItem *navButton(const QString &key) { return findItem(m_window, QStringLiteral("nav_") + key); }
    int currentIndex() { return m_window->property("currentIndex").toInt(); }
    void verifyOnlyPageShown(int index);
    void showPage(int index);

    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestGuiShell::initTestCase()
{
    QCOMPARE(qgetenv("QT_QPA_PLATFORM"), QByteArray("offscreen"));
    isolateEnvironment();
    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
}

void TestGuiShell::cleanup()
{
    // Any warning from QML (a failed binding, an unknown property) fails the test that caused it.
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestGuiShell::windowLoadsWithoutWarnings()
{
    QCOMPARE(m_window->title(), QStringLiteral("Paddock"));
    QVERIFY(m_window->minimumWidth() >= 800);
    QVERIFY(m_window->minimumHeight() >= 500);
    QVERIFY(!m_window->icon().isNull());
    QVERIFY(!QGuiApplication::windowIcon().isNull());
    QCOMPARE(QCoreApplication::applicationName(), QStringLiteral("paddock"));
    QVERIFY(!QCoreApplication::organizationName().isEmpty());
    QVERIFY(WarningRecorder::messages().isEmpty());
}

void TestGuiShell::refusalNotifierRunsBeforeTheNetworkPage()
{
    // The Network page is made on its first visit; the notifications of refused connections
    // belong to the window and run from start-up, whichever page is shown.
    QCOMPARE(currentIndex(), 0);
    QVERIFY(!page(QStringLiteral("network")));
    QObject *policy = findObject(m_window, QStringLiteral("networkPolicy"));
    QObject *notifier = findObject(m_window, QStringLiteral("networkNotifier"));
    QVERIFY(policy && notifier);
    QCOMPARE(notifier->property("policy").value<QObject *>(), policy);
    QVERIFY(notifier->property("enabled").toBool());
    QCOMPARE(notifier->property("windowActive").toBool(), m_window->isActive());

    // The page shows the window's own.
    QQuickItem *network = openPage(m_window, QStringLiteral("network"));
    QVERIFY(network);
    QCOMPARE(network->property("policy").value<QObject *>(), policy);
    QCOMPARE(network->property("notifier").value<QObject *>(), notifier);
    QCOMPARE(findItem(network, QStringLiteral("notificationSwitch"))->property("checked").toBool(), true);
    QTest::keyClick(m_window, Qt::Key_1, Qt::ControlModifier);
}

void TestGuiShell::everyPageShowsItsTitle()
{
    const QStringList titles{QStringLiteral("Sandboxes"), QStringLiteral("Kits"), QStringLiteral("Network"),
                             QStringLiteral("Secrets"), QStringLiteral("Classroom")};
    for (int i = 0; i < pageKeys().size(); ++i) {
        QQuickItem *pageItem = openPage(m_window, pageKeys().at(i));
        QVERIFY2(pageItem, qPrintable(pageKeys().at(i)));
        QQuickItem *title = findItem(pageItem, QStringLiteral("pageTitle"));
        QVERIFY(title);
        QCOMPARE(title->property("text").toString(), titles.at(i));
        QCOMPARE(navButton(pageKeys().at(i))->property("text").toString(), titles.at(i));
        // Where a page has nothing to list yet, an honest empty state: a headline and a
        // sentence on what the page does.
        for (QQuickItem *headline : findItems(pageItem, QStringLiteral("emptyHeadline"))) {
            if (isShown(headline))
                QVERIFY(!headline->property("text").toString().isEmpty());
        }
        for (QQuickItem *explanation : findItems(pageItem, QStringLiteral("emptyExplanation"))) {
            if (isShown(explanation))
                QVERIFY(explanation->property("text").toString().size() > 40);
        }
    }
}

void TestGuiShell::verifyOnlyPageShown(int index)
{
    QCOMPARE(currentIndex(), index);
    for (int i = 0; i < pageKeys().size(); ++i) {
        const QString &key = pageKeys().at(i);
        // A page not visited yet is not made yet.
        QCOMPARE(page(key) && page(key)->isVisible(), i == index);
        QCOMPARE(navButton(key)->property("current").toBool(), i == index);
        QCOMPARE(accessibleName(navButton(key)), navButton(key)->property("text").toString());
    }
}

void TestGuiShell::showPage(int index)
{
    m_window->setProperty("currentIndex", index);
    QCOMPARE(currentIndex(), index);
}

void TestGuiShell::ctrlNumberSwitchesPages_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < pageKeys().size(); ++i)
        QTest::newRow(qPrintable(pageKeys().at(i))) << i;
}

void TestGuiShell::ctrlNumberSwitchesPages()
{
    QFETCH(int, index);
    // Start somewhere else so the shortcut has to change something.
    showPage(index == 0 ? pageKeys().size() - 1 : 0);
    QTest::keyClick(m_window, Qt::Key(Qt::Key_1 + index), Qt::ControlModifier);
    verifyOnlyPageShown(index);
}

void TestGuiShell::clickingNavigationSwitchesPages_data()
{
    ctrlNumberSwitchesPages_data();
}

void TestGuiShell::clickingNavigationSwitchesPages()
{
    QFETCH(int, index);
    showPage(index == 0 ? pageKeys().size() - 1 : 0);
    QQuickItem *button = navButton(pageKeys().at(index));
    QVERIFY(isShown(button));
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(button));
    verifyOnlyPageShown(index);
}

void TestGuiShell::tabReachesNavigationInOrder()
{
    // Focus starts on (and follows) the current page's navigation button.
    QTest::keyClick(m_window, Qt::Key_1, Qt::ControlModifier);
    QVERIFY(m_window->activeFocusItem());
    QCOMPARE(m_window->activeFocusItem()->objectName(), QStringLiteral("nav_sandboxes"));

    // Then Tab walks the navigation top to bottom, the page, the status line, and round.
    QStringList reached;
    for (int i = 0; i < 8; ++i) {
        QTest::keyClick(m_window, Qt::Key_Tab);
        QVERIFY(m_window->activeFocusItem());
        reached.append(m_window->activeFocusItem()->objectName());
    }
    const QStringList expected{QStringLiteral("nav_kits"),          QStringLiteral("nav_network"),
                               QStringLiteral("nav_secrets"),       QStringLiteral("nav_classroom"),
                               QStringLiteral("nav_about"),         QStringLiteral("copyButton"),
                               QStringLiteral("daemonRetryButton"), QStringLiteral("nav_sandboxes")};
    QCOMPARE(reached, expected);

    // A focused navigation button opens its page with Space, like any button.
    QTest::keyClick(m_window, Qt::Key_Backtab);
    QCOMPARE(m_window->activeFocusItem()->objectName(), QStringLiteral("daemonRetryButton"));
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(m_window, Qt::Key_Backtab);
    QCOMPARE(m_window->activeFocusItem()->objectName(), QStringLiteral("nav_classroom"));
    QTest::keyClick(m_window, Qt::Key_Space);
    verifyOnlyPageShown(pageKeys().size() - 1);
}

void TestGuiShell::keyboardReachableControlsHaveNames()
{
    for (int index = 0; index < pageKeys().size(); ++index) {
        showPage(index);
        int checked = 0;
        for (QObject *object : allObjects(m_window)) {
            auto *item = qobject_cast<QQuickItem *>(object);
            if (!item || !isShown(item) || !item->activeFocusOnTab() || !item->isEnabled())
                continue;
            ++checked;
            QVERIFY2(!accessibleName(item).trimmed().isEmpty(),
                     qPrintable(QStringLiteral("%1 (%2) on page %3 has no accessible name")
                                    .arg(item->objectName(), QString::fromLatin1(item->metaObject()->className()),
                                         pageKeys().at(index))));
        }
        // The five navigation buttons and About at least.
        QVERIFY(checked >= 6);
    }
    for (const QString &key : pageKeys())
        QCOMPARE(accessibleRole(navButton(key)), QAccessible::PageTab);
}

void TestGuiShell::pagesOfferOnlyRealCommands()
{
    const QHash<QString, QStringList> expected{
        {QStringLiteral("sandboxes"), {QStringLiteral("paddock daemon status")}},
        {QStringLiteral("kits"),
         {QStringLiteral("paddock kit validate DIR"), QStringLiteral("paddock kit load FILE"),
          QStringLiteral("paddock kit show DIR")}},
        {QStringLiteral("network"), {}},
        {QStringLiteral("secrets"), {}},
        {QStringLiteral("classroom"),
         {QStringLiteral("paddock bundle import FILE --dry-run"),
          QStringLiteral("paddock bundle import FILE  ·  paddock run --kit KIT  ·  paddock verify NAME")}},
    };
    for (const QString &key : pageKeys()) {
        QStringList shown;
        showPage(pageKeys().indexOf(key));
        for (QQuickItem *text : findItems(page(key), QStringLiteral("commandText"))) {
            if (isShown(text))
                shown.append(text->property("text").toString());
        }
        QCOMPARE(shown, expected.value(key));
    }
}

void TestGuiShell::copyButtonCopiesTheCommand()
{
    showPage(1);
    QGuiApplication::clipboard()->clear();
    // The ones on the page; the export dialog's own stays closed.
    QList<QQuickItem *> buttons = findItems(page(QStringLiteral("kits")), QStringLiteral("copyButton"));
    buttons.removeIf([](QQuickItem *button) { return !isShown(button); });
    QCOMPARE(buttons.size(), 3);
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(buttons.at(2)));
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("paddock kit show DIR"));
    QCOMPARE(buttons.at(2)->property("text").toString(), QStringLiteral("Copied"));
}

void TestGuiShell::statusLineSaysDaemonIsNotConnected()
{
    // No daemon runs in this test's private runtime directory, and PADDOCKD (set by ctest)
    // names no executable, so starting one on demand fails and the window says why.
    QQuickItem *status = findItem(m_window, QStringLiteral("daemonStatusText"));
    QVERIFY(status);
    QTRY_COMPARE(status->property("text").toString(), QStringLiteral("Daemon not connected"));
    QQuickItem *error = findItem(m_window, QStringLiteral("daemonStatusError"));
    QVERIFY(isShown(error));
    QVERIFY2(error->property("text").toString().contains(QStringLiteral("cannot start paddockd")),
             qPrintable(error->property("text").toString()));
    QVERIFY(isShown(findItem(m_window, QStringLiteral("daemonRetryButton"))));
}

void TestGuiShell::statusLineShowsDaemonVersion()
{
    QQuickItem *status = findItem(m_window, QStringLiteral("daemonStatusText"));
    QTRY_COMPARE(status->property("text").toString(), QStringLiteral("Daemon not connected"));

    // A real protocol server where paddockd listens; "Check again" connects to it.
    api::Server server;
    server.setDaemonVersion(QStringLiteral("9.8.7"));
    QString error;
    QVERIFY2(server.listen(paths::daemonSocket(), &error), qPrintable(error));
    QQuickItem *retry = findItem(m_window, QStringLiteral("daemonRetryButton"));
    QTRY_VERIFY(retry->isEnabled());
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(retry));
    QTRY_COMPARE(status->property("text").toString(), QStringLiteral("Daemon connected, version 9.8.7"));
    QVERIFY(!retry->isVisible());
    QVERIFY(!findItem(m_window, QStringLiteral("daemonStatusError"))->isVisible());

    // The daemon goes away: the status line notices without being asked.
    server.close();
    QTRY_COMPARE(status->property("text").toString(), QStringLiteral("Daemon not connected"));
    QVERIFY(isShown(retry));
}

void TestGuiShell::aboutDialogShowsVersion()
{
    // Nothing shows it before it is asked for: it is made when first opened.
    QObject *dialog = findObject(m_window, QStringLiteral("aboutDialog"));
    QVERIFY(!dialog || !dialog->property("visible").toBool());
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(navButton(QStringLiteral("about"))));
    dialog = openedDialog(m_window, QStringLiteral("aboutDialog"));
    QVERIFY(dialog);
    QCOMPARE(dialog->property("title").toString(), QStringLiteral("About Paddock"));
    QQuickItem *close = findItem(m_window, QStringLiteral("aboutCloseButton"));
    QVERIFY(close);
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(close));
    QTRY_VERIFY(!dialog->property("visible").toBool());
}

QTEST_MAIN(TestGuiShell)
#include "tst_gui_shell.moc"
