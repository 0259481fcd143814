// SPDX-License-Identifier: GPL-3.0-or-later
// A schemaVersion "3" kit's ssh-agent@1 with the real daemon, CLI and bubblewrap: inside, the
// person's agent lists its key and signs what the kit names, and nothing else; a sandbox whose
// kit does not ask for it has no agent, even though the daemon has one in its environment.
#include "../../unit/kit-v3/OciKitArchive.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "ProcessRun.h"

#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;

namespace {

const QByteArray kSignGit = R"({"type":"com.docker.sandbox/ssh-agent@1",)"
                            R"("config":{"phase":"runtime","unrestricted":false,"sign":["git"]}})";
// What setup.install sees of the agent, kept in the sandbox's root for the workload to show.
const QByteArray kInstallLooks = R"({"type":"com.docker.sandbox/lifecycle@1","config":{"install":[{"command":)"
                                 R"("echo install-sock=${SSH_AUTH_SOCK:-unset} > /etc/install-saw; )"
                                 R"(ls /run/paddock >> /etc/install-saw 2>&1; true"}]}})";

} // namespace

class TestSandboxSshAgent : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void agentReachable();
    void everyBoot();
    void phaseScoped();
    void absentWithoutGrant();
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

    QTemporaryDir m_dir{QStringLiteral("/tmp/pdk-sshagent-XXXXXX")};
    QString m_agentSocket;
    QProcess m_agent;
    std::unique_ptr<SandboxFixture> m_fixture;
    QList<RawMember> m_image;
};

Finished TestSandboxSshAgent::hostAgent(const QStringList &args)
{
    ProcessOptions options;
    options.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), m_agentSocket);
    return runText(QStringLiteral("ssh-add"), args, options);
}

void TestSandboxSshAgent::initTestCase()
{
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    PADDOCK_NEED(!QStandardPaths::findExecutable(QStringLiteral("ssh-agent")).isEmpty(), "ssh-agent (openssh-client)");
    m_agentSocket = m_dir.filePath(QStringLiteral("agent.sock"));
    m_agent.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), m_agentSocket});
    QVERIFY(m_agent.waitForStarted());
    QTRY_VERIFY(QFileInfo::exists(m_agentSocket));
    const QString key = m_dir.filePath(QStringLiteral("id_ed25519"));
    QCOMPARE(runText(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"),
                                                    QStringLiteral("-t"),
                                                    QStringLiteral("ed25519"),
                                                    QStringLiteral("-N"),
                                                    {},
                                                    QStringLiteral("-C"),
                                                    QStringLiteral("person@host"),
                                                    QStringLiteral("-f"),
                                                    key})
                 .exitCode,
             0);
    QCOMPARE(hostAgent({key}).exitCode, 0);

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
    // The daemon has the person's agent in its own environment: a kit without the grant must
    // still get nothing of it.
    m_fixture->addEnvironment(QStringLiteral("SSH_AUTH_SOCK"), m_agentSocket);
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSandboxSshAgent::cleanupTestCase()
{
    m_fixture.reset();
    m_agent.terminate();
    m_agent.waitForFinished(5000);
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
    return runText(
        QStringLiteral(PADDOCK_BIN),
        {QStringLiteral("run"), QStringLiteral("--kit"), kit, QStringLiteral("--name"), kit, m_fixture->workspace()},
        options);
}

void TestSandboxSshAgent::agentReachable()
{
    // ssh-keygen's own program holds the words of a key's armour: the folders where a key file
    // would be are searched, and the workspace; the words are split so that this script, kept
    // inside, does not match itself.
    const QString script = QStringLiteral(
        "cat /etc/install-saw; echo \"sock=$SSH_AUTH_SOCK\"; ssh-add -l && echo listed; ssh-add -L > /tmp/key.pub; "
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
    QVERIFY2(ran.out.contains(QLatin1String("sock=/run/paddock/ssh-agent.sock\n")), qPrintable(ran.out + ran.err));
    // ssh-agent@1/phase-scoped: a runtime grant is not setup.install's.
    QVERIFY2(ran.out.startsWith(QLatin1String("install-sock=unset\n")), qPrintable(ran.out));
    QVERIFY2(!ran.out.section(QLatin1String("sock=/run"), 0, 0).contains(QLatin1String("ssh-agent")),
             qPrintable(ran.out));
    QVERIFY2(ran.out.contains(QLatin1String("person@host (ED25519)\nlisted\n")), qPrintable(ran.out + ran.err));
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
    return runText(QStringLiteral(PADDOCK_BIN), args, options);
}

// A detached sandbox's commands (exec) have the agent, and again after stop and start.
void TestSandboxSshAgent::everyBoot()
{
    QVERIFY(loadKit(QStringLiteral("booted"), kSignGit, QStringLiteral("exec /bin/busybox sleep 600")));
    const Finished started = paddockWithAgent(
        {QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"), QStringLiteral("booted"),
         QStringLiteral("--name"), QStringLiteral("booted"), m_fixture->workspace()});
    QVERIFY2(started.exitCode == 0, qPrintable(started.out + started.err));
    const QStringList list{QStringLiteral("exec"), QStringLiteral("booted"), QStringLiteral("/bin/sh"),
                           QStringLiteral("-c"), QStringLiteral("echo \"sock=$SSH_AUTH_SOCK\"; ssh-add -l")};
    const Finished first = paddockWithAgent(list);
    QVERIFY2(first.out.contains(QLatin1String("sock=/run/paddock/ssh-agent.sock\n")),
             qPrintable(first.out + first.err));
    QVERIFY2(first.out.contains(QLatin1String("person@host")), qPrintable(first.out + first.err));
    QCOMPARE(paddockWithAgent({QStringLiteral("stop"), QStringLiteral("booted")}).exitCode, 0);
    const Finished again = paddockWithAgent({QStringLiteral("start"), QStringLiteral("booted")});
    QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
    const Finished second = paddockWithAgent(list);
    QVERIFY2(second.out.contains(QLatin1String("person@host")), qPrintable(second.out + second.err));
    paddockWithAgent({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("booted")});
}

// An install grant is setup.install's alone: closed before the workload starts.
void TestSandboxSshAgent::phaseScoped()
{
    const QByteArray capabilities =
        R"({"type":"com.docker.sandbox/ssh-agent@1","config":{"phase":"install","unrestricted":false,)"
        R"("sign":["git"]}},{"type":"com.docker.sandbox/lifecycle@1","config":{"install":[{"command":)"
        R"("echo install-sock=$SSH_AUTH_SOCK > /etc/install-saw; ssh-add -l >> /etc/install-saw 2>&1; true",)"
        R"("env":["SSH_AUTH_SOCK"]}]}})"; // a v3 hook sees what it names
    QVERIFY(loadKit(
        QStringLiteral("installer"), capabilities,
        QStringLiteral(
            "cat /etc/install-saw; echo \"sock=${SSH_AUTH_SOCK:-unset}\"; SSH_AUTH_SOCK=/run/paddock/ssh-agent.sock "
            "ssh-add -l >/dev/null 2>&1 && echo agent-inside; echo done")));
    const Finished ran = runKit(QStringLiteral("installer"), m_agentSocket);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog().right(2000)));
    QVERIFY2(ran.out.startsWith(QLatin1String("install-sock=/run/paddock/ssh-agent.sock\n")), qPrintable(ran.out));
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

void TestSandboxSshAgent::unavailableSkipsOptional()
{
    // The person's agent gone: neither the caller's nor the daemon's answers.
    m_agent.terminate();
    QVERIFY(m_agent.waitForFinished(5000));
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
