// SPDX-License-Identifier: GPL-3.0-or-later
// A schemaVersion "3" kit from an OCI archive, with the real daemon, CLI and bubblewrap: loaded,
// listed with its reference and digest, and run from its own image (no Docker engine).
#include "../../unit/kit-v3/OciKitArchive.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "Terminal.h"

#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;

namespace {

const QByteArray kDescriptor = R"({"schemaVersion":"3","kind":"workload","displayName":"Tiny shell",)"
                               R"("provides":["tiny@1.0.0"],"args":{"who":{"default":"kit","env":"WHO"}},)"
                               R"("capabilities":[{"type":"com.docker.sandbox/network-policy@1",)"
                               R"("config":{"runtime":{"allow":["allowed.test"]}}},)"
                               R"({"type":"com.docker.sandbox/agent-skills@1","optional":true,)"
                               R"("config":{"path":"/home/agent/.skills"}}]})";

} // namespace

class TestKitOci : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void loadedKitRunsFromItsImage();
    void climbingLayerIsRefused();
    void loadedKitsResolveAsAClosedSet();
    void widerUpdateIsAskedOnATerminal();
    void gitInsideHasTheHostsNameAndEmailOnly();

private:
    QString writeArchive(const QString &name, const OciKit &kit, QString *digest = nullptr)
    {
        const QString archive = m_fixture->path(name);
        QFile out(archive);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        out.write(ociKitArchive(kit, digest));
        return archive;
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    QByteArray m_busybox;
};

void TestKitOci::initTestCase()
{
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    QFile file(busybox);
    QVERIFY(file.open(QIODevice::ReadOnly));
    m_busybox = file.readAll();
    m_fixture = std::make_unique<SandboxFixture>();
    // The person's git configuration, as git on the host reads it (git-identity@1).
    m_fixture->addEnvironment(QStringLiteral("GIT_CONFIG_GLOBAL"), m_fixture->path(QStringLiteral("gitconfig")));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestKitOci::loadedKitRunsFromItsImage()
{
    OciKit kit;
    kit.layers = {tarOf({folder("bin"), file("bin/busybox", m_busybox, 0755), softLink("bin/sh", "busybox"),
                         folder("etc"), file("etc/os-release", "ID=tiny-v3\n"), folder("srv")})};
    kit.config = QJsonObject{
        {QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
        {QStringLiteral("Cmd"),
         QJsonArray{QStringLiteral("/bin/busybox cat /etc/os-release; echo \"$GREETING $WHO\"")}},
        {QStringLiteral("Env"), QJsonArray{QStringLiteral("GREETING=hello from the image of")}},
        {QStringLiteral("WorkingDir"), QStringLiteral("/srv")},
    };
    kit.manifestAnnotations = kitAnnotations(kDescriptor);
    QString digest;
    const QString archive = writeArchive(QStringLiteral("tiny.tar"), kit, &digest);
    QVERIFY(!archive.isEmpty());

    const Finished loaded = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), archive});
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    QVERIFY2(
        loaded.out.contains(QLatin1String("loaded shell (workload) from registry.example/kits/shell:1.0 ") + digest),
        qPrintable(loaded.out));
    QVERIFY2(loaded.out.contains(QLatin1String("skipped: com.docker.sandbox/agent-skills@1")), qPrintable(loaded.out));
    QVERIFY2(loaded.out.contains(QLatin1String("applied: com.docker.sandbox/network-policy@1")),
             qPrintable(loaded.out));

    const Finished listed = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
    QVERIFY2(listed.out.contains(QLatin1String("from registry.example/kits/shell:1.0 ") + digest),
             qPrintable(listed.out));

    const Finished ran = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("shell"),
                                             QStringLiteral("--name"), QStringLiteral("tiny"), m_fixture->workspace()});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog()));
    // The image's root, its entrypoint and command, its environment and the kit's argument.
    QCOMPARE(ran.out, QStringLiteral("ID=tiny-v3\nhello from the image of kit\n"));
    // The optional request Paddock does not carry out is said at creation and kept with the sandbox.
    QVERIFY2(ran.err.contains(QLatin1String("com.docker.sandbox/agent-skills@1 is skipped")), qPrintable(ran.err));
    const QJsonObject listedSandbox = m_fixture->listed().value(QStringLiteral("tiny"));
    QCOMPARE(listedSandbox.value(QLatin1String("skippedCapabilities")).toArray(),
             QJsonArray{QStringLiteral("com.docker.sandbox/agent-skills@1")});
    QCOMPARE(listedSandbox.value(QLatin1String("root")).toObject().value(QLatin1String("base")).toString(),
             QStringLiteral("image"));
}

