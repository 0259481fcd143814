// SPDX-License-Identifier: GPL-3.0-or-later
// A value of the workspace's .env does not reach the model provider: the real daemon and CLI, a
// real bubblewrap sandbox running curl, a local HTTPS upstream (trusted with `paddock ca trust`,
// its name led to 127.0.0.1 by the policy's resolver overrides) that records every body it gets.
#include "../proxy-inject/InjectTestSupport.h"
#include "KeyringSession.h"
#include "SandboxFixture.h"
#include "TestFiles.h"

#include "Needs.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QUuid>

using paddock::proxy::testing::bearerModelKey;
using paddock::proxy::testing::CertificateFactory;
using paddock::proxy::testing::EchoServer;
using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

const QString kHost = QStringLiteral("api.guard.test");

QByteArray newValue(const char *prefix)
{
    return QByteArray(prefix) + QUuid::createUuid().toByteArray(QUuid::Id128);
}

} // namespace

class TestSandboxSecretGuard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void envValueInABodyIsRefusedInEveryForm();
    void requestWithoutSecretsPassesByteForByte();
    void largeBodyStreamsThroughIntact();
    void valueLateInALargeBodyNeverReachesTheUpstream();
    void redactModeForwardsTheMarker();
    void allowedValuePasses();
    void offModeSaysSoOnStart();
    void listSaysTheMode();
    void unboundKeychainSecretIsRefused();
    void refusalEventNamesTheValue();
    void valueIsInNoFileLogOrEvent();

private:
    QString kitPath() const { return m_fixture->path(QStringLiteral("kits/bearer")); }
    QString url(const QString &path) const
    {
        return QStringLiteral("https://%1:%2%3").arg(kHost).arg(m_upstream.serverPort()).arg(path);
    }
    bool makeUpstreamCertificate();
    Finished paddock(const QStringList &arguments, const QByteArray &input = {});
    Finished runIn(const QString &name, const QString &script, const QStringList &options = {});
    /** The curl line that POSTs workspace file @p file to @p path and prints "LABEL=STATUS". */
    static QString post(const QString &label, const QString &file, const QString &path);
    QList<EchoServer::Request> requestsFor(const QByteArray &target) const;
    bool writeBody(const QString &file, const QByteArray &body) const
    {
        return paddock::test::writeFile(m_fixture->workspace() + QLatin1Char('/') + file, body);
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    std::unique_ptr<CertificateFactory> m_certificates;
    EchoServer m_upstream;
    QProcessEnvironment m_env;
    QByteArray m_llmKey = newValue("sk-llm-");
    QByteArray m_canary = newValue("sk-canary-");
    QByteArray m_unbound = newValue("ghp-unbound-"); ///< a keychain secret no kit of the sandbox binds
    QByteArray m_password = "p@ss/w\"rd-" + QUuid::createUuid().toByteArray(QUuid::Id128).left(12);
};

