// SPDX-License-Identifier: GPL-3.0-or-later
// The kit editor on an authored schemaVersion "3" descriptor (STEM/STEM.yaml): network-policy@1's
// runtime and install-phase lists edited in place (a group's member inside its group), entries
// checked with the decoder's rule, strict saves.
#include "EditorTestSupport.h"

#include "kit/KitEditor.h"
#include "kit/KitV3Authored.h"
#include "kit/KitV3Descriptor.h"

#include <QTemporaryDir>
#include <QTest>

using namespace paddock::kit;
using namespace paddock::kit::test;

namespace {

const QByteArray kDescriptor = "# syntax=docker/sandbox-kit:3\n"
                               "schemaVersion: \"3\"\n"
                               "kind: workload\n"
                               "displayName: Demo agent   # as listed\n"
                               "description: A shell that reaches GitHub\n"
                               "capabilities:\n"
                               "  - type: com.docker.sandbox/lifecycle@1\n"
                               "    config:\n"
                               "      startup:\n"
                               "        - command: [\"true\"]\n";

// A request with runtime lists only, a comment, quoting, and a credential.
const QByteArray kWithPolicy = "# syntax=docker/sandbox-kit:3\n"
                               "schemaVersion: \"3\"\n"
                               "kind: workload\n"
                               "capabilities:\n"
                               "  - type: com.docker.sandbox/network-policy@1\n"
                               "    config:   # the agent reaches GitHub only\n"
                               "      runtime:\n"
                               "        allow: ['github.com']\n"
                               "  - type: com.docker.sandbox/credential@1\n"
                               "    config:\n"
                               "      service: github\n"
                               "      phase: runtime\n"
                               "      apiKey:\n"
                               "        inject:\n"
                               "          - domain: github.com\n"
                               "            header: Authorization\n";

// Two groups, the second holding a network-policy@1 member between two other requests.
const QByteArray kWithGroup = "schemaVersion: \"3\"\n"
                              "kind: mixin\n"
                              "capabilities:\n"
                              "  - type: com.docker.sandbox/long-running@1\n"
                              "  - group:\n"
                              "      name: ports\n"
                              "      capabilities:\n"
                              "        - type: com.docker.sandbox/port@1\n"
                              "          config: {container: 8080}\n"
                              "  - group:\n"
                              "      name: registry   # optional mirror\n"
                              "      optional: true\n"
                              "      capabilities:\n"
                              "        - type: com.docker.sandbox/port@1\n"
                              "          config: {container: 5000}\n"
                              "        - type: \"com.docker.sandbox/network-policy@1\"\n"
                              "          config:\n"
                              "            runtime:\n"
                              "              allow:\n"
                              "                - \"mirror.example.com\"  # the mirror\n"
                              "        - type: com.docker.sandbox/volume@1\n"
                              "          config:\n"
                              "            path: /var/cache/mirror\n";

QString writeKit(const QTemporaryDir &root, const QByteArray &descriptor = kDescriptor)
{
    const QString dir = root.filePath(QStringLiteral("demo"));
    QDir().mkpath(dir);
    QFile file(dir + QStringLiteral("/demo.yaml"));
    if (!file.open(QIODevice::WriteOnly) || file.write(descriptor) != descriptor.size())
        return {};
    file.close();
    QFile recipe(dir + QStringLiteral("/demo.dockerfile"));
    if (!recipe.open(QIODevice::WriteOnly) || recipe.write("FROM scratch\n") < 0)
        return {};
    return dir;
}

} // namespace

