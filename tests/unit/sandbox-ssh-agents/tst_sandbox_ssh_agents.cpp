// SPDX-License-Identifier: GPL-3.0-or-later
// planSshAgent with real agents (ssh-agent on sockets of the test's): an engine on another
// computer cannot be given a socket of this one, so a required grant is refused there and an
// optional one skipped, each with the sentence saying so; an agent given alone is the only one
// that backs a sandbox, and the known hosts given are the ones read.
#include "runtime/bwrap/BwrapRuntime.h"
#include "runtime/docker/DockerRuntime.h"
#include "sandbox/SshAgents.h"

#include "Needs.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace paddock;

class TestSandboxSshAgents : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void remoteEngineRefusesRequired();
    void remoteEngineSkipsOptional();
    void localEngineBacked();
    void givenAgentAlone();
    void knownHostsGiven();

private:
    /** A kit asking for ssh-agent@1 for the runtime phase, @p required or optional. */
    static kit::Kit kitAsking(bool required);

    QTemporaryDir m_dir;
    QString m_agent;
    QProcess m_agentProcess;
    runtime::DockerRuntime m_remote{runtime::docker::Endpoint::unixSocket(QStringLiteral("/nonexistent.sock")),
                                    QStringLiteral("far")};
    runtime::DockerRuntime m_local{runtime::docker::Endpoint::unixSocket(QStringLiteral("/nonexistent.sock"))};
};

void TestSandboxSshAgents::initTestCase()
{
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("ssh-agent")).isEmpty(), "ssh-agent (openssh-client)");
    m_agent = m_dir.filePath(QStringLiteral("agent.sock"));
    m_agentProcess.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), m_agent});
    QVERIFY(m_agentProcess.waitForStarted());
    QTRY_VERIFY(QFileInfo::exists(m_agent));
    m_remote.setRemote(true);
    // paddockd's own agent, which a sandbox given an agent alone never falls back to.
    qputenv("SSH_AUTH_SOCK", m_agent.toLocal8Bit());
}

void TestSandboxSshAgents::cleanupTestCase()
{
    m_agentProcess.terminate();
    m_agentProcess.waitForFinished(5000);
}

kit::Kit TestSandboxSshAgents::kitAsking(bool required)
{
    kit::Kit kit;
    kit.name = QStringLiteral("signer");
    kit::SshAgentGrant grant;
    grant.required = required;
    grant.unrestricted = false;
    grant.sign = {QStringLiteral("git")};
    kit.sshAgents = {grant};
    kit.capabilities = {kit::CapabilityOutcome{QLatin1String(sandbox::kSshAgentCapability),
                                               {},
                                               kit::CapabilityOutcome::Status::Applied,
                                               QStringLiteral("git")}};
    return kit;
}

void TestSandboxSshAgents::remoteEngineRefusesRequired()
{
    kit::Kit kit = kitAsking(true);
    sandbox::CreateRequest request;
    request.sshAgent = m_agent;
    runtime::SandboxSpec spec;
    spec.name = QStringLiteral("s");
    QStringList notes;
    const sandbox::SshAgentPlan plan = sandbox::planSshAgent(kit, request, m_remote, spec, &notes);
    QVERIFY(plan.refusal);
    QVERIFY2(plan.refusal->contains(QLatin1String("the kit requires com.docker.sandbox/ssh-agent@1, and the engine far "
                                                  "is on another computer, where no socket of this one can be bound")),
             qPrintable(*plan.refusal));
    QVERIFY2(plan.refusal->contains(QLatin1String("--backend bwrap")), qPrintable(*plan.refusal));
    QVERIFY(spec.grants.sshAgentSocket.isEmpty());
}

void TestSandboxSshAgents::remoteEngineSkipsOptional()
{
    kit::Kit kit = kitAsking(false);
    sandbox::CreateRequest request;
    request.sshAgent = m_agent;
    runtime::SandboxSpec spec;
    spec.name = QStringLiteral("s");
    QStringList notes;
    const sandbox::SshAgentPlan plan = sandbox::planSshAgent(kit, request, m_remote, spec, &notes);
    QVERIFY(!plan.refusal);
    QVERIFY(!plan.runtime);
    QVERIFY(spec.grants.sshAgentSocket.isEmpty());
    QCOMPARE(kit.capabilities.first().status, kit::CapabilityOutcome::Status::Skipped);
    QVERIFY2(kit.capabilities.first().what.contains(QLatin1String("is on another computer")),
             qPrintable(kit.capabilities.first().what));
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.first().startsWith(QLatin1String("kit signer: no SSH agent inside: the engine far")),
             qPrintable(notes.first()));
}

