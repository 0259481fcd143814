// SPDX-License-Identifier: GPL-3.0-or-later
// Pattern grammar: what parses, what it normalises to, and the reason for what is refused.
#include "policy/HostPattern.h"

#include <QTest>

using paddock::Result;
using namespace paddock::policy;

class TestPolicyPattern : public QObject
{
    Q_OBJECT
private slots:
    void canonicalForm_data();
    void canonicalForm();
    void refused_data();
    void refused();
    void bareWildcardDependsOnContext();
    void defaultPorts();
    void matchesName_data();
    void matchesName();
};

void TestPolicyPattern::canonicalForm_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");
    QTest::addColumn<int>("kind");

    using K = HostPattern::Kind;
    QTest::newRow("host") << "example.com"
                          << "example.com" << int(K::ExactHost);
    QTest::newRow("host:443 is the default") << "example.com:443"
                                             << "example.com" << int(K::ExactHost);
    QTest::newRow("host:port") << "example.com:8080"
                               << "example.com:8080" << int(K::ExactHost);
    QTest::newRow("range") << "example.com:80-443"
                           << "example.com:80-443" << int(K::ExactHost);
    QTest::newRow("range of one") << "example.com:80-80"
                                  << "example.com:80" << int(K::ExactHost);
    QTest::newRow("any port") << "example.com:*"
                              << "example.com:*" << int(K::ExactHost);
    QTest::newRow("case") << "GitHub.COM"
                          << "github.com" << int(K::ExactHost);
    QTest::newRow("trailing dot") << "github.com."
                                  << "github.com" << int(K::ExactHost);
    QTest::newRow("idna") << QString::fromUtf8("bücher.example") << "xn--bcher-kva.example" << int(K::ExactHost);
    QTest::newRow("idna upper") << QString::fromUtf8("BÜCHER.example") << "xn--bcher-kva.example" << int(K::ExactHost);
    QTest::newRow("single label") << "localhost"
                                  << "localhost" << int(K::ExactHost);
    QTest::newRow("one label wildcard") << "*.Example.com."
                                        << "*.example.com" << int(K::OneLabelWildcard);
    QTest::newRow("any depth wildcard") << "**.example.com:*"
                                        << "**.example.com:*" << int(K::AnyDepthWildcard);
    QTest::newRow("underscore") << "_acme.example.com"
                                << "_acme.example.com" << int(K::ExactHost);
    QTest::newRow("ipv4") << "10.1.2.3"
                          << "10.1.2.3" << int(K::Network);
    QTest::newRow("ipv4 port") << "10.1.2.3:8080"
                               << "10.1.2.3:8080" << int(K::Network);
    QTest::newRow("ipv6") << "::1"
                          << "::1" << int(K::Network);
    QTest::newRow("ipv6 compressed") << "FD00:0:0::1"
                                     << "fd00::1" << int(K::Network);
    QTest::newRow("ipv6 bracketed port") << "[::1]:8080"
                                         << "[::1]:8080" << int(K::Network);
    QTest::newRow("ipv6 bracketed 443") << "[::1]:443"
                                        << "::1" << int(K::Network);
    QTest::newRow("cidr v4") << "10.0.0.0/8"
                             << "10.0.0.0/8" << int(K::Network);
    QTest::newRow("cidr v4 port") << "192.168.0.0/16:22"
                                  << "192.168.0.0/16:22" << int(K::Network);
    QTest::newRow("cidr v6") << "fd00::/8"
                             << "fd00::/8" << int(K::Network);
    QTest::newRow("cidr v6 port") << "[fd00::/8]:*"
                                  << "[fd00::/8]:*" << int(K::Network);
    QTest::newRow("v4 as mapped v6") << "::ffff:10.1.2.3"
                                     << "10.1.2.3" << int(K::Network);
    QTest::newRow("everything") << "*"
                                << "**" << int(K::Everything);
    QTest::newRow("everything 443") << "**:443"
                                    << "**:443" << int(K::Everything);
}

