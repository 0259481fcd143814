// SPDX-License-Identifier: GPL-3.0-or-later
// On a network where only the company's proxy reaches the internet, every connection Paddock
// lets out goes through it, with the user's proxy password from the keychain: squid's own
// access log shows allowed plain and HTTPS requests from inside a bubblewrap sandbox under the
// user, and never a refused one. NO_PROXY goes straight out, a wrong password is an event that
// says what the proxy said, and a TLS-inspecting proxy (mitmproxy) works once its CA is set
// with `settings set upstream-ca`, for a client inside that verifies end to end. The test
// names resolve only at the company's proxy, as intranet names do. Run as an ordinary user.
#include "CorporateProxies.h"
#include "SandboxFixture.h"
#include "TestFiles.h"

#include <QtTest>

#include <memory>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

constexpr const char *kName = "corp";
const QString kUser = QStringLiteral("alice");
const QString kPassword = QStringLiteral("corp-pw-7Hq2xZ");
const QStringList kNames{QStringLiteral("web.corp.test"), QStringLiteral("tls.corp.test"),
                         QStringLiteral("denied.corp.test"), QStringLiteral("direct.corp.test")};

} // namespace

class TestSandboxUpstream : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SandboxFixture> m_fixture;
    paddock::test::SquidProxy m_squid;
    paddock::test::TlsSite m_site;

    Finished paddock(const QStringList &arguments, const QByteArray &input = {})
    {
        return m_fixture->paddock(arguments, input);
    }
    Finished inSandbox(const QString &script, const QString &name = QLatin1String(kName))
    {
        return paddock({QStringLiteral("exec"), name, QStringLiteral("sh"), QStringLiteral("-c"), script});
    }
    QString web(const QString &host) const
    {
        return QStringLiteral("http://%1:%2/hello.txt").arg(host).arg(m_fixture->upstreamPort());
    }
    QString tls() const { return QStringLiteral("https://tls.corp.test:%1/").arg(m_site.port()); }
    /** curl inside the sandbox: the status code, or the body with @p body. */
    QString curl(const QString &url, const QString &options = {}, const QString &name = QLatin1String(kName))
    {
        return inSandbox(QStringLiteral("curl -s -o /dev/null -w '%{http_code}' %1 %2").arg(options, url), name)
            .out.trimmed();
    }
    void allow(const QString &host, quint16 port, const QString &name = QLatin1String(kName))
    {
        const Finished allowed =
            paddock({QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"),
                     QStringLiteral("%1:%2").arg(host).arg(port), QStringLiteral("--sandbox"), name});
        QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.err));
    }
    void set(const QString &key, const QString &value, const QByteArray &input = {})
    {
        QStringList arguments{QStringLiteral("settings"), QStringLiteral("set"), key};
        if (!value.isEmpty())
            arguments << value;
        const Finished done = paddock(arguments, input);
        QVERIFY2(done.exitCode == 0, qPrintable(done.err));
    }
    QString policyLog() { return paddock({QStringLiteral("policy"), QStringLiteral("log")}).out; }

private slots:
    void initTestCase();
    void cleanupTestCase() { m_fixture.reset(); }
    void settingsSayWhereTheProxyComesFrom();
    void allowedRequestsGoThroughItAsTheUser();
    void refusedRequestsNeverReachIt();
    void theSandboxCannotUseTheProxyItself();
    void noProxyGoesStraightOut();
    void wrongPasswordIsAnEventWithTheProxysAnswer();
    void passwordIsInNoFileLogOrEvent();
    void secretTestGoesThroughIt();
    void inspectingProxyWorksWithItsAuthority();
};

void TestSandboxUpstream::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture could not start");
    QString error;
    if (!m_squid.start(m_fixture->path(QStringLiteral("squid")), kUser, kPassword, kNames, &error))
        QFAIL(qPrintable(error));
    QVERIFY2(m_site.start(m_fixture->path(QStringLiteral("site")), QStringLiteral("tls.corp.test"), &error),
             qPrintable(error));
    // The site's CA in the workspace: a client inside checks the site through the tunnel itself.
    QVERIFY(QFile::copy(m_site.authorityFile(), m_fixture->workspace() + QStringLiteral("/site-ca.pem")));

    set(QStringLiteral("upstream-proxy"), QStringLiteral("http://%1@127.0.0.1:%2").arg(kUser).arg(m_squid.port()));
    set(QStringLiteral("upstream-proxy-password"), {}, kPassword.toUtf8());
    const Finished started = paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                                      m_fixture->kitDir(), QStringLiteral("--name"), QLatin1String(kName),
                                      m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("sleep 600")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err + m_fixture->daemonLog()));
    allow(QStringLiteral("web.corp.test"), m_fixture->upstreamPort());
    allow(QStringLiteral("tls.corp.test"), m_site.port());
}

