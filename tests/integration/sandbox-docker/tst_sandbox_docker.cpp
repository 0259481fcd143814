// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock run --backend docker` as a user runs it: the real daemon, the real engine, a
// container made from a kit whose image was built locally.
#include "DockerSandboxFixture.h"

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;

class TestSandboxDocker : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void foregroundRunPrintsTheOutputAndExitsWithTheProgramsStatus();
    void detachedSandboxIsListedLoggedAndRemoved();
    void missingImageNamesItAndTheCommandThatLoadsIt();
    void missingImageOfAKitWithADockerfileNamesTheBuildCommand();
    void sharedFoldersAndVariablesStayAcrossAStop();
    void theWorkspacesEnvironmentFileIsReadOnlyInside();
    void aDockerSandboxsNameIsNotGivenToABubblewrapOne();

private:
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
};

void TestSandboxDocker::initTestCase()
{
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
    m_kit = m_fixture->writeKit(QStringLiteral("kit"), QStringLiteral("boxed"), m_fixture->imageTag(),
                                QStringLiteral("echo hello from the container; echo to stderr >&2; exit 5"));
    QVERIFY(!m_kit.isEmpty());
}

void TestSandboxDocker::foregroundRunPrintsTheOutputAndExitsWithTheProgramsStatus()
{
    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), m_kit,
         QStringLiteral("--name"), QStringLiteral("fg-probe"), m_fixture->workspace()});
    QVERIFY2(run.out.contains(QLatin1String("hello from the container\n")), qPrintable(run.out + run.err));
    QVERIFY2(run.err.contains(QLatin1String("to stderr\n")), qPrintable(run.err));
    QCOMPARE(run.exitCode, 5);

    // Arguments after -- replace the kit's command; the sandbox is the same container again.
    const DockerFinished again = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), m_kit,
         QStringLiteral("--name"), QStringLiteral("fg-probe"), m_fixture->workspace(), QStringLiteral("--"),
         QStringLiteral("echo \"$HTTP_PROXY\" > proxy.txt; hostname")});
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QCOMPARE(again.out, QStringLiteral("fg-probe\n"));
    // The workspace is the user's folder, written through from inside.
    QFile written(m_fixture->workspace() + QStringLiteral("/proxy.txt"));
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), QByteArray("http://127.0.0.1:3128\n"));

    // The sandbox outlives its agent: it keeps running and tells how the agent ended (the
    // daemon keeps what the sandbox said for a moment, hence the wait).
    const QJsonObject listed = m_fixture->listed().value(QStringLiteral("fg-probe"));
    QCOMPARE(listed.value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    QCOMPARE(listed.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    const auto agentOf = [this](const QString &name) {
        return m_fixture->listed().value(name).value(QLatin1String("agent")).toObject();
    };
    QTRY_COMPARE_WITH_TIMEOUT(agentOf(QStringLiteral("fg-probe")).value(QLatin1String("exitCode")).toInt(-1), 0, 10000);
    QCOMPARE(agentOf(QStringLiteral("fg-probe")).value(QLatin1String("state")).toString(), QStringLiteral("exited"));
}

void TestSandboxDocker::detachedSandboxIsListedLoggedAndRemoved()
{
    const DockerFinished started = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--backend"), QStringLiteral("docker"),
         QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), QStringLiteral("bg-probe"), m_fixture->workspace(),
         QStringLiteral("--"), QStringLiteral("echo started; exec sleep 600")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    QCOMPARE(started.out, QStringLiteral("bg-probe\n"));

    const QJsonObject listed = m_fixture->listed().value(QStringLiteral("bg-probe"));
    QCOMPARE(listed.value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    QCOMPARE(listed.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    QCOMPARE(listed.value(QLatin1String("kit")).toString(), QStringLiteral("boxed"));
    const DockerFinished table = m_fixture->paddock({QStringLiteral("ls")});
    static const QRegularExpression row(QStringLiteral("(?m)^bg-probe\\s+boxed\\s+docker\\s+running\\s"));
    QVERIFY2(row.match(table.out).hasMatch(), qPrintable(table.out));
    // The engine knows it as Paddock's container.
    const auto found = m_fixture->client().listContainers({QStringLiteral("paddock.sandbox=bg-probe")});
    QVERIFY(found.ok() && found.value().size() == 1);
    const auto container = m_fixture->client().inspectContainer(found.value().first().id);
    QVERIFY2(container.ok(), qPrintable(container.errorMessage()));
    QVERIFY(container.value().running);

    // The agent's output (started without a terminal: this caller has none).
    QVERIFY(QTest::qWaitFor(
        [this] {
            return m_fixture->paddock({QStringLiteral("logs"), QStringLiteral("bg-probe")}).out ==
                   QLatin1String("started\n");
        },
        20000));
    const QJsonObject agent =
        m_fixture->listed().value(QStringLiteral("bg-probe")).value(QLatin1String("agent")).toObject();
    QCOMPARE(agent.value(QLatin1String("state")).toString(), QStringLiteral("running"));

    const DockerFinished removed =
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("bg-probe")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QCOMPARE(removed.out, QStringLiteral("removed bg-probe\n"));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("bg-probe")));
    QVERIFY(m_fixture->client()
                .inspectContainer(QStringLiteral("paddock-bg-probe"))
                .is(paddock::runtime::docker::Error::Kind::NotFound));
}

void TestSandboxDocker::missingImageNamesItAndTheCommandThatLoadsIt()
{
    const QString image =
        paddock::tests::docker::uniqueName(QStringLiteral("paddock-test/absent")) + QStringLiteral(":1");
    const QString kit =
        m_fixture->writeKit(QStringLiteral("absent-kit"), QStringLiteral("absent"), image, QStringLiteral("true"));
    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), kit,
         QStringLiteral("--name"), QStringLiteral("absent-probe"), m_fixture->workspace()});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("image %1 is not present").arg(image)), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("paddock template load FILE")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("docker save %1").arg(image)), qPrintable(run.err));
    // Nothing is left behind by the failed attempt.
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("absent-probe")));
}

