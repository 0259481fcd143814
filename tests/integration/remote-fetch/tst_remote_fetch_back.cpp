// SPDX-License-Identifier: GPL-3.0-or-later
// RemoteFetchBack, the desktop's side of the commits of a sandbox on another computer's engine,
// with the real git: a bundle made as the sandbox makes it (a shallow clone of the desktop's
// HEAD, a commit on a branch, `git bundle create --branches --not BASE`) becomes the branch
// paddock/NAME/<branch> of the user's repository, the work tree untouched; a bundle whose head
// names a branch that is not a plain name, holds a tag, is not a bundle, builds on a commit the
// repository lacks or carries a broken object is refused with a sentence, and the repository's
// refs are as they were.
#include "sandbox/RemoteFetchBack.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using paddock::sandbox::RemoteFetchBack;

class TestRemoteFetchBack : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void aBundleOfTheSandboxBecomesBranches();
    void craftedHeadsAreRefused_data();
    void craftedHeadsAreRefused();
    void aBundleThatDoesNotVerifyChangesNothing();

private:
    /** git in @p dir; its trimmed output, or "failed: ..." */
    QString git(const QString &dir, const QStringList &arguments)
    {
        QProcess process;
        process.setWorkingDirectory(dir);
        process.start(QStringLiteral("git"),
                      QStringList{QStringLiteral("-c"), QStringLiteral("user.name=t"), QStringLiteral("-c"),
                                  QStringLiteral("user.email=t@example.com")} +
                          arguments);
        process.waitForFinished(60000);
        return process.exitCode() == 0 ? QString::fromUtf8(process.readAllStandardOutput()).trimmed()
                                       : QStringLiteral("failed: ") + QString::fromUtf8(process.readAllStandardError());
    }
    QString refs() { return git(m_repo, {QStringLiteral("for-each-ref")}); }
    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() ? path : QString();
    }

    QTemporaryDir m_dir;
    QString m_repo;
    QString m_base;
    QString m_inside;
};

void TestRemoteFetchBack::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_repo = m_dir.filePath(QStringLiteral("repo"));
    QVERIFY(QDir().mkpath(m_repo));
    QFile readme(m_repo + QStringLiteral("/README"));
    QVERIFY(readme.open(QIODevice::WriteOnly) && readme.write("desktop\n") > 0);
    readme.close();
    QCOMPARE(git(m_repo, {QStringLiteral("init"), QStringLiteral("-q")}), QString());
    QCOMPARE(git(m_repo, {QStringLiteral("add"), QStringLiteral("README")}), QString());
    QCOMPARE(git(m_repo, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("first")}), QString());
    m_base = git(m_repo, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
    // What the sandbox holds: a shallow clone of HEAD, and a commit of its own on a branch.
    m_inside = m_dir.filePath(QStringLiteral("inside"));
    QCOMPARE(git(m_dir.path(), {QStringLiteral("clone"), QStringLiteral("-q"), QStringLiteral("--depth"),
                                QStringLiteral("1"), QStringLiteral("file://") + m_repo, m_inside}),
             QString());
    QCOMPARE(git(m_inside, {QStringLiteral("checkout"), QStringLiteral("-qb"), QStringLiteral("feature/x")}),
             QString());
    QCOMPARE(git(m_inside, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("--allow-empty"),
                            QStringLiteral("-m"), QStringLiteral("made inside")}),
             QString());
}

void TestRemoteFetchBack::aBundleOfTheSandboxBecomesBranches()
{
    const QString bundle = m_dir.filePath(QStringLiteral("good.bundle"));
    git(m_inside, {QStringLiteral("bundle"), QStringLiteral("create"), bundle, QStringLiteral("--branches"),
                   QStringLiteral("--not"), m_base});
    QVERIFY(QFile::exists(bundle));
    const paddock::Result<QStringList> fetched = RemoteFetchBack::fetchBundle(bundle, m_repo, QStringLiteral("lab1"));
    QVERIFY2(fetched, qPrintable(fetched.errorText()));
    QCOMPARE(fetched.value(), QStringList{QStringLiteral("paddock/lab1/feature/x")});
    QCOMPARE(git(m_repo, {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s %P"),
                          QStringLiteral("paddock/lab1/feature/x")}),
             QStringLiteral("made inside ") + m_base);
    QCOMPARE(git(m_repo, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}), m_base);
}