void TestSandboxUpstream::settingsSayWhereTheProxyComesFrom()
{
    const Finished listed = paddock({QStringLiteral("settings"), QStringLiteral("ls")});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY2(listed.out.contains(
                 QStringLiteral("http://alice@127.0.0.1:%1 (from the settings, with a password)").arg(m_squid.port())),
             qPrintable(listed.out));
    QVERIFY(!listed.out.contains(kPassword));
    // The file keeps the URL, never the password.
    const QByteArray file = paddock::test::readFile(m_fixture->path(QStringLiteral("config/paddock/settings.yaml")));
    QVERIFY2(file.contains("alice@127.0.0.1"), file.constData());
}

void TestSandboxUpstream::allowedRequestsGoThroughItAsTheUser()
{
    const Finished body = inSandbox(QStringLiteral("curl -s %1").arg(web(QStringLiteral("web.corp.test"))));
    QCOMPARE(body.out, QString::fromLatin1(paddock::test::LocalUpstream::kBody));
    // HTTPS through a tunnel, checked end to end by the client against the site's own CA.
    QCOMPARE(curl(tls(), QStringLiteral("--cacert site-ca.pem")), QStringLiteral("200"));

    QTRY_VERIFY_WITH_TIMEOUT(!m_squid.linesFor(QStringLiteral("tls.corp.test")).isEmpty(), 10000);
    const QStringList plain = m_squid.linesFor(QStringLiteral("web.corp.test"));
    QVERIFY2(!plain.isEmpty(), qPrintable(m_squid.accessLog()));
    QVERIFY2(plain.first().contains(QStringLiteral("TCP_MISS/200")) &&
                 plain.first().contains(QStringLiteral(" alice ")),
             qPrintable(plain.first()));
    const QString tunnel = m_squid.linesFor(QStringLiteral("tls.corp.test")).first();
    QVERIFY2(tunnel.contains(QStringLiteral("CONNECT tls.corp.test:%1").arg(m_site.port())) &&
                 tunnel.contains(QStringLiteral(" alice ")),
             qPrintable(tunnel));
}

void TestSandboxUpstream::refusedRequestsNeverReachIt()
{
    QCOMPARE(curl(web(QStringLiteral("denied.corp.test"))), QStringLiteral("403"));
    QCOMPARE(curl(QStringLiteral("https://denied.corp.test:%1/").arg(m_site.port()), QStringLiteral("-k")),
             QStringLiteral("000"));
    // A client that ignores the proxy variables is captured and decided the same way.
    QCOMPARE(curl(web(QStringLiteral("denied.corp.test")), QStringLiteral("--noproxy '*'")), QStringLiteral("403"));
    QTRY_VERIFY_WITH_TIMEOUT(policyLog().contains(QStringLiteral("denied.corp.test")), 10000);
    QVERIFY2(m_squid.linesFor(QStringLiteral("denied.corp.test")).isEmpty(), qPrintable(m_squid.accessLog()));
}

void TestSandboxUpstream::theSandboxCannotUseTheProxyItself()
{
    // The agent knows where the company's proxy is and tries it directly, around Paddock:
    // this computer's loopback is not the sandbox's, and its name for it needs a grant.
    const qsizetype before = m_squid.accessLog().size();
    const QString denied = web(QStringLiteral("denied.corp.test"));
    for (const QString &via : {QStringLiteral("127.0.0.1"), QStringLiteral("host.paddock.internal")})
        QVERIFY(
            curl(denied, QStringLiteral("--noproxy '*' -x http://alice:guess@%1:%2").arg(via).arg(m_squid.port())) !=
            QLatin1String("200"));
    QCOMPARE(
        curl(QStringLiteral("http://host.paddock.internal:%1/").arg(m_squid.port()), QStringLiteral("--noproxy '*'")),
        QStringLiteral("403"));
    QCOMPARE(m_squid.accessLog().size(), before);
}

void TestSandboxUpstream::noProxyGoesStraightOut()
{
    allow(QStringLiteral("direct.corp.test"), m_fixture->upstreamPort());
    set(QStringLiteral("no-proxy"), QStringLiteral("direct.corp.test"));
    // Straight out, the desktop cannot find the intranet name: refused here, never seen by squid.
    QVERIFY(curl(web(QStringLiteral("direct.corp.test"))) != QLatin1String("200"));
    QTRY_VERIFY_WITH_TIMEOUT(policyLog().contains(QStringLiteral("direct.corp.test")), 10000);
    QVERIFY2(m_squid.linesFor(QStringLiteral("direct.corp.test")).isEmpty(), qPrintable(m_squid.accessLog()));

    const Finished unset = paddock({QStringLiteral("settings"), QStringLiteral("unset"), QStringLiteral("no-proxy")});
    QVERIFY2(unset.exitCode == 0, qPrintable(unset.err));
    QCOMPARE(curl(web(QStringLiteral("direct.corp.test"))), QStringLiteral("200"));
    QVERIFY2(!m_squid.linesFor(QStringLiteral("direct.corp.test")).isEmpty(), qPrintable(m_squid.accessLog()));
}

