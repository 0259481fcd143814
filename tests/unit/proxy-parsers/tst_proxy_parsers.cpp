// SPDX-License-Identifier: GPL-3.0-or-later
// The byte-level parsers the proxy runs on everything a sandbox sends: HTTP request heads,
// the proxy interpretation of them, upstream response heads, SOCKS5 and the TLS ClientHello.
#include "proxy/ClientHello.h"
#include "proxy/HttpParser.h"
#include "proxy/Resolver.h"
#include "proxy/Socks5.h"

#include <QtTest>

using namespace paddock::proxy;

namespace {

std::string be16(std::size_t v)
{
    return {char(v >> 8), char(v & 0xff)};
}
std::string be24(std::size_t v)
{
    return {char(v >> 16), char((v >> 8) & 0xff), char(v & 0xff)};
}

// A ClientHello as a TLS client writes it, with an optional server_name and filler extensions.
std::string clientHello(const std::string &serverName, std::size_t padding = 0)
{
    std::string extensions;
    if (!serverName.empty()) {
        const std::string entry = std::string(1, '\0') + be16(serverName.size()) + serverName;
        const std::string list = be16(entry.size()) + entry;
        extensions += be16(0) + be16(list.size()) + list;
    }
    if (padding)
        extensions += be16(21) + be16(padding) + std::string(padding, '\0');
    std::string body = std::string("\x03\x03", 2) + std::string(32, 'r') + std::string(1, '\0') + be16(2) +
                       std::string("\x13\x01", 2) + std::string("\x01\x00", 2) + be16(extensions.size()) + extensions;
    const std::string handshake = std::string(1, '\x01') + be24(body.size()) + body;
    std::string records;
    for (std::size_t offset = 0; offset < handshake.size(); offset += 16384) {
        const std::string fragment = handshake.substr(offset, 16384);
        records += std::string("\x16\x03\x01", 3) + be16(fragment.size()) + fragment;
    }
    return records;
}

http::ProxyRequest interpret(const std::string &text, std::optional<http::RequestError> *error = nullptr)
{
    http::RequestHead head;
    [&] { QCOMPARE(http::parseRequestHead(text, 16384, head), http::ParseStatus::Complete); }();
    http::ProxyRequest request;
    const auto result = http::interpretRequest(head, request);
    if (error)
        *error = result;
    return request;
}

} // namespace

class TestProxyParsers : public QObject
{
    Q_OBJECT

private slots:
    void requestHeadNeedsTheEmptyLine()
    {
        http::RequestHead head;
        QCOMPARE(http::parseRequestHead("GET http://a/ HTTP/1.1\r\nHost: a\r\n", 16384, head),
                 http::ParseStatus::Incomplete);
        QCOMPARE(http::parseRequestHead("GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\nBODY", 16384, head),
                 http::ParseStatus::Complete);
        QCOMPARE(head.method, std::string("GET"));
        QCOMPARE(head.size, std::size_t(35));
        QCOMPARE(head.headers.size(), std::size_t(1));
        QCOMPARE(head.headers[0].value, std::string("a"));
    }

    void requestHeadOverTheLimitIsTooLarge()
    {
        http::RequestHead head;
        const std::string big = "GET http://a/ HTTP/1.1\r\nX: " + std::string(20000, 'x');
        QCOMPARE(http::parseRequestHead(big, 16384, head), http::ParseStatus::TooLarge);
        QCOMPARE(http::parseRequestHead(big.substr(0, 1000), 16384, head), http::ParseStatus::Incomplete);
    }

