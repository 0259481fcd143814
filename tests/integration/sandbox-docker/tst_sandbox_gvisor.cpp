// SPDX-License-Identifier: GPL-3.0-or-later
// `--isolation gvisor` as a user runs it: the real daemon and CLI, the machine's engine with
// gVisor's runsc registered (tests/with-services.sh does it), a busybox-and-curl image built
// here. The sandbox gets a kernel of its own, nothing gets out, and Paddock's proxy and
// checklist work as they do under runc; an engine without runsc refuses, and says how.
#include "DockerSandboxFixture.h"

#include "runtime/docker/DockerRuntime.h"

#include "Needs.h"

#include <QHostAddress>
#include <QNetworkInterface>
#include <QSysInfo>
#include <QTcpServer>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;

class TestSandboxGvisor : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theSandboxHasAKernelOfItsOwnAndSaysSo();
    void theEscapeProbeFindsNoWayOut();
    void theChecklistPasses();
    // After the checklist, whose log check counts this sandbox's refusals since it started.
    void namesLookedUpAreRefusedAndLogged();
    void bubblewrapCannotGiveIt();
    void aKitThatAsksForGvisorGetsIt();
    void aToolSetupInstallPutInTheSystemRunsAndStays();
    void anEngineWithoutRunscRefusesAndSaysHow();

private:
    std::unique_ptr<DockerSandboxFixture> m_fixture;
    QString m_kit;
    QString m_problem; // why gVisor cannot run here; each test but the last needs it
};

void TestSandboxGvisor::initTestCase()
{
    m_fixture = std::make_unique<DockerSandboxFixture>();
    bool skip = false;
    const QString problem = m_fixture->setUp(&skip, true);
    PADDOCK_NEED(!skip, problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QString gvisor = paddock::tests::docker::gvisorUnavailableReason(m_fixture->client(), &skip);
    PADDOCK_NEED(!skip, gvisor);
    QVERIFY2(gvisor.isEmpty(), qPrintable(gvisor));
    m_kit = m_fixture->writeKit(
        QStringLiteral("kit"), QStringLiteral("gvisor-shell"), m_fixture->imageTag(), QStringLiteral("exec sleep 600"),
        QStringLiteral("environment:\n  variables:\n"
                       "    LD_LIBRARY_PATH: /lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu\n"));
    QVERIFY(!m_kit.isEmpty());
    const DockerFinished started = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--isolation"), QStringLiteral("gvisor"),
         QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), QStringLiteral("gv-box"), m_fixture->workspace()});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err + m_fixture->daemonLog()));
}

void TestSandboxGvisor::theSandboxHasAKernelOfItsOwnAndSaysSo()
{
    const DockerFinished kernel =
        m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("gv-box"), QStringLiteral("--"),
                            QStringLiteral("uname"), QStringLiteral("-r")});
    QVERIFY2(kernel.exitCode == 0, qPrintable(kernel.err));
    QVERIFY(!kernel.out.trimmed().isEmpty());
    QVERIFY2(kernel.out.trimmed() != QSysInfo::kernelVersion(),
             qPrintable(QStringLiteral("the sandbox sees the host's kernel %1").arg(kernel.out)));

    // No backend was named: gVisor chose Docker, and every listing says which isolation it got.
    const QJsonObject listed = m_fixture->listed().value(QStringLiteral("gv-box"));
    QCOMPARE(listed.value(QLatin1String("backend")).toString(), QStringLiteral("docker"));
    QCOMPARE(listed.value(QLatin1String("isolation")).toString(), QStringLiteral("gvisor"));
    const DockerFinished table = m_fixture->paddock({QStringLiteral("ls")});
    QVERIFY2(table.out.contains(QLatin1String("docker+gvisor")), qPrintable(table.out));
    // The engine runs it with runsc, not runc.
    const auto container =
        m_fixture->client().inspectContainer(paddock::runtime::DockerRuntime::containerName(QStringLiteral("gv-box")));
    QVERIFY2(container, qPrintable(container.errorMessage()));
    QCOMPARE(container.value().runtime, QStringLiteral("runsc"));
}

