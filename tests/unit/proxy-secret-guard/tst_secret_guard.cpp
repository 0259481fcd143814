// SPDX-License-Identifier: GPL-3.0-or-later
// The secret-egress guard on what a sandbox sends through an intercepted connection: a known
// value, in any of the forms a program sends it, found across any split of the stream; refused
// or redacted, and everything else passed byte for byte.

#include "proxy/InjectStream.h"

#include <QtTest>

using namespace paddock::proxy;

namespace {

const std::string Canary = "canary-7f3a9c1e55d0b2";

std::shared_ptr<const guard::GuardConfig> guardOf(guard::Mode mode, std::size_t holdBytes = 1024 * 1024)
{
    std::vector<guard::Value> values{{Canary, QStringLiteral(".env"), QStringLiteral("OPENAI_KEY")},
                                     {"short", QStringLiteral(".env"), QStringLiteral("PORT")}};
    auto patterns = guard::Patterns::build(values);
    auto config = std::make_shared<guard::GuardConfig>();
    config->current = [mode, patterns] { return guard::GuardState{mode, patterns}; };
    config->holdBytes = holdBytes;
    config->refuseHoldBytes = holdBytes;
    return config;
}

struct Result
{
    std::string out;
    bool ok = true;
    int status = 0;
    std::optional<guard::Finding> refusal;
    std::vector<guard::Finding> findings;
};

Result run(const std::shared_ptr<const guard::GuardConfig> &config, const std::string &input, std::size_t step)
{
    inject::RequestStream stream("llm.test", nullptr, 16 * 1024);
    stream.setGuard(config);
    Result result;
    std::vector<inject::RequestNote> notes;
    for (std::size_t at = 0; at < input.size(); at += step) {
        if (!stream.feed(std::string_view(input).substr(at, step), result.out, notes)) {
            result.ok = false;
            result.status = stream.error().status;
            result.refusal = stream.guardRefusal();
            return result;
        }
        for (guard::Finding &finding : stream.takeFindings())
            result.findings.push_back(std::move(finding));
    }
    return result;
}

std::string post(const std::string &body)
{
    return "POST /v1/chat HTTP/1.1\r\nHost: llm.test\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
           body;
}

std::string postChunked(const std::string &body, std::size_t chunk)
{
    std::string input = "POST /v1/chat HTTP/1.1\r\nHost: llm.test\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (std::size_t at = 0; at < body.size(); at += chunk) {
        const std::string piece = body.substr(at, chunk);
        input += QByteArray::number(qulonglong(piece.size()), 16).toStdString() + "\r\n" + piece + "\r\n";
    }
    return input + "0\r\n\r\n";
}

std::string base64(const std::string &text)
{
    return QByteArray::fromStdString(text).toBase64().toStdString();
}

} // namespace

class TestSecretGuard : public QObject
{
    Q_OBJECT

private slots:
    void shortValuesAreSkippedAndSaidSo()
    {
        std::vector<guard::Value> values{{"abc", QStringLiteral(".env"), QStringLiteral("DEBUG")}};
        const auto patterns = guard::Patterns::build(values);
        QVERIFY(patterns->empty());
        QCOMPARE(patterns->skipped().size(), std::size_t(1));
        QVERIFY(patterns->skipped().front().contains(QStringLiteral("DEBUG")));
        QVERIFY(values.front().bytes.empty()); // taken and wiped
    }

    void everyFormIsRefusedAcrossAnySplit_data()
    {
        QTest::addColumn<QString>("body");
        const std::string odd = "key\"with/slash and space=" + Canary;
        QTest::newRow("plain json") << QString::fromStdString("{\"messages\":[{\"content\":\"" + Canary + "\"}]}");
        QTest::newRow("json-escaped") << QString::fromStdString(
            "{\"c\":\"" + std::string("key\\\"with\\/slash and space=") + Canary + "\"}");
        QTest::newRow("percent") << QString::fromStdString(
            "q=" + QUrl::toPercentEncoding(QString::fromStdString(odd)).toStdString());
        for (const std::string prefix : {"", "a", "ab"})
            QTest::newRow(("base64+" + std::to_string(prefix.size())).c_str())
                << QString::fromStdString("{\"file\":\"" + base64(prefix + "OPENAI_KEY=" + Canary + "\n") + "\"}");
        QTest::newRow("base64url") << QString::fromStdString(
            QByteArray::fromStdString("xx" + Canary)
                .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
                .toStdString());
    }

