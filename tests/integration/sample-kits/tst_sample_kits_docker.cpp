// SPDX-License-Identifier: GPL-3.0-or-later
// The shell kit under Docker: its image built locally, with no registry, from the kit's own
// Dockerfile and prepare-context.sh, then a container run through the real daemon.
#include "../sandbox-docker/DockerSandboxFixture.h"

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;

class TestSampleKitsDocker : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void shellKitImageBuildsAndRuns();

private:
    std::unique_ptr<DockerSandboxFixture> m_fixture;
};

void TestSampleKitsDocker::initTestCase()
{
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
}

void TestSampleKitsDocker::shellKitImageBuildsAndRuns()
{
    const QString kit = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/shell");
    const QString context = m_fixture->path(QStringLiteral("context"));
    const DockerFinished prepared = m_fixture->run(kit + QStringLiteral("/prepare-context.sh"), {context});
    QVERIFY2(prepared.exitCode == 0, qPrintable(prepared.err));
    QVERIFY(QFileInfo(context + QStringLiteral("/busybox")).isExecutable());

    // A tag of the test's own, so an image of the real name on this machine is never touched.
    const QString tag = paddock::tests::docker::uniqueName(QStringLiteral("paddock-test/shell")) + QStringLiteral(":1");
    paddock::runtime::docker::BuildOptions options;
    options.contextDir = context;
    options.tag = tag;
    const paddock::runtime::docker::Result<QString> built = m_fixture->client().buildImage(options);
    QVERIFY2(built, qPrintable(built.errorMessage()));
    m_fixture->removeLater(tag);

    const QString copy = m_fixture->path(QStringLiteral("shell-kit"));
    QDir().mkpath(copy);
    QFile source(kit + QStringLiteral("/spec.yaml"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray spec = source.readAll();
    QVERIFY(spec.contains("\"paddock-shell:1\""));
    spec.replace("\"paddock-shell:1\"", '"' + tag.toUtf8() + '"');
    QFile target(copy + QStringLiteral("/spec.yaml"));
    QVERIFY(target.open(QIODevice::WriteOnly) && target.write(spec) == spec.size());
    target.close();

    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"), QStringLiteral("--kit"), copy,
         QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
         QStringLiteral("echo \"prompt=$PS1\"; readlink /bin/ls; echo made > made-in-docker.txt")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.startsWith(QLatin1String("prompt=shell$ \n")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("/bin/busybox")), qPrintable(run.out));
    QVERIFY(QFileInfo::exists(m_fixture->workspace() + QStringLiteral("/made-in-docker.txt")));
}

QTEST_GUILESS_MAIN(TestSampleKitsDocker)
#include "tst_sample_kits_docker.moc"
