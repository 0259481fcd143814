// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks on the provider key, from inside a real bubblewrap sandbox, as an ordinary user: the
// real daemon and CLI, GNOME Keyring, and a local HTTPS upstream (trusted with `paddock ca
// trust`) that records every request head it receives. The sandbox holds only the sentinel; each
// case tries to make the proxy send the key somewhere it should not, or keep sending it after
// the person took it back, and checks that no byte of the key went there.
#include "../../integration/proxy-inject/InjectTestSupport.h"
#include "AttackSupport.h"
#include "KeyringSession.h"

#include "Needs.h"

#include <QUuid>

using paddock::proxy::testing::bearerModelKey;
using paddock::proxy::testing::CertificateFactory;
using paddock::proxy::testing::EchoServer;
using paddock::test::Finished;
using paddock::test::RecordingServer;
using paddock::test::SandboxFixture;

class TestCredentialLeaks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void redirectToAnotherHostCarriesNoKey();
    void redirectToCleartextCarriesNoKey();
    void hostHeaderOfAnotherHostInTheTunnelGetsNoKey();
    void serverNameOfAnotherHostIsRefused();
    void revokedBindingClosesTheOpenTunnel();
    void deniedHostClosesTheOpenTunnel();
    void keyIsNowhereInside();

private:
    Finished paddock(const QStringList &arguments, const QByteArray &input = {})
    {
        return paddock::test::runServing(m_fixture->environment(), m_fixture->workspace(), QStringLiteral(PADDOCK_BIN),
                                         arguments, input);
    }
    Finished runInSandbox(const QString &name, const QString &script)
    {
        return paddock({QStringLiteral("run"), QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), name,
                        m_fixture->workspace(), QStringLiteral("--"), script});
    }
    QList<EchoServer::Request> requestsFor(const QByteArray &target) const
    {
        QList<EchoServer::Request> found;
        for (const EchoServer::Request &request : m_upstream.requests) {
            if (request.head.split(' ').value(1) == target)
                found << request;
        }
        return found;
    }
    QString api(const QString &path) const
    {
        return QStringLiteral("https://api.inject.test:%1%2").arg(m_upstream.serverPort()).arg(path);
    }
    /** Opens a tunnel with the key in it, lets @p takeBack run, then uses the tunnel again. */
    void tunnelAfter(const QString &name, const std::function<void()> &takeBack, QString *first, QString *second);

    std::unique_ptr<SandboxFixture> m_fixture;
    std::unique_ptr<CertificateFactory> m_certificates;
    EchoServer m_upstream;
    RecordingServer m_cleartext;
    QString m_kit;
    const QByteArray m_key = "sk-attack-" + QUuid::createUuid().toByteArray(QUuid::Id128);
};

void TestCredentialLeaks::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    QDir().mkpath(m_fixture->path(QStringLiteral("certs")));
    m_certificates = std::make_unique<CertificateFactory>(m_fixture->path(QStringLiteral("certs")));
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("upstream-ca"), QStringLiteral("Attack Test Upstream CA")));
    QVERIFY(m_certificates->makeLeaf(QStringLiteral("upstream"),
                                     {QStringLiteral("api.inject.test"), QStringLiteral("other.inject.test")},
                                     QStringLiteral("upstream-ca")));
    QVERIFY(m_upstream.start(m_certificates->path(QStringLiteral("upstream.pem")),
                             m_certificates->path(QStringLiteral("upstream.key"))));
    QVERIFY(m_cleartext.start());
    QCOMPARE(paddock({QStringLiteral("ca"), QStringLiteral("trust"),
                      m_certificates->path(QStringLiteral("upstream-ca.pem"))})
                 .exitCode,
             0);
    for (const char *name : {"api.inject.test", "other.inject.test"})
        QCOMPARE(paddock({QStringLiteral("policy"), QStringLiteral("resolve"), QStringLiteral("set"),
                          QString::fromLatin1(name), QStringLiteral("127.0.0.1")})
                     .exitCode,
                 0);

    m_kit = m_fixture->path(QStringLiteral("kits/bearer"));
    QVERIFY(paddock::test::writeShellKit(m_kit, QStringLiteral("bearer"),
                                         QStringLiteral("credentials:\n") + bearerModelKey() +
                                             QStringLiteral(R"(permissions:
  network:
    allow:
      - api.inject.test:%1
      - other.inject.test:%1
      - api.inject.test:%2
)")
                                                 .arg(m_upstream.serverPort())
                                                 .arg(m_cleartext.port())));
    QCOMPARE(paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, m_key).exitCode, 0);
    const Finished approved = paddock(
        {QStringLiteral("binding"), QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("llm")});
    QVERIFY2(approved.exitCode == 0, qPrintable(approved.err));
}

