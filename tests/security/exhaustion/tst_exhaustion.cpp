// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks on what every sandbox shares with the others and with the desktop, from inside real
// bubblewrap sandboxes, as an ordinary user: a log written without end, a flood of silent
// connections to the daemon's ports socket, and names that are slow to resolve asked for by the
// hundred. Each stays the attacker's own problem: the disk, the daemon's memory and descriptors,
// and the other sandboxes' lookups are not touched.
#include "../../integration/sandbox-ports/PortsTestSupport.h"
#include "AttackSupport.h"

#include "runtime/SandboxLog.h"

#include <QElapsedTimer>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace sandboxlog = paddock::runtime::sandboxlog;

class TestExhaustion : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void endlessOutputIsCappedAndReadInPages();
    void silentConnectionsToThePortsSocketAreTurnedAway();
    void slowNamesOfOneSandboxDoNotStallAnother();

private:
    Finished paddock(const QStringList &arguments) { return m_fixture->paddock(arguments); }
    qint64 daemonPid() const { return m_fixture->daemon()->processId(); }
    QString kit(const QString &name) const { return m_fixture->path(QStringLiteral("kits/") + name); }
    /** `paddock run --detach` of @p kit as @p name with the scripts folder readable inside. */
    Finished runDetached(const QString &kitName, const QString &name, const QString &script)
    {
        return paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), kit(kitName),
                        QStringLiteral("--name"), name, m_fixture->workspace(), paddock::test::securityScripts(),
                        QStringLiteral("--"), script});
    }

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestExhaustion::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    // A name server that takes six seconds to fail on *.slow.test and answers fast.rebind.test
    // at once, with a private address the proxy refuses.
    m_fixture->addEnvironment(QStringLiteral("LD_PRELOAD"), QStringLiteral(PADDOCK_STANDIN_NETWORK_LIB));
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_TEST_DNS_SLOW"), QStringLiteral(".slow.test=6000"));
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_TEST_DNS"), QStringLiteral("fast.rebind.test=10.1.2.3"));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(paddock::test::writeShellKit(kit(QStringLiteral("hog")), QStringLiteral("hog"),
                                         QStringLiteral("permissions:\n  network:\n    allow:\n"
                                                        "      - \"*.slow.test:80\"\n")));
    QVERIFY(paddock::test::writeShellKit(kit(QStringLiteral("victim")), QStringLiteral("victim"),
                                         QStringLiteral("permissions:\n  network:\n    allow:\n"
                                                        "      - fast.rebind.test:80\n")));
    QVERIFY(paddock::test::writeShellKit(kit(QStringLiteral("ported")), QStringLiteral("ported"),
                                         paddock::test::portsBlock()));
}

void TestExhaustion::endlessOutputIsCappedAndReadInPages()
{
    // More than three times what one log file holds, then a last line.
    const qint64 written = 3 * sandboxlog::kFileLimit + 1000;
    const Finished run = runDetached(QStringLiteral("hog"), QStringLiteral("talker"),
                                     QStringLiteral("head -c %1 /dev/zero | tr '\\000' x; echo; echo THE-END; "
                                                    "exec sleep 600")
                                         .arg(written));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString log = m_fixture->path(QStringLiteral("data/paddock/sandboxes/talker/log"));
    QVERIFY2(QTest::qWaitFor(
                 [&log] {
                     QFile file(log);
                     return file.open(QIODevice::ReadOnly) && file.size() > 16 && file.seek(file.size() - 16) &&
                            file.readAll().contains("THE-END");
                 },
                 120000),
             "the sandbox's last line never reached its log");
    // On disk: two files at most, each within the limit.
    const qint64 current = QFileInfo(log).size();
    const qint64 rotated = QFileInfo(log + QLatin1String(sandboxlog::kRotatedSuffix)).size();
    QVERIFY2(current <= sandboxlog::kFileLimit && rotated <= sandboxlog::kFileLimit,
             qPrintable(QStringLiteral("log %1 bytes, log.1 %2 bytes").arg(current).arg(rotated)));
    QVERIFY(rotated > 0);

    // Read through the daemon: the newest output, the last line included, and the daemon never
    // holds much more than a page of it.
    const qint64 peakBefore = paddock::test::statusKb(daemonPid(), "VmHWM");
    const Finished logs = paddock({QStringLiteral("logs"), QStringLiteral("talker")});
    QCOMPARE(logs.exitCode, 0);
    QVERIFY2(logs.out.trimmed().endsWith(QLatin1String("THE-END")), qPrintable(logs.out.right(200)));
    QVERIFY(logs.out.size() <= 2 * sandboxlog::kFileLimit);
    QVERIFY(logs.out.size() >= sandboxlog::kFileLimit);
    const qint64 grown = paddock::test::statusKb(daemonPid(), "VmHWM") - peakBefore;
    QVERIFY2(grown < 8 * 1024, qPrintable(QStringLiteral("the daemon's peak memory grew by %1 kB").arg(grown)));

    // Removing the sandbox removes every part of its log.
    QCOMPARE(paddock({QStringLiteral("stop"), QStringLiteral("talker")}).exitCode, 0);
    QCOMPARE(paddock({QStringLiteral("rm"), QStringLiteral("talker")}).exitCode, 0);
    QVERIFY(!QFileInfo::exists(log + QLatin1String(sandboxlog::kRotatedSuffix)));
}

