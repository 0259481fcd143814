// SPDX-License-Identifier: GPL-3.0-or-later
// The request side of an intercepted connection, fed the way a socket delivers bytes: in
// pieces of any size. Heads are found and rewritten, bodies pass through untouched, and the key
// goes into the rule's header and nowhere else.

#include "proxy/InjectStream.h"
#include "proxy/ResponseStream.h"

#include <QtTest>

using namespace paddock::proxy;
using namespace paddock::proxy::inject;

namespace {

const QByteArray Key = "sk-unit-91b2";

std::vector<InjectRule> bearerRule()
{
    InjectRule rule;
    rule.domain = QStringLiteral("llm.test");
    rule.header = QStringLiteral("Authorization");
    rule.format = QStringLiteral("Bearer %s");
    rule.secret = [] { return Key; };
    return {rule};
}

/** Feeds @p input in pieces of @p step bytes; returns what goes upstream, or the error status. */
std::string run(const std::vector<InjectRule> &rules, const std::string &input, std::size_t step,
                std::vector<RequestNote> *notes = nullptr, int *errorStatus = nullptr)
{
    RequestStream stream("llm.test", &rules, 16 * 1024);
    std::string out;
    std::vector<RequestNote> collected;
    for (std::size_t at = 0; at < input.size(); at += step) {
        if (!stream.feed(std::string_view(input).substr(at, step), out, collected)) {
            if (errorStatus)
                *errorStatus = stream.error().status;
            return out;
        }
    }
    if (notes)
        *notes = collected;
    return out;
}

} // namespace

class TestInjectStream : public QObject
{
    Q_OBJECT

private slots:
    void pipelinedRequestsWithBodiesInAnyPieces()
    {
        const std::string chunkedBody = "5;ext=1\r\nhello\r\n0\r\nX-Trailer: proxy-managed\r\n\r\n";
        const std::string input =
            "POST /a HTTP/1.1\r\nHost: llm.test\r\nAuthorization: Bearer proxy-managed\r\nContent-Length: 12\r\n\r\n"
            "GET / HTTP/1" // a body that looks like a head must not be parsed as one
            "POST /b HTTP/1.1\r\nHost: llm.test:443\r\nTransfer-Encoding: chunked\r\n\r\n" +
            chunkedBody + "GET /c HTTP/1.1\r\nHost: llm.test\r\n\r\n";
        for (const std::size_t step : {std::size_t(1), std::size_t(3), std::size_t(7), input.size()}) {
            std::vector<RequestNote> notes;
            const std::string out = run(bearerRule(), input, step, &notes);
            const std::string header = "Authorization: Bearer " + Key.toStdString() + "\r\n";
            QCOMPARE(notes.size(), std::size_t(3));
            std::size_t count = 0;
            for (std::size_t at = out.find(header); at != std::string::npos; at = out.find(header, at + 1))
                ++count;
            QCOMPARE(count, std::size_t(3));
            QVERIFY(out.find("GET / HTTP/1POST /b") != std::string::npos);
            // The trailer is body, passed as it came: the sentinel in it is not a header value.
            QVERIFY(out.find(chunkedBody) != std::string::npos);
            QVERIFY(out.rfind("GET /c HTTP/1.1\r\n") != std::string::npos);
            QCOMPARE(notes[1].method, std::string("POST"));
        }
    }

    void keyGoesIntoTheRuleHeaderOnly()
    {
        // The sentinel elsewhere (another header, a cookie, the body) is not the rule's business:
        // an upstream that echoes those must not echo the key.
        const std::string body = "{\"key\":\"proxy-managed\"}";
        const std::string input = "POST /v1 HTTP/1.1\r\nHost: llm.test\r\nAuthorization: Bearer proxy-managed\r\n"
                                  "X-Goog-Api-Key: proxy-managed\r\nCookie: session=proxy-managed\r\n"
                                  "Content-Length: " +
                                  std::to_string(body.size()) + "\r\n\r\n" + body;
        const std::string key = Key.toStdString();
        for (const std::size_t step : {std::size_t(1), std::size_t(5), input.size()}) {
            std::vector<RequestNote> notes;
            QCOMPARE(run(bearerRule(), input, step, &notes),
                     "POST /v1 HTTP/1.1\r\nHost: llm.test\r\nX-Goog-Api-Key: proxy-managed\r\n"
                     "Cookie: session=proxy-managed\r\nContent-Length: " +
                         std::to_string(body.size()) + "\r\nAuthorization: Bearer " + key + "\r\n\r\n" + body);
            QCOMPARE(notes.size(), std::size_t(1));
            QCOMPARE(notes.front().injectedHeaders, QStringList{QStringLiteral("Authorization")});
        }
    }

