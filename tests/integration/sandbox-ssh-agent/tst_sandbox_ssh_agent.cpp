// SPDX-License-Identifier: GPL-3.0-or-later
// A schemaVersion "3" kit's ssh-agent@1 with the real daemon, CLI and bubblewrap (or, built with
// PADDOCK_SSH_AGENT_BACKEND "docker", the machine's Docker engine, under runc or with
// PADDOCK_SSH_AGENT_ISOLATION "gvisor" under runsc): inside, the agent of the person
// who creates the sandbox lists its key and signs what the kit names, and nothing else; the
// person's other agent, the daemon's own, is never reached; a sandbox whose kit does not ask for
// it has no agent, even though the daemon has one in its environment.
#include "../../unit/kit-v3/OciKitArchive.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "ProcessRun.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;

#ifndef PADDOCK_SSH_AGENT_BACKEND
#define PADDOCK_SSH_AGENT_BACKEND "bwrap"
#endif
#ifndef PADDOCK_SSH_AGENT_ISOLATION
#define PADDOCK_SSH_AGENT_ISOLATION ""
#endif

namespace {

const QString kBackend = QStringLiteral(PADDOCK_SSH_AGENT_BACKEND);
const QString kIsolation = QStringLiteral(PADDOCK_SSH_AGENT_ISOLATION); ///< gvisor: the engine's runsc
const QString kSocketInside = QStringLiteral("/run/paddock/ssh-agent/agent.sock");

const QByteArray kSignGit = R"({"type":"com.docker.sandbox/ssh-agent@1",)"
                            R"("config":{"phase":"runtime","unrestricted":false,"sign":["git"]}})";
// A volume the install hooks (root by default) write into, and the workload reads: the root the
// hooks change on Docker is not the workload's.
const QByteArray kData = R"({"type":"com.docker.sandbox/volume@1","config":{"path":"/data"}})";
// What setup.install sees of the agent, kept for the workload to show.
const QByteArray kInstallLooks = kData + R"(,{"type":"com.docker.sandbox/lifecycle@1","config":{"install":[{"command":)"
                                         R"("echo install-sock=${SSH_AUTH_SOCK:-unset} > /data/install-saw; )"
                                         R"(ls /run/paddock >> /data/install-saw 2>&1; true"}]}})";

} // namespace

class TestSandboxSshAgent : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void agentReachable();
    void everyBoot();
    void afterDaemonRestart();
    void phaseScoped();
    void absentWithoutGrant();
#ifndef PADDOCK_SSH_AGENT_NO_ADAPTER // the adapter drives no isolation of its own
    void adapterGivenAgentAlone();
#endif
    void unavailableSkipsOptional();
    void unavailableRefusesRequired();

private:
    /** Loads a kit @p name asking for @p capabilities whose image runs @p script with busybox and OpenSSH's tools. */
    bool loadKit(const QString &name, const QByteArray &capabilities, const QString &script);
    /** `paddock run --kit KIT --name KIT WORKSPACE`, with SSH_AUTH_SOCK as @p agent (unset when empty). */
    Finished runKit(const QString &kit, const QString &agent);
    Finished hostAgent(const QStringList &args);
    /** `paddock ARGS` with SSH_AUTH_SOCK as the person's agent. */
    Finished paddockWithAgent(const QStringList &args);
    /** Starts an ssh-agent on @p socket holding a new key named @p comment. */
    void startAgent(QProcess &agent, const QString &socket, const QString &comment);
    /** `--backend docker` for the Docker variant, nothing for bubblewrap (Paddock's default). */
    static QStringList backendArgs()
    {
        QStringList args;
        if (kBackend != QLatin1String("bwrap"))
            args << QStringLiteral("--backend") << kBackend;
        if (!kIsolation.isEmpty())
            args << QStringLiteral("--isolation") << kIsolation;
        return args;
    }

    QTemporaryDir m_dir{QStringLiteral("/tmp/pdk-sshagent-XXXXXX")};
    QString m_agentSocket;
    QProcess m_agent;
    QProcess m_otherAgent; ///< the daemon's own, with a key of the person's no sandbox here may see
    std::unique_ptr<SandboxFixture> m_fixture;
    QList<RawMember> m_image;
};