void TestExhaustion::silentConnectionsToThePortsSocketAreTurnedAway()
{
    const QString www = m_fixture->workspace() + QStringLiteral("/www");
    QVERIFY(paddock::test::writePage(www));
    const Finished run =
        runDetached(QStringLiteral("ported"), QStringLiteral("ported"), paddock::test::serverCommand(www));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString address = paddock::test::hostAddressOf(m_fixture->listed().value(QStringLiteral("ported")), 8080);
    QVERIFY2(QTest::qWaitFor([&] { return paddock::test::fetch(address).exitCode == 0; }, 20000), qPrintable(address));
    const int before = paddock::test::openDescriptors(daemonPid());

    QProcess flood;
    flood.setProcessEnvironment(m_fixture->environment());
    flood.start(QStringLiteral(PADDOCK_BIN),
                {QStringLiteral("exec"), QStringLiteral("ported"), QStringLiteral("python3"),
                 paddock::test::securityScript(QStringLiteral("ports_flood.py")), QStringLiteral("2000"),
                 QStringLiteral("6")});
    QVERIFY(QTest::qWaitFor([&flood] { return flood.canReadLine() || flood.state() == QProcess::NotRunning; }, 60000));
    const QByteArray holding = flood.readLine();
    QVERIFY2(holding.startsWith("holding"), (holding + flood.readAllStandardError()).constData());
    QTest::qWait(1000);
    const int during = paddock::test::openDescriptors(daemonPid());
    QVERIFY(flood.waitForFinished(60000));
    const QByteArray tally = flood.readAll();
    QVERIFY2(during - before < 100,
             qPrintable(QStringLiteral("the daemon held %1 more descriptors (%2)").arg(during - before).arg(holding)));
    QVERIFY2(tally.contains("closed-by-daemon"), tally.constData());
    // All but the few the daemon waits for a greeting on were closed at once.
    const int held = holding.split(' ').value(1).trimmed().toInt();
    QVERIFY2(held > 100 && tally.split(' ').value(1).trimmed().toInt() >= held - 20, (holding + tally).constData());
    // The sandbox's own port works again once it stops, and the daemon answers meanwhile.
    QVERIFY(QTest::qWaitFor([&] { return paddock::test::fetch(address).exitCode == 0; }, 20000));
    QCOMPARE(paddock({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("ported")}).exitCode, 0);
}

void TestExhaustion::slowNamesOfOneSandboxDoNotStallAnother()
{
    const Finished hog = runDetached(
        QStringLiteral("hog"), QStringLiteral("hog"),
        QStringLiteral("exec python3 %1 200").arg(paddock::test::securityScript(QStringLiteral("lookup_flood.py"))));
    QVERIFY2(hog.exitCode == 0, qPrintable(hog.err));
    QVERIFY2(
        QTest::qWaitFor(
            [this] {
                return paddock({QStringLiteral("logs"), QStringLiteral("hog")}).out.contains(QLatin1String("flooding"));
            },
            30000),
        "the flood did not start");
    QTest::qWait(500);
    // Another sandbox's lookup is answered at once: the name resolves to a private address,
    // which the proxy refuses as soon as it knows it.
    QElapsedTimer timer;
    timer.start();
    const Finished victim =
        paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit(QStringLiteral("victim")),
                 QStringLiteral("--name"), QStringLiteral("victim"), m_fixture->workspace(), QStringLiteral("--"),
                 QStringLiteral("curl -s -o /dev/null -w '%{http_code} %{time_total}\\n' "
                                "http://fast.rebind.test/")});
    QVERIFY2(victim.exitCode == 0, qPrintable(victim.err));
    const QStringList answer = victim.out.trimmed().split(QLatin1Char(' '));
    QCOMPARE(answer.value(0), QStringLiteral("403"));
    QVERIFY2(answer.value(1).toDouble() < 3.0, qPrintable(victim.out));
    QCOMPARE(paddock({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("hog")}).exitCode, 0);
}

QTEST_GUILESS_MAIN(TestExhaustion)
#include "tst_exhaustion.moc"