void TestPolicyPattern::canonicalForm()
{
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    QFETCH(int, kind);
    const Result<HostPattern> parsed = HostPattern::parse(text, PatternContext::Deny);
    QVERIFY2(parsed, qPrintable(parsed.errorText()));
    QCOMPARE(parsed->toString(), canonical);
    QCOMPARE(int(parsed->kind()), kind);
    // The canonical form is itself a pattern meaning the same thing.
    const Result<HostPattern> again = HostPattern::parse(canonical, PatternContext::Deny);
    QVERIFY(again);
    QVERIFY(again.value() == parsed.value());
}

void TestPolicyPattern::refused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason"); // a fragment of the reason a person reads

    QTest::newRow("empty") << ""
                           << "empty";
    QTest::newRow("tld wildcard") << "*.com"
                                  << "whole top-level domain";
    QTest::newRow("tld deep wildcard") << "**.com"
                                       << "whole top-level domain";
    QTest::newRow("tld wildcard trailing dot") << "*.com."
                                               << "whole top-level domain";
    QTest::newRow("bare star") << "*"
                               << "only in deny lists and presets";
    QTest::newRow("bare double star") << "**"
                                      << "only in deny lists and presets";
    QTest::newRow("bare star port") << "*:443"
                                    << "only in deny lists and presets";
    QTest::newRow("scheme") << "https://example.com"
                            << "remove the scheme";
    QTest::newRow("path") << "example.com/api"
                          << "cannot contain a path";
    QTest::newRow("port too big") << "example.com:65536"
                                  << "out of range";
    QTest::newRow("port zero") << "example.com:0"
                               << "out of range";
    QTest::newRow("port huge") << "example.com:99999999"
                               << "out of range";
    QTest::newRow("port missing") << "example.com:"
                                  << "port is missing";
    QTest::newRow("port words") << "example.com:http"
                                << "not a number";
    QTest::newRow("reversed range") << "example.com:443-80"
                                    << "reversed; write 80-443";
    QTest::newRow("range over") << "example.com:80-70000"
                                << "out of range";
    QTest::newRow("empty label") << "a..example.com"
                                 << "empty label";
    QTest::newRow("leading dot") << ".example.com"
                                 << "empty label";
    QTest::newRow("two trailing dots") << "example.com.."
                                       << "empty label";
    QTest::newRow("wildcard in the middle") << "a.*.com"
                                            << "whole first label";
    QTest::newRow("partial wildcard label") << "foo*.example.com"
                                            << "whole first label";
    QTest::newRow("triple star") << "***.example.com"
                                 << "whole first label";
    QTest::newRow("space inside") << "exa mple.com"
                                  << "spaces";
    QTest::newRow("leading space") << " example.com"
                                   << "spaces";
    QTest::newRow("tab") << "example.com\t"
                         << "spaces";
    QTest::newRow("long label") << QString(64, QLatin1Char('a')) + ".com"
                                << "longer than 63";
    QTest::newRow("long name") << (QString(60, QLatin1Char('a')) + QLatin1Char('.')).repeated(4) + "abcdefghij.com"
                               << "longer than 253";
    QTest::newRow("bad character") << "exa$mple.com"
                                   << "'$' cannot appear";
    QTest::newRow("no host") << ":443"
                             << "host is missing";
    QTest::newRow("bad ipv4") << "256.1.1.1"
                              << "valid IPv4";
    QTest::newRow("short ipv4") << "10.1"
                                << "valid IPv4";
    QTest::newRow("bad ipv6") << "fd00::1::2"
                              << "not a valid IPv6";
    QTest::newRow("ipv6 port without brackets") << "::1:8080:x"
                                                << "not a valid IPv6";
    QTest::newRow("unclosed bracket") << "[::1:8080"
                                      << "no ']'";
    QTest::newRow("junk after bracket") << "[::1]8080"
                                        << "after the ']'";
    QTest::newRow("cidr host bits") << "10.0.0.1/8"
                                    << "the range is 10.0.0.0/8";
    QTest::newRow("cidr prefix") << "10.0.0.0/33"
                                 << "from 0 to 32";
    QTest::newRow("cidr v6 prefix") << "fd00::/129"
                                    << "from 0 to 128";
    QTest::newRow("cidr everything in allow") << "0.0.0.0/0"
                                              << "covers every address";
}

