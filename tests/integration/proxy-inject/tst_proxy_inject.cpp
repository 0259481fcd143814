// SPDX-License-Identifier: GPL-3.0-or-later
// A provider key reaches the upstream only through the proxy: curl in the role of the sandbox
// holds the sentinel, the proxy terminates TLS for the inject domain with a leaf from a test
// authority, sets the header and re-encrypts to a local HTTPS upstream it verifies.

#include "InjectTestSupport.h"
#include "ProxyTestSupport.h"

#include <QEventLoop>
#include <QMutex>

#include <atomic>
#include <functional>
#include <future>

using namespace paddock::proxy;
using paddock::Result;
using namespace paddock::proxy::testing;

namespace {

const QByteArray Key = "sk-test-4f1c9a7e2b6d-SECRET";
const QByteArray Sentinel = "proxy-managed";

QMutex messagesMutex;
QStringList messages;
QtMessageHandler previousHandler = nullptr;

// Every log line the proxy writes during the tests is kept, to check that no key is in one.
void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        const QMutexLocker lock(&messagesMutex);
        messages << message;
    }
    if (previousHandler)
        previousHandler(type, context, message);
}

} // namespace

class TestProxyInject : public QObject
{
    Q_OBJECT

private:
    /** curl's arguments for one request through the proxy, trusting the sandbox bundle. */
    QStringList curlArguments(const QString &url, const QStringList &extra = {}) const
    {
        QStringList arguments{QStringLiteral("-sS"),
                              QStringLiteral("--proxy"),
                              m_proxy->url(),
                              QStringLiteral("--cacert"),
                              m_certs->path(QStringLiteral("sandbox-bundle.pem")),
                              QStringLiteral("-w"),
                              QStringLiteral("\nSTATUS %{http_code}\n")};
        return arguments + extra + QStringList{url};
    }

    /** Runs curl while this thread keeps serving the upstreams. */
    RunResult curl(const QStringList &arguments, const std::function<void(QProcess &)> &onOutput = {})
    {
        return runClient(QStringLiteral("curl"), arguments, onOutput);
    }