void TestSandboxSecretGuard::initTestCase()
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
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("upstream-ca"), QStringLiteral("Guard Test Upstream CA")));
    QVERIFY(makeUpstreamCertificate());
    QVERIFY(m_upstream.start(m_certificates->path(QStringLiteral("upstream.pem")),
                             m_certificates->path(QStringLiteral("upstream.key"))));
    const Finished trusted = paddock(
        {QStringLiteral("ca"), QStringLiteral("trust"), m_certificates->path(QStringLiteral("upstream-ca.pem"))});
    QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.err));
    paddock::policy::PolicyStore store(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
    store.load();
    QVERIFY(store.setResolveOverride(kHost, QHostAddress(QStringLiteral("127.0.0.1"))).ok());
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());

    QString credential = bearerModelKey();
    credential.replace(QStringLiteral("api.inject.test"), kHost);
    const QByteArray spec = paddock::test::shellKitSpec(
        QStringLiteral("bearer"),
        QStringLiteral("environment:\n  variables:\n    SSL_CERT_FILE: /nowhere.pem\n"
                       "credentials:\n%1permissions:\n  network:\n    allow:\n      - %2:%3\n")
            .arg(credential, kHost)
            .arg(m_upstream.serverPort()));
    QVERIFY(paddock::test::writeFile(kitPath() + QStringLiteral("/spec.yaml"), spec));
    const Finished stored = paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, m_llmKey);
    QVERIFY2(stored.exitCode == 0, qPrintable(stored.err));

    // The workspace's secrets, as a project keeps them; short and ordinary values are left alone.
    QVERIFY(writeBody(QStringLiteral(".env"), "# local settings\nOPENAI_KEY=" + m_canary +
                                                  "\nPORT=8080\nDEBUG=true\nexport DB_PASSWORD='" + m_password +
                                                  "'\n"));
    const Finished created =
        paddock({QStringLiteral("create"), QStringLiteral("--approve-credentials"), QStringLiteral("--kit"), kitPath(),
                 QStringLiteral("--name"), QStringLiteral("guarded"), m_fixture->workspace()});
    QVERIFY2(created.exitCode == 0, qPrintable(created.out + created.err));
}

bool TestSandboxSecretGuard::makeUpstreamCertificate()
{
    const QString dir = m_fixture->path(QStringLiteral("certs"));
    if (!paddock::test::writeFile(dir + QStringLiteral("/upstream.ext"),
                                  "subjectAltName=DNS:" + kHost.toUtf8() +
                                      "\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                                      "extendedKeyUsage=serverAuth\n"))
        return false;
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
                    QStringLiteral("-subj"), QStringLiteral("/CN=") + kHost}) &&
           openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                    QStringLiteral("upstream.csr"), QStringLiteral("-CA"), QStringLiteral("upstream-ca.pem"),
                    QStringLiteral("-CAkey"), QStringLiteral("upstream-ca.key"), QStringLiteral("-CAcreateserial"),
                    QStringLiteral("-out"), QStringLiteral("upstream.pem"), QStringLiteral("-days"),
                    QStringLiteral("30"), QStringLiteral("-extfile"), QStringLiteral("upstream.ext")});
}

Finished TestSandboxSecretGuard::paddock(const QStringList &arguments, const QByteArray &input)
{
    QProcess process;
    process.setProcessEnvironment(m_env);
    process.setWorkingDirectory(m_fixture->workspace());
    QByteArray out;
    connect(&process, &QProcess::readyReadStandardOutput, &process, [&] { out += process.readAllStandardOutput(); });
    process.start(QStringLiteral(PADDOCK_BIN), arguments);
    process.write(input);
    process.closeWriteChannel();
    // The upstream answers on this thread's event loop while the command runs. The wait ends
    // before the test function's own timeout, so a command that hangs shows what it printed.
    if (!QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, 180000)) {
        process.kill();
        process.waitForFinished();
    }
    out += process.readAllStandardOutput();
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, QString::fromUtf8(out),
            QString::fromUtf8(process.readAllStandardError())};
}

Finished TestSandboxSecretGuard::runIn(const QString &name, const QString &script, const QStringList &options)
{
    QStringList arguments{QStringLiteral("run"), QStringLiteral("--kit"), kitPath(), QStringLiteral("--name"), name};
    arguments << options << m_fixture->workspace() << QStringLiteral("--") << script;
    return paddock(arguments);
}

QString TestSandboxSecretGuard::post(const QString &label, const QString &file, const QString &path)
{
    return QStringLiteral(
               "curl -sS --max-time 60 -o answer-%1.txt -w '%1=%{http_code}\\n' -H 'Content-Type: application/json' "
               "--data-binary @%2 https://%3:$PORT%4; ")
        .arg(label, file, kHost, path);
}

QList<EchoServer::Request> TestSandboxSecretGuard::requestsFor(const QByteArray &target) const
{
    QList<EchoServer::Request> found;
    for (const EchoServer::Request &request : m_upstream.requests) {
        if (request.head.split(' ').value(1) == target)
            found << request;
    }
    return found;
}

