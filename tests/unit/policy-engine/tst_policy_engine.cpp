// SPDX-License-Identifier: GPL-3.0-or-later
// Evaluation: wildcards, addresses, scopes, deny-wins, presets, the DNS-rebinding guard and
// the explanation a refused client receives.
#include "policy/PolicyEngine.h"

#include <QNetworkInterface>
#include <QTest>

#include <atomic>
#include <thread>

using paddock::Result;
using namespace paddock::policy;

namespace {

Rule rule(const QString &scope, Verdict verdict, const QString &pattern, Origin origin = Origin::User)
{
    Rule r;
    r.scope = *Scope::fromString(scope);
    r.verdict = verdict;
    const Result<HostPattern> parsed = HostPattern::parse(pattern, patternContextFor(verdict, origin));
    if (!parsed)
        qFatal("test pattern %s: %s", qPrintable(pattern), qPrintable(parsed.error().message));
    r.pattern = parsed.value();
    r.origin = origin;
    r.id = ruleIdFor(r.scope, verdict, r.pattern);
    return r;
}

Rule allow(const QString &pattern, const QString &scope = QStringLiteral("global"))
{
    return rule(scope, Verdict::Allow, pattern);
}

Rule deny(const QString &pattern, const QString &scope = QStringLiteral("global"))
{
    return rule(scope, Verdict::Deny, pattern);
}

PolicyData policy(const QList<Rule> &rules, Preset preset = Preset::DenyAll)
{
    PolicyData data;
    data.preset = preset;
    data.rules = rules;
    return data;
}

Request request(const QString &host, int port = 443, const QStringList &addresses = {},
                const QString &sandbox = QStringLiteral("web"), const QString &kit = QStringLiteral("node"))
{
    Request r;
    r.sandbox = sandbox;
    r.kit = kit;
    r.host = host;
    r.port = std::uint16_t(port);
    for (const QString &address : addresses)
        r.addresses.append(QHostAddress(address));
    return r;
}

// A public address for names in tests: 203.0.113.0/24 is documentation space, not special.
const QStringList kPublic{QStringLiteral("203.0.113.7")};

} // namespace

class TestPolicyEngine : public QObject
{
    Q_OBJECT
private slots:
    void wildcardTable_data();
    void wildcardTable();
    void noRuleIsDeny();
    void denyWinsAcrossScopes();
    void sandboxScopeAppliesOnlyToThatSandbox();
    void kitScopeAppliesOnlyToThatKit();
    void kitRulesFromPermissions();
    void presets_data();
    void presets();
    void presetFilesAreComplete();
    void rebinding_data();
    void rebinding();
    void addressRuleOpensOnlyItsPort();
    void addressRuleNeverOpensAName();
    void addressRuleOpensOnlyForItsKit();
    void mixedAddressesAreRefused();
    void literalNonPublicAddressNeedsAnAddressRule();
    void legacyIpv4SpellingsAreAddresses_data();
    void legacyIpv4SpellingsAreAddresses();
    void localhostIsLoopbackEvenUnresolved();
    void localhostRuleOpensLoopbackOnly();
    void thisComputersAddressesAreGuarded();
    void systemAddressesAreTheInterfaces();
    void resolverOverrideIsTrusted();
    void addressDenyAppliesToResolvedNames();
    void invalidHost();
    void explanationGivesTheFix_data();
    void explanationGivesTheFix();
    void ruleChangeAppliesToNextDecision();
    void decisionsDuringChanges();
};

