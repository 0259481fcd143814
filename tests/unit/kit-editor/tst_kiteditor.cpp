// SPDX-License-Identifier: GPL-3.0-or-later
// KitEditor's text edits, case by case: each expected text is written out in full so a
// change anywhere else in the file shows.
#include "EditorTestSupport.h"

#include "kit/KitEditor.h"

#include <QTest>

using namespace paddock::kit;
using namespace paddock::kit::test;

namespace {

const QStringList kAllow = {QStringLiteral("permissions"), QStringLiteral("network"), QStringLiteral("allow")};
const QStringList kDeny = {QStringLiteral("permissions"), QStringLiteral("network"), QStringLiteral("deny")};

const QByteArray kHead = "schemaVersion: \"2\"\nkind: sandbox\nname: demo\n";

} // namespace

class TestKitEditor : public QObject
{
    Q_OBJECT

private:
    // Adds @p pattern to allow, checks the exact result, then removes it and checks the
    // original bytes come back.
    void addThenRemove(const QByteArray &before, const QString &pattern, const QByteArray &expected,
                       NetworkList list = NetworkList::Allow)
    {
        KitEditor editor = KitEditor::fromText(before);
        const KitEditResult added = editor.addNetworkPattern(list, pattern);
        QVERIFY2(added.changed(), qPrintable(added.message));
        QCOMPARE(editor.text(), expected);
        QVERIFY(yamlList(editor.text(), list == NetworkList::Allow ? kAllow : kDeny).contains(pattern));
        const KitEditResult removed = editor.removeNetworkPattern(list, pattern);
        QVERIFY2(removed.changed(), qPrintable(removed.message));
        QCOMPARE(editor.text(), before);
    }

private slots:
    void appendsToBlockListWithComments()
    {
        const QByteArray before = kHead + "permissions:\n"
                                          "  network:\n"
                                          "    allow:\n"
                                          "      # leading comment\n"
                                          "      - a.example.com   # first\n"
                                          "      # between\n"
                                          "      - \"b.example.com\"\n"
                                          "      # after the last item\n"
                                          "other: 1\n";
        const QByteArray expected = kHead + "permissions:\n"
                                            "  network:\n"
                                            "    allow:\n"
                                            "      # leading comment\n"
                                            "      - a.example.com   # first\n"
                                            "      # between\n"
                                            "      - \"b.example.com\"\n"
                                            "      - github.com\n"
                                            "      # after the last item\n"
                                            "other: 1\n";
        addThenRemove(before, QStringLiteral("github.com"), expected);
    }

    void followsSiblingQuotingAndDashSpacing()
    {
        addThenRemove(
            kHead + "permissions:\n  network:\n    allow:\n    -   \"a.com\"\n    -   \"b.com\"\n",
            QStringLiteral("c.com"),
            kHead + "permissions:\n  network:\n    allow:\n    -   \"a.com\"\n    -   \"b.com\"\n    -   \"c.com\"\n");
        addThenRemove(kHead + "permissions:\n  network:\n    allow:\n      - 'a.com'\n", QStringLiteral("*.c.com"),
                      kHead + "permissions:\n  network:\n    allow:\n      - 'a.com'\n      - '*.c.com'\n");
        addThenRemove(kHead + "permissions:\n  network:\n    allow:\n      - a.com\n", QStringLiteral("*.c.com"),
                      kHead + "permissions:\n  network:\n    allow:\n      - a.com\n      - \"*.c.com\"\n");
        // Mixed siblings: a pattern that needs no quotes is written plain.
        addThenRemove(
            kHead + "permissions:\n  network:\n    allow:\n      - \"*.a.com\"\n      - a.com\n",
            QStringLiteral("c.com:443"),
            kHead + "permissions:\n  network:\n    allow:\n      - \"*.a.com\"\n      - a.com\n      - c.com:443\n");
    }