Finished TestSandboxSshAgent::hostAgent(const QStringList &args)
{
    ProcessOptions options;
    options.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), m_agentSocket);
    return runText(QStringLiteral("ssh-add"), args, options);
}

void TestSandboxSshAgent::startAgent(QProcess &agent, const QString &socket, const QString &comment)
{
    agent.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), socket});
    QVERIFY(agent.waitForStarted());
    QTRY_VERIFY(QFileInfo::exists(socket));
    const QString key = m_dir.filePath(comment);
    QCOMPARE(runText(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"),
                                                    QStringLiteral("-t"),
                                                    QStringLiteral("ed25519"),
                                                    QStringLiteral("-N"),
                                                    {},
                                                    QStringLiteral("-C"),
                                                    comment,
                                                    QStringLiteral("-f"),
                                                    key})
                 .exitCode,
             0);
    ProcessOptions options;
    options.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), socket);
    QCOMPARE(runText(QStringLiteral("ssh-add"), {key}, options).exitCode, 0);
}

void TestSandboxSshAgent::initTestCase()
{
    if (kBackend == QLatin1String("docker"))
        PADDOCK_NEED_DOCKER();
    if (kIsolation == QLatin1String("gvisor")) {
        // The engine's runsc, which tests/with-services.sh registers with --fsgofer-host-uds.
        const Finished info = runText(QStringLiteral("docker"), {QStringLiteral("info"), QStringLiteral("--format"),
                                                                 QStringLiteral("{{json .Runtimes}}")});
        PADDOCK_NEED(info.out.contains(QLatin1String("\"runsc\"")), "the engine's runsc runtime (gVisor)");
    }
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("ssh-agent")).isEmpty(), "ssh-agent (openssh-client)");
    m_agentSocket = m_dir.filePath(QStringLiteral("agent.sock"));
    startAgent(m_agent, m_agentSocket, QStringLiteral("person@host"));
    startAgent(m_otherAgent, m_dir.filePath(QStringLiteral("other.sock")), QStringLiteral("other@host"));

    // busybox, ssh-add and ssh-keygen and the libraries they load: the image of every kit here.
    QFile box(busybox);
    QVERIFY(box.open(QIODevice::ReadOnly));
    m_image = {folder("bin"),
               file("bin/busybox", box.readAll(), 0755),
               softLink("bin/sh", "busybox"),
               folder("etc"),
               file("etc/passwd", "root:x:0:0::/root:/bin/sh\nagent:x:1000:1000::/home/agent:/bin/sh\n"
                                  "tester:x:1500:1500::/home/agent:/bin/sh\n"),
               folder("tmp", 01777),
               folder("usr"),
               folder("usr/bin")};
    QSet<QByteArray> folders{"bin", "etc", "tmp", "usr", "usr/bin"};
    static const QRegularExpression path(QStringLiteral("(/[^ ]+)"));
    for (const char *program : {"ssh-add", "ssh-keygen"}) {
        const QString found = QStandardPaths::findExecutable(QLatin1String(program));
        QFile binary(found);
        QVERIFY(binary.open(QIODevice::ReadOnly));
        m_image << file(QByteArray("usr/bin/") + program, binary.readAll(), 0755);
        const Finished ldd = runText(QStringLiteral("ldd"), {found});
        for (auto it = path.globalMatch(ldd.out); it.hasNext();) {
            const QByteArray library = it.next().captured(1).toUtf8().mid(1);
            const QList<QByteArray> parts = library.split('/');
            for (qsizetype depth = 1; depth < parts.size(); ++depth) {
                const QByteArray parent = parts.mid(0, depth).join('/');
                if (!folders.contains(parent)) {
                    folders.insert(parent);
                    m_image << folder(parent);
                }
            }
            if (folders.contains(library))
                continue;
            folders.insert(library);
            QFile copy(QFileInfo(QLatin1Char('/') + QString::fromUtf8(library)).canonicalFilePath());
            QVERIFY(copy.open(QIODevice::ReadOnly));
            m_image << file(library, copy.readAll(), 0755);
        }
    }
    m_fixture = std::make_unique<SandboxFixture>();
    // The conformance adapter drives the CLI the fixture's daemon answers, on this backend.
    m_fixture->addEnvironment(QStringLiteral("PADDOCK"), QStringLiteral(PADDOCK_BIN));
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_ADAPTER_STATE"), m_dir.filePath(QStringLiteral("adapter")));
    m_fixture->addEnvironment(QStringLiteral("PADDOCK_ADAPTER_BACKEND"), kBackend);
    // The daemon has another agent of the person's in its own environment: a kit without the
    // grant must still get nothing of it, and one with the grant the creator's agent alone.
    m_fixture->addEnvironment(QStringLiteral("SSH_AUTH_SOCK"), m_dir.filePath(QStringLiteral("other.sock")));
    if (kBackend == QLatin1String("docker"))
        m_fixture->addEnvironment(QStringLiteral("DOCKER_HOST"),
                                  qEnvironmentVariable("DOCKER_HOST", QStringLiteral("unix:///var/run/docker.sock")));
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxSshAgent::cleanupTestCase()
{
    m_fixture.reset();
    for (QProcess *agent : {&m_agent, &m_otherAgent}) {
        agent->terminate();
        agent->waitForFinished(5000);
    }
}

