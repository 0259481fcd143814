// SPDX-License-Identifier: GPL-3.0-or-later
// On a host that restricts unprivileged user namespaces, Paddock says which setting does and
// how to change it, instead of passing on a bubblewrap error.
#include "IsolatedHome.h"

#include "runtime/bwrap/UserNamespaces.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using paddock::runtime::bwrap::userNamespaceProblem;

namespace {

/** A stand-in for /proc/sys holding only the settings a test writes (no real one can be changed here). */
class FakeProcSys
{
public:
    void set(const QString &path, const QByteArray &value)
    {
        QDir().mkpath(QFileInfo(m_dir.filePath(path)).absolutePath());
        QFile file(m_dir.filePath(path));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(value + '\n');
    }
    QString path() const { return m_dir.path(); }

private:
    QTemporaryDir m_dir;
};

} // namespace

class TestBwrapUserns : public QObject
{
    Q_OBJECT

private slots:
    void appArmorRestrictionIsNamedWithItsFix();
    void debianSwitchIsNamedWithItsFix();
    void zeroLimitIsNamedWithItsFix();
    void realLimitStopsRunWithTheSettingNamed();
};

void TestBwrapUserns::appArmorRestrictionIsNamedWithItsFix()
{
    FakeProcSys proc;
    proc.set(QStringLiteral("kernel/apparmor_restrict_unprivileged_userns"), "1");
    const QString message =
        userNamespaceProblem(QStringLiteral("bwrap: setting up uid map: Permission denied"), proc.path());
    QVERIFY2(message.contains(QLatin1String("kernel.apparmor_restrict_unprivileged_userns")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("apparmor_parser -r /etc/apparmor.d/paddock-bwrap")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("sysctl -w kernel.apparmor_restrict_unprivileged_userns=0")),
             qPrintable(message));
}

void TestBwrapUserns::debianSwitchIsNamedWithItsFix()
{
    FakeProcSys proc;
    proc.set(QStringLiteral("kernel/apparmor_restrict_unprivileged_userns"), "0");
    proc.set(QStringLiteral("kernel/unprivileged_userns_clone"), "0");
    const QString message =
        userNamespaceProblem(QStringLiteral("bwrap: No permissions to create new namespace"), proc.path());
    QVERIFY2(message.contains(QLatin1String("sysctl -w kernel.unprivileged_userns_clone=1")), qPrintable(message));
}

void TestBwrapUserns::zeroLimitIsNamedWithItsFix()
{
    FakeProcSys proc;
    proc.set(QStringLiteral("user/max_user_namespaces"), "0");
    const QString message = userNamespaceProblem(QString(), proc.path());
    QVERIFY2(message.contains(QLatin1String("sysctl -w user.max_user_namespaces=")), qPrintable(message));
    // Without any restriction in view, the message is bubblewrap's, not a guess.
    FakeProcSys open;
    QVERIFY(!userNamespaceProblem(QStringLiteral("odd"), open.path()).contains(QLatin1String("sysctl")));
}

void TestBwrapUserns::realLimitStopsRunWithTheSettingNamed()
{
    // A real restriction: a user namespace whose limit leaves no room for bubblewrap's, with
    // paddock, paddockd and bwrap running in it as an ordinary uid.
    QTemporaryDir root;
    QDir().mkpath(root.filePath(QStringLiteral("work")));
    QProcessEnvironment env = paddock::test::isolatedEnvironment(root.path(), paddock::test::XdgFolders::shortNames());
    QFile::setPermissions(root.filePath(QStringLiteral("run")),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QProcess run;
    env.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
    env.insert(QStringLiteral("PADDOCK_INIT"), QStringLiteral(PADDOCK_INIT_BIN));
    env.insert(QStringLiteral("DOCKER_HOST"), QStringLiteral("unix:///nonexistent.sock"));
    run.setProcessEnvironment(env);
    run.setWorkingDirectory(root.filePath(QStringLiteral("work")));
    const QString script =
        QStringLiteral("echo 1 > /proc/sys/user/max_user_namespaces && "
                       "exec unshare --user --map-user=1000 --map-group=1000 \"$0\" run --kit \"$1\" -- true");
    run.start(QStringLiteral("unshare"),
              {QStringLiteral("--user"), QStringLiteral("--map-root-user"), QStringLiteral("sh"), QStringLiteral("-c"),
               script, QStringLiteral(PADDOCK_BIN), QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/shell")});
    QVERIFY(run.waitForFinished(60000));
    const QString err = QString::fromUtf8(run.readAllStandardError());
    QCOMPARE(run.exitCode(), 1);
    QVERIFY2(err.contains(QLatin1String("user.max_user_namespaces")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("--backend docker")), qPrintable(err));
    QProcess stop;
    stop.setProcessEnvironment(env);
    stop.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("daemon"), QStringLiteral("stop")});
    stop.waitForFinished(20000);
}

QTEST_GUILESS_MAIN(TestBwrapUserns)
#include "tst_bwrap_userns.moc"