void TestPolicyEngine::wildcardTable_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("allowed");

    QTest::newRow("exact") << "example.com"
                           << "example.com" << 443 << true;
    QTest::newRow("exact, port 80 not included") << "example.com"
                                                 << "example.com" << 80 << false;
    QTest::newRow("exact, not a subdomain") << "example.com"
                                            << "www.example.com" << 443 << false;
    QTest::newRow("*. not the apex") << "*.example.com"
                                     << "example.com" << 443 << false;
    QTest::newRow("*. one label") << "*.example.com"
                                  << "api.example.com" << 443 << true;
    QTest::newRow("*. not two labels") << "*.example.com"
                                       << "a.api.example.com" << 443 << false;
    QTest::newRow("**. not the apex") << "**.example.com"
                                      << "example.com" << 443 << false;
    QTest::newRow("**. one label") << "**.example.com"
                                   << "api.example.com" << 443 << true;
    QTest::newRow("**. two labels") << "**.example.com"
                                    << "a.api.example.com" << 443 << true;
    QTest::newRow("**. lookalike") << "**.example.com"
                                   << "evilexample.com" << 443 << false;
    QTest::newRow("**. suffix lookalike") << "**.example.com"
                                          << "example.com.evil.net" << 443 << false;
    QTest::newRow("port") << "example.com:8080"
                          << "example.com" << 8080 << true;
    QTest::newRow("port, not 443") << "example.com:8080"
                                   << "example.com" << 443 << false;
    QTest::newRow("range start") << "example.com:80-443"
                                 << "example.com" << 80 << true;
    QTest::newRow("range middle") << "example.com:80-443"
                                  << "example.com" << 200 << true;
    QTest::newRow("range end") << "example.com:80-443"
                               << "example.com" << 443 << true;
    QTest::newRow("range past end") << "example.com:80-443"
                                    << "example.com" << 444 << false;
    QTest::newRow("range before") << "example.com:80-443"
                                  << "example.com" << 79 << false;
    QTest::newRow("host:*") << "example.com:*"
                            << "example.com" << 22 << true;
    QTest::newRow("*. with port") << "*.example.com:*"
                                  << "a.example.com" << 9418 << true;
    QTest::newRow("host case") << "example.com"
                               << "EXAMPLE.Com" << 443 << true;
    QTest::newRow("pattern case") << "EXAMPLE.com"
                                  << "example.com" << 443 << true;
    QTest::newRow("host trailing dot") << "example.com"
                                       << "example.com." << 443 << true;
    QTest::newRow("wildcard, host case and dot") << "*.example.com"
                                                 << "API.Example.COM." << 443 << true;
    QTest::newRow("idna pattern, ace host")
        << QString::fromUtf8("bücher.example") << "xn--bcher-kva.example" << 443 << true;
    QTest::newRow("ace pattern, idna host")
        << "xn--bcher-kva.example" << QString::fromUtf8("Bücher.example") << 443 << true;
    QTest::newRow("idna wildcard") << QString::fromUtf8("*.bücher.example") << "shop.xn--bcher-kva.example" << 443
                                   << true;
    QTest::newRow("ipv4 literal") << "203.0.113.7"
                                  << "203.0.113.7" << 443 << true;
    QTest::newRow("ipv4 other address") << "203.0.113.7"
                                        << "203.0.113.8" << 443 << false;
    QTest::newRow("ipv4 port") << "203.0.113.7:8443"
                               << "203.0.113.7" << 8443 << true;
    QTest::newRow("ipv6 literal") << "2001:db8::1"
                                  << "2001:db8::1" << 443 << true;
    QTest::newRow("ipv6 bracketed host") << "2001:db8::1"
                                         << "[2001:db8::1]" << 443 << true;
    QTest::newRow("ipv6 port") << "[2001:db8::1]:8080"
                               << "2001:db8::1" << 8080 << true;
    QTest::newRow("ipv6 written longhand") << "2001:db8::1"
                                           << "2001:0db8:0:0:0:0:0:1" << 443 << true;
    QTest::newRow("cidr v4 inside") << "203.0.113.0/24"
                                    << "203.0.113.200" << 443 << true;
    QTest::newRow("cidr v4 outside") << "203.0.113.0/24"
                                     << "203.0.114.1" << 443 << false;
    QTest::newRow("cidr v6 inside") << "2001:db8::/32"
                                    << "2001:db8:ffff::1" << 443 << true;
    QTest::newRow("cidr v6 outside") << "2001:db8::/32"
                                     << "2001:db9::1" << 443 << false;
    QTest::newRow("mapped host, v4 rule") << "203.0.113.0/24"
                                          << "::ffff:203.0.113.9" << 443 << true;
    QTest::newRow("v4 host, mapped rule") << "::ffff:203.0.113.9"
                                          << "203.0.113.9" << 443 << true;
    QTest::newRow("name rule, address host") << "example.com"
                                             << "203.0.113.7" << 443 << false;
    QTest::newRow("address rule, name host") << "203.0.113.7"
                                             << "example.com" << 443 << false;
}

void TestPolicyEngine::wildcardTable()
{
    QFETCH(QString, pattern);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(bool, allowed);

    PolicyEngine engine;
    engine.setPolicy(policy({allow(pattern)}));
    const Decision decision = engine.decide(request(host, port, kPublic));
    QVERIFY2(decision.allowed == allowed, qPrintable(decision.reason()));
    if (allowed) {
        QCOMPARE(decision.basis, Decision::Basis::AllowedByRule);
        QCOMPARE(decision.rule->pattern.toString(), HostPattern::parse(pattern, PatternContext::Allow)->toString());
    } else {
        QCOMPARE(decision.basis, Decision::Basis::NoMatchingRule);
        QCOMPARE(decision.ruleLabel(), QStringLiteral("default deny"));
    }
}

void TestPolicyEngine::noRuleIsDeny()
{
    PolicyEngine engine;
    const Decision decision = engine.decide(request(QStringLiteral("github.com"), 443, kPublic));
    QVERIFY(!decision.allowed);
    QVERIFY(!decision.rule);
    QCOMPARE(decision.reason(), QStringLiteral("no rule allows github.com:443 (default deny)"));
    QCOMPARE(decision.basisToken(), QStringLiteral("no-matching-rule"));
}

