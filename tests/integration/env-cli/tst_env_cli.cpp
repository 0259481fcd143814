// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock env` as the person who checked their sandbox's setup into the project as sbxenv.yaml:
// the real paddock and paddockd, bubblewrap, run as an ordinary user in a home of the test's own,
// the approvals typed on a real terminal.
#include "Needs.h"
#include "SandboxFixture.h"
#include "Terminal.h"
#include "TestFiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using paddock::test::Terminal;

class TestEnvCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void thePlanShowsEveryHostCommandVerbatim();
    void upRefusesAHostCommandNotApproved();
    void upRunsTheHostCommandOnceApprovedOnATerminal();
    void theFoldersAndVariablesAreInside();
    void theFileCannotBeChangedFromInside();
    void rmAsksBeforeItsHostCommandThenRemoves();
    void aChangedCommandAsksAgain();
    void aCompanionServiceComesAndGoesWithIt();

private:
    QString file() const { return m_fixture->workspace() + QStringLiteral("/sbxenv.yaml"); }
    QString marker(const QString &name) const { return m_fixture->path(QStringLiteral("markers/") + name); }
    QByteArray environmentFile(const QString &postCreate) const;
    /** `paddock env ARGS` on a terminal, answering y to each of @p questions in turn. */
    int onTerminal(const QStringList &arguments, const QList<QByteArray> &questions, QByteArray *screen);

    std::unique_ptr<SandboxFixture> m_fixture;
};

QByteArray TestEnvCli::environmentFile(const QString &postCreate) const
{
    return QStringLiteral("schemaVersion: \"1\"\n"
                          "name: envtest\n"
                          "workspace: .\n"
                          "env:\n"
                          "  PGHOST: postgres\n"
                          "  NUGET_PACKAGES: /home/agent/.nuget/packages\n"
                          "bindings:\n"
                          "  envtest-api:\n"
                          "    apiKey:\n"
                          "      domains: [api.envtest.example]\n"
                          "lifecycle:\n"
                          "  postCreate:\n"
                          "    - name: Mark the creation\n"
                          "      command: |\n"
                          "        %1\n"
                          "  preRemove:\n"
                          "    - command: echo \"removing $SBX_SANDBOX_NAME\" > %2\n"
                          "x-paddock:\n"
                          "  kit: %3\n"
                          "  mounts:\n"
                          "    - ~/.nuget:/home/agent/.nuget\n"
                          "    - ~/models/models.json:/home/agent/models.json:ro\n")
        .arg(postCreate, marker(QStringLiteral("removed")), m_fixture->kitDir())
        .toUtf8();
}

int TestEnvCli::onTerminal(const QStringList &arguments, const QList<QByteArray> &questions, QByteArray *screen)
{
    Terminal terminal(QStringList{QStringLiteral("env")} << arguments, m_fixture->environment(),
                      m_fixture->workspace());
    for (const QByteArray &question : questions) {
        if (!terminal.waitFor(question, 120000)) {
            *screen = terminal.screen();
            return -2;
        }
        terminal.type("y\r");
    }
    const int status = terminal.wait(300000);
    *screen = terminal.screen();
    return status;
}

void TestEnvCli::initTestCase()
{
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty(), "bubblewrap");
    m_fixture = std::make_unique<SandboxFixture>();
    m_fixture->addEnvironment(QStringLiteral("HOME"), m_fixture->path(QStringLiteral("home")));
    // The companion's test reaches the engine, as a user's sandboxes do.
    m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"), QStringLiteral("unix:///var/run/docker.sock"));
    for (const char *folder : {"home/.nuget", "home/models", "markers"})
        QVERIFY(QDir().mkpath(m_fixture->path(QLatin1String(folder))));
    QVERIFY(paddock::test::writeFile(m_fixture->path(QStringLiteral("home/models/models.json")), "{\"models\": []}\n"));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(paddock::test::writeFile(
        file(), environmentFile(
                    QStringLiteral("echo \"created $SBX_SANDBOX_NAME\" > %1").arg(marker(QStringLiteral("created"))))));
}

