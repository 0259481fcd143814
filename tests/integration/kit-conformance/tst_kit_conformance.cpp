// SPDX-License-Identifier: GPL-3.0-or-later
// The conformance suite's runtime checks, played through Paddock's adapter
// (app/kit-adapter/paddock-kit-adapter) against the real CLI, daemon and bubblewrap, as an
// ordinary user, on kits built here as OCI archives around a static busybox. Each test is named
// after the check it plays (SPEC-v3 §7.3, §7.4, conformance.md §2, long-running@1's page).
#include "../../unit/kit-v3/OciKitArchive.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "kit/KitV3Descriptor.h"
#include "runtime/docker/DockerClient.h"

#include <QScopeGuard>
#include <QStandardPaths>
#include <QThread>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;
namespace docker = paddock::runtime::docker;

namespace {

const QStringList kApplets{
    QStringLiteral("sh"),   QStringLiteral("cat"),   QStringLiteral("date"),  QStringLiteral("echo"),
    QStringLiteral("id"),   QStringLiteral("sleep"), QStringLiteral("touch"), QStringLiteral("tty"),
    QStringLiteral("test"), QStringLiteral("ls"),    QStringLiteral("mkdir"), QStringLiteral("printf"),
    QStringLiteral("wget"), QStringLiteral("true"),  QStringLiteral("stat"),  QStringLiteral("grep"),
    QStringLiteral("rm"),   QStringLiteral("chmod"), QStringLiteral("env"),   QStringLiteral("wc")};

// The workload: its entrypoint notes who it runs as, then writes a heartbeat every second.
const QString kBeat =
    QStringLiteral("id -u > /home/agent/uid; while :; do date +%s%N > /home/agent/beat; sleep 1; done");

QByteArray descriptorWith(const QString &capabilities, const QString &kind = QStringLiteral("workload"))
{
    return QStringLiteral(R"({"schemaVersion":"3","kind":"%1","capabilities":[%2]})").arg(kind, capabilities).toUtf8();
}

QString capability(const QString &type, bool optional = false, const QString &config = {})
{
    QString entry = QStringLiteral(R"({"type":"%1")").arg(type);
    if (optional)
        entry += QStringLiteral(R"(,"optional":true)");
    if (!config.isEmpty())
        entry += QStringLiteral(R"(,"config":%1)").arg(config);
    return entry + QLatin1Char('}');
}

QString lifecycle(const QString &config)
{
    return capability(QStringLiteral("com.docker.sandbox/lifecycle@1"), false, config);
}

/** The names of `env`'s output, one NAME=VALUE a line (values here hold no newline). */
QStringList variableNames(const QString &env)
{
    QStringList names;
    for (const QString &line : env.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        names << line.section(QLatin1Char('='), 0, 0);
    return names;
}

QString network(const QString &allow)
{
    return capability(QStringLiteral("com.docker.sandbox/network-policy@1"), false,
                      QStringLiteral(R"({"runtime":{"allow":["%1"]}})").arg(allow));
}

} // namespace

class TestKitConformance : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void capabilitiesClaimOnlyWhatPaddockApplies();
    void spec73UnknownRequiredRefused();
    void spec73UnknownOptionalSkipped();
    void spec74WideningsGate();
    void conformance2ErrorIsNotARefusal();
    void conformance2CompositionRunsTheWorkloadWithItsMixin();
    void conformance2CompositionRunsOnDocker();
    void conformance2ExecIsTheAgentsWithItsStatusAndNoTerminal();
    void conformance2StopStartKeepsTheWritableLayer();
    void conformance2StatusOfAMissingSandboxIsAnError();
    void networkPolicyInstallPhaseScoped();
    void networkPolicyDenyByDefaultDenyPrecedenceAndObservable();
    void longRunningSurvivesSessionDisconnect();
    void longRunningExplicitStopHonored();
    void lifecycleHookEnvRestrictedToDeclaredAndBaseline();
    void lifecycleInstallOnceStartupEveryBoot();
    void lifecycleFilesWrittenOverwriteHonoredArgsExpanded();
    void volumeMountedBeforeHooksInitiallyEmptyWithMode();
    void volumePersistsAcrossRestartAndRecreateTmpfsCleared();
    void volumeRecreateConfigCompatibleAndUndeclaredRetained();
    void volumeRemovalDeletesStorage();
    void recreateThatFailsIsTriedAgainOrRemoved();
    void volumeHostilePathsRefused();
    void volumePersistsAcrossRecreateOnDocker();

private:
    QString archive(const QString &fileName, const QByteArray &descriptor,
                    const QString &ref = QStringLiteral("registry.example/tck/workload:1"));
    Finished adapter(const QStringList &arguments);
    QString create(const QStringList &arguments);
    QString execOut(const QString &id, const QStringList &argv);
    QString sh(const QString &id, const QString &script);
    QString volumeKit(const QString &fileName, const QString &dataMode, bool withEmpty = true);

    std::unique_ptr<SandboxFixture> m_fixture;
    QByteArray m_busybox;
    QString m_adapter;
    QStringList m_created;
};

void TestKitConformance::initTestCase()
{
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    QFile file(busybox);
    QVERIFY(file.open(QIODevice::ReadOnly));
    m_busybox = file.readAll();
    m_adapter = QFileInfo(QStringLiteral(PADDOCK_BIN)).absolutePath() + QStringLiteral("/paddock-kit-adapter");
    QVERIFY2(QFileInfo(m_adapter).isExecutable(), qPrintable(m_adapter));
    m_fixture = std::make_unique<SandboxFixture>();
    // The CLI the fixture's daemon answers, and the adapter's workspaces under the fixture.
    m_fixture->addEnvironment(QStringLiteral("PADDOCK"), QStringLiteral(PADDOCK_BIN));
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_ADAPTER_STATE"), m_fixture->path(QStringLiteral("adapter")));
    // The machine's engine, for the Docker variant (the fixture has none by default).
    m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"),
                              qEnvironmentVariable("DOCKER_HOST", QStringLiteral("unix:///var/run/docker.sock")));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