void TestSandboxGvisor::theEscapeProbeFindsNoWayOut()
{
    // A server on the host's own addresses, which nothing inside may reach but through the proxy.
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::AnyIPv4));
    QString hostAddress;
    for (const QHostAddress &address : QNetworkInterface::allAddresses()) {
        if (address.protocol() == QAbstractSocket::IPv4Protocol && !address.isLoopback())
            hostAddress = address.toString();
    }
    const QString script =
        QStringLiteral(
            "probe() { if sh -c \"$2\" >/dev/null 2>&1; then echo \"ESCAPED $1\"; else echo \"held $1\"; fi; }\n"
            "probe docker-socket 'test -S /var/run/docker.sock || test -S /run/docker.sock'\n"
            "probe capabilities 'grep -q \"^CapEff:.*[1-9a-f]\" /proc/self/status'\n"
            "probe mount 'mount -t tmpfs none /mnt'\n"
            "probe host-kernel 'test \"$(uname -r)\" = \"%1\"'\n"
            "probe host-files 'test -e %2'\n"
            "probe loopback-of-host 'wget -q -T 3 -O /dev/null http://127.0.0.1:%3/'\n"
            "probe address-of-host '[ -n \"%4\" ] && wget -q -T 3 -O /dev/null http://%4:%3/'\n"
            "probe direct-dns 'nslookup example.com 9.9.9.9'\n")
            .arg(QSysInfo::kernelVersion(), m_fixture->path(QStringLiteral("paddockd.out")))
            .arg(server.serverPort())
            .arg(hostAddress);
    const DockerFinished probe =
        m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("gv-box"), QStringLiteral("--"),
                            QStringLiteral("sh"), QStringLiteral("-c"), script});
    QVERIFY2(probe.exitCode == 0, qPrintable(probe.err));
    QCOMPARE(probe.out.count(QLatin1String("held ")), 8);
    QVERIFY2(!probe.out.contains(QLatin1String("ESCAPED")), qPrintable(probe.out));
    QTest::qWait(200);
    QVERIFY2(!server.hasPendingConnections(), "a connection reached the host's server");
}

void TestSandboxGvisor::namesLookedUpAreRefusedAndLogged()
{
    // gVisor has no netfilter: connections that do not use the proxy cannot be captured. The
    // sandbox's resolver refuses every name at once, and each name looked up is in the log,
    // saying why, so a person sees what the agent tried to reach.
    const DockerFinished looked =
        m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("gv-box"), QStringLiteral("--"),
                            QStringLiteral("nslookup"), QStringLiteral("gvisor-lookup.example")});
    QVERIFY2(looked.exitCode != 0, qPrintable(looked.out));
    QJsonObject entry;
    QVERIFY2(
        QTest::qWaitFor(
            [&] {
                const DockerFinished log =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--json")});
                for (const QJsonValue &value :
                     QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("blocked")).toArray()) {
                    if (value.toObject().value(QLatin1String("host")).toString() ==
                        QLatin1String("gvisor-lookup.example"))
                        entry = value.toObject();
                }
                return !entry.isEmpty();
            },
            15000),
        qPrintable(m_fixture->daemonLog()));
    QCOMPARE(entry.value(QLatin1String("protocol")).toString(), QStringLiteral("dns"));
    QVERIFY2(entry.value(QLatin1String("reason")).toString().contains(QLatin1String("cannot be captured")),
             qPrintable(entry.value(QLatin1String("reason")).toString()));
}

void TestSandboxGvisor::theChecklistPasses()
{
    // Credentials, a refused request logged, a workspace edit seen on the host, the log.
    const DockerFinished verified =
        m_fixture->paddock({QStringLiteral("verify"), QStringLiteral("gv-box"), QStringLiteral("--json")});
    const QJsonObject result = QJsonDocument::fromJson(verified.out.toUtf8()).object();
    QVERIFY2(result.value(QLatin1String("passed")).toBool(), qPrintable(verified.out + verified.err));
    QStringList passed;
    for (const QJsonValue &check : result.value(QLatin1String("checks")).toArray()) {
        if (check[QLatin1String("status")].toString() == QLatin1String("ok"))
            passed << check[QLatin1String("id")].toString();
    }
    QVERIFY2(passed.contains(QLatin1String("blocked")) && passed.contains(QLatin1String("workspace")),
             qPrintable(passed.join(QLatin1Char(' '))));
}

void TestSandboxGvisor::bubblewrapCannotGiveIt()
{
    const DockerFinished run =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--backend"),
                            QStringLiteral("bwrap"), QStringLiteral("--isolation"), QStringLiteral("gvisor"),
                            QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), QStringLiteral("gv-bwrap"),
                            m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("true")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("gVisor runs through the Docker engine")), qPrintable(run.err));
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("gv-bwrap")));
}