bool TestSandboxSshAgent::loadKit(const QString &name, const QByteArray &capabilities, const QString &script)
{
    OciKit kit;
    kit.refName = QStringLiteral("registry.example/kits/%1:1").arg(name);
    kit.layers = {tarOf(m_image)};
    kit.config =
        QJsonObject{{QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/sh"), QStringLiteral("-c")}},
                    {QStringLiteral("Cmd"), QJsonArray{script}}};
    kit.manifestAnnotations =
        kitAnnotations(R"({"schemaVersion":"3","kind":"workload","capabilities":[)" + capabilities + "]}");
    const QString archive = m_fixture->path(name + QStringLiteral(".tar"));
    QFile out(archive);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    out.write(ociKitArchive(kit));
    out.close();
    const Finished loaded = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), archive});
    if (loaded.exitCode != 0)
        qWarning("%s", qPrintable(loaded.out + loaded.err));
    return loaded.exitCode == 0;
}

Finished TestSandboxSshAgent::runKit(const QString &kit, const QString &agent)
{
    ProcessOptions options;
    options.environment = m_fixture->environment();
    options.environment.remove(QStringLiteral("SSH_AUTH_SOCK"));
    if (!agent.isEmpty())
        options.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), agent);
    options.workingDirectory = m_fixture->workspace();
    options.timeoutMs = 300000;
    return runText(QStringLiteral(PADDOCK_BIN),
                   QStringList{QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"), kit} +
                       backendArgs() + QStringList{m_fixture->workspace()},
                   options);
}