/** As the suite does (conformance.md §2.4): every sandbox made is removed, also after a failure. */
void TestKitConformance::cleanup()
{
    for (const QString &id : std::as_const(m_created))
        adapter({QStringLiteral("rm"), id});
    m_created.clear();
}

QString TestKitConformance::archive(const QString &fileName, const QByteArray &descriptor, const QString &ref)
{
    QList<RawMember> members{folder("bin"), file("bin/busybox", m_busybox, 0755), folder("srv"), folder("home")};
    for (const QString &applet : kApplets)
        members << softLink(("bin/" + applet).toUtf8(), "busybox");
    OciKit kit;
    kit.refName = ref;
    kit.layers = {tarOf(members)};
    kit.config = QJsonObject{
        {QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
        {QStringLiteral("Cmd"), QJsonArray{kBeat}},
        {QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/bin")}},
        {QStringLiteral("WorkingDir"), QStringLiteral("/srv")},
    };
    kit.manifestAnnotations = kitAnnotations(descriptor);
    const QString path = m_fixture->path(fileName);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    out.write(ociKitArchive(kit));
    return path;
}

Finished TestKitConformance::adapter(const QStringList &arguments)
{
    return m_fixture->run(m_adapter, arguments);
}

/** `create ARGUMENTS`: the sandbox id, remembered for cleanup(); empty (with a failure) otherwise. */
QString TestKitConformance::create(const QStringList &arguments)
{
    const Finished created = adapter(QStringList{QStringLiteral("create")} + arguments);
    const QString id = created.out.trimmed();
    if (created.exitCode != 0 || id.isEmpty() || id.contains(QLatin1Char('\n'))) {
        qWarning().noquote() << "create" << arguments << "exited" << created.exitCode << created.out << created.err
                             << m_fixture->daemonLog();
        return {};
    }
    m_created << id;
    return id;
}

QString TestKitConformance::execOut(const QString &id, const QStringList &argv)
{
    return adapter(QStringList{QStringLiteral("exec"), id, QStringLiteral("--")} + argv).out;
}

void TestKitConformance::capabilitiesClaimOnlyWhatPaddockApplies()
{
    const Finished claimed = adapter({QStringLiteral("capabilities")});
    QCOMPARE(claimed.exitCode, 0);
    const QStringList types = claimed.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(!types.isEmpty());
    // A claim must be a type the kit mapping carries out, and one this file plays the checks of
    // (ssh-agent@1's, which need OpenSSH's tools inside, are in sandbox-ssh-agent).
    const QStringList tested{
        QStringLiteral("com.docker.sandbox/network-policy@1"), QStringLiteral("com.docker.sandbox/long-running@1"),
        QStringLiteral("com.docker.sandbox/volume@1"), QStringLiteral("com.docker.sandbox/ssh-agent@1")};
    for (const QString &type : types) {
        QVERIFY2(paddock::kit::implementedV3Capabilities().contains(type), qPrintable(type));
        QVERIFY2(tested.contains(type), qPrintable(type + QStringLiteral(" is claimed without its checks here")));
    }
}

// tck: SPEC-v3 §7.3/unknown-required-refused
void TestKitConformance::spec73UnknownRequiredRefused()
{
    const QString kit = archive(QStringLiteral("unknown-required.tar"),
                                descriptorWith(capability(QStringLiteral("example.com/teleport@1"))),
                                QStringLiteral("registry.example/tck/unknown-required:1"));
    const Finished created = adapter({QStringLiteral("create"), kit});
    QCOMPARE(created.exitCode, 2);                            // a refusal, not a failure
    QVERIFY2(created.out.isEmpty(), qPrintable(created.out)); // no sandbox id
    QVERIFY2(created.err.contains(QLatin1String("example.com/teleport@1")), qPrintable(created.err));
    QVERIFY(m_fixture->listed().isEmpty());
    const Finished listed = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("ls")});
    QVERIFY2(!listed.out.contains(QLatin1String("unknown-required")), qPrintable(listed.out));
}

// tck: SPEC-v3 §7.3/unknown-optional-skipped
void TestKitConformance::spec73UnknownOptionalSkipped()
{
    const QString kit = archive(QStringLiteral("unknown-optional.tar"),
                                descriptorWith(capability(QStringLiteral("example.com/teleport@1"), true)),
                                QStringLiteral("registry.example/tck/unknown-optional:1"));
    const QString id = create({kit});
    QVERIFY(!id.isEmpty());
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("running\n"));
    // Recorded with the sandbox.
    QCOMPARE(m_fixture->listed().value(id).value(QLatin1String("skippedCapabilities")).toArray(),
             QJsonArray{QStringLiteral("example.com/teleport@1")});
}

