// SPDX-License-Identifier: GPL-3.0-or-later
// agent-context@1: descriptors decoded strictly, and the profile the agent reads written when
// a sandbox is created (into a home and a workspace made here, as the daemon writes them):
// runtime guidance and a Kits index in a section Paddock manages, the person's lines kept,
// kit text unable to close the section, links never followed.
#include "kit/KitComposition.h"
#include "kit/KitLoader.h"
#include "sandbox/AgentContext.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock;

namespace {

const QByteArray kHead = "schemaVersion: \"3\"\nkind: workload\ncapabilities:\n";

kit::KitLoadResult load(const QByteArray &text, const QMap<QString, QString> &args = {})
{
    kit::KitLoadOptions options;
    options.args = args;
    return kit::KitLoader::loadText(text, QStringLiteral("codex.yaml"), options);
}

QString messages(const QList<kit::Diagnostic> &diagnostics)
{
    QStringList lines;
    for (const kit::Diagnostic &d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

bool writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

} // namespace

class TestAgentContext : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void directoryMustBeCanonical_data();
    void directoryMustBeCanonical();
    void workloadFilenameIsProfile();
    void directoryHonored();
    void existingContentPreserved();
    void progressiveSurfacing();
    void composedBodiesKeepTheirOwnFiles();
    void progressiveSurfacingNamesEachComposedKit();
    void contentNeutralized();
    void linksAreNotFollowed();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    runtime::SandboxSpec m_spec;
    QString m_home;
};

void TestAgentContext::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_home = m_dir->filePath(QStringLiteral("home"));
    QDir().mkpath(m_home);
    m_spec.workspace = m_dir->filePath(QStringLiteral("project"));
    QDir().mkpath(m_spec.workspace);
}

void TestAgentContext::directoryMustBeCanonical_data()
{
    QTest::addColumn<QByteArray>("directory");
    QTest::newRow("relative") << QByteArray("home/agent");
    QTest::newRow("dot-dot") << QByteArray("/home/agent/../../etc");
    QTest::newRow("trailing slash") << QByteArray("/home/agent/");
    QTest::newRow("double slash") << QByteArray("/home//agent");
}

void TestAgentContext::directoryMustBeCanonical()
{
    QFETCH(QByteArray, directory);
    const kit::KitLoadResult result = load(kHead +
                                           "  - type: com.docker.sandbox/agent-context@1\n"
                                           "    config: {filename: AGENTS.md, directory: \"" +
                                           directory + "\"}\n");
    QVERIFY(!result.ok());
    QVERIFY2(messages(result.diagnostics).contains(QLatin1String("codex.yaml:5:")) &&
                 messages(result.diagnostics).contains(QLatin1String("absolute, canonical")),
             qPrintable(messages(result.diagnostics)));
    // Filled in by an argument, it is checked when the value is known.
    const kit::KitLoadResult argument =
        load("schemaVersion: \"3\"\nkind: workload\nargs: {dir: {default: /x}}\ncapabilities:\n"
             "  - type: com.docker.sandbox/agent-context@1\n"
             "    config: {filename: AGENTS.md, directory: \"${{ kit.args.dir }}\"}\n",
             {{QStringLiteral("dir"), QString::fromUtf8(directory)}});
    QVERIFY2(messages(argument.diagnostics).contains(QLatin1String("is not an absolute, canonical path")),
             qPrintable(messages(argument.diagnostics)));
    // A directory needs a filename of one component beside it; content and contentFile exclude each other.
    const kit::KitLoadResult nested = load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                                   "    config: {filename: a/AGENTS.md, directory: /home/agent}\n");
    QVERIFY2(messages(nested.diagnostics).contains(QLatin1String("one component")),
             qPrintable(messages(nested.diagnostics)));
    const kit::KitLoadResult both = load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                                 "    config: {content: a, contentFile: /usr/share/b.md}\n");
    QVERIFY2(messages(both.diagnostics).contains(QLatin1String("exclude each other")),
             qPrintable(messages(both.diagnostics)));
    // One entry per profile, one without a directory, one carrying a body.
    const kit::KitLoadResult twice = load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                                  "    config: {filename: AGENTS.md}\n"
                                                  "  - type: com.docker.sandbox/agent-context@1\n"
                                                  "    config: {content: more}\n");
    QVERIFY2(messages(twice.diagnostics)
                 .contains(QLatin1String("codex.yaml:6:5: error: com.docker.sandbox/"
                                         "agent-context@1 asks for the same thing twice")),
             qPrintable(messages(twice.diagnostics)));
    const kit::KitLoadResult bodies = load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                                   "    config: {filename: A.md, directory: /a, content: x}\n"
                                                   "  - type: com.docker.sandbox/agent-context@1\n"
                                                   "    config: {filename: A.md, directory: /b, content: y}\n");
    QVERIFY2(messages(bodies.diagnostics).contains(QLatin1String("carries a body")),
             qPrintable(messages(bodies.diagnostics)));
}

