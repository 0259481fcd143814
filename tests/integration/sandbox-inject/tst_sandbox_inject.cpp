// SPDX-License-Identifier: GPL-3.0-or-later
// A provider key goes from the keychain to the provider, never into the sandbox: the real
// daemon and CLI, a real bubblewrap sandbox running curl, a local HTTPS upstream (trusted with
// `paddock ca trust`, its names led to 127.0.0.1 by the policy's resolver overrides) that
// records the request heads it receives and streams server-sent events.
#include "../proxy-inject/InjectTestSupport.h"
#include "BusyCores.h"
#include "KeyringSession.h"
#include "SandboxFixture.h"
#include "TestFiles.h"

#include "api/DaemonConnection.h"

#include "Needs.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QUuid>

using paddock::proxy::testing::bearerModelKey;
using paddock::proxy::testing::CertificateFactory;
using paddock::proxy::testing::EchoServer;
using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

const QStringList kNames{QStringLiteral("api.inject.test"), QStringLiteral("other.inject.test"),
                         QStringLiteral("basic.inject.test"), QStringLiteral("header.inject.test")};

QByteArray newKey(const char *prefix)
{
    return QByteArray(prefix) + QUuid::createUuid().toByteArray(QUuid::Id128);
}

} // namespace

class TestSandboxInject : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void requiredKeyNotStoredStopsTheRun();
    void unapprovedKeyStopsANonInteractiveRun();
    void bearerKeyReachesTheUpstreamAndTheSandboxSeesTheSentinel();
    void methodPathRuleRefusesPostWhileGetPasses();
    void serverSentEventsArriveOneByOne();
    void redirectToAnotherHostDoesNotCarryTheKey();
    void basicSchemeAndHeaderFormatKits();
    void echoedKeyNeverReachesTheSandbox();
    void personAtATerminalIsAsked();
    void sandboxFoundAgainAfterADaemonRestartStillGetsItsKey();
    void changedKeyIsInjectedAfterTheChange();
    void revokedBindingOrRemovedKeyIsNoLongerInjected();
    void keyIsInNoFile();

private:
    QString kitPath(const QString &name) const { return m_fixture->path(QStringLiteral("kits/") + name); }
    bool writeKit(const QString &name, const QString &credential);
    bool makeUpstreamCertificate();
    /** Runs paddock without blocking the event loop the upstream answers on. */
    Finished paddock(const QStringList &arguments, const QByteArray &input = {},
                     const std::function<void(const QByteArray &)> &onOutput = {});
    Finished runInSandbox(const QString &kit, const QString &name, const QString &script,
                          const std::function<void(const QByteArray &)> &onOutput = {});
    QList<EchoServer::Request> requestsFor(const QByteArray &target) const;
    /** The head the upstream received for one request to @p path from the sandbox "kept". */
    QByteArray headFromKept(const QString &path);

    std::unique_ptr<SandboxFixture> m_fixture;
    std::unique_ptr<CertificateFactory> m_certificates;
    EchoServer m_upstream;
    QProcessEnvironment m_env;
    QByteArray m_llmKey = newKey("sk-llm-");
    QByteArray m_gitKey = newKey("gh-");
    QByteArray m_headerKey = newKey("hk-");
    QList<QByteArray> m_replacedKeys; ///< llm keys set before the current one
};