void TestSandboxSshAgent::agentReachable()
{
    // ssh-keygen's own program holds the words of a key's armour: the folders where a key file
    // would be are searched, and the workspace; the words are split so that this script, kept
    // inside, does not match itself.
    const QString script = QStringLiteral(
        "cat /data/install-saw; echo \"sock=$SSH_AUTH_SOCK\"; echo \"folder=$(ls -A /run/paddock/ssh-agent)\"; "
        "ls -A /run/paddock/endpoint | grep -q agent && echo agent-in-endpoint; "
        "ssh-add -l && echo listed; ssh-add -L > /tmp/key.pub; "
        "echo a commit > /tmp/m; "
        "ssh-keygen -Y sign -n git -f /tmp/key.pub /tmp/m >/dev/null 2>&1 && echo git-signed; "
        "ssh-keygen -Y check-novalidate -n git -s /tmp/m.sig < /tmp/m >/dev/null 2>&1 && echo git-verified; "
        "ssh-keygen -Y sign -n file -f /tmp/key.pub /tmp/m >/dev/null 2>&1 && echo file-signed; "
        "ssh-add -D >/dev/null 2>&1 && echo removed-all; "
        "armour='OPENSSH PRIV'; grep -rls \"BEGIN ${armour}ATE KEY\" /etc /home /root /tmp /run /srv . 2>/dev/null "
        "| grep -q . && echo key-inside; "
        "echo done");
    QVERIFY(loadKit(QStringLiteral("signer"), kSignGit + "," + kInstallLooks, script));
    const Finished ran = runKit(QStringLiteral("signer"), m_agentSocket);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(3000)));
    QVERIFY2(ran.out.contains(QStringLiteral("sock=%1\n").arg(kSocketInside)), qPrintable(ran.out + ran.err));
    // The folder bound holds the agent's socket and nothing else of this computer; the
    // endpoint's folder, which every run sees, holds none.
    QVERIFY2(ran.out.contains(QLatin1String("\nfolder=agent.sock\n")), qPrintable(ran.out));
    QVERIFY2(!ran.out.contains(QLatin1String("agent-in-endpoint")), qPrintable(ran.out));
    // ssh-agent@1/phase-scoped: a runtime grant is not setup.install's.
    QVERIFY2(ran.out.startsWith(QLatin1String("install-sock=unset\n")), qPrintable(ran.out));
    QVERIFY2(!ran.out.section(QLatin1String("sock=/run"), 0, 0).contains(QLatin1String("ssh-agent")),
             qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("person@host (ED25519)\nlisted\n")), qPrintable(ran.out + ran.err));
    // The creator's agent alone: the key of the daemon's own agent never shows.
    QVERIFY2(!ran.out.contains(QLatin1String("other@host")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("git-signed\ngit-verified\n")), qPrintable(ran.out + ran.err));
    QVERIFY2(!ran.out.contains(QLatin1String("file-signed")), qPrintable(ran.out));
    QVERIFY2(!ran.out.contains(QLatin1String("removed-all")), qPrintable(ran.out));
    QVERIFY2(!ran.out.contains(QLatin1String("key-inside")), qPrintable(ran.out));
    QVERIFY2(ran.out.endsWith(QLatin1String("done\n")), qPrintable(ran.out));
    // The person's agent keeps its key.
    const Finished still = hostAgent({QStringLiteral("-l")});
    QVERIFY2(still.out.contains(QLatin1String("person@host")), qPrintable(still.out + still.err));
    // What was signed and refused is where the person looks (the daemon's log, the event log).
    const QString log = m_fixture->daemonLog();
    QVERIFY2(log.contains(QLatin1String("SSH agent: signed git signature with SHA256:")), qPrintable(log.right(3000)));
    QVERIFY2(log.contains(QLatin1String("SSH agent: refused file signature with SHA256:")),
             qPrintable(log.right(3000)));
}

Finished TestSandboxSshAgent::paddockWithAgent(const QStringList &args)
{
    ProcessOptions options;
    options.environment = m_fixture->environment();
    options.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), m_agentSocket);
    options.workingDirectory = m_fixture->workspace();
    options.timeoutMs = 300000;
    return runText(QStringLiteral(PADDOCK_BIN), args, options);
}