// tck: SPEC-v3 §7.4/widenings-gate
void TestKitConformance::spec74WideningsGate()
{
    const QString ref = QStringLiteral("registry.example/tck/gated:1");
    const QString first =
        archive(QStringLiteral("gated-1.tar"), descriptorWith(network(QStringLiteral("a.test"))), ref);
    const QString id = create({first});
    QVERIFY(!id.isEmpty());
    // The same kit, now asking for one more host.
    const QString wider = archive(QStringLiteral("gated-2.tar"),
                                  descriptorWith(network(QStringLiteral("a.test")) + QLatin1Char(',') +
                                                 capability(QStringLiteral("com.docker.sandbox/port@1"), false,
                                                            QStringLiteral(R"({"container":8080})"))),
                                  ref);
    const Finished refused = adapter({QStringLiteral("create"), wider});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(QLatin1String("granted more than the one loaded")), qPrintable(refused.err));
    QVERIFY2(refused.err.contains(QLatin1String("8080")), qPrintable(refused.err));
    // The approved kit stays what it was, and so does its sandbox.
    const Finished shown = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("gated"), QStringLiteral("--json")});
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
    QVERIFY2(!shown.out.contains(QLatin1String("8080")), qPrintable(shown.out));
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("running\n"));
}

// conformance.md §2.1: exit 2 only for a deliberate refusal, never for an error.
void TestKitConformance::conformance2ErrorIsNotARefusal()
{
    const QString notAKit = m_fixture->path(QStringLiteral("not-a-kit.tar"));
    QFile out(notAKit);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("this is not a tar archive");
    out.close();
    QCOMPARE(adapter({QStringLiteral("create"), notAKit}).exitCode, 1);
    QCOMPARE(adapter({QStringLiteral("create"), QStringLiteral("no-such-kit")}).exitCode, 1);
    QCOMPARE(adapter({QStringLiteral("create"), notAKit, QStringLiteral("--bogus")}).exitCode, 1);
    QCOMPARE(adapter({QStringLiteral("recreate"), QStringLiteral("tck-never-made")}).exitCode, 1);
    QVERIFY(m_fixture->listed().isEmpty());
}

// conformance.md §2.2: create with several references makes one sandbox of the workload and its
// mixins (bubblewrap composes them; the record names both).
void TestKitConformance::conformance2CompositionRunsTheWorkloadWithItsMixin()
{
    const QString workload =
        archive(QStringLiteral("base.tar"), descriptorWith({}), QStringLiteral("registry.example/tck/base:1"));
    const QString mixin =
        archive(QStringLiteral("mixin.tar"),
                descriptorWith(
                    lifecycle(QStringLiteral(R"({"files":[{"path":"/home/agent/from-mixin","content":"mixed\n"}]})")),
                    QStringLiteral("mixin")),
                QStringLiteral("registry.example/tck/mixin:1"));
    const QString id = create({workload, mixin});
    QVERIFY(!id.isEmpty());
    QCOMPARE(execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/from-mixin")}), QStringLiteral("mixed\n"));
    QCOMPARE(m_fixture->listed().value(id).value(QLatin1String("composition")).toArray().size(), 2);
    QCOMPARE(adapter({QStringLiteral("rm"), id}).exitCode, 0);
    m_created.removeAll(id);
}

// conformance.md §2.2: a composition runs on the Docker backend too, in an image the daemon makes
// of the workload's with the mixin's layers over it, removed here after.
void TestKitConformance::conformance2CompositionRunsOnDocker()
{
    PADDOCK_NEED_DOCKER();
    const QString workload =
        archive(QStringLiteral("base.tar"), descriptorWith({}), QStringLiteral("registry.example/tck/base:1"));
    const QString mixin =
        archive(QStringLiteral("mixin.tar"),
                descriptorWith(
                    lifecycle(QStringLiteral(R"({"files":[{"path":"/home/agent/from-mixin","content":"docked\n"}]})")),
                    QStringLiteral("mixin")),
                QStringLiteral("registry.example/tck/mixin:1"));
    const Finished created = m_fixture->run(
        QStringLiteral("/usr/bin/env"),
        {QStringLiteral("PADDOCK_ADAPTER_BACKEND=docker"), m_adapter, QStringLiteral("create"), workload, mixin},
        300000);
    QVERIFY2(created.exitCode == 0, qPrintable(created.err + m_fixture->daemonLog().right(3000)));
    const QString id = created.out.trimmed();
    m_created << id;
    const QJsonObject listed = m_fixture->listed().value(id);
    const QString composed = listed.value(QLatin1String("kit")).toString();
    const auto removeImage = qScopeGuard([&composed] {
        const docker::Result<docker::Endpoint> endpoint = docker::Endpoint::fromEnvironment();
        const docker::DockerClient client(endpoint ? endpoint.value() : docker::Endpoint());
        const auto images = client.listImages({QStringLiteral("paddock.kit=") + composed});
        for (const docker::ImageInfo &image : images ? images.value() : QList<docker::ImageInfo>())
            if (image.repoTags.value(0).startsWith(QLatin1String("paddock/composed:")))
                (void)client.removeImage(image.id, true);
    });
    QCOMPARE(listed.value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    QCOMPARE(listed.value(QLatin1String("composition")).toArray().size(), 2);
    QCOMPARE(execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/from-mixin")}),
             QStringLiteral("docked\n"));
    QCOMPARE(adapter({QStringLiteral("rm"), id}).exitCode, 0);
    m_created.removeAll(id);
}

// conformance.md §2.2: exec runs as the agent, proxies the exit status, allocates no TTY and
// passes argv through unmodified.
void TestKitConformance::conformance2ExecIsTheAgentsWithItsStatusAndNoTerminal()
{
    const QString id = create({archive(QStringLiteral("exec.tar"), descriptorWith({}))});
    QVERIFY(!id.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/uid")}).isEmpty(), 20000);
    const QString workloadUid = execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/uid")});
    QCOMPARE(execOut(id, {QStringLiteral("id"), QStringLiteral("-u")}), workloadUid);
    QCOMPARE(adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                      QStringLiteral("exit 7")})
                 .exitCode,
             7);
    const Finished tty = adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("tty")});
    QVERIFY2(tty.exitCode != 0 && tty.out.contains(QLatin1String("not a tty")), qPrintable(tty.out + tty.err));
    const QString literal = QStringLiteral("two words, $HOME and * stay");
    QCOMPARE(execOut(id, {QStringLiteral("printf"), QStringLiteral("%s|"), literal, QStringLiteral("--")}),
             literal + QStringLiteral("|--|"));
}