void TestSandboxInject::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty() &&
                     !QStandardPaths::findExecutable(QStringLiteral("curl")).isEmpty(),
                 "bubblewrap and curl");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    m_env = QProcessEnvironment::systemEnvironment();
    m_env.insert(QStringLiteral("PADDOCKD"), QStringLiteral(PADDOCKD_BIN));
    m_env.insert(QStringLiteral("PADDOCK_INIT"), QStringLiteral(PADDOCK_INIT_BIN));
    m_env.insert(QStringLiteral("DOCKER_HOST"),
                 QStringLiteral("unix://") + m_fixture->path(QStringLiteral("no-docker")));
    m_env.remove(QStringLiteral("JOURNAL_STREAM"));

    QDir().mkpath(m_fixture->path(QStringLiteral("certs")));
    m_certificates = std::make_unique<CertificateFactory>(m_fixture->path(QStringLiteral("certs")));
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("upstream-ca"), QStringLiteral("Inject Test Upstream CA")));
    QVERIFY(makeUpstreamCertificate());
    QVERIFY(m_upstream.start(m_certificates->path(QStringLiteral("upstream.pem")),
                             m_certificates->path(QStringLiteral("upstream.key"))));

    // The upstream's authority, trusted the way a user trusts a company's: by the proxy for
    // upstream connections and by sandboxes through the bundle.
    const Finished trusted = paddock(
        {QStringLiteral("ca"), QStringLiteral("trust"), m_certificates->path(QStringLiteral("upstream-ca.pem"))});
    QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.err));

    // The test names lead to the upstream; the daemon reads policy.yaml again when restarted.
    paddock::policy::PolicyStore store(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
    store.load();
    for (const QString &name : kNames)
        QVERIFY(store.setResolveOverride(name, QHostAddress(QStringLiteral("127.0.0.1"))).ok());
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());

    QVERIFY(writeKit(QStringLiteral("bearer"), bearerModelKey()));
    QVERIFY(writeKit(QStringLiteral("basic"), QStringLiteral(R"(  - service: gitsvc
    required: true
    apiKey:
      name: GIT_TOKEN
      proxyManaged: true
      inject:
        - domain: basic.inject.test
          scheme: basic
          username: bot
)")));
    QVERIFY(writeKit(QStringLiteral("header"), QStringLiteral(R"(  - service: search
    required: true
    apiKey:
      name: SEARCH_KEY
      proxyManaged: true
      inject:
        - domain: header.inject.test
          header: X-Api-Key
          format: "Token %s"
)")));
}

bool TestSandboxInject::makeUpstreamCertificate()
{
    const QString dir = m_fixture->path(QStringLiteral("certs"));
    QFile extensions(dir + QStringLiteral("/upstream.ext"));
    if (!extensions.open(QIODevice::WriteOnly))
        return false;
    QStringList names;
    for (const QString &name : kNames)
        names << QStringLiteral("DNS:") + name;
    extensions.write(QStringLiteral("subjectAltName=%1\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                                    "extendedKeyUsage=serverAuth\n")
                         .arg(names.join(QLatin1Char(',')))
                         .toUtf8());
    extensions.close();
    const auto openssl = [&dir](const QStringList &arguments) {
        QProcess process;
        process.setWorkingDirectory(dir);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral("openssl"), arguments);
        const bool ok = process.waitForFinished(30000) && process.exitCode() == 0;
        if (!ok)
            qWarning().noquote() << process.readAll();
        return ok;
    };
    return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                    QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                    QStringLiteral("upstream.key"), QStringLiteral("-out"), QStringLiteral("upstream.csr"),
                    QStringLiteral("-subj"), QStringLiteral("/CN=api.inject.test")}) &&
           openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                    QStringLiteral("upstream.csr"), QStringLiteral("-CA"), QStringLiteral("upstream-ca.pem"),
                    QStringLiteral("-CAkey"), QStringLiteral("upstream-ca.key"), QStringLiteral("-CAcreateserial"),
                    QStringLiteral("-out"), QStringLiteral("upstream.pem"), QStringLiteral("-days"),
                    QStringLiteral("30"), QStringLiteral("-extfile"), QStringLiteral("upstream.ext")});
}

bool TestSandboxInject::writeKit(const QString &name, const QString &credential)
{
    QStringList allow;
    for (const QString &host : kNames)
        allow << QStringLiteral("      - %1:%2").arg(host).arg(m_upstream.serverPort());
    const QByteArray spec = paddock::test::shellKitSpec(name, QStringLiteral(R"(environment:
  variables:
    SSL_CERT_FILE: /nowhere.pem
credentials:
%1permissions:
  network:
    allow:
%2
)")
                                                                  .arg(credential, allow.join(QLatin1Char('\n'))));
    return paddock::test::writeFile(kitPath(name) + QStringLiteral("/spec.yaml"), spec);
}

Finished TestSandboxInject::paddock(const QStringList &arguments, const QByteArray &input,
                                    const std::function<void(const QByteArray &)> &onOutput)
{
    QProcess process;
    process.setProcessEnvironment(m_env);
    process.setWorkingDirectory(m_fixture->workspace());
    QByteArray out;
    connect(&process, &QProcess::readyReadStandardOutput, &process, [&] {
        out += process.readAllStandardOutput();
        if (onOutput)
            onOutput(out);
    });
    process.start(QStringLiteral(PADDOCK_BIN), arguments);
    process.write(input);
    process.closeWriteChannel();
    if (!QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, 180000)) {
        process.kill();
        process.waitForFinished();
    }
    out += process.readAllStandardOutput();
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, QString::fromUtf8(out),
            QString::fromUtf8(process.readAllStandardError())};
}

