// SPDX-License-Identifier: GPL-3.0-or-later
// A composition of schemaVersion "3" kits with the real daemon, CLI and bubblewrap: a workload
// and two mixins loaded from OCI archives, run together as `paddock run --kit ... --kit ...`.
// From inside: the mixins' programs on their layers, in dependency order where two write one
// path, their image variables and network rules in force; and a set that does not resolve
// refused with nothing made.
#include "CompositionKits.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "Terminal.h"

#include <QRegularExpression>
#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;

namespace {

const QByteArray kWorkload = R"({"schemaVersion":"3","kind":"workload","provides":["tiny@1.0"],)"
                             R"("capabilities":[{"type":"com.docker.sandbox/network-policy@1",)"
                             R"("config":{"runtime":{"allow":["allowed.test"]}}}]})";
const QByteArray kTool = R"({"schemaVersion":"3","kind":"mixin","provides":["tool@1.2"],"requires":["tiny >= 1.0"],)"
                         R"("capabilities":[{"type":"com.docker.sandbox/network-policy@1",)"
                         R"("config":{"runtime":{"allow":["other.test"]}}}]})";

} // namespace

class TestKitComposition : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void mixinsLandOnTheWorkload();
    void workloadAloneHasNoneOfThem();
    void mixinsHostGrantNeedsApproval();
    void mixinsCredentialIsGated();
    void unresolvedCompositionMakesNothing();
    void aMixinOnTheWorkloadsBaseKeepsTheWorkloadsChanges();
    void aMixinsInteractiveTailAndLimitsReachTheWorkload();

private:
    /** Writes @p kit as NAME.tar and loads it; its manifest digest, or empty when that failed. */
    QString load(const QString &name, const OciKit &kit)
    {
        QString digest;
        QFile out(m_fixture->path(name + QStringLiteral(".tar")));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        out.write(ociKitArchive(kit, &digest));
        out.close();
        const Finished loaded = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), out.fileName()});
        if (loaded.exitCode != 0)
            qWarning().noquote() << loaded.out << loaded.err;
        return loaded.exitCode == 0 ? digest : QString();
    }

    QString fetch(const QString &host) const
    {
        return QStringLiteral("wget -q -O - http://%1:%2/hello.txt && echo %1 reached || echo %1 refused")
            .arg(host)
            .arg(m_fixture->upstreamPort());
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    QStringList m_digests; ///< base, tool, extra, hostly, keyed
    QByteArray m_busybox;
};

void TestKitComposition::initTestCase()
{
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    QFile file(busybox);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray binary = file.readAll();
    m_busybox = binary;
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    OciKit base;
    base.refName = QStringLiteral("registry.example/kits/base:1");
    base.layers = {tarOf(QList<RawMember>{folder("bin"), ::paddock::test::file("bin/busybox", binary, 0755),
                                          softLink("bin/sh", "busybox"), softLink("bin/wget", "busybox"),
                                          softLink("bin/test", "busybox"), folder("etc"),
                                          ::paddock::test::file("etc/os-release", "ID=base\n")} +
                         localBin("workload"))};
    base.config = QJsonObject{
        {QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
        {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("which-layer")}},
        {QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/usr/local/bin:/bin")}},
    };
    base.manifestAnnotations = kitAnnotations(kWorkload);

    const OciKit tool = toolMixin(kTool);
    const OciKit extra = extraMixin();

    // A mixin that reaches this computer: a host grant, which needs the person's approval.
    OciKit hostly;
    hostly.refName = QStringLiteral("registry.example/kits/hostly:1");
    hostly.layers = {tarOf({folder("opt")})};
    hostly.manifestAnnotations = kitAnnotations(
        R"({"schemaVersion":"3","kind":"mixin","capabilities":[{"type":"com.docker.sandbox/network-policy@1",)"
        R"("config":{"runtime":{"allow":["host.paddock.internal:)" +
        QByteArray::number(m_fixture->upstreamPort()) + R"("]}}}]})");

    // A mixin whose key the proxy adds to its requests: stored and approved by the person.
    OciKit keyed;
    keyed.refName = QStringLiteral("registry.example/kits/keyed:1");
    keyed.layers = {tarOf({folder("opt")})};
    keyed.manifestAnnotations = kitAnnotations(
        R"({"schemaVersion":"3","kind":"mixin","capabilities":[{"type":"com.docker.sandbox/network-policy@1",)"
        R"("config":{"runtime":{"allow":["other.test"]}}},{"type":"com.docker.sandbox/credential@1",)"
        R"("config":{"service":"toolsvc","phase":"runtime","apiKey":{"name":"TOOL_TOKEN","proxyManaged":true,)"
        R"("inject":[{"domain":"other.test","scheme":"bearer"}]}}}]})");

    for (const auto &[name, kit] :
         {std::pair{QStringLiteral("base"), base}, std::pair{QStringLiteral("tool"), tool},
          std::pair{QStringLiteral("extra"), extra}, std::pair{QStringLiteral("hostly"), hostly},
          std::pair{QStringLiteral("keyed"), keyed}}) {
        m_digests << load(name, kit);
        QVERIFY2(!m_digests.constLast().isEmpty(), qPrintable(name));
    }
}