    void malformedHeadsAreInvalid_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("folded header") << QByteArray("GET http://a/ HTTP/1.1\r\nHost: a\r\n more\r\n\r\n");
        QTest::newRow("space before colon") << QByteArray("GET http://a/ HTTP/1.1\r\nHost : a\r\n\r\n");
        QTest::newRow("HTTP/2 line") << QByteArray("GET http://a/ HTTP/2\r\n\r\n");
        QTest::newRow("extra space") << QByteArray("GET  http://a/ HTTP/1.1\r\n\r\n");
        QTest::newRow("control char in value") << QByteArray("GET http://a/ HTTP/1.1\r\nX: a\x01\r\n\r\n");
    }
    void malformedHeadsAreInvalid()
    {
        QFETCH(QByteArray, text);
        http::RequestHead head;
        QCOMPARE(http::parseRequestHead(text.toStdString(), 16384, head), http::ParseStatus::Invalid);
    }

    void connectTargetsAreAuthorities()
    {
        std::optional<http::RequestError> error;
        http::ProxyRequest request = interpret("CONNECT Example.COM.:443 HTTP/1.1\r\nHost: x\r\n\r\n", &error);
        QVERIFY(!error);
        QCOMPARE(request.kind, http::ProxyRequest::Kind::Connect);
        QCOMPARE(request.target.host, std::string("example.com"));
        QCOMPARE(request.target.port, std::uint16_t(443));
        request = interpret("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n", &error);
        QVERIFY(!error);
        QCOMPARE(request.target.host, std::string("::1"));
        QVERIFY(request.target.isIpLiteral);
        interpret("CONNECT example.com HTTP/1.1\r\n\r\n", &error);
        QVERIFY(error);
        QCOMPARE(error->status, 400);
    }

    void absoluteFormIsForwardedInOriginForm()
    {
        std::optional<http::RequestError> error;
        const http::ProxyRequest request =
            interpret("GET http://a.test:8080/p?q=1 HTTP/1.1\r\nHost: a.test:8080\r\nProxy-Authorization: x\r\n"
                      "Proxy-Connection: keep-alive\r\nConnection: X-Secret\r\nX-Secret: 1\r\nAccept: */*\r\n\r\n",
                      &error);
        QVERIFY(!error);
        QCOMPARE(request.kind, http::ProxyRequest::Kind::Forward);
        QCOMPARE(request.upstreamHead, std::string("GET /p?q=1 HTTP/1.1\r\nHost: a.test:8080\r\nAccept: */*\r\n"
                                                   "Connection: close\r\n\r\n"));
        QVERIFY(request.clientKeepAlive);
    }

    void hostHeaderMustAgree_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("status");
        QTest::newRow("same") << QByteArray("GET http://a.test/ HTTP/1.1\r\nHost: A.test:80\r\n\r\n") << 0;
        QTest::newRow("other host") << QByteArray("GET http://a.test/ HTTP/1.1\r\nHost: b.test\r\n\r\n") << 400;
        QTest::newRow("other port") << QByteArray("GET http://a.test/ HTTP/1.1\r\nHost: a.test:81\r\n\r\n") << 400;
        QTest::newRow("two hosts") << QByteArray("GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\nHost: a.test\r\n\r\n")
                                   << 400;
        QTest::newRow("missing 1.1") << QByteArray("GET http://a.test/ HTTP/1.1\r\n\r\n") << 400;
        QTest::newRow("missing 1.0") << QByteArray("GET http://a.test/ HTTP/1.0\r\n\r\n") << 0;
        QTest::newRow("origin form") << QByteArray("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n") << 400;
        QTest::newRow("userinfo") << QByteArray("GET http://u@a.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n") << 400;
        QTest::newRow("chunked body") << QByteArray("POST http://a.test/ HTTP/1.1\r\nHost: a.test\r\n"
                                                    "Transfer-Encoding: chunked\r\n\r\n")
                                      << 411;
        QTest::newRow("two lengths") << QByteArray("POST http://a.test/ HTTP/1.1\r\nHost: a.test\r\n"
                                                   "Content-Length: 1\r\nContent-Length: 2\r\n\r\n")
                                     << 400;
    }
    void hostHeaderMustAgree()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, status);
        std::optional<http::RequestError> error;
        interpret(text.toStdString(), &error);
        QCOMPARE(error ? error->status : 0, status);
    }

    void responseKeepsTheClientOnlyWithALength()
    {
        http::ProxyRequest request;
        request.clientKeepAlive = true;
        http::ResponseHead head;
        QCOMPARE(
            http::parseResponseHead("HTTP/1.0 200 OK\r\nContent-Length: 5\r\nKeep-Alive: x\r\n\r\nhello", 65536, head),
            http::ParseStatus::Complete);
        http::ResponseRewrite rewrite = http::rewriteResponseHead(head, request);
        QVERIFY(rewrite.keepAlive);
        QCOMPARE(rewrite.head, std::string("HTTP/1.0 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\n"));
        QCOMPARE(http::parseResponseHead("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", 65536, head),
                 http::ParseStatus::Complete);
        rewrite = http::rewriteResponseHead(head, request);
        QVERIFY(!rewrite.keepAlive);
        QVERIFY(rewrite.head.find("Connection: close") != std::string::npos);
        QCOMPARE(http::parseResponseHead("HTTP/1.1 2000 OK\r\n\r\n", 65536, head), http::ParseStatus::Invalid);
    }

    void socksGreetingAndRequest()
    {
        socks5::Greeting greeting;
        QCOMPARE(socks5::parseGreeting(std::string("\x05\x02\x02\x00", 4), greeting), socks5::ParseStatus::Complete);
        QVERIFY(greeting.offersNoAuthentication);
        QCOMPARE(socks5::parseGreeting(std::string("\x05\x01\x02", 3), greeting), socks5::ParseStatus::Complete);
        QVERIFY(!greeting.offersNoAuthentication);
        QCOMPARE(socks5::parseGreeting(std::string("\x05\x02\x00", 3), greeting), socks5::ParseStatus::Incomplete);
        QCOMPARE(socks5::parseGreeting(std::string("\x04\x01", 2), greeting), socks5::ParseStatus::Invalid);

        socks5::Request request;
        const std::string domain = std::string("\x05\x01\x00\x03\x06", 5) + "a.test" + std::string("\x01\xbb", 2);
        QCOMPARE(socks5::parseRequest(domain.substr(0, 8), request), socks5::ParseStatus::Incomplete);
        QCOMPARE(socks5::parseRequest(domain, request), socks5::ParseStatus::Complete);
        QCOMPARE(request.host, std::string("a.test"));
        QCOMPARE(request.port, std::uint16_t(443));
        QCOMPARE(request.size, domain.size());
        const std::string v6 =
            std::string("\x05\x01\x00\x04", 4) + std::string(15, '\0') + "\x01" + std::string("\x00\x50", 2);
        QCOMPARE(socks5::parseRequest(v6, request), socks5::ParseStatus::Complete);
        QCOMPARE(request.host, std::string("::1"));
        QCOMPARE(request.port, std::uint16_t(80));
        QCOMPARE(socks5::reply(socks5::Reply::NotAllowedByRuleset)[1], '\x02');
    }

    void clientHelloServerName()
    {
        const std::string hello = clientHello("Api.Example.com");
        tls::ClientHelloInfo info = tls::parseClientHello(hello);
        QCOMPARE(info.status, tls::ClientHelloInfo::Status::Sni);
        QCOMPARE(info.serverName, std::string("api.example.com"));
        info = tls::parseClientHello(hello.substr(0, hello.size() - 3));
        QCOMPARE(info.status, tls::ClientHelloInfo::Status::Incomplete);
        QCOMPARE(tls::parseClientHello(clientHello("")).status, tls::ClientHelloInfo::Status::NoSni);
        QCOMPARE(tls::parseClientHello("SSH-2.0-OpenSSH\r\n").status, tls::ClientHelloInfo::Status::NotTls);
        std::string broken = hello;
        broken[5 + 4 + 2 + 32] = '\x40'; // a session id longer than the message
        QCOMPARE(tls::parseClientHello(broken).status, tls::ClientHelloInfo::Status::Malformed);
    }

    void clientHelloAcrossRecords()
    {
        const std::string hello = clientHello("b.test", 20000); // larger than one record
        QVERIFY(hello.size() > 16384 + 10);
        const tls::ClientHelloInfo info = tls::parseClientHello(hello);
        QCOMPARE(info.status, tls::ClientHelloInfo::Status::Sni);
        QCOMPARE(info.serverName, std::string("b.test"));
        QCOMPARE(tls::parseClientHello(hello.substr(0, 16384)).status, tls::ClientHelloInfo::Status::Incomplete);
    }

    void resolveOverridesLikeCurl()
    {
        ResolveOverrides overrides;
        QVERIFY(overrides.addCurlStyle(QStringLiteral("A.test:443:127.0.0.1")));
        QVERIFY(overrides.addCurlStyle(QStringLiteral("b.test:*:[::1],127.0.0.2")));
        QVERIFY(!overrides.addCurlStyle(QStringLiteral("c.test:443:not-an-address")));
        QVERIFY(overrides.lookup("a.test", 443));
        QVERIFY(!overrides.lookup("a.test", 80));
        const auto b = overrides.lookup("b.test", 22);
        QVERIFY(b);
        QCOMPARE(b->size(), std::size_t(2));
        QCOMPARE((*b)[0], QHostAddress(QStringLiteral("::1")));
    }
};

QTEST_GUILESS_MAIN(TestProxyParsers)
#include "tst_proxy_parsers.moc"
