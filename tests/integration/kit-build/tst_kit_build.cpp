// SPDX-License-Identifier: GPL-3.0-or-later
// Authored schemaVersion "3" kits built by `paddock kit build` through the real Docker engine, then
// listed and run under bubblewrap from the image store as any loaded kit, with the real daemon and
// CLI, as an ordinary user.
#include "SandboxFixture.h"

#include "Needs.h"
#include "runtime/docker/DockerClient.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
namespace docker = paddock::runtime::docker;

namespace {

/** A name no other run uses at the same time, on an engine others share. */
QString uniqueTag(const QString &repository)
{
    return QStringLiteral("%1-%2-%3:1")
        .arg(repository)
        .arg(QCoreApplication::applicationPid())
        .arg(QRandomGenerator::global()->bounded(1u << 30), 0, 16);
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

docker::Endpoint engine()
{
    const docker::Result<docker::Endpoint> endpoint = docker::Endpoint::fromEnvironment();
    return endpoint ? endpoint.value() : docker::Endpoint();
}

} // namespace

class TestKitBuild : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void companionPairBuildsAndRunsUnderBubblewrap();
    void inlineRecipeBuildsFromTheDescriptorFile();
    void declarationOnlyMixinComposesWithoutLayers();
    void dockerBackendRunsTheImageTheEngineBuilt();
    void widerRebuildStopsForApproval();
    void linkLeadingOutIsRefused();
    void oversizedContextIsRefused();
    void recipePathClimbingOutIsRefusedWithItsPlace();
    void noEngineNamesTheFix();
    void theEngineInUseBuildsTheKit();

private:
    /** `paddock kit build ARGS... --tag TAG`, the tag remembered for removal. */
    Finished build(const QStringList &arguments, const QString &tag)
    {
        m_tags << tag;
        return m_fixture->paddock(QStringList{QStringLiteral("kit"), QStringLiteral("build")} + arguments +
                                  QStringList{QStringLiteral("--tag"), tag});
    }
    /** A workload folder NAME/NAME.yaml beside NAME.dockerfile, FROM the test's base image. */
    QString writeWorkload(const QString &name, const QByteArray &extraRecipe = {});
    QStringList listedKits();

    std::unique_ptr<SandboxFixture> m_fixture;
    QString m_base;
    QStringList m_tags;
};

void TestKitBuild::initTestCase()
{
    PADDOCK_NEED_DOCKER();
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    m_fixture = std::make_unique<SandboxFixture>();
    // The fixture keeps the daemon away from any engine unless told which one to use.
    const QString host = qEnvironmentVariable("DOCKER_HOST");
    m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"),
                              host.isEmpty() ? QStringLiteral("unix:///var/run/docker.sock") : host);
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    // No registry answers here: the kits build FROM a base made of this machine's busybox.
    const QString context = m_fixture->path(QStringLiteral("base-context"));
    QVERIFY(QDir().mkpath(context));
    QVERIFY(QFile::copy(busybox, context + QStringLiteral("/busybox")));
    QVERIFY(writeFile(context + QStringLiteral("/Dockerfile"),
                      "FROM scratch\nCOPY busybox /bin/busybox\nRUN [\"/bin/busybox\", \"--install\", \"-s\", "
                      "\"/bin\"]\n"));
    m_base = uniqueTag(QStringLiteral("paddock-test/kit-build-base"));
    docker::BuildOptions base;
    base.contextDir = context;
    base.tag = m_base;
    base.labels.insert(QStringLiteral("paddock-test.image"), m_base);
    const docker::Result<QString> built = docker::DockerClient(engine()).buildImage(base);
    QVERIFY2(built.ok(), qPrintable(built.errorMessage()));
}

void TestKitBuild::cleanupTestCase()
{
    const docker::DockerClient client(engine());
    for (const QString &tag : std::as_const(m_tags))
        (void)client.removeImage(tag, true);
    if (!m_base.isEmpty())
        (void)client.removeImage(m_base, true);
}