void TestKitComposition::mixinsLandOnTheWorkload()
{
    // Given in the reverse of their order: extra requires tool, which requires the workload.
    const QString inside = QStringLiteral("hello-tool; which-layer; tool-path; echo \"TOOL_HOME=$TOOL_HOME\"; ") +
                           fetch(QStringLiteral("other.test")) + QStringLiteral("; ") +
                           fetch(QStringLiteral("allowed.test"));
    const Finished ran = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("extra"),
                                             QStringLiteral("--kit"), QStringLiteral("tool"), QStringLiteral("--kit"),
                                             QStringLiteral("base"), QStringLiteral("--name"),
                                             QStringLiteral("composed"), m_fixture->workspace(), QStringLiteral("--"),
                                             QStringLiteral("/bin/sh"), QStringLiteral("-c"), inside});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog()));
    const QString upstream = QString::fromLatin1(LocalUpstream::kBody);
    QCOMPARE(ran.out, QStringLiteral("hello from the tool mixin\nextra\nfound on PATH\nTOOL_HOME=/opt/tool\n") +
                          upstream + QStringLiteral("other.test reached\n") + upstream +
                          QStringLiteral("allowed.test reached\n"));

    // The sandbox keeps what it was composed of, in composition order, with each kit's digest.
    const QJsonObject listed = m_fixture->listed().value(QStringLiteral("composed"));
    QCOMPARE(listed.value(QLatin1String("kit")).toString(), QStringLiteral("base+tool+extra"));
    const QJsonArray parts = listed.value(QLatin1String("composition")).toArray();
    QCOMPARE(parts.size(), 3);
    const QStringList names{QStringLiteral("base"), QStringLiteral("tool"), QStringLiteral("extra")};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(parts.at(i)[QLatin1String("name")].toString(), names.at(i));
        QCOMPARE(parts.at(i)[QLatin1String("digest")].toString(), m_digests.at(i));
    }
    QCOMPARE(parts.at(0)[QLatin1String("kind")].toString(), QStringLiteral("workload"));

    // Stopped and run again, it is the same composition: its layers and its rules.
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("composed")}).exitCode, 0);
    const Finished again = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("base"), QStringLiteral("--kit"),
         QStringLiteral("extra"), QStringLiteral("--kit"), QStringLiteral("tool"), QStringLiteral("--name"),
         QStringLiteral("composed"), m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("/bin/sh"),
         QStringLiteral("-c"), QStringLiteral("which-layer; ") + fetch(QStringLiteral("other.test"))});
    QCOMPARE(again.out, QStringLiteral("extra\n") + upstream + QStringLiteral("other.test reached\n"));

    // Recreated, it is composed of the same kits again.
    const Finished recreated = m_fixture->paddock({QStringLiteral("recreate"), QStringLiteral("composed")});
    QVERIFY2(recreated.exitCode == 0, qPrintable(recreated.out + recreated.err));
    QCOMPARE(m_fixture->listed().value(QStringLiteral("composed")).value(QLatin1String("composition")).toArray(),
             parts);
    const Finished fresh = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("tool"), QStringLiteral("--kit"),
         QStringLiteral("base"), QStringLiteral("--kit"), QStringLiteral("extra"), QStringLiteral("--name"),
         QStringLiteral("composed"), m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("/bin/sh"),
         QStringLiteral("-c"), QStringLiteral("hello-tool; which-layer")});
    QCOMPARE(fresh.out, QStringLiteral("hello from the tool mixin\nextra\n"));
}

