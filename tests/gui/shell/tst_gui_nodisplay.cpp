// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock` with no arguments and no display says so, points at the command line, and
// exits with 1 instead of crashing in the platform plugin.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestGuiNoDisplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noDisplayPrintsHowToUseTheCli();
};

void TestGuiNoDisplay::noDisplayPrintsHowToUseTheCli()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QLatin1String(name));
    for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
        env.insert(QLatin1String(name), home.path() + QLatin1Char('/') + QLatin1String(name));

    QProcess paddock;
    paddock.setProcessEnvironment(env);
    paddock.start(QStringLiteral(PADDOCK_BIN), {});
    QVERIFY(paddock.waitForFinished(30000));
    const QString out = QString::fromUtf8(paddock.readAllStandardOutput());
    const QString err = QString::fromUtf8(paddock.readAllStandardError());

    QCOMPARE(paddock.exitStatus(), QProcess::NormalExit);
    QCOMPARE(paddock.exitCode(), 1);
    QVERIFY2(out.isEmpty(), qPrintable(out));
    QVERIFY2(err.contains(QLatin1String("no display")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("paddock --help")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("paddock kit validate DIR")), qPrintable(err));
    // One sentence on one line, nothing from Qt's platform plugin loader.
    QCOMPARE(err.trimmed().count(QLatin1Char('\n')), 0);
}

QTEST_GUILESS_MAIN(TestGuiNoDisplay)
#include "tst_gui_nodisplay.moc"
