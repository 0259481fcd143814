// SPDX-License-Identifier: GPL-3.0-or-later
// Provider keys in a real GNOME Keyring reached over a real session bus: stored, read and
// removed globally and per sandbox, listed by name only, never written to any file, and a
// missing keychain explained in words a person can act on.
#include "KeyringSession.h"
#include "TestFiles.h"

#include "secrets/SecretStore.h"

#include "Needs.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::secrets;

namespace {

const QByteArray kKey = "sk-ant-api03-Zq7v9LpXw2Rt5Ny8Kc3Bm6Hd1Fg4Js0Qa";
const QByteArray kOtherKey = "ghp_4f9T2kLmQ8rVz1Xc7Nb3Wd6Hy0Pj5Sa";

using paddock::test::filesContaining;

/** Child mode: probe and read with whatever session bus the environment names. */
int probeChild()
{
    SecretStore store;
    const ProbeResult probe = store.probeAndWait(15000);
    const SecretResult read = store.getAndWait(SecretId::global(QStringLiteral("anthropic")), 15000);
    QTextStream out(stdout);
    out << "probe: " << (probe.available ? QStringLiteral("available") : probe.message) << "\n";
    out << "get: " << read.message << "\n";
    return 0;
}

} // namespace

class TestSecretsKeychain : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void probeReportsAvailable();
    void globalSetGetRemove();
    void sandboxScopedIsSeparateFromGlobal();
    void resolvePrefersTheSandboxsOwn();
    void listShowsNamesOnly();
    void valueIsNeverWrittenToAFile();
    void missingEntryTellsHowToSetIt();
    void removingAnUnknownSecretSaysSo();
    void invalidNamesAreRefusedBeforeTheKeychain();
    void aCallbackMayStartTheNextOperation();
    void deadSessionBusMeansNoKeychain();

private:
    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<SecretStore> m_store;
};

void TestSecretsKeychain::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(test::kUnavailableVariable),
                 qEnvironmentVariable(test::kUnavailableVariable));
}

void TestSecretsKeychain::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    QVERIFY(m_home->isValid());
    for (const char *variable : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
        qputenv(variable, QFile::encodeName(m_home->filePath(QString::fromLatin1(variable))));
    m_store = std::make_unique<SecretStore>();
}

void TestSecretsKeychain::cleanup()
{
    // The keyring outlives a test function: leave nothing behind for the next one.
    for (const SecretId &id : m_store->list())
        m_store->removeAndWait(id);
    m_store.reset();
    m_home.reset();
}

void TestSecretsKeychain::probeReportsAvailable()
{
    const ProbeResult probe = m_store->probeAndWait();
    QVERIFY2(probe.available, qPrintable(probe.message));
    QVERIFY(probe.message.isEmpty());
}

void TestSecretsKeychain::globalSetGetRemove()
{
    const SecretId id = SecretId::global(QStringLiteral("anthropic"));
    SecretResult result = m_store->setAndWait(id, kKey);
    QVERIFY2(result.ok(), qPrintable(result.message));

    result = m_store->getAndWait(id);
    QVERIFY2(result.ok(), qPrintable(result.message));
    QCOMPARE(result.value, kKey);

    // A second set replaces the value.
    QVERIFY(m_store->setAndWait(id, kOtherKey).ok());
    QCOMPARE(m_store->getAndWait(id).value, kOtherKey);

    result = m_store->removeAndWait(id);
    QVERIFY2(result.ok(), qPrintable(result.message));
    result = m_store->getAndWait(id);
    QCOMPARE(result.error, SecretError::NotFound);
    QVERIFY(result.value.isEmpty());
    QVERIFY(m_store->list().isEmpty());
}

void TestSecretsKeychain::sandboxScopedIsSeparateFromGlobal()
{
    const SecretId global = SecretId::global(QStringLiteral("github"));
    const SecretId scoped = SecretId::forSandbox(QStringLiteral("web"), QStringLiteral("github"));
    QVERIFY(m_store->setAndWait(scoped, kOtherKey).ok());
    QCOMPARE(m_store->getAndWait(global).error, SecretError::NotFound);
    QVERIFY(m_store->setAndWait(global, kKey).ok());

    QCOMPARE(m_store->getAndWait(scoped).value, kOtherKey);
    QCOMPARE(m_store->getAndWait(global).value, kKey);
    // Another sandbox does not see web's secret.
    QCOMPARE(m_store->getAndWait(SecretId::forSandbox(QStringLiteral("api"), QStringLiteral("github"))).error,
             SecretError::NotFound);

    QVERIFY(m_store->removeAndWait(scoped).ok());
    QCOMPARE(m_store->getAndWait(scoped).error, SecretError::NotFound);
    QCOMPARE(m_store->getAndWait(global).value, kKey);
}

void TestSecretsKeychain::resolvePrefersTheSandboxsOwn()
{
    QVERIFY(m_store->setAndWait(SecretId::global(QStringLiteral("openai")), kKey).ok());
    QCOMPARE(m_store->resolveAndWait(QStringLiteral("web"), QStringLiteral("openai")).value, kKey);
    QVERIFY(m_store->setAndWait(SecretId::forSandbox(QStringLiteral("web"), QStringLiteral("openai")), kOtherKey).ok());
    QCOMPARE(m_store->resolveAndWait(QStringLiteral("web"), QStringLiteral("openai")).value, kOtherKey);
    QCOMPARE(m_store->resolveAndWait(QStringLiteral("api"), QStringLiteral("openai")).value, kKey);
    const SecretResult missing = m_store->resolveAndWait(QStringLiteral("web"), QStringLiteral("mistral"));
    QCOMPARE(missing.error, SecretError::NotFound);
    QVERIFY2(missing.message.contains(QLatin1String("paddock secret set mistral")), qPrintable(missing.message));
}