void TestSandboxSecretGuard::envValueInABodyIsRefusedInEveryForm()
{
    m_upstream.requests.clear();
    QVERIFY(writeBody(QStringLiteral("plain.json"), "{\"messages\":[{\"content\":\"my key is " + m_canary + "\"}]}"));
    QByteArray escaped = m_password;
    escaped.replace("\"", "\\\"");
    QVERIFY(writeBody(QStringLiteral("escaped.json"), "{\"messages\":[{\"content\":\"db: " + escaped + "\"}]}"));
    for (const QByteArray &prefix : {QByteArray(), QByteArray("#"), QByteArray("# ")}) {
        const QByteArray file = prefix + "OPENAI_KEY=" + m_canary + "\n";
        QVERIFY(writeBody(QStringLiteral("base64-%1.json").arg(prefix.size()),
                          "{\"attachment\":\"" + file.toBase64() + "\"}"));
    }
    QString script = QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort());
    script += post(QStringLiteral("plain"), QStringLiteral("plain.json"), QStringLiteral("/v1/refused"));
    script += post(QStringLiteral("escaped"), QStringLiteral("escaped.json"), QStringLiteral("/v1/refused"));
    for (int i = 0; i < 3; ++i)
        script += post(QStringLiteral("base64-%1").arg(i), QStringLiteral("base64-%1.json").arg(i),
                       QStringLiteral("/v1/refused"));
    script += QStringLiteral("cat answer-plain.txt answer-escaped.txt");
    const Finished run = runIn(QStringLiteral("guarded"), script);
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    for (const QString &label : {QStringLiteral("plain"), QStringLiteral("escaped"), QStringLiteral("base64-0"),
                                 QStringLiteral("base64-1"), QStringLiteral("base64-2")})
        QVERIFY2(run.out.contains(label + QStringLiteral("=403\n")), qPrintable(label + QLatin1Char(' ') + run.out));
    // What the agent reads says which value, from which file, and how it could be allowed.
    QVERIFY2(run.out.contains(QStringLiteral(
                 "Paddock refused this request: it contains the value of OPENAI_KEY from .env (in the request body)")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("it contains the value of DB_PASSWORD from .env")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("paddock guard allow guarded .env 'OPENAI_KEY'")), qPrintable(run.out));
    QVERIFY(!run.out.contains(QString::fromUtf8(m_canary)));
    QVERIFY2(requestsFor("/v1/refused").isEmpty(), "a request with a secret reached the upstream");
}

void TestSandboxSecretGuard::requestWithoutSecretsPassesByteForByte()
{
    m_upstream.requests.clear();
    // The short and ordinary values of .env (PORT, DEBUG) are not looked for.
    const QByteArray body = "{\"messages\":[{\"content\":\"PORT=8080 DEBUG=true sk-canary- \\u00e9 \\\"quoted\\\"\"}]}";
    QVERIFY(writeBody(QStringLiteral("clean.json"), body));
    const Finished run =
        runIn(QStringLiteral("guarded"),
              QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort()) +
                  post(QStringLiteral("clean"), QStringLiteral("clean.json"), QStringLiteral("/v1/clean")));
    QVERIFY2(run.out.contains(QStringLiteral("clean=200\n")), qPrintable(run.out + run.err));
    const QList<EchoServer::Request> seen = requestsFor("/v1/clean");
    QCOMPARE(seen.size(), 1);
    QCOMPARE(seen.first().body, body);
    QVERIFY(seen.first().head.contains("\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n"));
    QVERIFY(seen.first().head.contains("\r\nAuthorization: Bearer " + m_llmKey + "\r\n"));
}