QString TestKitBuild::writeWorkload(const QString &name, const QByteArray &extraRecipe)
{
    const QString folder = m_fixture->path(QStringLiteral("authored/") + name);
    const QByteArray descriptor = "# syntax=docker/sandbox-kit:3\n"
                                  "schemaVersion: \"3\"\n"
                                  "kind: workload\n"
                                  "displayName: Built here\n"
                                  "args:\n"
                                  "  level:\n"
                                  "    default: \"1.0.0\"\n"
                                  "    enum: [\"1.0.0\", \"2.0.0\"]\n"
                                  "    buildArg: LEVEL\n"
                                  "provides: [\"" +
                                  name.toUtf8() +
                                  "@1.0.0\", \"level@${{ kit.args.level }}\"]\n"
                                  "capabilities:\n"
                                  "  - type: com.docker.sandbox/network-policy@1\n"
                                  "    config:\n"
                                  "      runtime:\n"
                                  "        allow: [allowed.test]\n";
    const QByteArray recipe = "FROM " + m_base.toUtf8() +
                              "\n"
                              "ARG LEVEL\n"
                              "COPY added.txt /opt/kit/added.txt\n"
                              "RUN echo \"level $LEVEL\" > /opt/kit/level\n" +
                              extraRecipe;
    if (!writeFile(folder + QLatin1Char('/') + name + QStringLiteral(".yaml"), descriptor) ||
        !writeFile(folder + QLatin1Char('/') + name + QStringLiteral(".dockerfile"), recipe) ||
        !writeFile(folder + QStringLiteral("/added.txt"), "added by the kit's Dockerfile\n"))
        return {};
    return folder;
}

QStringList TestKitBuild::listedKits()
{
    const Finished listed = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("ls"), QStringLiteral("--json")});
    QStringList names;
    for (const QJsonValue &entry : QJsonDocument::fromJson(listed.out.toUtf8()).array())
        names << entry.toObject().value(QLatin1String("name")).toString();
    return names;
}

void TestKitBuild::companionPairBuildsAndRunsUnderBubblewrap()
{
    const QString folder = writeWorkload(QStringLiteral("crafted"));
    QVERIFY(!folder.isEmpty());
    const QString tag = uniqueTag(QStringLiteral("paddock-test/kit-crafted"));
    const Finished built = build({folder, QStringLiteral("--arg"), QStringLiteral("level=2.0.0")}, tag);
    QVERIFY2(built.exitCode == 0, qPrintable(built.out + built.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(built.out.contains(QLatin1String("loaded crafted (workload) from ") + tag + QLatin1String(" sha256:")),
             qPrintable(built.out));
    QVERIFY2(built.out.contains(QLatin1String("applied: com.docker.sandbox/network-policy@1")), qPrintable(built.out));
    // Each step of the recipe as the engine runs it, then what was loaded.
    QVERIFY2(built.out.contains(QLatin1String("step 1/")) && built.out.contains(QLatin1String(": COPY added.txt")),
             qPrintable(built.out));
    QVERIFY(built.out.indexOf(QLatin1String("step 1/")) < built.out.indexOf(QLatin1String("loaded crafted")));

    // Listed as a loaded kit is, with where it came from.
    const Finished listed = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QVERIFY2(listed.out.contains(QLatin1String("from ") + tag + QLatin1String(" sha256:")), qPrintable(listed.out));

    // What was written is the descriptor as published: the build argument resolved, the author's
    // recipe path gone, and where it was built from kept beside it.
    const QString directory = m_fixture->path(QStringLiteral("data/paddock/kits/crafted"));
    QFile descriptor(directory + QStringLiteral("/kit.json"));
    QVERIFY2(descriptor.open(QIODevice::ReadOnly), qPrintable(descriptor.fileName()));
    const QByteArray published = descriptor.readAll();
    QVERIFY2(published.contains("\"level@2.0.0\""), published.constData());
    QVERIFY2(!published.contains("kit.args.level") && !published.contains("dockerfile"), published.constData());
    QFile origin(directory + QStringLiteral("/origin.json"));
    QVERIFY(origin.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(origin.readAll()).object().value(QLatin1String("builtFrom")).toString(), folder);
    const Finished shown =
        m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("crafted")});
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
    QVERIFY2(shown.out.contains(QLatin1String("allowed.test")), qPrintable(shown.out));
    QVERIFY2(!shown.out.contains(QLatin1String("dockerfile"), Qt::CaseInsensitive), qPrintable(shown.out));

    // Run under bubblewrap from the image store: the files the recipe added, its build argument.
    const Finished ran =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("crafted"),
                            QStringLiteral("--name"), QStringLiteral("crafted-run"), m_fixture->workspace(),
                            QStringLiteral("--"), QStringLiteral("cat"), QStringLiteral("/opt/kit/added.txt"),
                            QStringLiteral("/opt/kit/level"), QStringLiteral("/usr/share/sandbox/kit/crafted/kit.yaml"),
                            QStringLiteral("/usr/share/sandbox/kit/crafted/kit.dockerfile")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(ran.out.contains(QLatin1String("added by the kit's Dockerfile\nlevel 2.0.0\n")), qPrintable(ran.out));
    // The kit describes itself inside, as publishing stages it: its descriptor as published, its recipe.
    QVERIFY2(ran.out.contains(QString::fromUtf8(published)), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("COPY added.txt /opt/kit/added.txt\n")), qPrintable(ran.out));
    const QJsonObject sandbox = m_fixture->listed().value(QStringLiteral("crafted-run"));
    QCOMPARE(sandbox.value(QLatin1String("backend")).toString(), QStringLiteral("bwrap"));
    QCOMPARE(sandbox.value(QLatin1String("root")).toObject().value(QLatin1String("base")).toString(),
             QStringLiteral("image"));
}