// A detached sandbox's commands (exec) have the agent, and again after stop and start.
void TestSandboxSshAgent::everyBoot()
{
    QVERIFY(loadKit(QStringLiteral("booted"), kSignGit, QStringLiteral("exec /bin/busybox sleep 600")));
    const Finished started =
        paddockWithAgent(QStringList{QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                                     QStringLiteral("booted"), QStringLiteral("--name"), QStringLiteral("booted")} +
                         backendArgs() + QStringList{m_fixture->workspace()});
    QVERIFY2(started.exitCode == 0, qPrintable(started.out + started.err));
    const QStringList list{QStringLiteral("exec"), QStringLiteral("booted"), QStringLiteral("/bin/sh"),
                           QStringLiteral("-c"), QStringLiteral("echo \"sock=$SSH_AUTH_SOCK\"; ssh-add -l")};
    const Finished first = paddockWithAgent(list);
    QVERIFY2(first.out.contains(QStringLiteral("sock=%1\n").arg(kSocketInside)), qPrintable(first.out + first.err));
    QVERIFY2(first.out.contains(QLatin1String("person@host")), qPrintable(first.out + first.err));
    QCOMPARE(paddockWithAgent({QStringLiteral("stop"), QStringLiteral("booted")}).exitCode, 0);
    const Finished again = paddockWithAgent({QStringLiteral("start"), QStringLiteral("booted")});
    QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
    const Finished second = paddockWithAgent(list);
    QVERIFY2(second.out.contains(QLatin1String("person@host")), qPrintable(second.out + second.err));
    QVERIFY2(!second.out.contains(QLatin1String("other@host")), qPrintable(second.out));
    // The details say the capability is applied, and what it signs.
    const QJsonObject listed = sandboxesByName(paddockWithAgent({QStringLiteral("ls"), QStringLiteral("--json")}).out)
                                   .value(QStringLiteral("booted"));
    QCOMPARE(listed.value(QLatin1String("backend")).toString(), kBackend);
    if (!kIsolation.isEmpty())
        QCOMPARE(listed.value(QLatin1String("isolation")).toString(), kIsolation);
    QCOMPARE(listed.value(QLatin1String("sshAgent")).toObject().value(QLatin1String("capability")).toString(),
             QStringLiteral("com.docker.sandbox/ssh-agent@1"));
    QCOMPARE(listed.value(QLatin1String("sshAgent")).toObject().value(QLatin1String("sign")).toArray(),
             QJsonArray{QStringLiteral("git")});
    QVERIFY(!listed.contains(QLatin1String("skippedCapabilities")));
}

// A running sandbox's agent is back once paddockd is: the daemon killed and started again
// listens at the same path, and the sandbox reaches it through the folder it has bound.
void TestSandboxSshAgent::afterDaemonRestart()
{
    const QStringList list{QStringLiteral("exec"), QStringLiteral("booted"), QStringLiteral("/bin/sh"),
                           QStringLiteral("-c"), QStringLiteral("ssh-add -l")};
    m_fixture->killDaemon();
    QVERIFY(m_fixture->startDaemon());
    const Finished again = paddockWithAgent(list);
    QVERIFY2(again.out.contains(QLatin1String("person@host")), qPrintable(again.out + again.err));
    paddockWithAgent({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("booted")});
    QVERIFY(!QFileInfo::exists(m_fixture->path(QStringLiteral("run/paddock/ssh-agents/booted.runtime"))));
}