    void responseSideLearnsEveryCredentialSetAndEveryMethod()
    {
        // A HEAD, then a GET whose response echoes the key: the response side knows the first
        // has no body, and masks the key in the second.
        const std::string input = "HEAD /a HTTP/1.1\r\nHost: llm.test\r\n\r\nGET /b HTTP/1.1\r\nHost: llm.test\r\n\r\n";
        const std::string key = Key.toStdString();
        ResponseStream responses(64 * 1024);
        const std::vector<InjectRule> rules = bearerRule();
        RequestStream stream("llm.test", &rules, 16 * 1024, &responses);
        std::string out;
        std::vector<RequestNote> notes;
        QVERIFY(stream.feed(input, out, notes));
        // Were the HEAD response read as having a body, the chunked one would be swallowed by it
        // and the key, split by the chunk framing, would not be found.
        const std::string chunked = "3\r\n" + key.substr(0, 3) + "\r\n" + std::to_string(key.size() - 3) + "\r\n" +
                                    key.substr(3) + "\r\n0\r\n\r\n";
        const std::string headResponse = "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n";
        const std::string getResponse = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        std::string echoed;
        responses.feed(headResponse + getResponse + chunked, echoed);
        QCOMPARE(echoed, headResponse + getResponse + "3\r\npro\r\n9\r\nxy-manage\r\n0\r\n\r\n");
    }

    void ambiguousFramingIsRefused_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::newRow("length and chunked") << QByteArray(
            "POST / HTTP/1.1\r\nHost: llm.test\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n");
        QTest::newRow("two lengths") << QByteArray(
            "POST / HTTP/1.1\r\nHost: llm.test\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n");
        QTest::newRow("coding not ending in chunked")
            << QByteArray("POST / HTTP/1.1\r\nHost: llm.test\r\nTransfer-Encoding: chunked, gzip\r\n\r\n");
        QTest::newRow("two hosts") << QByteArray("GET / HTTP/1.1\r\nHost: llm.test\r\nHost: other.test\r\n\r\n");
        QTest::newRow("absolute target for another host")
            << QByteArray("GET https://other.test/ HTTP/1.1\r\nHost: llm.test\r\n\r\n");
        QTest::newRow("no host") << QByteArray("GET / HTTP/1.1\r\n\r\n");
    }

    void ambiguousFramingIsRefused()
    {
        QFETCH(QByteArray, head);
        int status = 0;
        const std::string out = run(bearerRule(), head.toStdString(), head.size(), nullptr, &status);
        QCOMPARE(status, 400);
        QVERIFY(out.empty()); // nothing of it went upstream, least of all the key
    }

    void badChunkIsRefusedMidBody()
    {
        int status = 0;
        const std::string out =
            run(bearerRule(), "POST / HTTP/1.1\r\nHost: llm.test\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 5,
                nullptr, &status);
        QCOMPARE(status, 400);
    }

    void otherHostsPassUnchanged()
    {
        const std::string head = "GET / HTTP/1.1\r\nHost: other.test\r\nAuthorization:  Bearer proxy-managed\r\n\r\n";
        QCOMPARE(run(bearerRule(), head, 4), head);
    }

    void wildcardDomainsCoverSubdomainsOnly()
    {
        QVERIFY(domainMatches(QStringLiteral("*.example.com"), "api.example.com"));
        QVERIFY(domainMatches(QStringLiteral("*.example.com"), "a.b.example.com"));
        QVERIFY(!domainMatches(QStringLiteral("*.example.com"), "example.com"));
        QVERIFY(!domainMatches(QStringLiteral("*.example.com"), "badexample.com"));
        QVERIFY(domainMatches(QStringLiteral("API.example.com"), "api.example.com"));
        QVERIFY(!domainMatches(QStringLiteral("api.example.com"), "api.example.com.evil"));
    }

    void oversizedHeadIsRefused()
    {
        int status = 0;
        const std::string head = "GET / HTTP/1.1\r\nHost: llm.test\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n";
        const std::string out = run(bearerRule(), head, 4096, nullptr, &status);
        QCOMPARE(status, 431);
        QVERIFY(out.empty());
    }

    void pastedNewlineIsTrimmedAndHeaderBreakingSecretsRefused()
    {
        std::vector<InjectRule> rules = bearerRule();
        rules[0].secret = [] { return Key + "\n"; };
        const std::string head = "GET / HTTP/1.1\r\nHost: llm.test\r\n\r\n";
        QVERIFY(run(rules, head, head.size()).find("Authorization: Bearer " + Key.toStdString() + "\r\n\r\n") !=
                std::string::npos);

        rules[0].secret = [] { return Key + "\r\nX-Injected: yes"; };
        int status = 0;
        QVERIFY(run(rules, head, head.size(), nullptr, &status).empty());
        QCOMPARE(status, 503);
    }

    void upgradedStreamIsNotParsedAfterwards()
    {
        const std::string input =
            "GET /ws HTTP/1.1\r\nHost: llm.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
            "\x81\x05hello not http\r\n\r\n";
        std::vector<RequestNote> notes;
        const std::string out = run(bearerRule(), input, 2, &notes);
        QCOMPARE(notes.size(), std::size_t(1));
        QVERIFY(out.find("Authorization: Bearer " + Key.toStdString()) != std::string::npos);
        QVERIFY(out.find("\x81\x05hello not http\r\n\r\n") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestInjectStream)
#include "tst_inject_stream.moc"
