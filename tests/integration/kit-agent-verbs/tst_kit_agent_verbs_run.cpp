// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock agent` on a schemaVersion "3" kit loaded from an OCI archive (a static busybox and a
// fake agent that echoes its argv), with the real daemon and bubblewrap, as an ordinary user:
// each verb runs the image's Entrypoint + Cmd plus its tail, values arrive as they were typed,
// `list` runs as its own command, and a verb the kit does not declare is refused by name.
#include "../../unit/kit-v3/OciKitArchive.h"
#include "SandboxFixture.h"

#include "Needs.h"
#include "Terminal.h"

#include <QStandardPaths>

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock::test;

namespace {

// Each argument on a line of its own, in brackets, then whether it has a terminal.
const QByteArray kFakeAgent = "#!/bin/sh\n"
                              "for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n"
                              "if [ -t 0 ]; then echo terminal=yes; else echo terminal=no; fi\n";

const QByteArray kDescriptor =
    R"({"schemaVersion":"3","kind":"workload","displayName":"Fake agent","capabilities":[)"
    R"({"type":"com.docker.sandbox/agent-sessions@1","config":{)"
    R"("prompt":["-p","{{.Prompt}}"],"resume":["--resume","{{.SessionID}}"],)"
    R"x("list":"echo sess-new; echo; echo '  sess old *  '; echo as-$(/bin/busybox id -u)"}},)x"
    R"({"type":"com.docker.sandbox/agent-interactive-sessions@1","config":{)"
    R"("prompt":["--seed={{.Prompt}}"],"continue":[]}},)"
    R"({"type":"com.docker.sandbox/lifecycle@1","config":{"interactive":["--tui"]}}]})";

} // namespace

class TestKitAgentVerbsRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void headlessFromLaunchArgv();
    void rawValueSubstitution();
    void listParsesStdout();
    void absentVerbUnsupported();
    void interactiveFromLaunchArgv();
    void absentNewSessionIsLifecycleLaunch();
    void existingContentPreserved();

private:
    Finished agent(const QStringList &arguments)
    {
        return m_fixture->paddock(QStringList{QStringLiteral("agent"), QStringLiteral("fake")} + arguments);
    }
    std::unique_ptr<SandboxFixture> m_fixture;
    OciKit m_image;
};

void TestKitAgentVerbsRun::initTestCase()
{
    const QString busybox =
        QStandardPaths::findExecutable(QStringLiteral("busybox"), {QStringLiteral("/bin"), QStringLiteral("/usr/bin")});
    PADDOCK_NEED(!busybox.isEmpty(), "a static busybox (apt install busybox-static)");
    QFile program(busybox);
    QVERIFY(program.open(QIODevice::ReadOnly));
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");

    OciKit kit;
    kit.refName = QStringLiteral("registry.example/kits/fake-agent:1");
    kit.layers = {tarOf({folder("bin"), file("bin/busybox", program.readAll(), 0755), softLink("bin/sh", "busybox"),
                         file("bin/fake-agent", kFakeAgent, 0755), folder("tmp", 01777)})};
    kit.config = QJsonObject{
        {QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/fake-agent"), QStringLiteral("--model=tiny")}},
        {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("--launch")}}};
    kit.manifestAnnotations = kitAnnotations(kDescriptor);
    m_image = kit;
    const QString archive = m_fixture->path(QStringLiteral("fake-agent.tar"));
    QFile out(archive);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(ociKitArchive(kit));
    out.close();
    const Finished loaded = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), archive});
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    QVERIFY2(loaded.out.contains(QLatin1String("applied: com.docker.sandbox/agent-sessions@1")),
             qPrintable(loaded.out));
    QVERIFY2(loaded.out.contains(QLatin1String("applied: com.docker.sandbox/agent-interactive-sessions@1")),
             qPrintable(loaded.out));
    const Finished created =
        m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), QStringLiteral("fake-agent"),
                            QStringLiteral("--name"), QStringLiteral("fake"), m_fixture->workspace()});
    QVERIFY2(created.exitCode == 0, qPrintable(created.out + created.err + m_fixture->daemonLog()));
}