    void everyFormIsRefusedAcrossAnySplit()
    {
        QFETCH(QString, body);
        std::vector<guard::Value> values{
            {Canary, QStringLiteral(".env"), QStringLiteral("OPENAI_KEY")},
            {"key\"with/slash and space=" + Canary, QStringLiteral(".env.local"), QStringLiteral("ODD")}};
        auto patterns = guard::Patterns::build(values);
        auto config = std::make_shared<guard::GuardConfig>();
        config->current = [patterns] { return guard::GuardState{guard::Mode::Refuse, patterns}; };
        for (const std::size_t step : {std::size_t(1), std::size_t(5), std::size_t(1 << 20)}) {
            const Result result = run(config, post(body.toStdString()), step);
            QVERIFY2(!result.ok, qPrintable(body));
            QCOMPARE(result.status, 403);
            QVERIFY(result.refusal);
            QVERIFY(result.out.empty()); // nothing of the request went
        }
    }

    void aRequestWithoutSecretsPassesByteForByte()
    {
        const std::string body = "{\"messages\":[{\"content\":\"canary-7f3a9c1e55d0b\"}]}"; // one byte short
        const std::string input = post(body) +
                                  "POST /c HTTP/1.1\r\nHost: llm.test\r\nTransfer-Encoding: chunked\r\n\r\n"
                                  "4\r\nabcd\r\n0\r\nX-T: 1\r\n\r\nGET / HTTP/1.1\r\nHost: llm.test\r\n\r\n";
        for (const guard::Mode mode : {guard::Mode::Refuse, guard::Mode::Redact}) {
            for (const std::size_t step : {std::size_t(1), std::size_t(7), input.size()}) {
                const Result result = run(guardOf(mode), input, step);
                QVERIFY(result.ok);
                QCOMPARE(result.out, input);
            }
        }
    }

    void aValueInAHeaderIsRefusedInEitherMode()
    {
        for (const guard::Mode mode : {guard::Mode::Refuse, guard::Mode::Redact}) {
            const Result result =
                run(guardOf(mode), "GET /?k=1 HTTP/1.1\r\nHost: llm.test\r\nX-Key: " + Canary + "\r\n\r\n", 3);
            QVERIFY(!result.ok);
            QVERIFY(result.refusal && result.refusal->inHead);
            QCOMPARE(result.refusal->value.name, QStringLiteral("OPENAI_KEY"));
        }
    }

    void redactionFixesTheLengthAndNamesTheValue()
    {
        const std::string body = "{\"a\":\"" + Canary + "\",\"b\":\"x" + Canary + Canary + "\"}";
        const std::string marker = "[redacted by Paddock: .env OPENAI_KEY]";
        const std::string expected = "{\"a\":\"" + marker + "\",\"b\":\"x" + marker + marker + "\"}";
        for (const std::size_t step : {std::size_t(1), std::size_t(4), std::size_t(4096)}) {
            const Result result =
                run(guardOf(guard::Mode::Redact), post(body) + "GET / HTTP/1.1\r\nHost: llm.test\r\n\r\n", step);
            QVERIFY(result.ok);
            QCOMPARE(result.out, post(expected) + "GET / HTTP/1.1\r\nHost: llm.test\r\n\r\n");
            QCOMPARE(result.findings.size(), std::size_t(1));
            QVERIFY(result.findings.front().redacted);
        }
    }