void TestRemoteFetchBack::craftedHeadsAreRefused_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("refusal");
    const QByteArray oid(40, 'a');
    QTest::newRow("a name climbing out") << "# v2 git bundle\n" + oid + " refs/heads/../../escape\n\nPACK"
                                         << QStringLiteral("names the branch '../../escape'");
    QTest::newRow("a dot part") << "# v2 git bundle\n" + oid + " refs/heads/a/.hidden\n\nPACK"
                                << QStringLiteral("not a plain branch name");
    QTest::newRow("a lock file") << "# v2 git bundle\n" + oid + " refs/heads/main.lock\n\nPACK"
                                 << QStringLiteral("not a plain branch name");
    QTest::newRow("an option") << "# v2 git bundle\n" + oid + " refs/heads/-f\n\nPACK"
                               << QStringLiteral("not a plain branch name");
    QTest::newRow("a tag") << "# v2 git bundle\n" + oid + " refs/tags/v1\n\nPACK" << QStringLiteral("not a branch");
    QTest::newRow("a filter") << QByteArray("# v3 git bundle\n@filter=blob:none\n\nPACK")
                              << QStringLiteral("not taken");
    QTest::newRow("not a bundle") << QByteArray("PK\x03\x04") << QStringLiteral("not a git bundle");
    QTest::newRow("a head without an end")
        << "# v2 git bundle\n" + QByteArray(2 * 1024 * 1024, 'a') << QStringLiteral("no end to its head");
}

void TestRemoteFetchBack::craftedHeadsAreRefused()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, refusal);
    const QString before = refs();
    const paddock::Result<QStringList> fetched =
        RemoteFetchBack::fetchBundle(write(QStringLiteral("crafted.bundle"), head), m_repo, QStringLiteral("lab2"));
    QVERIFY(!fetched);
    QVERIFY2(fetched.error().message.contains(refusal), qPrintable(fetched.error().message));
    QCOMPARE(refs(), before);
}

void TestRemoteFetchBack::aBundleThatDoesNotVerifyChangesNothing()
{
    // A commit the repository does not have, as the bundle's base: verify refuses it.
    const QString other = m_dir.filePath(QStringLiteral("other"));
    QCOMPARE(git(m_dir.path(), {QStringLiteral("init"), QStringLiteral("-q"), other}), QString());
    QCOMPARE(git(other, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("--allow-empty"),
                         QStringLiteral("-m"), QStringLiteral("elsewhere")}),
             QString());
    QCOMPARE(git(other, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("--allow-empty"),
                         QStringLiteral("-m"), QStringLiteral("on top")}),
             QString());
    const QString bundle = m_dir.filePath(QStringLiteral("unrelated.bundle"));
    git(other, {QStringLiteral("bundle"), QStringLiteral("create"), bundle, QStringLiteral("--branches"),
                QStringLiteral("--not"), QStringLiteral("HEAD~1")});
    const QString before = refs();
    paddock::Result<QStringList> fetched = RemoteFetchBack::fetchBundle(bundle, m_repo, QStringLiteral("lab3"));
    QVERIFY(!fetched);
    QVERIFY2(fetched.error().message.contains(QStringLiteral("does not verify")), qPrintable(fetched.error().message));
    QCOMPARE(refs(), before);
    // A bundle whose pack is cut short, with a commit the repository does not have yet.
    QCOMPARE(git(m_inside, {QStringLiteral("checkout"), QStringLiteral("-qb"), QStringLiteral("later")}), QString());
    QCOMPARE(git(m_inside, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("--allow-empty"),
                            QStringLiteral("-m"), QStringLiteral("not fetched yet")}),
             QString());
    const QString whole = m_dir.filePath(QStringLiteral("later.bundle"));
    git(m_inside, {QStringLiteral("bundle"), QStringLiteral("create"), whole, QStringLiteral("later"),
                   QStringLiteral("--not"), m_base});
    QFile later(whole);
    QVERIFY(later.open(QIODevice::ReadOnly));
    const QByteArray bytes = later.readAll();
    fetched = RemoteFetchBack::fetchBundle(write(QStringLiteral("cut.bundle"), bytes.left(bytes.size() - 30)), m_repo,
                                           QStringLiteral("lab3"));
    QVERIFY(!fetched);
    QVERIFY2(fetched.error().message.contains(QStringLiteral("do not check")), qPrintable(fetched.error().message));
    QCOMPARE(refs(), before);
}

QTEST_GUILESS_MAIN(TestRemoteFetchBack)
#include "tst_remote_fetch_back.moc"