void TestAgentContext::workloadFilenameIsProfile()
{
    const kit::KitLoadResult result =
        load(kHead + "  - type: com.docker.sandbox/agent-context@1\n    config: {filename: CLAUDE.md}\n");
    QVERIFY2(result.ok(), qPrintable(messages(result.diagnostics)));
    QCOMPARE(result.kit->capabilities.at(0).status, kit::CapabilityOutcome::Status::Applied);
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(*result.kit, m_spec, m_home, &notes));
    // Outside the person's checkout: the sandbox's home, seeded with the runtime's guidance.
    const QString profile = readText(m_home + QStringLiteral("/CLAUDE.md"));
    QVERIFY2(profile.startsWith(QLatin1String(sandbox::kContextBegin)), qPrintable(profile));
    QVERIFY(profile.contains(QLatin1String("goes through Paddock's proxy")));
    QVERIFY(profile.contains(QLatin1String("Paddock's window")));
    QVERIFY(!QFileInfo::exists(m_spec.workspace + QStringLiteral("/CLAUDE.md")));
    QVERIFY(notes.isEmpty());
}

void TestAgentContext::directoryHonored()
{
    const kit::KitLoadResult result =
        load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                     "    config: {filename: AGENTS.md, directory: /home/agent/.codex, content: be terse}\n"
                     "  - type: com.docker.sandbox/agent-context@1\n"
                     "    config: {filename: AGENTS.md, directory: \"${{ kit.args.ws }}/.agents\"}\n"
                     "  - type: com.docker.sandbox/agent-context@1\n"
                     "    config: {filename: AGENTS.md, directory: /etc/codex}\n"
                     "args: {ws: {default: /x}}\n",
             {{QStringLiteral("ws"), m_spec.workspace}});
    QVERIFY2(result.ok(), qPrintable(messages(result.diagnostics)));
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(*result.kit, m_spec, m_home, &notes));
    // Each explicit profile, its directory created; the one outside home and workspace is said.
    const QString inHome = readText(m_home + QStringLiteral("/.codex/AGENTS.md"));
    const QString inWorkspace = readText(m_spec.workspace + QStringLiteral("/.agents/AGENTS.md"));
    QVERIFY2(inHome.contains(QLatin1String("## Kits")), qPrintable(inHome));
    QVERIFY2(inWorkspace.contains(QLatin1String("## Kits")), qPrintable(inWorkspace));
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.at(0).contains(QLatin1String("/etc/codex/AGENTS.md was not written")), qPrintable(notes.at(0)));
    // The legacy filename-only profile is not written when explicit ones are given.
    QVERIFY(!QFileInfo::exists(m_home + QStringLiteral("/AGENTS.md")));
}