void TestPolicyEngine::denyWinsAcrossScopes()
{
    PolicyEngine engine;
    engine.setPolicy(policy({allow(QStringLiteral("**.example.com")),
                             deny(QStringLiteral("secret.example.com"), QStringLiteral("sandbox:web")),
                             allow(QStringLiteral("blocked.org"), QStringLiteral("sandbox:web")),
                             deny(QStringLiteral("blocked.org"))}));
    engine.setKitRules(
        QStringLiteral("node"),
        kitNetworkRules(QStringLiteral("node"), {QStringLiteral("kit.example.net")}, {QStringLiteral("*.example.com")})
            .rules);

    // Sandbox deny beats global allow.
    Decision d = engine.decide(request(QStringLiteral("secret.example.com"), 443, kPublic, "web", "other"));
    QVERIFY(!d.allowed);
    QCOMPARE(d.basis, Decision::Basis::DeniedByRule);
    QCOMPARE(d.rule->scope, Scope::sandbox(QStringLiteral("web")));
    QVERIFY2(d.reason().contains(QLatin1String("denied by rule ") + d.rule->id), qPrintable(d.reason()));
    // Global deny beats sandbox allow.
    d = engine.decide(request(QStringLiteral("blocked.org"), 443, kPublic, "web", "other"));
    QVERIFY(!d.allowed);
    QCOMPARE(d.rule->scope, Scope::global());
    // Kit deny beats global allow, but only for that kit.
    d = engine.decide(request(QStringLiteral("a.example.com"), 443, kPublic, "other", "node"));
    QVERIFY(!d.allowed);
    QCOMPARE(d.rule->origin, Origin::Kit);
    QVERIFY(engine.decide(request(QStringLiteral("a.example.com"), 443, kPublic, "other", "python")).allowed);
    // Deeper names are not covered by the kit's *. deny.
    QVERIFY(engine.decide(request(QStringLiteral("a.b.example.com"), 443, kPublic, "other", "node")).allowed);
}

void TestPolicyEngine::sandboxScopeAppliesOnlyToThatSandbox()
{
    PolicyEngine engine;
    engine.setPolicy(policy({allow(QStringLiteral("example.com"), QStringLiteral("sandbox:web"))}));
    QVERIFY(engine.decide(request(QStringLiteral("example.com"), 443, kPublic, "web")).allowed);
    QVERIFY(!engine.decide(request(QStringLiteral("example.com"), 443, kPublic, "db")).allowed);
    QVERIFY(!engine.decide(request(QStringLiteral("example.com"), 443, kPublic, "")).allowed);
    // A sandbox named like a kit gets nothing from the kit's scope, and vice versa.
    QVERIFY(!engine.decide(request(QStringLiteral("example.com"), 443, kPublic, "db", "web")).allowed);
}

void TestPolicyEngine::kitScopeAppliesOnlyToThatKit()
{
    PolicyEngine engine;
    engine.setKitRules(QStringLiteral("claude"),
                       kitNetworkRules(QStringLiteral("claude"), {QStringLiteral("api.anthropic.com")}, {}).rules);
    QVERIFY(engine.decide(request(QStringLiteral("api.anthropic.com"), 443, kPublic, "s1", "claude")).allowed);
    QVERIFY(!engine.decide(request(QStringLiteral("api.anthropic.com"), 443, kPublic, "s1", "codex")).allowed);
    QVERIFY(!engine.decide(request(QStringLiteral("api.anthropic.com"), 443, kPublic, "claude", "")).allowed);
    engine.removeKitRules(QStringLiteral("claude"));
    QVERIFY(!engine.decide(request(QStringLiteral("api.anthropic.com"), 443, kPublic, "s1", "claude")).allowed);
}

void TestPolicyEngine::kitRulesFromPermissions()
{
    const KitRules kit = kitNetworkRules(QStringLiteral("node"),
                                         {QStringLiteral("registry.npmjs.org:443"), QStringLiteral("*.npmjs.org"),
                                          QStringLiteral("*"), QStringLiteral("https://x.org")},
                                         {QStringLiteral("**")});
    QCOMPARE(kit.rules.size(), 3);
    QCOMPARE(kit.errors.size(), 2);
    QVERIFY(kit.errors[0].startsWith(QLatin1String("*: ")));
    QVERIFY(kit.errors[1].contains(QLatin1String("scheme")));
    for (const Rule &r : kit.rules) {
        QCOMPARE(r.scope, Scope::kit(QStringLiteral("node")));
        QCOMPARE(r.origin, Origin::Kit);
    }
}