void TestCredentialLeaks::redirectToAnotherHostCarriesNoKey()
{
    m_upstream.requests.clear();
    m_upstream.redirectTo = QStringLiteral("https://other.inject.test:%1/landed").arg(m_upstream.serverPort());
    const Finished run =
        runInSandbox(QStringLiteral("redirected"),
                     QStringLiteral("curl -sSL -o /dev/null -w '%{http_code}' %1").arg(api("/redirect")));
    QCOMPARE(run.out, QStringLiteral("200"));
    // The attempt was real: the first request carried the key, and the redirect was followed.
    QVERIFY(requestsFor("/redirect").value(0).head.contains("Authorization: Bearer " + m_key));
    QCOMPARE(requestsFor("/landed").size(), 1);
    QVERIFY2(!requestsFor("/landed").first().head.contains(m_key), requestsFor("/landed").first().head.constData());
}

void TestCredentialLeaks::redirectToCleartextCarriesNoKey()
{
    // Back to the same host in clear: curl follows, then the agent asks again itself with the
    // variable's value as its credential. The key is added inside TLS only, so what crosses
    // the network in clear is the sentinel at most.
    m_upstream.requests.clear();
    m_cleartext.clear();
    const QString landing = QStringLiteral("http://api.inject.test:%1/landed").arg(m_cleartext.port());
    m_upstream.redirectTo = landing;
    const Finished run = runInSandbox(
        QStringLiteral("downgraded"),
        QStringLiteral("curl -sSL -o /dev/null -w '%{http_code} ' %1; "
                       "curl -sS -H \"Authorization: Bearer $LLM_API_KEY\" -o /dev/null -w '%{http_code}' %2")
            .arg(api("/redirect"), landing));
    QCOMPARE(run.out, QStringLiteral("200 200"));
    QVERIFY(requestsFor("/redirect").value(0).head.contains("Authorization: Bearer " + m_key));
    const QByteArray clear = m_cleartext.received();
    QCOMPARE(clear.count("GET /landed"), 2);
    QVERIFY2(clear.contains("Authorization: Bearer proxy-managed"), clear.constData());
    QVERIFY2(!clear.contains(m_key), clear.constData());
}

void TestCredentialLeaks::hostHeaderOfAnotherHostInTheTunnelGetsNoKey()
{
    // The same request twice in the tunnel to the inject domain: as it is, then with a Host
    // header naming another host. The first carries the key, which shows this setup injects;
    // the second reaches the upstream without it.
    m_upstream.requests.clear();
    const Finished run = runInSandbox(QStringLiteral("rehosted"),
                                      QStringLiteral("curl -sS -o /dev/null %2 && "
                                                     "curl -sS -o /dev/null -H 'Host: other.inject.test:%1' %3")
                                          .arg(m_upstream.serverPort())
                                          .arg(api("/as-it-is"), api("/rehosted")));
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    const QList<EchoServer::Request> plain = requestsFor("/as-it-is");
    QCOMPARE(plain.size(), 1);
    QVERIFY2(plain.first().head.contains(m_key), "the control request got no key: nothing below would be shown");
    const QList<EchoServer::Request> rehosted = requestsFor("/rehosted");
    QCOMPARE(rehosted.size(), 1);
    QVERIFY2(rehosted.first().head.contains("other.inject.test"), rehosted.first().head.constData());
    QVERIFY2(!rehosted.first().head.contains(m_key), rehosted.first().head.constData());
}

void TestCredentialLeaks::serverNameOfAnotherHostIsRefused()
{
    // The tunnel goes to the inject domain, the TLS inside names another host.
    m_upstream.requests.clear();
    const Finished run = runInSandbox(
        QStringLiteral("misnamed"),
        QStringLiteral("curl -sS -o /dev/null -w '%{http_code}' --connect-to other.inject.test:%1:api.inject.test:%1 "
                       "https://other.inject.test:%1/misnamed")
            .arg(m_upstream.serverPort()));
    QVERIFY2(run.out != QStringLiteral("200"), qPrintable(run.out + run.err));
    QVERIFY(requestsFor("/misnamed").isEmpty());
}

