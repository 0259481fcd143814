// SPDX-License-Identifier: GPL-3.0-or-later
// Host grants: which allow patterns reach this computer or its networks, and host-grants.yaml,
// where the approvals of them are kept kit by kit.
#include "policy/HostGrantApprovals.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using paddock::Result;
using namespace paddock::policy;

class TestPolicyHostGrants : public QObject
{
    Q_OBJECT

private slots:
    void classification_data();
    void classification();
    void thisComputersAddressIsAGrant();
    void grantsOfAnAllowList();
    void guardedRangesHoldEverySpelling();
    void approvalsRoundTrip();
    void approvalIsPerKitAndExact();
    void revoke();
    void brokenFileIsReportedWithPosition();
    void brokenFileRefusesChanges();

private:
    static LocalAddresses noAddresses() { return LocalAddresses(std::vector<IpAddress>{}); }
};

void TestPolicyHostGrants::classification_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QStringList>("reaches"); // empty: not a grant

    QTest::newRow("public name") << "github.com" << QStringList();
    QTest::newRow("public wildcard") << "**.example.com" << QStringList();
    QTest::newRow("public address") << "203.0.113.7:22" << QStringList();
    QTest::newRow("public range") << "203.0.113.0/24" << QStringList();
    QTest::newRow("6to4 of a public address") << "[2002:cb00:7107::]:443" << QStringList();
    QTest::newRow("loopback, every port") << "127.0.0.1:*" << QStringList{"loopback"};
    QTest::newRow("metadata") << "169.254.169.254:80" << QStringList{"cloud metadata", "link-local"};
    QTest::newRow("private range") << "10.0.0.0/8" << QStringList{"private"};
    QTest::newRow("half of IPv4") << "0.0.0.0/1" << QStringList{"unspecified", "loopback", "private", "shared (CGNAT)"};
    QTest::newRow("ietf") << "192.0.0.0/24" << QStringList{"IETF protocol assignment"};
    QTest::newRow("benchmarking") << "198.18.0.1" << QStringList{"benchmarking"};
    QTest::newRow("reserved") << "240.0.0.0/4" << QStringList{"reserved"};
    QTest::newRow("ipv4-compatible loopback") << "[::127.0.0.1]:80" << QStringList{"loopback"};
    QTest::newRow("6to4 loopback") << "[2002:7f00:1::]:80" << QStringList{"loopback"};
    QTest::newRow("6to4 whole") << "2002::/16" << QStringList{};
    QTest::newRow("local-use nat64") << "64:ff9b:1::/48" << QStringList{"local-use NAT64"};
    QTest::newRow("v6 loopback") << "[::1]:8080" << QStringList{"loopback"};
    QTest::newRow("unique-local") << "fd00::/8" << QStringList{"unique-local"};
    QTest::newRow("localhost") << "localhost:11434" << QStringList{"loopback"};
    QTest::newRow("under localhost") << "db.localhost" << QStringList{"loopback"};
    QTest::newRow("gcp metadata name") << "metadata.google.internal:80" << QStringList{"cloud metadata"};
    QTest::newRow("hex spelling of loopback") << "0x7f000001:*" << QStringList{"loopback"};
}

void TestPolicyHostGrants::classification()
{
    QFETCH(QString, pattern);
    QFETCH(QStringList, reaches);
    const std::optional<HostGrant> grant = hostGrantOf(QStringView(pattern), noAddresses());
    if (pattern == QLatin1String("2002::/16")) {
        // 6to4 as a whole embeds every IPv4 address, guarded ones among them.
        QVERIFY(grant);
        QVERIFY(grant->reaches.contains(QStringLiteral("loopback")));
        return;
    }
    if (reaches.isEmpty()) {
        QVERIFY2(!grant, qPrintable(grant ? grant->describe() : QString()));
        return;
    }
    QVERIFY2(grant, qPrintable(pattern));
    for (const QString &kind : reaches)
        QVERIFY2(grant->reaches.contains(kind), qPrintable(grant->describe()));
    QVERIFY(grant->describe().startsWith(grant->pattern + QStringLiteral(" (")));
}