void TestPolicyEngine::presets_data()
{
    QTest::addColumn<int>("preset");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("allowed");

    const int deny = int(Preset::DenyAll), balanced = int(Preset::Balanced), all = int(Preset::AllowAll);
    QTest::newRow("balanced npm") << balanced << "registry.npmjs.org" << 443 << true;
    QTest::newRow("balanced npm port 22") << balanced << "registry.npmjs.org" << 22 << false;
    QTest::newRow("balanced pypi files") << balanced << "files.pythonhosted.org" << 443 << true;
    QTest::newRow("balanced crates") << balanced << "static.crates.io" << 443 << true;
    QTest::newRow("balanced go") << balanced << "proxy.golang.org" << 443 << true;
    QTest::newRow("balanced maven") << balanced << "repo1.maven.org" << 443 << true;
    QTest::newRow("balanced rubygems") << balanced << "rubygems.org" << 443 << true;
    QTest::newRow("balanced github") << balanced << "github.com" << 443 << true;
    QTest::newRow("balanced raw github") << balanced << "raw.githubusercontent.com" << 443 << true;
    QTest::newRow("balanced anthropic") << balanced << "api.anthropic.com" << 443 << true;
    QTest::newRow("balanced gemini") << balanced << "generativelanguage.googleapis.com" << 443 << true;
    QTest::newRow("balanced debian http") << balanced << "deb.debian.org" << 80 << true;
    QTest::newRow("balanced ubuntu") << balanced << "archive.ubuntu.com" << 443 << true;
    QTest::newRow("balanced example.com") << balanced << "example.com" << 443 << false;
    QTest::newRow("balanced evil github lookalike") << balanced << "github.com.evil.net" << 443 << false;
    QTest::newRow("allow-all public name") << all << "example.com" << 443 << true;
    QTest::newRow("allow-all any port") << all << "example.com" << 8080 << true;
    QTest::newRow("allow-all public address") << all << "203.0.113.7" << 22 << true;
    QTest::newRow("allow-all loopback literal") << all << "127.0.0.1" << 80 << false;
    QTest::newRow("deny-all github") << deny << "github.com" << 443 << false;
    QTest::newRow("deny-all npm") << deny << "registry.npmjs.org" << 443 << false;
}

void TestPolicyEngine::presets()
{
    QFETCH(int, preset);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(bool, allowed);
    PolicyEngine engine;
    engine.setPolicy(policy({}, Preset(preset)));
    const Decision decision = engine.decide(request(host, port, kPublic));
    QVERIFY2(decision.allowed == allowed, qPrintable(decision.reason()));
    if (allowed)
        QCOMPARE(decision.rule->origin, Origin::Preset);
}

void TestPolicyEngine::presetFilesAreComplete()
{
    QCOMPARE(presetRules(Preset::DenyAll).size(), 0);
    QVERIFY(presetRules(Preset::Balanced).size() >= 30);
    QCOMPARE(presetRules(Preset::AllowAll).size(), 1);
    QCOMPARE(presetRules(Preset::AllowAll).first().pattern.kind(), HostPattern::Kind::Everything);
    for (const Preset preset : allPresets()) {
        QVERIFY(!presetDescription(preset).isEmpty());
        QCOMPARE(presetFromName(presetName(preset)), preset);
    }
}

void TestPolicyEngine::rebinding_data()
{
    QTest::addColumn<QString>("address");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("allowAddress"); // a rule that names it or its range

    QTest::newRow("loopback") << "127.0.0.1"
                              << "loopback"
                              << "127.0.0.0/8";
    QTest::newRow("loopback elsewhere in 127/8") << "127.8.9.10"
                                                 << "loopback"
                                                 << "127.8.9.10";
    QTest::newRow("cloud metadata") << "169.254.169.254"
                                    << "link-local"
                                    << "169.254.169.254";
    QTest::newRow("private 10") << "10.1.2.3"
                                << "private"
                                << "10.0.0.0/8";
    QTest::newRow("private 172.16") << "172.31.0.9"
                                    << "private"
                                    << "172.16.0.0/12";
    QTest::newRow("private 192.168") << "192.168.1.20"
                                     << "private"
                                     << "192.168.1.0/24";
    QTest::newRow("cgnat") << "100.64.3.4"
                           << "shared (CGNAT)"
                           << "100.64.0.0/10";
    QTest::newRow("unspecified") << "0.0.0.0"
                                 << "unspecified"
                                 << "0.0.0.0";
    QTest::newRow("unique-local") << "fd00::1"
                                  << "unique-local"
                                  << "fd00::/8";
    QTest::newRow("v6 loopback") << "::1"
                                 << "loopback"
                                 << "::1";
    QTest::newRow("v6 link-local") << "fe80::1"
                                   << "link-local"
                                   << "fe80::/10";
    QTest::newRow("v6 unspecified") << "::"
                                    << "unspecified"
                                    << "::";
    QTest::newRow("mapped loopback") << "::ffff:127.0.0.1"
                                     << "loopback"
                                     << "127.0.0.1";
    QTest::newRow("mapped metadata") << "::ffff:169.254.169.254"
                                     << "link-local"
                                     << "169.254.0.0/16";
    QTest::newRow("nat64 loopback") << "64:ff9b::7f00:1"
                                    << "loopback"
                                    << "64:ff9b::7f00:1";
    QTest::newRow("nat64 private") << "64:ff9b::a01:203"
                                   << "private"
                                   << "64:ff9b::/96";
    QTest::newRow("local-use nat64") << "64:ff9b:1::808:808"
                                     << "local-use NAT64"
                                     << "64:ff9b:1::/48";
    QTest::newRow("ietf protocol assignments") << "192.0.0.170"
                                               << "IETF protocol assignment"
                                               << "192.0.0.0/24";
    QTest::newRow("benchmarking") << "198.19.255.1"
                                  << "benchmarking"
                                  << "198.18.0.0/15";
    QTest::newRow("reserved") << "240.0.0.1"
                              << "reserved"
                              << "240.0.0.0/4";
    QTest::newRow("broadcast") << "255.255.255.255"
                               << "reserved"
                               << "255.255.255.255";
    QTest::newRow("azure metadata") << "168.63.129.16"
                                    << "cloud metadata"
                                    << "168.63.129.16";
    QTest::newRow("ipv4-compatible loopback") << "::127.0.0.1"
                                              << "loopback"
                                              << "::127.0.0.1";
    QTest::newRow("ipv4-compatible public") << "::8.8.8.8"
                                            << "IPv4-compatible"
                                            << "::/96";
    QTest::newRow("6to4 loopback") << "2002:7f00:1::"
                                   << "loopback"
                                   << "2002:7f00::/24";
    QTest::newRow("6to4 metadata") << "2002:a9fe:a9fe::1"
                                   << "link-local"
                                   << "2002::/16";
    QTest::newRow("site-local") << "fec0::1"
                                << "site-local"
                                << "fec0::/10";
}