Finished TestSandboxInject::runInSandbox(const QString &kit, const QString &name, const QString &script,
                                         const std::function<void(const QByteArray &)> &onOutput)
{
    return paddock({QStringLiteral("run"), QStringLiteral("--kit"), kitPath(kit), QStringLiteral("--name"), name,
                    m_fixture->workspace(), QStringLiteral("--"), script},
                   {}, onOutput);
}

QList<EchoServer::Request> TestSandboxInject::requestsFor(const QByteArray &target) const
{
    QList<EchoServer::Request> found;
    for (const EchoServer::Request &request : m_upstream.requests) {
        if (request.head.split(' ').value(1) == target)
            found << request;
    }
    return found;
}

void TestSandboxInject::requiredKeyNotStoredStopsTheRun()
{
    const Finished run = runInSandbox(QStringLiteral("bearer"), QStringLiteral("no-key"), QStringLiteral("true"));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("`paddock secret set llm`")), qPrintable(run.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("no-key")));
}

void TestSandboxInject::unapprovedKeyStopsANonInteractiveRun()
{
    const Finished stored = paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, m_llmKey);
    QVERIFY2(stored.exitCode == 0, qPrintable(stored.err));

    const Finished run = runInSandbox(QStringLiteral("bearer"), QStringLiteral("unbound"), QStringLiteral("true"));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("llm")) && run.err.contains(QStringLiteral("api.inject.test")) &&
                 run.err.contains(QStringLiteral("paddock binding approve --kit ")) &&
                 run.err.contains(QStringLiteral("--approve-credentials")),
             qPrintable(run.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("unbound")));
    QVERIFY(m_upstream.requests.isEmpty());

    // The daemon refuses as well, whoever asks it: a script or the desktop application.
    paddock::api::DaemonConnection connection;
    QString error;
    QVERIFY2(connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    const QJsonObject params{{QStringLiteral("kit"), kitPath(QStringLiteral("bearer"))},
                             {QStringLiteral("workspace"), m_fixture->workspace()},
                             {QStringLiteral("name"), QStringLiteral("unbound")}};
    const paddock::api::Reply refused = connection.call(QStringLiteral("sandbox.create"), params, 60000);
    QVERIFY(refused.isError());
    QCOMPARE(refused.errorCode(), QStringLiteral("credentials-required"));
    QVERIFY2(refused.errorMessage().contains(QStringLiteral("api.inject.test")), qPrintable(refused.errorMessage()));
    const paddock::api::Reply described = connection.call(QStringLiteral("sandbox.credentials"), params, 60000);
    QVERIFY2(!described.isError(), qPrintable(described.errorMessage()));
    QCOMPARE(described.result().value(QLatin1String("blocked")).toBool(), true);
    const QJsonObject pending =
        described.result().value(QLatin1String("pendingApprovals")).toArray().first().toObject();
    QCOMPARE(pending.value(QLatin1String("service")).toString(), QStringLiteral("llm"));
    QCOMPARE(pending.value(QLatin1String("domains")).toArray(), QJsonArray{QStringLiteral("api.inject.test")});
    QCOMPARE(pending.value(QLatin1String("required")).toBool(), true);

    // What a dialog's "approve" sends: the daemon records the approval and goes on.
    QJsonObject approving = params;
    approving.insert(QStringLiteral("approveCredentials"), true);
    const paddock::api::Reply created = connection.call(QStringLiteral("sandbox.create"), approving, 120000);
    QVERIFY2(!created.isError(), qPrintable(created.errorMessage()));
    QFile bindings(m_fixture->path(QStringLiteral("config/paddock/credentials.yaml")));
    QVERIFY(bindings.open(QIODevice::ReadOnly));
    const QByteArray recorded = bindings.readAll();
    QVERIFY2(recorded.contains("llm") && recorded.contains("api.inject.test"), recorded.constData());
    QVERIFY(
        !connection.call(QStringLiteral("sandbox.remove"), {{QStringLiteral("name"), QStringLiteral("unbound")}}, 60000)
             .isError());
}

