// SPDX-License-Identifier: GPL-3.0-or-later
// A composition of schemaVersion "3" kits on the machine's Docker engine with the real daemon and
// CLI, as an ordinary user: a workload and mixins loaded from OCI archives, run as
// `paddock run --backend docker --kit ... --kit ...` in the image the daemon has the engine build
// of the workload's with the mixins' layers over it. From inside: the mixins' programs, the later
// mixin's file where two write one path, their image variables; the image built once and reused,
// and built again once removed; a mixin's whiteouts delete from the workload's files.
#include "CompositionKits.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "runtime/docker/DockerClient.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;
namespace docker = paddock::runtime::docker;

namespace {

const QByteArray kWorkload = R"({"schemaVersion":"3","kind":"workload","provides":["tiny@1.0"]})";
const QByteArray kTool = R"({"schemaVersion":"3","kind":"mixin","provides":["tool@1.2"],"requires":["tiny >= 1.0"]})";
const QByteArray kWiper = R"({"schemaVersion":"3","kind":"mixin"})";

const QStringList kApplets{QStringLiteral("sh"),   QStringLiteral("cat"),   QStringLiteral("echo"),
                           QStringLiteral("id"),   QStringLiteral("sleep"), QStringLiteral("test"),
                           QStringLiteral("ls"),   QStringLiteral("mkdir"), QStringLiteral("rm"),
                           QStringLiteral("true"), QStringLiteral("env"),   QStringLiteral("printf")};

docker::DockerClient engine()
{
    const docker::Result<docker::Endpoint> endpoint = docker::Endpoint::fromEnvironment();
    return docker::DockerClient(endpoint ? endpoint.value() : docker::Endpoint());
}

/** The engine's images of composition @p kit (`paddock/composed:HEX`). */
QList<docker::ImageInfo> composedImages(const QString &kit)
{
    const auto images = engine().listImages({QStringLiteral("paddock.kit=") + kit});
    QList<docker::ImageInfo> composed;
    for (const docker::ImageInfo &image : images ? images.value() : QList<docker::ImageInfo>())
        if (image.repoTags.value(0).startsWith(QLatin1String("paddock/composed:")))
            composed << image;
    return composed;
}

/** Removes image @p id and the untagged images its build left under it, down to @p base. */
void removeWithParents(QString id, const QString &base)
{
    const docker::DockerClient client = engine();
    while (!id.isEmpty() && id != base) {
        const auto info = client.inspectImage(id);
        if (!info || !client.removeImage(id, true))
            return;
        const QString parent = info.value().raw.value(QLatin1String("Parent")).toString();
        const auto above = client.inspectImage(parent);
        // Only an untagged parent is a step of the build; a tagged one is an image of its own.
        id = !parent.isEmpty() && above && above.value().repoTags.isEmpty() ? parent : QString();
    }
}

} // namespace

class TestKitCompositionDocker : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void mixinsLandInTheEnginesImage();
    void mixinsWhiteoutsDeleteFromTheWorkload();
    void whiteoutsWithoutRmAreRefusedNamingIt();

private:
    /** Writes @p kit as NAME.tar and loads it; false when that failed. */
    bool load(const QString &name, const OciKit &kit)
    {
        QFile out(m_fixture->path(name + QStringLiteral(".tar")));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        out.write(ociKitArchive(kit));
        out.close();
        const Finished loaded = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), out.fileName()});
        if (loaded.exitCode != 0)
            qWarning().noquote() << loaded.out << loaded.err;
        return loaded.exitCode == 0;
    }

    /** `paddock run --backend docker` of @p kits as sandbox @p name, running @p inside with sh. */
    Finished run(const QStringList &kits, const QString &name, const QString &inside)
    {
        m_sandboxes << name;
        QStringList arguments{QStringLiteral("run"), QStringLiteral("--backend"), QStringLiteral("docker")};
        for (const QString &kit : kits)
            arguments << QStringLiteral("--kit") << kit;
        return m_fixture->paddock(arguments + QStringList{QStringLiteral("--name"), name, m_fixture->workspace(),
                                                          QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                                          QStringLiteral("-c"), inside});
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    QStringList m_workloadImages; ///< the workloads' image ids, as the engine gets them
    QStringList m_sandboxes;
};

