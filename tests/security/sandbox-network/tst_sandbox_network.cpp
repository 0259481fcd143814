// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks on the network boundary from inside a real bubblewrap sandbox, as an ordinary user:
// direct IPv4 and IPv6 to the host's loopback and addresses and to the outside, DNS to the
// host's resolver and to the outside, UDP, raw ICMP, and the host's unix sockets (X11 by path
// and abstract name, the D-Bus buses, Docker, the keyring's control socket, the daemon's own).
// Each attempt is made by a probe inside; servers on the host record that nothing reached them.
// The sandbox captures every TCP connection and answers every name itself: a connection to any
// address reaches the proxy, which refuses it (and logs it), and no query reaches a resolver.
#include "AttackSupport.h"

#include <QNetworkInterface>
#include <QUdpSocket>

using paddock::test::Finished;
using paddock::test::RecordingServer;
using paddock::test::SandboxFixture;

class TestSandboxNetwork : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theProxyIsReachable();
    void noOtherWayOut_data();
    void noOtherWayOut();
    void capturedAndRefused_data();
    void capturedAndRefused();
    void nothingReachedTheHost();

private:
    /** A host socket the probe tries: a path, or "@NAME" for an abstract one; empty if none here. */
    void addSocket(const QString &name, const QString &address) { m_sockets.insert(name, address); }
    static QString busSocket(const QString &busAddress);

    std::unique_ptr<SandboxFixture> m_fixture;
    RecordingServer m_tcp4;
    RecordingServer m_tcp6;
    QUdpSocket m_udp;
    QHash<QString, QString> m_sockets;
    bool m_hasHost6 = false;
    QHash<QString, QString> m_results;
    QString m_host4; ///< the host's IPv4 address the probe aims at
};

QString TestSandboxNetwork::busSocket(const QString &busAddress)
{
    // unix:path=/run/user/1000/bus or unix:abstract=/tmp/dbus-XXXX,guid=...
    for (const QString &part : busAddress.section(QLatin1Char(':'), 1).split(QLatin1Char(','))) {
        if (part.startsWith(QLatin1String("path=")))
            return part.mid(5);
        if (part.startsWith(QLatin1String("abstract=")))
            return QLatin1Char('@') + part.mid(9);
    }
    return {};
}