void TestSandboxInject::bearerKeyReachesTheUpstreamAndTheSandboxSeesTheSentinel()
{
    m_upstream.requests.clear();
    const QString url = QStringLiteral("https://api.inject.test:%1/echo").arg(m_upstream.serverPort());
    const Finished run = paddock({QStringLiteral("run"), QStringLiteral("--approve-credentials"),
                                  QStringLiteral("--kit"), kitPath(QStringLiteral("bearer")), QStringLiteral("--name"),
                                  QStringLiteral("bearer"), m_fixture->workspace(), QStringLiteral("--"),
                                  QStringLiteral("echo \"variable=$LLM_API_KEY\"; echo \"trust=$SSL_CERT_FILE\"; "
                                                 "curl -sS -o /dev/null -w 'status=%{http_code}\\n' %1; "
                                                 "curl --noproxy '*' -sS -o /dev/null -w 'direct=%{http_code}\\n' %1")
                                      .arg(url)});
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("variable=proxy-managed\n")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("trust=/run/paddock/ca-bundle.pem\n")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("status=200\n")), qPrintable(run.out + run.err));
    // Without the proxy, the connection is captured inside and gets the key the same way.
    QVERIFY2(run.out.contains(QStringLiteral("direct=200\n")), qPrintable(run.out + run.err));
    const QList<EchoServer::Request> seen = requestsFor("/echo");
    QCOMPARE(seen.size(), 2);
    for (const EchoServer::Request &request : seen) {
        QVERIFY2(request.head.contains("\r\nAuthorization: Bearer " + m_llmKey + "\r\n"), request.head.constData());
        QVERIFY(!request.head.contains("proxy-managed"));
    }
}

void TestSandboxInject::serverSentEventsArriveOneByOne()
{
    QStringList sequence;
    m_upstream.sequence = &sequence;
    int received = 0;
    const QString url = QStringLiteral("https://api.inject.test:%1/events").arg(m_upstream.serverPort());
    const Finished run = runInSandbox(QStringLiteral("bearer"), QStringLiteral("bearer"),
                                      QStringLiteral("curl -sSN %1").arg(url), [&](const QByteArray &out) {
                                          // Each event read here lets the upstream send the next.
                                          while (out.count("data: event") > received) {
                                              ++received;
                                              sequence << QStringLiteral("received %1").arg(received);
                                              m_upstream.acknowledge();
                                          }
                                      });
    m_upstream.sequence = nullptr;
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(sequence,
             (QStringList{QStringLiteral("sent 1"), QStringLiteral("received 1"), QStringLiteral("sent 2"),
                          QStringLiteral("received 2"), QStringLiteral("sent 3"), QStringLiteral("received 3")}));
    QVERIFY(requestsFor("/events").first().head.contains("\r\nAuthorization: Bearer " + m_llmKey + "\r\n"));
}

void TestSandboxInject::redirectToAnotherHostDoesNotCarryTheKey()
{
    m_upstream.requests.clear();
    m_upstream.redirectTo = QStringLiteral("https://other.inject.test:%1/landed").arg(m_upstream.serverPort());
    const Finished run = runInSandbox(
        QStringLiteral("bearer"), QStringLiteral("bearer"),
        QStringLiteral("curl -sSL -o /dev/null -w 'status=%{http_code}\\n' https://api.inject.test:%1/redirect")
            .arg(m_upstream.serverPort()));
    QVERIFY2(run.out.contains(QStringLiteral("status=200")), qPrintable(run.out + run.err));
    QCOMPARE(requestsFor("/redirect").size(), 1);
    QVERIFY(requestsFor("/redirect").first().head.contains("Authorization: Bearer " + m_llmKey));
    const QList<EchoServer::Request> landed = requestsFor("/landed");
    QCOMPARE(landed.size(), 1);
    QVERIFY2(landed.first().head.contains("\r\nHost: other.inject.test:"), landed.first().head.constData());
    QVERIFY2(!landed.first().head.contains(m_llmKey), landed.first().head.constData());
    QVERIFY(!landed.first().head.toLower().contains("\r\nauthorization:"));
}