// conformance.md §2.2: stop then start keeps the writable layer.
void TestKitConformance::conformance2StopStartKeepsTheWritableLayer()
{
    const QString id = create({archive(QStringLiteral("layer.tar"), descriptorWith({}))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                      QStringLiteral("echo kept > /home/agent/kept && echo root > /srv/kept")})
                 .exitCode,
             0);
    QCOMPARE(adapter({QStringLiteral("stop"), id}).exitCode, 0);
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("stopped\n"));
    QCOMPARE(adapter({QStringLiteral("start"), id}).exitCode, 0);
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("running\n"));
    QCOMPARE(execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/kept"), QStringLiteral("/srv/kept")}),
             QStringLiteral("kept\nroot\n"));
}

// conformance.md §2.2: a missing sandbox is an error for status, not "stopped".
void TestKitConformance::conformance2StatusOfAMissingSandboxIsAnError()
{
    const Finished status = adapter({QStringLiteral("status"), QStringLiteral("tck-never-made")});
    QCOMPARE(status.exitCode, 1);
    QVERIFY2(status.out.isEmpty(), qPrintable(status.out));
}

// tck: network-policy@1/install-phase-scoped
void TestKitConformance::networkPolicyInstallPhaseScoped()
{
    QCOMPARE(m_fixture->mapToUpstream({QStringLiteral("install.test")}).exitCode, 0);
    const QString port = QString::number(m_fixture->upstreamPort());
    const QString fetch = QStringLiteral("wget -q -O %2 http://%1:") + port + QStringLiteral("/hello.txt");
    const QString policy =
        capability(QStringLiteral("com.docker.sandbox/network-policy@1"), false,
                   QStringLiteral(R"({"install":{"allow":["install.test"]},"runtime":{"allow":["allowed.test"]}})"));
    const QString hook =
        capability(QStringLiteral("com.docker.sandbox/lifecycle@1"), false,
                   QStringLiteral(R"({"install":[{"command":"%1 && { %2 || true; }"}]})")
                       .arg(fetch.arg(QStringLiteral("install.test"), QStringLiteral("/srv/while-installing")),
                            fetch.arg(QStringLiteral("allowed.test"), QStringLiteral("/srv/runtime-host"))));
    const QString id = create({archive(QStringLiteral("phased.tar"), descriptorWith(policy + QLatin1Char(',') + hook),
                                       QStringLiteral("registry.example/tck/phased:1"))});
    QVERIFY(!id.isEmpty());
    // While installing: the install list, and it alone.
    QCOMPARE(execOut(id, {QStringLiteral("cat"), QStringLiteral("/srv/while-installing")}),
             QString::fromLatin1(paddock::test::LocalUpstream::kBody));
    QCOMPARE(adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("test"), QStringLiteral("-s"),
                      QStringLiteral("/srv/runtime-host")})
                 .exitCode,
             1);
    // The agent's steady state: the runtime list, and the install host refused.
    const auto fetched = [&](const QString &host) {
        return adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                        fetch.arg(host, QStringLiteral("-"))});
    };
    const Finished runtimeHost = fetched(QStringLiteral("allowed.test"));
    QVERIFY2(runtimeHost.exitCode == 0, qPrintable(runtimeHost.err));
    QVERIFY(fetched(QStringLiteral("install.test")).exitCode != 0);
}

// tck: network-policy@1/deny-by-default, /deny-precedence, /refusals-observable
void TestKitConformance::networkPolicyDenyByDefaultDenyPrecedenceAndObservable()
{
    const QString policy =
        capability(QStringLiteral("com.docker.sandbox/network-policy@1"), false,
                   QStringLiteral(R"({"runtime":{"allow":["allowed.test","other.test"],"deny":["other.test"]}})"));
    const QString id = create({archive(QStringLiteral("denies.tar"), descriptorWith(policy),
                                       QStringLiteral("registry.example/tck/denies:1"))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(m_fixture->mapToUpstream({QStringLiteral("unlisted.test")}).exitCode, 0);
    const auto fetched = [&](const QString &host) {
        return adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("wget"), QStringLiteral("-q"),
                        QStringLiteral("-O"), QStringLiteral("-"),
                        QStringLiteral("http://%1:%2/hello.txt").arg(host).arg(m_fixture->upstreamPort())});
    };
    const Finished allowed = fetched(QStringLiteral("allowed.test"));
    QVERIFY2(allowed.out == QString::fromLatin1(paddock::test::LocalUpstream::kBody),
             qPrintable(allowed.out + allowed.err));
    QVERIFY(fetched(QStringLiteral("other.test")).exitCode != 0);    // allowed and denied: denied
    QVERIFY(fetched(QStringLiteral("unlisted.test")).exitCode != 0); // in no list: denied
    // Each refusal is in the log, with the sandbox that tried.
    const Finished log =
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
    QVERIFY2(log.exitCode == 0, qPrintable(log.err));
    QVERIFY2(log.out.contains(QLatin1String("other.test")) && log.out.contains(QLatin1String("unlisted.test")) &&
                 log.out.contains(id),
             qPrintable(log.out));
}

