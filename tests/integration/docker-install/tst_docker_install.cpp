// SPDX-License-Identifier: GPL-3.0-or-later
// What a kit's setup.install writes to the system of a Docker sandbox stays in it, as it does
// under bubblewrap: a tool in /usr/local/bin runs through `exec`, before and after a stop, and a
// recreation installs it again; removing the sandbox, or an install that fails, leaves no image
// or container behind; the kit's volumes, tmpfs and kept, are the agent's to write as without
// setup.install. As an ordinary user in the group `docker` (tests/support/run-as-user.sh).
#include "DockerSandboxFixture.h"

#include "runtime/docker/DockerRuntime.h"

#include <unistd.h>

using paddock::runtime::DockerRuntime;
using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;
namespace docker = paddock::runtime::docker;

class TestDockerInstall : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void runsAsAnOrdinaryUser();
    void toolTheKitInstalledRunsAndStaysAcrossAStop();
    void theSandboxsImageKeepsTheKitImagesCommandAndFolder();
    void removingTheSandboxLeavesNoImageBehind();
    void aFailedInstallLeavesNoContainerAndNoImage();
    void recreateInstallsAgainOnTheKitsImage();
    void theKitsVolumesAreTheAgentsBesideWhatItInstalled();

private:
    DockerFinished paddock(const QStringList &arguments) { return m_fixture->paddock(arguments); }
    /**
     * A kit in path(@p dir) on the test's image whose setup.install writes /usr/local/bin/kit-tool
     * (which prints `kit-tool VERSION`) as root, then runs @p agentCommand as the agent's user.
     */
    QString writeInstallKit(const QString &dir, const QString &version,
                            const QString &agentCommand = QStringLiteral("id -u > $HOME/agent-install.txt"))
    {
        return m_fixture->writeKit(
            dir, QStringLiteral("tooled"), m_image, QStringLiteral("echo ready"),
            QStringLiteral("setup:\n"
                           "  install:\n"
                           "    - command: 'mkdir -p /usr/local/bin && printf \"#!/bin/sh\\necho kit-tool "
                           "%1\\n\" > /usr/local/bin/kit-tool && chmod 755 /usr/local/bin/kit-tool'\n"
                           "    - command: '%2'\n"
                           "      user: agent\n")
                .arg(version, agentCommand));
    }
    DockerFinished create(const QString &name, const QString &kit)
    {
        return paddock({QStringLiteral("create"), QStringLiteral("--backend"), QStringLiteral("docker"),
                        QStringLiteral("--kit"), kit, QStringLiteral("--name"), name, m_fixture->workspace()});
    }
    DockerFinished kitTool(const QString &name)
    {
        return paddock({QStringLiteral("exec"), name, QStringLiteral("--"), QStringLiteral("kit-tool")});
    }
    /** What `docker image ls --all --filter label=paddock.installed-for=NAME` lists of this Paddock's. */
    QList<docker::ImageInfo> installedImages(const QString &name)
    {
        const docker::Result<QList<docker::ImageInfo>> images =
            m_fixture->client().listImages({QStringLiteral("paddock.installed-for=") + name,
                                            QStringLiteral("paddock.owner=") + DockerRuntime::owner()},
                                           true);
        return images ? images.value() : QList<docker::ImageInfo>{docker::ImageInfo{}};
    }
    QList<docker::ContainerSummary> containersOf(const QString &name)
    {
        const docker::Result<QList<docker::ContainerSummary>> containers = m_fixture->client().listContainers(
            {QStringLiteral("paddock.sandbox=") + name, QStringLiteral("paddock.owner=") + DockerRuntime::owner()});
        return containers ? containers.value() : QList<docker::ContainerSummary>{docker::ContainerSummary{}};
    }

    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_image; ///< the kit's image: busybox with a command, a folder and a variable of its own
    QString m_kit;
};