void TestPolicyEngine::rebinding()
{
    QFETCH(QString, address);
    QFETCH(QString, kind);
    QFETCH(QString, allowAddress);

    PolicyEngine engine;
    engine.setPolicy(policy({allow(QStringLiteral("internal.example.com"))}));
    Decision d = engine.decide(request(QStringLiteral("internal.example.com"), 443, {address}));
    QVERIFY(!d.allowed);
    QCOMPARE(d.basis, Decision::Basis::NonPublicAddress);
    QCOMPARE(d.basisToken(), QStringLiteral("non-public-address"));
    QVERIFY2(d.reason().contains(QLatin1String("a ") + kind + QLatin1String(" address")), qPrintable(d.reason()));
    QVERIFY2(d.reason().contains(QLatin1String("DNS rebinding")), qPrintable(d.reason()));

    // The same with allow-all: `**` does not name an address, for a name or the address itself.
    engine.setPolicy(policy({}, Preset::AllowAll));
    QVERIFY(!engine.decide(request(QStringLiteral("internal.example.com"), 443, {address})).allowed);
    d = engine.decide(request(address, 443));
    QVERIFY2(!d.allowed, qPrintable(d.reason()));
    QVERIFY2(d.reason().contains(QLatin1String("a ") + kind + QLatin1String(" address")), qPrintable(d.reason()));

    // A rule naming the address (or its range) opens the address, and nothing else: the
    // allowed name that leads there stays refused.
    engine.setPolicy(policy({allow(QStringLiteral("internal.example.com")), allow(allowAddress)}));
    d = engine.decide(request(address, 443));
    QVERIFY2(d.allowed, qPrintable(d.reason()));
    QCOMPARE(d.rule->pattern.toString(), allowAddress);
    d = engine.decide(request(QStringLiteral("internal.example.com"), 443, {address}));
    QVERIFY2(!d.allowed, qPrintable(d.reason()));
    QCOMPARE(d.basis, Decision::Basis::NonPublicAddress);
}

void TestPolicyEngine::addressRuleOpensOnlyItsPort()
{
    PolicyEngine engine;
    // 10.0.0.0/8 means port 443 only.
    engine.setPolicy(policy({allow(QStringLiteral("10.0.0.0/8"))}, Preset::AllowAll));
    QVERIFY(engine.decide(request(QStringLiteral("10.1.2.3"), 443)).allowed);
    const Decision d = engine.decide(request(QStringLiteral("10.1.2.3"), 8080));
    QVERIFY(!d.allowed);
    QCOMPARE(d.basis, Decision::Basis::NonPublicAddress);
    engine.setPolicy(policy({allow(QStringLiteral("10.0.0.0/8:*"))}, Preset::AllowAll));
    QVERIFY(engine.decide(request(QStringLiteral("10.1.2.3"), 8080)).allowed);
}

