// SPDX-License-Identifier: GPL-3.0-or-later
// The upstream (corporate) proxy as Paddock reads and speaks to it: its URL as curl reads one,
// NO_PROXY as curl reads it, which connections it carries, and the client side of HTTP
// CONNECT and SOCKS5 with authentication, byte for byte.
#include "proxy/UpstreamProxy.h"

#include <QtTest>

using namespace paddock::proxy;
using paddock::Result;

namespace {

UpstreamProxy parsed(const QString &url)
{
    const Result<UpstreamProxy> proxy = parseUpstreamProxy(url);
    if (!proxy)
        qWarning("%s: %s", qPrintable(url), qPrintable(proxy.error().text()));
    return proxy.valueOr(UpstreamProxy{});
}

http::Authority target(const char *host, std::uint16_t port)
{
    http::Authority authority;
    authority.host = host;
    authority.port = port;
    authority.isIpLiteral = !QHostAddress(QString::fromLatin1(host)).isNull();
    return authority;
}

std::vector<QHostAddress> none()
{
    return {};
}

} // namespace

class TestUpstreamProxy : public QObject
{
    Q_OBJECT

private slots:
    void readsUrlsAsCurlDoes_data();
    void readsUrlsAsCurlDoes();
    void refusesWhatItCannotUse_data();
    void refusesWhatItCannotUse();
    void displayNeverShowsThePassword();
    void noProxyMatchesAsCurlDoes_data();
    void noProxyMatchesAsCurlDoes();
    void localNetworksGoStraightOut();
    void connectCarriesBasicAuthentication();
    void connectRefusalSaysWhatTheProxySaid();
    void connectKeepsBytesAfterTheAnswer();
    void socksWithUserAndPassword();
    void socksSendsTheAddressOrTheName();
    void socksRefusalsNameTheReply();
};

void TestUpstreamProxy::readsUrlsAsCurlDoes_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    const int http = int(UpstreamProxy::Kind::Http);
    QTest::newRow("http") << "http://proxy.corp.example:3128" << http << "proxy.corp.example" << 3128 << ""
                          << "";
    QTest::newRow("no scheme is http") << "proxy.corp.example:8080" << http << "proxy.corp.example" << 8080 << ""
                                       << "";
    QTest::newRow("no port is 1080") << "http://proxy" << http << "proxy" << 1080 << ""
                                     << "";
    QTest::newRow("user and password, decoded")
        << "http://alice:p%40ss%3Aword@10.0.0.5:3128/" << http << "10.0.0.5" << 3128 << "alice"
        << "p@ss:word";
    QTest::newRow("socks5") << "socks5://bob@127.0.0.1:1080" << int(UpstreamProxy::Kind::Socks5) << "127.0.0.1" << 1080
                            << "bob"
                            << "";
    QTest::newRow("socks5h") << "SOCKS5H://gw:9050" << int(UpstreamProxy::Kind::Socks5h) << "gw" << 9050 << ""
                             << "";
    QTest::newRow("ipv6") << "http://[fd00::1]:3128" << http << "fd00::1" << 3128 << ""
                          << "";
}

void TestUpstreamProxy::readsUrlsAsCurlDoes()
{
    QFETCH(QString, url);
    const Result<UpstreamProxy> proxy = parseUpstreamProxy(url);
    QVERIFY2(proxy.ok(), qPrintable(proxy.errorText()));
    QFETCH(int, kind);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QCOMPARE(int(proxy->kind), kind);
    QCOMPARE(QString::fromStdString(proxy->host), host);
    QCOMPARE(int(proxy->port), port);
    QCOMPARE(QString::fromStdString(proxy->user), user);
    QCOMPARE(QString::fromStdString(proxy->password), password);
}

void TestUpstreamProxy::refusesWhatItCannotUse_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("says");
    QTest::newRow("https proxy") << "https://proxy:3128"
                                 << "https";
    QTest::newRow("pac") << "http://wpad/proxy.pac"
                         << "path";
    QTest::newRow("socks4") << "socks4://proxy:1080"
                            << "socks4";
    QTest::newRow("no host") << "http://:3128"
                             << "host";
    QTest::newRow("bad port") << "http://proxy:99999"
                              << "port";
}

