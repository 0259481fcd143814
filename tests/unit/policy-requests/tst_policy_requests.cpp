// SPDX-License-Identifier: GPL-3.0-or-later
// Rules that name methods and paths: how paths compare, how they combine with host rules, and
// what happens where the proxy cannot see requests.
#include "policy/PolicyEngine.h"

#include <QTest>

using namespace paddock;
using namespace paddock::policy;

namespace {

Rule rule(Verdict verdict, const QString &pattern, const QString &methods = {}, const QString &path = {})
{
    Rule r;
    r.verdict = verdict;
    r.pattern = HostPattern::parse(pattern, patternContextFor(verdict, Origin::User)).value();
    r.request = RequestMatch::parse(methods, path).value();
    r.id = ruleIdFor(r.scope, verdict, r.pattern, r.request);
    return r;
}

Request request(const QString &host, const QString &method = {}, const QString &path = {}, bool seen = false)
{
    Request r;
    r.sandbox = QStringLiteral("web");
    r.host = host;
    r.port = 443;
    r.method = method;
    r.path = path;
    r.seesRequests = seen;
    return r;
}

} // namespace

class TestPolicyRequests : public QObject
{
    Q_OBJECT

private slots:
    void canonicalPaths_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("plain") << "/gists"
                               << "/gists";
        QTest::newRow("query cut") << "/gists?a=1#f"
                                   << "/gists";
        QTest::newRow("dot segments") << "/a/./b/../gists"
                                      << "/a/gists";
        QTest::newRow("above the root") << "/../../gists"
                                        << "/gists";
        QTest::newRow("doubled slashes") << "//gists//1"
                                         << "/gists/1";
        QTest::newRow("escaped letters") << "/%67ists"
                                         << "/gists";
        QTest::newRow("escaped dot") << "/x/%2e%2E/gists"
                                     << "/gists";
        QTest::newRow("escaped slash kept") << "/a%2fb"
                                            << "/a%2Fb";
        QTest::newRow("trailing slash") << "/org/"
                                        << "/org/";
        QTest::newRow("absolute form") << "http://h.test:80/x?y"
                                       << "/x";
        QTest::newRow("not a path") << "*"
                                    << "";
    }
    void canonicalPaths()
    {
        QFETCH(QString, target);
        QFETCH(QString, canonical);
        QCOMPARE(canonicalPath(target.toStdString()), canonical);
    }

    void redactedTargets()
    {
        QCOMPARE(redactedTarget("/x?key=secret"), QStringLiteral("/x?") + QChar(0x2026));
        QCOMPARE(redactedTarget("/x"), QStringLiteral("/x"));
        QCOMPARE(redactedTarget("/a\x01"
                                "b"),
                 QStringLiteral("/a?b"));
        const QString longPath = redactedTarget("/" + std::string(2000, 'a'));
        QCOMPARE(longPath.size(), kMaxRecordedPath + 1);
    }

    void pathMatching_data()
    {
        QTest::addColumn<QString>("rulePath");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("matches");
        QTest::newRow("prefix itself") << "/gists"
                                       << "/gists" << true;
        QTest::newRow("prefix below") << "/gists"
                                      << "/gists/1" << true;
        QTest::newRow("prefix is a segment") << "/gists"
                                             << "/gistsx" << false;
        QTest::newRow("trailing slash prefix") << "/org/"
                                               << "/org/x" << true;
        QTest::newRow("double star") << "/org/**"
                                     << "/org/a/b/c" << true;
        QTest::newRow("double star folder") << "/org/**"
                                            << "/org" << true;
        QTest::newRow("double star other") << "/org/**"
                                           << "/orgx/a" << false;
        QTest::newRow("star one segment") << "/repos/*/issues"
                                          << "/repos/a/issues" << true;
        QTest::newRow("star not two") << "/repos/*/issues"
                                      << "/repos/a/b/issues" << false;
        QTest::newRow("star in a name") << "/hello*"
                                        << "/hello.txt" << true;
    }
    void pathMatching()
    {
        QFETCH(QString, rulePath);
        QFETCH(QString, path);
        QFETCH(bool, matches);
        const Result<RequestMatch> match = RequestMatch::parse({}, rulePath);
        QVERIFY(match);
        QCOMPARE(match->matches(u"GET", path), matches);
    }

    void denyWithAPathRefusesOnlyThoseRequests()
    {
        PolicyEngine engine;
        PolicyData data;
        data.rules = {
            rule(Verdict::Allow, QStringLiteral("api.github.com")),
            rule(Verdict::Deny, QStringLiteral("api.github.com"), QStringLiteral("POST"), QStringLiteral("/gists"))};
        engine.setPolicy(data);
        QVERIFY(engine.decide(request(QStringLiteral("api.github.com"), u"GET"_qs, u"/gists"_qs)).allowed);
        const Decision post = engine.decide(request(QStringLiteral("api.github.com"), u"POST"_qs, u"/gists/1?x"_qs));
        QVERIFY(!post.allowed);
        QCOMPARE(post.basis, Decision::Basis::DeniedByRule);
        QCOMPARE(post.rule->id, data.rules[1].id);
        QVERIFY2(post.reason().startsWith(QStringLiteral("POST /gists/1?") + QChar(0x2026) +
                                          QStringLiteral(" on api.github.com:443 is denied")),
                 qPrintable(post.reason()));
        QVERIFY(engine.decide(request(QStringLiteral("api.github.com"), u"POST"_qs, u"/user"_qs)).allowed);
        // A connection Paddock looks into is allowed; each request is decided again.
        QVERIFY(engine.decide(request(QStringLiteral("api.github.com"), {}, {}, true)).allowed);
        // One it cannot look into is refused: the deny must not become an allow of everything.
        const Decision tunnel = engine.decide(request(QStringLiteral("api.github.com")));
        QVERIFY(!tunnel.allowed);
        QCOMPARE(tunnel.basis, Decision::Basis::RequestsUnseen);
        QCOMPARE(engine.explain(request(QStringLiteral("api.github.com"))).fix,
                 QStringLiteral("paddock policy rm ") + data.rules[1].id);
        // Other hosts are not concerned.
        QVERIFY(!engine.decide(request(QStringLiteral("github.com"))).allowed);
        QCOMPARE(engine.decide(request(QStringLiteral("github.com"))).basis, Decision::Basis::NoMatchingRule);
    }

    void allowWithAPathOpensOnlyThoseRequests()
    {
        PolicyEngine engine;
        PolicyData data;
        data.rules = {
            rule(Verdict::Allow, QStringLiteral("github.com"), QStringLiteral("GET"), QStringLiteral("/org/**"))};
        engine.setPolicy(data);
        QVERIFY(engine.decide(request(QStringLiteral("github.com"), u"GET"_qs, u"/org/repo"_qs)).allowed);
        QVERIFY(!engine.decide(request(QStringLiteral("github.com"), u"GET"_qs, u"/other"_qs)).allowed);
        QVERIFY(!engine.decide(request(QStringLiteral("github.com"), u"GET"_qs, u"/org/../other"_qs)).allowed);
        const Explanation post = engine.explain(request(QStringLiteral("github.com"), u"POST"_qs, u"/org/x?q"_qs));
        QCOMPARE(post.decision.basis, Decision::Basis::NoMatchingRule);
        QCOMPARE(post.fix, QStringLiteral("paddock policy allow network github.com --sandbox web --method POST "
                                          "--path '/org/x'"));
        QVERIFY(engine.decide(request(QStringLiteral("github.com"), {}, {}, true)).allowed);
        const Explanation tunnel = engine.explain(request(QStringLiteral("github.com")));
        QCOMPARE(tunnel.decision.basis, Decision::Basis::RequestsUnseen);
        QCOMPARE(tunnel.fix, QStringLiteral("paddock policy allow network github.com --sandbox web"));
    }

    void hostDenyStillWins()
    {
        PolicyEngine engine;
        PolicyData data;
        data.rules = {rule(Verdict::Deny, QStringLiteral("github.com")),
                      rule(Verdict::Allow, QStringLiteral("github.com"), QStringLiteral("GET"), {})};
        engine.setPolicy(data);
        const Decision decision = engine.decide(request(QStringLiteral("github.com"), u"GET"_qs, u"/"_qs));
        QVERIFY(!decision.allowed);
        QCOMPARE(decision.rule->id, data.rules[0].id);
    }
};

QTEST_GUILESS_MAIN(TestPolicyRequests)
#include "tst_policy_requests.moc"
