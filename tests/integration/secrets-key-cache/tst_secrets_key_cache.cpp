// SPDX-License-Identifier: GPL-3.0-or-later
// The keys the daemon holds between requests: in pages that are locked, left out of core dumps
// and of forked children, and dropped whenever the real keychain (GNOME Keyring on a private
// session bus) says something changed: a key set or removed by any program, the keyring locked.
#include "KeyringSession.h"

#include "secrets/KeyCache.h"
#include "secrets/LockedSecret.h"
#include "secrets/SecretStore.h"

#include "Needs.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::secrets;

namespace {

/** The VmFlags and Locked lines of the mapping that starts at @p address in /proc/self/smaps. */
QByteArray smapsOf(const void *address)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly))
        return {};
    const QByteArray start = QByteArray::number(quintptr(address), 16) + '-';
    QByteArray found;
    bool inside = false;
    for (const QByteArray &line : smaps.readAll().split('\n')) {
        const QByteArray first = line.left(line.indexOf(' '));
        if (first.isEmpty())
            continue;
        if (!first.endsWith(':')) // a mapping's first line: its address range
            inside = first.startsWith(start);
        else if (inside && (first == "VmFlags:" || first == "Locked:"))
            found += line + '\n';
    }
    return found;
}

} // namespace

class TestSecretsKeyCache : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void heldInLockedPagesOutOfDumps();
    void keyReadBeforeADropIsNotKept();
    void forgetDropsOneSandboxOnly();
    void keySetInTheKeychainDropsHeldKeys();
    void keySetByAnotherProgramDropsHeldKeys();
    void lockedKeyringDropsHeldKeys();

private:
    void hold(KeyCache &cache);

    QTemporaryDir m_dir;
    std::unique_ptr<SecretStore> m_store;
};

void TestSecretsKeyCache::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(test::kUnavailableVariable),
                 qEnvironmentVariable(test::kUnavailableVariable));
    QVERIFY(m_dir.isValid());
    m_store = std::make_unique<SecretStore>(m_dir.filePath(QStringLiteral("secrets.yaml")), nullptr);
    const ProbeResult probe = m_store->probeAndWait();
    QVERIFY2(probe.available, qPrintable(probe.message));
}

void TestSecretsKeyCache::hold(KeyCache &cache)
{
    cache.insert(cache.generation(), QStringLiteral("web"), QStringLiteral("llm"), "sk-held-1234567890");
    cache.insert(cache.generation(), QString(), QStringLiteral("git"), "gh-held-1234567890");
    QCOMPARE(cache.size(), std::size_t(2));
}

void TestSecretsKeyCache::heldInLockedPagesOutOfDumps()
{
    const std::unique_ptr<LockedSecret> secret = LockedSecret::copyOf("sk-locked-0123456789");
    QVERIFY(secret);
    QCOMPARE(secret->copy(), QByteArray("sk-locked-0123456789"));
    QVERIFY(!LockedSecret::copyOf(QByteArray()));
    const QByteArray flags = smapsOf(secret->address());
    QVERIFY2(flags.contains("VmFlags:"), "the pages are not a mapping of their own");
    QVERIFY2(flags.contains(" dd"), flags.constData()); // do not dump
    QVERIFY2(flags.contains(" wf"), flags.constData()); // wiped in a forked child
    if (secret->locked()) {
        QVERIFY2(flags.contains(" lo"), flags.constData());
        QVERIFY2(!QRegularExpression(QStringLiteral("Locked:\\s+0 kB")).match(QString::fromLatin1(flags)).hasMatch(),
                 flags.constData());
    } else {
        qWarning("mlock refused here (RLIMIT_MEMLOCK): the pages are not locked");
    }
}