void TestSandboxInject::basicSchemeAndHeaderFormatKits()
{
    QVERIFY(paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("gitsvc")}, m_gitKey).exitCode ==
            0);
    QVERIFY(
        paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("search")}, m_headerKey).exitCode ==
        0);
    m_upstream.requests.clear();
    for (const QString &kit : {QStringLiteral("basic"), QStringLiteral("header")}) {
        const Finished run =
            paddock({QStringLiteral("run"), QStringLiteral("--approve-credentials"), QStringLiteral("--kit"),
                     kitPath(kit), QStringLiteral("--name"), kit, m_fixture->workspace(), QStringLiteral("--"),
                     QStringLiteral("curl -sS -o /dev/null -w 'status=%{http_code}\\n' https://%1.inject.test:%2/%1")
                         .arg(kit)
                         .arg(m_upstream.serverPort())});
        QVERIFY2(run.out.contains(QStringLiteral("status=200")), qPrintable(run.out + run.err));
    }
    QCOMPARE(requestsFor("/basic").size(), 1);
    QVERIFY2(requestsFor("/basic").first().head.contains("\r\nAuthorization: Basic " + ("bot:" + m_gitKey).toBase64() +
                                                         "\r\n"),
             requestsFor("/basic").first().head.constData());
    QCOMPARE(requestsFor("/header").size(), 1);
    QVERIFY2(requestsFor("/header").first().head.contains("\r\nX-Api-Key: Token " + m_headerKey + "\r\n"),
             requestsFor("/header").first().head.constData());
}

void TestSandboxInject::echoedKeyNeverReachesTheSandbox()
{
    // An upstream that echoes every request header, into its headers and its body (chunked, and
    // with a length), a few bytes at a time. curl in the sandbox prints what it received, raw
    // and decoded: the key in neither, and the second header reached the upstream as it was.
    m_upstream.requests.clear();
    const auto echoes = [this](const QString &host, const QString &extra) {
        QStringList commands;
        for (const QString &path : {QStringLiteral("echo-chunked"), QStringLiteral("echo-length")}) {
            for (const QString &mode : {QStringLiteral("--raw"), QString()})
                commands << QStringLiteral("curl -sSi %1 -H 'X-Second: proxy-managed' %2 https://%3:%4/%5")
                                .arg(mode, extra, host)
                                .arg(m_upstream.serverPort())
                                .arg(path);
        }
        return commands.join(QStringLiteral("; "));
    };
    const Finished bearer =
        runInSandbox(QStringLiteral("bearer"), QStringLiteral("bearer"), echoes(QStringLiteral("api.inject.test"), {}));
    QVERIFY2(bearer.exitCode == 0, qPrintable(bearer.err));
    QCOMPARE(bearer.out.count(QStringLiteral("X-Echo-Authorization: Bearer proxy-managed*")), 4);
    QVERIFY2(!bearer.out.contains(QString::fromLatin1(m_llmKey)), qPrintable(bearer.out));
    const Finished basic =
        runInSandbox(QStringLiteral("basic"), QStringLiteral("basic"),
                     echoes(QStringLiteral("basic.inject.test"), QStringLiteral("-u bot:$GIT_TOKEN")));
    QVERIFY2(basic.exitCode == 0, qPrintable(basic.err));
    // In all but the raw chunked body, whose chunks split the line.
    QCOMPARE(basic.out.count(QStringLiteral("decoded: bot:proxy-managed*")), 3);
    QVERIFY2(!basic.out.contains(QString::fromLatin1(m_gitKey)), qPrintable(basic.out));
    QVERIFY2(!basic.out.contains(QString::fromLatin1(("bot:" + m_gitKey).toBase64())), qPrintable(basic.out));

    QCOMPARE(m_upstream.requests.size(), 8);
    for (const EchoServer::Request &request : std::as_const(m_upstream.requests)) {
        QVERIFY2(request.head.contains("\r\nX-Second: proxy-managed\r\n"), request.head.constData());
        QVERIFY(request.head.contains(m_llmKey) || request.head.contains(("bot:" + m_gitKey).toBase64()));
    }
}

