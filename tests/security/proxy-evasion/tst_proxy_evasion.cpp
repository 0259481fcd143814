// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks on the proxy from inside a real bubblewrap sandbox, as an ordinary user. The policy is
// as open as it gets (the allow-all preset, with other.test denied), so what stands in the way
// is the proxy itself: a Host header or TLS server name other than the destination, the host's
// own addresses (127.0.0.1, 169.254.169.254) spelled in decimal, octal, hex and short forms or
// reached through names that resolve to them, request smuggling, and heads too large or too slow.
// An upstream on the host's loopback records every byte: only the honest requests reach it.
#include "AttackSupport.h"

using paddock::test::Finished;
using paddock::test::RecordingServer;
using paddock::test::SandboxFixture;

namespace {

/** Names of the address spellings the probe tries, and the spelling. */
const QList<QPair<const char *, const char *>> kSpellings = {
    {"loopback-decimal", "2130706433"},
    {"loopback-octal", "0177.0.0.1"},
    {"loopback-hex", "0x7f000001"},
    {"loopback-hex-dotted", "0x7f.0.0.1"},
    {"loopback-short", "127.1"},
    {"loopback-mapped-v6", "[::ffff:127.0.0.1]"},
    {"loopback-name", "localhost"},
    {"loopback-name-dot", "LOCALHOST."},
    {"loopback-rebinding", "loopback.rebind.test"},
    {"metadata-decimal", "2852039166"},
    {"metadata-octal", "0251.0376.0251.0376"},
    {"metadata-hex", "0xa9fea9fe"},
    {"metadata-short", "169.254.43518"},
    {"metadata-mapped-v6", "[::ffff:169.254.169.254]"},
    {"metadata-rebinding", "metadata.rebind.test"},
};

} // namespace

class TestProxyEvasion : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void honestRequestsPass();
    void hostHeaderOtherThanTheUriIsRefused();
    void serverNameOtherThanTheTunnelIsRefused();
    void hostAddressesAreRefusedHoweverSpelled_data();
    void hostAddressesAreRefusedHoweverSpelled();
    void smuggledRequestsAreRefused_data();
    void smuggledRequestsAreRefused();
    void oversizedHeadIsRefused();
    void slowHeadsAreClosedAndStarveNobody();

private:
    void expectRefused(const QString &attempt, const QStringList &statuses);

    std::unique_ptr<SandboxFixture> m_fixture;
    RecordingServer m_upstream;
    RecordingServer m_tlsUpstream;
    QHash<QString, QString> m_results;
    QByteArray m_received;
};

void TestProxyEvasion::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    QVERIFY(m_upstream.start());
    QVERIFY(m_tlsUpstream.start());
    m_fixture = std::make_unique<SandboxFixture>();
    // A hostile name server for *.rebind.test, and 127.0.0.1:443 (which an ordinary user cannot
    // listen on) led to the TLS upstream.
    m_fixture->addEnvironment(QStringLiteral("LD_PRELOAD"), QStringLiteral(PADDOCK_STANDIN_NETWORK_LIB));
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_TEST_DNS"),
                              QStringLiteral("loopback.rebind.test=127.0.0.1;metadata.rebind.test=169.254.169.254"));
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_TEST_CONNECT"),
                              QStringLiteral("443=%1").arg(m_tlsUpstream.port()));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    QCOMPARE(
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("allow-all")}).exitCode,
        0);
    QCOMPARE(m_fixture
                 ->paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"),
                            QStringLiteral("other.test:*")})
                 .exitCode,
             0);

    QStringList spellings;
    for (const auto &[name, spelling] : kSpellings)
        spellings << QStringLiteral("%1=%2").arg(QLatin1String(name), QLatin1String(spelling));
    const Finished run =
        m_fixture->paddock(QStringList{QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                       QStringLiteral("--name"), QStringLiteral("evader"), m_fixture->workspace(),
                                       paddock::test::securityScripts(), QStringLiteral("--"),
                                       QStringLiteral("exec python3 %1 %2 \"$@\"")
                                           .arg(paddock::test::securityScript(QStringLiteral("proxy_probe.py")))
                                           .arg(m_upstream.port()),
                                       QStringLiteral("probe")} +
                           spellings);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    m_results = paddock::test::probeResults(run.out);
    m_received = m_upstream.received();
}

