// SPDX-License-Identifier: GPL-3.0-or-later
// Attack: a workspace that holds Paddock's own files. `cd ~ && paddock run --kit K` used to bind
// the home folder read-write; inside, `echo … >> $PWD/.config/paddock/policy.yaml` succeeded, so
// the sandbox could rewrite its own policy and read ~/.ssh. Each case makes the real attempt
// through the real CLI and daemon as an ordinary user, and checks it is refused with the reason
// and that nothing was written.
#include "SandboxFixture.h"

#include <QCryptographicHash>
#include <QtTest>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class TestWorkspaceGuard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void refused_data();
    void refused();
    void aProjectFolderIsAccepted();
    void aLinkToTheHomeIsFollowed();
    void aReadOnlyPathIsHeldToTheSameRule();

private:
    /** `paddock run --kit KIT --name NAME WORKSPACE -- SCRIPT` from @p cwd. */
    Finished runIn(const QString &workspace, const QString &name, const QStringList &extra = {})
    {
        return m_fixture->paddock(
            QStringList{QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(), QStringLiteral("--name"),
                        name, workspace} +
            extra +
            QStringList{QStringLiteral("--"),
                        QStringLiteral("echo 'allow: [\"*\"]' >> \"$PWD/config/paddock/policy.yaml\"; "
                                       "echo tampered > \"$PWD/.ssh-probe\"")});
    }
    QByteArray policyDigest() const
    {
        QFile file(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
        return file.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256)
                                              : QByteArray("missing");
    }

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestWorkspaceGuard::initTestCase()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestWorkspaceGuard::refused_data()
{
    // A workspace is an absolute path, or a path inside the fixture's folder (relative): the
    // data rows are listed before initTestCase() made the fixture (-datatags) and do not use it.
    QTest::addColumn<QString>("workspace");
    QTest::addColumn<QString>("reason");
    // The fixture's XDG folders all live in one temporary folder, as ~/.config and ~/.local do in a home.
    QTest::newRow("the root") << QStringLiteral("/") << QStringLiteral("whole file system");
    QTest::newRow("the home") << QDir::homePath() << QStringLiteral("home folder");
    QTest::newRow("the folder holding the settings") << QString() << QStringLiteral("holds");
    QTest::newRow("the settings themselves")
        << QStringLiteral("config/paddock") << QStringLiteral("Paddock's own folders");
    QTest::newRow("a folder inside the data") << QStringLiteral("data/paddock/sandboxes") << QStringLiteral("inside");
    QTest::newRow("the config parent") << QStringLiteral("config") << QStringLiteral("holds");
}

void TestWorkspaceGuard::refused()
{
    QFETCH(QString, workspace);
    QFETCH(QString, reason);
    if (!workspace.startsWith(QLatin1Char('/')))
        workspace = m_fixture->path(workspace);
    QDir().mkpath(workspace);
    const QByteArray before = policyDigest();
    const Finished run = runIn(workspace, QStringLiteral("guarded"));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(reason), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("choose a project folder")), qPrintable(run.err));
    QCOMPARE(policyDigest(), before);
    QVERIFY(!QFileInfo::exists(workspace + QStringLiteral("/.ssh-probe")));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("guarded")));
}

void TestWorkspaceGuard::aProjectFolderIsAccepted()
{
    const Finished run = m_fixture->runScript(QStringLiteral("project"), QStringLiteral("echo fine > ok.txt"));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QFileInfo::exists(m_fixture->workspace() + QStringLiteral("/ok.txt")));
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("-f"), QStringLiteral("project")}).exitCode, 0);
}

void TestWorkspaceGuard::aLinkToTheHomeIsFollowed()
{
    const QString link = m_fixture->workspace() + QStringLiteral("/../home-link");
    QFile::remove(link);
    QVERIFY(QFile::link(m_fixture->path(QStringLiteral("config")), link));
    const Finished run = runIn(link, QStringLiteral("linked"));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("holds")), qPrintable(run.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("linked")));
}

void TestWorkspaceGuard::aReadOnlyPathIsHeldToTheSameRule()
{
    QVERIFY(QDir().mkpath(m_fixture->path(QStringLiteral("config/paddock/kits"))));
    const Finished run = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                             QStringLiteral("--name"), QStringLiteral("reader"), m_fixture->workspace(),
                                             m_fixture->path(QStringLiteral("config/paddock/kits")),
                                             QStringLiteral("--"), QStringLiteral("true")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("inside")), qPrintable(run.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("reader")));
}

QTEST_GUILESS_MAIN(TestWorkspaceGuard)
#include "tst_workspace_guard.moc"