void TestKitComposition::workloadAloneHasNoneOfThem()
{
    // The same workload on its own: none of the mixins' files, and not their network rules.
    const QString inside = QStringLiteral("which-layer; test -e /usr/local/bin/hello-tool && echo tool here; ") +
                           fetch(QStringLiteral("other.test"));
    const Finished ran =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("base"),
                            QStringLiteral("--name"), QStringLiteral("alone"), m_fixture->workspace(),
                            QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"), inside});
    QVERIFY2(ran.out.contains(QLatin1String("workload\n")), qPrintable(ran.out + ran.err));
    QVERIFY2(!ran.out.contains(QLatin1String("tool here")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("other.test refused")), qPrintable(ran.out + ran.err));
}

void TestKitComposition::mixinsHostGrantNeedsApproval()
{
    const QString rule = QStringLiteral("host.paddock.internal:%1").arg(m_fixture->upstreamPort());
    const QStringList run{QStringLiteral("run"),     QStringLiteral("--kit"),  QStringLiteral("base"),
                          QStringLiteral("--kit"),   QStringLiteral("hostly"), QStringLiteral("--name"),
                          QStringLiteral("granted"), m_fixture->workspace()};
    const QStringList inside{QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                             fetch(QStringLiteral("host.paddock.internal"))};
    // The workload grants nothing on this computer; the mixin's grant stops the composition.
    const Finished unapproved = m_fixture->paddock(run + inside);
    QVERIFY(unapproved.exitCode != 0);
    QVERIFY2(unapproved.err.contains(rule), qPrintable(unapproved.err));
    QVERIFY2(unapproved.err.contains(QLatin1String("paddock grant approve --kit ")) &&
                 unapproved.err.count(QLatin1String("--kit ")) == 2,
             qPrintable(unapproved.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("granted")));

    const Finished approved = m_fixture->paddock(run + QStringList{QStringLiteral("--approve-host-grants")} + inside);
    QVERIFY2(approved.exitCode == 0, qPrintable(approved.out + approved.err));
    QVERIFY2(approved.out.endsWith(QString::fromLatin1(LocalUpstream::kBody) +
                                   QStringLiteral("host.paddock.internal reached\n")),
             qPrintable(approved.out + approved.err));
    // Approved for the composition, not for the workload alone.
    const Finished grants = m_fixture->paddock({QStringLiteral("grant"), QStringLiteral("ls")});
    QVERIFY2(grants.out.contains(QLatin1String("base+hostly")) && grants.out.contains(rule), qPrintable(grants.out));
}