void TestSandboxInject::personAtATerminalIsAsked()
{
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("script")).isEmpty(),
                 "script (util-linux), which gives the run a terminal");
    // The search kit's key, approved here for header.inject.test already, is wanted by a
    // second kit for another domain: the run asks, and goes on once the answer is "approve".
    QVERIFY(writeKit(QStringLiteral("asking"), QStringLiteral(R"(  - service: search
    description: Search for the agent
    required: true
    apiKey:
      name: SEARCH_KEY
      proxyManaged: true
      inject:
        - domain: other.inject.test
          header: X-Api-Key
          format: "Token %s"
)")));
    const QString command =
        QStringLiteral("%1 run --kit %2 --name asking %3 -- 'echo ran-after-approval'")
            .arg(QStringLiteral(PADDOCK_BIN), kitPath(QStringLiteral("asking")), m_fixture->workspace());
    QProcess script;
    script.setProcessEnvironment(m_env);
    script.setProcessChannelMode(QProcess::MergedChannels);
    QByteArray seen;
    bool answered = false;
    connect(&script, &QProcess::readyRead, &script, [&] {
        seen += script.readAll();
        // Answered once the question is on the screen, as a person would.
        if (!answered && seen.contains("[A]pprove all")) {
            answered = true;
            script.write("a\n");
        }
    });
    script.start(QStringLiteral("script"), {QStringLiteral("-q"), QStringLiteral("-e"), QStringLiteral("-c"), command,
                                            QStringLiteral("/dev/null")});
    QVERIFY(QTest::qWaitFor([&script] { return script.state() == QProcess::NotRunning; }, 180000));
    seen += script.readAll();
    QVERIFY2(answered, seen.constData());
    QVERIFY2(seen.contains("Search for the agent") && seen.contains("other.inject.test"), seen.constData());
    QVERIFY2(seen.contains("ran-after-approval"), seen.constData());
    QCOMPARE(script.exitCode(), 0);
    QFile bindings(m_fixture->path(QStringLiteral("config/paddock/credentials.yaml")));
    QVERIFY(bindings.open(QIODevice::ReadOnly));
    QVERIFY(bindings.readAll().contains("other.inject.test"));
}

void TestSandboxInject::sandboxFoundAgainAfterADaemonRestartStillGetsItsKey()
{
    const Finished started =
        paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                 kitPath(QStringLiteral("bearer")), QStringLiteral("--name"), QStringLiteral("kept"),
                 m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("sleep 600")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    // A daemon that dies and comes back knows nothing in memory: no authority loaded, no rules.
    m_fixture->killDaemon();
    QVERIFY(m_fixture->startDaemon());
    m_upstream.requests.clear();
    const Finished exec =
        paddock({QStringLiteral("exec"), QStringLiteral("kept"), QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("curl -sS -o /dev/null -w 'status=%{http_code}\\n' https://api.inject.test:%1/kept")
                     .arg(m_upstream.serverPort())});
    QVERIFY2(exec.out.contains(QStringLiteral("status=200")), qPrintable(exec.out + exec.err));
    QCOMPARE(requestsFor("/kept").size(), 1);
    QVERIFY(requestsFor("/kept").first().head.contains("\r\nAuthorization: Bearer " + m_llmKey + "\r\n"));
}

QByteArray TestSandboxInject::headFromKept(const QString &path)
{
    const QByteArray target = path.toUtf8();
    const Finished exec =
        paddock({QStringLiteral("exec"), QStringLiteral("kept"), QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("curl -sS -o /dev/null -w 'status=%{http_code}\\n' https://api.inject.test:%1%2")
                     .arg(m_upstream.serverPort())
                     .arg(path)});
    const QList<EchoServer::Request> seen = requestsFor(target);
    if (!exec.out.contains(QStringLiteral("status=")) || seen.isEmpty())
        qWarning().noquote() << "no request for" << path << "reached the upstream:" << exec.out << exec.err;
    return seen.isEmpty() ? QByteArray() : seen.last().head;
}

void TestSandboxInject::changedKeyIsInjectedAfterTheChange()
{
    // The key of "kept" has been used: the daemon holds it now, and must not go on sending it
    // once the user replaced it. The very next request carries the new key, on a machine kept
    // busy meanwhile (two shells spinning on its two cores).
    const paddock::test::BusyCores load;
    m_upstream.requests.clear();
    QVERIFY(headFromKept(QStringLiteral("/held")).contains("\r\nAuthorization: Bearer " + m_llmKey + "\r\n"));
    QVERIFY(headFromKept(QStringLiteral("/held-again")).contains("\r\nAuthorization: Bearer " + m_llmKey + "\r\n"));
    const QByteArray changed = newKey("sk-llm-changed-");
    const Finished stored = paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, changed);
    QVERIFY2(stored.exitCode == 0, qPrintable(stored.err));
    // The daemon wrote the keychain (one writer), not the command line beside it.
    QVERIFY2(m_fixture->daemonLog().contains(QLatin1String("stored the key of llm")),
             qPrintable(m_fixture->daemonLog().right(2000)));
    m_replacedKeys << m_llmKey;
    m_llmKey = changed;
    const QByteArray head = headFromKept(QStringLiteral("/changed"));
    QVERIFY2(head.contains("\r\nAuthorization: Bearer " + changed + "\r\n"), head.constData());
    QVERIFY(!head.contains(m_replacedKeys.last()));
}