// tck: long-running@1/survives-session-disconnect
void TestKitConformance::longRunningSurvivesSessionDisconnect()
{
    const QString id = create({archive(QStringLiteral("long.tar"),
                                       descriptorWith(capability(QStringLiteral("com.docker.sandbox/long-running@1"))),
                                       QStringLiteral("registry.example/tck/long:1"))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(adapter({QStringLiteral("wait-idle"), id}).exitCode, 0);
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("running\n"));
    // The workload's own process is still at work after the last session left.
    const QString before = execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/beat")});
    QVERIFY2(!before.isEmpty(), "the workload wrote no heartbeat");
    QTRY_VERIFY_WITH_TIMEOUT(execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/beat")}) != before, 10000);
}

// tck: long-running@1/explicit-stop-honored
void TestKitConformance::longRunningExplicitStopHonored()
{
    const QString id = create({archive(QStringLiteral("long-stop.tar"),
                                       descriptorWith(capability(QStringLiteral("com.docker.sandbox/long-running@1"))),
                                       QStringLiteral("registry.example/tck/long-stop:1"))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(adapter({QStringLiteral("stop"), id}).exitCode, 0);
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("stopped\n"));
    // Observing does not start it again, and nothing runs inside.
    QVERIFY(adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("true")}).exitCode != 0);
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("stopped\n"));
}