    void insertsIntoFlowLists()
    {
        addThenRemove(kHead + "permissions:\n  network:\n    allow: [a.com, \"b.com\"] # hosts\n",
                      QStringLiteral("c.com"),
                      kHead + "permissions:\n  network:\n    allow: [a.com, \"b.com\", c.com] # hosts\n");
        addThenRemove(kHead + "permissions:\n  network:\n    allow: []\n", QStringLiteral("*.c.com"),
                      kHead + "permissions:\n  network:\n    allow: [\"*.c.com\"]\n");
        addThenRemove(kHead + "permissions:\n  network:\n    allow: [\n      a.com,\n      b.com\n    ]\n",
                      QStringLiteral("c.com"),
                      kHead +
                          "permissions:\n  network:\n    allow: [\n      a.com,\n      b.com,\n      c.com\n    ]\n");
        addThenRemove(kHead + "permissions:\n  network:\n    allow: [\n      a.com,\n    ]\n", QStringLiteral("c.com"),
                      kHead + "permissions:\n  network:\n    allow: [\n      a.com,\n      c.com,\n    ]\n");
        addThenRemove(kHead + "permissions: {network: {allow: [a.com]}}\n", QStringLiteral("c.com"),
                      kHead + "permissions: {network: {allow: [a.com, c.com]}}\n");
    }

    void removesFromTheMiddleOfAFlowList()
    {
        KitEditor editor = KitEditor::fromText(kHead + "permissions:\n  network:\n    allow: [a.com, b.com, c.com]\n");
        QVERIFY(editor.removeNetworkPattern(NetworkList::Allow, QStringLiteral("b.com")).changed());
        QCOMPARE(editor.text(), kHead + "permissions:\n  network:\n    allow: [a.com, c.com]\n");
        QVERIFY(editor.removeNetworkPattern(NetworkList::Allow, QStringLiteral("a.com")).changed());
        QVERIFY(editor.removeNetworkPattern(NetworkList::Allow, QStringLiteral("c.com")).changed());
        QCOMPARE(editor.text(), kHead + "permissions:\n  network:\n    allow: []\n");
    }

    void addsMissingPermissionsAtTheEnd()
    {
        const QByteArray before = kHead + "sandbox:\n  image: x\n# trailing note\n";
        KitEditor editor = KitEditor::fromText(before);
        QVERIFY(editor.addNetworkPattern(NetworkList::Allow, QStringLiteral("github.com")).changed());
        const std::optional<QList<QByteArray>> added = addedLines(before, editor.text());
        QVERIFY(added);
        QCOMPARE(*added, (QList<QByteArray>{"permissions:", "  network:", "    allow:", "      - github.com"}));
        QCOMPARE(editor.text(), kHead +
                                    "sandbox:\n  image: x\npermissions:\n  network:\n    allow:\n      - github.com\n"
                                    "# trailing note\n");
        QVERIFY(editor.removeNetworkPattern(NetworkList::Allow, QStringLiteral("github.com")).changed());
        QCOMPARE(editor.text(), before);
    }

    void newBlocksUseTheFilesIndentation()
    {
        addThenRemove(kHead + "sandbox:\n    image: x\n    entrypoint:\n    - run\n", QStringLiteral("a.com"),
                      kHead + "sandbox:\n    image: x\n    entrypoint:\n    - run\n"
                              "permissions:\n    network:\n        allow:\n        - a.com\n");
    }

    void addsMissingNetworkInsideExistingPermissions()
    {
        // "permissions:" with nothing under it, then with "{}". Removing the pattern again
        // removes the mappings it leaves empty, so "permissions:" goes too.
        KitEditor empty = KitEditor::fromText(kHead + "permissions:\nsetup: {}\n");
        QVERIFY(empty.addNetworkPattern(NetworkList::Allow, QStringLiteral("a.com")).changed());
        QCOMPARE(empty.text(), kHead + "permissions:\n  network:\n    allow:\n      - a.com\nsetup: {}\n");
        QVERIFY(empty.removeNetworkPattern(NetworkList::Allow, QStringLiteral("a.com")).changed());
        QCOMPARE(empty.text(), kHead + "setup: {}\n");
        KitEditor editor = KitEditor::fromText(kHead + "permissions: {}\n");
        QVERIFY(editor.addNetworkPattern(NetworkList::Allow, QStringLiteral("a.com")).changed());
        QCOMPARE(editor.text(), kHead + "permissions:\n  network:\n    allow:\n      - a.com\n");
    }

    void addsAllowBesideDeny()
    {
        const QByteArray before = kHead + "permissions:\n"
                                          "  network:\n"
                                          "    deny:\n"
                                          "      - pypi.org\n"
                                          "      # notes about the deny list\n"
                                          "\n"
                                          "environment: {}\n";
        addThenRemove(before, QStringLiteral("files.example.org"),
                      kHead + "permissions:\n"
                              "  network:\n"
                              "    deny:\n"
                              "      - pypi.org\n"
                              "      # notes about the deny list\n"
                              "    allow:\n"
                              "      - files.example.org\n"
                              "\n"
                              "environment: {}\n");
        addThenRemove(before, QStringLiteral("evil.example.org"),
                      kHead + "permissions:\n"
                              "  network:\n"
                              "    deny:\n"
                              "      - pypi.org\n"
                              "      - evil.example.org\n"
                              "      # notes about the deny list\n"
                              "\n"
                              "environment: {}\n",
                      NetworkList::Deny);
    }

