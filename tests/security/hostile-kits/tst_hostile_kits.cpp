// SPDX-License-Identifier: GPL-3.0-or-later
// Attacks carried by what a person is given rather than by a running agent: a bundle (.paddock)
// whose archive leads out of the kits folder or holds links, devices or entries too large to
// hold, and a kit whose files/ tree links to the host's files. The archives are the hostile
// ones of the bundle fuzz corpus (tests/fuzz/bundle-import/corpus), which the fuzzer replays as
// well; here each goes through the real `paddock bundle import` as an ordinary user. Each is
// refused with a reason, and nothing is written anywhere.
#include "AttackSupport.h"

#include <QCryptographicHash>
#include <QDirIterator>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestHostileKits : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void anHonestBundleIsImported();
    void hostileBundleIsRefused_data();
    void hostileBundleIsRefused();
    void bundleTooLargeToReadIsRefused();
    void kitFileLinkingOutIsRefused_data();
    void kitFileLinkingOutIsRefused();

private:
    /** Every file and folder under the fixture and the home, with a digest of each file. */
    QMap<QString, QByteArray> snapshot() const;
    QString secret() const { return m_fixture->path(QStringLiteral("private/id_rsa")); }

    std::unique_ptr<SandboxFixture> m_fixture;
};

QMap<QString, QByteArray> TestHostileKits::snapshot() const
{
    QMap<QString, QByteArray> found;
    for (const QString &root : {m_fixture->path(QString()), QDir::homePath()}) {
        QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            // What the running daemon writes on its own: its log, events and sockets.
            if (path.startsWith(m_fixture->path(QStringLiteral("state"))) ||
                path.startsWith(m_fixture->path(QStringLiteral("run"))) || path.endsWith(QLatin1String("paddockd.out")))
                continue;
            found.insert(path, it.fileInfo().isFile()
                                   ? QCryptographicHash::hash(paddock::test::readFile(path), QCryptographicHash::Sha1)
                                   : QByteArray("dir"));
        }
    }
    return found;
}

void TestHostileKits::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(paddock::test::writeFile(secret(), "-----BEGIN PRIVATE KEY-----\nnot for the sandbox\n"));
}

void TestHostileKits::anHonestBundleIsImported()
{
    // The control: the corpus's honest bundle goes in, so a refusal below is the archive's fault.
    const Finished imported =
        m_fixture->paddock({QStringLiteral("bundle"), QStringLiteral("import"), QStringLiteral("--apply-policy"),
                            QStringLiteral(PADDOCK_BUNDLE_CORPUS "/valid")});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.out + imported.err));
    QVERIFY(QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/kits/tiny/spec.yaml"))));
    QVERIFY(QDir(m_fixture->path(QStringLiteral("data/paddock/kits/tiny"))).removeRecursively());
}

void TestHostileKits::hostileBundleIsRefused_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("reason");
    QTest::newRow("an entry with ../") << QStringLiteral("dotdot") << QStringLiteral("leads outside");
    QTest::newRow("an absolute entry") << QStringLiteral("absolute") << QStringLiteral("absolute path");
    QTest::newRow("a symbolic link") << QStringLiteral("symlink") << QStringLiteral("symbolic link");
    QTest::newRow("a hard link to /etc/shadow") << QStringLiteral("hardlink") << QStringLiteral("hard link");
    QTest::newRow("a character device") << QStringLiteral("chardev") << QStringLiteral("character device");
    QTest::newRow("a block device") << QStringLiteral("blockdev") << QStringLiteral("block device");
    QTest::newRow("a FIFO") << QStringLiteral("fifo") << QStringLiteral("FIFO");
    QTest::newRow("an entry of 3 GiB") << QStringLiteral("huge-entry") << QStringLiteral("too large");
    QTest::newRow("a kit named with an absolute path") << QStringLiteral("name-absolute") << QString();
    QTest::newRow("a kit named ../") << QStringLiteral("name-parent") << QString();
    QTest::newRow("a kit named with a slash") << QStringLiteral("name-slash") << QString();
    QTest::newRow("a kit named by a template leading to autostart") << QStringLiteral("name-template") << QString();
    QTest::newRow("the same behind an honest manifest") << QStringLiteral("name-template-honest-manifest") << QString();
}