void TestEnvCli::thePlanShowsEveryHostCommandVerbatim()
{
    const Finished plan = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("plan")});
    QVERIFY2(plan.exitCode == 0, qPrintable(plan.err + plan.out));
    for (const QString &part :
         {QStringLiteral("echo \"created $SBX_SANDBOX_NAME\" > %1\n").arg(marker(QStringLiteral("created"))),
          QStringLiteral("echo \"removing $SBX_SANDBOX_NAME\" > %1\n").arg(marker(QStringLiteral("removed"))),
          QStringLiteral("postCreate \"Mark the creation\""), QStringLiteral("not approved yet"),
          QStringLiteral("PGHOST=postgres"),
          m_fixture->path(QStringLiteral("home/.nuget")) + QStringLiteral(" -> /home/agent/.nuget (read-write)"),
          QStringLiteral("/home/agent/models.json (read-only)"), QStringLiteral("sbxenv.yaml in it is read-only")})
        QVERIFY2(plan.out.contains(part), qPrintable(part + QStringLiteral("\n--\n") + plan.out));
    QVERIFY(m_fixture->listed().isEmpty());
}

void TestEnvCli::upRefusesAHostCommandNotApproved()
{
    // --yes approves the plan, never a command run here; without a terminal nothing is done.
    const Finished up = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("up"), QStringLiteral("--yes")});
    QCOMPARE(up.exitCode, 1);
    QVERIFY2(up.err.contains(QStringLiteral("this host command is not approved")), qPrintable(up.err));
    QVERIFY(!QFile::exists(marker(QStringLiteral("created"))));
    QVERIFY(m_fixture->listed().isEmpty());
}

void TestEnvCli::upRunsTheHostCommandOnceApprovedOnATerminal()
{
    QByteArray screen;
    const int status =
        onTerminal({QStringLiteral("up")},
                   {QByteArrayLiteral("Run it on this computer?"), QByteArrayLiteral("as planned?")}, &screen);
    QVERIFY2(status == 0, screen.constData());
    // The text shown before the question is the command itself.
    QVERIFY2(screen.contains("runs this on this computer (postCreate"), screen.constData());
    QVERIFY2(
        screen.contains(
            QStringLiteral("echo \"created $SBX_SANDBOX_NAME\" > %1").arg(marker(QStringLiteral("created"))).toUtf8()),
        screen.constData());
    QCOMPARE(paddock::test::readFile(marker(QStringLiteral("created"))), QByteArray("created envtest\n"));
    QVERIFY(m_fixture->listed().contains(QStringLiteral("envtest")));
    // The file's bindings are the daemon's when `up` returns: its own list has them.
    const Finished bindings =
        m_fixture->paddock({QStringLiteral("binding"), QStringLiteral("ls"), QStringLiteral("--json")});
    QCOMPARE(bindings.exitCode, 0);
    const QJsonArray list = QJsonDocument::fromJson(bindings.out.toUtf8()).array();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.at(0).toObject().value(QStringLiteral("service")).toString(), QStringLiteral("envtest-api"));
    QCOMPARE(list.at(0).toObject().value(QStringLiteral("domains")).toArray(),
             QJsonArray{QStringLiteral("api.envtest.example")});
}

void TestEnvCli::theFoldersAndVariablesAreInside()
{
    const Finished inside = m_fixture->paddock(
        {QStringLiteral("env"), QStringLiteral("exec"), QStringLiteral("--"), QStringLiteral("sh"),
         QStringLiteral("-c"),
         QStringLiteral("echo \"PGHOST=$PGHOST NUGET_PACKAGES=$NUGET_PACKAGES\"; cat /home/agent/models.json; "
                        "echo from-inside > /home/agent/.nuget/written")});
    QVERIFY2(inside.exitCode == 0, qPrintable(inside.err));
    QVERIFY2(inside.out.contains(QStringLiteral("PGHOST=postgres NUGET_PACKAGES=/home/agent/.nuget/packages\n")),
             qPrintable(inside.out));
    QVERIFY2(inside.out.contains(QStringLiteral("{\"models\": []}")), qPrintable(inside.out));
    QCOMPARE(paddock::test::readFile(m_fixture->path(QStringLiteral("home/.nuget/written"))),
             QByteArray("from-inside\n"));
}