void TestKitBuild::inlineRecipeBuildsFromTheDescriptorFile()
{
    const QString file = m_fixture->path(QStringLiteral("authored/single/inline.yaml"));
    QVERIFY(writeFile(file, "schemaVersion: \"3\"\n"
                            "kind: workload\n"
                            "build: |\n"
                            "  FROM " +
                                m_base.toUtf8() +
                                "\n"
                                "  RUN mkdir -p /opt && echo 'made by the inline recipe' > /opt/inline.txt\n"
                                "capabilities:\n"
                                "  - type: com.docker.sandbox/agent-context@1\n"
                                "    config:\n"
                                "      contentFile: ./context.md\n"));
    QVERIFY(writeFile(m_fixture->path(QStringLiteral("authored/single/context.md")), "Read me first.\n"));
    const QString tag = uniqueTag(QStringLiteral("paddock-test/kit-inline"));
    const Finished built = build({file}, tag);
    QVERIFY2(built.exitCode == 0, qPrintable(built.out + built.err));
    QVERIFY2(built.out.contains(QLatin1String("loaded inline (workload) from ") + tag), qPrintable(built.out));
    // The folder gained nothing: the recipe went to the engine as part of the context only.
    QCOMPARE(QDir(QFileInfo(file).absolutePath()).entryList(QDir::Files | QDir::Hidden),
             (QStringList{QStringLiteral("context.md"), QStringLiteral("inline.yaml")}));
    // The agent's body is staged in the image, and the published descriptor points there.
    QFile published(m_fixture->path(QStringLiteral("data/paddock/kits/inline/kit.json")));
    QVERIFY(published.open(QIODevice::ReadOnly));
    QVERIFY2(published.readAll().contains("\"contentFile\":\"/usr/share/sandbox/kit/inline/context.md\""),
             "the published descriptor does not name the staged body");

    const Finished ran = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("inline"), QStringLiteral("--name"),
         QStringLiteral("inline-run"), m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("cat"),
         QStringLiteral("/opt/inline.txt"), QStringLiteral("/usr/share/sandbox/kit/inline/context.md")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QVERIFY2(ran.out.contains(QLatin1String("made by the inline recipe\nRead me first.\n")), qPrintable(ran.out));
}

void TestKitBuild::declarationOnlyMixinComposesWithoutLayers()
{
    const QString workload = writeWorkload(QStringLiteral("under"));
    QVERIFY(!workload.isEmpty());
    const Finished base = build({workload}, uniqueTag(QStringLiteral("paddock-test/kit-under")));
    QVERIFY2(base.exitCode == 0, qPrintable(base.out + base.err));
    const QString folder = m_fixture->path(QStringLiteral("authored/notes"));
    QVERIFY(writeFile(folder + QStringLiteral("/notes.yaml"),
                      "schemaVersion: \"3\"\nkind: mixin\nprovides: [notes@1.0.0]\ncapabilities:\n"
                      "  - type: com.docker.sandbox/network-policy@1\n"
                      "    config:\n      runtime:\n        allow: [notes.test]\n"));
    const Finished built = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("build"), folder});
    QVERIFY2(built.exitCode == 0, qPrintable(built.out + built.err));
    QVERIFY2(built.out.contains(QLatin1String("loaded notes (mixin)")), qPrintable(built.out));

    const Finished ran = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("under"),
                                             QStringLiteral("--kit"), QStringLiteral("notes"), QStringLiteral("--name"),
                                             QStringLiteral("composed"), m_fixture->workspace(), QStringLiteral("--"),
                                             QStringLiteral("cat"), QStringLiteral("/opt/kit/added.txt")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(ran.out.contains(QLatin1String("added by the kit's Dockerfile\n")), qPrintable(ran.out));
}