void TestPolicyPattern::refused()
{
    QFETCH(QString, text);
    QFETCH(QString, reason);
    const Result<HostPattern> parsed = HostPattern::parse(text, PatternContext::Allow);
    QVERIFY2(!parsed, qPrintable(QStringLiteral("accepted as %1").arg(parsed ? parsed->toString() : "")));
    QVERIFY2(parsed.error().message.contains(reason), qPrintable(parsed.error().message));
}

void TestPolicyPattern::bareWildcardDependsOnContext()
{
    for (const char *text : {"*", "**", "**:80"}) {
        QVERIFY(!HostPattern::parse(QString::fromLatin1(text), PatternContext::Allow));
        QVERIFY(HostPattern::parse(QString::fromLatin1(text), PatternContext::Deny));
        QVERIFY(HostPattern::parse(QString::fromLatin1(text), PatternContext::Preset));
    }
    // A wildcard over a top-level domain is refused everywhere.
    QVERIFY(!HostPattern::parse(u"*.com", PatternContext::Preset));
    QVERIFY(HostPattern::parse(u"0.0.0.0/0", PatternContext::Deny));
}

void TestPolicyPattern::defaultPorts()
{
    QCOMPARE(HostPattern::parse(u"example.com", PatternContext::Allow)->ports(), (PortRange{443, 443}));
    QCOMPARE(HostPattern::parse(u"10.0.0.0/8", PatternContext::Allow)->ports(), (PortRange{443, 443}));
    QCOMPARE(HostPattern::parse(u"**", PatternContext::Deny)->ports(), PortRange::all());
    QCOMPARE(HostPattern::parse(u"example.com:*", PatternContext::Allow)->ports(), PortRange::all());
}

void TestPolicyPattern::matchesName_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("matches");

    QTest::newRow("exact") << "example.com"
                           << "example.com" << 443 << true;
    QTest::newRow("exact other port") << "example.com"
                                      << "example.com" << 80 << false;
    QTest::newRow("exact subdomain") << "example.com"
                                     << "a.example.com" << 443 << false;
    QTest::newRow("one label apex") << "*.example.com"
                                    << "example.com" << 443 << false;
    QTest::newRow("one label") << "*.example.com"
                               << "a.example.com" << 443 << true;
    QTest::newRow("one label two deep") << "*.example.com"
                                        << "a.b.example.com" << 443 << false;
    QTest::newRow("one label lookalike") << "*.example.com"
                                         << "aexample.com" << 443 << false;
    QTest::newRow("any depth apex") << "**.example.com"
                                    << "example.com" << 443 << false;
    QTest::newRow("any depth one") << "**.example.com"
                                   << "a.example.com" << 443 << true;
    QTest::newRow("any depth two") << "**.example.com"
                                   << "a.b.example.com" << 443 << true;
    QTest::newRow("any depth lookalike") << "**.example.com"
                                         << "badexample.com" << 443 << false;
    QTest::newRow("range low") << "example.com:80-443"
                               << "example.com" << 80 << true;
    QTest::newRow("range high") << "example.com:80-443"
                                << "example.com" << 443 << true;
    QTest::newRow("range outside") << "example.com:80-443"
                                   << "example.com" << 444 << false;
    QTest::newRow("any port") << "example.com:*"
                              << "example.com" << 22 << true;
    QTest::newRow("everything") << "**"
                                << "anything.at.all" << 9 << true;
    QTest::newRow("network never matches a name") << "10.0.0.0/8"
                                                  << "example.com" << 443 << false;
}

void TestPolicyPattern::matchesName()
{
    QFETCH(QString, pattern);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(bool, matches);
    const Result<HostPattern> parsed = HostPattern::parse(pattern, PatternContext::Deny);
    QVERIFY(parsed);
    QCOMPARE(parsed->matchesName(normaliseHostName(host), std::uint16_t(port)), matches);
}

QTEST_GUILESS_MAIN(TestPolicyPattern)
#include "tst_policy_pattern.moc"