// tck: lifecycle@1/hook-env-restricted, lifecycle@1/baseline-values-sandbox-derived
// A hook sees the variables it declares and the shell's baseline, with the sandbox's values: not
// the sandbox's other variables (one given at create), not the host's. Paddock's proxy and CA
// variables stay: an install run reaches the network only through them (the one difference from
// the page, which is why lifecycle@1 is not claimed).
void TestKitConformance::lifecycleHookEnvRestrictedToDeclaredAndBaseline()
{
    const QString hooks =
        lifecycle(QStringLiteral(R"({"install":[{"command":"env > /srv/install-env","env":["KIT_SHOWN"]}],)"
                                 R"("startup":[{"command":["sh","-c","env > /home/agent/startup-env"]}]})"));
    const QString id = create({QStringLiteral("--env"), QStringLiteral("KIT_SHOWN=shown"), QStringLiteral("--env"),
                               QStringLiteral("KIT_HIDDEN=hidden"),
                               archive(QStringLiteral("hook-env.tar"), descriptorWith(hooks),
                                       QStringLiteral("registry.example/tck/hook-env:1"))});
    QVERIFY(!id.isEmpty());
    // The sandbox itself has all of them: what the hooks lack was taken from them.
    const QString sandboxEnv = execOut(id, {QStringLiteral("env")});
    QVERIFY2(sandboxEnv.contains(QLatin1String("KIT_HIDDEN=hidden\n")), qPrintable(sandboxEnv));
    QStringList baseline{QStringLiteral("PATH"),  QStringLiteral("HOME"), QStringLiteral("HOSTNAME"),
                         QStringLiteral("TERM"),  QStringLiteral("PWD"),  QStringLiteral("OLDPWD"),
                         QStringLiteral("SHLVL"), QStringLiteral("_")};
    for (const char *name :
         {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS",
          "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "PIP_CERT"})
        baseline << QString::fromLatin1(name) << QString::fromLatin1(name).toLower();
    const QString installEnv = execOut(id, {QStringLiteral("cat"), QStringLiteral("/srv/install-env")});
    QVERIFY2(installEnv.contains(QLatin1String("KIT_SHOWN=shown\n")), qPrintable(installEnv));
    QVERIFY2(!installEnv.contains(QLatin1String("KIT_HIDDEN")), qPrintable(installEnv));
    for (const QString &name : variableNames(installEnv))
        QVERIFY2(baseline.contains(name) || name == QLatin1String("KIT_SHOWN"), qPrintable(installEnv));
    const QString startupEnv = execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/startup-env")});
    QVERIFY2(!startupEnv.isEmpty(), "the startup hook did not run");
    for (const QString &name : variableNames(startupEnv))
        QVERIFY2(baseline.contains(name), qPrintable(startupEnv));
    // Baseline values are the image's and the sandbox's: the image's PATH, the sandbox's home.
    QVERIFY2(installEnv.contains(QLatin1String("\nPATH=/bin\n")) || installEnv.startsWith(QLatin1String("PATH=/bin\n")),
             qPrintable(installEnv));
    const QString home = execOut(id, {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo $HOME")});
    QVERIFY2(startupEnv.contains(QStringLiteral("HOME=%1").arg(home)), qPrintable(startupEnv + home));
}

// tck: lifecycle@1/install-once, lifecycle@1/startup-every-boot, lifecycle@1/install-before-entrypoint
void TestKitConformance::lifecycleInstallOnceStartupEveryBoot()
{
    const QString hooks = lifecycle(QStringLiteral(
        R"({"install":[{"command":"echo installed >> /srv/installs; test ! -e /home/agent/uid && echo first > /srv/order"}],)"
        R"("startup":[{"command":["sh","-c","echo boot >> /home/agent/boots"]}]})"));
    const QString id = create(
        {archive(QStringLiteral("boots.tar"), descriptorWith(hooks), QStringLiteral("registry.example/tck/boots:1"))});
    QVERIFY(!id.isEmpty());
    const auto lines = [&](const QString &file) {
        return execOut(id, {QStringLiteral("cat"), file}).count(QLatin1Char('\n'));
    };
    QCOMPARE(lines(QStringLiteral("/srv/installs")), 1);
    // The install ran before the workload's entrypoint first wrote its uid.
    QCOMPARE(execOut(id, {QStringLiteral("cat"), QStringLiteral("/srv/order")}), QStringLiteral("first\n"));
    QCOMPARE(lines(QStringLiteral("/home/agent/boots")), 1);
    QCOMPARE(adapter({QStringLiteral("stop"), id}).exitCode, 0);
    QCOMPARE(adapter({QStringLiteral("start"), id}).exitCode, 0);
    QCOMPARE(lines(QStringLiteral("/srv/installs")), 1);
    QCOMPARE(lines(QStringLiteral("/home/agent/boots")), 2);
}

// tck: lifecycle@1/files-written, lifecycle@1/files-overwrite-honored, lifecycle@1/args-expanded
void TestKitConformance::lifecycleFilesWrittenOverwriteHonoredArgsExpanded()
{
    const QString descriptor =
        QStringLiteral(R"({"schemaVersion":"3","kind":"workload","args":{"greeting":{"default":"hello"}},)"
                       R"("capabilities":[%1]})")
            .arg(lifecycle(QStringLiteral(
                R"({"files":[{"path":"/home/agent/fresh.txt","content":"${{ kit.args.greeting }} $KEPT\n"},)"
                R"({"path":"/home/agent/kept.txt","content":"from the kit\n","overwrite":false}]})")));
    const QString id = create(
        {QStringLiteral("--arg"), QStringLiteral("greeting=bonjour"),
         archive(QStringLiteral("files.tar"), descriptor.toUtf8(), QStringLiteral("registry.example/tck/files:1"))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/fresh.txt")}),
             QStringLiteral("bonjour $KEPT\n"));
    // Each file is the agent's: the workload's user owns it.
    const QString uid = execOut(id, {QStringLiteral("id"), QStringLiteral("-u")});
    QCOMPARE(execOut(id, {QStringLiteral("stat"), QStringLiteral("-c"), QStringLiteral("%u"),
                          QStringLiteral("/home/agent/fresh.txt")}),
             uid);
    // What the agent wrote over a file marked overwrite: false stays through a start.
    QCOMPARE(adapter({QStringLiteral("exec"), id, QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                      QStringLiteral("echo mine > /home/agent/kept.txt")})
                 .exitCode,
             0);
    QCOMPARE(adapter({QStringLiteral("stop"), id}).exitCode, 0);
    QCOMPARE(adapter({QStringLiteral("start"), id}).exitCode, 0);
    QCOMPARE(execOut(id, {QStringLiteral("cat"), QStringLiteral("/home/agent/kept.txt")}), QStringLiteral("mine\n"));
}

QString TestKitConformance::sh(const QString &id, const QString &script)
{
    return execOut(id, {QStringLiteral("sh"), QStringLiteral("-c"), script}).trimmed();
}

/**
 * A workload with a block volume /data of @p dataMode that its install hook seeds, a tmpfs
 * /scratch of 1 MiB and, @p withEmpty, a block volume /empty that nothing writes.
 */
QString TestKitConformance::volumeKit(const QString &fileName, const QString &dataMode, bool withEmpty)
{
    const QString volume = QStringLiteral("com.docker.sandbox/volume@1");
    QString capabilities = capability(volume, false, QStringLiteral(R"({"path":"/data","mode":"%1"})").arg(dataMode)) +
                           QLatin1Char(',') +
                           capability(volume, false, QStringLiteral(R"({"path":"/scratch","tmpfs":true,"size":"1m"})"));
    if (withEmpty)
        capabilities +=
            QLatin1Char(',') + capability(volume, false, QStringLiteral(R"({"path":"/empty","mode":"0750"})"));
    capabilities +=
        QLatin1Char(',') + capability(QStringLiteral("com.docker.sandbox/lifecycle@1"), false,
                                      QStringLiteral(R"({"install":[{"command":"echo seeded >> /data/seed"}]})"));
    return archive(fileName, descriptorWith(capabilities), QStringLiteral("registry.example/tck/volumes:1"));
}

// tck: volume@1/mounted-before-hooks, volume@1/initially-empty, volume@1/size-and-mode-applied,
// volume@1/agent-writable-root, volume@1/tmpfs-ram-backed
void TestKitConformance::volumeMountedBeforeHooksInitiallyEmptyWithMode()
{
    const QString id = create({volumeKit(QStringLiteral("volumes.tar"), QStringLiteral("0770"))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(sh(id, QStringLiteral("cat /data/seed")), QStringLiteral("seeded")); // the install hook wrote into it
    QCOMPARE(sh(id, QStringLiteral("ls -A /empty")), QString());
    QCOMPARE(sh(id, QStringLiteral("stat -c %a /empty")), QStringLiteral("750"));
    QCOMPARE(sh(id, QStringLiteral("stat -c %a /data")), QStringLiteral("770"));
    QCOMPARE(sh(id, QStringLiteral("echo mine > /empty/f && cat /empty/f")), QStringLiteral("mine"));
    const QString scratch = sh(id, QStringLiteral("grep ' /scratch ' /proc/mounts"));
    QVERIFY2(scratch.startsWith(QLatin1String("tmpfs /scratch tmpfs")) && scratch.contains(QLatin1String("size=1024k")),
             qPrintable(scratch));
    QCOMPARE(adapter({QStringLiteral("volume-paths"), id}).out.trimmed(), QStringLiteral(R"(["/data","/empty"])"));
}

// tck: volume@1/persists-across-restart, volume@1/persists-across-recreate, volume@1/tmpfs-cleared
void TestKitConformance::volumePersistsAcrossRestartAndRecreateTmpfsCleared()
{
    const QString id = create({volumeKit(QStringLiteral("volumes-kept.tar"), QStringLiteral("0755"))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(sh(id, QStringLiteral("echo block > /data/file && echo ram > /scratch/file && echo layer > /srv/file && "
                                   "echo home > /home/agent/file && chmod 700 /empty && echo ok")),
             QStringLiteral("ok"));
    QCOMPARE(adapter({QStringLiteral("stop"), id}).exitCode, 0);
    QCOMPARE(adapter({QStringLiteral("start"), id}).exitCode, 0);
    QCOMPARE(sh(id, QStringLiteral("cat /data/file /srv/file")), QStringLiteral("block\nlayer"));
    QCOMPARE(sh(id, QStringLiteral("ls -A /scratch")), QString());

    QCOMPARE(sh(id, QStringLiteral("echo ram > /scratch/file && rm /data/seed && echo ok")), QStringLiteral("ok"));
    const Finished recreated = adapter({QStringLiteral("recreate"), id});
    QVERIFY2(recreated.exitCode == 0, qPrintable(recreated.err + m_fixture->daemonLog()));
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("running\n"));
    // The writable layer and the home are new; the block volume kept its file and its
    // permissions (the kit's mode is not applied again); the tmpfs is empty.
    QCOMPARE(sh(id, QStringLiteral("test -e /srv/file || test -e /home/agent/file || echo gone")),
             QStringLiteral("gone"));
    QCOMPARE(sh(id, QStringLiteral("cat /data/file")), QStringLiteral("block"));
    QCOMPARE(sh(id, QStringLiteral("cat /data/seed")), QStringLiteral("seeded")); // setup.install ran again
    QCOMPARE(sh(id, QStringLiteral("stat -c %a /empty")), QStringLiteral("700"));
    QCOMPARE(sh(id, QStringLiteral("ls -A /scratch")), QString());
}

// tck: volume@1/recreate-config-compatible, volume@1/undeclared-retained, volume@1/composition-independent
void TestKitConformance::volumeRecreateConfigCompatibleAndUndeclaredRetained()
{
    const QString id = create({volumeKit(QStringLiteral("volumes-v1.tar"), QStringLiteral("0755"))});
    QVERIFY(!id.isEmpty());
    QCOMPARE(
        sh(id, QStringLiteral("echo v1 > /data/file && echo left > /empty/file && echo layer > /srv/file && echo ok")),
        QStringLiteral("ok"));
    // The same path asked for with another mode: refused, and nothing changes.
    const Finished refused =
        adapter({QStringLiteral("recreate"), id, volumeKit(QStringLiteral("volumes-v2.tar"), QStringLiteral("0700"))});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(QLatin1String("/data")) && refused.err.contains(QLatin1String("mode 700 instead of "
                                                                                                "mode 755")),
             qPrintable(refused.err));
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("running\n"));
    QCOMPARE(sh(id, QStringLiteral("cat /data/file /srv/file")), QStringLiteral("v1\nlayer"));
    // A kit that no longer declares /empty: its storage stays, unmounted, and comes back with it.
    const Finished narrower = adapter(
        {QStringLiteral("recreate"), id, volumeKit(QStringLiteral("volumes-v3.tar"), QStringLiteral("0755"), false)});
    QVERIFY2(narrower.exitCode == 0, qPrintable(narrower.err));
    QCOMPARE(sh(id, QStringLiteral("cat /data/file")), QStringLiteral("v1"));
    QCOMPARE(sh(id, QStringLiteral("test -e /empty/file || echo unmounted")), QStringLiteral("unmounted"));
    QCOMPARE(adapter({QStringLiteral("volume-paths"), id}).out.trimmed(), QStringLiteral(R"(["/data","/empty"])"));
    // Declaring it again widens the kit: approved when it is loaded, then the storage is back.
    const Finished approved =
        m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), QStringLiteral("--approve-kit-changes"),
                            volumeKit(QStringLiteral("volumes-v4.tar"), QStringLiteral("0755"))});
    QVERIFY2(approved.exitCode == 0, qPrintable(approved.out + approved.err));
    const QString kitName = approved.out.section(QLatin1String("loaded "), 1).section(QLatin1Char(' '), 0, 0);
    const Finished again = adapter({QStringLiteral("recreate"), id, kitName});
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QCOMPARE(sh(id, QStringLiteral("cat /empty/file")), QStringLiteral("left"));
}

// tck: volume@1/removal-deletes-storage, volume@1/instance-and-path-identity
void TestKitConformance::volumeRemovalDeletesStorage()
{
    const QString kit = volumeKit(QStringLiteral("volumes-rm.tar"), QStringLiteral("0755"));
    const QString id = create({kit, QStringLiteral("--name"), QStringLiteral("tck-volume-alias")});
    QVERIFY(!id.isEmpty());
    QCOMPARE(sh(id, QStringLiteral("echo old > /data/file && echo ok")), QStringLiteral("ok"));
    QCOMPARE(adapter({QStringLiteral("rm"), id}).exitCode, 0);
    m_created.removeAll(id);
    QCOMPARE(adapter({QStringLiteral("volume-paths"), id}).out.trimmed(), QStringLiteral("[]"));
    // The same name again is another sandbox, with fresh storage.
    const QString again = create({kit, QStringLiteral("--name"), QStringLiteral("tck-volume-alias")});
    QCOMPARE(again, id);
    QCOMPARE(sh(again, QStringLiteral("test -e /data/file || echo fresh")), QStringLiteral("fresh"));
}

// A recreation whose setup.install fails after the old sandbox went keeps the volumes, and the
// sandbox can be recreated again once the cause is gone, or removed with what it left.
void TestKitConformance::recreateThatFailsIsTriedAgainOrRemoved()
{
    // The install hook fails once when the volume holds a mark, which it takes away.
    const QByteArray descriptor = descriptorWith(
        capability(QStringLiteral("com.docker.sandbox/volume@1"), false, QStringLiteral(R"({"path":"/data"})")) +
        QLatin1Char(',') +
        lifecycle(
            QStringLiteral(R"({"install":[{"command":"if test -e /data/fail; then rm /data/fail; exit 1; fi"}]})")));
    const QString kit =
        archive(QStringLiteral("fails-once.tar"), descriptor, QStringLiteral("registry.example/tck/once:1"));
    const QString id = create({kit});
    QVERIFY(!id.isEmpty());
    QCOMPARE(sh(id, QStringLiteral("echo kept > /data/file && touch /data/fail && echo ok")), QStringLiteral("ok"));
    const Finished failed = m_fixture->paddock({QStringLiteral("recreate"), id});
    QVERIFY2(failed.exitCode != 0 &&
                 failed.err.contains(QLatin1String("`paddock recreate ") + id + QLatin1String("` tries again")),
             qPrintable(failed.out + failed.err));
    QVERIFY(!m_fixture->listed().contains(id));
    QCOMPARE(adapter({QStringLiteral("volume-paths"), id}).out.trimmed(), QStringLiteral(R"(["/data"])"));
    // Tried again: made from its record, with what its volume held; stopped, since whether it
    // ran went with the old sandbox.
    const Finished again = m_fixture->paddock({QStringLiteral("recreate"), id});
    QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err + m_fixture->daemonLog()));
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("stopped\n"));
    QCOMPARE(adapter({QStringLiteral("start"), id}).exitCode, 0);
    QCOMPARE(sh(id, QStringLiteral("cat /data/file")), QStringLiteral("kept"));

    // Failing again, then removed: nothing of it stays.
    QCOMPARE(sh(id, QStringLiteral("touch /data/fail && echo ok")), QStringLiteral("ok"));
    QVERIFY(m_fixture->paddock({QStringLiteral("recreate"), id}).exitCode != 0);
    const Finished removed = m_fixture->paddock({QStringLiteral("rm"), id});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.out + removed.err));
    m_created.removeAll(id);
    QCOMPARE(adapter({QStringLiteral("volume-paths"), id}).out.trimmed(), QStringLiteral("[]"));
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("data/paddock/sandboxes/")) + id));
}

