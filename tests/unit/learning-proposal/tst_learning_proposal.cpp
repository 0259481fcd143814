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
        *policy::HostPattern::parse(pattern, policy::patternContextFor(verdict, policy::Origin::User)).pattern;
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
};

QTEST_GUILESS_MAIN(LearningProposalTest)
#include "tst_learning_proposal.moc"