void TestSandboxNetwork::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    // The session's own, before the fixture points XDG_RUNTIME_DIR at its folder.
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(m_tcp4.start(QHostAddress::AnyIPv4));
    QVERIFY(m_tcp6.start(QHostAddress::AnyIPv6));
    QVERIFY(m_udp.bind(QHostAddress::AnyIPv4, 0));

    QString host4, host6;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.isLoopback() || address.isLinkLocal())
            continue;
        if (address.protocol() == QAbstractSocket::IPv4Protocol && host4.isEmpty())
            host4 = address.toString();
        if (address.protocol() == QAbstractSocket::IPv6Protocol && host6.isEmpty())
            host6 = address.toString();
    }
    QString resolver = QStringLiteral("9.9.9.9");
    for (const QByteArray &line : paddock::test::readFile(QStringLiteral("/etc/resolv.conf")).split('\n')) {
        if (line.startsWith("nameserver") && !line.contains(':')) {
            resolver = QString::fromLatin1(line.mid(10).trimmed());
            break;
        }
    }
    const QString display =
        qEnvironmentVariable("DISPLAY").section(QLatin1Char(':'), 1).section(QLatin1Char('.'), 0, 0);
    if (!display.isEmpty()) {
        addSocket(QStringLiteral("socket-x11"), QStringLiteral("/tmp/.X11-unix/X") + display);
        addSocket(QStringLiteral("socket-x11-abstract"), QStringLiteral("@/tmp/.X11-unix/X") + display);
    }
    addSocket(QStringLiteral("socket-dbus-session"), busSocket(qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS")));
    addSocket(QStringLiteral("socket-dbus-system"), QStringLiteral("/run/dbus/system_bus_socket"));
    addSocket(QStringLiteral("socket-docker"), QStringLiteral("/var/run/docker.sock"));
    // GNOME Keyring's control socket: where GNOME_KEYRING_CONTROL says, else its default place.
    QString keyring = qEnvironmentVariable("GNOME_KEYRING_CONTROL");
    if (keyring.isEmpty() && !runtimeDir.isEmpty())
        keyring = runtimeDir + QStringLiteral("/keyring");
    addSocket(QStringLiteral("socket-keyring"), keyring.isEmpty() ? QString() : keyring + QStringLiteral("/control"));
    addSocket(QStringLiteral("socket-paddockd"), m_fixture->socketPath());

    m_host4 = host4.isEmpty() ? QStringLiteral("192.0.2.1") : host4;
    QStringList arguments{QStringLiteral("port4=%1").arg(m_tcp4.port()),
                          QStringLiteral("port6=%1").arg(m_tcp6.port()),
                          QStringLiteral("udp=%1").arg(m_udp.localPort()),
                          QStringLiteral("resolver=") + resolver,
                          QStringLiteral("outside4=1.1.1.1"),
                          QStringLiteral("outside6=2606:4700:4700::1111"),
                          QStringLiteral("host4=") + m_host4};
    m_hasHost6 = !host6.isEmpty();
    if (m_hasHost6)
        arguments << QStringLiteral("host6=") + host6;
    for (auto it = m_sockets.cbegin(); it != m_sockets.cend(); ++it) {
        if (!it.value().isEmpty())
            arguments << it.key() + QLatin1Char('=') + it.value();
    }
    const Finished run =
        m_fixture->paddock(QStringList{QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                       QStringLiteral("--name"), QStringLiteral("prober"), m_fixture->workspace(),
                                       paddock::test::securityScripts(), QStringLiteral("--"),
                                       QStringLiteral("exec python3 %1 \"$@\"")
                                           .arg(paddock::test::securityScript(QStringLiteral("network_probe.py"))),
                                       QStringLiteral("probe")} +
                           arguments);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    m_results = paddock::test::probeResults(run.out);
}

void TestSandboxNetwork::theProxyIsReachable()
{
    // The probe can tell a way that works: the relay to the proxy is one.
    QCOMPARE(m_results.value(QStringLiteral("proxy-relay")), QStringLiteral("reached"));
}

void TestSandboxNetwork::noOtherWayOut_data()
{
    // Each row aims at something the host itself reaches: its loopback, its own addresses (where
    // this test listens), its resolver and sockets. An address outside is not a row here, since
    // a host without a route there would pass it whatever the sandbox did: capturedAndRefused
    // shows those went to Paddock's capture and were refused.
    QTest::addColumn<QString>("attempt");
    for (const char *name :
         {"ipv4-host-loopback", "ipv4-host-address", "ipv6-host-loopback", "dns-host-resolver", "dns-outside",
          "dns-lookup", "udp-host", "icmp-raw", "socket-x11", "socket-x11-abstract", "socket-dbus-session",
          "socket-dbus-system", "socket-docker", "socket-keyring", "socket-paddockd"})
        QTest::newRow(name) << QString::fromLatin1(name);
    if (m_hasHost6) // a host without an IPv6 address of its own has nothing there to reach
        QTest::newRow("ipv6-host-address") << QStringLiteral("ipv6-host-address");
}

void TestSandboxNetwork::noOtherWayOut()
{
    QFETCH(QString, attempt);
    if (attempt.startsWith(QLatin1String("socket-"))) {
        const QString address = m_sockets.value(attempt);
        if (address.isEmpty() || (!address.startsWith(QLatin1Char('@')) && !QFileInfo::exists(address)))
            QSKIP("the host has no such socket here");
    }
    QVERIFY2(m_results.contains(attempt), qPrintable(QStringLiteral("the probe said nothing of %1").arg(attempt)));
    const QString result = m_results.value(attempt);
    QVERIFY2(result != QLatin1String("reached"), qPrintable(attempt + QStringLiteral(" got through")));
    QVERIFY2(!result.isEmpty(), qPrintable(attempt));
}

void TestSandboxNetwork::capturedAndRefused_data()
{
    QTest::addColumn<QString>("attempt");
    QTest::addColumn<QString>("result");
    QTest::addColumn<QString>("logged"); ///< the host the refusal names in the log; empty: none
    QTest::newRow("host address") << "ipv4-host-address"
                                  << "reset" << m_host4;
    QTest::newRow("outside") << "ipv4-outside"
                             << "reset"
                             << "1.1.1.1";
    QTest::newRow("outside over IPv6") << "ipv6-outside"
                                       << "reset"
                                       << "2606:4700:4700::1111";
    QTest::newRow("host's resolver") << "dns-host-resolver"
                                     << "inside" << QString();
    QTest::newRow("outside resolver") << "dns-outside"
                                      << "inside" << QString();
    QTest::newRow("lookup") << "dns-lookup"
                            << "inside" << QString();
}

void TestSandboxNetwork::capturedAndRefused()
{
    // Capture takes the connection (a reset from the proxy, not ENETUNREACH) and the name
    // server inside answers: both prove the attempt went nowhere but to Paddock.
    QFETCH(QString, attempt);
    QFETCH(QString, result);
    QFETCH(QString, logged);
    QCOMPARE(m_results.value(attempt), result);
    if (logged.isEmpty())
        return;
    QJsonArray blocked;
    const auto found = [&] {
        blocked = QJsonDocument::fromJson(
                      m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")})
                          .out.toUtf8())
                      .object()
                      .value(QLatin1String("blocked"))
                      .toArray();
        return std::any_of(blocked.begin(), blocked.end(), [&](const QJsonValue &value) {
            const QJsonObject entry = value.toObject();
            return entry.value(QLatin1String("host")).toString() == logged &&
                   entry.value(QLatin1String("protocol")).toString() == QLatin1String("tcp") &&
                   entry.value(QLatin1String("program")).toString() == QLatin1String("network_probe.py");
        });
    };
    QVERIFY2(QTest::qWaitFor(found, 15000), qPrintable(QJsonDocument(blocked).toJson()));
}

void TestSandboxNetwork::nothingReachedTheHost()
{
    QCOMPARE(m_tcp4.connections(), 0);
    QCOMPARE(m_tcp6.connections(), 0);
    QVERIFY(!m_udp.waitForReadyRead(500));
    QVERIFY(!m_udp.hasPendingDatagrams());
}

QTEST_GUILESS_MAIN(TestSandboxNetwork)
#include "tst_sandbox_network.moc"
