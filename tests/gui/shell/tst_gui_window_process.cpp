// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock` with no arguments opens the window in a process that carries the window alone:
// the command line's libraries (libcurl and the TLS libraries under it, QtKeychain) are not
// in its memory, while `paddock` given a command still runs it; and a command loads libcurl
// only when it reaches a container engine. The real binary, on the offscreen platform.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestGuiWindowProcess : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void windowMapsNoCommandLineLibraries();
    void commandsStillRunInPaddock();
    void aCommandLoadsLibcurlOnlyForAnEngine();

private:
    QProcessEnvironment environment(const QString &home) const;
};

QProcessEnvironment TestGuiWindowProcess::environment(const QString &home) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "HOME"}) {
        const QString dir = home + QLatin1Char('/') + QLatin1String(name);
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        env.insert(QLatin1String(name), dir);
    }
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("QT_QUICK_BACKEND"), QStringLiteral("software"));
    // No daemon: the window shows that it has none, which is enough to look at its process.
    env.insert(QStringLiteral("PADDOCKD"), home + QStringLiteral("/no-such-paddockd"));
    return env;
}

void TestGuiWindowProcess::windowMapsNoCommandLineLibraries()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcess window;
    window.setProcessEnvironment(environment(home.path()));
    window.setProcessChannelMode(QProcess::ForwardedChannels);
    window.start(QStringLiteral(PADDOCK_BIN), {});
    QVERIFY(window.waitForStarted());
    // The window listens for a second `paddock` once it is up.
    const QString socket = home.path() + QStringLiteral("/XDG_RUNTIME_DIR/paddock/window.sock");
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(socket) || window.state() != QProcess::Running, 60000);
    QCOMPARE(window.state(), QProcess::Running);

    QFile maps(QStringLiteral("/proc/%1/maps").arg(window.processId()));
    QVERIFY(maps.open(QIODevice::ReadOnly));
    const QString mapped = QString::fromUtf8(maps.readAll());
    QVERIFY2(mapped.contains(QLatin1String("libQt6Quick.so")), "the window's process has no Qt Quick");
    for (const char *library : {"libcurl", "libqt6keychain", "libssl.so", "libgnutls"})
        QVERIFY2(!mapped.contains(QLatin1String(library)),
                 qPrintable(QStringLiteral("the window's process maps %1").arg(QLatin1String(library))));

    window.terminate();
    QVERIFY(window.waitForFinished(30000));
}

void TestGuiWindowProcess::commandsStillRunInPaddock()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcess paddock;
    paddock.setProcessEnvironment(environment(home.path()));
    paddock.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("--version")});
    QVERIFY(paddock.waitForFinished(30000));
    QCOMPARE(paddock.exitCode(), 0);
    QVERIFY2(paddock.readAllStandardOutput().startsWith("paddock "), "no version printed");

    // A bundle file with a display opens the window; `open` without one stays a command that says why.
    QProcessEnvironment noDisplay = environment(home.path());
    noDisplay.remove(QStringLiteral("QT_QPA_PLATFORM"));
    paddock.setProcessEnvironment(noDisplay);
    paddock.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("open"), home.path() + QStringLiteral("/x.paddock")});
    QVERIFY(paddock.waitForFinished(30000));
    QCOMPARE(paddock.exitCode(), 1);
    QVERIFY2(paddock.readAllStandardError().contains("bundle import"), "no hint at the command line");
}

void TestGuiWindowProcess::aCommandLoadsLibcurlOnlyForAnEngine()
{
    // The loader names each library it maps (LD_DEBUG=files): libcurl and the thirty under it
    // cost a command about 5 ms of start, so only the Docker engine's client loads it, on its
    // first request (the Docker tests' `paddock exec` and `attach` are such requests).
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = environment(home.path());
    env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("files"));
    QProcess paddock;
    paddock.setProcessEnvironment(env);
    paddock.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("--version")});
    QVERIFY(paddock.waitForFinished(30000));
    QCOMPARE(paddock.exitCode(), 0);
    const QByteArray loaded = paddock.readAllStandardError();
    QVERIFY2(loaded.contains("libQt6Core.so"), "the loader did not say what it mapped");
    QVERIFY2(!loaded.contains("libcurl"), "paddock --version loaded libcurl");
}

QTEST_GUILESS_MAIN(TestGuiWindowProcess)
#include "tst_gui_window_process.moc"