void TestSandboxGvisor::aKitThatAsksForGvisorGetsIt()
{
    // A setting of Paddock's own: the kit's spec.yaml is left as sbx reads it.
    QFile spec(m_kit + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::ReadOnly));
    const QByteArray before = spec.readAll();
    spec.close();
    const DockerFinished set =
        m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("isolation"), m_kit, QStringLiteral("gvisor")});
    QVERIFY2(set.exitCode == 0, qPrintable(set.err));
    QVERIFY2(set.out.contains(QLatin1String("gvisor isolation at least")), qPrintable(set.out));
    QVERIFY(spec.open(QIODevice::ReadOnly));
    QCOMPARE(spec.readAll(), before);
    spec.close();

    // Nothing asked: the kit's level, and the backend it needs.
    const DockerFinished kernel = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--kit"), m_kit, QStringLiteral("--name"),
         QStringLiteral("gv-kit"), m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("uname -r")});
    QVERIFY2(kernel.exitCode == 0, qPrintable(kernel.err));
    QVERIFY2(!kernel.out.trimmed().isEmpty() && kernel.out.trimmed() != QSysInfo::kernelVersion(),
             qPrintable(kernel.out));
    // Less than the kit asks for is refused, and says how to get it.
    for (const QStringList &lower : {QStringList{QStringLiteral("--isolation"), QStringLiteral("container")},
                                     QStringList{QStringLiteral("--backend"), QStringLiteral("bwrap")}}) {
        const DockerFinished refused = m_fixture->paddock(
            QStringList{QStringLiteral("run"), QStringLiteral("--rm")} + lower +
            QStringList{QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), QStringLiteral("gv-lower"),
                        m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QLatin1String("asks for gvisor isolation")), qPrintable(refused.err));
        QVERIFY(!m_fixture->listed().contains(QStringLiteral("gv-lower")));
    }
    const DockerFinished lifted =
        m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("isolation"), m_kit, QStringLiteral("container")});
    QVERIFY2(lifted.exitCode == 0 && lifted.out.contains(QLatin1String("the isolation they are asked for")),
             qPrintable(lifted.out + lifted.err));
}

void TestSandboxGvisor::aToolSetupInstallPutInTheSystemRunsAndStays()
{
    // runsc writes the container's root through to the engine's layer, which the engine commits.
    const QString kit = m_fixture->writeKit(
        QStringLiteral("install-kit"), QStringLiteral("gvisor-tooled"), m_fixture->imageTag(),
        QStringLiteral("exec sleep 600"),
        QStringLiteral("setup:\n  install:\n"
                       "    - command: 'mkdir -p /usr/local/bin && printf \"#!/bin/sh\\necho kit-tool "
                       "ran\\n\" > /usr/local/bin/kit-tool && chmod 755 /usr/local/bin/kit-tool'\n"));
    QVERIFY(!kit.isEmpty());
    const DockerFinished started = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--isolation"), QStringLiteral("gvisor"),
         QStringLiteral("--kit"), kit, QStringLiteral("--name"), QStringLiteral("gv-tool"), m_fixture->workspace()});
    QVERIFY2(started.exitCode == 0, qPrintable(started.err));
    const QStringList tool{QStringLiteral("exec"), QStringLiteral("gv-tool"), QStringLiteral("--"),
                           QStringLiteral("kit-tool")};
    DockerFinished ran = m_fixture->paddock(tool);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QCOMPARE(ran.out, QStringLiteral("kit-tool ran\n"));
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("gv-tool")}).exitCode, 0);
    QCOMPARE(m_fixture->paddock({QStringLiteral("start"), QStringLiteral("gv-tool")}).exitCode, 0);
    ran = m_fixture->paddock(tool);
    QCOMPARE(ran.out, QStringLiteral("kit-tool ran\n"));
    // Removing the sandbox removes the image that held it.
    QCOMPARE(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("gv-tool")}).exitCode,
             0);
    const auto images =
        m_fixture->client().listImages({QStringLiteral("paddock.installed-for=gv-tool"),
                                        QStringLiteral("paddock.owner=") + paddock::runtime::DockerRuntime::owner()},
                                       true);
    QVERIFY2(images, qPrintable(images.errorMessage()));
    QCOMPARE(images.value().size(), 0);
}

void TestSandboxGvisor::anEngineWithoutRunscRefusesAndSaysHow()
{
    // The same engine, asked for a runtime it does not have: as one without runsc answers.
    m_fixture->stopDaemon();
    m_fixture->setVariable(QStringLiteral("PADDOCK_GVISOR_RUNTIME"), QStringLiteral("runsc-not-registered"));
    QVERIFY2(m_fixture->startDaemon(), qPrintable(m_fixture->daemonLog()));
    const DockerFinished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--isolation"), QStringLiteral("gvisor"),
         QStringLiteral("--kit"), m_kit, QStringLiteral("--name"), QStringLiteral("gv-missing"), m_fixture->workspace(),
         QStringLiteral("--"), QStringLiteral("true")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(QLatin1String("has no 'runsc-not-registered' runtime")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("apt-get install runsc")), qPrintable(run.err));
    QVERIFY2(run.err.contains(QLatin1String("\"runtimes\": {\"runsc\": {\"path\": \"/usr/bin/runsc\"")),
             qPrintable(run.err));
    // Never a silent fallback to runc: no container was made.
    QVERIFY(!m_fixture->listed().contains(QStringLiteral("gv-missing")));
    QVERIFY(!m_fixture->client().inspectContainer(
        paddock::runtime::DockerRuntime::containerName(QStringLiteral("gv-missing"))));
}

QTEST_GUILESS_MAIN(TestSandboxGvisor)
#include "tst_sandbox_gvisor.moc"