    void keepsCrlfLineEndings()
    {
        const QByteArray before = "schemaVersion: \"2\"\r\nkind: sandbox\r\nname: demo\r\n"
                                  "permissions:\r\n  network:\r\n    allow:\r\n      - a.com\r\n";
        addThenRemove(before, QStringLiteral("b.com"),
                      "schemaVersion: \"2\"\r\nkind: sandbox\r\nname: demo\r\n"
                      "permissions:\r\n  network:\r\n    allow:\r\n      - a.com\r\n      - b.com\r\n");
        const QByteArray bare = "schemaVersion: \"2\"\r\nkind: sandbox\r\nname: demo\r\n";
        addThenRemove(bare, QStringLiteral("b.com"),
                      bare + "permissions:\r\n  network:\r\n    allow:\r\n      - b.com\r\n");
    }

    void keepsAMissingFinalNewline()
    {
        addThenRemove(kHead + "permissions:\n  network:\n    allow:\n      - a.com", QStringLiteral("b.com"),
                      kHead + "permissions:\n  network:\n    allow:\n      - a.com\n      - b.com");
        addThenRemove(kHead + "name2: x", QStringLiteral("b.com"),
                      kHead + "name2: x\npermissions:\n  network:\n    allow:\n      - b.com");
    }

    void duplicateAddIsReportedAndChangesNothing()
    {
        const QByteArray before = kHead + "permissions:\n  network:\n    allow:\n      - GitHub.com\n";
        KitEditor editor = KitEditor::fromText(before);
        const KitEditResult result = editor.addNetworkPattern(NetworkList::Allow, QStringLiteral("github.com"));
        QCOMPARE(result.status, KitEditResult::Status::Unchanged);
        QCOMPARE(result.message, QStringLiteral("github.com is already in permissions.network.allow"));
        QCOMPARE(editor.text(), before);
        QVERIFY(!editor.isModified());
    }

    void removingAnAbsentEntryIsReportedAndChangesNothing()
    {
        const QByteArray before = kHead + "permissions:\n  network:\n    allow:\n      - a.com\n";
        KitEditor editor = KitEditor::fromText(before);
        const KitEditResult result = editor.removeNetworkPattern(NetworkList::Allow, QStringLiteral("b.com"));
        QCOMPARE(result.status, KitEditResult::Status::Unchanged);
        QCOMPARE(result.message, QStringLiteral("b.com is not in permissions.network.allow"));
        QCOMPARE(editor.removeNetworkPattern(NetworkList::Deny, QStringLiteral("a.com")).status,
                 KitEditResult::Status::Unchanged);
        QCOMPARE(editor.text(), before);
    }

    void removingTheOnlyItemRemovesWhatIsLeftEmpty()
    {
        KitEditor editor = KitEditor::fromText(kHead + "permissions:\n"
                                                       "  network:\n"
                                                       "    allow:\n"
                                                       "      - a.com # the only one\n"
                                                       "    deny:\n"
                                                       "      - b.com\n");
        QVERIFY(editor.removeNetworkPattern(NetworkList::Allow, QStringLiteral("a.com")).changed());
        QCOMPARE(editor.text(), kHead + "permissions:\n  network:\n    deny:\n      - b.com\n");
        QVERIFY(editor.removeNetworkPattern(NetworkList::Deny, QStringLiteral("B.COM")).changed());
        QCOMPARE(editor.text(), kHead);
    }

    void removesExactlyTheItemsLine()
    {
        const QByteArray before = kHead + "permissions:\n"
                                          "  network:\n"
                                          "    allow:\n"
                                          "      - a.com\n"
                                          "      # about b\n"
                                          "      - 'b.com'   # b\n"
                                          "      - c.com\n";
        KitEditor editor = KitEditor::fromText(before);
        QVERIFY(editor.removeNetworkPattern(NetworkList::Allow, QStringLiteral("b.com")).changed());
        QCOMPARE(editor.text(), kHead + "permissions:\n"
                                        "  network:\n"
                                        "    allow:\n"
                                        "      - a.com\n"
                                        "      # about b\n"
                                        "      - c.com\n");
    }