// An install grant is setup.install's alone: closed before the workload starts.
void TestSandboxSshAgent::phaseScoped()
{
    const QByteArray capabilities =
        kData + R"(,{"type":"com.docker.sandbox/ssh-agent@1","config":{"phase":"install","unrestricted":false,)"
                R"("sign":["git"]}},{"type":"com.docker.sandbox/lifecycle@1","config":{"install":[{"command":)"
                R"("echo install-sock=$SSH_AUTH_SOCK > /data/install-saw; echo uid=$(id -u) >> /data/install-saw; )"
                R"(ssh-add -l >> /data/install-saw 2>&1; true",)"
                R"("env":["SSH_AUTH_SOCK"]}]}})"; // a v3 hook sees what it names
    QVERIFY(loadKit(QStringLiteral("installer"), capabilities,
                    QStringLiteral("cat /data/install-saw; echo \"sock=${SSH_AUTH_SOCK:-unset}\"; "
                                   "SSH_AUTH_SOCK=/run/paddock/ssh-agent/agent.sock "
                                   "ssh-add -l >/dev/null 2>&1 && echo agent-inside; echo done")));
    const Finished ran = runKit(QStringLiteral("installer"), m_agentSocket);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(2000)));
    QVERIFY2(ran.out.startsWith(QStringLiteral("install-sock=%1\n").arg(kSocketInside)), qPrintable(ran.out));
    // setup.install runs as root, which on Docker has no power over the person's files: the
    // socket is open to it all the same.
    QVERIFY2(ran.out.contains(QLatin1String("\nuid=0\n")), qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("person@host (ED25519)\nsock=unset\n")), qPrintable(ran.out));
    QVERIFY2(!ran.out.section(QLatin1String("sock=unset"), 1).contains(QLatin1String("ssh-agent")),
             qPrintable(ran.out));
}

void TestSandboxSshAgent::absentWithoutGrant()
{
    QVERIFY(loadKit(QStringLiteral("plain"), {},
                    QStringLiteral("echo \"sock=${SSH_AUTH_SOCK:-unset}\"; ls /run/paddock 2>/dev/null; echo done")));
    const Finished ran = runKit(QStringLiteral("plain"), m_agentSocket);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QVERIFY2(ran.out.startsWith(QLatin1String("sock=unset\n")), qPrintable(ran.out));
    QVERIFY2(!ran.out.contains(QLatin1String("ssh-agent")), qPrintable(ran.out));
}

// The conformance adapter (conformance.md §2.3): `create --ssh-agent SOCKET` backs the sandbox
// with that agent alone, also after a start by a caller with another one; without it no agent
// backs it, not even paddockd's own, and a kit requiring ssh-agent@1 is refused (exit 2).
#ifndef PADDOCK_SSH_AGENT_NO_ADAPTER
void TestSandboxSshAgent::adapterGivenAgentAlone()
{
    const QString adapter =
        QFileInfo(QStringLiteral(PADDOCK_BIN)).absolutePath() + QStringLiteral("/paddock-kit-adapter");
    QVERIFY(m_fixture->run(adapter, {QStringLiteral("capabilities")})
                .out.split(QLatin1Char('\n'))
                .contains(QStringLiteral("com.docker.sandbox/ssh-agent@1")));
    QVERIFY(loadKit(QStringLiteral("adapted"), kSignGit, QStringLiteral("exec /bin/busybox sleep 600")));
    const QString archive = m_fixture->path(QStringLiteral("adapted.tar"));
    const QString knownHosts = m_dir.filePath(QStringLiteral("known_hosts"));
    QFile hosts(knownHosts);
    QVERIFY(hosts.open(QIODevice::WriteOnly));
    hosts.write("kit-tck.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n");
    hosts.close();
    const Finished created = m_fixture->run(adapter,
                                            {QStringLiteral("create"), archive, QStringLiteral("--ssh-agent"),
                                             m_agentSocket, QStringLiteral("--ssh-known-hosts"), knownHosts},
                                            300000);
    QVERIFY2(created.exitCode == 0, qPrintable(created.err + m_fixture->daemonLog().right(2000)));
    const QString id = created.out.trimmed();
    const QStringList list{QStringLiteral("exec"), id,
                           QStringLiteral("--"),   QStringLiteral("/bin/sh"),
                           QStringLiteral("-c"),   QStringLiteral("ssh-add -l")};
    Finished listed = m_fixture->run(adapter, list);
    QVERIFY2(listed.out.contains(QLatin1String("person@host")), qPrintable(listed.out + listed.err));
    QVERIFY2(!listed.out.contains(QLatin1String("other@host")), qPrintable(listed.out));
    // The known hosts given are the sandbox's own copy, not the person's file.
    QFile copy(m_fixture->path(QStringLiteral("data/paddock/sandbox-kits/%1.known_hosts").arg(id)));
    QVERIFY2(copy.open(QIODevice::ReadOnly), qPrintable(copy.fileName()));
    QVERIFY(copy.readAll().startsWith("kit-tck.example ssh-ed25519 "));
    // A start by a caller whose SSH_AUTH_SOCK is another agent leaves the given one in place.
    QCOMPARE(m_fixture->run(adapter, {QStringLiteral("stop"), id}).exitCode, 0);
    QCOMPARE(m_fixture
                 ->run(QStringLiteral("/usr/bin/env"),
                       {QStringLiteral("SSH_AUTH_SOCK=") + m_dir.filePath(QStringLiteral("other.sock")), adapter,
                        QStringLiteral("start"), id})
                 .exitCode,
             0);
    listed = m_fixture->run(adapter, list);
    QVERIFY2(listed.out.contains(QLatin1String("person@host")), qPrintable(listed.out + listed.err));
    QVERIFY2(!listed.out.contains(QLatin1String("other@host")), qPrintable(listed.out));
    QCOMPARE(m_fixture->run(adapter, {QStringLiteral("rm"), id}).exitCode, 0);
    QVERIFY(!copy.exists());

    // Without --ssh-agent, paddockd's own agent does not stand in: refused by policy.
    const Finished refused = m_fixture->run(adapter, {QStringLiteral("create"), archive}, 300000);
    QVERIFY2(refused.exitCode == 2, qPrintable(refused.err));
    QVERIFY2(refused.err.contains(QLatin1String("--ssh-agent")), qPrintable(refused.err));
}
#endif