void TestKitOci::climbingLayerIsRefused()
{
    OciKit kit;
    kit.refName = QStringLiteral("registry.example/kits/climber:1");
    kit.layers = {tarOf({file("../../escaped", "x")})};
    kit.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"workload"})");
    const QString archive = writeArchive(QStringLiteral("climber.tar"), kit);
    const Finished loaded = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), archive});
    QCOMPARE(loaded.exitCode, 1);
    QVERIFY2(loaded.err.contains(QLatin1String("'../../escaped' leads outside the layer")), qPrintable(loaded.err));
    const Finished listed = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QVERIFY2(!listed.out.contains(QLatin1String("climber")), qPrintable(listed.out));
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/escaped"))));
}

// SPEC-v3 §5.3/closed-set and /dependency-order, through the CLI on kits loaded from archives.
void TestKitOci::loadedKitsResolveAsAClosedSet()
{
    OciKit workload;
    workload.refName = QStringLiteral("registry.example/kits/base:1");
    workload.layers = {tarOf({folder("etc"), file("etc/os-release", "ID=base\n")})};
    workload.manifestAnnotations =
        kitAnnotations(R"({"schemaVersion":"3","kind":"workload","provides":["node@20.11.1"]})");
    OciKit helper;
    helper.refName = QStringLiteral("registry.example/kits/helper:1");
    helper.layers = {tarOf({folder("opt")})};
    helper.manifestAnnotations = kitAnnotations(
        R"({"schemaVersion":"3","kind":"mixin","provides":["helper@1.0"],"requires":["node >= 20.0.0, < 21"]})");
    OciKit tooNew;
    tooNew.refName = QStringLiteral("registry.example/kits/toonew:1");
    tooNew.layers = {tarOf({folder("opt")})};
    tooNew.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"mixin","requires":["node >= 22"]})");
    for (const auto &[name, kit] :
         {std::pair{QStringLiteral("base.tar"), workload}, std::pair{QStringLiteral("helper.tar"), helper},
          std::pair{QStringLiteral("toonew.tar"), tooNew}}) {
        const Finished loaded =
            m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), writeArchive(name, kit)});
        QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    }

    // Given the mixin first: the workload still comes first.
    const Finished ok = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("resolve"), QStringLiteral("helper"), QStringLiteral("base")});
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.out + ok.err));
    QVERIFY2(ok.out.contains(QLatin1String("  base (workload), provides node@20.11.1\n  helper (mixin)")),
             qPrintable(ok.out));

    const Finished refused = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("resolve"), QStringLiteral("base"), QStringLiteral("toonew")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QLatin1String("kit toonew requires 'node >= 22', and kit base provides "
                                                "'node@20.11.1'")),
             qPrintable(refused.err));
}

void TestKitOci::widerUpdateIsAskedOnATerminal()
{
    // The daemon loads; an update granted more than the loaded kit comes back to the command
    // line, which asks the person and only then has the daemon load it.
    const auto gated = [](const QByteArray &allow) {
        OciKit kit;
        kit.refName = QStringLiteral("registry.example/kits/gated:%1").arg(allow.count(',') + 1);
        kit.layers = {tarOf({folder("etc"), file("etc/os-release", "ID=gated\n")})};
        kit.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"workload","capabilities":[)"
                                                 R"({"type":"com.docker.sandbox/network-policy@1",)"
                                                 R"("config":{"runtime":{"allow":[)" +
                                                 allow + "]}}}]}");
        return kit;
    };
    const QString v1 = writeArchive(QStringLiteral("gated-1.tar"), gated(R"("allowed.test")"));
    const QString v2 = writeArchive(QStringLiteral("gated-2.tar"), gated(R"("allowed.test","uploads.test")"));
    const Finished first = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), v1});
    QVERIFY2(first.exitCode == 0, qPrintable(first.out + first.err));

    // Without a terminal nobody can be asked: nothing changes, and the way to accept is named.
    const Finished piped = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), v2});
    QCOMPARE(piped.exitCode, 3); // declined, awaiting approval: not a failure to read the kit
    QVERIFY2(piped.err.contains(QLatin1String("--approve-kit-changes")), qPrintable(piped.err));
    QVERIFY2(m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("ls")})
                 .out.contains(QLatin1String("registry.example/kits/gated:1")),
             "the loaded kit changed without approval");

    Terminal terminal({QStringLiteral("kit"), QStringLiteral("load"), v2}, m_fixture->environment(),
                      m_fixture->workspace());
    QVERIFY2(terminal.waitFor("Accept these changes?"), terminal.screen().constData());
    QVERIFY2(terminal.screen().contains("+ may reach uploads.test"), terminal.screen().constData());
    terminal.type("y\r");
    QCOMPARE(terminal.wait(60000), 0);
    QVERIFY2(terminal.screen().contains("loaded gated (workload) from registry.example/kits/gated:2"),
             terminal.screen().constData());
    // paddockd wrote the library, the one writer (the command line only asked).
    QVERIFY2(m_fixture->daemonLog().contains(QLatin1String("loaded kit gated from ") + v2),
             qPrintable(m_fixture->daemonLog().right(2000)));
}