    void environmentVariables()
    {
        const QByteArray before = kHead + "environment:\n"
                                          "  variables:\n"
                                          "    IS_SANDBOX: \"1\"\n"
                                          "    # telemetry off\n"
                                          "    DISABLE_TELEMETRY: '1' # keep\n"
                                          "    PLAIN: value\n";
        KitEditor editor = KitEditor::fromText(before);
        // Replace keeps each value's own quoting.
        QVERIFY(editor.setEnvironmentVariable(QStringLiteral("DISABLE_TELEMETRY"), QStringLiteral("0")).changed());
        QVERIFY(editor.setEnvironmentVariable(QStringLiteral("PLAIN"), QStringLiteral("other value")).changed());
        QCOMPARE(editor.text(), kHead + "environment:\n"
                                        "  variables:\n"
                                        "    IS_SANDBOX: \"1\"\n"
                                        "    # telemetry off\n"
                                        "    DISABLE_TELEMETRY: '0' # keep\n"
                                        "    PLAIN: other value\n");
        // A value that would not read back as text gets quotes even in a plain slot.
        QVERIFY(editor.setEnvironmentVariable(QStringLiteral("PLAIN"), QStringLiteral("true")).changed());
        QVERIFY(editor.text().endsWith("    PLAIN: \"true\"\n"));
        QCOMPARE(editor.setEnvironmentVariable(QStringLiteral("IS_SANDBOX"), QStringLiteral("1")).status,
                 KitEditResult::Status::Unchanged);
        // A new variable is one new line after the last; its siblings are quoted only
        // because their values need it, so it is written plain.
        const QByteArray beforeNew = editor.text();
        QVERIFY(editor.setEnvironmentVariable(QStringLiteral("NEW_VAR"), QStringLiteral("x y")).changed());
        QCOMPARE(*addedLines(beforeNew, editor.text()), QList<QByteArray>{"    NEW_VAR: x y"});
        QCOMPARE(yamlScalar(editor.text(),
                            {QStringLiteral("environment"), QStringLiteral("variables"), QStringLiteral("NEW_VAR")}),
                 std::optional<QString>(QStringLiteral("x y")));
        QVERIFY(editor.removeEnvironmentVariable(QStringLiteral("NEW_VAR")).changed());
        QCOMPARE(editor.text(), beforeNew);
        QVERIFY(editor.removeEnvironmentVariable(QStringLiteral("DISABLE_TELEMETRY")).changed());
        QCOMPARE(editor.text(), kHead + "environment:\n"
                                        "  variables:\n"
                                        "    IS_SANDBOX: \"1\"\n"
                                        "    # telemetry off\n"
                                        "    PLAIN: \"true\"\n");
        QCOMPARE(editor.removeEnvironmentVariable(QStringLiteral("NOPE")).status, KitEditResult::Status::Unchanged);
        QVERIFY(editor.setEnvironmentVariable(QStringLiteral("1BAD"), QStringLiteral("x")).failed());
    }

    void environmentBlockIsAddedAndRemovedWhole()
    {
        const QByteArray before = kHead + "sandbox:\n  image: x\n";
        KitEditor editor = KitEditor::fromText(before);
        QVERIFY(editor.setEnvironmentVariable(QStringLiteral("TOKEN"), QStringLiteral("proxy-managed")).changed());
        QCOMPARE(editor.text(), before + "environment:\n  variables:\n    TOKEN: proxy-managed\n");
        QVERIFY(editor.removeEnvironmentVariable(QStringLiteral("TOKEN")).changed());
        QCOMPARE(editor.text(), before);
        // Siblings quoted out of habit: the new value is quoted too.
        KitEditor quoted = KitEditor::fromText(kHead + "environment:\n  variables:\n    A: \"one\"\n    N: \"1\"\n");
        QVERIFY(quoted.setEnvironmentVariable(QStringLiteral("B"), QStringLiteral("two")).changed());
        QCOMPARE(quoted.text(), kHead + "environment:\n  variables:\n    A: \"one\"\n    N: \"1\"\n    B: \"two\"\n");
    }

