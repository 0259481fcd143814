// SPDX-License-Identifier: GPL-3.0-or-later
// The allowlist proposed from what a sandbox asked for, against a real policy engine, and the
// decisions learning mode makes.
#include "network/PolicyDecider.h"
#include "network/ProxyEvents.h"
#include "policy/PolicyEngine.h"
#include "sandbox/LearningProposal.h"

#include <QtTest>

using namespace paddock;

namespace {

policy::Rule rule(policy::Verdict verdict, const QString &pattern, const policy::Scope &scope = policy::Scope::global())
{
    policy::Rule result;
    result.scope = scope;
    result.verdict = verdict;
    result.pattern =
        policy::HostPattern::parse(pattern, policy::patternContextFor(verdict, policy::Origin::User)).value();
    result.id = policy::ruleIdFor(scope, verdict, result.pattern);
    return result;
}

QList<sandbox::ObservedDestination> seen(const QStringList &hosts, quint16 port = 443)
{
    QList<sandbox::ObservedDestination> result;
    for (const QString &host : hosts)
        result.append({host, port, 1, QDateTime::currentDateTimeUtc()});
    return result;
}

QStringList patternsFor(const QList<sandbox::ObservedDestination> &observed, const QList<policy::Rule> &rules = {})
{
    policy::PolicyEngine engine;
    policy::PolicyData data;
    data.rules = rules;
    engine.setPolicy(data);
    return sandbox::proposePolicy(observed, engine, QStringLiteral("web"), QStringLiteral("kit")).patterns;
}

} // namespace