void TestSandboxSshAgents::localEngineBacked()
{
    const runtime::BwrapRuntime bwrap;
    for (const runtime::Runtime *runtime :
         {static_cast<const runtime::Runtime *>(&m_local), static_cast<const runtime::Runtime *>(&bwrap)}) {
        kit::Kit kit = kitAsking(true);
        sandbox::CreateRequest request;
        request.sshAgent = m_agent;
        runtime::SandboxSpec spec;
        spec.name = QStringLiteral("s");
        QStringList notes;
        const sandbox::SshAgentPlan plan = sandbox::planSshAgent(kit, request, *runtime, spec, &notes);
        QVERIFY(!plan.refusal);
        QVERIFY(plan.runtime);
        QCOMPARE(plan.backing, m_agent);
        QCOMPARE(spec.grants.sshAgentSocket, sandbox::SshAgents::socketPath(QStringLiteral("s")));
        QVERIFY(spec.grants.sshAgentSocket.endsWith(QLatin1String("/ssh-agents/s.runtime/agent.sock")));
    }
}

void TestSandboxSshAgents::givenAgentAlone()
{
    // None given: paddockd's own agent, which answers, does not stand in.
    kit::Kit kit = kitAsking(true);
    sandbox::CreateRequest request;
    request.sshAgentOnly = true;
    runtime::SandboxSpec spec;
    spec.name = QStringLiteral("s");
    QStringList notes;
    sandbox::SshAgentPlan plan = sandbox::planSshAgent(kit, request, m_local, spec, &notes);
    QVERIFY(plan.refusal);
    QVERIFY2(plan.refusal->contains(QLatin1String("no SSH agent was given for it (--ssh-agent none)")),
             qPrintable(*plan.refusal));
    // One given that does not answer: refused, naming it.
    kit = kitAsking(true);
    request.sshAgent = m_dir.filePath(QStringLiteral("gone.sock"));
    plan = sandbox::planSshAgent(kit, request, m_local, spec, &notes);
    QVERIFY(plan.refusal && plan.refusal->contains(QLatin1String("gone.sock) does not answer")));
    // The one given, and it answers: that one.
    kit = kitAsking(true);
    request.sshAgent = m_agent;
    plan = sandbox::planSshAgent(kit, request, m_local, spec, &notes);
    QVERIFY(!plan.refusal);
    QCOMPARE(plan.backing, m_agent);
    QVERIFY(plan.only);
}

void TestSandboxSshAgents::knownHostsGiven()
{
    const QString path = m_dir.filePath(QStringLiteral("known_hosts"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("kit-tck.example ssh-ed25519 AAAA\n");
    file.close();
    kit::Kit kit = kitAsking(true);
    sandbox::CreateRequest request;
    request.sshAgent = m_agent;
    request.sshKnownHosts = path;
    runtime::SandboxSpec spec;
    spec.name = QStringLiteral("s");
    QStringList notes;
    sandbox::SshAgentPlan plan = sandbox::planSshAgent(kit, request, m_local, spec, &notes);
    QCOMPARE(plan.knownHosts, QByteArray("kit-tck.example ssh-ed25519 AAAA\n"));
    // One that cannot be read is an error, rather than a fall back to the person's.
    kit = kitAsking(false);
    request.sshKnownHosts = m_dir.filePath(QStringLiteral("missing"));
    plan = sandbox::planSshAgent(kit, request, m_local, spec, &notes);
    QVERIFY(!plan.refusal);
    QVERIFY(plan.problem && plan.problem->contains(QLatin1String("cannot be read")));
}

QTEST_GUILESS_MAIN(TestSandboxSshAgents)
#include "tst_sandbox_ssh_agents.moc"