void TestPolicyEngine::addressRuleNeverOpensAName()
{
    // Attack: a kit allows a name it controls and a wide range; the name is then pointed at
    // the host. The range opens addresses, never the guard for another rule.
    PolicyEngine engine;
    for (const char *range : {"0.0.0.0/1", "127.0.0.0/8:*", "10.0.0.0/8:*", "::/8"}) {
        engine.setPolicy(policy({allow(QStringLiteral("attacker.example:*")), allow(QLatin1String(range))}));
        for (const char *address : {"127.0.0.1", "10.0.0.5", "::1"}) {
            const Decision d =
                engine.decide(request(QStringLiteral("attacker.example"), 8080, {QLatin1String(address)}));
            if (!HostPattern::parse(QString::fromLatin1(range), PatternContext::Allow)
                     ->network()
                     .contains(*IpAddress::parse(QString::fromLatin1(address))))
                continue;
            QVERIFY2(!d.allowed, qPrintable(QLatin1String(range) + QLatin1Char(' ') + d.reason()));
            QCOMPARE(d.basis, Decision::Basis::NonPublicAddress);
        }
    }
}

void TestPolicyEngine::addressRuleOpensOnlyForItsKit()
{
    PolicyEngine engine;
    engine.setPolicy(policy({}, Preset::AllowAll));
    engine.setKitRules(QStringLiteral("granted"), {allow(QStringLiteral("127.0.0.1:*"))});
    const Request granted =
        request(QStringLiteral("127.0.0.1"), 8080, {}, QStringLiteral("a"), QStringLiteral("granted"));
    const Request other = request(QStringLiteral("127.0.0.1"), 8080, {}, QStringLiteral("b"), QStringLiteral("other"));
    const Decision d = engine.decide(granted);
    QVERIFY2(d.allowed, qPrintable(d.reason()));
    QCOMPARE(d.rule->scope, Scope::kit(QStringLiteral("granted")));
    QVERIFY(!engine.decide(other).allowed);
    // Nor does it open a neighbour or another spelling of the same host.
    QVERIFY(
        !engine.decide(request(QStringLiteral("127.0.0.2"), 8080, {}, QStringLiteral("a"), QStringLiteral("granted")))
             .allowed);
    QVERIFY(
        !engine
             .decide(request(QStringLiteral("[::127.0.0.1]"), 8080, {}, QStringLiteral("a"), QStringLiteral("granted")))
             .allowed);
    QVERIFY(!engine
                 .decide(request(QStringLiteral("[2002:7f00:1::]"), 8080, {}, QStringLiteral("a"),
                                 QStringLiteral("granted")))
                 .allowed);
}

void TestPolicyEngine::mixedAddressesAreRefused()
{
    PolicyEngine engine;
    engine.setPolicy(policy({allow(QStringLiteral("example.com"))}));
    const Decision d = engine.decide(
        request(QStringLiteral("example.com"), 443, {QStringLiteral("203.0.113.7"), QStringLiteral("::1")}));
    QVERIFY(!d.allowed);
    QCOMPARE(d.address.toString(), QStringLiteral("::1"));
    QVERIFY(engine
                .decide(request(QStringLiteral("example.com"), 443,
                                {QStringLiteral("203.0.113.7"), QStringLiteral("2001:db8::5")}))
                .allowed);
}

void TestPolicyEngine::literalNonPublicAddressNeedsAnAddressRule()
{
    PolicyEngine engine;
    engine.setPolicy(policy({}, Preset::AllowAll));
    QVERIFY(!engine.decide(request(QStringLiteral("169.254.169.254"), 80)).allowed);
    QVERIFY(!engine.decide(request(QStringLiteral("[::ffff:127.0.0.1]"), 443)).allowed);
    QCOMPARE(engine.decide(request(QStringLiteral("127.0.0.1."), 443)).basis, Decision::Basis::NonPublicAddress);
    engine.setPolicy(policy({allow(QStringLiteral("127.0.0.1:*"))}, Preset::AllowAll));
    QVERIFY(engine.decide(request(QStringLiteral("::ffff:127.0.0.1"), 8080)).allowed);
}

void TestPolicyEngine::legacyIpv4SpellingsAreAddresses_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("address");
    QTest::newRow("short") << "127.1"
                           << "127.0.0.1";
    QTest::newRow("decimal") << "2130706433"
                             << "127.0.0.1";
    QTest::newRow("hex") << "0x7f000001"
                         << "127.0.0.1";
    QTest::newRow("octal metadata") << "0251.0376.0251.0376"
                                    << "169.254.169.254";
    QTest::newRow("decimal metadata") << "2852039166"
                                      << "169.254.169.254";
}

void TestPolicyEngine::legacyIpv4SpellingsAreAddresses()
{
    // getaddrinfo reads these as addresses without asking DNS: they are treated as such.
    QFETCH(QString, host);
    QFETCH(QString, address);
    PolicyEngine engine;
    engine.setPolicy(policy({}, Preset::AllowAll));
    Decision d = engine.decide(request(host, 80));
    QVERIFY2(!d.allowed, qPrintable(d.reason()));
    QCOMPARE(d.basis, Decision::Basis::NonPublicAddress);
    QCOMPARE(d.address.toString(), address);
    engine.setPolicy(policy({allow(address + QStringLiteral(":*"))}));
    d = engine.decide(request(host, 80));
    QVERIFY2(d.allowed, qPrintable(d.reason()));
}