class LearningProposalTest : public QObject
{
    Q_OBJECT

private slots:
    void registrableDomains_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("registrable");
        QTest::newRow("com") << "api.github.com"
                             << "github.com";
        QTest::newRow("two-label suffix") << "www.bbc.co.uk"
                                          << "bbc.co.uk";
        QTest::newRow("apex") << "example.org"
                              << "example.org";
        QTest::newRow("a public suffix") << "co.uk"
                                         << "";
        QTest::newRow("address") << "10.0.0.1"
                                 << "";
    }
    void registrableDomains()
    {
        QFETCH(QString, host);
        QFETCH(QString, registrable);
        QCOMPARE(sandbox::registrableDomain(host), registrable);
    }

    void siblingsFold()
    {
        QCOMPARE(patternsFor(seen({"api.github.com", "uploads.github.com", "pypi.org"})),
                 (QStringList{"*.github.com", "pypi.org"}));
        // A single host stays exact.
        QCOMPARE(patternsFor(seen({"api.github.com"})), QStringList{"api.github.com"});
        // Off port 443 the port is part of the pattern.
        QCOMPARE(patternsFor(seen({"a.example.org", "b.example.org"}, 8080)), QStringList{"*.example.org:8080"});
    }

    void neverWiderThanARegistrableDomain()
    {
        QCOMPARE(patternsFor(seen({"bbc.co.uk", "itv.co.uk"})), (QStringList{"bbc.co.uk", "itv.co.uk"}));
        QCOMPARE(patternsFor(seen({"github.com", "gitlab.com"})), (QStringList{"github.com", "gitlab.com"}));
        // Deeper siblings fold under their own parent, below the registrable domain.
        QCOMPARE(patternsFor(seen({"a.cdn.example.org", "b.cdn.example.org"})), QStringList{"*.cdn.example.org"});
    }

    void noPatternOverAnExplicitDeny()
    {
        const QList<policy::Rule> denyOne{rule(policy::Verdict::Deny, QStringLiteral("evil.example.org"))};
        QCOMPARE(patternsFor(seen({"a.example.org", "b.example.org"}), denyOne),
                 (QStringList{"a.example.org", "b.example.org"}));
        const QList<policy::Rule> denyDeep{rule(policy::Verdict::Deny, QStringLiteral("**.example.org"),
                                                policy::Scope::sandbox(QStringLiteral("web")))};
        QCOMPARE(patternsFor(seen({"a.x.example.org", "b.x.example.org"}), denyDeep), QStringList{});
        // Another sandbox's deny does not constrain this one.
        const QList<policy::Rule> elsewhere{rule(policy::Verdict::Deny, QStringLiteral("evil.example.org"),
                                                 policy::Scope::sandbox(QStringLiteral("other")))};
        QCOMPARE(patternsFor(seen({"a.example.org", "b.example.org"}), elsewhere), QStringList{"*.example.org"});
    }

    void deniedAndAllowedHostsGetNoPattern()
    {
        policy::PolicyEngine engine;
        policy::PolicyData data;
        data.rules = {rule(policy::Verdict::Deny, QStringLiteral("evil.test")),
                      rule(policy::Verdict::Allow, QStringLiteral("ok.test"))};
        engine.setPolicy(data);
        QList<sandbox::ObservedDestination> observed = seen({"evil.test", "ok.test", "new.test", "new.test"});
        const sandbox::PolicyProposal proposal = sandbox::proposePolicy(observed, engine, "web", "kit");
        QCOMPARE(proposal.patterns, QStringList{"new.test"});
        QCOMPARE(proposal.entries.size(), 3);
        QCOMPARE(proposal.entries.first().host, QStringLiteral("new.test"));
        QCOMPARE(proposal.entries.first().count, 2);
        for (const sandbox::ProposalEntry &entry : proposal.entries) {
            if (entry.host != QLatin1String("new.test"))
                QVERIFY2(entry.suggestion.startsWith(QLatin1String("none:")), qPrintable(entry.suggestion));
        }
    }

    void learningWidensOnlyTheDefault()
    {
        policy::PolicyEngine engine;
        policy::PolicyData data;
        data.rules = {rule(policy::Verdict::Deny, QStringLiteral("evil.test"))};
        engine.setPolicy(data);
        network::SandboxModes learning;
        learning.setLearning(QStringLiteral("web"), true);
        auto ask = [&](const QString &sandboxName, const QString &host, std::vector<QHostAddress> addresses = {}) {
            proxy::ConnectionQuery query;
            query.sandbox = sandboxName;
            query.host = host;
            query.port = 443;
            query.addresses = std::move(addresses);
            return network::decide(engine, learning, query);
        };
        const proxy::Verdict learned = ask(QStringLiteral("web"), QStringLiteral("new.test"));
        QVERIFY(learned.allowed);
        QVERIFY(!ask(QStringLiteral("other"), QStringLiteral("new.test")).allowed); // not learning
        QVERIFY(!ask(QStringLiteral("web"), QStringLiteral("evil.test")).allowed);  // explicit deny
        QVERIFY(!ask(QStringLiteral("web"), QStringLiteral("new.test"), {QHostAddress(QStringLiteral("127.0.0.1"))})
                     .allowed);
        QVERIFY(!ask(QStringLiteral("web"), QStringLiteral("169.254.169.254")).allowed);
        QVERIFY(ask(QStringLiteral("web"), QStringLiteral("new.test"), {QHostAddress(QStringLiteral("93.184.216.34"))})
                    .allowed);

        // The proxy's event for the connection becomes a learned one naming the default.
        proxy::ProxyEvent event;
        event.kind = proxy::ProxyEvent::Kind::Allowed;
        event.sandbox = QStringLiteral("web");
        event.host = QStringLiteral("new.test");
        event.port = 443;
        event.rule = learned.rule;
        const std::optional<events::NetworkEvent> recorded = network::toNetworkEvent(event);
        QVERIFY(recorded);
        QCOMPARE(events::outcomeToken(recorded->outcome), QStringLiteral("learned"));
        QCOMPARE(recorded->rule, QStringLiteral("default deny"));
        QVERIFY2(recorded->reason.contains(QLatin1String("new.test")), qPrintable(recorded->reason));

        learning.setLearning(QStringLiteral("web"), false);
        QVERIFY(!ask(QStringLiteral("web"), QStringLiteral("new.test")).allowed);
    }

    // One answer to "is this the host's own or the local network", for the rebinding guard of
    // an allowed request and for what learning or ask mode may open: each spelling below once
    // had two answers (brackets were not stripped on one path).
    void oneAnswerForWhatIsLocal_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QStringList>("resolved");
        QTest::addColumn<bool>("guarded");
        const QStringList none;
        QTest::newRow("IPv4 loopback") << "127.0.0.1" << none << true;
        QTest::newRow("IPv6 loopback in brackets") << "[::1]" << none << true;
        QTest::newRow("IPv6 loopback bare") << "::1" << none << true;
        QTest::newRow("trailing dot") << "127.0.0.1." << none << true;
        QTest::newRow("short form") << "127.1" << none << true;
        QTest::newRow("hex form") << "0x7f000001" << none << true;
        QTest::newRow("metadata service") << "169.254.169.254" << none << true;
        QTest::newRow("private range") << "10.1.2.3" << none << true;
        QTest::newRow("unique local v6 in brackets") << "[fd00::2]" << none << true;
        QTest::newRow("localhost") << "LocalHost" << none << true;
        QTest::newRow("a .localhost name") << "db.localhost." << none << true;
        QTest::newRow("name resolved to loopback") << "new.test" << QStringList{"127.0.0.1"} << true;
        QTest::newRow("name resolved to a LAN") << "new.test" << QStringList{"93.184.216.34", "192.168.1.5"} << true;
        QTest::newRow("overridden name") << "db.corp.test" << QStringList{"10.0.0.5"} << false;
        QTest::newRow("public name") << "new.test" << QStringList{"93.184.216.34"} << false;
        QTest::newRow("public address") << "93.184.216.34" << none << false;
        QTest::newRow("public v6 in brackets") << "[2606:2800:220:1::1]" << none << false;
    }

    void oneAnswerForWhatIsLocal()
    {
        QFETCH(QString, host);
        QFETCH(QStringList, resolved);
        QFETCH(bool, guarded);
        policy::PolicyEngine engine;
        policy::PolicyData data;
        data.resolveOverrides.insert(QStringLiteral("db.corp.test"), QHostAddress(QStringLiteral("10.0.0.5")));
        engine.setPolicy(data);
        proxy::ConnectionQuery query;
        query.sandbox = QStringLiteral("web");
        query.host = host;
        query.port = 443;
        for (const QString &address : resolved)
            query.addresses.emplace_back(address);
        policy::Request request;
        request.sandbox = query.sandbox;
        request.host = host;
        request.port = 443;
        request.addresses = QList<QHostAddress>(query.addresses.cbegin(), query.addresses.cend());
        QCOMPARE(engine.snapshot()->reachesGuardedAddress(request), guarded);

        // Learning opens exactly what is not guarded.
        network::SandboxModes learning;
        learning.setLearning(QStringLiteral("web"), true);
        QCOMPARE(network::decide(engine, learning, query).allowed, !guarded);

        // An allow of everything opens exactly the same: the guard gives the same answer.
        policy::Rule everything; // as the allow-all preset has it
        everything.verdict = policy::Verdict::Allow;
        everything.origin = policy::Origin::Preset;
        everything.pattern = policy::HostPattern::parse(QStringLiteral("**"), policy::PatternContext::Preset).value();
        everything.id = QStringLiteral("allow-all");
        data.rules = {everything};
        engine.setPolicy(data);
        const policy::Decision decision = engine.decide(request);
        QCOMPARE(decision.allowed, !guarded);
        if (guarded)
            QCOMPARE(decision.basis, policy::Decision::Basis::NonPublicAddress);
    }
};

QTEST_GUILESS_MAIN(LearningProposalTest)
#include "tst_learning_proposal.moc"