    void aLargeBodyStreamsAndIsStillGuarded()
    {
        std::string big(3 * 1024 * 1024, 'x');
        for (std::size_t i = 0; i < big.size(); i += 61)
            big[i] = char('a' + i % 26);
        // Below the bound nothing is held back at the end; beyond it, it streams as it comes.
        const Result clean = run(guardOf(guard::Mode::Refuse, 1024 * 1024), post(big), 16 * 1024);
        QVERIFY(clean.ok);
        QCOMPARE(clean.out, post(big));

        std::string late = big;
        late.replace(late.size() - 100, Canary.size(), Canary);
        const Result cut = run(guardOf(guard::Mode::Refuse, 1024 * 1024), post(late), 16 * 1024);
        QVERIFY(!cut.ok);
        QVERIFY(cut.refusal && cut.refusal->cut);
        QVERIFY(cut.out.size() > 1024 * 1024);
        QVERIFY(cut.out.find(Canary) == std::string::npos);

        const Result redacted = run(guardOf(guard::Mode::Redact, 1024 * 1024), post(late), 16 * 1024);
        QVERIFY(redacted.ok);
        QVERIFY(redacted.out.find(Canary) == std::string::npos);
        QVERIFY(redacted.out.find("Transfer-Encoding: chunked\r\n") != std::string::npos);
        QVERIFY(redacted.out.find("Content-Length") == std::string::npos);
        // Unchunked again, the body is the original with the marker in place of the value.
        std::string body;
        std::string_view rest = std::string_view(redacted.out).substr(redacted.out.find("\r\n\r\n") + 4);
        while (true) {
            const std::size_t eol = rest.find("\r\n");
            const std::size_t size = std::stoul(std::string(rest.substr(0, eol)), nullptr, 16);
            rest.remove_prefix(eol + 2);
            if (size == 0)
                break;
            body.append(rest.substr(0, size));
            rest.remove_prefix(size + 2);
        }
        std::string expected = big;
        expected.replace(expected.size() - 100, Canary.size(), "[redacted by Paddock: .env OPENAI_KEY]");
        QCOMPARE(body.size(), expected.size());
        QVERIFY(body == expected);
    }

    void aRefusedStreamingBodySendsNoByteOfTheValue()
    {
        // Past the bound the body goes on as it is scanned; a value at any place, split across
        // reads anywhere, is refused with nothing of it sent, not even its first byte.
        std::string text(6000, '.');
        for (std::size_t i = 0; i < text.size(); i += 7)
            text[i] = char('a' + i % 26);
        const std::string json = "\"" + Canary + "\"";
        const std::string encoded = base64("ab" + Canary);
        for (const bool chunked : {false, true}) {
            // Each with where its guarded part starts: the quote, and base64's first characters,
            // which depend on the bytes before the value, are not the value's.
            for (const auto &[value, skip] : {std::pair(Canary, 0), std::pair(json, 1), std::pair(encoded, 3)}) {
                for (std::size_t place = 3000; place < 3100; place += 9) {
                    std::string body = text;
                    body.replace(place, value.size(), value);
                    const std::string input = chunked ? postChunked(body, 333) : post(body);
                    for (const std::size_t step :
                         {std::size_t(1), std::size_t(7), std::size_t(100), std::size_t(1024)}) {
                        const Result result = run(guardOf(guard::Mode::Refuse, 1024), input, step);
                        QVERIFY(!result.ok);
                        QCOMPARE(result.status, 403);
                        QVERIFY(result.refusal && result.refusal->cut);
                        QVERIFY(!result.out.empty()); // it was streaming: the head and part of the body went
                        QVERIFY2(result.out.size() <= input.find(value) + skip,
                                 qPrintable(QStringLiteral("%1 bytes sent, the value at %2")
                                                .arg(result.out.size())
                                                .arg(input.find(value))));
                        QCOMPARE(result.out, input.substr(0, result.out.size()));
                    }
                }
            }
        }
    }

    void aStreamedBodyIsCompleteOnlyOnceAllOfItWasScanned()
    {
        std::string body(200 * 1024, 'x');
        for (std::size_t i = 0; i < body.size(); i += 13)
            body[i] = char('a' + i % 26);
        for (const std::string &input : {post(body), postChunked(body, 4000)}) {
            inject::RequestStream stream("llm.test", nullptr, 16 * 1024);
            stream.setGuard(guardOf(guard::Mode::Refuse, 1024));
            std::string out;
            std::vector<inject::RequestNote> notes;
            const std::size_t step = 1000;
            for (std::size_t at = 0; at < input.size(); at += step) {
                QVERIFY(stream.feed(std::string_view(input).substr(at, step), out, notes));
                if (at + step < input.size()) { // streaming, but never the whole message before its end
                    QVERIFY(out.size() + Canary.size() <= at + step);
                    QVERIFY(out.size() + step >= at);
                }
            }
            QCOMPARE(out, input);
        }
    }
};

QTEST_GUILESS_MAIN(TestSecretGuard)
#include "tst_secret_guard.moc"
