// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock run --clone`: the sandbox works on a disposable clone of the folder's repository
// and its commits come back as branches, while the user's work tree stays as it was. The
// clone is the sandbox's writing: configuration, hooks and a repository layout leading out of
// it must neither run anything nor read anything on the host when its commits are fetched.
#include "SandboxFixture.h"

#include <QtTest>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class SandboxCloneTest : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SandboxFixture> m_fixture;
    QString m_head; ///< the user's commit the clones start from

    Finished git(const QString &directory, const QStringList &arguments)
    {
        return m_fixture->run(QStringLiteral("git"),
                              QStringList{QStringLiteral("-C"), directory, QStringLiteral("-c"),
                                          QStringLiteral("user.name=Tester"), QStringLiteral("-c"),
                                          QStringLiteral("user.email=tester@example.invalid")} +
                                  arguments);
    }
    QString gitOut(const QString &directory, const QStringList &arguments)
    {
        return git(directory, arguments).out.trimmed();
    }
    Finished runClone(const QString &name, const QString &script, const QString &folder = {})
    {
        return m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--clone"), QStringLiteral("--kit"),
                                   m_fixture->kitDir(), QStringLiteral("--name"), name,
                                   folder.isEmpty() ? m_fixture->workspace() : folder, QStringLiteral("--"), script});
    }
    QString clonePath(const QString &name) const
    {
        return m_fixture->path(QStringLiteral("data/paddock/sandboxes/%1/workspace").arg(name));
    }
    QString markers() const { return m_fixture->path(QStringLiteral("markers")); }
    QString secret() const { return m_fixture->path(QStringLiteral("secret")); }

    /** The user's work tree as `git status` sees it, and the README's text. */
    void verifyUserTreeUntouched()
    {
        QCOMPARE(gitOut(m_fixture->workspace(), {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}), m_head);
        QCOMPARE(gitOut(m_fixture->workspace(), {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QStringLiteral("?? .env"));
        QFile readme(m_fixture->workspace() + QStringLiteral("/README.md"));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        QCOMPARE(readme.readAll(), QByteArray("the user's own readme\n"));
    }

private slots:
    void initTestCase()
    {
        QString why;
        m_fixture = SandboxFixture::startWithAuthority(&why);
        QVERIFY2(m_fixture, qPrintable(why));
        const QString workspace = m_fixture->workspace();
        QCOMPARE(
            git(workspace, {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("main")})
                .exitCode,
            0);
        QCOMPARE(git(workspace, {QStringLiteral("add"), QStringLiteral("README.md")}).exitCode, 0);
        QCOMPARE(git(workspace, {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"),
                                 QStringLiteral("the user's commit")})
                     .exitCode,
                 0);
        m_head = gitOut(workspace, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
        QCOMPARE(m_head.size(), 40);
        QFile env(workspace + QStringLiteral("/.env"));
        QVERIFY(env.open(QIODevice::WriteOnly));
        env.write("API_TOKEN=never-in-the-clone\n");
        env.close();

        // A repository elsewhere on the host that a hostile clone would like to read.
        QVERIFY(QDir().mkpath(secret()));
        QVERIFY(QDir().mkpath(markers()));
        QFile file(secret() + QStringLiteral("/secret.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("the host's private notes\n");
        file.close();
        QCOMPARE(git(secret(), {QStringLiteral("init"), QStringLiteral("-q")}).exitCode, 0);
        QCOMPARE(git(secret(), {QStringLiteral("add"), QStringLiteral("secret.txt")}).exitCode, 0);
        QCOMPARE(git(secret(),
                     {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("private")})
                     .exitCode,
                 0);
    }

    void cleanupTestCase() { m_fixture.reset(); }

    void commitsComeBackAsBranches()
    {
        const QString name = QStringLiteral("clone-work");
        const Finished run = runClone(
            name,
            QStringLiteral("set -e\n"
                           "test \"$PWD\" = %1\n"
                           "if [ -e .env ]; then echo ENV-PRESENT; exit 9; fi\n"
                           "id -u\n"
                           "echo 'from the sandbox' >> README.md\n"
                           "git add README.md\n"
                           "git -c user.name=Agent -c user.email=agent@example.invalid commit -q -m 'sandbox work'\n"
                           "git rev-parse HEAD\n")
                .arg(m_fixture->workspace()));
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err + m_fixture->daemonLog()));
        QVERIFY(!run.out.contains(QLatin1String("ENV-PRESENT")));
        const QString commit = run.out.trimmed().section(QLatin1Char('\n'), -1);
        QCOMPARE(commit.size(), 40);
        QVERIFY(commit != m_head);

        // The user's repository has the sandbox's commit as a branch, and nothing else changed.
        const QString branch = QStringLiteral("paddock/%1/main").arg(name);
        QCOMPARE(gitOut(m_fixture->workspace(), {QStringLiteral("rev-parse"), QStringLiteral("refs/heads/") + branch}),
                 commit);
        QCOMPARE(gitOut(m_fixture->workspace(),
                        {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s"), branch}),
                 QStringLiteral("sandbox work"));
        QVERIFY2(run.err.contains(branch), qPrintable(run.err));
        verifyUserTreeUntouched(); // the kit's files/workspace went into the clone, not here
        QVERIFY(QFileInfo::exists(clonePath(name) + QStringLiteral("/KIT-NOTES.md")));

        // The sandbox's INFO says where the clone is; the remote exists while the sandbox does.
        const QJsonObject info = m_fixture->listed().value(name);
        QCOMPARE(info.value(QLatin1String("workspaceMode")).toString(), QStringLiteral("clone"));
        QCOMPARE(info.value(QLatin1String("workspace")).toString(), m_fixture->workspace());
        const QJsonObject clone = info.value(QLatin1String("clone")).toObject();
        QCOMPARE(clone.value(QLatin1String("path")).toString(), clonePath(name));
        QCOMPARE(clone.value(QLatin1String("branchPrefix")).toString(), QStringLiteral("paddock/%1/").arg(name));
        QVERIFY(gitOut(m_fixture->workspace(), {QStringLiteral("remote")})
                    .split(QLatin1Char('\n'))
                    .contains(QStringLiteral("paddock-") + name));

        const Finished removed = m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), name});
        QCOMPARE(removed.exitCode, 0);
        QVERIFY(!gitOut(m_fixture->workspace(), {QStringLiteral("remote")}).contains(QStringLiteral("paddock-")));
        QCOMPARE(gitOut(m_fixture->workspace(), {QStringLiteral("rev-parse"), QStringLiteral("refs/heads/") + branch}),
                 commit);
        QVERIFY(!QFileInfo::exists(clonePath(name)));
        verifyUserTreeUntouched();
    }

    void directModeIsTheDefault()
    {
        const Finished run =
            m_fixture->runScript(QStringLiteral("direct-work"), QStringLiteral("test -e .env && echo sees-env"));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(QLatin1String("sees-env")));
        QCOMPARE(
            m_fixture->listed().value(QStringLiteral("direct-work")).value(QLatin1String("workspaceMode")).toString(),
            QStringLiteral("direct"));
        QCOMPARE(
            m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("direct-work")}).exitCode,
            0);
        // The kit's workspace files land in a direct workspace: put it back as it was.
        QFile::remove(m_fixture->workspace() + QStringLiteral("/KIT-NOTES.md"));
    }

    void refusedOutsideAGitWorkTree()
    {
        const QString plain = m_fixture->path(QStringLiteral("plain"));
        QVERIFY(QDir().mkpath(plain));
        const Finished run = runClone(QStringLiteral("no-repo"), QStringLiteral("true"), plain);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QLatin1String("is not in a git work tree")), qPrintable(run.err));
        QVERIFY(!m_fixture->listed().contains(QStringLiteral("no-repo")));
    }

    /**
     * Configuration a sandbox can write into the clone that would run a program if the host's
     * git honoured it during a fetch. git 2.39 does not run hooks, fsmonitor or a pack-objects
     * hook from the serving repository's own config, and the URL is the fetching side's; the
     * fetch is confined anyway, and this checks that nothing ran, for Paddock's fetch and for a
     * `git fetch paddock-NAME` of the user's.
     */
    void hostileConfigRunsNothing()
    {
        const QString name = QStringLiteral("hostile-config");
        const QString hooks = QStringLiteral("pre-upload-pack post-upload-pack reference-transaction pre-receive "
                                             "post-receive update post-update fsmonitor-watchman pre-auto-gc "
                                             "post-checkout post-merge push-to-checkout");
        const QString script =
            QStringLiteral("set -e\n"
                           "echo change >> README.md\n"
                           "git add README.md\n"
                           "git -c user.name=A -c user.email=a@example.invalid commit -q -m hostile\n"
                           "mkdir -p .git/evil-hooks\n"
                           "for h in %1; do\n"
                           "  printf '#!/bin/sh\\ntouch %2/hook-%s\\n' \"$h\" > .git/evil-hooks/$h\n"
                           "  chmod +x .git/evil-hooks/$h\n"
                           "  cp .git/evil-hooks/$h .git/hooks/$h\n"
                           "done\n"
                           "git config core.hooksPath \"$PWD/.git/evil-hooks\"\n"
                           "git config core.fsmonitor 'touch %2/fsmonitor'\n"
                           "git config uploadpack.packObjectsHook 'touch %2/pack-objects-hook;'\n"
                           "git config core.sshCommand 'touch %2/ssh-command'\n"
                           "git config core.alternateRefsCommand 'touch %2/alternate-refs'\n"
                           "git config protocol.allow always\n"
                           "git config url.'ext::sh -c touch% %2/ext'.insteadOf %3\n"
                           "git config url.'ext::sh -c touch% %2/ext-user'.insteadOf %4\n")
                .arg(hooks, markers(), clonePath(name), m_fixture->workspace());
        const Finished run = runClone(name, script);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QCOMPARE(
            gitOut(m_fixture->workspace(), {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s"),
                                            QStringLiteral("paddock/%1/main").arg(name)}),
            QStringLiteral("hostile"));
        QCOMPARE(QDir(markers()).entryList(QDir::Files | QDir::Hidden), QStringList());

        // The user fetching the remote by hand goes through the same confinement.
        const Finished fetched =
            git(m_fixture->workspace(), {QStringLiteral("fetch"), QStringLiteral("paddock-") + name});
        QVERIFY2(fetched.exitCode == 0, qPrintable(fetched.err));
        QCOMPARE(QDir(markers()).entryList(QDir::Files | QDir::Hidden), QStringList());
        verifyUserTreeUntouched();
        QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), name}).exitCode, 0);
        QCOMPARE(QDir(markers()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    void hostileLayoutReadsNothingOutside_data()
    {
        QTest::addColumn<QString>("script");
        // Each points the clone's objects at the secret repository on the host and its branch
        // at the secret commit: a plain fetch would copy that commit into the user's repository.
        QTest::newRow("symlinked objects") << QStringLiteral("rm -rf .git/objects\n"
                                                             "ln -s %1/.git/objects .git/objects\n"
                                                             "printf '%2\\n' > .git/refs/heads/main\n");
        QTest::newRow("alternates") << QStringLiteral("printf '%1/.git/objects\\n' > .git/objects/info/alternates\n"
                                                      "printf '%2\\n' > .git/refs/heads/main\n");
        QTest::newRow("gitfile") << QStringLiteral("rm -rf .git\n"
                                                   "printf 'gitdir: %1/.git\\n' > .git\n");
    }

    void hostileLayoutReadsNothingOutside()
    {
        QFETCH(QString, script);
        const QString secretCommit = gitOut(secret(), {QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
        QCOMPARE(secretCommit.size(), 40);
        const QString name = QStringLiteral("hostile-layout-%1")
                                 .arg(QTest::currentDataTag())
                                 .replace(QLatin1Char(' '), QLatin1Char('-'));
        const Finished run = runClone(
            name,
            QStringLiteral("set -e\n") +
                QString(script).replace(QLatin1String("%1"), secret()).replace(QLatin1String("%2"), secretCommit));
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));

        // The vector is real: a plain git fetch of this clone does read the secret repository.
        const QString scratch = m_fixture->path(QStringLiteral("scratch-") + name);
        QCOMPARE(git(m_fixture->path({}), {QStringLiteral("init"), QStringLiteral("-q"), scratch}).exitCode, 0);
        git(scratch, {QStringLiteral("fetch"), QStringLiteral("-q"), clonePath(name),
                      QStringLiteral("+refs/heads/*:refs/heads/probe/*")});
        QCOMPARE(git(scratch, {QStringLiteral("cat-file"), QStringLiteral("-e"), secretCommit}).exitCode, 0);

        // Paddock's fetch did not, nor does the user's fetch of the remote.
        QVERIFY(
            git(m_fixture->workspace(), {QStringLiteral("cat-file"), QStringLiteral("-e"), secretCommit}).exitCode !=
            0);
        git(m_fixture->workspace(), {QStringLiteral("fetch"), QStringLiteral("paddock-") + name});
        QVERIFY(
            git(m_fixture->workspace(), {QStringLiteral("cat-file"), QStringLiteral("-e"), secretCommit}).exitCode !=
            0);
        verifyUserTreeUntouched();

        // Removing the sandbox removes the clone's links, not what they point to.
        QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), name}).exitCode, 0);
        QVERIFY(!QFileInfo::exists(clonePath(name)));
        QCOMPARE(gitOut(secret(), {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}), secretCommit);
        QVERIFY(QFileInfo::exists(secret() + QStringLiteral("/.git/objects")));
    }
};

QTEST_GUILESS_MAIN(SandboxCloneTest)
#include "tst_sandbox_clone.moc"