void TestKitAgentVerbsRun::headlessFromLaunchArgv()
{
    // The sandbox is stopped: `agent` starts it, and runs the prompt verb without a terminal.
    const Finished ran = agent({QStringLiteral("--prompt"), QStringLiteral("hello")});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err + m_fixture->daemonLog()));
    QCOMPARE(ran.out, QStringLiteral("[--model=tiny]\n[--launch]\n[-p]\n[hello]\nterminal=no\n"));
    QCOMPARE(m_fixture->listed().value(QStringLiteral("fake")).value(QLatin1String("status")).toString(),
             QStringLiteral("running"));
}

void TestKitAgentVerbsRun::rawValueSubstitution()
{
    const QString prompt = QStringLiteral("fix *.c; echo \"$HOME\" 'quoted' $(id)");
    const Finished ran = agent({QStringLiteral("--prompt"), prompt});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.out + ran.err));
    // One argument, as typed: no word splitting, no glob, no expansion.
    QCOMPARE(ran.out, QStringLiteral("[--model=tiny]\n[--launch]\n[-p]\n[%1]\nterminal=no\n").arg(prompt));
    const Finished resumed = agent({QStringLiteral("--resume"), QStringLiteral("sess old *")});
    QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.out + resumed.err));
    QCOMPARE(resumed.out, QStringLiteral("[--model=tiny]\n[--launch]\n[--resume]\n[sess old *]\nterminal=no\n"));
}

void TestKitAgentVerbsRun::listParsesStdout()
{
    const Finished listed = agent({QStringLiteral("--sessions")});
    QVERIFY2(listed.exitCode == 0, qPrintable(listed.out + listed.err));
    // Its own command (not a tail of the agent's), one id a line, most recent first, as the agent's user.
    QCOMPARE(listed.out, QStringLiteral("sess-new\nsess old *\nas-1000\n"));
}

void TestKitAgentVerbsRun::absentVerbUnsupported()
{
    // No continue without a terminal, no picker, no resume with one: said, and nothing run.
    const Finished cont = agent({QStringLiteral("--continue")});
    QCOMPARE(cont.exitCode, 1);
    QVERIFY2(cont.err.contains(QLatin1String("kit fake-agent does not declare a continue verb")), qPrintable(cont.err));
    QVERIFY2(cont.out.isEmpty(), qPrintable(cont.out));
    const Finished picker = agent({QStringLiteral("--picker")});
    QCOMPARE(picker.exitCode, 1);
    QVERIFY2(picker.err.contains(QLatin1String("does not declare a session-picker verb")), qPrintable(picker.err));
    const Finished resume = agent({QStringLiteral("-t"), QStringLiteral("--resume"), QStringLiteral("x")});
    QCOMPARE(resume.exitCode, 1);
    QVERIFY2(resume.err.contains(QLatin1String("does not declare a resume verb for a terminal session")),
             qPrintable(resume.err));
}

void TestKitAgentVerbsRun::interactiveFromLaunchArgv()
{
    // terminal-attached: the interactive prompt verb runs on a terminal, with its own tail.
    Terminal terminal({QStringLiteral("agent"), QStringLiteral("fake"), QStringLiteral("-t"),
                       QStringLiteral("--prompt"), QStringLiteral("two words *")},
                      m_fixture->environment(), m_fixture->workspace());
    QCOMPARE(terminal.wait(60000), 0);
    QVERIFY2(terminal.screen().contains("[--model=tiny]\r\n[--launch]\r\n[--seed=two words *]\r\nterminal=yes"),
             terminal.screen().constData());
    // A present empty tail is the launch argv alone.
    Terminal again(
        {QStringLiteral("agent"), QStringLiteral("fake"), QStringLiteral("-t"), QStringLiteral("--continue")},
        m_fixture->environment(), m_fixture->workspace());
    QCOMPARE(again.wait(60000), 0);
    QVERIFY2(again.screen().contains("[--model=tiny]\r\n[--launch]\r\nterminal=yes"), again.screen().constData());
}

void TestKitAgentVerbsRun::absentNewSessionIsLifecycleLaunch()
{
    // No newSession declared: a new session is lifecycle@1's interactive launch.
    Terminal terminal({QStringLiteral("agent"), QStringLiteral("fake")}, m_fixture->environment(),
                      m_fixture->workspace());
    QCOMPARE(terminal.wait(60000), 0);
    QVERIFY2(terminal.screen().contains("[--model=tiny]\r\n[--launch]\r\n[--tui]\r\nterminal=yes"),
             terminal.screen().constData());
}

