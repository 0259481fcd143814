// SPDX-License-Identifier: GPL-3.0-or-later
// The request side of an intercepted connection with a custom secret: the placeholder replaced
// in its header and in text bodies whatever the pieces the stream comes in, a body larger than
// the bound re-sent chunked, and a placeholder for another host left alone and noted.
#include "proxy/InjectStream.h"

#include <QTest>

using namespace paddock::proxy;
using namespace paddock::proxy::inject;

namespace {

const std::string kPlaceholder = "paddock-ph-0123456789abcdef0123456789abcdef";
const QByteArray kValue = "the-real-value-42";

std::vector<InjectRule> rules()
{
    InjectRule jira;
    jira.domain = QStringLiteral("api.example.test");
    jira.header = QStringLiteral("X-Api-Key");
    jira.placeholder = kPlaceholder;
    jira.body = true;
    jira.credential = QStringLiteral("jira");
    jira.secret = [] { return kValue; };
    InjectRule hook = jira;
    hook.domain = QStringLiteral("hooks.example.test");
    hook.header.clear();
    hook.anywhere = true;
    hook.body = false;
    hook.placeholder = "paddock-ph-ffffffffffffffffffffffffffffffff";
    hook.credential = QStringLiteral("hook");
    return {jira, hook};
}

/** What goes upstream when @p request is fed @p piece bytes at a time to a tunnel to @p host. */
std::string forward(const std::string &request, std::size_t piece, const std::string &host,
                    std::vector<RequestNote> *notes = nullptr)
{
    const std::vector<InjectRule> all = rules();
    RequestStream stream(host, &all, 64 * 1024);
    std::string out;
    std::vector<RequestNote> seen;
    for (std::size_t at = 0; at < request.size(); at += piece) {
        if (!stream.feed(std::string_view(request).substr(at, piece), out, seen))
            return "FAILED " + stream.error().reason;
    }
    if (notes)
        *notes = seen;
    return out;
}

} // namespace

class TestPlaceholders : public QObject
{
    Q_OBJECT

private slots:
    void headerAndJsonBodyInEveryPieceSize()
    {
        const std::string body = "{\"a\":\"" + kPlaceholder + "\",\"b\":\"" + kPlaceholder + "\"}";
        const std::string request = "POST /x HTTP/1.1\r\nHost: api.example.test\r\nX-Api-Key: " + kPlaceholder +
                                    "\r\nX-Other: " + kPlaceholder + "\r\nContent-Type: application/json\r\n" +
                                    "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        const std::string value = kValue.toStdString();
        const std::string newBody = "{\"a\":\"" + value + "\",\"b\":\"" + value + "\"}";
        for (std::size_t piece : {std::size_t(1), std::size_t(7), std::size_t(43), request.size()}) {
            const std::string out = forward(request, piece, "api.example.test");
            QVERIFY2(out.find("\r\nX-Api-Key: " + value + "\r\n") != std::string::npos, out.c_str());
            QVERIFY2(out.find("\r\nX-Other: " + kPlaceholder + "\r\n") != std::string::npos, out.c_str());
            QVERIFY2(out.find("Content-Length: " + std::to_string(newBody.size()) + "\r\n\r\n" + newBody) !=
                         std::string::npos,
                     out.c_str());
            QVERIFY2(out.find("Content-Length: " + std::to_string(body.size())) == std::string::npos, out.c_str());
        }
    }

    void chunkedFormBodyBecomesOneLengthBody()
    {
        const std::string part1 = "t=paddock-ph-0123456789ab";
        const std::string part2 = "cdef0123456789abcdef&x=1";
        const std::string request =
            "POST /x HTTP/1.1\r\nHost: api.example.test\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            "Transfer-Encoding: chunked\r\n\r\n" +
            QByteArray::number(qsizetype(part1.size()), 16).toStdString() + "\r\n" + part1 + "\r\n" +
            QByteArray::number(qsizetype(part2.size()), 16).toStdString() + "\r\n" + part2 + "\r\n0\r\n\r\n";
        const std::string expected = "t=" + kValue.toStdString() + "&x=1";
        const std::string out = forward(request, 5, "api.example.test");
        QVERIFY2(out.find("Content-Length: " + std::to_string(expected.size()) + "\r\n\r\n" + expected) !=
                     std::string::npos,
                 out.c_str());
        QVERIFY2(out.find("chunked") == std::string::npos, out.c_str());
    }

    void binaryBodyAndOtherHostAreLeftAlone()
    {
        const std::string request = "POST /x HTTP/1.1\r\nHost: api.example.test\r\nContent-Type: "
                                    "application/octet-stream\r\nContent-Length: " +
                                    std::to_string(kPlaceholder.size()) + "\r\n\r\n" + kPlaceholder;
        QCOMPARE(forward(request, 3, "api.example.test").substr(request.size() - kPlaceholder.size()), kPlaceholder);

        std::vector<RequestNote> notes;
        const std::string elsewhere = "GET / HTTP/1.1\r\nHost: hooks.example.test\r\nX-Api-Key: " + kPlaceholder +
                                      "\r\nX-Hook: paddock-ph-ffffffffffffffffffffffffffffffff\r\n\r\n";
        const std::string out = forward(elsewhere, 11, "hooks.example.test", &notes);
        QVERIFY2(out.find("X-Api-Key: " + kPlaceholder) != std::string::npos, out.c_str());
        QVERIFY2(out.find("X-Hook: " + kValue.toStdString()) != std::string::npos, out.c_str());
        QCOMPARE(notes.size(), std::size_t(1));
        QCOMPARE(notes[0].placeholdersElsewhere, QStringList{QStringLiteral("jira")});
        QCOMPARE(notes[0].placeholdersReplaced, QStringList{QStringLiteral("hook")});
    }

    void largeBodyStreamsChunkedWithPlaceholdersAcrossPieces()
    {
        PlaceholderBody body;
        body.begin("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\n",
                   {{kPlaceholder, kValue.toStdString(), true}}, 16);
        std::string out;
        const std::string data = std::string(20, 'a') + kPlaceholder + std::string(5, 'b') + kPlaceholder;
        for (std::size_t at = 0; at < data.size(); at += 9)
            body.data(std::string_view(data).substr(at, 9), out);
        body.end(out);
        QVERIFY2(out.find("Transfer-Encoding: chunked\r\n\r\n") != std::string::npos, out.c_str());
        QVERIFY2(out.find("Content-Length") == std::string::npos, out.c_str());
        // Decoded, the chunks are the body with both placeholders replaced.
        std::string decoded;
        std::size_t at = out.find("\r\n\r\n") + 4;
        for (;;) {
            const std::size_t eol = out.find("\r\n", at);
            const std::size_t size = std::stoul(out.substr(at, eol - at), nullptr, 16);
            if (size == 0)
                break;
            decoded += out.substr(eol + 2, size);
            at = eol + 2 + size + 2;
        }
        QCOMPARE(decoded, std::string(20, 'a') + kValue.toStdString() + std::string(5, 'b') + kValue.toStdString());
    }
};

QTEST_APPLESS_MAIN(TestPlaceholders)

#include "tst_placeholders.moc"