void TestSandboxInject::revokedBindingOrRemovedKeyIsNoLongerInjected()
{
    // Each change is in force when its command returns: the very next request sees it, on a
    // machine kept busy meanwhile (two shells spinning on its two cores).
    const paddock::test::BusyCores load;
    m_upstream.requests.clear();
    QVERIFY(headFromKept(QStringLiteral("/before-revoke")).contains("Bearer " + m_llmKey));
    const Finished revoked = paddock({QStringLiteral("binding"), QStringLiteral("revoke"), QStringLiteral("llm")});
    QVERIFY2(revoked.exitCode == 0, qPrintable(revoked.err));
    // The daemon made the change (one writer), not the command line beside it.
    QVERIFY2(m_fixture->daemonLog().contains(QLatin1String("revoked the binding of llm")),
             qPrintable(m_fixture->daemonLog().right(2000)));
    const QByteArray afterRevoke = headFromKept(QStringLiteral("/revoked"));
    QVERIFY2(!afterRevoke.isEmpty() && !afterRevoke.contains(m_llmKey), afterRevoke.constData());

    const Finished approved = paddock({QStringLiteral("binding"), QStringLiteral("approve"), QStringLiteral("--all"),
                                       QStringLiteral("--kit"), kitPath(QStringLiteral("bearer"))});
    QVERIFY2(approved.exitCode == 0, qPrintable(approved.err));
    QVERIFY2(m_fixture->daemonLog().contains(QLatin1String("approved llm of kit")),
             qPrintable(m_fixture->daemonLog().right(2000)));
    const QByteArray afterApprove = headFromKept(QStringLiteral("/approved-again"));
    QVERIFY2(afterApprove.contains("\r\nAuthorization: Bearer " + m_llmKey + "\r\n"), afterApprove.constData());

    const Finished removed = paddock({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("llm")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    const QByteArray head = headFromKept(QStringLiteral("/removed"));
    QVERIFY2(!head.contains(m_llmKey), head.constData());
    for (const EchoServer::Request &request : std::as_const(m_upstream.requests)) {
        if (request.head.contains(" /removed") || request.head.contains(" /revoked"))
            QVERIFY2(!request.head.contains(m_llmKey), request.head.constData());
    }
}

void TestSandboxInject::methodPathRuleRefusesPostWhileGetPasses()
{
    // Inside TLS Paddock terminates for the bound key, each request is decided and recorded.
    const QString host = QStringLiteral("api.inject.test:%1").arg(m_upstream.serverPort());
    const Finished denied = paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"), host,
                                     QStringLiteral("--method"), QStringLiteral("POST"), QStringLiteral("--path"),
                                     QStringLiteral("/gists")});
    QVERIFY2(denied.exitCode == 0, qPrintable(denied.err));
    const QString id = QRegularExpression(QStringLiteral("\\(rule ([0-9a-f-]+),")).match(denied.out).captured(1);
    QVERIFY(!id.isEmpty());
    m_upstream.requests.clear();
    const QString url = QStringLiteral("https://%1/gists").arg(host);
    const Finished run =
        runInSandbox(QStringLiteral("bearer"), QStringLiteral("bearer"),
                     QStringLiteral("curl -sS -o /dev/null -w 'get=%{http_code}\\n' '%1?token=query-secret'; "
                                    "curl -sS -X POST -d x -w '\\npost=%{http_code}\\n' %1; "
                                    "curl -sS -X POST -d x -o /dev/null -w 'other=%{http_code}\\n' %2")
                         .arg(url, QStringLiteral("https://%1/echo").arg(host)));
    QVERIFY2(run.out.contains(QStringLiteral("get=200\n")), qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("post=403\n")), qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("Rule: ") + id), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("To allow it: paddock policy rm ") + id), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("other=200\n")), qPrintable(run.out + run.err));
    QCOMPARE(requestsFor("/gists?token=query-secret").size(), 1);
    QVERIFY(requestsFor("/gists").isEmpty()); // the POST never reached the upstream

    QJsonArray records;
    QVERIFY(QTest::qWaitFor(
        [&] {
            const Finished log = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--requests"),
                                          QStringLiteral("bearer"), QStringLiteral("--json")});
            records = QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("requests")).toArray();
            // The refused POST is this test's last record: the sandbox has records of earlier tests too.
            return std::any_of(records.begin(), records.end(), [](const QJsonValue &value) {
                return value.toObject().value(QLatin1String("path")).toString() == QLatin1String("/gists");
            });
        },
        10000));
    const QByteArray all = QJsonDocument(records).toJson();
    QVERIFY(!all.contains("query-secret") && !all.contains(m_llmKey));
    QJsonObject get, post;
    for (const QJsonValue &value : std::as_const(records)) {
        const QJsonObject record = value.toObject();
        if (record.value(QLatin1String("path")).toString() == QStringLiteral("/gists?") + QChar(0x2026))
            get = record;
        if (record.value(QLatin1String("path")).toString() == QStringLiteral("/gists"))
            post = record;
    }
    QCOMPARE(get.value(QLatin1String("method")).toString(), QStringLiteral("GET"));
    QCOMPARE(get.value(QLatin1String("status")).toInt(), 200);
    QCOMPARE(get.value(QLatin1String("protocol")).toString(), QStringLiteral("connect"));
    QVERIFY(get.value(QLatin1String("bytesUp")).toDouble() > 0 && get.value(QLatin1String("bytesDown")).toDouble() > 0);
    QCOMPARE(post.value(QLatin1String("method")).toString(), QStringLiteral("POST"));
    QCOMPARE(post.value(QLatin1String("status")).toInt(), 403);
    QCOMPARE(post.value(QLatin1String("rule")).toString(), id);
    QCOMPARE(post.value(QLatin1String("outcome")).toString(), QStringLiteral("denied"));
    // Which program made them, inside the TLS Paddock terminates as on plain HTTP.
    QCOMPARE(get.value(QLatin1String("program")).toString(), QStringLiteral("curl"));
    QCOMPARE(post.value(QLatin1String("program")).toString(), QStringLiteral("curl"));
    QVERIFY2(post.value(QLatin1String("command")).toString().contains(QStringLiteral("-X POST")),
             qPrintable(post.value(QLatin1String("command")).toString()));

    QCOMPARE(paddock({QStringLiteral("policy"), QStringLiteral("rm"), id}).exitCode, 0);
}