void TestSandboxDocker::missingImageOfAKitWithADockerfileNamesTheBuildCommand()
{
    const QString image =
        paddock::tests::docker::uniqueName(QStringLiteral("paddock-test/unbuilt")) + QStringLiteral(":1");
    const QString kit =
        m_fixture->writeKit(QStringLiteral("unbuilt-kit"), QStringLiteral("unbuilt"), image, QStringLiteral("true"));
    QFile dockerfile(kit + QStringLiteral("/Dockerfile"));
    QVERIFY(dockerfile.open(QIODevice::WriteOnly));
    dockerfile.write("FROM scratch\n");
    dockerfile.close();
    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), kit,
         QStringLiteral("--name"), QStringLiteral("unbuilt-probe"), m_fixture->workspace()});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QStringLiteral("image %1 is not present").arg(image)), qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("paddock template build --kit %1").arg(kit)), qPrintable(run.err));
}

void TestSandboxDocker::sharedFoldersAndVariablesStayAcrossAStop()
{
    QVERIFY(QDir().mkpath(m_fixture->path(QStringLiteral("shared"))));
    QFile readOnly(m_fixture->path(QStringLiteral("models.json")));
    QVERIFY(readOnly.open(QIODevice::WriteOnly) && readOnly.write("{}\n") == 3);
    readOnly.close();
    const QStringList runDocker{
        QStringLiteral("run"),    QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), m_kit,
        QStringLiteral("--name"), QStringLiteral("shares")};
    const DockerFinished first = m_fixture->paddock(
        QStringList(runDocker) << QStringLiteral("--mount")
                               << m_fixture->path(QStringLiteral("shared")) + QStringLiteral(":/home/agent/shared")
                               << QStringLiteral("--mount")
                               << m_fixture->path(QStringLiteral("models.json")) + QStringLiteral(":/opt/m.json:ro")
                               << QStringLiteral("--env") << QStringLiteral("PGHOST=postgres") << m_fixture->workspace()
                               << QStringLiteral("--")
                               << QStringLiteral("echo \"PGHOST=$PGHOST\"; echo first > /home/agent/shared/w; "
                                                 "echo x >> /opt/m.json || echo write-refused"));
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    QVERIFY2(first.out.contains(QStringLiteral("PGHOST=postgres\nwrite-refused\n")), qPrintable(first.out));
    QVERIFY2(first.err.contains(QStringLiteral("Read-only file system")), qPrintable(first.err));
    QFile written(m_fixture->path(QStringLiteral("shared/w")));
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), QByteArray("first\n"));

    // Stopped and run again with nothing given: the container comes back with both.
    QVERIFY(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("shares")}).exitCode == 0);
    const DockerFinished again = m_fixture->paddock(
        QStringList(runDocker) << m_fixture->workspace() << QStringLiteral("--")
                               << QStringLiteral("echo \"PGHOST=$PGHOST\"; cat /home/agent/shared/w /opt/m.json"));
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QCOMPARE(again.out, QStringLiteral("PGHOST=postgres\nfirst\n{}\n"));
    QVERIFY(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("shares")}).exitCode ==
            0);
}

void TestSandboxDocker::theWorkspacesEnvironmentFileIsReadOnlyInside()
{
    // An sbxenv.yaml decides what `paddock env` runs on the host: the sandbox cannot rewrite it.
    const QString file = m_fixture->workspace() + QStringLiteral("/sbxenv.yaml");
    QFile env(file);
    QVERIFY(env.open(QIODevice::WriteOnly | QIODevice::Truncate));
    env.write("schemaVersion: \"1\"\nname: x\n");
    env.close();
    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), m_kit,
         QStringLiteral("--name"), QStringLiteral("env-file"), m_fixture->workspace(), QStringLiteral("--"),
         QStringLiteral(
             "echo '  evil: 1' >> sbxenv.yaml || echo edit-refused; echo ok > beside.txt && echo writable")});
    QVERIFY2(run.out.contains(QLatin1String("edit-refused")), qPrintable(run.out + run.err));
    QVERIFY2(run.err.contains(QLatin1String("Read-only file system")), qPrintable(run.err));
    QVERIFY2(run.out.contains(QLatin1String("writable")), qPrintable(run.out));
    QVERIFY(env.open(QIODevice::ReadOnly));
    QCOMPARE(env.readAll(), QByteArray("schemaVersion: \"1\"\nname: x\n"));
    env.close();
    QVERIFY(QFile::remove(file));
    m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("env-file")});
}

void TestSandboxDocker::aDockerSandboxsNameIsNotGivenToABubblewrapOne()
{
    // A name is one sandbox's, whichever runtime it is on: `paddock start twin` must mean one.
    const DockerFinished made = m_fixture->paddock(
        {QStringLiteral("create"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"),
         m_kit, QStringLiteral("--name"), QStringLiteral("twin"), m_fixture->workspace()});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const DockerFinished refused =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), m_kit, QStringLiteral("--name"),
                            QStringLiteral("twin"), m_fixture->workspace()});
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains(QLatin1String("a docker sandbox named twin exists already")),
             qPrintable(refused.err));
    const QJsonObject listed = m_fixture->listed().value(QStringLiteral("twin"));
    QCOMPARE(listed.value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    const DockerFinished removed =
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("twin")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
}

QTEST_GUILESS_MAIN(TestSandboxDocker)
#include "tst_sandbox_docker.moc"