void TestSandboxUpstream::wrongPasswordIsAnEventWithTheProxysAnswer()
{
    set(QStringLiteral("upstream-proxy-password"), {}, "not-the-password");
    QVERIFY(curl(web(QStringLiteral("web.corp.test"))) != QLatin1String("200"));
    const QString reason = QStringLiteral("the upstream proxy 127.0.0.1:%1 refused: 407 Proxy Authentication Required")
                               .arg(m_squid.port());
    QTRY_VERIFY_WITH_TIMEOUT(policyLog().contains(reason), 10000);
    set(QStringLiteral("upstream-proxy-password"), {}, kPassword.toUtf8());
    QCOMPARE(curl(web(QStringLiteral("web.corp.test"))), QStringLiteral("200"));
}

void TestSandboxUpstream::passwordIsInNoFileLogOrEvent()
{
    const QByteArray password = kPassword.toUtf8();
    for (const char *folder : {"config", "data", "state", "run", "workspace"}) {
        const QStringList found = paddock::test::filesContaining(m_fixture->path(QLatin1String(folder)), password);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char(' '))));
    }
    QVERIFY(!m_fixture->daemonLog().contains(kPassword));
    QVERIFY(
        !paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")}).out.contains(kPassword));
    // Nor in the sandbox's environment.
    QVERIFY(!inSandbox(QStringLiteral("env; cat /proc/1/environ | tr '\\0' '\\n'")).out.contains(kPassword));
}

void TestSandboxUpstream::secretTestGoesThroughIt()
{
    // A provider behind the company's proxy: `secret test` asks it the way a sandbox would.
    const QString kit = m_fixture->path(QStringLiteral("llm-kit"));
    QVERIFY(paddock::test::writeFile(kit + QStringLiteral("/spec.yaml"), R"(schemaVersion: "2"
kind: sandbox
name: llm-kit
sandbox:
  image: debian:12
credentials:
  - service: llm
    apiKey:
      name: LLM_API_KEY
      proxyManaged: true
      inject:
        - domain: tls.corp.test
          scheme: bearer
permissions:
  network:
    allow: [tls.corp.test]
)"));
    QCOMPARE(paddock({QStringLiteral("ca"), QStringLiteral("trust"), m_site.authorityFile()}).exitCode, 0);
    QCOMPARE(paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, "sk-corp-0123456789")
                 .exitCode,
             0);
    QCOMPARE(paddock({QStringLiteral("binding"), QStringLiteral("approve"), QStringLiteral("--kit"), kit,
                      QStringLiteral("llm")})
                 .exitCode,
             0);
    const qsizetype before = m_squid.linesFor(QStringLiteral("tls.corp.test")).size();
    const Finished tested = paddock({QStringLiteral("secret"), QStringLiteral("test"), QStringLiteral("llm"),
                                     QStringLiteral("--kit"), kit, QStringLiteral("--url"), tls()});
    QVERIFY2(tested.exitCode == 0 && tested.out.contains(QStringLiteral("accepted")),
             qPrintable(tested.out + tested.err));
    QTRY_COMPARE_WITH_TIMEOUT(m_squid.linesFor(QStringLiteral("tls.corp.test")).size(), before + 1, 10000);
    QVERIFY(m_squid.linesFor(QStringLiteral("tls.corp.test")).last().contains(QStringLiteral(" alice ")));
}

void TestSandboxUpstream::inspectingProxyWorksWithItsAuthority()
{
    paddock::test::InspectingProxy inspecting;
    QString error;
    QVERIFY2(inspecting.start(m_fixture->path(QStringLiteral("mitm")),
                              QStringLiteral("http://127.0.0.1:%1").arg(m_squid.port()),
                              QStringLiteral("%1:%2").arg(kUser, kPassword), &error),
             qPrintable(error));
    set(QStringLiteral("upstream-proxy"), QStringLiteral("http://127.0.0.1:%1").arg(inspecting.port()));
    // Without its authority, a client that checks the site sees the inspecting proxy's
    // certificate, and so does Paddock's own request.
    QCOMPARE(curl(tls()), QStringLiteral("000"));
    const QStringList secretTest{QStringLiteral("secret"),
                                 QStringLiteral("test"),
                                 QStringLiteral("llm"),
                                 QStringLiteral("--kit"),
                                 m_fixture->path(QStringLiteral("llm-kit")),
                                 QStringLiteral("--url"),
                                 tls()};
    QCOMPARE(paddock(secretTest).exitCode, 1);

    set(QStringLiteral("upstream-ca"), inspecting.authorityFile());
    // Sandboxes started from now on trust it.
    const Finished started = paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                                      m_fixture->kitDir(), QStringLiteral("--name"), QStringLiteral("corp2"),
                                      m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("sleep 600")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    allow(QStringLiteral("tls.corp.test"), m_site.port(), QStringLiteral("corp2"));
    QCOMPARE(curl(tls(), {}, QStringLiteral("corp2")), QStringLiteral("200"));
    const Finished tested = paddock(secretTest);
    QVERIFY2(tested.exitCode == 0, qPrintable(tested.out + tested.err));
    QTRY_VERIFY_WITH_TIMEOUT(m_squid.linesFor(QStringLiteral("tls.corp.test")).size() >= 2, 10000);
}

QTEST_GUILESS_MAIN(TestSandboxUpstream)
#include "tst_sandbox_upstream.moc"
