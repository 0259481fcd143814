// SPDX-License-Identifier: GPL-3.0-or-later
// The response side of an intercepted connection, fed the way a socket delivers bytes: in pieces
// of any size. Every credential that went upstream is masked in place, whatever the framing, and
// everything else passes byte for byte.

#include "proxy/ResponseStream.h"

#include <QtTest>

using namespace paddock::proxy::inject;

namespace {

const std::string Key = "sk-unit-91b2c3d4e5f6";
const std::string Sentinel = "proxy-managed";
const std::string Mask = "proxy-managed*******"; // the sentinel padded to the key's length

std::string chunked(const std::string &body, std::size_t size)
{
    std::string out;
    for (std::size_t at = 0; at < body.size(); at += size) {
        const std::string piece = body.substr(at, size);
        char length[32];
        std::snprintf(length, sizeof length, "%zx", piece.size());
        out += std::string(length) + "\r\n" + piece + "\r\n";
    }
    return out + "0\r\n\r\n";
}

/** The content of a chunked body that starts @p data (after its head). */
std::string dechunked(std::string_view data)
{
    std::string content;
    for (;;) {
        const std::size_t eol = data.find("\r\n");
        const std::size_t size = std::stoul(std::string(data.substr(0, eol)), nullptr, 16);
        if (size == 0)
            return content;
        content.append(data.substr(eol + 2, size));
        data.remove_prefix(eol + 2 + size + 2);
    }
}

/** Feeds @p input in pieces of @p step bytes, with the methods of the requests in order. */
std::string run(const std::string &input, std::size_t step, const std::vector<std::string> &forms = {Key},
                const std::vector<std::string> &methods = {"GET", "GET", "GET"})
{
    ResponseStream stream(64 * 1024);
    for (const std::string &form : forms)
        stream.addSecret(form, Sentinel);
    for (const std::string &method : methods)
        stream.expectResponseTo(method);
    std::string out;
    for (std::size_t at = 0; at < input.size(); at += step)
        stream.feed(std::string_view(input).substr(at, step), out);
    stream.finish(out);
    return out;
}

std::string replaced(std::string text, const std::string &from, const std::string &to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

const std::vector<std::size_t> Steps{1, 2, 3, 7, 13, 100000};

} // namespace

class TestResponseStream : public QObject
{
    Q_OBJECT

private slots:
    void keyInHeadsAndLengthBodiesIsMaskedInPlace()
    {
        const std::string body = "you sent: Authorization: Bearer " + Key + "\nand " + Key + Key + "\n";
        const std::string input = "HTTP/1.1 401 Unauthorized\r\nX-Echo: Bearer " + Key +
                                  "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body +
                                  "HTTP/1.1 204 No Content\r\nX-Request: " + Key + "\r\n\r\n";
        for (const std::size_t step : Steps) {
            const std::string out = run(input, step);
            QCOMPARE(out, replaced(input, Key, Mask)); // the same length: Content-Length still holds
            QVERIFY(out.find(Key) == std::string::npos);
        }
    }

    void keySplitAcrossChunksIsFound()
    {
        const std::string body = "echo: " + Key + " and again " + Key + " end";
        for (const std::size_t chunkSize : {std::size_t(1), std::size_t(4), std::size_t(9), std::size_t(1000)}) {
            // Chunk sizes and their CRLFs sit between the key's bytes: only the content has it.
            const std::string input = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                                      chunked(body, chunkSize) + "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nend";
            const std::string expected = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                                         chunked(replaced(body, Key, Mask), chunkSize) +
                                         "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nend";
            for (const std::size_t step : Steps)
                QCOMPARE(run(input, step), expected);
        }
    }

