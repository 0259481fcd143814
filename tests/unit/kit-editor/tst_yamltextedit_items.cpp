// SPDX-License-Identifier: GPL-3.0-or-later
// YamlTextEdit paths that select a sequence item ("[type=...]", "[N]"): the bytes each edit
// writes, comments kept, flow and block sequences, and the item created when missing.
#include "kit/YamlTextEdit.h"

#include <QTest>

using namespace paddock::kit;

namespace {

const QString kNetwork = QStringLiteral("[type=com.docker.sandbox/network-policy@1]");

QStringList networkList(const QString &phase, const QString &list)
{
    return {QStringLiteral("capabilities"), kNetwork, QStringLiteral("config"), phase, list};
}

const QByteArray kDescriptor = "# syntax=docker/sandbox-kit:3\n"
                               "schemaVersion: \"3\"\n"
                               "kind: mixin\n"
                               "displayName: Demo   # shown in lists\n"
                               "capabilities:\n"
                               "  # the network first\n"
                               "  - type: com.docker.sandbox/network-policy@1\n"
                               "    config:\n"
                               "      runtime:\n"
                               "        allow:\n"
                               "          - github.com   # code\n"
                               "        deny: [telemetry.example.com]\n"
                               "  - type: com.docker.sandbox/lifecycle@1\n"
                               "    config:\n"
                               "      startup:\n"
                               "        - command: [\"true\"]\n";

} // namespace

