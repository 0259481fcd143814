// SPDX-License-Identifier: GPL-3.0-or-later
// The window with the real daemon: opening it starts paddockd on demand, the status line
// shows the daemon's version, and notices when the daemon stops.
#include "GuiTestSupport.h"

#include "api/DaemonConnection.h"
#include "common/Paths.h"
#include "paddock/Version.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestGuiDaemon : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void openingTheWindowStartsTheDaemon();
    void statusLineNoticesTheDaemonStopping();

private:
    static bool shutDownDaemon();
    QString statusText()
    {
        QQuickItem *status = findItem(m_window, QStringLiteral("daemonStatusText"));
        return status ? status->property("text").toString() : QString();
    }

    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

bool TestGuiDaemon::shutDownDaemon()
{
    api::DaemonConnection connection;
    QString error;
    if (!connection.open(paths::daemonSocket(), 5000, &error))
        return false;
    return !connection.call(QStringLiteral("shutdown")).isError();
}

void TestGuiDaemon::initTestCase()
{
    isolateEnvironment();
    // The daemon this build made, started the way every client starts it.
    qputenv("PADDOCKD", PADDOCKD_BIN);
    WarningRecorder::install();
    m_window = openMainWindow(this, &m_engine);
    QVERIFY(m_window);
}

void TestGuiDaemon::cleanupTestCase()
{
    // Never leave a daemon behind, whatever failed above.
    shutDownDaemon();
    QVERIFY2(WarningRecorder::messages().isEmpty(), qPrintable(WarningRecorder::messages().join(QLatin1Char('\n'))));
}

void TestGuiDaemon::openingTheWindowStartsTheDaemon()
{
    const QString expected = QStringLiteral("Daemon connected, version %1").arg(QLatin1String(kVersion));
    QTRY_COMPARE_WITH_TIMEOUT(statusText(), expected, 15000);
    QVERIFY(!findItem(m_window, QStringLiteral("daemonRetryButton"))->isVisible());
    QVERIFY(QFileInfo::exists(paths::daemonSocket()));
}

void TestGuiDaemon::statusLineNoticesTheDaemonStopping()
{
    QVERIFY(shutDownDaemon());
    QTRY_COMPARE_WITH_TIMEOUT(statusText(), QStringLiteral("Daemon not connected"), 15000);
    QQuickItem *error = findItem(m_window, QStringLiteral("daemonStatusError"));
    QVERIFY(isShown(error));
    QVERIFY(isShown(findItem(m_window, QStringLiteral("daemonRetryButton"))));
}

QTEST_MAIN(TestGuiDaemon)
#include "tst_gui_daemon.moc"
