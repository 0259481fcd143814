// SPDX-License-Identifier: GPL-3.0-or-later
// The window as a screen reader works it: through AT-SPI alone (screen_reader.py, with pyatspi
// as Orca uses it), the real window and the real daemon, on the suite's X display and D-Bus
// session, as an ordinary user. A disabled button is announced as disabled, every button is
// pressed by its Press action, and a text field's text is set through EditableText.
#include "Needs.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

class TestScreenReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void wizardNextFollowsTheFolder();
    void navigationButtonsArePressed();

private:
    // Runs one scenario of screen_reader.py; its output is the test's message.
    void runScenario(const QString &scenario);
};

void TestScreenReader::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsEmpty("DISPLAY"), "an X display (tests/with-services.sh starts Xvfb)");
    PADDOCK_NEED(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
                 "a D-Bus session (tests/with-services.sh runs under dbus-run-session)");
    QProcess probe;
    probe.start(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral("import pyatspi")});
    const bool pyatspi =
        probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
    PADDOCK_NEED(pyatspi, "python3 with pyatspi and the AT-SPI bus (python3-pyatspi and at-spi2-core; "
                          "installer/setup-debian.sh installs them)");
}

void TestScreenReader::runScenario(const QString &scenario)
{
    QProcess script;
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(QStringLiteral("python3"),
                 {QStringLiteral(PADDOCK_SOURCE_DIR "/tests/gui/accessibility/screen_reader.py"), scenario,
                  QStringLiteral(PADDOCK_BIN), QStringLiteral(PADDOCKD_BIN)});
    QVERIFY2(script.waitForStarted(), "python3 did not start");
    QVERIFY(script.waitForFinished(240000));
    const QByteArray output = script.readAll();
    QCOMPARE(script.exitStatus(), QProcess::NormalExit);
    QVERIFY2(script.exitCode() == 0, output.constData());
}

void TestScreenReader::wizardNextFollowsTheFolder()
{
    runScenario(QStringLiteral("wizard"));
}

void TestScreenReader::navigationButtonsArePressed()
{
    runScenario(QStringLiteral("navigation"));
}

QTEST_GUILESS_MAIN(TestScreenReader)
#include "tst_screen_reader.moc"