void TestKitCompositionDocker::initTestCase()
{
    PADDOCK_NEED_DOCKER();
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    QFile file(busybox);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray binary = file.readAll();
    m_fixture = std::make_unique<SandboxFixture>();
    // The fixture keeps the daemon away from any engine unless told which one to use.
    m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"),
                              qEnvironmentVariable("DOCKER_HOST", QStringLiteral("unix:///var/run/docker.sock")));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    // The workload's image is this run's own (a file no other run has): the engine shared by
    // others holds no image of it, and the composed image is made here, not found.
    const QByteArray run = QByteArray::number(QCoreApplication::applicationPid()) + '-' +
                           QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    QList<RawMember> members{folder("bin"),
                             ::paddock::test::file("bin/busybox", binary, 0755),
                             folder("etc"),
                             ::paddock::test::file("etc/os-release", "ID=base\n"),
                             ::paddock::test::file("etc/paddock-test-run", run + '\n'),
                             folder("opt"),
                             folder("opt/keep"),
                             ::paddock::test::file("opt/keep/old", "old\n")};
    for (const QString &applet : kApplets)
        members << softLink(("bin/" + applet).toUtf8(), "busybox");
    OciKit base;
    base.refName = QStringLiteral("registry.example/kits/base:1");
    base.layers = {tarOf(members + localBin("workload"))};
    base.config = QJsonObject{
        {QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
        {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("which-layer")}},
        {QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/usr/local/bin:/bin")}},
    };
    base.manifestAnnotations = kitAnnotations(kWorkload);
    m_workloadImages << QStringLiteral("sha256:") + sha256(configOf(base.layers, base.config));

    // A workload without rm, which a mixin's whiteouts need.
    OciKit bare;
    bare.refName = QStringLiteral("registry.example/kits/bare:1");
    bare.layers = {
        tarOf({folder("bin"), ::paddock::test::file("bin/busybox", binary, 0755), softLink("bin/sh", "busybox"),
               folder("etc"), ::paddock::test::file("etc/paddock-test-run", run + '\n')})};
    bare.config = QJsonObject{{QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/bin")}}};
    bare.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"workload"})");
    m_workloadImages << QStringLiteral("sha256:") + sha256(configOf(bare.layers, bare.config));

    const OciKit tool = toolMixin(kTool);
    const OciKit extra = extraMixin();

    // A mixin deleting one of the workload's files and emptying one of its folders.
    OciKit wiper;
    wiper.refName = QStringLiteral("registry.example/kits/wiper:1");
    wiper.layers = {
        tarOf({folder("etc"), ::paddock::test::file("etc/.wh.os-release", {}), folder("opt"), folder("opt/keep"),
               ::paddock::test::file("opt/keep/.wh..wh..opq", {}), ::paddock::test::file("opt/keep/new", "new\n")})};
    wiper.manifestAnnotations = kitAnnotations(kWiper);

    for (const auto &[name, kit] : {std::pair{QStringLiteral("base"), base}, std::pair{QStringLiteral("tool"), tool},
                                    std::pair{QStringLiteral("extra"), extra},
                                    std::pair{QStringLiteral("wiper"), wiper}, std::pair{QStringLiteral("bare"), bare}})
        QVERIFY2(load(name, kit), qPrintable(name));
}

void TestKitCompositionDocker::cleanupTestCase()
{
    if (!m_fixture)
        return;
    for (const QString &name : std::as_const(m_sandboxes))
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), name});
    for (const QString &kit : {QStringLiteral("base+tool+extra"), QStringLiteral("base+wiper")})
        for (const docker::ImageInfo &image : composedImages(kit))
            removeWithParents(image.id, m_workloadImages.value(0));
    for (const QString &image : std::as_const(m_workloadImages))
        (void)engine().removeImage(image, true);
}