void TestKitBuild::dockerBackendRunsTheImageTheEngineBuilt()
{
    const QString folder = writeWorkload(QStringLiteral("engined"));
    QVERIFY(!folder.isEmpty());
    const QString tag = uniqueTag(QStringLiteral("paddock-test/kit-engined"));
    const Finished built = build({folder}, tag);
    QVERIFY2(built.exitCode == 0, qPrintable(built.out + built.err));
    const auto run = [this](const QString &name) {
        return m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker"),
                                   QStringLiteral("--kit"), QStringLiteral("engined"), QStringLiteral("--name"), name,
                                   m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("cat"),
                                   QStringLiteral("/opt/kit/added.txt")});
    };
    const Finished ran = run(QStringLiteral("engined-docker"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(ran.out.contains(QLatin1String("added by the kit's Dockerfile\n")), qPrintable(ran.out));
    QVERIFY(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("engined-docker")})
                .exitCode == 0);

    // Gone from the engine (the test's own image: its base is unique to this run), the kit says how
    // to get it back rather than naming an archive it never had.
    const docker::Result<docker::ImageInfo> image = docker::DockerClient(engine()).inspectImage(tag);
    QVERIFY2(image.ok(), qPrintable(image.errorMessage()));
    QVERIFY(docker::DockerClient(engine()).removeImage(image.value().id, true).ok());
    const Finished refused = run(QStringLiteral("engined-again"));
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QLatin1String("paddock kit build ") + folder), qPrintable(refused.err));
}

void TestKitBuild::widerRebuildStopsForApproval()
{
    const QString folder = writeWorkload(QStringLiteral("grown"));
    QVERIFY(!folder.isEmpty());
    const QString tag = uniqueTag(QStringLiteral("paddock-test/kit-grown"));
    QVERIFY(build({folder}, tag).exitCode == 0);
    QFile descriptor(folder + QStringLiteral("/grown.yaml"));
    QVERIFY(descriptor.open(QIODevice::ReadWrite));
    const QByteArray wider = descriptor.readAll().replace("allow: [allowed.test]", "allow: [allowed.test, more.test]");
    QVERIFY(descriptor.resize(0) && descriptor.write(wider) == wider.size());
    descriptor.close();

    // Built again, the kit would reach more: without a terminal it stays as it was.
    const Finished stopped = build({folder}, tag);
    QCOMPARE(stopped.exitCode, 3);
    QVERIFY2(stopped.err.contains(QLatin1String("may reach more.test")) &&
                 stopped.err.contains(QLatin1String("--approve-kit-changes")),
             qPrintable(stopped.err));
    const Finished approved = build({folder, QStringLiteral("--approve-kit-changes")}, tag);
    QVERIFY2(approved.exitCode == 0, qPrintable(approved.out + approved.err));
    const Finished shown = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("grown")});
    QVERIFY2(shown.out.contains(QLatin1String("more.test")), qPrintable(shown.out));
}

void TestKitBuild::linkLeadingOutIsRefused()
{
    const QString folder = writeWorkload(QStringLiteral("leaky"));
    QVERIFY(!folder.isEmpty());
    QVERIFY(QFile::link(QStringLiteral("/etc/hostname"), folder + QStringLiteral("/hostname")));
    const Finished built = build({folder}, uniqueTag(QStringLiteral("paddock-test/kit-leaky")));
    QCOMPARE(built.exitCode, 1);
    QVERIFY2(built.err.contains(QLatin1String("hostname in the build context")) &&
                 built.err.contains(QLatin1String("is a link to /etc/hostname, outside it")),
             qPrintable(built.err));
    QVERIFY(!listedKits().contains(QStringLiteral("leaky")));
}

void TestKitBuild::oversizedContextIsRefused()
{
    const QString folder = writeWorkload(QStringLiteral("bulky"));
    QVERIFY(!folder.isEmpty());
    // Sparse: it costs no disk, and the build refuses it before reading a byte of it.
    QFile big(folder + QStringLiteral("/disk.img"));
    QVERIFY(big.open(QIODevice::WriteOnly));
    QVERIFY(big.resize((qint64(1) << 30) + 1));
    big.close();
    const Finished built = build({folder}, uniqueTag(QStringLiteral("paddock-test/kit-bulky")));
    QCOMPARE(built.exitCode, 1);
    QVERIFY2(built.err.contains(QLatin1String("holds more than 1024 MiB")), qPrintable(built.err));
    QVERIFY(!listedKits().contains(QStringLiteral("bulky")));
}

