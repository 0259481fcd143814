// SPDX-License-Identifier: GPL-3.0-or-later
// How a secret may be shown, how buffers are cleared, and how secrets are named in the keychain.
#include "secrets/Masking.h"
#include "secrets/SecretId.h"

#include <QTest>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace paddock::secrets;

namespace {

/** How many of @p size bytes at @p data still hold 'k'; read even though the memory was freed. */
#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize("address")))
#endif
int lingering(const char *data, int size)
{
    int count = 0;
    for (int i = 0; i < size; ++i)
        count += static_cast<const volatile char *>(data)[i] == 'k' ? 1 : 0;
    return count;
}

} // namespace

class TestSecretsMasking : public QObject
{
    Q_OBJECT
private slots:
    void masking_data();
    void masking();
    void maskedFormNeverHoldsTheMiddle();
    void wipeEmptiesOnlyThatCopy();
    void keychainKeys_data();
    void keychainKeys();
    void namesThatCannotBeKeys_data();
    void namesThatCannotBeKeys();
    void coreDumpsCanBeTurnedOff();
};

void TestSecretsMasking::masking_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("shown");
    QTest::newRow("api key") << QStringLiteral("sk-abcdefghijklmnop") << QStringLiteral("sk-a…mnop");
    QTest::newRow("six characters") << QStringLiteral("abc123") << QStringLiteral("••••");
    QTest::newRow("fifteen characters") << QStringLiteral("abcdefghijklmno") << QStringLiteral("••••");
    QTest::newRow("sixteen characters") << QStringLiteral("abcdefghijklmnop") << QStringLiteral("abcd…mnop");
    QTest::newRow("empty") << QString() << QStringLiteral("••••");
    QTest::newRow("outside the BMP") << QStringLiteral("🔑🔑🔑🔑abcdefghijkl🔒🔒🔒🔒") << QStringLiteral("🔑🔑🔑🔑…🔒🔒🔒🔒");
}

void TestSecretsMasking::masking()
{
    QFETCH(QString, value);
    QFETCH(QString, shown);
    QCOMPARE(mask(value), shown);
}

void TestSecretsMasking::maskedFormNeverHoldsTheMiddle()
{
    const QString key = QStringLiteral("sk-ant-api03-SECRETMIDDLEPART-xyz9");
    const QString shown = mask(key);
    QVERIFY(!shown.contains(QLatin1String("SECRET")));
    QVERIFY(shown.size() < key.size());
}

void TestSecretsMasking::wipeEmptiesOnlyThatCopy()
{
    // The bytes themselves are overwritten before the buffer goes back to the allocator: a key
    // must not linger in freed memory. (Reading memory after it was freed is allowed here only:
    // nothing is allocated in between, and glibc leaves a freed chunk's bytes past its first 16.)
    QByteArray key(256, 'k');
    const char *const storage = key.constData();
    wipe(key);
    QVERIFY(key.isEmpty());
    QCOMPARE(lingering(storage + 32, 256 - 32), 0);

    // Only the wiped copy is cleared: a copy someone else still holds keeps its value.
    QByteArray held("sk-abcdefghijklmnop");
    QByteArray mine = held;
    wipe(mine);
    QVERIFY(mine.isEmpty());
    QCOMPARE(held, QByteArray("sk-abcdefghijklmnop"));

    QString text = QStringLiteral("sk-abcdefghijklmnop");
    wipe(text);
    QVERIFY(text.isEmpty());
}

void TestSecretsMasking::keychainKeys_data()
{
    QTest::addColumn<QString>("sandbox");
    QTest::addColumn<QString>("service");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("display");
    QTest::newRow("global") << QString() << QStringLiteral("anthropic") << QStringLiteral("global/anthropic")
                            << QStringLiteral("anthropic");
    QTest::newRow("sandbox") << QStringLiteral("web") << QStringLiteral("github")
                             << QStringLiteral("sandbox/web/github") << QStringLiteral("web/github");
}

void TestSecretsMasking::keychainKeys()
{
    QFETCH(QString, sandbox);
    QFETCH(QString, service);
    QFETCH(QString, key);
    QFETCH(QString, display);
    const SecretId id{service, sandbox};
    QCOMPARE(id.keychainKey(), key);
    QCOMPARE(id.displayName(), display);
    QVERIFY(id.validate().isEmpty());
    const std::optional<SecretId> back = SecretId::fromKeychainKey(key);
    QVERIFY(back);
    QCOMPARE(*back, id);
}

void TestSecretsMasking::namesThatCannotBeKeys_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("empty") << QString();
    QTest::newRow("slash") << QStringLiteral("a/b");
    QTest::newRow("dot dot") << QStringLiteral("..");
    QTest::newRow("space") << QStringLiteral("open ai");
    QTest::newRow("too long") << QString(65, QLatin1Char('a'));
    QTest::newRow("newline") << QStringLiteral("x\ny");
}

void TestSecretsMasking::namesThatCannotBeKeys()
{
    QFETCH(QString, name);
    QVERIFY(!isValidName(name));
    QVERIFY(!SecretId::global(name).validate().isEmpty());
    if (!name.isEmpty()) // an empty sandbox name means a global secret
        QVERIFY(!SecretId::forSandbox(name, QStringLiteral("ok")).validate().isEmpty());
    // Paddock's own entries ("internal/...") are never taken for secrets.
    QVERIFY(!SecretId::fromKeychainKey(QStringLiteral("internal/ca-private-key")));
}

void TestSecretsMasking::coreDumpsCanBeTurnedOff()
{
    // In a child, so this test process stays debuggable.
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        const bool ok = disableCoreDumps() && ::prctl(PR_GET_DUMPABLE) == 0;
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
}

QTEST_GUILESS_MAIN(TestSecretsMasking)
#include "tst_secrets_masking.moc"