class TestKitEditorV3 : public QObject
{
    Q_OBJECT

private slots:
    void editsTheRuntimeListsOfAnAuthoredKit()
    {
        QTemporaryDir root;
        const QString dir = writeKit(root);
        QVERIFY(!dir.isEmpty());
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        QCOMPARE(editor->filePath(), dir + QStringLiteral("/demo.yaml"));
        QVERIFY(editor->isV3Descriptor());
        QVERIFY(editor->networkPatterns(NetworkList::Allow).isEmpty());

        const KitEditResult added = editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("github.com"));
        QVERIFY2(added.changed(), qPrintable(added.message));
        QVERIFY(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("api.github.com:443")).changed());
        QVERIFY(editor->addNetworkPattern(NetworkList::Deny, QStringLiteral("*.ads.example.com")).changed());
        QCOMPARE(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("GitHub.com")).status,
                 KitEditResult::Status::Unchanged);
        QCOMPARE(editor->networkPatterns(NetworkList::Allow), QStringList({"github.com", "api.github.com:443"}));
        QVERIFY2(editor->save(&error), qPrintable(error));
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), kDescriptor +
                                                                   "  - type: com.docker.sandbox/network-policy@1\n"
                                                                   "    config:\n"
                                                                   "      runtime:\n"
                                                                   "        allow:\n"
                                                                   "          - github.com\n"
                                                                   "          - api.github.com:443\n"
                                                                   "        deny:\n"
                                                                   "          - \"*.ads.example.com\"\n");
        // What `paddock kit build` reads: the descriptor decodes, the kit is ready to build.
        const AuthoredKitResult built = readAuthoredKit(dir);
        QVERIFY2(built.kit, qPrintable(built.diagnostics.isEmpty() ? QString() : built.diagnostics.first().toString()));

        // Removing both allowed hosts again leaves the request with its deny list only.
        QVERIFY(editor->removeNetworkPattern(NetworkList::Allow, QStringLiteral("github.com")).changed());
        QVERIFY(editor->removeNetworkPattern(NetworkList::Allow, QStringLiteral("api.github.com:443")).changed());
        QVERIFY(editor->text().endsWith("      runtime:\n        deny:\n          - \"*.ads.example.com\"\n"));
        // The last pattern takes the request with it: the file as it was.
        QVERIFY(editor->removeNetworkPattern(NetworkList::Deny, QStringLiteral("*.ads.example.com")).changed());
        QCOMPARE(editor->text(), kDescriptor);
    }

    void refusesWhatTheDecoderRefuses_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::newRow("a space") << "git hub.com";
        QTest::newRow("a port out of range") << "api.example.com:99999";
        QTest::newRow("a scheme") << "https://github.com";
        QTest::newRow("a wildcard inside") << "bedrock.*.amazonaws.com";
    }

    void refusesWhatTheDecoderRefuses()
    {
        QFETCH(QString, pattern);
        QTemporaryDir root;
        const QString dir = writeKit(root);
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        const KitEditResult result = editor->addNetworkPattern(NetworkList::Allow, pattern);
        QVERIFY(result.failed());
        QVERIFY2(result.message.contains(QStringLiteral("is not a host pattern")), qPrintable(result.message));
        QVERIFY(!editor->isModified());
        QVERIFY(editor->save(&error));
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), kDescriptor);

        // The decoder says the same of that entry in a file, at its line and column.
        QByteArray text = kDescriptor;
        text += "  - type: com.docker.sandbox/network-policy@1\n"
                "    config:\n"
                "      runtime:\n"
                "        allow: [\"" +
                pattern.toUtf8() + "\"]\n";
        const V3DecodeResult decoded = decodeV3Descriptor(text, QStringLiteral("demo.yaml"));
        QVERIFY(!decoded.descriptor);
        QCOMPARE(decoded.diagnostics.size(), 1);
        QCOMPARE(decoded.diagnostics.first().line, 14);
        QCOMPARE(decoded.diagnostics.first().column, 17);
        QVERIFY(decoded.diagnostics.first().message.contains(QStringLiteral("runtime.allow[0]")));
    }

    void acceptsTheSpecificationsPatterns_data()
    {
        QTest::addColumn<QString>("entry");
        for (const char *entry : {"api.example.com", "api.example.com:443", "*.example.com", "*", "**", "10.0.0.0/8",
                                  "${{ kit.args.registry }}"})
            QTest::newRow(entry) << QString::fromLatin1(entry);
    }

    void acceptsTheSpecificationsPatterns()
    {
        QFETCH(QString, entry);
        const std::optional<QString> problem = v3NetworkEntryProblem(entry);
        QVERIFY2(!problem, qPrintable(problem.value_or(QString())));
    }

    void editsTheInstallListsBesideTheRuntimeOnes()
    {
        QTemporaryDir root;
        const QString dir = writeKit(root, kWithPolicy);
        QVERIFY(!dir.isEmpty());
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        const NetworkScope install{NetworkPhase::Install};
        QCOMPARE(editor->networkPatterns(NetworkList::Allow), QStringList{"github.com"});
        QVERIFY(editor->networkPatterns(NetworkList::Allow, install).isEmpty());

        const KitEditResult added =
            editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("registry.npmjs.org"), install);
        QVERIFY2(added.changed(), qPrintable(added.message));
        QCOMPARE(added.message, QStringLiteral("added registry.npmjs.org to network-policy@1's install allow list"));
        QVERIFY(
            editor->addNetworkPattern(NetworkList::Deny, QStringLiteral("*.tracker.example.com"), install).changed());
        QCOMPARE(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("Registry.npmjs.org"), install).status,
                 KitEditResult::Status::Unchanged);
        // The runtime list is another list: the same host is new there.
        QCOMPARE(editor->networkPatterns(NetworkList::Allow, install), QStringList{"registry.npmjs.org"});
        QCOMPARE(editor->networkPatterns(NetworkList::Allow), QStringList{"github.com"});
        QVERIFY2(editor->save(&error), qPrintable(error));
        QByteArray expected = kWithPolicy;
        expected.replace("        allow: ['github.com']\n", "        allow: ['github.com']\n"
                                                            "      install:\n"
                                                            "        allow:\n"
                                                            "          - registry.npmjs.org\n"
                                                            "        deny:\n"
                                                            "          - \"*.tracker.example.com\"\n");
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), expected);
        const AuthoredKitResult built = readAuthoredKit(dir);
        QVERIFY2(built.kit, qPrintable(built.diagnostics.value(0).toString()));
        QVERIFY(built.kit->published.contains(
            "\"install\":{\"allow\":[\"registry.npmjs.org\"],\"deny\":[\"*.tracker.example.com\"]}"));

        // Emptying the deny list takes its key; the allow list stays under `install:`.
        QVERIFY(editor->removeNetworkPattern(NetworkList::Deny, QStringLiteral("*.tracker.example.com"), install)
                    .changed());
        QVERIFY(editor->text().endsWith("      install:\n        allow:\n          - registry.npmjs.org\n  - type: "
                                        "com.docker.sandbox/credential@1\n" +
                                        kWithPolicy.mid(kWithPolicy.indexOf("    config:\n      service"))));
        QCOMPARE(
            editor->removeNetworkPattern(NetworkList::Deny, QStringLiteral("*.tracker.example.com"), install).status,
            KitEditResult::Status::Unchanged);
    }

    void addsAndRemovesTheInstallRequestWhole()
    {
        // No request yet: the first install-phase host adds it with an `install:` alone.
        KitEditor editor = KitEditor::fromText(kDescriptor, QStringLiteral("demo.yaml"));
        const NetworkScope install{NetworkPhase::Install};
        QVERIFY(editor.addNetworkPattern(NetworkList::Deny, QStringLiteral("ads.example.com:80"), install).changed());
        QCOMPARE(editor.text(), kDescriptor + "  - type: com.docker.sandbox/network-policy@1\n"
                                              "    config:\n"
                                              "      install:\n"
                                              "        deny:\n"
                                              "          - ads.example.com:80\n");
        QVERIFY(editor.validate().isEmpty());
        QVERIFY(
            editor.removeNetworkPattern(NetworkList::Deny, QStringLiteral("ADS.example.com:80"), install).changed());
        QCOMPARE(editor.text(), kDescriptor);
    }

    void refusesInInstallListsWhatTheDecoderRefuses_data() { refusesWhatTheDecoderRefuses_data(); }

    void refusesInInstallListsWhatTheDecoderRefuses()
    {
        QFETCH(QString, pattern);
        KitEditor editor = KitEditor::fromText(kWithPolicy, QStringLiteral("demo.yaml"));
        for (const NetworkList list : {NetworkList::Allow, NetworkList::Deny}) {
            const KitEditResult result = editor.addNetworkPattern(list, pattern, {NetworkPhase::Install});
            QVERIFY(result.failed());
            // The runtime list's refusal, word for word.
            QCOMPARE(result.message, editor.addNetworkPattern(list, pattern).message);
            QVERIFY2(result.message.contains(QStringLiteral("is not a host pattern")), qPrintable(result.message));
        }
        QCOMPARE(editor.addNetworkPattern(NetworkList::Allow, QStringLiteral("  "), {NetworkPhase::Install}).message,
                 QStringLiteral("an empty pattern cannot be added to network-policy@1's install allow list"));
        QVERIFY(!editor.isModified());
    }

    void editsAGroupsRequestInItsGroup()
    {
        QTemporaryDir root;
        const QString dir = writeKit(root, kWithGroup);
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        QCOMPARE(editor->networkPolicyGroups(), QList<int>{2});
        const NetworkScope runtime{NetworkPhase::Runtime, 2};
        const NetworkScope install{NetworkPhase::Install, 2};
        QCOMPARE(editor->networkPatterns(NetworkList::Allow, runtime), QStringList{"mirror.example.com"});
        // The kit has no request of its own.
        QVERIFY(editor->networkPatterns(NetworkList::Allow).isEmpty());

        const KitEditResult added =
            editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("cdn.example.com"), runtime);
        QVERIFY2(added.changed(), qPrintable(added.message));
        QCOMPARE(added.message,
                 QStringLiteral("added cdn.example.com to network-policy@1's runtime allow list in group registry"));
        QVERIFY(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("pypi.org"), install).changed());
        QVERIFY(editor->addNetworkPattern(NetworkList::Deny, QStringLiteral("*.example.net"), install).changed());
        QVERIFY2(editor->save(&error), qPrintable(error));
        QByteArray expected = kWithGroup;
        expected.replace("                - \"mirror.example.com\"  # the mirror\n",
                         "                - \"mirror.example.com\"  # the mirror\n"
                         "                - \"cdn.example.com\"\n"
                         "            install:\n"
                         "              allow:\n"
                         "                - pypi.org\n"
                         "              deny:\n"
                         "                - \"*.example.net\"\n");
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), expected);
        const AuthoredKitResult built = readAuthoredKit(dir);
        QVERIFY2(built.kit, qPrintable(built.diagnostics.value(0).toString()));
        // Still the group's: no request was added among the top-level capabilities.
        QCOMPARE(editor->networkPolicyGroups(), QList<int>{2});
        QVERIFY(editor->networkPatterns(NetworkList::Allow).isEmpty());

        // Emptied, the member stays in its group with its type alone; the group decodes.
        for (const QString &host : {QStringLiteral("mirror.example.com"), QStringLiteral("cdn.example.com")})
            QVERIFY(editor->removeNetworkPattern(NetworkList::Allow, host, runtime).changed());
        QVERIFY(editor->removeNetworkPattern(NetworkList::Allow, QStringLiteral("pypi.org"), install).changed());
        QVERIFY(editor->removeNetworkPattern(NetworkList::Deny, QStringLiteral("*.example.net"), install).changed());
        QByteArray emptied = kWithGroup;
        emptied.replace("          config:\n"
                        "            runtime:\n"
                        "              allow:\n"
                        "                - \"mirror.example.com\"  # the mirror\n",
                        "");
        QCOMPARE(editor->text(), emptied);
        QVERIFY2(editor->save(&error), qPrintable(error));
        QCOMPARE(editor->networkPolicyGroups(), QList<int>{2});
        // Added again, the lists come back under the member, in its group.
        QVERIFY(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("mirror.example.com"), runtime).changed());
        QVERIFY(editor->text().contains("        - type: \"com.docker.sandbox/network-policy@1\"\n"
                                        "          config:\n"
                                        "            runtime:\n"
                                        "              allow:\n"
                                        "                - mirror.example.com\n"
                                        "        - type: com.docker.sandbox/volume@1\n"));
        QVERIFY(editor->validate().isEmpty());
    }

    void refusesAGroupWithoutARequest()
    {
        KitEditor editor = KitEditor::fromText(kWithGroup, QStringLiteral("demo.yaml"));
        for (const int group : {0, 1, 7}) {
            const KitEditResult result = editor.addNetworkPattern(NetworkList::Allow, QStringLiteral("example.com"),
                                                                  {NetworkPhase::Runtime, group});
            QVERIFY(result.failed());
            QCOMPARE(result.message, QStringLiteral("capabilities[%1] is not a group holding a network-policy@1 "
                                                    "request; add the request to the group in the descriptor's text")
                                         .arg(group));
        }
        QVERIFY(!editor.isModified());
        // A spec.yaml has no install phase.
        KitEditor spec = KitEditor::fromText("schemaVersion: \"2\"\nkind: mixin\nname: demo\n");
        const KitEditResult refused =
            spec.addNetworkPattern(NetworkList::Allow, QStringLiteral("example.com"), {NetworkPhase::Install});
        QVERIFY(refused.failed());
        QVERIFY2(refused.message.contains(QStringLiteral("permissions.network")), qPrintable(refused.message));
        QVERIFY(!spec.isModified());
    }

    void aSaveThatWouldNotDecodeLeavesTheFile_install()
    {
        // The install-phase credential injects into the host: removing it from the install
        // allow list is an edit, and the save the decoder refuses leaves the file.
        QByteArray text = kWithPolicy;
        text.replace("phase: runtime", "phase: install").replace("domain: github.com", "domain: registry.npmjs.org");
        text.replace("        allow: ['github.com']\n",
                     "        allow: ['github.com']\n      install:\n        allow: [registry.npmjs.org]\n");
        QTemporaryDir root;
        const QString dir = writeKit(root, text);
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        QVERIFY(editor->validate().isEmpty());
        QVERIFY(editor
                    ->removeNetworkPattern(NetworkList::Allow, QStringLiteral("registry.npmjs.org"),
                                           {NetworkPhase::Install})
                    .changed());
        QVERIFY(editor->text().contains("        allow: []\n"));
        QVERIFY(!editor->save(&error));
        QVERIFY2(error.contains(QStringLiteral("registry.npmjs.org, which the network policy's install allow list")),
                 qPrintable(error));
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), text);
    }

    void aSaveThatWouldNotDecodeLeavesTheFile()
    {
        QTemporaryDir root;
        const QString dir = writeKit(root);
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        QVERIFY(editor->setScalar(QStringLiteral("kind"), QStringLiteral("sandbox")).changed());
        QVERIFY(!editor->save(&error));
        QVERIFY2(error.contains(QStringLiteral("demo.yaml:3:7: error:")), qPrintable(error));
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), kDescriptor);
    }
};

QTEST_GUILESS_MAIN(TestKitEditorV3)
#include "tst_kiteditor_v3.moc"
