// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks on the host's processes from inside a real bubblewrap sandbox, as an ordinary user and
// as root inside: ptrace the daemon (which holds keys while it injects them) or the person's own
// processes, read their memory or environment, signal them; and the same against the sandbox's
// supervisor, which holds the session channel. The probe shows it can do each of these to a
// process of its own, so a refusal is the boundary's and not the probe's.
#include "AttackSupport.h"

#include <QCoreApplication>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestHostProcesses : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theProbeReachesItsOwnChild_data();
    void theProbeReachesItsOwnChild();
    void hostProcessesAreOutOfReach_data();
    void hostProcessesAreOutOfReach();
    void theSupervisorIsOutOfReach_data();
    void theSupervisorIsOutOfReach();
    void noHostProcessIsEvenVisible();
    void noHostEnvironmentIsReadable();

private:
    void addUsers(const char *attempt);

    std::unique_ptr<SandboxFixture> m_fixture;
    QHash<QString, QHash<QString, QString>> m_results; ///< by user inside
    QHash<QString, QString> m_output;
};

void TestHostProcesses::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    const Finished run = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                                             m_fixture->kitDir(), QStringLiteral("--name"), QStringLiteral("reacher"),
                                             m_fixture->workspace(), paddock::test::securityScripts(),
                                             QStringLiteral("--"), QStringLiteral("exec sleep 600")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // The daemon, and this test: a process of the person's own session.
    const QString daemon = QString::number(m_fixture->daemon()->processId());
    const QString self = QString::number(QCoreApplication::applicationPid());
    for (const QString &user : {QStringLiteral("agent"), QStringLiteral("root")}) {
        const Finished probe = m_fixture->paddock(
            {QStringLiteral("exec"), QStringLiteral("-u"), user, QStringLiteral("reacher"), QStringLiteral("python3"),
             paddock::test::securityScript(QStringLiteral("host_probe.py")), daemon, self});
        QVERIFY2(probe.exitCode == 0, qPrintable(probe.err));
        m_results.insert(user, paddock::test::probeResults(probe.out));
        m_output.insert(user, probe.out);
    }
}

void TestHostProcesses::addUsers(const char *attempt)
{
    for (const char *user : {"agent", "root"})
        QTest::addRow("%s: %s", user, attempt) << QString::fromLatin1(user) << QString::fromLatin1(attempt);
}

void TestHostProcesses::theProbeReachesItsOwnChild_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("attempt");
    addUsers("ptrace-own-child");
    addUsers("vm-read-own-child");
    addUsers("fds-own-child");
}

void TestHostProcesses::theProbeReachesItsOwnChild()
{
    QFETCH(QString, user);
    QFETCH(QString, attempt);
    QCOMPARE(m_results.value(user).value(attempt), QStringLiteral("0"));
}

void TestHostProcesses::hostProcessesAreOutOfReach_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("attempt");
    // host-0 is the daemon, host-1 this test.
    for (const char *attempt : {"ptrace-host-0", "vm-read-host-0", "environ-host-0", "mem-host-0", "signal-host-0",
                                "ptrace-host-1", "vm-read-host-1", "environ-host-1", "mem-host-1", "signal-host-1"})
        addUsers(attempt);
}

void TestHostProcesses::hostProcessesAreOutOfReach()
{
    QFETCH(QString, user);
    QFETCH(QString, attempt);
    const QString result = m_results.value(user).value(attempt);
    QVERIFY2(!result.isEmpty(), qPrintable(QStringLiteral("the probe said nothing of %1").arg(attempt)));
    // The host's pids do not exist in the sandbox's pid namespace (ESRCH, ENOENT); should one be
    // taken by a process of the sandbox, the result is still not the host's process.
    QVERIFY2(result != QLatin1String("0"), qPrintable(attempt + QStringLiteral(" worked")));
}

void TestHostProcesses::theSupervisorIsOutOfReach_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("attempt");
    for (const char *attempt : {"ptrace-init", "vm-read-init", "environ-init", "mem-init", "fds-init", "root-init"})
        addUsers(attempt);
}

void TestHostProcesses::theSupervisorIsOutOfReach()
{
    QFETCH(QString, user);
    QFETCH(QString, attempt);
    const QString result = m_results.value(user).value(attempt);
    QVERIFY2(!result.isEmpty(), qPrintable(QStringLiteral("the probe said nothing of %1").arg(attempt)));
    QVERIFY2(result != QLatin1String("0"), qPrintable(attempt + QStringLiteral(" worked")));
}

void TestHostProcesses::noHostProcessIsEvenVisible()
{
    for (const QString &user : {QStringLiteral("agent"), QStringLiteral("root")}) {
        const QStringList seen = m_results.value(user).value(QStringLiteral("processes")).split(QLatin1Char(','));
        QVERIFY2(seen.contains(QStringLiteral("python3")), qPrintable(seen.join(QLatin1Char(' '))));
        for (const char *host : {"paddockd", "tst_host_proces", "dbus-daemon", "gnome-keyring-d", "Xvfb", "dockerd"})
            QVERIFY2(!seen.contains(QLatin1String(host)), qPrintable(seen.join(QLatin1Char(' '))));
    }
}

void TestHostProcesses::noHostEnvironmentIsReadable()
{
    // The fixture gives the daemon and the CLI this variable; the host's session has the others.
    for (const QString &user : {QStringLiteral("agent"), QStringLiteral("root")}) {
        const QString dump = m_output.value(user).section(QStringLiteral("environ-dump"), 1);
        QVERIFY2(dump.contains(QLatin1String("HOME=")), qPrintable(dump)); // it read its own
        const QStringList host{QLatin1String(SandboxFixture::kMarker), QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                               QStringLiteral("GNOME_KEYRING_CONTROL"), QStringLiteral("DISPLAY="),
                               qEnvironmentVariable("XDG_RUNTIME_DIR")};
        for (const QString &variable : host)
            QVERIFY2(!dump.contains(variable), qPrintable(variable + QLatin1Char('\n') + dump));
    }
}

QTEST_GUILESS_MAIN(TestHostProcesses)
#include "tst_host_processes.moc"