void TestSecretsKeyCache::keyReadBeforeADropIsNotKept()
{
    KeyCache cache;
    QVERIFY(cache.watchKeychain());
    const quint64 before = cache.generation();
    cache.clear(); // a change reported while the keychain was being read
    cache.insert(before, QStringLiteral("web"), QStringLiteral("llm"), "sk-old-1234567890");
    QCOMPARE(cache.size(), std::size_t(0));
    QVERIFY(cache.find(QStringLiteral("web"), QStringLiteral("llm")).isEmpty());
    cache.insert(cache.generation(), QStringLiteral("web"), QStringLiteral("llm"), "sk-new-1234567890");
    QCOMPARE(cache.find(QStringLiteral("web"), QStringLiteral("llm")), QByteArray("sk-new-1234567890"));
    QVERIFY(cache.find(QString(), QStringLiteral("llm")).isEmpty());

    // Without the keychain's signals nothing is held: a change could not be heard.
    KeyCache deaf;
    deaf.insert(deaf.generation(), QStringLiteral("web"), QStringLiteral("llm"), "sk-new-1234567890");
    QCOMPARE(deaf.size(), std::size_t(0));
}

void TestSecretsKeyCache::forgetDropsOneSandboxOnly()
{
    KeyCache cache;
    QVERIFY(cache.watchKeychain());
    hold(cache);
    cache.forget(QStringLiteral("web"));
    QCOMPARE(cache.size(), std::size_t(1));
    QCOMPARE(cache.find(QString(), QStringLiteral("git")), QByteArray("gh-held-1234567890"));
}

void TestSecretsKeyCache::keySetInTheKeychainDropsHeldKeys()
{
    KeyCache cache;
    QVERIFY(cache.watchKeychain());
    hold(cache);
    const SecretResult stored = m_store->setAndWait(SecretId::global(QStringLiteral("llm")), "sk-new-value-123456");
    QVERIFY2(stored.ok(), qPrintable(stored.message));
    QTRY_COMPARE(cache.size(), std::size_t(0));

    hold(cache);
    const SecretResult removed = m_store->removeAndWait(SecretId::global(QStringLiteral("llm")));
    QVERIFY2(removed.ok(), qPrintable(removed.message));
    QTRY_COMPARE(cache.size(), std::size_t(0));
}

void TestSecretsKeyCache::keySetByAnotherProgramDropsHeldKeys()
{
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("secret-tool")).isEmpty(),
                 "secret-tool (libsecret-tools), which changes the keychain as another program");
    KeyCache cache;
    QVERIFY(cache.watchKeychain());
    hold(cache);
    QProcess tool;
    tool.start(QStringLiteral("secret-tool"), {QStringLiteral("store"), QStringLiteral("--label=other"),
                                               QStringLiteral("application"), QStringLiteral("other")});
    tool.write("another program's password");
    tool.closeWriteChannel();
    QVERIFY(tool.waitForFinished(20000));
    QCOMPARE(tool.exitCode(), 0);
    QTRY_COMPARE(cache.size(), std::size_t(0));
}

void TestSecretsKeyCache::lockedKeyringDropsHeldKeys()
{
    KeyCache cache;
    QVERIFY(cache.watchKeychain());
    hold(cache);
    QDBusMessage lock = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.secrets"), QStringLiteral("/org/freedesktop/secrets"),
        QStringLiteral("org.freedesktop.Secret.Service"), QStringLiteral("Lock"));
    lock << QVariant::fromValue(
        QList<QDBusObjectPath>{QDBusObjectPath(QStringLiteral("/org/freedesktop/secrets/collection/login"))});
    const QDBusMessage reply = QDBusConnection::sessionBus().call(lock, QDBus::Block, 20000);
    QVERIFY2(reply.type() == QDBusMessage::ReplyMessage, qPrintable(reply.errorMessage()));
    QTRY_COMPARE(cache.size(), std::size_t(0));
}

int main(int argc, char **argv)
{
    paddock::secrets::test::enterPrivateKeyring(argc, argv);
    QCoreApplication app(argc, argv);
    TestSecretsKeyCache test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_secrets_key_cache.moc"