void TestSandboxSecretGuard::largeBodyStreamsThroughIntact()
{
    m_upstream.requests.clear();
    QByteArray big;
    big.reserve(20 * 1024 * 1024);
    QRandomGenerator random(42);
    while (big.size() < 20 * 1024 * 1024) {
        const quint64 word = random.generate64();
        big += QByteArray::number(word, 36) + ' ';
    }
    QVERIFY(writeBody(QStringLiteral("big.txt"), big));
    const Finished run = runIn(QStringLiteral("guarded"),
                               QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort()) +
                                   post(QStringLiteral("big"), QStringLiteral("big.txt"), QStringLiteral("/v1/big")));
    QVERIFY2(run.out.contains(QStringLiteral("big=200\n")), qPrintable(run.out + run.err));
    const QList<EchoServer::Request> seen = requestsFor("/v1/big");
    QCOMPARE(seen.size(), 1);
    QCOMPARE(seen.first().body.size(), big.size());
    QCOMPARE(QCryptographicHash::hash(seen.first().body, QCryptographicHash::Sha256),
             QCryptographicHash::hash(big, QCryptographicHash::Sha256));
    QFile::remove(m_fixture->workspace() + QStringLiteral("/big.txt"));
}

void TestSandboxSecretGuard::valueLateInALargeBodyNeverReachesTheUpstream()
{
    m_upstream.requests.clear();
    m_upstream.received.clear();
    QByteArray big(2 * 1024 * 1024, 'x');
    for (qsizetype i = 0; i < big.size(); i += 61)
        big[i] = char('a' + i % 26);
    big.replace(1536 * 1024, 11 + m_canary.size(), "OPENAI_KEY=" + m_canary);
    QVERIFY(writeBody(QStringLiteral("late.txt"), big));
    const Finished run = runIn(QStringLiteral("guarded"), QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort()) +
                                                              post(QStringLiteral("late"), QStringLiteral("late.txt"),
                                                                   QStringLiteral("/v1/late")));
    QFile::remove(m_fixture->workspace() + QStringLiteral("/late.txt"));
    // The body streamed (the head and its first part went), but the upstream never had the whole
    // request, nor one byte of the value: the connection was cut before it.
    QVERIFY2(m_upstream.received.contains("POST /v1/late HTTP/1.1\r\n"), qPrintable(run.out + run.err));
    QVERIFY(m_upstream.received.size() < big.size());
    QVERIFY(!m_upstream.received.contains("OPENAI_KEY=s"));
    QVERIFY(requestsFor("/v1/late").isEmpty());
    QVERIFY(!run.out.contains(QStringLiteral("late=200")));
    QString log;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     log = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("guarded"),
                                    QStringLiteral("--json")})
                               .out;
                     return log.contains(QStringLiteral("the body had partly gone, the connection was cut"));
                 },
                 20000),
             qPrintable(log));
}

void TestSandboxSecretGuard::redactModeForwardsTheMarker()
{
    m_upstream.requests.clear();
    const QByteArray body = "{\"messages\":[{\"content\":\"key " + m_canary + " and again:" + m_canary + "\"}]}";
    QVERIFY(writeBody(QStringLiteral("redact.json"), body));
    const Finished run =
        runIn(QStringLiteral("redacting"),
              QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort()) +
                  post(QStringLiteral("redact"), QStringLiteral("redact.json"), QStringLiteral("/v1/redacted")),
              {QStringLiteral("--approve-credentials"), QStringLiteral("--secret-guard"), QStringLiteral("redact")});
    QVERIFY2(run.out.contains(QStringLiteral("redact=200\n")), qPrintable(run.out + run.err));
    const QList<EchoServer::Request> seen = requestsFor("/v1/redacted");
    QCOMPARE(seen.size(), 1);
    const QByteArray marker = "[redacted by Paddock: .env OPENAI_KEY]";
    const QByteArray expected = "{\"messages\":[{\"content\":\"key " + marker + " and again:" + marker + "\"}]}";
    QCOMPARE(seen.first().body, expected);
    QVERIFY(seen.first().head.contains("\r\nContent-Length: " + QByteArray::number(expected.size()) + "\r\n"));
}