void TestPolicyEngine::localhostIsLoopbackEvenUnresolved()
{
    PolicyEngine engine;
    engine.setPolicy(policy({}, Preset::AllowAll));
    QCOMPARE(engine.decide(request(QStringLiteral("localhost"), 443)).basis, Decision::Basis::NonPublicAddress);
    QCOMPARE(engine.decide(request(QStringLiteral("db.localhost."), 443)).basis, Decision::Basis::NonPublicAddress);
}

void TestPolicyEngine::localhostRuleOpensLoopbackOnly()
{
    // `localhost` always means this computer: a rule naming it opens loopback on its port,
    // and no other address the resolver might return for it.
    PolicyEngine engine;
    engine.setPolicy(policy({allow(QStringLiteral("localhost:8080")), allow(QStringLiteral("db.localhost:8080"))}));
    QVERIFY(engine.decide(request(QStringLiteral("localhost"), 8080, {QStringLiteral("127.0.0.1")})).allowed);
    QVERIFY(engine.decide(request(QStringLiteral("localhost"), 8080, {QStringLiteral("::1")})).allowed);
    QVERIFY(engine.decide(request(QStringLiteral("db.localhost"), 8080)).allowed);
    QVERIFY(!engine.decide(request(QStringLiteral("localhost"), 8081)).allowed);
    const Decision d = engine.decide(request(QStringLiteral("localhost"), 8080, {QStringLiteral("10.0.0.1")}));
    QVERIFY(!d.allowed);
    QCOMPARE(d.address.toString(), QStringLiteral("10.0.0.1"));
}

void TestPolicyEngine::thisComputersAddressesAreGuarded()
{
    // A public address of one of this computer's interfaces reaches its services as loopback does.
    const IpAddress own = *IpAddress::parse(u"203.0.113.9");
    PolicyEngine engine(std::make_shared<LocalAddresses>(std::vector<IpAddress>{own}));
    engine.setPolicy(policy({allow(QStringLiteral("example.com"))}, Preset::AllowAll));
    Decision d = engine.decide(request(QStringLiteral("203.0.113.9"), 22));
    QVERIFY(!d.allowed);
    QVERIFY2(d.reason().contains(QLatin1String("this computer's own")), qPrintable(d.reason()));
    d = engine.decide(request(QStringLiteral("example.com"), 443, {QStringLiteral("203.0.113.9")}));
    QVERIFY(!d.allowed);
    QCOMPARE(d.basis, Decision::Basis::NonPublicAddress);
    QVERIFY(engine.decide(request(QStringLiteral("example.com"), 443, kPublic)).allowed);
    engine.setPolicy(policy({allow(QStringLiteral("203.0.113.9:22"))}));
    QVERIFY(engine.decide(request(QStringLiteral("203.0.113.9"), 22)).allowed);
}

void TestPolicyEngine::systemAddressesAreTheInterfaces()
{
    const std::shared_ptr<const LocalAddresses> local = LocalAddresses::system();
    QVERIFY(local->contains(*IpAddress::parse(u"127.0.0.1")));
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        const IpAddress ours = IpAddress::fromHostAddress(address);
        QVERIFY2(local->contains(ours), qPrintable(ours.toString()));
        QVERIFY(guardedKind(ours, *local) != nullptr);
    }
    QVERIFY(!local->contains(*IpAddress::parse(u"192.0.2.1")));
}

void TestPolicyEngine::resolverOverrideIsTrusted()
{
    PolicyData data = policy({allow(QStringLiteral("test.example"))});
    data.resolveOverrides.insert(QStringLiteral("test.example"), QHostAddress(QStringLiteral("127.0.0.1")));
    PolicyEngine engine;
    engine.setPolicy(data);
    QCOMPARE(engine.resolveOverride(u"TEST.example."), QHostAddress(QStringLiteral("127.0.0.1")));
    QVERIFY(!engine.resolveOverride(u"other.example"));
    // The user wrote the override, so it is not a rebinding attack.
    const Decision d = engine.decide(request(QStringLiteral("Test.Example"), 443, {QStringLiteral("127.0.0.1")}));
    QVERIFY2(d.allowed, qPrintable(d.reason()));
    // An override does not allow a name by itself.
    data.rules.clear();
    engine.setPolicy(data);
    QVERIFY(!engine.decide(request(QStringLiteral("test.example"), 443)).allowed);
}

void TestPolicyEngine::addressDenyAppliesToResolvedNames()
{
    PolicyEngine engine;
    engine.setPolicy(policy({allow(QStringLiteral("example.com")), deny(QStringLiteral("203.0.113.0/24"))}));
    const Decision d = engine.decide(request(QStringLiteral("example.com"), 443, kPublic));
    QVERIFY(!d.allowed);
    QCOMPARE(d.basis, Decision::Basis::DeniedByRule);
    QCOMPARE(d.rule->pattern.toString(), QStringLiteral("203.0.113.0/24"));
    QVERIFY(engine.decide(request(QStringLiteral("example.com"), 443, {QStringLiteral("198.51.100.1")})).allowed);
}