    RunResult runClient(const QString &program, const QStringList &arguments,
                        const std::function<void(QProcess &)> &onOutput = {}, const QByteArray &input = {})
    {
        QProcess process;
        process.setProcessEnvironment(isolatedEnvironment(m_home.path()));
        QEventLoop loop;
        connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
        if (onOutput)
            connect(&process, &QProcess::readyReadStandardOutput, this, [&] { onOutput(process); });
        QTimer::singleShot(60000, &loop, &QEventLoop::quit);
        process.start(program, arguments);
        if (process.waitForStarted()) {
            process.write(input);
            process.closeWriteChannel();
            loop.exec();
        }
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
        }
        RunResult result;
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = onOutput ? m_streamed : process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        return result;
    }

    QString url(const EchoServer &server, const QString &host, const QString &path) const
    {
        return QStringLiteral("https://%1:%2%3").arg(host).arg(server.serverPort()).arg(path);
    }

    InjectRule rule(const QString &header, const QString &format, QByteArray secret) const
    {
        InjectRule made;
        made.domain = QStringLiteral("llm.test");
        made.header = header;
        made.format = format;
        made.secret = [secret] { return secret; };
        return made;
    }

    bool intercept(std::vector<InjectRule> rules)
    {
        InterceptionConfig config;
        config.leafFor = m_certs->leafIssuer();
        config.upstreamCaBundlePath = m_certs->path(QStringLiteral("upstream-bundle.pem"));
        config.rules = std::move(rules);
        const Result<void> set = m_proxy->engine.setInterception(m_proxy->endpoint, std::move(config));
        if (!set)
            qWarning() << set.error().text();
        return set.ok();
    }

    /**
     * Sends @p requests through the proxy to llm.test over TLS with openssl s_client, in the role
     * of the sandbox: its output is every byte the sandbox received, undecoded.
     */
    RunResult rawExchange(const QByteArray &requests)
    {
        return runClient(QStringLiteral("openssl"),
                         {QStringLiteral("s_client"), QStringLiteral("-quiet"), QStringLiteral("-proxy"),
                          QStringLiteral("127.0.0.1:%1").arg(m_proxy->port), QStringLiteral("-connect"),
                          QStringLiteral("llm.test:%1").arg(m_llm->serverPort()), QStringLiteral("-servername"),
                          QStringLiteral("llm.test"), QStringLiteral("-CAfile"),
                          m_certs->path(QStringLiteral("sandbox-bundle.pem")), QStringLiteral("-verify_return_error")},
                         {}, requests);
    }

    /** An echoing request for @p path on llm.test with @p headers, the last one closing. */
    QByteArray echoRequest(const QByteArray &path, const QByteArray &headers, bool last) const
    {
        return "GET " + path + " HTTP/1.1\r\nHost: llm.test:" + QByteArray::number(m_llm->serverPort()) + "\r\n" +
               headers + (last ? "Connection: close\r\n" : "") + "\r\n";
    }

    /**
     * Splits what s_client received into the responses to the two echo requests (chunked, then
     * with a length), checking that each is framed as it says and nothing is left over.
     */
    static bool splitEchoes(const QByteArray &received, QByteArray heads[2], QByteArray bodies[2])
    {
        qsizetype at = 0;
        for (int i = 0; i < 2; ++i) {
            const qsizetype end = received.indexOf("\r\n\r\n", at);
            if (end < 0)
                return false;
            heads[i] = received.mid(at, end + 4 - at);
            at = end + 4;
            if (i == 0) {
                qsizetype used = 0;
                if (!decodeChunked(received.mid(at), used, bodies[i]))
                    return false;
                at += used;
            } else {
                const QByteArray lower = heads[i].toLower();
                const qsizetype field = lower.indexOf("\r\ncontent-length:");
                const qsizetype length =
                    lower.mid(field + 17, lower.indexOf("\r\n", field + 2) - field - 17).trimmed().toLongLong();
                bodies[i] = received.mid(at, length);
                at += length;
                if (bodies[i].size() != length)
                    return false;
            }
        }
        return at == received.size();
    }

    /** The key appears in no event and no log line the proxy wrote. */
    void verifyNoKeyLeaked()
    {
        for (const ProxyEvent &event : m_proxy->log.events()) {
            for (const QString &field : {event.host, event.rule, event.reason, event.sandbox, event.kit})
                QVERIFY2(!field.contains(QString::fromLatin1(Key)), qPrintable(field));
        }
        const auto captured = [] {
            const QMutexLocker lock(&messagesMutex);
            return !messages.isEmpty();
        };
        QTRY_VERIFY(captured()); // the proxy's debug output is being captured
        const QMutexLocker lock(&messagesMutex);
        for (const QString &message : std::as_const(messages))
            QVERIFY2(!message.contains(QString::fromLatin1(Key)), qPrintable(message));
    }

    QTemporaryDir m_home;
    std::unique_ptr<CertificateFactory> m_certs;
    std::unique_ptr<ProxyUnderTest> m_proxy;
    std::unique_ptr<EchoServer> m_llm;       // llm.test: the inject domain
    std::unique_ptr<EchoServer> m_other;     // other.test: allowed, no credential
    std::unique_ptr<EchoServer> m_untrusted; // untrusted.test: certificate from an unknown authority
    QByteArray m_streamed;

    /** A proxy with one endpoint, allowing the three upstreams, each mapped to loopback. */
    bool startProxy()
    {
        m_proxy = std::make_unique<ProxyUnderTest>();
        if (!m_proxy->start())
            return false;
        for (const QString &host :
             {QStringLiteral("llm.test"), QStringLiteral("other.test"), QStringLiteral("untrusted.test")}) {
            m_proxy->allowList.allow(host);
            m_proxy->mapToLoopback(host);
        }
        return true;
    }

    /**
     * Intercepts llm.test with a key read that waits for this thread, sends a request so that
     * the read starts, runs @p change here meanwhile, then answers the read. Whether the read
     * got its answer, rather than giving up after 10 s.
     */
    bool keyReadAnsweredWhile(const std::function<void()> &change)
    {
        struct KeyRead
        {
            std::promise<QByteArray> answer;
            std::atomic<bool> asked{false};
            std::atomic<bool> answered{false};
        };
        auto read = std::make_shared<KeyRead>();
        InjectRule waiting = rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), QByteArray());
        waiting.secret = [read, future = read->answer.get_future().share()]() -> QByteArray {
            read->asked = true;
            if (future.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
                return {};
            read->answered = true;
            return future.get();
        };
        if (!intercept({waiting}))
            return false;
        QProcess client;
        client.start(QStringLiteral("openssl"),
                     {QStringLiteral("s_client"), QStringLiteral("-quiet"), QStringLiteral("-proxy"),
                      QStringLiteral("127.0.0.1:%1").arg(m_proxy->port), QStringLiteral("-connect"),
                      QStringLiteral("llm.test:%1").arg(m_llm->serverPort()), QStringLiteral("-servername"),
                      QStringLiteral("llm.test"), QStringLiteral("-CAfile"),
                      m_certs->path(QStringLiteral("sandbox-bundle.pem"))});
        if (!client.waitForStarted())
            return false;
        client.write("GET /waiting HTTP/1.1\r\nHost: llm.test\r\n\r\n");
        if (!QTest::qWaitFor([&read] { return read->asked.load(); }, 10000))
            return false;
        change(); // on this thread, while the key is being read for this thread
        read->answer.set_value(QByteArray(Key));
        // The tunnel is closed either way; once the client saw that, the read is over.
        const bool closed = QTest::qWaitFor([&client] { return client.state() == QProcess::NotRunning; }, 15000);
        return closed && read->answered;
    }