    void scalarFieldsKeepTheirQuoting()
    {
        const QByteArray before = kHead + "version: \"1.0.0\" # bump before tagging\n"
                                          "displayName: 'Demo'\n"
                                          "description: A plain description\n"
                                          "sandbox:\n"
                                          "  # the image\n"
                                          "  image: \"docker.io/x:latest\"\n";
        KitEditor editor = KitEditor::fromText(before);
        QVERIFY(editor.setScalar(QStringLiteral("version"), QStringLiteral("1.1.0")).changed());
        QVERIFY(editor.setScalar(QStringLiteral("displayName"), QStringLiteral("Demo's kit")).changed());
        QVERIFY(editor.setScalar(QStringLiteral("description"), QStringLiteral("Another one")).changed());
        QVERIFY(editor.setScalar(QStringLiteral("sandbox.image"), QStringLiteral("docker.io/y:1")).changed());
        QCOMPARE(editor.text(), kHead + "version: \"1.1.0\" # bump before tagging\n"
                                        "displayName: 'Demo''s kit'\n"
                                        "description: Another one\n"
                                        "sandbox:\n"
                                        "  # the image\n"
                                        "  image: \"docker.io/y:1\"\n");
        QVERIFY(editor.setScalar(QStringLiteral("description"), QStringLiteral("Needs: quotes")).changed());
        QVERIFY(editor.text().contains("\ndescription: \"Needs: quotes\"\n"));
        QCOMPARE(editor.setScalar(QStringLiteral("version"), QStringLiteral("1.1.0")).status,
                 KitEditResult::Status::Unchanged);
        QVERIFY(editor.setScalar(QStringLiteral("sandbox"), QStringLiteral("x")).failed());
        const QByteArray beforeNew = editor.text();
        QVERIFY(editor.setScalar(QStringLiteral("sandbox.resources.memory"), QStringLiteral("4g")).changed());
        QCOMPARE(*addedLines(beforeNew, editor.text()), (QList<QByteArray>{"  resources:", "    memory: 4g"}));
    }

    void multiLineValuesStayLiteralBlocks()
    {
        KitEditor editor = KitEditor::fromText(kHead + "agentInstructions:\n  content: |\n    one\n    two\nlast: 1\n");
        QVERIFY(
            editor.setScalar(QStringLiteral("agentInstructions.content"), QStringLiteral("three\n\nfour\n")).changed());
        QCOMPARE(editor.text(), kHead + "agentInstructions:\n  content: |\n    three\n\n    four\nlast: 1\n");
        QVERIFY(editor.setScalar(QStringLiteral("agentInstructions.content"), QStringLiteral("single")).changed());
        QCOMPARE(editor.text(), kHead + "agentInstructions:\n  content: single\nlast: 1\n");
    }

    void refusesWhatItCannotReadOrWrite()
    {
        KitEditor tabs = KitEditor::fromText("permissions:\n\tnetwork:\n");
        const KitEditResult tabResult = tabs.addNetworkPattern(NetworkList::Allow, QStringLiteral("a.com"));
        QVERIFY(tabResult.failed());
        QVERIFY2(tabResult.message.contains(QLatin1String("tab")), qPrintable(tabResult.message));
        QVERIFY2(tabResult.message.contains(QLatin1String("2:")), qPrintable(tabResult.message));

        KitEditor mapping = KitEditor::fromText(kHead + "permissions:\n  network:\n    allow:\n      host: a\n");
        const KitEditResult notAList = mapping.addNetworkPattern(NetworkList::Allow, QStringLiteral("a.com"));
        QVERIFY(notAList.failed());
        QCOMPARE(notAList.message, QStringLiteral("permissions.network.allow is a mapping, not a list"));
        QCOMPARE(mapping.text(), kHead + "permissions:\n  network:\n    allow:\n      host: a\n");

        KitEditor scalar = KitEditor::fromText(kHead + "permissions: none\n");
        QCOMPARE(scalar.addNetworkPattern(NetworkList::Allow, QStringLiteral("a.com")).message,
                 QStringLiteral("permissions is a single value, not a mapping"));
        QVERIFY(KitEditor::fromText(kHead).addNetworkPattern(NetworkList::Allow, QString()).failed());
    }

    void indentlessSequences()
    {
        addThenRemove(kHead + "permissions:\n  network:\n    allow:\n    - a.com\n", QStringLiteral("b.com"),
                      kHead + "permissions:\n  network:\n    allow:\n    - a.com\n    - b.com\n");
        // A new list follows the habit of the file's other lists.
        addThenRemove(
            kHead + "licenses:\n- MIT\npermissions:\n  network:\n    deny:\n    - x.com\n", QStringLiteral("b.com"),
            kHead + "licenses:\n- MIT\npermissions:\n  network:\n    deny:\n    - x.com\n    allow:\n    - b.com\n");
    }
};

QTEST_GUILESS_MAIN(TestKitEditor)
#include "tst_kiteditor.moc"