void TestKitCompositionDocker::mixinsLandInTheEnginesImage()
{
    // Given in the reverse of their order: extra requires tool, which requires the workload.
    const QStringList kits{QStringLiteral("extra"), QStringLiteral("tool"), QStringLiteral("base")};
    const QString inside =
        QStringLiteral("hello-tool; which-layer; tool-path; echo \"TOOL_HOME=$TOOL_HOME\"; cat /etc/os-release");
    const Finished ran = run(kits, QStringLiteral("docked"), inside);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(4000)));
    QVERIFY2(
        ran.out.startsWith(QStringLiteral("hello from the tool mixin\nextra\nfound on PATH\nTOOL_HOME=/opt/tool\n")),
        qPrintable(ran.out + ran.err));
    QVERIFY2(ran.out.endsWith(QLatin1String("\nID=base\n")), qPrintable(ran.out)); // the workload's files below
    QVERIFY2(ran.err.contains(QLatin1String("built the image of composition base+tool+extra")), qPrintable(ran.err));

    const QJsonObject listed = m_fixture->listed().value(QStringLiteral("docked"));
    QCOMPARE(listed.value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    QCOMPARE(listed.value(QLatin1String("kit")).toString(), QStringLiteral("base+tool+extra"));
    QCOMPARE(listed.value(QLatin1String("composition")).toArray().size(), 3);

    // One image of the composition in the engine, built for this run.
    const QList<docker::ImageInfo> built = composedImages(QStringLiteral("base+tool+extra"));
    QCOMPARE(built.size(), 1);
    // Listed among Paddock's images, as built for the composition's kit.
    const Finished images = m_fixture->paddock({QStringLiteral("template"), QStringLiteral("ls")});
    QVERIFY2(images.out.contains(QRegularExpression(built.first().repoTags.first() +
                                                    QStringLiteral(" .* built \\(kit base\\+tool\\+extra\\)"))),
             qPrintable(images.out + images.err));

    // A second sandbox of the same kits, in another order given: the same image, not built again.
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("docked")}).exitCode, 0);
    const Finished second = run({QStringLiteral("base"), QStringLiteral("extra"), QStringLiteral("tool")},
                                QStringLiteral("docked-again"), QStringLiteral("which-layer"));
    QVERIFY2(second.exitCode == 0, qPrintable(second.out + second.err + m_fixture->daemonLog().right(4000)));
    QCOMPARE(second.out, QStringLiteral("extra\n"));
    QVERIFY2(!second.err.contains(QLatin1String("built the image")), qPrintable(second.err));
    const QList<docker::ImageInfo> reused = composedImages(QStringLiteral("base+tool+extra"));
    QCOMPARE(reused.size(), 1);
    QCOMPARE(reused.first().id, built.first().id);
    QCOMPARE(reused.first().created, built.first().created);

    // Recreated, it is the same composition in the same image.
    const Finished recreated = m_fixture->paddock({QStringLiteral("recreate"), QStringLiteral("docked")});
    QVERIFY2(recreated.exitCode == 0, qPrintable(recreated.out + recreated.err));
    QCOMPARE(m_fixture->listed().value(QStringLiteral("docked")).value(QLatin1String("composition")).toArray(),
             listed.value(QLatin1String("composition")).toArray());
    QCOMPARE(composedImages(QStringLiteral("base+tool+extra")).value(0).id, built.first().id);

    // Removing one of its two sandboxes keeps the image the other (stopped) still runs.
    QCOMPARE(
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("docked-again")}).exitCode,
        0);
    QCOMPARE(composedImages(QStringLiteral("base+tool+extra")).value(0).id, built.first().id);
    // Once the engine has lost it (pruned), a recreation builds it again.
    QVERIFY(engine().removeImage(built.first().repoTags.first(), true).ok());
    QVERIFY(composedImages(QStringLiteral("base+tool+extra")).isEmpty());
    const Finished rebuilt = m_fixture->paddock({QStringLiteral("recreate"), QStringLiteral("docked")});
    QVERIFY2(rebuilt.exitCode == 0, qPrintable(rebuilt.out + rebuilt.err + m_fixture->daemonLog().right(4000)));
    QVERIFY2(rebuilt.err.contains(QLatin1String("built the image of composition base+tool+extra")),
             qPrintable(rebuilt.err));
    QCOMPARE(composedImages(QStringLiteral("base+tool+extra")).size(), 1);
    const Finished fresh = run(kits, QStringLiteral("docked"), QStringLiteral("hello-tool; which-layer"));
    QVERIFY2(fresh.exitCode == 0, qPrintable(fresh.out + fresh.err));
    QCOMPARE(fresh.out, QStringLiteral("hello from the tool mixin\nextra\n"));

    // The last sandbox of the composition takes its image with it, and says so.
    const QString tag = composedImages(QStringLiteral("base+tool+extra")).value(0).repoTags.value(0);
    const Finished removed =
        m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("docked")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.out + removed.err));
    QVERIFY2(
        removed.err.contains(QStringLiteral("removed %1, the image the engine built for the composition").arg(tag)),
        qPrintable(removed.out + removed.err));
    QVERIFY(composedImages(QStringLiteral("base+tool+extra")).isEmpty());
}

void TestKitCompositionDocker::mixinsWhiteoutsDeleteFromTheWorkload()
{
    const Finished ran =
        run({QStringLiteral("base"), QStringLiteral("wiper")}, QStringLiteral("wiped"),
            QStringLiteral("test -e /etc/os-release && echo os-release kept || echo os-release gone; ls /opt/keep; "
                           "cat /etc/paddock-test-run > /dev/null && echo rest kept"));
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(4000)));
    QCOMPARE(ran.out, QStringLiteral("os-release gone\nnew\nrest kept\n"));
}

void TestKitCompositionDocker::whiteoutsWithoutRmAreRefusedNamingIt()
{
    const Finished ran =
        run({QStringLiteral("bare"), QStringLiteral("wiper")}, QStringLiteral("bare-wiped"), QStringLiteral("true"));
    QVERIFY(ran.exitCode != 0);
    QVERIFY2(ran.err.contains(QLatin1String("the Docker engine did not build the image of composition bare+wiper")) &&
                 ran.err.contains(QLatin1String("a mixin whose layers delete files needs rm in the workload's image")),
             qPrintable(ran.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("bare-wiped")));
    QVERIFY(composedImages(QStringLiteral("bare+wiper")).isEmpty());
}

QTEST_GUILESS_MAIN(TestKitCompositionDocker)
#include "tst_kit_composition_docker.moc"