void TestUpstreamProxy::refusesWhatItCannotUse()
{
    QFETCH(QString, url);
    QFETCH(QString, says);
    const Result<UpstreamProxy> proxy = parseUpstreamProxy(url);
    QVERIFY(!proxy.ok());
    const QString error = proxy.error().text();
    QVERIFY2(error.contains(says, Qt::CaseInsensitive), qPrintable(error));
}

void TestUpstreamProxy::displayNeverShowsThePassword()
{
    const UpstreamProxy proxy = parsed(QStringLiteral("http://alice:s3cret-value@proxy.corp:3128"));
    QCOMPARE(proxy.display(), QStringLiteral("http://alice@proxy.corp:3128"));
    QCOMPARE(proxy.authority(), QStringLiteral("proxy.corp:3128"));
    QVERIFY(!proxy.display().contains(QStringLiteral("s3cret")));
    // The header carries it, base64 of user:password, as RFC 7617 says.
    QCOMPARE(proxy.authorizationHeader(),
             "Proxy-Authorization: Basic " + QByteArray("alice:s3cret-value").toBase64().toStdString() + "\r\n");
    QVERIFY(parsed(QStringLiteral("http://proxy:3128")).authorizationHeader().empty());
}

void TestUpstreamProxy::noProxyMatchesAsCurlDoes_data()
{
    QTest::addColumn<QString>("list");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("address");
    QTest::addColumn<bool>("direct");
    QTest::newRow("name") << "example.org"
                          << "example.org" << 443 << "" << true;
    QTest::newRow("name under it") << "example.org"
                                   << "git.example.org" << 443 << "" << true;
    QTest::newRow("leading dot") << ".example.org"
                                 << "example.org" << 443 << "" << true;
    QTest::newRow("not a suffix of a label") << "example.org"
                                             << "badexample.org" << 443 << "" << false;
    QTest::newRow("case") << "Example.ORG"
                          << "example.org" << 443 << "" << true;
    QTest::newRow("other name") << "example.org, corp.test"
                                << "github.com" << 443 << "" << false;
    QTest::newRow("second entry, spaces") << "example.org  corp.test"
                                          << "db.corp.test" << 5432 << "" << true;
    QTest::newRow("everything") << "*"
                                << "github.com" << 443 << "" << true;
    QTest::newRow("port given, same") << "git.corp:8080"
                                      << "git.corp" << 8080 << "" << true;
    QTest::newRow("port given, other") << "git.corp:8080"
                                       << "git.corp" << 443 << "" << false;
    QTest::newRow("address") << "192.0.2.7"
                             << "192.0.2.7" << 443 << "192.0.2.7" << true;
    QTest::newRow("range, resolved") << "203.0.113.0/24"
                                     << "intranet.corp" << 443 << "203.0.113.9" << true;
    QTest::newRow("range, outside") << "203.0.113.0/24"
                                    << "github.com" << 443 << "140.82.121.4" << false;
    QTest::newRow("v6 range") << "2001:db8::/32"
                              << "2001:db8::5" << 443 << "2001:db8::5" << true;
    QTest::newRow("empty") << ""
                           << "example.org" << 443 << "" << false;
}

void TestUpstreamProxy::noProxyMatchesAsCurlDoes()
{
    QFETCH(QString, list);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, address);
    QFETCH(bool, direct);
    std::vector<QHostAddress> addresses;
    if (!address.isEmpty())
        addresses.emplace_back(address);
    QCOMPARE(NoProxy(list).matches(host.toStdString(), std::uint16_t(port), addresses), direct);
}