void TestHostileKits::hostileBundleIsRefused()
{
    QFETCH(QString, file);
    QFETCH(QString, reason);
    const QMap<QString, QByteArray> before = snapshot();
    for (const QStringList &extra : {QStringList{QStringLiteral("--dry-run")}, QStringList()}) {
        const Finished imported =
            m_fixture->paddock(QStringList{QStringLiteral("bundle"), QStringLiteral("import")} + extra +
                               QStringList{QStringLiteral(PADDOCK_BUNDLE_CORPUS "/") + file});
        QCOMPARE(imported.exitCode, 1);
        QVERIFY2(imported.err.contains(reason, Qt::CaseInsensitive), qPrintable(imported.err));
    }
    QCOMPARE(snapshot(), before);
    QVERIFY(!QFileInfo::exists(QDir::homePath() + QStringLiteral("/.config/autostart/evil.desktop")));
}

void TestHostileKits::bundleTooLargeToReadIsRefused()
{
    // A file far larger than any bundle may be (sparse: it costs no disk) is refused by its size,
    // before a byte of it is read into memory.
    const QString file = m_fixture->path(QStringLiteral("huge.paddock"));
    QFile huge(file);
    QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(qint64(8) << 30));
    huge.close();
    const Finished imported =
        m_fixture->paddock({QStringLiteral("bundle"), QStringLiteral("import"), QStringLiteral("--dry-run"), file});
    QCOMPARE(imported.exitCode, 1);
    QVERIFY2(imported.err.contains(QLatin1String("larger than a bundle may be")), qPrintable(imported.err));
    QFile::remove(file);
}

void TestHostileKits::kitFileLinkingOutIsRefused_data()
{
    QTest::addColumn<QString>("link");   // in the kit, relative to files/
    QTest::addColumn<QString>("target"); // what it points to; @SECRET is the host's private key
    QTest::newRow("a home file linking to a host key")
        << QStringLiteral("home/.ssh/id_rsa") << QStringLiteral("@SECRET");
    QTest::newRow("a workspace file linking out") << QStringLiteral("workspace/notes.txt") << QStringLiteral("@SECRET");
    QTest::newRow("a chain of links leaving the kit") << QStringLiteral("home/first") << QStringLiteral("second");
    QTest::newRow("files/home itself a link") << QStringLiteral("home") << QStringLiteral("@PRIVATE");
}

void TestHostileKits::kitFileLinkingOutIsRefused()
{
    QFETCH(QString, link);
    QFETCH(QString, target);
    const QString kit = m_fixture->path(QStringLiteral("linked-kit"));
    QDir(kit).removeRecursively();
    QVERIFY(paddock::test::writeShellKit(kit, QStringLiteral("linked")));
    const QString linkPath = kit + QStringLiteral("/files/") + link;
    QDir().mkpath(QFileInfo(linkPath).absolutePath());
    QString resolved = target;
    resolved.replace(QLatin1String("@SECRET"), secret()).replace(QLatin1String("@PRIVATE"), QFileInfo(secret()).path());
    if (target == QLatin1String("second"))
        QVERIFY(QFile::link(secret(), QFileInfo(linkPath).absolutePath() + QStringLiteral("/second")));
    QVERIFY(QFile::link(resolved, linkPath));

    const QMap<QString, QByteArray> before = snapshot();
    const Finished run =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                            QStringLiteral("linked"), m_fixture->workspace(), QStringLiteral("--"),
                            QStringLiteral("cat \"$HOME/.ssh/id_rsa\" \"$HOME/first\" notes.txt "
                                           "\"$HOME/id_rsa\" 2>/dev/null")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("symbolic link")), qPrintable(run.err));
    QVERIFY(!run.out.contains(QLatin1String("not for the sandbox")));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("linked")));
    QCOMPARE(snapshot(), before);
    const Finished validated = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("validate"), kit});
    QCOMPARE(validated.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestHostileKits)
#include "tst_hostile_kits.moc"
