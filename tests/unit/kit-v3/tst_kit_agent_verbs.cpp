// SPDX-License-Identifier: GPL-3.0-or-later
// agent-sessions@1 and agent-interactive-sessions@1: the declarations decoded strictly (each
// error with its line and column), mapped onto the kit without granting anything, and the argv
// of each verb built from the workload's launch argv with the caller's values as they are.
#include "kit/AgentVerbs.h"
#include "kit/KitLoader.h"
#include "kit/KitSurface.h"

#include <QJsonArray>
#include <QTest>

using namespace paddock;

namespace {

const QByteArray kHead = "schemaVersion: \"3\"\nkind: workload\ncapabilities:\n";

kit::KitLoadResult load(const QByteArray &text)
{
    return kit::KitLoader::loadText(text, QStringLiteral("agent.yaml"));
}

QString messages(const QList<kit::Diagnostic> &diagnostics)
{
    QStringList lines;
    for (const kit::Diagnostic &d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

bool hasError(const QList<kit::Diagnostic> &diagnostics, int line, int column, const QString &part)
{
    return std::any_of(diagnostics.cbegin(), diagnostics.cend(), [&](const kit::Diagnostic &d) {
        return d.isError() && d.line == line && (column == 0 || d.column == column) && d.message.contains(part);
    });
}

const QByteArray kBoth = kHead + "  - type: com.docker.sandbox/agent-sessions@1\n"
                                 "    config:\n"
                                 "      prompt: [-p, \"{{.Prompt}}\"]\n"
                                 "      resume: [\"--resume={{.SessionID}}\"]\n"
                                 "      continue: [--continue]\n"
                                 "      list: fake-agent --list\n"
                                 "  - type: com.docker.sandbox/agent-interactive-sessions@1\n"
                                 "    config:\n"
                                 "      prompt: [\"{{.Prompt}}\"]\n"
                                 "      continue: []\n"
                                 "      sessionPicker: [--pick]\n"
                                 "  - type: com.docker.sandbox/lifecycle@1\n"
                                 "    config: {interactive: [--tui]}\n";

kit::AgentVerbs verbsOf(const kit::Kit &k, const QStringList &launch)
{
    kit::AgentVerbs verbs;
    verbs.kitName = k.name;
    verbs.launch = launch;
    verbs.interactiveTail = k.sandbox->commandInteractive;
    verbs.headless = k.agentSessions;
    verbs.interactive = k.agentInteractiveSessions;
    return kit::AgentVerbs::fromJson(verbs.toJson()); // as the sandbox's record keeps them
}

} // namespace

class TestKitAgentVerbs : public QObject
{
    Q_OBJECT

private slots:
    void declarationsDecodeAndMap();
    void promptPlaceholderRequired_data();
    void promptPlaceholderRequired();
    void sessionIdPlaceholderRequired();
    void declarationWithNoVerbsInvalid();
    void newSessionMatchesLifecycleInteractive();
    void headlessFromLaunchArgv();
    void interactiveFromLaunchArgv();
    void absentNewSessionIsLifecycleLaunch();
    void rawValueSubstitution();
    void absentVerbUnsupported();
    void listParsesStdout();
    void declarationGrantsNothing();
};

void TestKitAgentVerbs::declarationsDecodeAndMap()
{
    const kit::KitLoadResult result = load(kBoth);
    QVERIFY2(result.ok(), qPrintable(messages(result.diagnostics)));
    const kit::Kit &k = *result.kit;
    QVERIFY(k.agentSessions && k.agentInteractiveSessions);
    for (const kit::CapabilityOutcome &outcome : k.capabilities)
        QCOMPARE(outcome.status, kit::CapabilityOutcome::Status::Applied);
    QVERIFY(k.capabilities.at(0).what.contains(QLatin1String("grants nothing")));
    // The interactive declaration keeps a present empty tail: it is a verb, not an absence.
    QVERIFY(k.agentInteractiveSessions->contains(QLatin1String("continue")));

    // A mixin's declaration has nothing to drive: recorded, not kept.
    QByteArray mixin = kBoth;
    mixin.replace("kind: workload", "kind: mixin");
    mixin.replace("  - type: com.docker.sandbox/lifecycle@1\n    config: {interactive: [--tui]}\n", "");
    const kit::KitLoadResult forMixin = load(mixin);
    QVERIFY2(forMixin.ok(), qPrintable(messages(forMixin.diagnostics)));
    QVERIFY(!forMixin.kit->agentSessions);
    QVERIFY(forMixin.kit->capabilities.at(0).what.contains(QLatin1String("nothing to drive")));
}

void TestKitAgentVerbs::promptPlaceholderRequired_data()
{
    QTest::addColumn<QByteArray>("type");
    QTest::newRow("agent-sessions@1") << QByteArray("agent-sessions@1");
    QTest::newRow("agent-interactive-sessions@1") << QByteArray("agent-interactive-sessions@1");
}

void TestKitAgentVerbs::promptPlaceholderRequired()
{
    QFETCH(QByteArray, type);
    const QByteArray text = kHead + "  - type: com.docker.sandbox/" + type +
                            "\n"
                            "    config:\n"
                            "      prompt: [-p, \"{{.Promt}}\"]\n";
    const kit::KitLoadResult result = load(text);
    QVERIFY(!result.ok());
    QVERIFY2(hasError(result.diagnostics, 6, 15, QStringLiteral("reference {{.Prompt}}")),
             qPrintable(messages(result.diagnostics)));
    QVERIFY2(hasError(result.diagnostics, 6, 15, QStringLiteral("cannot use {{.Promt}}")),
             qPrintable(messages(result.diagnostics)));
    // Riding inside a larger token is the prompt all the same.
    const kit::KitLoadResult inside =
        load(kHead + "  - type: com.docker.sandbox/" + type + "\n    config: {prompt: [\"--prompt={{.Prompt}}\"]}\n");
    QVERIFY2(inside.ok(), qPrintable(messages(inside.diagnostics)));
}

void TestKitAgentVerbs::sessionIdPlaceholderRequired()
{
    const kit::KitLoadResult result = load(kHead + "  - type: com.docker.sandbox/agent-sessions@1\n"
                                                   "    config:\n"
                                                   "      resume: [--resume]\n"
                                                   "      continue: [--continue, \"{{.SessionID}}\"]\n");
    QVERIFY(!result.ok());
    QVERIFY2(hasError(result.diagnostics, 6, 15, QStringLiteral("reference {{.SessionID}}")),
             qPrintable(messages(result.diagnostics)));
    QVERIFY2(hasError(result.diagnostics, 7, 17, QStringLiteral("takes no placeholder")),
             qPrintable(messages(result.diagnostics)));
    const kit::KitLoadResult interactive = load(kHead + "  - type: com.docker.sandbox/agent-interactive-sessions@1\n"
                                                        "    config: {resume: []}\n");
    QVERIFY2(hasError(interactive.diagnostics, 5, 22, QStringLiteral("reference {{.SessionID}}")),
             qPrintable(messages(interactive.diagnostics)));
}

void TestKitAgentVerbs::declarationWithNoVerbsInvalid()
{
    // agent-sessions@1 reads empty tails as absent: this says nothing.
    const kit::KitLoadResult headless =
        load(kHead + "  - type: com.docker.sandbox/agent-sessions@1\n    config: {prompt: [], continue: []}\n");
    QVERIFY2(hasError(headless.diagnostics, 5, 13, QStringLiteral("declares no verb")),
             qPrintable(messages(headless.diagnostics)));
    const kit::KitLoadResult empty = load(kHead + "  - type: com.docker.sandbox/agent-interactive-sessions@1\n");
    QVERIFY2(hasError(empty.diagnostics, 4, 5, QStringLiteral("declares no verb")),
             qPrintable(messages(empty.diagnostics)));
    // newSession alone, even empty, is a declaration; an empty list is not a command.
    QVERIFY(
        load(kHead + "  - type: com.docker.sandbox/agent-interactive-sessions@1\n    config: {newSession: []}\n").ok());
    const kit::KitLoadResult list = load(kHead + "  - type: com.docker.sandbox/agent-interactive-sessions@1\n"
                                                 "    config: {newSession: [], list: \"\"}\n");
    QVERIFY2(hasError(list.diagnostics, 5, 36, QStringLiteral("must name a command")),
             qPrintable(messages(list.diagnostics)));
    // Strict: an unknown verb is an error where it is.
    const kit::KitLoadResult unknown =
        load(kHead + "  - type: com.docker.sandbox/agent-sessions@1\n    config:\n      fork: [--fork]\n");
    QVERIFY2(hasError(unknown.diagnostics, 6, 7, QStringLiteral("unknown field 'fork'")),
             qPrintable(messages(unknown.diagnostics)));
}

void TestKitAgentVerbs::newSessionMatchesLifecycleInteractive()
{
    const QByteArray text = kHead + "  - type: com.docker.sandbox/lifecycle@1\n"
                                    "    config: {interactive: [--tui]}\n"
                                    "  - type: com.docker.sandbox/agent-interactive-sessions@1\n"
                                    "    config: {newSession: [--gui]}\n";
    const kit::KitLoadResult result = load(text);
    QVERIFY(!result.ok());
    QVERIFY2(hasError(result.diagnostics, 6, 5, QStringLiteral("differs from lifecycle@1 interactive [\"--tui\"]")),
             qPrintable(messages(result.diagnostics)));
    QByteArray same = text;
    same.replace("[--gui]", "[--tui]");
    QVERIFY2(load(same).ok(), qPrintable(messages(load(same).diagnostics)));
    // An empty lifecycle tail has nothing to disagree with.
    QByteArray emptyTail = text;
    emptyTail.replace("interactive: [--tui]", "interactive: []");
    QVERIFY2(load(emptyTail).ok(), qPrintable(messages(load(emptyTail).diagnostics)));
}

void TestKitAgentVerbs::headlessFromLaunchArgv()
{
    const kit::KitLoadResult result = load(kBoth);
    QVERIFY(result.ok());
    const kit::AgentVerbs verbs = verbsOf(*result.kit, {QStringLiteral("/bin/agent"), QStringLiteral("--model=x")});
    QCOMPARE(verbs.argv(kit::AgentVerb::Prompt, false, QStringLiteral("hi")).value(),
             (QStringList{"/bin/agent", "--model=x", "-p", "hi"}));
    QCOMPARE(verbs.argv(kit::AgentVerb::Continue, false).value(),
             (QStringList{"/bin/agent", "--model=x", "--continue"}));
    // list is a complete command of its own; a string runs with sh -c.
    QCOMPARE(verbs.argv(kit::AgentVerb::List, false).value(), (QStringList{"sh", "-c", "fake-agent --list"}));
}

void TestKitAgentVerbs::interactiveFromLaunchArgv()
{
    const kit::KitLoadResult result = load(kBoth);
    const kit::AgentVerbs verbs = verbsOf(*result.kit, {QStringLiteral("/bin/agent")});
    QCOMPARE(verbs.argv(kit::AgentVerb::Prompt, true, QStringLiteral("go")).value(), (QStringList{"/bin/agent", "go"}));
    QCOMPARE(verbs.argv(kit::AgentVerb::SessionPicker, true).value(), (QStringList{"/bin/agent", "--pick"}));
    // A present empty tail is the launch argv alone.
    QCOMPARE(verbs.argv(kit::AgentVerb::Continue, true).value(), QStringList{"/bin/agent"});
}

void TestKitAgentVerbs::absentNewSessionIsLifecycleLaunch()
{
    const kit::KitLoadResult result = load(kBoth);
    const kit::AgentVerbs verbs = verbsOf(*result.kit, {QStringLiteral("/bin/agent")});
    QCOMPARE(verbs.argv(kit::AgentVerb::NewSession, true).value(), (QStringList{"/bin/agent", "--tui"}));
    kit::AgentVerbs stated = verbs;
    stated.interactive->insert(QStringLiteral("newSession"), QJsonArray());
    QCOMPARE(stated.argv(kit::AgentVerb::NewSession, true).value(), QStringList{"/bin/agent"});
}

void TestKitAgentVerbs::rawValueSubstitution()
{
    const kit::KitLoadResult result = load(kBoth);
    const kit::AgentVerbs verbs = verbsOf(*result.kit, {QStringLiteral("/bin/agent")});
    const QString prompt = QStringLiteral("fix *.c; echo \"$HOME\" 'and' `this`\nsecond line");
    QCOMPARE(verbs.argv(kit::AgentVerb::Prompt, false, prompt).value(), (QStringList{"/bin/agent", "-p", prompt}));
    QCOMPARE(verbs.argv(kit::AgentVerb::Resume, false, QStringLiteral("id with spaces *")).value(),
             (QStringList{"/bin/agent", "--resume=id with spaces *"}));
}

void TestKitAgentVerbs::absentVerbUnsupported()
{
    const kit::KitLoadResult result = load(kBoth);
    const kit::AgentVerbs verbs = verbsOf(*result.kit, {QStringLiteral("/bin/agent")});
    // The interactive declaration has no resume: unsupported, said so, and no flag made up.
    const Result<QStringList> resume = verbs.argv(kit::AgentVerb::Resume, true, QStringLiteral("a"));
    QVERIFY(!resume);
    QVERIFY2(resume.errorText().startsWith(QLatin1String("kit agent does not declare a resume verb")),
             qPrintable(resume.errorText()));
    QVERIFY(!verbs.declares(kit::AgentVerb::SessionPicker, false));
    QVERIFY(!verbs.declares(kit::AgentVerb::NewSession, false));
    kit::AgentVerbs none;
    none.kitName = QStringLiteral("plain");
    none.launch = {QStringLiteral("/bin/sh")};
    QVERIFY(!none.declares(kit::AgentVerb::List, false));
    QVERIFY(none.argv(kit::AgentVerb::Prompt, false, QStringLiteral("x"))
                .errorText()
                .startsWith(QLatin1String("kit plain does not declare a prompt verb")));
    // Every agent can start a session in a terminal: the lifecycle launch.
    QCOMPARE(none.argv(kit::AgentVerb::NewSession, true).value(), QStringList{"/bin/sh"});
}

void TestKitAgentVerbs::listParsesStdout()
{
    const QByteArray output = "  newest  \n\nolder\r\nwith\x01control\n" + QByteArray(300, 'x') + "\nnewest\noldest\n";
    QCOMPARE(kit::parseSessionIds(output), (QStringList{"newest", "older", "oldest"}));
    QByteArray many;
    for (int i = 0; i < 500; ++i)
        many += QByteArray::number(i) + '\n';
    QCOMPARE(kit::parseSessionIds(many).size(), kit::kMaxSessionIds);
    QCOMPARE(kit::parseSessionIds(many).first(), QStringLiteral("0"));
}

void TestKitAgentVerbs::declarationGrantsNothing()
{
    const kit::KitLoadResult with = load(kBoth);
    QByteArray plain = kBoth;
    plain = kHead + "  - type: com.docker.sandbox/lifecycle@1\n    config: {interactive: [--tui]}\n";
    const kit::KitLoadResult without = load(plain);
    QVERIFY(with.ok() && without.ok());
    QCOMPARE(kit::wideningsOf(kit::surfaceOf(*without.kit), kit::surfaceOf(*with.kit)), QStringList());
    QVERIFY(with.kit->networkAllow.isEmpty() && with.kit->credentials.isEmpty() && with.kit->ports.isEmpty());
}

QTEST_GUILESS_MAIN(TestKitAgentVerbs)
#include "tst_kit_agent_verbs.moc"