private slots:
    void initTestCase()
    {
        previousHandler = qInstallMessageHandler(captureMessage);
        QLoggingCategory::setFilterRules(QStringLiteral("paddock.proxy*=true"));
        QVERIFY(m_home.isValid());
        QDir(m_home.path()).mkpath(QStringLiteral("certs"));
        m_certs = std::make_unique<CertificateFactory>(m_home.filePath(QStringLiteral("certs")));
        QVERIFY(m_certs->makeAuthority(QStringLiteral("paddock-ca"), QStringLiteral("Paddock Test CA")));
        QVERIFY(m_certs->makeAuthority(QStringLiteral("upstream-ca"), QStringLiteral("Upstream Test CA")));
        QVERIFY(m_certs->makeAuthority(QStringLiteral("rogue-ca"), QStringLiteral("Rogue Test CA")));
        QVERIFY(m_certs->makeLeaf(QStringLiteral("leaf-llm.test"), QStringLiteral("llm.test"),
                                  QStringLiteral("paddock-ca")));
        QVERIFY(m_certs->makeLeaf(QStringLiteral("leaf-untrusted.test"), QStringLiteral("untrusted.test"),
                                  QStringLiteral("paddock-ca")));
        QVERIFY(m_certs->makeLeaf(QStringLiteral("llm"), QStringLiteral("llm.test"), QStringLiteral("upstream-ca")));
        QVERIFY(
            m_certs->makeLeaf(QStringLiteral("other"), QStringLiteral("other.test"), QStringLiteral("upstream-ca")));
        QVERIFY(m_certs->makeLeaf(QStringLiteral("untrusted"), QStringLiteral("untrusted.test"),
                                  QStringLiteral("rogue-ca")));
        // The proxy trusts the upstream authority; the sandbox trusts that and Paddock's.
        QVERIFY(m_certs->bundle(QStringLiteral("upstream-bundle.pem"), {QStringLiteral("upstream-ca.pem")}));
        QVERIFY(m_certs->bundle(QStringLiteral("sandbox-bundle.pem"),
                                {QStringLiteral("upstream-ca.pem"), QStringLiteral("paddock-ca.pem")}));

        m_llm = std::make_unique<EchoServer>();
        m_other = std::make_unique<EchoServer>();
        m_untrusted = std::make_unique<EchoServer>();
        QVERIFY(m_llm->start(m_certs->path(QStringLiteral("llm.pem")), m_certs->path(QStringLiteral("llm.key"))));
        QVERIFY(m_other->start(m_certs->path(QStringLiteral("other.pem")), m_certs->path(QStringLiteral("other.key"))));
        QVERIFY(m_untrusted->start(m_certs->path(QStringLiteral("untrusted.pem")),
                                   m_certs->path(QStringLiteral("untrusted.key"))));
        m_llm->redirectTo = url(*m_other, QStringLiteral("other.test"), QStringLiteral("/landing"));

        QVERIFY(startProxy());
    }

    void init()
    {
        m_llm->requests.clear();
        m_other->requests.clear();
        m_untrusted->requests.clear();
    }

    void cleanupTestCase()
    {
        m_proxy.reset();
        qInstallMessageHandler(previousHandler);
    }

    void bearerKeyIsSetOnEveryRequestOfAKeptAliveConnection()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key)}));
        QFile body(m_home.filePath(QStringLiteral("body.txt")));
        QVERIFY(body.open(QIODevice::WriteOnly));
        body.write(QByteArray(100000, 'x') + "end-of-body");
        body.close();
        const QStringList auth{QStringLiteral("-H"), QStringLiteral("Authorization: Bearer proxy-managed")};
        // One curl, four requests on one connection: GET, POST with a length, chunked POST, GET.
        QStringList arguments = curlArguments(url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/one")), auth);
        arguments << QStringLiteral("--next")
                  << curlArguments(
                         url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/post")),
                         auth + QStringList{QStringLiteral("--data-binary"), QLatin1Char('@') + body.fileName()});
        arguments << QStringLiteral("--next")
                  << curlArguments(
                         url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/chunked")),
                         auth + QStringList{QStringLiteral("-H"), QStringLiteral("Transfer-Encoding: chunked"),
                                            QStringLiteral("--data-binary"), QLatin1Char('@') + body.fileName()});
        arguments << QStringLiteral("--next")
                  << curlArguments(url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/two")),
                                   auth + QStringList{QStringLiteral("-v")});
        const RunResult result = curl(arguments);
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out.count("STATUS 200"), 4);

        QCOMPARE(m_llm->requests.size(), 4);
        for (const EchoServer::Request &request : std::as_const(m_llm->requests)) {
            QCOMPARE(request.connection, m_llm->requests.first().connection); // one upstream connection
            QVERIFY2(request.head.contains("\r\nAuthorization: Bearer " + Key + "\r\n"), request.head.constData());
            QVERIFY2(!request.head.contains(Sentinel), request.head.constData());
            QCOMPARE(request.head.count("Authorization:"), 1);
        }
        QCOMPARE(m_llm->requests.at(1).body, QByteArray(100000, 'x') + "end-of-body");
        QCOMPARE(m_llm->requests.at(2).body, QByteArray(100000, 'x') + "end-of-body");
        QVERIFY(m_llm->requests.at(2).head.contains("Transfer-Encoding: chunked"));
        // The sandbox was shown Paddock's leaf, not the upstream's certificate.
        QVERIFY2(result.err.contains("issuer: CN=Paddock Test CA"), result.err.constData());
        QVERIFY2(result.err.contains("ALPN: server accepted http/1.1"), result.err.constData());

        QTRY_VERIFY(m_proxy->log.count(QStringLiteral("llm.test"), ProxyEvent::Kind::Allowed) >= 5);
        const auto allowed = m_proxy->log.events();
        QVERIFY(std::any_of(allowed.begin(), allowed.end(), [](const ProxyEvent &event) {
            return event.kind == ProxyEvent::Kind::Allowed &&
                   event.reason == QStringLiteral("POST request: Authorization set from the credential for llm.test");
        }));
        verifyNoKeyLeaked();
    }

    void headerFormatAndSentinelInOtherHeaders()
    {
        // The key goes into the rule's header alone: a sentinel elsewhere reaches the upstream as
        // the sentinel, so an upstream that echoes those headers has no key to echo.
        QVERIFY(intercept({rule(QStringLiteral("x-api-key"), QStringLiteral("%s"), Key)}));
        const RunResult result =
            curl(curlArguments(url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/v1/messages")),
                               {QStringLiteral("-H"), QStringLiteral("X-Api-Key: proxy-managed"), QStringLiteral("-H"),
                                QStringLiteral("X-Goog-Api-Key: proxy-managed"), QStringLiteral("-H"),
                                QStringLiteral("Cookie: session=proxy-managed; theme=dark")}));
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(m_llm->requests.size(), 1);
        const QByteArray head = m_llm->requests.first().head;
        QVERIFY2(head.contains("\r\nx-api-key: " + Key + "\r\n"), head.constData());
        QCOMPARE(head.toLower().count("x-api-key:"), 1); // the sandbox's value was replaced, not kept
        QVERIFY2(head.contains("\r\nX-Goog-Api-Key: proxy-managed\r\n"), head.constData());
        QVERIFY2(head.contains("\r\nCookie: session=proxy-managed; theme=dark\r\n"), head.constData());
        QCOMPARE(head.count(Key), 1);
        QVERIFY2(!result.out.contains(Key), result.out.constData()); // the echo came back masked
        verifyNoKeyLeaked();
    }

    void basicAuthorizationFromACallerEncodedSecret()
    {
        const QByteArray encoded = ("apiuser:" + Key).toBase64();
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Basic %s"), encoded)}));
        const RunResult result = curl(curlArguments(url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/basic")),
                                                    {QStringLiteral("-u"), QStringLiteral("apiuser:proxy-managed")}));
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(m_llm->requests.size(), 1);
        const QByteArray head = m_llm->requests.first().head;
        QVERIFY2(head.contains("\r\nAuthorization: Basic " + encoded + "\r\n"), head.constData());
        QCOMPARE(head.count("Authorization:"), 1);
        verifyNoKeyLeaked();
        const QMutexLocker lock(&messagesMutex);
        for (const QString &message : std::as_const(messages))
            QVERIFY(!message.contains(QString::fromLatin1(encoded)));
    }

    void echoingUpstreamNeverHandsTheKeyBack()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key)}));
        const QByteArray headers = "Authorization: Bearer proxy-managed\r\nX-Second: proxy-managed\r\n";
        const RunResult result =
            rawExchange(echoRequest("/echo-chunked", headers, false) + echoRequest("/echo-length", headers, true));
        QCOMPARE(result.exitCode, 0);

        // The upstream received the key, in the configured header only.
        QCOMPARE(m_llm->requests.size(), 2);
        for (const EchoServer::Request &request : std::as_const(m_llm->requests)) {
            QVERIFY2(request.head.contains("\r\nAuthorization: Bearer " + Key + "\r\n"), request.head.constData());
            QVERIFY2(request.head.contains("\r\nX-Second: proxy-managed\r\n"), request.head.constData());
            QCOMPARE(request.head.count(Key), 1);
        }
        // It echoed the key back in headers and bodies; not one byte the sandbox got holds it.
        QVERIFY2(!result.out.contains(Key), result.out.constData());
        QByteArray heads[2];
        QByteArray bodies[2];
        QVERIFY2(splitEchoes(result.out, heads, bodies), result.out.constData()); // framing and lengths hold
        const QByteArray masked = Sentinel + QByteArray(Key.size() - Sentinel.size(), '*');
        for (int i = 0; i < 2; ++i) {
            QVERIFY2(heads[i].contains("\r\nX-Echo-Authorization: Bearer " + masked + "\r\n"), heads[i].constData());
            QVERIFY2(heads[i].contains("\r\nX-Echo-X-Second: proxy-managed\r\n"), heads[i].constData());
            QVERIFY2(bodies[i].contains("\r\nAuthorization: Bearer " + masked + "\r\n"), bodies[i].constData());
            QVERIFY(!bodies[i].contains(Key));
        }
        verifyNoKeyLeaked();
    }

    void echoingUpstreamNeverHandsABasicCredentialBack()
    {
        const QByteArray encoded = ("apiuser:" + Key).toBase64();
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Basic %s"), encoded)}));
        const QByteArray headers = "Authorization: Basic " + QByteArray("apiuser:proxy-managed").toBase64() +
                                   "\r\nX-Second: proxy-managed\r\n";
        const RunResult result =
            rawExchange(echoRequest("/echo-chunked", headers, false) + echoRequest("/echo-length", headers, true));
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(m_llm->requests.size(), 2);
        for (const EchoServer::Request &request : std::as_const(m_llm->requests)) {
            QVERIFY2(request.head.contains("\r\nAuthorization: Basic " + encoded + "\r\n"), request.head.constData());
            QVERIFY2(request.head.contains("\r\nX-Second: proxy-managed\r\n"), request.head.constData());
        }
        // Neither the encoded pair nor the key the upstream decoded from it comes back.
        QVERIFY2(!result.out.contains(encoded), result.out.constData());
        QVERIFY2(!result.out.contains(Key), result.out.constData());
        QByteArray heads[2];
        QByteArray bodies[2];
        QVERIFY2(splitEchoes(result.out, heads, bodies), result.out.constData());
        for (int i = 0; i < 2; ++i) {
            QVERIFY2(bodies[i].contains("\ndecoded: apiuser:proxy-managed*"), bodies[i].constData());
            QVERIFY(!bodies[i].contains(Key) && !bodies[i].contains(encoded));
        }
        verifyNoKeyLeaked();
    }

    void requestForAnotherHostOnTheTunnelGetsNoKey()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key)}));
        const RunResult result =
            curl(curlArguments(url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/elsewhere")),
                               {QStringLiteral("-H"), QStringLiteral("Authorization: Bearer proxy-managed"),
                                QStringLiteral("-H"), QStringLiteral("Host: other.test")}));
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(m_llm->requests.size(), 1);
        const QByteArray head = m_llm->requests.first().head;
        QVERIFY2(head.contains("\r\nAuthorization: Bearer proxy-managed\r\n"), head.constData());
        QVERIFY(!head.contains(Key));
        const auto forwardedPlain = [this] {
            const std::vector<ProxyEvent> events = m_proxy->log.events();
            return std::any_of(events.begin(), events.end(), [](const ProxyEvent &e) {
                return e.reason == QStringLiteral("GET request for other.test forwarded without a credential");
            });
        };
        QTRY_VERIFY(forwardedPlain());
    }

    void serverSentEventsArriveOneByOne()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key)}));
        QStringList sequence;
        m_llm->sequence = &sequence;
        m_streamed.clear();
        int received = 0;
        const RunResult result = curl(
            curlArguments(
                url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/events")),
                {QStringLiteral("-N"), QStringLiteral("-H"), QStringLiteral("Authorization: Bearer proxy-managed")}),
            [&](QProcess &process) {
                m_streamed += process.readAllStandardOutput();
                while (received < 3 && m_streamed.contains("data: event " + QByteArray::number(received + 1) + "\n")) {
                    ++received;
                    sequence << QStringLiteral("received %1").arg(received);
                    m_llm->acknowledge();
                }
            });
        m_llm->sequence = nullptr;
        QCOMPARE(result.exitCode, 0);
        // Each event reached the client before the server sent the next one.
        QCOMPARE(sequence,
                 (QStringList{QStringLiteral("sent 1"), QStringLiteral("received 1"), QStringLiteral("sent 2"),
                              QStringLiteral("received 2"), QStringLiteral("sent 3"), QStringLiteral("received 3")}));
        QVERIFY(m_llm->requests.first().head.contains("Authorization: Bearer " + Key));
    }

    void redirectToAnotherHostCarriesNoKey()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key)}));
        // --location-trusted makes curl resend the header to the new host: only the sentinel may go.
        const RunResult result =
            curl(curlArguments(url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/redirect")),
                               {QStringLiteral("-L"), QStringLiteral("--location-trusted"), QStringLiteral("-H"),
                                QStringLiteral("Authorization: Bearer proxy-managed")}));
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.contains("STATUS 200"));
        QCOMPARE(m_llm->requests.size(), 1);
        QVERIFY(m_llm->requests.first().head.contains("Authorization: Bearer " + Key));
        QCOMPARE(m_other->requests.size(), 1);
        const QByteArray head = m_other->requests.first().head;
        QVERIFY2(head.startsWith("GET /landing "), head.constData());
        QVERIFY2(head.contains("\r\nAuthorization: Bearer proxy-managed\r\n"), head.constData());
        QVERIFY(!head.contains(Key));
    }

    void otherDomainsStayEndToEnd()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key)}));
        const RunResult result = curl(curlArguments(
            url(*m_other, QStringLiteral("other.test"), QStringLiteral("/direct")),
            {QStringLiteral("-v"), QStringLiteral("-H"), QStringLiteral("Authorization: Bearer proxy-managed")}));
        QCOMPARE(result.exitCode, 0);
        // The client sees the upstream's own certificate: the proxy only spliced bytes.
        QVERIFY2(result.err.contains("issuer: CN=Upstream Test CA"), result.err.constData());
        QVERIFY(!result.err.contains("Paddock Test CA"));
        QCOMPARE(m_other->requests.size(), 1);
        QVERIFY(m_other->requests.first().head.contains("Authorization: Bearer proxy-managed"));
        QVERIFY(!m_other->requests.first().head.contains(Key));
    }

    void untrustedUpstreamGets502AndNoKey()
    {
        InjectRule untrusted = rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key);
        untrusted.domain = QStringLiteral("untrusted.test");
        QVERIFY(intercept({untrusted}));
        const RunResult result = curl(curlArguments(
            url(*m_untrusted, QStringLiteral("untrusted.test"), QStringLiteral("/v1")),
            {QStringLiteral("-i"), QStringLiteral("-H"), QStringLiteral("Authorization: Bearer proxy-managed")}));
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("STATUS 502"), result.out.constData());
        QVERIFY2(result.out.contains("X-Paddock-Reason: the certificate of untrusted.test is not trusted"),
                 result.out.constData());
        QVERIFY(m_untrusted->requests.isEmpty()); // the handshake failed: nothing was sent
        QTRY_VERIFY(m_proxy->log.find(QStringLiteral("untrusted.test"), ProxyEvent::Kind::UpstreamFailed));
        verifyNoKeyLeaked();
    }

    void serverNameOtherThanTheTunnelIsRefused()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), Key)}));
        const RunResult result = runClient(
            QStringLiteral("openssl"),
            {QStringLiteral("s_client"), QStringLiteral("-proxy"), QStringLiteral("127.0.0.1:%1").arg(m_proxy->port),
             QStringLiteral("-connect"), QStringLiteral("llm.test:%1").arg(m_llm->serverPort()),
             QStringLiteral("-servername"), QStringLiteral("other.test"), QStringLiteral("-CAfile"),
             m_certs->path(QStringLiteral("sandbox-bundle.pem"))});
        QVERIFY2(result.exitCode != 0, result.out.constData()); // no TLS session to the sandbox
        const auto refused = [this] {
            const std::vector<ProxyEvent> events = m_proxy->log.events();
            return std::any_of(events.begin(), events.end(), [](const ProxyEvent &e) {
                return e.host == QStringLiteral("llm.test") && e.kind == ProxyEvent::Kind::Denied &&
                       e.rule == QStringLiteral("sni") && e.reason.contains(QStringLiteral("other.test"));
            });
        };
        QTRY_VERIFY(refused());
        QVERIFY(m_llm->requests.isEmpty());
    }

    void unavailableCredentialIsRefusedNotForwarded()
    {
        QVERIFY(intercept({rule(QStringLiteral("Authorization"), QStringLiteral("Bearer %s"), QByteArray())}));
        const RunResult result =
            curl(curlArguments(url(*m_llm, QStringLiteral("llm.test"), QStringLiteral("/nokey")),
                               {QStringLiteral("-H"), QStringLiteral("Authorization: Bearer proxy-managed")}));
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("STATUS 503"), result.out.constData());
        QVERIFY(m_llm->requests.isEmpty());
    }

    void rulesChangedWhileAKeyIsReadOnTheCallersThread()
    {
        // The daemon reads keys on its main thread; an intercepted connection's thread waits for
        // that. Changing the rules from the main thread closes the tunnel, which joins that
        // thread: had the call waited for the proxy, each would wait for the other until the
        // key read gave up.
        QVERIFY2(keyReadAnsweredWhile([this] { QVERIFY(intercept({})); }),
                 "the key read waited for a thread that waited for the proxy");
    }

    void endpointRemovedWhileAKeyIsReadOnTheCallersThread()
    {
        // The same with a sandbox stopped: its endpoint goes, and its tunnels with it.
        QVERIFY2(keyReadAnsweredWhile([this] { QVERIFY(m_proxy->engine.removeEndpoint(m_proxy->endpoint)); }),
                 "the key read waited for a thread that waited for the proxy");
        // Later tests get a proxy with an endpoint again.
        QVERIFY(startProxy());
    }
};

QTEST_GUILESS_MAIN(TestProxyInject)
#include "tst_proxy_inject.moc"