void TestEnvCli::theFileCannotBeChangedFromInside()
{
    const QByteArray before = paddock::test::readFile(file());
    const Finished edit = m_fixture->paddock(
        {QStringLiteral("env"), QStringLiteral("exec"), QStringLiteral("--"), QStringLiteral("sh"),
         QStringLiteral("-c"),
         QStringLiteral("echo '    - command: touch /tmp/x' >> %1 || echo edit-refused; "
                        "rm -f %1 || echo removal-refused; echo other > %2/other.txt && echo workspace-writable")
             .arg(file(), m_fixture->workspace())});
    QVERIFY2(edit.out.contains(QStringLiteral("edit-refused")), qPrintable(edit.out));
    QVERIFY2(edit.err.contains(QStringLiteral("Read-only file system")), qPrintable(edit.err));
    QVERIFY2(edit.out.contains(QStringLiteral("workspace-writable")), qPrintable(edit.out));
    QCOMPARE(paddock::test::readFile(file()), before);
}

void TestEnvCli::rmAsksBeforeItsHostCommandThenRemoves()
{
    const Finished refused = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("rm")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("this host command is not approved")), qPrintable(refused.err));
    QVERIFY(m_fixture->listed().contains(QStringLiteral("envtest")));
    QVERIFY(!QFile::exists(marker(QStringLiteral("removed"))));

    QByteArray screen;
    QVERIFY2(onTerminal({QStringLiteral("rm")}, {QByteArrayLiteral("Run it on this computer?")}, &screen) == 0,
             screen.constData());
    QCOMPARE(paddock::test::readFile(marker(QStringLiteral("removed"))), QByteArray("removing envtest\n"));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("envtest")));
}

void TestEnvCli::aChangedCommandAsksAgain()
{
    const QByteArray approved = paddock::test::readFile(file());
    QVERIFY(QFile::remove(marker(QStringLiteral("created"))));
    // One word changed in the file: the approval of the old text does not cover the new one.
    QVERIFY(paddock::test::writeFile(
        file(), environmentFile(QStringLiteral("echo \"created $SBX_SANDBOX_NAME\" > %1; touch %2")
                                    .arg(marker(QStringLiteral("created")), marker(QStringLiteral("changed"))))));
    const Finished plan = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("plan")});
    QVERIFY2(plan.out.contains(QStringLiteral("not approved yet")), qPrintable(plan.out));
    const Finished refused = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("up"), QStringLiteral("--yes")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("new or changed since it was approved")), qPrintable(refused.err));
    QVERIFY(!QFile::exists(marker(QStringLiteral("changed"))));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("envtest")));

    // The approved text back: --yes brings it up without asking, the commands run.
    QVERIFY(paddock::test::writeFile(file(), approved));
    const Finished up = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("up"), QStringLiteral("--yes")});
    QVERIFY2(up.exitCode == 0, qPrintable(up.err));
    QCOMPARE(paddock::test::readFile(marker(QStringLiteral("created"))), QByteArray("created envtest\n"));
    const Finished removed = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("rm")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("envtest")));
}

void TestEnvCli::aCompanionServiceComesAndGoesWithIt()
{
    PADDOCK_NEED_DOCKER();
    const QString folder = m_fixture->path(QStringLiteral("with-db"));
    QVERIFY(QDir().mkpath(folder + QStringLiteral("/project")));
    const QString envFile = folder + QStringLiteral("/sbxenv.yaml");
    QVERIFY(paddock::test::writeFile(envFile, QStringLiteral("schemaVersion: \"1\"\nname: envdb\nworkspace: project\n"
                                                             "x-paddock:\n  kit: %1\n  services:\n"
                                                             "    - name: db\n      image: %2\n      ports: [5432]\n"
                                                             "      command: [sleep, \"600\"]\n")
                                                  .arg(m_fixture->kitDir(), QStringLiteral(PADDOCK_CLIENTS_IMAGE))
                                                  .toUtf8()));
    const Finished up =
        m_fixture->paddock({QStringLiteral("env"), QStringLiteral("up"), QStringLiteral("--yes"), envFile});
    QVERIFY2(up.exitCode == 0, qPrintable(up.err));
    QVERIFY2(up.out.contains(QStringLiteral("db: %1, ports 5432").arg(QStringLiteral(PADDOCK_CLIENTS_IMAGE))),
             qPrintable(up.out));
    const Finished services =
        m_fixture->paddock({QStringLiteral("service"), QStringLiteral("ls"), QStringLiteral("envdb")});
    QVERIFY2(services.out.contains(QStringLiteral("db")), qPrintable(services.out + services.err));
    const Finished removed = m_fixture->paddock({QStringLiteral("env"), QStringLiteral("rm"), envFile});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("envdb")));
}

QTEST_GUILESS_MAIN(TestEnvCli)
#include "tst_env_cli.moc"