void TestAgentContext::existingContentPreserved()
{
    const QByteArray spec = kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                    "    config: {filename: AGENTS.md, content: use motd}\n";
    const kit::KitLoadResult result = load(spec);
    QVERIFY(result.ok());
    const QString path = m_home + QStringLiteral("/AGENTS.md");
    QVERIFY(writeText(path, "# My rules\nAlways run the tests.\n"));
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(*result.kit, m_spec, m_home, &notes));
    const QString first = readText(path);
    QVERIFY2(first.endsWith(QLatin1String("\n# My rules\nAlways run the tests.\n")), qPrintable(first));
    // The person adds a line after it, and the section is written again (a new create): one
    // section, their lines before and after it as they were.
    QVERIFY(writeText(path, ("Top line.\n" + first + "Later line.\n").toUtf8()));
    QVERIFY(sandbox::writeAgentContext(*result.kit, m_spec, m_home, &notes));
    const QString again = readText(path);
    QCOMPARE(again.count(QLatin1String(sandbox::kContextBegin)), 1);
    QVERIFY2(again.startsWith(QLatin1String("Top line.\n") + QLatin1String(sandbox::kContextBegin)), qPrintable(again));
    QVERIFY2(again.endsWith(QLatin1String("\n# My rules\nAlways run the tests.\nLater line.\n")), qPrintable(again));
}

void TestAgentContext::progressiveSurfacing()
{
    const QByteArray ordered = "schemaVersion: \"3\"\nkind: workload\ndisplayName: Codex\ncapabilities:\n"
                               "  - type: com.docker.sandbox/agent-context@1\n"
                               "    config: {filename: AGENTS.md, contentFile: /usr/share/sandbox/kit/codex/c.md}\n";
    const kit::KitLoadResult staged = load(ordered);
    QVERIFY2(staged.ok(), qPrintable(messages(staged.diagnostics)));
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(*staged.kit, m_spec, m_home, &notes));
    // A staged body is pointed at where it is, not copied; an inline one gets a file beside the profile.
    const QString profile = readText(m_home + QStringLiteral("/AGENTS.md"));
    QVERIFY2(profile.contains(QLatin1String("- Codex (codex): `/usr/share/sandbox/kit/codex/c.md`")),
             qPrintable(profile));
    QVERIFY(!QFileInfo::exists(m_home + QStringLiteral("/.paddock-kits")));

    const kit::KitLoadResult inline_ = load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                                    "    config: {filename: AGENTS.md, content: \"Use `motd`.\"}\n");
    QVERIFY2(inline_.ok(), qPrintable(messages(inline_.diagnostics)));
    QVERIFY(sandbox::writeAgentContext(*inline_.kit, m_spec, m_home, &notes));
    QCOMPARE(readText(m_home + QStringLiteral("/.paddock-kits/codex.md")), QStringLiteral("Use `motd`."));
    QVERIFY2(readText(m_home + QStringLiteral("/AGENTS.md"))
                 .contains(QLatin1String("- codex: `/home/agent/.paddock-kits/codex.md`")),
             qPrintable(readText(m_home + QStringLiteral("/AGENTS.md"))));
}

void TestAgentContext::composedBodiesKeepTheirOwnFiles()
{
    // A workload and a mixin merged into one kit, each with a body of its own.
    kit::KitLoadResult composed = load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                               "    config: {filename: AGENTS.md, content: workload text}\n");
    QVERIFY2(composed.ok(), qPrintable(messages(composed.diagnostics)));
    composed.kit->agentContexts << kit::AgentContext{{}, {}, {}, QStringLiteral("mixin text"), {}, {}};
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(*composed.kit, m_spec, m_home, &notes));
    QCOMPARE(readText(m_home + QStringLiteral("/.paddock-kits/codex.md")), QStringLiteral("workload text"));
    QCOMPARE(readText(m_home + QStringLiteral("/.paddock-kits/codex-2.md")), QStringLiteral("mixin text"));
    QVERIFY2(readText(m_home + QStringLiteral("/AGENTS.md")).contains(QLatin1String("codex-2.md")),
             qPrintable(readText(m_home + QStringLiteral("/AGENTS.md"))));
}