void TestDockerInstall::initTestCase()
{
    m_fixture = std::make_unique<DockerSandboxFixture>();
    PADDOCK_SET_UP_DOCKER_FIXTURE(*m_fixture);
    // An image as a kit's usually is: a command, a working folder and a variable of its own.
    QTemporaryDir context;
    QFile dockerfile(context.path() + QStringLiteral("/Dockerfile"));
    QVERIFY(dockerfile.open(QIODevice::WriteOnly));
    dockerfile.write(
        QStringLiteral("FROM %1\nENV KIT_IMAGE=yes\nWORKDIR /srv\nCMD [\"sh\"]\n").arg(m_fixture->imageTag()).toUtf8());
    dockerfile.close();
    m_image = paddock::tests::docker::uniqueName(QStringLiteral("paddock-test/install")) + QStringLiteral(":1");
    const docker::Result<QString> built =
        m_fixture->client().buildImage(paddock::tests::docker::ownImage(context.path(), m_image));
    QVERIFY2(built, qPrintable(built.errorMessage()));
    m_fixture->removeLater(m_image);
    m_kit = writeInstallKit(QStringLiteral("kit"), QStringLiteral("v1"));
    QVERIFY(!m_kit.isEmpty());
}

void TestDockerInstall::runsAsAnOrdinaryUser()
{
    QVERIFY2(::getuid() != 0, "run through tests/support/run-as-user.sh");
}

