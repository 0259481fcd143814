// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks from inside a real bubblewrap sandbox, as an ordinary user: the kernel interfaces a
// coding agent has no use for are refused by the sandbox's seccomp filter, whatever user the
// session runs as, and a fork bomb stops at the sandbox's process limit instead of the desktop's.
#include "SandboxFixture.h"

#include <QtTest>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestSandboxConfinement : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void refusedCalls_data();
    void refusedCalls();
    void forkBombStopsAtTheSandboxLimit();
    void setupStepsRunFilteredToo();

private:
    QHash<QString, int> probe(const QString &user)
    {
        const Finished run = m_fixture->paddock(
            {QStringLiteral("exec"), QStringLiteral("-u"), user, QStringLiteral("confined"), QStringLiteral("python3"),
             QStringLiteral(PADDOCK_SOURCE_DIR "/tests/security/sandbox-confinement/probe.py")});
        QHash<QString, int> results;
        for (const QString &line : run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            results.insert(line.section(QLatin1Char(' '), 0, 0), line.section(QLatin1Char(' '), 1).toInt());
        if (results.isEmpty())
            qWarning("probe: %s", qPrintable(run.err));
        return results;
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    QHash<QString, QHash<QString, int>> m_results;
};

void TestSandboxConfinement::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    // The probe is read from the source tree, which the sandbox sees read-only as an extra path.
    const Finished run = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                                             m_fixture->kitDir(), QStringLiteral("--name"), QStringLiteral("confined"),
                                             m_fixture->workspace(),
                                             QStringLiteral(PADDOCK_SOURCE_DIR "/tests/security/sandbox-confinement"),
                                             QStringLiteral("--"), QStringLiteral("sleep 600")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    for (const QString &user : {QStringLiteral("agent"), QStringLiteral("root")})
        m_results.insert(user, probe(user));
}

void TestSandboxConfinement::refusedCalls_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("expected");
    const QList<QPair<const char *, int>> calls = {
        {"unshare-user", EPERM},    {"keyctl", EPERM},     {"add_key", EPERM},
        {"request_key", EPERM},     {"bpf", EPERM},        {"userfaultfd", EPERM},
        {"perf_event_open", EPERM}, {"kexec_load", EPERM}, {"io_uring_setup", ENOSYS},
        {"mount", EPERM},           {"pivot_root", EPERM}, {"setns", EPERM},
        {"clone3", ENOSYS},         {"TIOCSTI", EPERM}};
    for (const char *user : {"agent", "root"}) {
        for (const auto &[call, expected] : calls)
            QTest::addRow("%s: %s", user, call) << QString::fromLatin1(user) << QString::fromLatin1(call) << expected;
    }
}

void TestSandboxConfinement::refusedCalls()
{
    QFETCH(QString, user);
    QFETCH(QString, call);
    QFETCH(int, expected);
    const QHash<QString, int> results = m_results.value(user);
    QVERIFY2(results.contains(call), qPrintable(QStringLiteral("the probe said nothing of %1").arg(call)));
    QCOMPARE(results.value(call), expected);
}

void TestSandboxConfinement::forkBombStopsAtTheSandboxLimit()
{
    // Processes that stay: the loop ends at the limit, and the count inside stays under it.
    const Finished bomb = m_fixture->paddock(
        {QStringLiteral("exec"), QStringLiteral("confined"), QStringLiteral("python3"), QStringLiteral("-c"),
         QStringLiteral("import os, time\n"
                        "n = 0\n"
                        "while n < 10000:\n"
                        "    try:\n"
                        "        pid = os.fork()\n"
                        "    except OSError:\n"
                        "        break\n"
                        "    if pid == 0:\n"
                        "        time.sleep(60); os._exit(0)\n"
                        "    n += 1\n"
                        "print(n, len([d for d in os.listdir('/proc') if d.isdigit()]))\n")});
    QVERIFY2(bomb.exitCode == 0, qPrintable(bomb.err));
    const int forked = bomb.out.section(QLatin1Char(' '), 0, 0).toInt();
    const int inside = bomb.out.section(QLatin1Char(' '), 1).trimmed().toInt();
    QVERIFY2(forked > 100 && forked < 2048, qPrintable(bomb.out));
    QVERIFY2(inside <= 2048, qPrintable(bomb.out));
    // The desktop's user can still start programs.
    QProcess host;
    host.start(QStringLiteral("true"), {});
    QVERIFY(host.waitForFinished(10000));
    QCOMPARE(host.exitCode(), 0);
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("confined")}).exitCode, 0);
}

void TestSandboxConfinement::setupStepsRunFilteredToo()
{
    // setup.install runs before the supervisor exists: bwrap loads the filter itself there.
    const QString kit = m_fixture->path(QStringLiteral("install-kit"));
    QDir().mkpath(kit);
    QFile spec(kit + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(R"(schemaVersion: "2"
kind: sandbox
name: install-probe
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["cat $HOME/install.txt"]
setup:
  install:
    - command: unshare -r true 2> "$HOME/install.txt" && echo escaped > "$HOME/install.txt"; true
)");
    spec.close();
    const Finished run =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                            QStringLiteral("install-probe"), m_fixture->workspace()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    // Refused by the filter's EPERM, not for another reason (a missing unshare, a namespace limit).
    QVERIFY2(run.out.contains(QLatin1String("unshare failed: Operation not permitted")), qPrintable(run.out));
}

QTEST_GUILESS_MAIN(TestSandboxConfinement)
#include "tst_sandbox_confinement.moc"