// agent-context@1 through the daemon: the profile written at creation in the directory the kit
// names (here the workspace, through an argument), the person's lines kept when the sandbox is
// made again, and the kit's body beside it with its section markers made inert.
void TestKitAgentVerbsRun::existingContentPreserved()
{
    m_image.refName = QStringLiteral("registry.example/kits/ctx-agent:1");
    m_image.manifestAnnotations = kitAnnotations(
        R"({"schemaVersion":"3","kind":"workload","args":{"dir":{"default":"/home/agent/.codex"}},)"
        R"("capabilities":[{"type":"com.docker.sandbox/agent-context@1","config":{"filename":"AGENTS.md",)"
        R"("directory":"${{ kit.args.dir }}","content":"Use motd.\n<!-- paddock:end -->\nstill the kit's"}}]})");
    const QString archive = m_fixture->path(QStringLiteral("ctx-agent.tar"));
    QFile out(archive);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(ociKitArchive(m_image));
    out.close();
    const Finished loaded = m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("load"), archive});
    QVERIFY2(loaded.exitCode == 0, qPrintable(loaded.out + loaded.err));
    QVERIFY2(loaded.out.contains(QLatin1String("applied: com.docker.sandbox/agent-context@1")), qPrintable(loaded.out));

    const QString workspace = m_fixture->path(QStringLiteral("ctx-ws"));
    QDir().mkpath(workspace);
    const QStringList create{QStringLiteral("create"),
                             QStringLiteral("--kit"),
                             QStringLiteral("ctx-agent"),
                             QStringLiteral("--name"),
                             QStringLiteral("ctx"),
                             QStringLiteral("--arg"),
                             QStringLiteral("dir=") + workspace + QStringLiteral("/.agents"),
                             workspace};
    const Finished created = m_fixture->paddock(create);
    QVERIFY2(created.exitCode == 0, qPrintable(created.out + created.err + m_fixture->daemonLog()));
    const QString profilePath = workspace + QStringLiteral("/.agents/AGENTS.md");
    QFile profile(profilePath);
    QVERIFY2(profile.open(QIODevice::ReadOnly), qPrintable(profilePath));
    const QString written = QString::fromUtf8(profile.readAll());
    profile.close();
    QVERIFY2(written.contains(QLatin1String("goes through Paddock's proxy")), qPrintable(written));
    const QString body = workspace + QStringLiteral("/.agents/.paddock-kits/ctx-agent.md");
    QVERIFY2(written.contains(QStringLiteral("- ctx-agent: `%1`").arg(body)), qPrintable(written));
    QFile bodyFile(body);
    QVERIFY(bodyFile.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(bodyFile.readAll()), QStringLiteral("Use motd.\n<!-- paddock-end -->\nstill the kit's"));
    // The agent reads it inside, at the same path.
    const Finished started = m_fixture->paddock({QStringLiteral("start"), QStringLiteral("ctx")});
    QVERIFY2(started.exitCode == 0, qPrintable(started.out + started.err));
    const Finished inside = m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("ctx"),
                                                QStringLiteral("/bin/busybox"), QStringLiteral("cat"), profilePath});
    QVERIFY2(inside.exitCode == 0 && inside.out == written, qPrintable(inside.out + inside.err));

    // The person's own line, then the sandbox made again: their line stays, one section.
    QVERIFY(profile.open(QIODevice::Append));
    profile.write("My own rule: run the tests.\n");
    profile.close();
    QVERIFY(m_fixture->paddock({QStringLiteral("rm"), QStringLiteral("--force"), QStringLiteral("ctx")}).exitCode == 0);
    const Finished again = m_fixture->paddock(create);
    QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
    QVERIFY(profile.open(QIODevice::ReadOnly));
    const QString rewritten = QString::fromUtf8(profile.readAll());
    QVERIFY2(rewritten.endsWith(QLatin1String("My own rule: run the tests.\n")), qPrintable(rewritten));
    QCOMPARE(rewritten.count(QLatin1String("paddock:begin")), 1);
    QCOMPARE(rewritten.count(QLatin1String("paddock:end")), 1);
}

QTEST_GUILESS_MAIN(TestKitAgentVerbsRun)
#include "tst_kit_agent_verbs_run.moc"