void TestAgentContext::progressiveSurfacingNamesEachComposedKit()
{
    // SPEC agent-context@1: per-kit attribution survives composition, in composition order.
    const kit::KitLoadResult codex = load(kHead + "  - type: com.docker.sandbox/agent-context@1\n"
                                                  "    config: {filename: AGENTS.md, content: workload text}\n");
    QVERIFY2(codex.ok(), qPrintable(messages(codex.diagnostics)));
    const kit::KitLoadResult gh = kit::KitLoader::loadText(
        "schemaVersion: \"3\"\nkind: mixin\ndisplayName: GitHub CLI\ncapabilities:\n"
        "  - type: com.docker.sandbox/agent-context@1\n    config: {content: use gh for pull requests}\n",
        QStringLiteral("gh.yaml"));
    QVERIFY2(gh.ok(), qPrintable(messages(gh.diagnostics)));
    const kit::KitLoadResult lint = kit::KitLoader::loadText(
        "schemaVersion: \"3\"\nkind: mixin\ncapabilities:\n  - type: com.docker.sandbox/agent-context@1\n"
        "    config: {contentFile: /usr/share/sandbox/kit/lint/lint.md}\n",
        QStringLiteral("lint.yaml"));
    QVERIFY2(lint.ok(), qPrintable(messages(lint.diagnostics)));
    const Result<kit::Composition> composed = kit::composeKits({*codex.kit, *gh.kit, *lint.kit});
    QVERIFY2(composed.ok(), composed.ok() ? "" : qPrintable(composed.errorText()));
    QCOMPARE(composed->kit.name, QStringLiteral("codex+gh+lint"));
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(composed->kit, m_spec, m_home, &notes));
    // Each kit's inline body in a file of its own name, and each index line naming its kit.
    QCOMPARE(readText(m_home + QStringLiteral("/.paddock-kits/codex.md")), QStringLiteral("workload text"));
    QCOMPARE(readText(m_home + QStringLiteral("/.paddock-kits/gh.md")), QStringLiteral("use gh for pull requests"));
    const QString profile = readText(m_home + QStringLiteral("/AGENTS.md"));
    const QString expected = QStringLiteral("- codex: `/home/agent/.paddock-kits/codex.md`\n"
                                            "- GitHub CLI (gh): `/home/agent/.paddock-kits/gh.md`\n"
                                            "- lint: `/usr/share/sandbox/kit/lint/lint.md`\n");
    QVERIFY2(profile.contains(expected), qPrintable(profile));
    QVERIFY2(!profile.contains(QLatin1String("codex+gh")), qPrintable(profile));
}

void TestAgentContext::contentNeutralized()
{
    const kit::KitLoadResult result =
        load(kHead +
             "  - type: com.docker.sandbox/agent-context@1\n"
             "    config:\n      filename: AGENTS.md\n      contentFile: \"/usr/share/x <!-- paddock:end -->.md\"\n");
    QVERIFY2(result.ok(), qPrintable(messages(result.diagnostics)));
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(*result.kit, m_spec, m_home, &notes));
    const QString profile = readText(m_home + QStringLiteral("/AGENTS.md"));
    // One end marker: the kit's text cannot close the section early.
    QCOMPARE(profile.count(QLatin1String("paddock:end")), 1);
    QVERIFY(profile.contains(QLatin1String("paddock-end")));
    QCOMPARE(sandbox::neutralisedContext(QStringLiteral("<!-- Paddock : BEGIN -->")),
             QStringLiteral("<!-- Paddock - BEGIN -->"));
}

void TestAgentContext::linksAreNotFollowed()
{
    const kit::KitLoadResult result =
        load(kHead + "  - type: com.docker.sandbox/agent-context@1\n    config: {filename: AGENTS.md}\n");
    QVERIFY(result.ok());
    // The sandbox put a link where the profile goes, toward a file of the person's.
    const QString outside = m_dir->filePath(QStringLiteral("secret.txt"));
    QVERIFY(writeText(outside, "the person's file\n"));
    QVERIFY(QFile::link(outside, m_home + QStringLiteral("/AGENTS.md")));
    QStringList notes;
    QVERIFY(sandbox::writeAgentContext(*result.kit, m_spec, m_home, &notes));
    QCOMPARE(readText(outside), QStringLiteral("the person's file\n"));
    QVERIFY(notes.join(QString()).contains(QLatin1String("left as it is")));
}

QTEST_GUILESS_MAIN(TestAgentContext)
#include "tst_agent_context.moc"