void TestUpstreamProxy::localNetworksGoStraightOut()
{
    // A corporate proxy cannot reach this computer: its names, and the addresses the proxy's
    // builder calls local (the daemon asks the rebinding guard's list, tst_upstream_settings).
    UpstreamProxy proxy = parsed(QStringLiteral("http://proxy:3128"));
    proxy.noProxy = NoProxy(QStringLiteral("corp.test"));
    const QHostAddress local(QStringLiteral("192.0.2.1"));
    QVERIFY(proxy.carries("somewhere", 443, {local})); // nothing is local unless it is told
    proxy.isLocal = [local](const QHostAddress &address) { return address == local; };
    QVERIFY(!proxy.carries("somewhere", 443, {local}));
    QVERIFY(!proxy.carries("192.0.2.1", 443, none()));
    QVERIFY(proxy.carries("github.com", 443, {QHostAddress(QStringLiteral("140.82.121.4"))}));
    QVERIFY(proxy.carries("github.com", 443, none())); // not resolved here: the proxy resolves it
    QVERIFY(!proxy.carries("localhost", 80, none()));
    QVERIFY(!proxy.carries("db.localhost", 80, none()));
    QVERIFY(!proxy.carries("db.corp.test", 5432, none()));
}

void TestUpstreamProxy::connectCarriesBasicAuthentication()
{
    const UpstreamProxy proxy = parsed(QStringLiteral("http://alice:pw@proxy:3128"));
    UpstreamHandshake handshake(proxy, target("github.com", 443), none());
    const std::string request = handshake.start();
    QCOMPARE(request, "CONNECT github.com:443 HTTP/1.1\r\nHost: github.com:443\r\nProxy-Authorization: Basic " +
                          QByteArray("alice:pw").toBase64().toStdString() + "\r\n\r\n");
    std::string send;
    QCOMPARE(handshake.feed("HTTP/1.1 200 Connection established\r", &send), UpstreamHandshake::State::Waiting);
    QCOMPARE(handshake.feed("\n\r\n", &send), UpstreamHandshake::State::Open);
    QVERIFY(send.empty());
    QVERIFY(handshake.leftover().empty());

    UpstreamHandshake v6(parsed(QStringLiteral("http://proxy:3128")), target("2001:db8::1", 22), none());
    QCOMPARE(v6.start(), std::string("CONNECT [2001:db8::1]:22 HTTP/1.1\r\nHost: [2001:db8::1]:22\r\n\r\n"));
}

void TestUpstreamProxy::connectRefusalSaysWhatTheProxySaid()
{
    UpstreamHandshake handshake(parsed(QStringLiteral("http://10.0.0.5:3128")), target("github.com", 443), none());
    handshake.start();
    std::string send;
    QCOMPARE(handshake.feed("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=x\r\n\r\n",
                            &send),
             UpstreamHandshake::State::Refused);
    QCOMPARE(handshake.reason(),
             QStringLiteral("the upstream proxy 10.0.0.5:3128 refused: 407 Proxy Authentication Required"));
    QCOMPARE(handshake.socksReply(), socks5::Reply::NotAllowedByRuleset);

    UpstreamHandshake garbage(parsed(QStringLiteral("http://10.0.0.5:3128")), target("github.com", 443), none());
    garbage.start();
    QCOMPARE(garbage.feed("SSH-2.0-OpenSSH_9.2\r\n\r\n", &send), UpstreamHandshake::State::Refused);
    QVERIFY2(garbage.reason().contains(QStringLiteral("not HTTP")), qPrintable(garbage.reason()));
}

void TestUpstreamProxy::connectKeepsBytesAfterTheAnswer()
{
    // A server that speaks first (ssh) may have its banner in the same read as the 200.
    UpstreamHandshake handshake(parsed(QStringLiteral("http://proxy:3128")), target("git.example", 22), none());
    handshake.start();
    std::string send;
    QCOMPARE(handshake.feed("HTTP/1.0 200 OK\r\n\r\nSSH-2.0-OpenSSH_9.2\r\n", &send), UpstreamHandshake::State::Open);
    QCOMPARE(handshake.leftover(), std::string("SSH-2.0-OpenSSH_9.2\r\n"));
}