void TestSecretsKeychain::listShowsNamesOnly()
{
    QVERIFY(m_store->setAndWait(SecretId::global(QStringLiteral("openai")), kKey).ok());
    QVERIFY(m_store->setAndWait(SecretId::global(QStringLiteral("anthropic")), kKey).ok());
    QVERIFY(m_store->setAndWait(SecretId::forSandbox(QStringLiteral("web"), QStringLiteral("github")), kOtherKey).ok());

    const QList<SecretId> expected{SecretId::global(QStringLiteral("anthropic")),
                                   SecretId::global(QStringLiteral("openai")),
                                   SecretId::forSandbox(QStringLiteral("web"), QStringLiteral("github"))};
    QCOMPARE(m_store->list(), expected);

    // A second store (another process, the CLI) reads the same names from secrets.yaml.
    SecretStore other;
    QCOMPARE(other.list(), expected);

    QFile index(m_store->indexPath());
    QVERIFY(index.open(QIODevice::ReadOnly));
    const QByteArray text = index.readAll();
    QVERIFY(text.contains("anthropic"));
    QVERIFY(text.contains("github"));
    QVERIFY(!text.contains(kKey));
    QVERIFY(!text.contains(kOtherKey));
    QCOMPARE(int(index.permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup)), 0);
}

void TestSecretsKeychain::valueIsNeverWrittenToAFile()
{
    QVERIFY(m_store->setAndWait(SecretId::global(QStringLiteral("anthropic")), kKey).ok());
    QVERIFY(m_store->setAndWait(SecretId::forSandbox(QStringLiteral("web"), QStringLiteral("github")), kOtherKey).ok());
    QCOMPARE(m_store->getAndWait(SecretId::global(QStringLiteral("anthropic"))).value, kKey);

    QVERIFY(QFile::exists(m_store->indexPath()));
    QCOMPARE(filesContaining(m_home->path(), kKey), QStringList());
    QCOMPARE(filesContaining(m_home->path(), kOtherKey), QStringList());
    QCOMPARE(filesContaining(m_home->path(), kKey.toBase64()), QStringList());
}

void TestSecretsKeychain::missingEntryTellsHowToSetIt()
{
    SecretResult result = m_store->getAndWait(SecretId::global(QStringLiteral("nothing-here")));
    QCOMPARE(result.error, SecretError::NotFound);
    QCOMPARE(result.message,
             QStringLiteral("no secret named nothing-here: set it with `paddock secret set nothing-here`"));

    result = m_store->getAndWait(SecretId::forSandbox(QStringLiteral("web"), QStringLiteral("nothing-here")));
    QCOMPARE(result.error, SecretError::NotFound);
    QCOMPARE(result.message, QStringLiteral("no secret named web/nothing-here: set it with "
                                            "`paddock secret set --sandbox web nothing-here`"));
}

void TestSecretsKeychain::removingAnUnknownSecretSaysSo()
{
    const SecretResult result = m_store->removeAndWait(SecretId::global(QStringLiteral("never-set")));
    QVERIFY(!result.ok());
    QVERIFY2(result.message.contains(QLatin1String("never-set")), qPrintable(result.message));
}

void TestSecretsKeychain::invalidNamesAreRefusedBeforeTheKeychain()
{
    const SecretResult result = m_store->setAndWait(SecretId::global(QStringLiteral("../../etc")), kKey);
    QCOMPARE(result.error, SecretError::InvalidName);
    QVERIFY(result.message.contains(QLatin1String("not a usable service name")));
    QCOMPARE(m_store->setAndWait(SecretId::forSandbox(QStringLiteral("a/b"), QStringLiteral("x")), kKey).error,
             SecretError::InvalidName);
    QVERIFY(!QFile::exists(m_store->indexPath()));
}

void TestSecretsKeychain::aCallbackMayStartTheNextOperation()
{
    const SecretId id = SecretId::global(QStringLiteral("chained"));
    QByteArray readBack;
    bool finished = false;
    m_store->set(id, kKey, [&](SecretResult stored) {
        QVERIFY(stored.ok());
        m_store->get(id, [&](SecretResult read) {
            readBack = read.value;
            m_store->remove(id, [&](SecretResult removed) {
                QVERIFY(removed.ok());
                finished = true;
            });
        });
    });
    QTRY_VERIFY_WITH_TIMEOUT(finished, 20000);
    QCOMPARE(readBack, kKey);
    QVERIFY(m_store->list().isEmpty());
}

void TestSecretsKeychain::deadSessionBusMeansNoKeychain()
{
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
               QStringLiteral("unix:path=%1").arg(m_home->filePath(QStringLiteral("no-bus"))));
    env.insert(QString::fromLatin1(test::kInsideVariable), QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--probe-child")});
    QVERIFY(child.waitForFinished(60000));
    const QString output = QString::fromUtf8(child.readAllStandardOutput());
    QCOMPARE(child.exitCode(), 0);
    const QString expected = QStringLiteral("no keychain service is running: install and start GNOME Keyring "
                                            "(gnome-keyring) or KWallet");
    const QStringList lines = output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(QStringLiteral("probe: ") + expected), qPrintable(output));
    QVERIFY2(lines[1].startsWith(QStringLiteral("get: ") + expected), qPrintable(output));
}

int main(int argc, char **argv)
{
    if (argc > 1 && qstrcmp(argv[1], "--probe-child") == 0) {
        QCoreApplication app(argc, argv);
        return probeChild();
    }
    test::enterPrivateKeyring(argc, argv);
    QCoreApplication app(argc, argv);
    TestSecretsKeychain test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_secrets_keychain.moc"