void TestCredentialLeaks::tunnelAfter(const QString &name, const std::function<void()> &takeBack, QString *first,
                                      QString *second)
{
    const QString dir = m_fixture->workspace() + QLatin1Char('/') + name;
    QDir().mkpath(dir);
    const Finished run = paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), m_kit,
                                  QStringLiteral("--name"), name, m_fixture->workspace(),
                                  paddock::test::securityScripts(), QStringLiteral("--"),
                                  QStringLiteral("exec python3 %1 api.inject.test %2 %3")
                                      .arg(paddock::test::securityScript(QStringLiteral("tunnel_client.py")))
                                      .arg(m_upstream.serverPort())
                                      .arg(dir)});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(QTest::qWaitFor([&] { return QFileInfo::exists(dir + QStringLiteral("/first")); }, 30000),
             qPrintable(paddock({QStringLiteral("logs"), name}).out));
    *first = QString::fromUtf8(paddock::test::readFile(dir + QStringLiteral("/first")));
    takeBack();
    QTest::qWait(1000); // the daemon sees the change; nothing is waited for beyond that
    QVERIFY(paddock::test::writeFile(dir + QStringLiteral("/go"), "go"));
    QVERIFY(QTest::qWaitFor([&] { return QFileInfo::exists(dir + QStringLiteral("/second")); }, 30000));
    *second = QString::fromUtf8(paddock::test::readFile(dir + QStringLiteral("/second")));
    QCOMPARE(paddock({QStringLiteral("rm"), QStringLiteral("-f"), name}).exitCode, 0);
}

void TestCredentialLeaks::revokedBindingClosesTheOpenTunnel()
{
    m_upstream.requests.clear();
    QString first, second;
    tunnelAfter(
        QStringLiteral("revoked"),
        [this] {
            const Finished revoked =
                paddock({QStringLiteral("binding"), QStringLiteral("revoke"), QStringLiteral("llm")});
            QVERIFY2(revoked.exitCode == 0, qPrintable(revoked.err));
        },
        &first, &second);
    QCOMPARE(first, QStringLiteral("200"));
    QVERIFY(requestsFor("/first").value(0).head.contains("Authorization: Bearer " + m_key));
    QCOMPARE(second, QStringLiteral("closed"));
    for (const EchoServer::Request &request : requestsFor("/second"))
        QVERIFY2(!request.head.contains(m_key), request.head.constData());
    QCOMPARE(paddock({QStringLiteral("binding"), QStringLiteral("approve"), QStringLiteral("--kit"), m_kit,
                      QStringLiteral("llm")})
                 .exitCode,
             0);
}

void TestCredentialLeaks::deniedHostClosesTheOpenTunnel()
{
    m_upstream.requests.clear();
    QString first, second;
    tunnelAfter(
        QStringLiteral("denied"),
        [this] {
            const Finished denied = paddock({QStringLiteral("policy"), QStringLiteral("deny"),
                                             QStringLiteral("network"), QStringLiteral("api.inject.test:*")});
            QVERIFY2(denied.exitCode == 0, qPrintable(denied.err));
        },
        &first, &second);
    QCOMPARE(first, QStringLiteral("200"));
    QCOMPARE(second, QStringLiteral("closed"));
    QVERIFY(requestsFor("/second").isEmpty());
    // The refusal is in the denial log, with the reason.
    const Finished log = paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
    QVERIFY2(log.out.contains(QLatin1String("closed when the policy changed")), qPrintable(log.out));
    QCOMPARE(paddock({QStringLiteral("policy"), QStringLiteral("rm"), QStringLiteral("api.inject.test:*")}).exitCode,
             0);
}

void TestCredentialLeaks::keyIsNowhereInside()
{
    // Everything a process inside can read that could hold it: every environment and command
    // line, the sandbox's home and runtime files, and what a request echoed back carries.
    const Finished run =
        runInSandbox(QStringLiteral("searcher"),
                     QStringLiteral("cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null; env; "
                                    "find \"$HOME\" /run /tmp -type f -size -1M -exec cat {} + 2>/dev/null; "
                                    "curl -sS %1")
                         .arg(api("/echo-length")));
    QVERIFY2(run.out.contains(QLatin1String("Bearer proxy-managed")), qPrintable(run.out.right(2000)));
    QVERIFY(!run.out.contains(QString::fromLatin1(m_key)));
    QVERIFY(!run.err.contains(QString::fromLatin1(m_key)));
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestCredentialLeaks, QCoreApplication)

#include "tst_credential_leaks.moc"