void TestKitOci::gitInsideHasTheHostsNameAndEmailOnly()
{
    const QString git = QStandardPaths::findExecutable(QStringLiteral("git"));
    PADDOCK_NEED(!git.isEmpty(), "git (apt install git)");
    QFile config(m_fixture->path(QStringLiteral("gitconfig")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("[user]\n\tname = Ada Host\n\temail = ada@host.example\n\tsigningkey = ABCDEF\n"
                 "[credential]\n\thelper = store\n[url \"https://token@git.example/\"]\n"
                 "\tinsteadOf = https://git.example/\n");
    config.close();

    // git and the libraries it loads, in an image of their own.
    QList<RawMember> members{folder("bin"),
                             file("bin/busybox", m_busybox, 0755),
                             softLink("bin/sh", "busybox"),
                             folder("usr"),
                             folder("usr/bin"),
                             folder("tmp", 01777)};
    QFile program(git);
    QVERIFY(program.open(QIODevice::ReadOnly));
    members << file("usr/bin/git", program.readAll(), 0755);
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {git});
    QVERIFY(ldd.waitForFinished());
    QSet<QByteArray> folders{"usr", "usr/bin"};
    static const QRegularExpression path(QStringLiteral("(/[^ ]+)"));
    for (auto it = path.globalMatch(QString::fromUtf8(ldd.readAllStandardOutput())); it.hasNext();) {
        const QByteArray library = it.next().captured(1).toUtf8().mid(1);
        const QList<QByteArray> parts = library.split('/');
        for (qsizetype depth = 1; depth < parts.size(); ++depth) {
            const QByteArray parent = parts.mid(0, depth).join('/');
            if (!folders.contains(parent)) {
                folders.insert(parent);
                members << folder(parent);
            }
        }
        QFile copy(QFileInfo(QLatin1Char('/') + QString::fromUtf8(library)).canonicalFilePath());
        QVERIFY(copy.open(QIODevice::ReadOnly));
        members << file(library, copy.readAll(), 0755);
    }
    OciKit kit;
    kit.refName = QStringLiteral("registry.example/kits/gitty:1");
    kit.layers = {tarOf(members)};
    kit.config = QJsonObject{
        {QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
        {QStringLiteral("Cmd"),
         QJsonArray{QStringLiteral("git config --list; git init -q . && git commit -q --allow-empty -m first && "
                                   "git log -1 --format='author=%an <%ae>'")}}};
    kit.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"workload","capabilities":[)"
                                             R"({"type":"com.docker.sandbox/git-identity@1"}]})");
    const Finished loaded = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("load"), writeArchive(QStringLiteral("gitty.tar"), kit)});
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    QVERIFY2(loaded.out.contains(QLatin1String("applied: com.docker.sandbox/git-identity@1")), qPrintable(loaded.out));

    const QString workspace = m_fixture->path(QStringLiteral("gitty-ws"));
    QDir().mkpath(workspace);
    const Finished ran = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("gitty"),
                                             QStringLiteral("--name"), QStringLiteral("gitty"), workspace});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    // git's own commit, authored as the person, and not one other key of their configuration.
    QVERIFY2(ran.out.contains(QLatin1String("author=Ada Host <ada@host.example>\n")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("user.name=Ada Host\n")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("user.email=ada@host.example\n")), qPrintable(ran.out));
    for (const char *withheld : {"signingkey", "credential", "token@", "insteadof"})
        QVERIFY2(!ran.out.contains(QLatin1String(withheld), Qt::CaseInsensitive), qPrintable(ran.out));
}

QTEST_GUILESS_MAIN(TestKitOci)
#include "tst_kit_oci.moc"