void TestPolicyHostGrants::thisComputersAddressIsAGrant()
{
    const LocalAddresses local(std::vector<IpAddress>{*IpAddress::parse(u"203.0.113.9")});
    const std::optional<HostGrant> grant = hostGrantOf(u"203.0.113.9:22", local);
    QVERIFY(grant);
    QCOMPARE(grant->reaches, QStringList{QStringLiteral("this computer's own")});
    QVERIFY(hostGrantOf(u"203.0.113.0/24", local));
    QVERIFY(!hostGrantOf(u"203.0.113.10", local));
}

void TestPolicyHostGrants::grantsOfAnAllowList()
{
    const QList<HostGrant> grants =
        hostGrantsOf({QStringLiteral("github.com"), QStringLiteral("127.0.0.1:*"), QStringLiteral("not a pattern"),
                      QStringLiteral("127.0.0.1:1-65535"), QStringLiteral("10.0.0.0/8")},
                     noAddresses());
    QCOMPARE(grants.size(), 2); // 127.0.0.1:* and 127.0.0.1:1-65535 are the same pattern
    QCOMPARE(grants.at(0).pattern, QStringLiteral("127.0.0.1:*"));
    QCOMPARE(grants.at(1).pattern, QStringLiteral("10.0.0.0/8"));
}

void TestPolicyHostGrants::guardedRangesHoldEverySpelling()
{
    // Each address the guard refuses lies in a range of the list, so the check of rules and
    // the guard agree; a public address lies in none.
    for (const char16_t *text :
         {u"127.0.0.1", u"::ffff:10.1.2.3", u"64:ff9b::a9fe:a9fe", u"::127.0.0.1", u"2002:c0a8:101::", u"64:ff9b:1::1",
          u"fe80::1", u"fd12::1", u"240.1.2.3", u"198.18.5.5", u"192.0.0.8", u"::", u"::1"}) {
        const IpAddress address = *IpAddress::parse(text);
        QVERIFY2(address.isNonPublic(), qPrintable(address.toString()));
        bool listed = false;
        for (const GuardedRange &range : guardedRanges())
            listed = listed || range.network.contains(address);
        QVERIFY2(listed, qPrintable(address.toString()));
    }
    for (const char16_t *text : {u"203.0.113.7", u"2001:db8::1", u"2002:cb00:7107::", u"64:ff9b::cb00:7107"}) {
        const IpAddress address = *IpAddress::parse(text);
        QVERIFY2(!address.isNonPublic(), qPrintable(address.toString()));
        for (const GuardedRange &range : guardedRanges())
            QVERIFY2(!range.network.contains(address), qPrintable(address.toString() + range.network.toString()));
    }
}

void TestPolicyHostGrants::approvalsRoundTrip()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config/host-grants.yaml"));
    HostGrantApprovals approvals(path);
    QVERIFY(!approvals.load()); // a missing file approves nothing
    QVERIFY(approvals.approved().isEmpty());
    const Result<void> approved = approvals.approve(
        QStringLiteral("ollama"), {QStringLiteral("localhost:11434"), QStringLiteral("127.0.0.1:1-65535")});
    QVERIFY2(approved, qPrintable(approved.errorText()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(int(file.permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup)), 0);
    const QByteArray text = file.readAll();
    QVERIFY2(text.contains("  ollama:\n    allow:\n      - \"localhost:11434\"\n      - \"127.0.0.1:*\"\n"),
             text.constData());

    HostGrantApprovals again(path);
    QVERIFY(!again.load());
    QCOMPARE(again.approved().value(QStringLiteral("ollama")),
             (QStringList{QStringLiteral("localhost:11434"), QStringLiteral("127.0.0.1:*")}));
    QVERIFY(std::holds_alternative<ApprovedGrants>(
        HostGrantApprovals::parse(HostGrantApprovals::serialise(again.approved()), path)));
}