void TestKitComposition::mixinsCredentialIsGated()
{
    const QStringList run{QStringLiteral("run"),   QStringLiteral("--kit"), QStringLiteral("keyed"),
                          QStringLiteral("--kit"), QStringLiteral("base"),  QStringLiteral("--name"),
                          QStringLiteral("keyed"), m_fixture->workspace()};
    const QStringList inside{QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                             QStringLiteral("echo \"token=$TOOL_TOKEN\"")};
    // The mixin's key is required: without it nothing is made.
    const Finished missing = m_fixture->paddock(run + inside);
    QVERIFY(missing.exitCode != 0);
    QVERIFY2(missing.err.contains(QLatin1String("the kit needs the toolsvc key, and none is stored")),
             qPrintable(missing.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("keyed")));

    const QByteArray secret = "tool-secret-value-1234";
    QCOMPARE(m_fixture->paddock({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("toolsvc")}, secret)
                 .exitCode,
             0);
    // Stored, it is still not sent to the mixin's domain until approved.
    const Finished unapproved = m_fixture->paddock(run + inside);
    QVERIFY(unapproved.exitCode != 0);
    QVERIFY2(unapproved.err.contains(QLatin1String("toolsvc")) && unapproved.err.contains(QLatin1String("other.test")),
             qPrintable(unapproved.err));

    // The command it names approves the mixin's key, for every kit of the composition.
    static const QRegularExpression named(QStringLiteral("`paddock (binding approve [^`]+)`"));
    const QRegularExpressionMatch command = named.match(unapproved.err);
    QVERIFY2(command.hasMatch(), qPrintable(unapproved.err));
    QStringList approve = command.captured(1).split(QLatin1Char(' '));
    QCOMPARE(approve.count(QStringLiteral("--kit")), 2);
    for (QString &word : approve)
        word.remove(QLatin1Char('\''));
    const Finished approval = m_fixture->paddock(approve);
    QVERIFY2(approval.exitCode == 0, qPrintable(approval.out + approval.err));

    const Finished approved = m_fixture->paddock(run + inside);
    QVERIFY2(approved.exitCode == 0, qPrintable(approved.out + approved.err));
    // Inside: a stand-in for the key, never the key.
    QVERIFY2(approved.out.startsWith(QLatin1String("token=")) && approved.out.trimmed().size() > 6,
             qPrintable(approved.out));
    QVERIFY2(!approved.out.contains(QString::fromLatin1(secret)), qPrintable(approved.out));
}

void TestKitComposition::unresolvedCompositionMakesNothing()
{
    const Finished refused = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("extra"), QStringLiteral("--kit"),
         QStringLiteral("base"), QStringLiteral("--name"), QStringLiteral("broken"), m_fixture->workspace()});
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains(QLatin1String("kit extra requires 'tool >= 1.0', and no kit of the composition "
                                                "provides com.docker.kit/tool")),
             qPrintable(refused.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("broken")));
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/sandbox-kits/broken.json"))));
}

void TestKitComposition::aMixinOnTheWorkloadsBaseKeepsTheWorkloadsChanges()
{
    // Both images are built FROM one base: its layer is in both stacks. The workload's own layer
    // changes a file of that base; the mixin's adds a program. Once, under bubblewrap, the base
    // was stacked at the mixin's place, over the workload's layer, and undid its change.
    const QByteArray common = tarOf(QList<RawMember>{
        folder("bin"), ::paddock::test::file("bin/busybox", m_busybox, 0755), softLink("bin/sh", "busybox"),
        softLink("bin/cat", "busybox"), folder("etc"), ::paddock::test::file("etc/os-release", "ID=common\n")});
    OciKit layered;
    layered.refName = QStringLiteral("registry.example/kits/layered:1");
    layered.layers = {common,
                      tarOf(QList<RawMember>{folder("etc"), ::paddock::test::file("etc/os-release", "ID=layered\n")})};
    layered.config = QJsonObject{{QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/usr/local/bin:/bin")}}};
    layered.manifestAnnotations =
        kitAnnotations(R"({"schemaVersion":"3","kind":"workload","provides":["layered@1.0"]})");
    OciKit sibling;
    sibling.refName = QStringLiteral("registry.example/kits/sibling:1");
    sibling.layers = {common, tarOf(localBin("sibling"))};
    sibling.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"mixin"})");
    QVERIFY(!load(QStringLiteral("layered"), layered).isEmpty());
    QVERIFY(!load(QStringLiteral("sibling"), sibling).isEmpty());

    const Finished ran = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--kit"), QStringLiteral("layered"),
         QStringLiteral("--kit"), QStringLiteral("sibling"), m_fixture->workspace(), QStringLiteral("--"),
         QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("cat /etc/os-release; which-layer")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog()));
    QCOMPARE(ran.out, QStringLiteral("ID=layered\nsibling\n"));
}

