// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock secret test SERVICE`: one request through the proxy's injection, as a sandbox's
// would go, to a local HTTPS provider that accepts one key and refuses any other with 401.
#include "../proxy-inject/InjectTestSupport.h"
#include "IsolatedHome.h"
#include "KeyringSession.h"

#include "policy/PolicyStore.h"

#include "Needs.h"

#include <QProcess>
#include <QSslSocket>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using paddock::proxy::testing::CertificateFactory;

namespace {

/** @brief An HTTPS "provider": 200 for `Authorization: Bearer <accepted>`, 401 otherwise. */
class Provider : public paddock::test::TlsServer
{
public:
    QByteArray accepted;
    QList<QByteArray> heads;

protected:
    void serve(QSslSocket *socket) override
    {
        connect(socket, &QSslSocket::readyRead, this, [this, socket] {
            m_buffer += socket->readAll();
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = m_buffer.left(end + 4);
            m_buffer.clear();
            heads << head;
            const bool ok = head.contains("\r\nAuthorization: Bearer " + accepted + "\r\n");
            socket->write(ok ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"
                             : "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
        });
    }

private:
    QByteArray m_buffer;
};

struct Ran
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestSecretTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void noStoredKeySaysHowToStoreIt();
    void unapprovedDomainIsNotSent();
    void acceptedKeyReportsTheStatusLine();
    void refusedKeyExitsOne();
    void urlOutsideTheKitsDomainsIsRefused();

private:
    Ran paddock(const QStringList &arguments, const QByteArray &input = {});
    /** `paddock secret set llm`, the key typed in; its exit code. */
    int storeKey(const QByteArray &key)
    {
        return paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("llm")}, key).exitCode;
    }
    /** `paddock binding approve --kit KIT llm`; its exit code. */
    int approve()
    {
        return paddock({QStringLiteral("binding"), QStringLiteral("approve"), QStringLiteral("--kit"), m_kit,
                        QStringLiteral("llm")})
            .exitCode;
    }
    /** `paddock secret test llm --kit KIT --url URL`. */
    Ran testKey(const QString &url)
    {
        return paddock({QStringLiteral("secret"), QStringLiteral("test"), QStringLiteral("llm"),
                        QStringLiteral("--kit"), m_kit, QStringLiteral("--url"), url});
    }
    QString url() const { return QStringLiteral("https://api.secret.test:%1/v1/models").arg(m_provider.serverPort()); }

    QTemporaryDir m_root;
    std::unique_ptr<CertificateFactory> m_certificates;
    Provider m_provider;
    QString m_kit;
};

void TestSecretTest::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    QVERIFY(m_root.isValid());
    for (const char *dir : {"certs", "kit"})
        QDir().mkpath(m_root.filePath(QLatin1String(dir)));
    paddock::test::useXdgOf(paddock::test::isolatedEnvironment(m_root.path(), paddock::test::XdgFolders::shortNames()));

    m_certificates = std::make_unique<CertificateFactory>(m_root.filePath(QStringLiteral("certs")));
    QVERIFY(m_certificates->makeAuthority(QStringLiteral("ca"), QStringLiteral("Secret Test CA")));
    QVERIFY(
        m_certificates->makeLeaf(QStringLiteral("provider"), QStringLiteral("api.secret.test"), QStringLiteral("ca")));
    QVERIFY(m_provider.start(m_certificates->path(QStringLiteral("provider.pem")),
                             m_certificates->path(QStringLiteral("provider.key"))));
    QCOMPARE(paddock({QStringLiteral("ca"), QStringLiteral("trust"), m_certificates->path(QStringLiteral("ca.pem"))})
                 .exitCode,
             0);
    paddock::policy::PolicyStore policy(m_root.filePath(QStringLiteral("config/paddock/policy.yaml")));
    policy.load();
    QVERIFY(policy.setResolveOverride(u"api.secret.test", QHostAddress(QStringLiteral("127.0.0.1"))).ok());

    m_kit = m_root.filePath(QStringLiteral("kit"));
    QFile spec(m_kit + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(R"(schemaVersion: "2"
kind: sandbox
name: provider-kit
sandbox:
  image: debian:12
credentials:
  - service: llm
    apiKey:
      name: LLM_API_KEY
      proxyManaged: true
      inject:
        - domain: api.secret.test
          scheme: bearer
permissions:
  network:
    allow: [api.secret.test]
)");
    spec.close();
    m_provider.accepted = "sk-the-right-one-0123456789";
}

Ran TestSecretTest::paddock(const QStringList &arguments, const QByteArray &input)
{
    QProcess process;
    process.start(QStringLiteral(PADDOCK_BIN), arguments);
    process.write(input);
    process.closeWriteChannel();
    // The provider answers on this thread's event loop: wait without blocking it.
    if (!QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, 120000)) {
        process.kill();
        process.waitForFinished();
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

void TestSecretTest::noStoredKeySaysHowToStoreIt()
{
    const Ran test = testKey(url());
    QCOMPARE(test.exitCode, 1);
    QVERIFY2(test.err.contains(QStringLiteral("`paddock secret set llm`")), qPrintable(test.err));
    QVERIFY(m_provider.heads.isEmpty());
}

void TestSecretTest::unapprovedDomainIsNotSent()
{
    QCOMPARE(storeKey(m_provider.accepted), 0);
    const Ran test = testKey(url());
    QCOMPARE(test.exitCode, 1);
    QVERIFY2(test.err.contains(QStringLiteral("paddock binding approve")), qPrintable(test.err));
    QVERIFY(m_provider.heads.isEmpty());
}

void TestSecretTest::acceptedKeyReportsTheStatusLine()
{
    // The key the provider accepts, stored as the test before stores it, so this one runs alone.
    QCOMPARE(storeKey(m_provider.accepted), 0);
    QCOMPARE(approve(), 0);
    const Ran test = testKey(url());
    QVERIFY2(test.exitCode == 0, qPrintable(test.out + test.err));
    QVERIFY2(test.out.contains(QStringLiteral("accepted")) && test.out.contains(QStringLiteral("HTTP/1.1 200 OK")),
             qPrintable(test.out));
    QCOMPARE(m_provider.heads.size(), 1);
    QVERIFY(m_provider.heads.first().startsWith("GET /v1/models HTTP/1.1\r\n"));
    QVERIFY(!test.out.contains(QString::fromLatin1(m_provider.accepted)));
}

void TestSecretTest::refusedKeyExitsOne()
{
    // Approved as the test before approves it, so this one runs alone.
    QCOMPARE(approve(), 0);
    QCOMPARE(storeKey("sk-a-revoked-key-000000"), 0);
    const Ran test = testKey(url());
    QCOMPARE(test.exitCode, 1);
    QVERIFY2(test.err.contains(QStringLiteral("refused")) && test.err.contains(QStringLiteral("401 Unauthorized")),
             qPrintable(test.err));
    QVERIFY(m_provider.heads.last().contains("Authorization: Bearer sk-a-revoked-key-000000"));
}

void TestSecretTest::urlOutsideTheKitsDomainsIsRefused()
{
    const qsizetype before = m_provider.heads.size();
    const Ran test = testKey(QStringLiteral("https://elsewhere.test/"));
    QCOMPARE(test.exitCode, 1);
    QVERIFY2(test.err.contains(QStringLiteral("elsewhere.test")), qPrintable(test.err));
    QCOMPARE(m_provider.heads.size(), before);
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSecretTest, QCoreApplication)

#include "tst_secret_test.moc"