void TestSandboxSecretGuard::allowedValuePasses()
{
    const Finished allowed = paddock({QStringLiteral("guard"), QStringLiteral("allow"), QStringLiteral("guarded"),
                                      QStringLiteral(".env"), QStringLiteral("OPENAI_KEY")});
    QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.out + allowed.err));
    const Finished shown =
        paddock({QStringLiteral("guard"), QStringLiteral("show"), QStringLiteral("guarded"), QStringLiteral("--json")});
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
    const QJsonObject guard = QJsonDocument::fromJson(shown.out.toUtf8()).object();
    QCOMPARE(guard.value(QLatin1String("mode")).toString(), QStringLiteral("refuse"));
    QVERIFY2(guard.value(QLatin1String("allowed"))
                 .toArray()
                 .contains(QJsonObject{{QStringLiteral("file"), QStringLiteral(".env")},
                                       {QStringLiteral("name"), QStringLiteral("OPENAI_KEY")}}),
             qPrintable(shown.out));
    QVERIFY(!shown.out.contains(QString::fromUtf8(m_canary)));

    m_upstream.requests.clear();
    const Finished run =
        runIn(QStringLiteral("guarded"),
              QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort()) +
                  post(QStringLiteral("allowed"), QStringLiteral("plain.json"), QStringLiteral("/v1/allowed")) +
                  post(QStringLiteral("still"), QStringLiteral("escaped.json"), QStringLiteral("/v1/allowed")));
    QVERIFY2(run.out.contains(QStringLiteral("allowed=200\n")), qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("still=403\n")), qPrintable(run.out + run.err));
    QCOMPARE(requestsFor("/v1/allowed").size(), 1);
    QVERIFY(requestsFor("/v1/allowed").first().body.contains(m_canary));
}

void TestSandboxSecretGuard::offModeSaysSoOnStart()
{
    m_upstream.requests.clear();
    const Finished run =
        runIn(QStringLiteral("unguarded"),
              QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort()) +
                  post(QStringLiteral("off"), QStringLiteral("plain.json"), QStringLiteral("/v1/off")),
              {QStringLiteral("--approve-credentials"), QStringLiteral("--secret-guard"), QStringLiteral("off")});
    QVERIFY2(run.out.contains(QStringLiteral("off=200\n")), qPrintable(run.out + run.err));
    QVERIFY2(run.err.contains(QStringLiteral("the secret guard is off for unguarded")) &&
                 run.err.contains(QStringLiteral("paddock guard set unguarded refuse")),
             qPrintable(run.err));
    QCOMPARE(requestsFor("/v1/off").size(), 1);
}

void TestSandboxSecretGuard::listSaysTheMode()
{
    const Finished listed = paddock({QStringLiteral("ls"), QStringLiteral("--json")});
    QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
    QMap<QString, QString> modes;
    const QJsonDocument document = QJsonDocument::fromJson(listed.out.toUtf8());
    const QJsonArray sandboxes =
        document.isArray() ? document.array() : document.object().value(QLatin1String("sandboxes")).toArray();
    for (const QJsonValue &value : sandboxes)
        modes.insert(value.toObject().value(QLatin1String("name")).toString(),
                     value.toObject().value(QLatin1String("secretGuard")).toString());
    QCOMPARE(modes.value(QStringLiteral("guarded")), QStringLiteral("refuse"));
    QCOMPARE(modes.value(QStringLiteral("redacting")), QStringLiteral("redact"));
    QCOMPARE(modes.value(QStringLiteral("unguarded")), QStringLiteral("off"));
}