void TestKitComposition::aMixinsInteractiveTailAndLimitsReachTheWorkload()
{
    // A workload whose launch says what it was started with and the memory it may use; a mixin
    // that gives the terminal launch its tail and the sandbox its limits (lifecycle@1 interactive
    // and resources@1: one kit of a composition states each).
    OciKit launcher;
    launcher.refName = QStringLiteral("registry.example/kits/launcher:1");
    launcher.layers = {tarOf({folder("bin"), ::paddock::test::file("bin/busybox", m_busybox, 0755),
                              softLink("bin/sh", "busybox"), folder("tmp", 01777)})};
    launcher.config = QJsonObject{{QStringLiteral("Entrypoint"),
                                   QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                              QStringLiteral("echo \"launched with: $*\"; echo \"data: $(ulimit -d)\""),
                                              QStringLiteral("launch")}},
                                  {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("--cmd")}},
                                  {QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/bin")}}};
    launcher.manifestAnnotations =
        kitAnnotations(R"({"schemaVersion":"3","kind":"workload","provides":["launcher@1.0"]})");
    const auto tuiMixin = [](const QByteArray &name, const QByteArray &capabilities) {
        OciKit kit;
        kit.refName = QStringLiteral("registry.example/kits/%1:1").arg(QString::fromLatin1(name));
        kit.layers = {tarOf({folder("opt")})};
        kit.manifestAnnotations =
            kitAnnotations(R"({"schemaVersion":"3","kind":"mixin","capabilities":[)" + capabilities + "]}");
        return kit;
    };
    QVERIFY(!load(QStringLiteral("launcher"), launcher).isEmpty());
    QVERIFY(!load(QStringLiteral("tui"),
                  tuiMixin("tui", R"({"type":"com.docker.sandbox/lifecycle@1","config":{"interactive":["--tui"]}},)"
                                  R"({"type":"com.docker.sandbox/resources@1","config":{"memory":"256M"}})"))
                 .isEmpty());
    QVERIFY(!load(QStringLiteral("tui2"),
                  tuiMixin("tui2", R"({"type":"com.docker.sandbox/lifecycle@1","config":{"interactive":["--x"]}})"))
                 .isEmpty());

    // The agent on a terminal, as `paddock run` opens it: the workload's launch (the image's
    // Entrypoint and Cmd) with the mixin's tail after it, held to the mixin's 256 MiB (ulimit -d
    // counts KiB).
    Terminal terminal({QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("launcher"),
                       QStringLiteral("--kit"), QStringLiteral("tui"), QStringLiteral("--name"), QStringLiteral("tui"),
                       m_fixture->workspace()},
                      m_fixture->environment(), m_fixture->workspace());
    const int status = terminal.wait(60000);
    QVERIFY2(status == 0, terminal.screen().constData());
    QVERIFY2(terminal.screen().contains("launched with: --cmd --tui\r\ndata: 262144"), terminal.screen().constData());
    // And as the window opens it, once the sandbox is made.
    Terminal again({QStringLiteral("attach"), QStringLiteral("--start"), QStringLiteral("tui")},
                   m_fixture->environment(), m_fixture->workspace());
    QVERIFY2(again.wait(60000) == 0, again.screen().constData());
    QVERIFY2(again.screen().contains("launched with: --cmd --tui\r\ndata: 262144"), again.screen().constData());

    // A second tail is refused before anything is made, naming both kits.
    const Finished refused = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), QStringLiteral("launcher"), QStringLiteral("--kit"),
         QStringLiteral("tui"), QStringLiteral("--kit"), QStringLiteral("tui2"), QStringLiteral("--name"),
         QStringLiteral("twotails"), m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("true")});
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains(QLatin1String("kits tui and tui2 both declare lifecycle@1's interactive tail")),
             qPrintable(refused.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("twotails")));
}

QTEST_GUILESS_MAIN(TestKitComposition)
#include "tst_kit_composition.moc"