void TestSandboxSshAgent::unavailableSkipsOptional()
{
    // The person's agents gone: neither the caller's nor the daemon's answers.
    for (QProcess *agent : {&m_agent, &m_otherAgent}) {
        agent->terminate();
        QVERIFY(agent->waitForFinished(5000));
    }
    const QByteArray optional = R"({"type":"com.docker.sandbox/ssh-agent@1","optional":true,)"
                                R"("config":{"phase":"runtime","unrestricted":false,"sign":["git"]}})";
    QVERIFY(loadKit(QStringLiteral("maybe"), optional, QStringLiteral("echo \"sock=${SSH_AUTH_SOCK:-unset}\"")));
    const Finished ran = runKit(QStringLiteral("maybe"), m_agentSocket);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    QVERIFY2(ran.out.contains(QLatin1String("sock=unset\n")), qPrintable(ran.out));
    QVERIFY2((ran.out + ran.err).contains(QLatin1String("com.docker.sandbox/ssh-agent@1 is skipped")),
             qPrintable(ran.out + ran.err));
}

void TestSandboxSshAgent::unavailableRefusesRequired()
{
    QVERIFY(m_agent.state() == QProcess::NotRunning);
    QVERIFY(loadKit(QStringLiteral("needs"), kSignGit, QStringLiteral("echo started")));
    const Finished ran = runKit(QStringLiteral("needs"), m_agentSocket);
    QVERIFY(ran.exitCode != 0);
    QVERIFY2(!ran.out.contains(QLatin1String("started")), qPrintable(ran.out));
    QVERIFY2(ran.err.contains(QLatin1String("com.docker.sandbox/ssh-agent@1")), qPrintable(ran.err));
    QVERIFY2(ran.err.contains(QLatin1String("start ssh-agent and ssh-add your key")), qPrintable(ran.err));
}

QTEST_GUILESS_MAIN(TestSandboxSshAgent)
#include "tst_sandbox_ssh_agent.moc"