// Paths are the kit's, so hostile: over the sandbox's own places, or not plainly absolute.
void TestKitConformance::volumeHostilePathsRefused()
{
    const auto tried = [&](const QString &file, const QString &path) {
        const QString kit = archive(file,
                                    descriptorWith(capability(QStringLiteral("com.docker.sandbox/volume@1"), false,
                                                              QStringLiteral(R"({"path":"%1"})").arg(path))),
                                    QStringLiteral("registry.example/tck/hostile-%1:1").arg(file.section('.', 0, 0)));
        return adapter({QStringLiteral("create"), kit});
    };
    const Finished proc = tried(QStringLiteral("proc.tar"), QStringLiteral("/proc/x"));
    QCOMPARE(proc.exitCode, 1);
    QVERIFY2(proc.err.contains(QLatin1String("/proc/x is over /proc")), qPrintable(proc.err));
    const Finished dots = tried(QStringLiteral("dots.tar"), QStringLiteral("/srv/../../proc"));
    QCOMPARE(dots.exitCode, 1);
    QVERIFY2(dots.err.contains(QLatin1String("has a '..' part")), qPrintable(dots.err));
    const Finished relative = tried(QStringLiteral("relative.tar"), QStringLiteral("../.."));
    QCOMPARE(relative.exitCode, 1);
    QVERIFY2(relative.err.contains(QLatin1String("must be an absolute path")), qPrintable(relative.err));
    const Finished paddockOwn = tried(QStringLiteral("own.tar"), QStringLiteral("/run/paddock"));
    QCOMPARE(paddockOwn.exitCode, 1);
    QVERIFY(m_fixture->listed().isEmpty());
}