    void basicCredentialInBothForms()
    {
        const std::string encoded = QByteArray(("apiuser:" + Key).c_str()).toBase64().toStdString();
        const std::vector<std::string> forms = credentialForms(encoded, QStringLiteral("Basic %s"));
        QCOMPARE(forms, (std::vector<std::string>{encoded, Key}));
        QCOMPARE(credentialForms(Key, QStringLiteral("Bearer %s")), std::vector<std::string>{Key});
        QCOMPARE(credentialForms("not base64!", QStringLiteral("basic %s")), std::vector<std::string>{"not base64!"});

        const std::string body = "Authorization: Basic " + encoded + "\ndecoded: apiuser:" + Key + "\n";
        const std::string input = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(body, 5);
        for (const std::size_t step : Steps) {
            const std::string out = run(input, step, forms);
            QCOMPARE(out.size(), input.size());
            const std::string content = dechunked(std::string_view(out).substr(out.find("\r\n\r\n") + 4));
            QVERIFY(content.find(Key) == std::string::npos);
            QVERIFY(content.find(encoded) == std::string::npos);
            QCOMPARE(content, "Authorization: Basic " + std::string(encoded.size(), '*').replace(0, 13, Sentinel) +
                                  "\ndecoded: apiuser:" + Mask + "\n");
        }
    }

    void onlyWhatMightStartAKeyIsHeldBack()
    {
        ResponseStream stream(64 * 1024);
        stream.addSecret(Key, Sentinel);
        stream.expectResponseTo("GET");
        std::string out;
        const std::string head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
        stream.feed(head + "f\r\ndata: event 1\n\n\r\n", out);
        QCOMPARE(out, head + "f\r\ndata: event 1\n\n\r\n"); // a streamed event goes on at once
        out.clear();
        stream.feed("5\r\nx sk-", out);
        QCOMPARE(out, std::string("5\r\nx ")); // "sk-" may be a key's start: it waits
        out.clear();
        stream.feed("\r\n3\r\nuni\r\n", out);
        QCOMPARE(out, std::string());
        stream.feed("4\r\nform\r\n", out);
        QCOMPARE(out, std::string("sk-\r\n3\r\nuni\r\n4\r\nform\r\n")); // it was not
        out.clear();
        stream.feed("3\r\nsk-\r\n0\r\n\r\n", out);
        QCOMPARE(out, std::string("3\r\nsk-\r\n0\r\n\r\n")); // the message ended: nothing can complete it
    }

    void bodylessResponsesKeepTheFramingInStep()
    {
        // A HEAD response announces a length it does not send; the next response must still be
        // read as one, so its chunked key is found.
        const std::string second = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(Key, 3);
        const std::string input = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n" + second;
        for (const std::size_t step : Steps) {
            const std::string out = run(input, step, {Key}, {"HEAD", "GET"});
            QCOMPARE(out, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n"
                          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                              chunked(Mask, 3));
        }
    }

    void unframedAndUpgradedStreamsAreScannedToTheEnd()
    {
        for (const std::string &head :
             {std::string("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"),
              std::string("HTTP/1.0 200 OK\r\n\r\n"), std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"),
              std::string("not http at all ")}) {
            const std::string input = head + "\x81\x7f" + Key + " tail " + Key.substr(0, 5);
            for (const std::size_t step : Steps)
                QCOMPARE(run(input, step), replaced(input, Key, Mask));
        }
    }

    void overlappingAndShortKeys()
    {
        // Every byte any occurrence covers is masked; a sentinel longer than the key is cut.
        QCOMPARE(run("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\naaaab", 1, {"aaa"}),
                 std::string("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\npprob"));
        QCOMPARE(run("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nxkeyx.", 2, {"key"}),
                 std::string("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nxprox."));
    }

    void nothingToMaskPassesUnchanged()
    {
        const std::string input = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbodyHTTP/1.1 304 Not Modified\r\n\r\n";
        for (const std::size_t step : Steps)
            QCOMPARE(run(input, step, {}), input);
    }
};

QTEST_GUILESS_MAIN(TestResponseStream)
#include "tst_response_stream.moc"