class TestYamlTextEditItems : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void appendsToTheSelectedItemsList()
    {
        const YamlEditOutcome out =
            YamlTextEdit::appendToSequence(kDescriptor, networkList("runtime", "allow"), "api.github.com");
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        QByteArray expected = kDescriptor;
        expected.replace("          - github.com   # code\n",
                         "          - github.com   # code\n          - api.github.com\n");
        QCOMPARE(out.text, expected);
    }

    void appendsToAFlowListInsideTheItem()
    {
        const YamlEditOutcome out =
            YamlTextEdit::appendToSequence(kDescriptor, networkList("runtime", "deny"), "ads.example.com");
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        QByteArray expected = kDescriptor;
        expected.replace("deny: [telemetry.example.com]", "deny: [telemetry.example.com, ads.example.com]");
        QCOMPARE(out.text, expected);
    }

    void createsAMissingPhaseInsideTheItem()
    {
        const YamlEditOutcome out =
            YamlTextEdit::appendToSequence(kDescriptor, networkList("install", "allow"), "registry.npmjs.org");
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        QByteArray expected = kDescriptor;
        expected.replace("        deny: [telemetry.example.com]\n", "        deny: [telemetry.example.com]\n"
                                                                    "      install:\n"
                                                                    "        allow:\n"
                                                                    "          - registry.npmjs.org\n");
        QCOMPARE(out.text, expected);
    }

    void selectsAnItemByIndex()
    {
        const YamlEditOutcome out = YamlTextEdit::setScalar(kDescriptor, {"capabilities", "[0]", "type"},
                                                            "com.docker.sandbox/network-policy@1");
        QCOMPARE(out.status, YamlEditOutcome::Status::Unchanged);
        const YamlEditOutcome removed = YamlTextEdit::removeEntry(kDescriptor, {"capabilities", "[0]", "config"});
        QCOMPARE(removed.status, YamlEditOutcome::Status::Changed);
        QCOMPARE(removed.text, QByteArray("# syntax=docker/sandbox-kit:3\n"
                                          "schemaVersion: \"3\"\n"
                                          "kind: mixin\n"
                                          "displayName: Demo   # shown in lists\n"
                                          "capabilities:\n"
                                          "  # the network first\n"
                                          "  - type: com.docker.sandbox/network-policy@1\n"
                                          "  - type: com.docker.sandbox/lifecycle@1\n"
                                          "    config:\n"
                                          "      startup:\n"
                                          "        - command: [\"true\"]\n"));
        QCOMPARE(YamlTextEdit::removeEntry(kDescriptor, {"capabilities", "[7]", "config"}).status,
                 YamlEditOutcome::Status::Unchanged);
    }

    void removingTheLastPatternRemovesTheItem()
    {
        const QByteArray text = "capabilities:\n"
                                "  - type: com.docker.sandbox/network-policy@1\n"
                                "    config:\n"
                                "      runtime:\n"
                                "        allow:\n"
                                "          - github.com\n"
                                "  - type: com.docker.sandbox/long-running@1\n";
        const YamlEditOutcome out = YamlTextEdit::removeFromSequence(text, networkList("runtime", "allow"), 0);
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        QCOMPARE(out.text, QByteArray("capabilities:\n"
                                      "  - type: com.docker.sandbox/long-running@1\n"));
    }

    void addsTheMissingItemAfterItsSiblings()
    {
        const QByteArray text = "schemaVersion: \"3\"\n"
                                "kind: workload\n"
                                "capabilities:\n"
                                "  - type: com.docker.sandbox/lifecycle@1   # hooks\n"
                                "    config:\n"
                                "      startup:\n"
                                "        - command: [\"true\"]\n"
                                "\n"
                                "# the recipe is beside this file\n";
        const YamlEditOutcome out = YamlTextEdit::appendToSequence(text, networkList("runtime", "allow"), "github.com");
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        QCOMPARE(out.text, QByteArray("schemaVersion: \"3\"\n"
                                      "kind: workload\n"
                                      "capabilities:\n"
                                      "  - type: com.docker.sandbox/lifecycle@1   # hooks\n"
                                      "    config:\n"
                                      "      startup:\n"
                                      "        - command: [\"true\"]\n"
                                      "  - type: com.docker.sandbox/network-policy@1\n"
                                      "    config:\n"
                                      "      runtime:\n"
                                      "        allow:\n"
                                      "          - github.com\n"
                                      "\n"
                                      "# the recipe is beside this file\n"));
        // Removing it again gives the original bytes back.
        const YamlEditOutcome back = YamlTextEdit::removeFromSequence(out.text, networkList("runtime", "allow"), 0);
        QCOMPARE(back.status, YamlEditOutcome::Status::Changed);
        QCOMPARE(back.text, text);
    }

    void newItemFollowsTheFilesDashHabit()
    {
        const QByteArray text = "kind: mixin\n"
                                "provides:\n"
                                "- demo\n"
                                "capabilities:\n"
                                "- type: com.docker.sandbox/long-running@1\n";
        const YamlEditOutcome out = YamlTextEdit::appendToSequence(text, networkList("runtime", "deny"), "*");
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        QCOMPARE(out.text, QByteArray("kind: mixin\n"
                                      "provides:\n"
                                      "- demo\n"
                                      "capabilities:\n"
                                      "- type: com.docker.sandbox/long-running@1\n"
                                      "- type: com.docker.sandbox/network-policy@1\n"
                                      "  config:\n"
                                      "    runtime:\n"
                                      "      deny:\n"
                                      "      - \"*\"\n"));
    }

    void addsTheItemToAFlowSequence()
    {
        const QByteArray text = "kind: mixin   # a flow list below\n"
                                "capabilities: [{type: com.docker.sandbox/port@1, config: {container: 8080}}]\n"
                                "description: ports\n";
        const YamlEditOutcome out =
            YamlTextEdit::appendToSequence(text, networkList("runtime", "allow"), "api.example.com:443");
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        // In a flow collection "host:port" is quoted: plain, it would not read back the same.
        QCOMPARE(out.text, QByteArray("kind: mixin   # a flow list below\n"
                                      "capabilities: [{type: com.docker.sandbox/port@1, config: {container: 8080}}, "
                                      "{type: com.docker.sandbox/network-policy@1, config: {runtime: {allow: "
                                      "[\"api.example.com:443\"]}}}]\n"
                                      "description: ports\n"));
        // Once there, the next pattern goes into the item's flow list.
        const YamlEditOutcome next = YamlTextEdit::appendToSequence(out.text, networkList("runtime", "allow"), "b.io");
        QCOMPARE(next.status, YamlEditOutcome::Status::Changed);
        QVERIFY(next.text.contains("{allow: [\"api.example.com:443\", b.io]}"));
    }

    void createsTheSequenceWhenMissing()
    {
        const QByteArray text = "schemaVersion: \"3\"\n"
                                "kind: mixin\n"
                                "displayName: Demo\n";
        const YamlEditOutcome out = YamlTextEdit::appendToSequence(text, networkList("runtime", "allow"), "github.com");
        QCOMPARE(out.status, YamlEditOutcome::Status::Changed);
        QCOMPARE(out.text, QByteArray("schemaVersion: \"3\"\n"
                                      "kind: mixin\n"
                                      "displayName: Demo\n"
                                      "capabilities:\n"
                                      "  - type: com.docker.sandbox/network-policy@1\n"
                                      "    config:\n"
                                      "      runtime:\n"
                                      "        allow:\n"
                                      "          - github.com\n"));
        const YamlEditOutcome back = YamlTextEdit::removeFromSequence(out.text, networkList("runtime", "allow"), 0);
        QCOMPARE(back.text, text);
    }

    void refusesWhatIsNoList()
    {
        const QByteArray text = "capabilities: {type: x}\n";
        const YamlEditOutcome out = YamlTextEdit::appendToSequence(text, networkList("runtime", "allow"), "a.io");
        QCOMPARE(out.status, YamlEditOutcome::Status::Failed);
        QCOMPARE(out.text, text);
        QVERIFY2(out.error.contains("not a list"), qPrintable(out.error));
        // A missing item is created only by appending to a list under it.
        const YamlEditOutcome set = YamlTextEdit::setScalar(kDescriptor, {"capabilities", "[type=x@1]", "name"}, "n");
        QCOMPARE(set.status, YamlEditOutcome::Status::Failed);
        QVERIFY2(set.error.contains("capabilities[type=x@1]"), qPrintable(set.error));
    }
};

QTEST_GUILESS_MAIN(TestYamlTextEditItems)
#include "tst_yamltextedit_items.moc"