void TestProxyEvasion::expectRefused(const QString &attempt, const QStringList &statuses)
{
    QVERIFY2(m_results.contains(attempt), qPrintable(QStringLiteral("the probe said nothing of %1").arg(attempt)));
    QVERIFY2(statuses.contains(m_results.value(attempt)),
             qPrintable(QStringLiteral("%1: %2").arg(attempt, m_results.value(attempt))));
    // Not a byte of it reached the upstream.
    QVERIFY2(!m_received.contains(QByteArray("/") + attempt.toUtf8() + " HTTP/"), m_received.constData());
}

void TestProxyEvasion::honestRequestsPass()
{
    // The probe and the upstream work: an honest request, and a TLS tunnel naming its host.
    QCOMPARE(m_results.value(QStringLiteral("control")), QStringLiteral("200"));
    QVERIFY(m_received.contains("GET /control"));
    QCOMPARE(m_results.value(QStringLiteral("sni-control")), QStringLiteral("handshake-sent"));
}

void TestProxyEvasion::hostHeaderOtherThanTheUriIsRefused()
{
    expectRefused(QStringLiteral("host-mismatch"), {QStringLiteral("400")});
}

void TestProxyEvasion::serverNameOtherThanTheTunnelIsRefused()
{
    QCOMPARE(m_results.value(QStringLiteral("sni-mismatch")), QStringLiteral("closed"));
    // Only the honest tunnel's ClientHello reached the upstream; the other's never left the proxy.
    QCOMPARE(m_tlsUpstream.connections(), 2);
    QVERIFY(m_tlsUpstream.received().contains("allowed.test"));
    QVERIFY(!m_tlsUpstream.received().contains("other.test"));
}

void TestProxyEvasion::hostAddressesAreRefusedHoweverSpelled_data()
{
    QTest::addColumn<QString>("attempt");
    for (const auto &[name, spelling] : kSpellings)
        QTest::newRow(spelling) << QString::fromLatin1(name);
}

void TestProxyEvasion::hostAddressesAreRefusedHoweverSpelled()
{
    QFETCH(QString, attempt);
    // 403 from the guard against the host's own and private addresses; a spelling the proxy
    // cannot read at all may get 400 instead. Never an attempt to connect (502, 504).
    expectRefused(attempt, {QStringLiteral("403"), QStringLiteral("400")});
}

void TestProxyEvasion::smuggledRequestsAreRefused_data()
{
    QTest::addColumn<QString>("attempt");
    QTest::newRow("Content-Length and Transfer-Encoding") << QStringLiteral("smuggle-cl-te");
    QTest::newRow("two Content-Lengths") << QStringLiteral("smuggle-cl-cl");
    QTest::newRow("Transfer-Encoding with a space before the colon") << QStringLiteral("smuggle-te-space");
    QTest::newRow("Transfer-Encoding folded into another header") << QStringLiteral("smuggle-te-fold");
}

void TestProxyEvasion::smuggledRequestsAreRefused()
{
    QFETCH(QString, attempt);
    expectRefused(attempt, {QStringLiteral("400"), QStringLiteral("411")});
    QVERIFY2(!m_received.contains("-smuggled"), m_received.constData());
}

void TestProxyEvasion::oversizedHeadIsRefused()
{
    expectRefused(QStringLiteral("oversized-head"), {QStringLiteral("431"), QStringLiteral("closed")});
}

void TestProxyEvasion::slowHeadsAreClosedAndStarveNobody()
{
    // "200 0-open-after 11s": the honest request passed while 200 heads trickled in, and the
    // proxy let every slow one go at its header timeout (10 seconds).
    const QStringList words = m_results.value(QStringLiteral("slowloris")).split(QLatin1Char(' '));
    QCOMPARE(words.value(0), QStringLiteral("200"));
    QCOMPARE(words.value(1), QStringLiteral("0-open-after"));
    QVERIFY2(words.value(2).chopped(1).toInt() < 30, qPrintable(words.join(QLatin1Char(' '))));
    QVERIFY(!m_received.contains("/slowloris"));
}

QTEST_GUILESS_MAIN(TestProxyEvasion)
#include "tst_proxy_evasion.moc"