void TestDockerInstall::toolTheKitInstalledRunsAndStaysAcrossAStop()
{
    const DockerFinished created = create(QStringLiteral("tool"), m_kit);
    QVERIFY2(created.exitCode == 0, qPrintable(created.out + created.err));
    const DockerFinished started = paddock({QStringLiteral("start"), QStringLiteral("tool")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    DockerFinished ran = kitTool(QStringLiteral("tool"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QCOMPARE(ran.out, QStringLiteral("kit-tool v1\n"));
    // The agent's run of setup.install came after root's, and wrote to the home as the user.
    const DockerFinished agent =
        paddock({QStringLiteral("exec"), QStringLiteral("tool"), QStringLiteral("--"), QStringLiteral("sh"),
                 QStringLiteral("-c"), QStringLiteral("cat \"$HOME/agent-install.txt\"")});
    QCOMPARE(agent.out.trimmed(), QString::number(::getuid()));

    QCOMPARE(paddock({QStringLiteral("stop"), QStringLiteral("tool")}).exitCode, 0);
    QCOMPARE(paddock({QStringLiteral("start"), QStringLiteral("tool")}).exitCode, 0);
    ran = kitTool(QStringLiteral("tool"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QCOMPARE(ran.out, QStringLiteral("kit-tool v1\n"));
    // The sandbox's user is the person's own, as without setup.install.
    const DockerFinished id =
        paddock({QStringLiteral("exec"), QStringLiteral("tool"), QStringLiteral("id"), QStringLiteral("-u")});
    QCOMPARE(id.out.trimmed(), QString::number(::getuid()));
}

void TestDockerInstall::theSandboxsImageKeepsTheKitImagesCommandAndFolder()
{
    if (installedImages(QStringLiteral("tool")).isEmpty())
        QVERIFY(create(QStringLiteral("tool"), m_kit).exitCode == 0);
    const docker::Result<docker::ImageInfo> image =
        m_fixture->client().inspectImage(QStringLiteral("paddock-local/%1-tool:installed").arg(DockerRuntime::owner()));
    QVERIFY2(image, qPrintable(image.errorMessage()));
    const QJsonObject config = image.value().raw.value(QLatin1String("Config")).toObject();
    // What `docker run` of it would do is what the kit's image does, not setup.install's command.
    QCOMPARE(config.value(QLatin1String("Cmd")).toArray(), QJsonArray{QStringLiteral("sh")});
    QVERIFY2(config.value(QLatin1String("Entrypoint")).toArray().isEmpty(), qPrintable(QJsonDocument(config).toJson()));
    QCOMPARE(config.value(QLatin1String("WorkingDir")).toString(), QStringLiteral("/srv"));
    const QJsonArray env = config.value(QLatin1String("Env")).toArray();
    QVERIFY(env.contains(QStringLiteral("KIT_IMAGE=yes")));
    // The install's own variables (its proxy among them) are not the image's: named, never set.
    const docker::Result<docker::ImageInfo> kitImage = m_fixture->client().inspectImage(m_image);
    QVERIFY(kitImage);
    const QJsonArray kitEnv =
        kitImage.value().raw.value(QLatin1String("Config")).toObject().value(QLatin1String("Env")).toArray();
    for (const QJsonValue &variable : env)
        QVERIFY2(kitEnv.contains(variable) || !variable.toString().contains(QLatin1Char('=')),
                 qPrintable(variable.toString()));
    QVERIFY(env.contains(QStringLiteral("HTTP_PROXY")));
    QCOMPARE(image.value().labels.value(QStringLiteral("paddock.installed-from")), m_image);
}

void TestDockerInstall::removingTheSandboxLeavesNoImageBehind()
{
    if (installedImages(QStringLiteral("tool")).isEmpty())
        QVERIFY(create(QStringLiteral("tool"), m_kit).exitCode == 0);
    // One image for each run of setup.install, the second made from the first.
    QCOMPARE(installedImages(QStringLiteral("tool")).size(), 2);
    const DockerFinished removed = paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("tool")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    QCOMPARE(installedImages(QStringLiteral("tool")).size(), 0);
    QCOMPARE(containersOf(QStringLiteral("tool")).size(), 0);
    // The kit's image is not the sandbox's to remove.
    const docker::Result<bool> kitImage = m_fixture->client().imageExists(m_image);
    QVERIFY(kitImage && kitImage.value());
}

void TestDockerInstall::aFailedInstallLeavesNoContainerAndNoImage()
{
    // Root's run succeeds and is kept; the agent's fails after it.
    const QString kit = writeInstallKit(QStringLiteral("failing"), QStringLiteral("v1"), QStringLiteral("exit 7"));
    const DockerFinished created = create(QStringLiteral("broken"), kit);
    QVERIFY2(created.exitCode != 0, qPrintable(created.out));
    QVERIFY2(created.err.contains(QLatin1String("setup.install failed with status 7")), qPrintable(created.err));
    QCOMPARE(containersOf(QStringLiteral("broken")).size(), 0);
    QCOMPARE(installedImages(QStringLiteral("broken")).size(), 0);
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("broken")));
}

void TestDockerInstall::recreateInstallsAgainOnTheKitsImage()
{
    const QString kit = writeInstallKit(QStringLiteral("changing"), QStringLiteral("v1"));
    QVERIFY2(create(QStringLiteral("again"), kit).exitCode == 0, "the sandbox was not created");
    QCOMPARE(paddock({QStringLiteral("start"), QStringLiteral("again")}).exitCode, 0);
    QCOMPARE(kitTool(QStringLiteral("again")).out, QStringLiteral("kit-tool v1\n"));
    const QList<docker::ImageInfo> before = installedImages(QStringLiteral("again"));
    QCOMPARE(before.size(), 2);

    // The kit installs another version now; the recreation runs its setup.install again.
    QCOMPARE(writeInstallKit(QStringLiteral("changing"), QStringLiteral("v2")), kit);
    const DockerFinished recreated = paddock({QStringLiteral("recreate"), QStringLiteral("again")});
    QVERIFY2(recreated.exitCode == 0, qPrintable(recreated.out + recreated.err));
    const DockerFinished ran = kitTool(QStringLiteral("again"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QCOMPARE(ran.out, QStringLiteral("kit-tool v2\n"));
    // The images of the first install are gone; the new install made its own.
    const QList<docker::ImageInfo> after = installedImages(QStringLiteral("again"));
    QCOMPARE(after.size(), 2);
    for (const docker::ImageInfo &old : before) {
        for (const docker::ImageInfo &now : after)
            QVERIFY(now.id != old.id);
    }
    QCOMPARE(paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("again")}).exitCode, 0);
    QCOMPARE(installedImages(QStringLiteral("again")).size(), 0);
}

void TestDockerInstall::theKitsVolumesAreTheAgentsBesideWhatItInstalled()
{
    // The engine made a folder in the root for each mount of setup.install's container, and the
    // image committed from it keeps them; a tmpfs over such a folder takes its mode. The kept
    // volume, new, is the agent's with the kit's mode (0755 without one), as under bubblewrap:
    // root's run seeds it, the agent's run writes there too.
    const QString kit = m_fixture->writeKit(
        QStringLiteral("volumes"), QStringLiteral("stored"), m_image, QStringLiteral("echo ready"),
        QStringLiteral("setup:\n"
                       "  install:\n"
                       "    - command: 'mkdir -p /usr/local/bin && printf \"#!/bin/sh\\necho kit-tool v1\\n\" > "
                       "/usr/local/bin/kit-tool && chmod 755 /usr/local/bin/kit-tool && echo root > /data/seed'\n"
                       "    - command: 'id -u > /data/agent'\n"
                       "      user: agent\n"
                       "volumes:\n"
                       "  - path: /scratch\n"
                       "    type: tmpfs\n"
                       "    size: 1m\n"
                       "  - path: /cache\n"
                       "    type: tmpfs\n"
                       "    mode: \"0777\"\n"
                       "  - path: /data\n"));
    QVERIFY(!kit.isEmpty());
    const QString name = QStringLiteral("stored");
    const DockerFinished created = create(name, kit);
    QVERIFY2(created.exitCode == 0, qPrintable(created.out + created.err));
    QCOMPARE(installedImages(name).size(), 2);
    const auto agentSh = [this, &name](const QString &script) {
        return paddock(
            {QStringLiteral("exec"), name, QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script});
    };
    for (int boot = 0; boot < 2; ++boot) {
        QCOMPARE(paddock({QStringLiteral("start"), name}).exitCode, 0);
        QCOMPARE(kitTool(name).out, QStringLiteral("kit-tool v1\n"));
        QCOMPARE(agentSh(QStringLiteral("ls -A /scratch; ls -A /cache")).out, QString()); // empty at every start
        // Each tmpfs as a kit's image without those folders gives it: its own mode, else the kernel's.
        const DockerFinished modes = agentSh(QStringLiteral("stat -c '%n %a' /scratch /cache"));
        QVERIFY2(modes.exitCode == 0, qPrintable(modes.err));
        QCOMPARE(modes.out, QStringLiteral("/scratch 1777\n/cache 777\n"));
        QCOMPARE(agentSh(QStringLiteral("stat -c '%u %a' /data")).out, QStringLiteral("%1 755\n").arg(::getuid()));
        const DockerFinished wrote =
            agentSh(QStringLiteral("for d in /scratch /cache /data; do echo %1 > $d/mine || exit 1; done; "
                                   "cat /scratch/mine /cache/mine /data/mine")
                        .arg(boot));
        QVERIFY2(wrote.exitCode == 0, qPrintable(wrote.out + wrote.err));
        QCOMPARE(wrote.out, QStringLiteral("%1\n%1\n%1\n").arg(boot));
        QCOMPARE(agentSh(QStringLiteral("cat /data/seed /data/agent")).out,
                 QStringLiteral("root\n%1\n").arg(::getuid()));
        QCOMPARE(agentSh(QStringLiteral("id -u")).out.trimmed(), QString::number(::getuid()));
        QCOMPARE(paddock({QStringLiteral("stop"), name}).exitCode, 0);
    }
    QCOMPARE(paddock({QStringLiteral("rm"), QStringLiteral("--force"), name}).exitCode, 0);
    QCOMPARE(installedImages(name).size(), 0);
}

QTEST_GUILESS_MAIN(TestDockerInstall)
#include "tst_docker_install.moc"