void TestPolicyEngine::invalidHost()
{
    PolicyEngine engine;
    engine.setPolicy(policy({}, Preset::AllowAll));
    for (const char *host : {"", "exa mple.com", "a..b", "[::1"}) {
        const Decision d = engine.decide(request(QLatin1String(host)));
        QVERIFY2(!d.allowed, host);
        QCOMPARE(d.basis, Decision::Basis::InvalidHost);
    }
}

void TestPolicyEngine::explanationGivesTheFix_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("sandbox");
    QTest::addColumn<QStringList>("addresses");
    QTest::addColumn<bool>("allowed");
    QTest::addColumn<QString>("fix");

    QTest::newRow("no rule") << "Example.com"
                             << "web" << kPublic << false << "paddock policy allow network example.com --sandbox web";
    QTest::newRow("no rule, port") << "example.com:8080"
                                   << "web" << kPublic << false
                                   << "paddock policy allow network example.com:8080 --sandbox web";
    QTest::newRow("no rule, global") << "example.com"
                                     << "" << kPublic << false << "paddock policy allow network example.com";
    QTest::newRow("no rule, ipv6") << "[2001:db8::1]:22"
                                   << "web" << QStringList() << false
                                   << "paddock policy allow network '[2001:db8::1]:22' --sandbox web";
    QTest::newRow("rebinding") << "allowed.example:443"
                               << "web" << QStringList{"10.1.2.3"} << false
                               << "paddock policy resolve set allowed.example 10.1.2.3";
    QTest::newRow("no rule, guarded address")
        << "10.1.2.3:8080"
        << "web" << QStringList() << false << "paddock policy allow network 10.1.2.3:8080 --sandbox web";
    QTest::newRow("denied by user rule")
        << "blocked.example"
        << "web" << kPublic << false
        << "paddock policy rm " + ruleIdFor(Scope::global(), Verdict::Deny,
                                            HostPattern::parse(u"blocked.example", PatternContext::Deny).value());
    QTest::newRow("allowed") << "allowed.example"
                             << "web" << kPublic << true << "";
}

void TestPolicyEngine::explanationGivesTheFix()
{
    QFETCH(QString, target);
    QFETCH(QString, sandbox);
    QFETCH(QStringList, addresses);
    QFETCH(bool, allowed);
    QFETCH(QString, fix);

    PolicyEngine engine;
    engine.setPolicy(policy({allow(QStringLiteral("allowed.example")), deny(QStringLiteral("blocked.example"))}));
    QList<QHostAddress> resolved;
    for (const QString &a : addresses)
        resolved.append(QHostAddress(a));
    const Explanation e = engine.check(target, sandbox, QString(), resolved);
    QCOMPARE(e.decision.allowed, allowed);
    QCOMPARE(e.fix, fix);
    if (allowed)
        QCOMPARE(e.decision.ruleLabel(), e.decision.rule->id);
}

void TestPolicyEngine::ruleChangeAppliesToNextDecision()
{
    PolicyEngine engine;
    const Request r = request(QStringLiteral("example.com"), 443, kPublic);
    QVERIFY(!engine.decide(r).allowed);
    const std::shared_ptr<const Snapshot> before = engine.snapshot();
    engine.setPolicy(policy({allow(QStringLiteral("example.com"))}));
    QVERIFY(engine.decide(r).allowed);
    // A decision already under way keeps the policy it started with.
    QVERIFY(!before->decide(r).allowed);
    engine.setPolicy(policy({allow(QStringLiteral("example.com")), deny(QStringLiteral("example.com"))}));
    QVERIFY(!engine.decide(r).allowed);
}

void TestPolicyEngine::decisionsDuringChanges()
{
    // Readers on another thread while the policy flips: every answer is one of the two
    // policies' answers, never a crash or a torn state.
    PolicyEngine engine;
    const PolicyData open = policy({allow(QStringLiteral("example.com"))});
    const PolicyData closed = policy({});
    std::atomic<bool> stop{false};
    std::atomic<int> decisions{0};
    std::thread reader([&] {
        const Request r = request(QStringLiteral("example.com"), 443, kPublic);
        while (!stop) {
            const Decision d = engine.decide(r);
            if (d.allowed != (d.basis == Decision::Basis::AllowedByRule))
                qFatal("inconsistent decision");
            ++decisions;
        }
    });
    for (int i = 0; i < 200; ++i)
        engine.setPolicy(i % 2 ? open : closed);
    while (decisions < 100)
        std::this_thread::yield();
    stop = true;
    reader.join();
    engine.setPolicy(open);
    QVERIFY(engine.decide(request(QStringLiteral("example.com"), 443, kPublic)).allowed);
}

QTEST_GUILESS_MAIN(TestPolicyEngine)
#include "tst_policy_engine.moc"