void TestKitBuild::recipePathClimbingOutIsRefusedWithItsPlace()
{
    const QString folder = m_fixture->path(QStringLiteral("authored/climber"));
    QVERIFY(writeFile(folder + QStringLiteral("/climber.yaml"),
                      "schemaVersion: \"3\"\nkind: workload\ndockerfile: ../x.dockerfile\n"));
    QVERIFY(writeFile(m_fixture->path(QStringLiteral("authored/x.dockerfile")), "FROM scratch\n"));
    const Finished built = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("build"), folder});
    QCOMPARE(built.exitCode, 1);
    QVERIFY2(built.err.contains(QLatin1String("climber.yaml:3:13: error: `dockerfile` must be a relative path inside "
                                              "the descriptor's folder")),
             qPrintable(built.err));
    QVERIFY(!listedKits().contains(QStringLiteral("climber")));
}

void TestKitBuild::noEngineNamesTheFix()
{
    SandboxFixture away;
    away.addEnvironment(QStringLiteral("DOCKER_HOST"),
                        QStringLiteral("unix://") + m_fixture->path(QStringLiteral("no-engine.sock")));
    QVERIFY2(away.setUp(), "the second fixture did not start");
    const QString folder = away.path(QStringLiteral("authored/lonely"));
    QVERIFY(writeFile(folder + QStringLiteral("/lonely.yaml"), "schemaVersion: \"3\"\nkind: workload\n"));
    QVERIFY(writeFile(folder + QStringLiteral("/lonely.dockerfile"), "FROM scratch\n"));
    const Finished built = away.paddock({QStringLiteral("kit"), QStringLiteral("build"), folder});
    QCOMPARE(built.exitCode, 1);
    QVERIFY2(built.err.contains(QLatin1String("built by the Docker engine in use (local): start it")),
             qPrintable(built.err));

    // A kit Paddock declines is declined before anything is built: no engine is even asked.
    QVERIFY(writeFile(folder + QStringLiteral("/lonely.yaml"), "schemaVersion: \"3\"\nkind: workload\ncapabilities:\n"
                                                               "  - type: com.docker.sandbox/privileged@1\n"));
    const Finished declined = away.paddock({QStringLiteral("kit"), QStringLiteral("build"), folder});
    QCOMPARE(declined.exitCode, 3);
    QVERIFY2(declined.err.contains(QLatin1String("privileged@1")), qPrintable(declined.err));
    QVERIFY2(!declined.err.contains(QLatin1String("Docker engine")), qPrintable(declined.err));
}

void TestKitBuild::theEngineInUseBuildsTheKit()
{
    // The daemon's own DOCKER_HOST leads nowhere; the engine chosen with `paddock engine use`, a
    // docker context here, is this machine's engine, and builds the kit.
    const QString config = m_fixture->path(QStringLiteral("lab-docker-config"));
    const QString meta = config + QStringLiteral("/contexts/meta/") +
                         QString::fromLatin1(QCryptographicHash::hash("lab", QCryptographicHash::Sha256).toHex());
    const QJsonObject context{
        {QStringLiteral("Name"), QStringLiteral("lab")},
        {QStringLiteral("Metadata"), QJsonObject{}},
        {QStringLiteral("Endpoints"),
         QJsonObject{{QStringLiteral("docker"), QJsonObject{{QStringLiteral("Host"), engine().display()}}}}}};
    QVERIFY(writeFile(meta + QStringLiteral("/meta.json"), QJsonDocument(context).toJson()));
    SandboxFixture lab;
    lab.addEnvironment(QStringLiteral("DOCKER_CONFIG"), config);
    lab.addEnvironment(QStringLiteral("DOCKER_HOST"),
                       QStringLiteral("unix://") + m_fixture->path(QStringLiteral("no-engine.sock")));
    QVERIFY2(lab.setUp(), "the second fixture did not start");
    const Finished chosen = lab.paddock({QStringLiteral("engine"), QStringLiteral("use"), QStringLiteral("lab")});
    QVERIFY2(chosen.exitCode == 0, qPrintable(chosen.out + chosen.err));

    const QString folder = lab.path(QStringLiteral("authored/onlab"));
    QVERIFY(writeFile(folder + QStringLiteral("/onlab.yaml"), "schemaVersion: \"3\"\nkind: workload\n"));
    QVERIFY(writeFile(folder + QStringLiteral("/onlab.dockerfile"), "FROM scratch\nCOPY onlab.yaml /srv/\n"));
    const QString tag = uniqueTag(QStringLiteral("paddock-test/onlab"));
    m_tags << tag;
    const Finished built =
        lab.paddock({QStringLiteral("kit"), QStringLiteral("build"), QStringLiteral("--tag"), tag, folder});
    QVERIFY2(built.exitCode == 0, qPrintable(built.out + built.err));
    QVERIFY(docker::DockerClient(engine()).inspectImage(tag).ok());
}

QTEST_GUILESS_MAIN(TestKitBuild)
#include "tst_kit_build.moc"