void TestSandboxInject::keyIsInNoFile()
{
    // Every file Paddock and its sandboxes wrote: XDG config, state (event database, logs),
    // data (sandbox homes, records), runtime, the daemon's log and the workspace.
    QStringList roots;
    for (const char *dir : {"config", "state", "data", "run", "workspace"})
        roots << m_fixture->path(QLatin1String(dir));
    QStringList searched;
    QStringList leaks;
    for (const QString &root : std::as_const(roots)) {
        QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (!it.fileInfo().isFile())
                continue; // sockets
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QByteArray contents = file.readAll();
            searched << path;
            for (const QByteArray &key :
                 QList<QByteArray>{m_llmKey, m_gitKey, m_headerKey, ("bot:" + m_gitKey).toBase64()} + m_replacedKeys) {
                if (contents.contains(key))
                    leaks << path;
            }
        }
    }
    // The daemon's log (under state, searched above) tells of the injection, never the key.
    QFile log(m_fixture->path(QStringLiteral("state/paddock/paddockd.log")));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray logText = log.readAll();
    QVERIFY2(logText.contains("injected domain"), logText.constData());
    QFile output(m_fixture->path(QStringLiteral("paddockd.out")));
    if (output.open(QIODevice::ReadOnly)) {
        const QByteArray outputText = output.readAll();
        for (const QByteArray &key : QList<QByteArray>{m_llmKey, m_gitKey, m_headerKey} + m_replacedKeys)
            QVERIFY(!outputText.contains(key));
    }
    QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(QLatin1Char('\n'))));
    // The search covered what it is meant to: the event database and a sandbox's home.
    QVERIFY2(std::any_of(searched.begin(), searched.end(),
                         [](const QString &p) { return p.endsWith(QLatin1String("events.sqlite")); }),
             qPrintable(searched.join(QLatin1Char('\n'))));
    QVERIFY(std::any_of(searched.begin(), searched.end(),
                        [](const QString &p) { return p.contains(QLatin1String("/sandbox-credentials/")); }));
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSandboxInject, QCoreApplication)

#include "tst_sandbox_inject.moc"