// tck: volume@1/persists-across-recreate, volume@1/tmpfs-cleared on the Docker runtime: the
// container is replaced, the named volume kept. The install hook (root, as the image's user)
// adds a line to the volume each time it runs: two lines after a recreation.
void TestKitConformance::volumePersistsAcrossRecreateOnDocker()
{
    PADDOCK_NEED_DOCKER();
    const Finished created =
        m_fixture->run(QStringLiteral("/usr/bin/env"),
                       {QStringLiteral("PADDOCK_ADAPTER_BACKEND=docker"), m_adapter, QStringLiteral("create"),
                        volumeKit(QStringLiteral("volumes-docker.tar"), QStringLiteral("0755"), false)},
                       300000);
    QVERIFY2(created.exitCode == 0, qPrintable(created.err + m_fixture->daemonLog()));
    const QString id = created.out.trimmed();
    m_created << id;
    QCOMPARE(m_fixture->listed().value(id).value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    QCOMPARE(sh(id, QStringLiteral("cat /data/seed")), QStringLiteral("seeded"));
    QCOMPARE(sh(id, QStringLiteral("echo ram > /scratch/file && echo ok")), QStringLiteral("ok"));
    const Finished recreated = adapter({QStringLiteral("recreate"), id});
    QVERIFY2(recreated.exitCode == 0, qPrintable(recreated.err + m_fixture->daemonLog()));
    QCOMPARE(adapter({QStringLiteral("status"), id}).out, QStringLiteral("running\n"));
    QCOMPARE(sh(id, QStringLiteral("cat /data/seed")), QStringLiteral("seeded\nseeded"));
    QCOMPARE(sh(id, QStringLiteral("ls -A /scratch")), QString());
}

QTEST_GUILESS_MAIN(TestKitConformance)
#include "tst_kit_conformance.moc"