void TestUpstreamProxy::socksWithUserAndPassword()
{
    UpstreamHandshake handshake(parsed(QStringLiteral("socks5h://bob:hunter2@gw:1080")), target("github.com", 443),
                                none());
    QCOMPARE(handshake.start(), std::string("\x05\x02\x00\x02", 4));
    std::string send;
    QCOMPARE(handshake.feed(std::string("\x05\x02", 2), &send), UpstreamHandshake::State::Waiting);
    QCOMPARE(send, std::string("\x01\x03"
                               "bob"
                               "\x07"
                               "hunter2"));
    send.clear();
    QCOMPARE(handshake.feed(std::string("\x01\x00", 2), &send), UpstreamHandshake::State::Waiting);
    // socks5h: the name goes to the proxy.
    QCOMPARE(send, std::string("\x05\x01\x00\x03\x0a"
                               "github.com"
                               "\x01\xbb",
                               17));
    send.clear();
    QCOMPARE(handshake.feed(std::string("\x05\x00\x00\x01\x7f\x00\x00\x01\x04\x38"
                                        "early",
                                        15),
                            &send),
             UpstreamHandshake::State::Open);
    QCOMPARE(handshake.leftover(), std::string("early"));

    UpstreamHandshake wrong(parsed(QStringLiteral("socks5h://bob:bad@gw:1080")), target("github.com", 443), none());
    wrong.start();
    wrong.feed(std::string("\x05\x02", 2), &send);
    QCOMPARE(wrong.feed(std::string("\x01\x01", 2), &send), UpstreamHandshake::State::Refused);
    QCOMPARE(wrong.reason(), QStringLiteral("the upstream proxy gw:1080 refused the user name and password"));

    UpstreamHandshake anonymous(parsed(QStringLiteral("socks5://gw:1080")), target("github.com", 443), none());
    QCOMPARE(anonymous.start(), std::string("\x05\x01\x00", 3));
    QCOMPARE(anonymous.feed(std::string("\x05\x02", 2), &send), UpstreamHandshake::State::Refused);
    QVERIFY2(anonymous.reason().contains(QStringLiteral("no user is set")), qPrintable(anonymous.reason()));
}

void TestUpstreamProxy::socksSendsTheAddressOrTheName()
{
    std::string send;
    // socks5: the address resolved here goes to the proxy.
    UpstreamHandshake resolved(parsed(QStringLiteral("socks5://gw:1080")), target("github.com", 443),
                               {QHostAddress(QStringLiteral("140.82.121.4"))});
    resolved.start();
    resolved.feed(std::string("\x05\x00", 2), &send);
    QCOMPARE(send, std::string("\x05\x01\x00\x01\x8c\x52\x79\x04\x01\xbb", 10));

    UpstreamHandshake v6(parsed(QStringLiteral("socks5h://gw:1080")), target("2001:db8::1", 22), none());
    v6.start();
    send.clear();
    v6.feed(std::string("\x05\x00", 2), &send);
    QCOMPARE(send.size(), std::size_t(4 + 16 + 2));
    QCOMPARE(send[3], char(socks5::AddressIpv6));
}

void TestUpstreamProxy::socksRefusalsNameTheReply()
{
    UpstreamHandshake handshake(parsed(QStringLiteral("socks5h://gw:1080")), target("github.com", 443), none());
    handshake.start();
    std::string send;
    handshake.feed(std::string("\x05\x00", 2), &send);
    QCOMPARE(handshake.feed(std::string("\x05\x05\x00\x01\x00\x00\x00\x00\x00\x00", 10), &send),
             UpstreamHandshake::State::Refused);
    QCOMPARE(handshake.reason(),
             QStringLiteral("the upstream proxy gw:1080 refused: SOCKS5 reply 5 (connection refused)"));
    QCOMPARE(handshake.socksReply(), socks5::Reply(5));
}

QTEST_GUILESS_MAIN(TestUpstreamProxy)
#include "tst_upstream_proxy.moc"