void TestSandboxSecretGuard::unboundKeychainSecretIsRefused()
{
    m_upstream.requests.clear();
    // Another tool's key, bound to no kit of this sandbox, stored after the sandbox was made:
    // the guard looks for every secret of the keychain, read again when the index changes.
    const Finished stored =
        paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("github-unbound")}, m_unbound);
    QVERIFY2(stored.exitCode == 0, qPrintable(stored.err));
    QVERIFY(writeBody(QStringLiteral("unbound.json"), "{\"messages\":[{\"content\":\"token " + m_unbound + "\"}]}"));
    const Finished run =
        runIn(QStringLiteral("guarded"),
              QStringLiteral("PORT=%1; ").arg(m_upstream.serverPort()) +
                  post(QStringLiteral("unbound"), QStringLiteral("unbound.json"), QStringLiteral("/v1/unbound")) +
                  QStringLiteral("cat answer-unbound.txt"));
    QVERIFY2(run.out.contains(QStringLiteral("unbound=403\n")), qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("it contains the value of github-unbound from keychain")),
             qPrintable(run.out));
    QVERIFY(!run.out.contains(QString::fromUtf8(m_unbound)));
    QVERIFY2(requestsFor("/v1/unbound").isEmpty(), "an unbound keychain secret reached the upstream");
}

void TestSandboxSecretGuard::refusalEventNamesTheValue()
{
    // The export carries the refused value's file and name as fields, which the window's
    // "Allow this value" passes to `sandbox.guard`.
    const Finished exported = paddock({QStringLiteral("policy"), QStringLiteral("export"), QStringLiteral("--jsonl"),
                                       QStringLiteral("--sandbox"), QStringLiteral("guarded")});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QStringList named;
    for (const QString &line : exported.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
        if (event.value(QLatin1String("outcome")).toString() == QLatin1String("denied") &&
            event.value(QLatin1String("rule")).toString().startsWith(QLatin1String("secret-guard")))
            named << event.value(QLatin1String("guardFile")).toString() + QLatin1Char(' ') +
                         event.value(QLatin1String("guardName")).toString();
    }
    QVERIFY2(named.contains(QStringLiteral(".env OPENAI_KEY")), qPrintable(exported.out));
    QVERIFY(!exported.out.contains(QString::fromUtf8(m_canary)));
}

void TestSandboxSecretGuard::valueIsInNoFileLogOrEvent()
{
    // The refusal as the person reads it (this also has the daemon write every event down).
    const Finished log = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
    QVERIFY2(log.exitCode == 0, qPrintable(log.err));
    QVERIFY2(log.out.contains(QStringLiteral("\"secret-guard: .env OPENAI_KEY\"")) &&
                 log.out.contains(QStringLiteral("request refused: it contains the value of ")),
             qPrintable(log.out));
    QVERIFY(!log.out.contains(QString::fromUtf8(m_canary)));
    QStringList searched;
    QStringList leaks;
    QByteArray events;
    for (const char *dir : {"config", "state", "data", "run"}) {
        QDirIterator it(m_fixture->path(QLatin1String(dir)), QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!it.fileInfo().isFile() || !file.open(QIODevice::ReadOnly))
                continue;
            const QByteArray contents = file.readAll();
            searched << path;
            if (path.contains(QLatin1String("events.sqlite")))
                events += contents;
            if (contents.contains(m_canary) || contents.contains(m_password) || contents.contains(m_llmKey) ||
                contents.contains(m_unbound))
                leaks << path;
        }
    }
    QFile output(m_fixture->path(QStringLiteral("paddockd.out")));
    const QByteArray daemonOutput = output.open(QIODevice::ReadOnly) ? output.readAll() : QByteArray();
    if (daemonOutput.contains(m_canary) || daemonOutput.contains(m_unbound))
        leaks << output.fileName();
    QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(QLatin1Char('\n'))));
    // The refusals and the redaction are in the event log, by file and name.
    QVERIFY2(events.contains("it contains the value of OPENAI_KEY from .env"), "no refusal event");
    QVERIFY2(events.contains("secret-guard: .env OPENAI_KEY redacted"), "no redaction event");
    QVERIFY(std::any_of(searched.begin(), searched.end(),
                        [](const QString &p) { return p.contains(QLatin1String("/sandbox-kits/")); }));
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSandboxSecretGuard, QCoreApplication)

#include "tst_sandbox_secret_guard.moc"