void TestPolicyHostGrants::approvalIsPerKitAndExact()
{
    QTemporaryDir dir;
    HostGrantApprovals approvals(dir.filePath(QStringLiteral("host-grants.yaml")));
    QVERIFY(approvals.approve(QStringLiteral("one"), {QStringLiteral("127.0.0.1:8080")}));
    const HostGrant exact = *hostGrantOf(u"127.0.0.1:8080", noAddresses());
    const HostGrant wider = *hostGrantOf(u"127.0.0.1:*", noAddresses());
    QVERIFY(approvals.isApproved(QStringLiteral("one"), exact));
    QVERIFY(!approvals.isApproved(QStringLiteral("two"), exact));
    QVERIFY(!approvals.isApproved(QStringLiteral("one"), wider));
    QCOMPARE(approvals.pending(QStringLiteral("one"), {exact, wider}), QList<HostGrant>{wider});
    const Result<void> badKit = approvals.approve(QStringLiteral("Not_A_Kit"), {QStringLiteral("127.0.0.1")});
    QVERIFY(!badKit);
    QVERIFY2(badKit.error().message.contains(QLatin1String("kit name")), qPrintable(badKit.error().text()));
    // A composition's approvals are its own: not its workload's, nor another composition's.
    QVERIFY(approvals.approve(QStringLiteral("one+tool"), {QStringLiteral("127.0.0.1:9090")}));
    const HostGrant toolPort = *hostGrantOf(u"127.0.0.1:9090", noAddresses());
    QVERIFY(approvals.isApproved(QStringLiteral("one+tool"), toolPort));
    QVERIFY(!approvals.isApproved(QStringLiteral("one"), toolPort));
    QVERIFY(!approvals.approve(QStringLiteral("one+"), {QStringLiteral("127.0.0.1")}));
    const Result<void> badPattern = approvals.approve(QStringLiteral("one"), {QStringLiteral("not a pattern")});
    QVERIFY(!badPattern);
    QVERIFY2(badPattern.error().message.contains(QLatin1String("not a pattern")),
             qPrintable(badPattern.error().text()));
}

void TestPolicyHostGrants::revoke()
{
    QTemporaryDir dir;
    HostGrantApprovals approvals(dir.filePath(QStringLiteral("host-grants.yaml")));
    QVERIFY(approvals.approve(QStringLiteral("one"), {QStringLiteral("127.0.0.1:8080"), QStringLiteral("10.0.0.0/8")}));
    QVERIFY(approvals.approve(QStringLiteral("two"), {QStringLiteral("10.0.0.0/8")}));
    Result<int> removed = approvals.revoke(QStringLiteral("one"), {QStringLiteral("10.0.0.0/8")});
    QVERIFY(removed);
    QCOMPARE(*removed, 1);
    QCOMPARE(approvals.approved().value(QStringLiteral("one")), QStringList{QStringLiteral("127.0.0.1:8080")});
    QCOMPARE(approvals.approved().value(QStringLiteral("two")), QStringList{QStringLiteral("10.0.0.0/8")});
    removed = approvals.revoke(QStringLiteral("one"), {});
    QVERIFY(removed);
    QCOMPARE(*removed, 1);
    QVERIFY(!approvals.approved().contains(QStringLiteral("one")));
    removed = approvals.revoke(QStringLiteral("none"), {});
    QVERIFY(removed);
    QCOMPARE(*removed, 0);
}

void TestPolicyHostGrants::brokenFileIsReportedWithPosition()
{
    const QByteArray text = "grants:\n  ok:\n    allow:\n      - \"127.0.0.1\"\n      - \"exa mple\"\n";
    const auto parsed = HostGrantApprovals::parse(text, QStringLiteral("host-grants.yaml"));
    QVERIFY(std::holds_alternative<PolicyError>(parsed));
    const PolicyError error = std::get<PolicyError>(parsed);
    QCOMPARE(error.line, 5);
    QCOMPARE(error.column, 9);
    QVERIFY(std::holds_alternative<PolicyError>(HostGrantApprovals::parse("grant: {}\n", QString())));
    QVERIFY(
        std::holds_alternative<PolicyError>(HostGrantApprovals::parse("grants:\n  ok:\n    deny: []\n", QString())));
}

void TestPolicyHostGrants::brokenFileRefusesChanges()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("host-grants.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("grants: [oops\n");
    file.close();
    HostGrantApprovals approvals(path);
    QVERIFY(approvals.load());
    const Result<void> approved = approvals.approve(QStringLiteral("one"), {QStringLiteral("127.0.0.1")});
    QVERIFY(!approved);
    QVERIFY2(approved.error().fix.contains(QLatin1String("fix it first")), qPrintable(approved.error().text()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("grants: [oops\n"));
}

QTEST_GUILESS_MAIN(TestPolicyHostGrants)
#include "tst_policy_host_grants.moc"
