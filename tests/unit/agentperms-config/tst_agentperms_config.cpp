// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/AgentConfig.h"
#include "agentperms/ConfigEditor.h"
#include "agentperms/ConfigSchema.h"
#include "agentperms/Jsonc.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace paddock::agentperms;

namespace {

const QString kCourse = QStringLiteral(R"({
  // The course's rules: read everything but secrets.
  "permission": {
    "*": "allow",
    "path": {
      "*": "allow",
      "*.env": "deny", // secrets
      "*.env.*": "deny"
    },
    "bash": {
      "*": "ask",
      "rm -rf *": "deny"
    },
    "external_directory": "ask"
  }
}
)");

QList<ConfigProblem> problemsOf(const QString &text)
{
    JsoncError error;
    const std::optional<JsonNode> root = parseJsonc(text, &error);
    if (!root)
        return {{error.line, error.column, {}, error.message}};
    return checkConfig(*root, text);
}

// The lines of @p after that are not in @p before, as a count.
int changedLines(const QString &before, const QString &after)
{
    const QStringList a = before.split(QLatin1Char('\n'));
    const QStringList b = after.split(QLatin1Char('\n'));
    int changed = 0;
    for (const QString &line : b)
        changed += a.contains(line) ? 0 : 1;
    return changed;
}

} // namespace

class TestAgentPermsConfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsCommentsAndPositions()
    {
        JsoncError error;
        const std::optional<JsonNode> root = parseJsonc(kCourse, &error);
        QVERIFY2(root, qPrintable(error.message));
        const PermissionConfig config = configFromJson(*root, kCourse, QStringLiteral("global"));
        QCOMPARE(config.surfaces.size(), 4);
        QCOMPARE(config.universal(), State::Allow);
        const Surface *path = config.surface(QStringLiteral("path"));
        QVERIFY(path && !path->shorthand);
        QCOMPARE(path->rules.size(), 3);
        QCOMPARE(path->rules.at(1).pattern, QStringLiteral("*.env"));
        QCOMPARE(path->rules.at(1).state, State::Deny);
        QCOMPARE(path->rules.at(1).line, 7);
        QVERIFY(config.surface(QStringLiteral("external_directory"))->shorthand);
        QVERIFY(checkConfig(*root, kCourse).isEmpty());
    }

    void refusesWhatTheExtensionRefuses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("words");
        QTest::newRow("trailing comma") << QStringLiteral("{\"permission\": {\"bash\": \"ask\",}}") << 1
                                        << "trailing comma";
        QTest::newRow("unknown key") << QStringLiteral("{\n  \"permissions\": {}\n}") << 2 << "unknown key";
        QTest::newRow("bad state") << QStringLiteral("{\"permission\": {\"bash\": {\"*\": \"maybe\"}}}") << 1
                                   << "not a state";
        QTest::newRow("reason on allow") << QStringLiteral(
                                                "{\"permission\": {\"bash\": {\"x\": {\"action\": \"allow\"}}}}")
                                         << 1 << "action";
        QTest::newRow("long reason") << QStringLiteral("{\"permission\": {\"bash\": {\"x\": {\"action\": \"deny\", "
                                                       "\"reason\": \"%1\"}}}}")
                                            .arg(QString(501, QLatin1Char('r')))
                                     << 1 << "at most 500";
        QTest::newRow("empty pattern") << QStringLiteral("{\"permission\": {\"bash\": {\"\": \"deny\"}}}") << 1
                                       << "empty";
        QTest::newRow("knob type") << QStringLiteral("{\"yoloMode\": \"yes\"}") << 1 << "true or false";
        QTest::newRow("length") << QStringLiteral("{\"toolInputPreviewMaxLength\": 0}") << 1 << "at least 1";
        QTest::newRow("shellTools") << QStringLiteral("{\"shellTools\": {\"x\": {\"workdirArgument\": \"w\"}}}") << 1
                                    << "commandArgument is required";
        QTest::newRow("unclosed comment") << QStringLiteral("{\n/* no end\n}") << 2 << "never closed";
    }
    void refusesWhatTheExtensionRefuses()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, words);
        const QList<ConfigProblem> problems = problemsOf(text);
        QVERIFY(!problems.isEmpty());
        QCOMPARE(problems.first().line, line);
        QVERIFY2(problems.first().message.contains(words), qPrintable(problems.first().message));
    }

    void namesTheFieldOfAProblem()
    {
        const QList<ConfigProblem> problems =
            problemsOf(QStringLiteral("{\"permission\": {\"bash\": {\"rm -rf *\": \"nope\"}}}"));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().field, (QStringList{"permission", "bash", "rm -rf *"}));
        QVERIFY(problems.first().toString().contains(QStringLiteral("permission[\"bash\"][\"rm -rf *\"]")));
    }

    void duplicatesAreWarnings()
    {
        const QList<ConfigProblem> problems =
            problemsOf(QStringLiteral("{\"permission\": {\"bash\": \"ask\", \"bash\": \"deny\"}}"));
        QCOMPARE(problems.size(), 1);
        QVERIFY(problems.first().warning);
        QVERIFY(!hasErrors(problems));
    }

    void hostileTextIsBounded()
    {
        JsoncError error;
        QVERIFY(!parseJsonc(QString(100, QLatin1Char('[')) + QString(100, QLatin1Char(']')), &error));
        QVERIFY(error.message.contains(QLatin1String("deeper")));
        QVERIFY(!parseJsonc(QString(kMaxJsoncChars + 1, QLatin1Char(' ')), &error));
    }

    // The checker knows exactly the keys of the schema Paddock ships.
    void followsTheShippedSchema()
    {
        QFile file(QStringLiteral(PADDOCK_SOURCE_DIR "/resources/agentperms/permissions.schema.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject schema = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(schema.value(QLatin1String("properties")).toObject().keys(), [] {
            QStringList keys = schemaTopLevelKeys();
            keys.sort();
            return keys;
        }());
        const QJsonObject reason =
            schema.value(QLatin1String("$defs")).toObject().value(QLatin1String("denyWithReason")).toObject();
        QCOMPARE(reason.value(QLatin1String("properties"))
                     .toObject()
                     .value(QLatin1String("reason"))
                     .toObject()
                     .value(QLatin1String("maxLength"))
                     .toInt(),
                 500);
        QCOMPARE(QString::fromLatin1(kSchemaVersion), QStringLiteral("20.7.3"));
    }

    void changingAStateRewritesOneValue()
    {
        ConfigEditor editor(kCourse);
        QString error;
        QVERIFY2(editor.setRule(QStringLiteral("bash"), QStringLiteral("rm -rf *"), State::Ask, &error),
                 qPrintable(error));
        QCOMPARE(changedLines(kCourse, editor.text()), 1);
        QVERIFY(editor.text().contains(QLatin1String("\"rm -rf *\": \"ask\"")));
        QVERIFY(editor.text().contains(QLatin1String("// secrets")));
    }

    void addingThenRemovingGivesBackTheBytes()
    {
        ConfigEditor editor(kCourse);
        QString error;
        QVERIFY(editor.setRule(QStringLiteral("path"), QStringLiteral(".env"), State::Allow, &error));
        QCOMPARE(changedLines(kCourse, editor.text()), 2); // the new line, and the comma on the line before
        QVERIFY(editor.text().contains(QLatin1String("\"*.env.*\": \"deny\",\n      \".env\": \"allow\"\n")));
        JsoncError parseError;
        const std::optional<JsonNode> root = parseJsonc(editor.text(), &parseError);
        QVERIFY(root);
        const PermissionConfig config = configFromJson(*root, editor.text(), QStringLiteral("project"));
        QCOMPARE(config.surface(QStringLiteral("path"))->rules.last().pattern, QStringLiteral(".env"));
        QVERIFY(editor.removeRule(QStringLiteral("path"), QStringLiteral(".env"), &error));
        QCOMPARE(editor.text(), kCourse);
    }

    void anInlineCommentStaysOnItsLine()
    {
        const QString text =
            QStringLiteral("{\"permission\": {\n  \"bash\": {\n    \"*\": \"ask\" // careful\n  }\n}}\n");
        ConfigEditor editor(text);
        QString error;
        QVERIFY(editor.setRule(QStringLiteral("bash"), QStringLiteral("git status"), State::Allow, &error));
        QVERIFY2(editor.text().contains(QLatin1String("\"*\": \"ask\", // careful\n    \"git status\": \"allow\"\n")),
                 qPrintable(editor.text()));
    }

    void aShorthandBecomesAMap()
    {
        ConfigEditor editor(kCourse);
        QString error;
        QVERIFY(editor.setRule(QStringLiteral("external_directory"), QStringLiteral("~/.cargo/registry/*"),
                               State::Allow, &error));
        QVERIFY2(editor.text().contains(QLatin1String("\"external_directory\": {\n      \"*\": \"ask\",\n      "
                                                      "\"~/.cargo/registry/*\": \"allow\"\n    }")),
                 qPrintable(editor.text()));
    }

    void aNewFileAndANewSurface()
    {
        ConfigEditor editor;
        QString error;
        QVERIFY(editor.setRule(QStringLiteral("read"), QStringLiteral(".env"), State::Deny, &error));
        QVERIFY(editor.setRule(QStringLiteral("bash"), QStringLiteral("*"), State::Ask, &error));
        QVERIFY(editor.setSurface(QStringLiteral("*"), State::Allow, &error));
        QCOMPARE(editor.text(),
                 QStringLiteral("{\n  \"permission\": {\n    \"read\": {\n      \".env\": \"deny\"\n    },\n"
                                "    \"bash\": {\n      \"*\": \"ask\"\n    },\n    \"*\": \"allow\"\n  }\n}\n"));
        QVERIFY(problemsOf(editor.text()).isEmpty());
    }

    void reorderingSwapsMembersOnly()
    {
        ConfigEditor editor(kCourse);
        QString error;
        QVERIFY(editor.moveRule(QStringLiteral("path"), QStringLiteral("*"), 2, &error));
        QVERIFY2(editor.text().contains(QLatin1String("\"*.env\": \"deny\", // secrets\n      \"*.env.*\": \"deny\",\n"
                                                      "      \"*\": \"allow\"\n    },")),
                 qPrintable(editor.text()));
        QVERIFY(editor.moveRule(QStringLiteral("path"), QStringLiteral("*"), 0, &error));
        QCOMPARE(editor.text(), kCourse);
    }

    void removingTheLastPatternRemovesTheSurface()
    {
        ConfigEditor editor(kCourse);
        QString error;
        QVERIFY(editor.removeSurface(QStringLiteral("external_directory"), &error));
        QVERIFY(editor.text().contains(QLatin1String("\"rm -rf *\": \"deny\"\n    }\n  }")));
        QVERIFY(problemsOf(editor.text()).isEmpty());
        QVERIFY(!editor.removeRule(QStringLiteral("bash"), QStringLiteral("nothing"), &error));
        QVERIFY(error.contains(QLatin1String("no pattern")));
    }

    void aBrokenFileIsNotTouched()
    {
        ConfigEditor editor(QStringLiteral("{\"permission\": {,}}"));
        QString error;
        QVERIFY(!editor.setRule(QStringLiteral("bash"), QStringLiteral("*"), State::Ask, &error));
        QVERIFY(error.contains(QLatin1String("does not parse")));
        QCOMPARE(editor.text(), QStringLiteral("{\"permission\": {,}}"));
    }

    void scopesMergeLikeTheExtension()
    {
        auto read = [](const QString &text, const QString &scope) {
            JsoncError error;
            return configFromJson(*parseJsonc(text, &error), text, scope);
        };
        const PermissionConfig global = read(kCourse, QStringLiteral("global"));
        const PermissionConfig project =
            read(QStringLiteral("{\"permission\": {\"path\": {\"*.env\": \"ask\", \".env\": \"allow\"}, \"bash\": "
                                "\"allow\", \"read\": \"deny\"}}"),
                 QStringLiteral("project"));
        const PermissionConfig merged = mergeConfigs(global, project);
        const Surface *path = merged.surface(QStringLiteral("path"));
        QCOMPARE(path->rules.size(), 4);
        QCOMPARE(path->rules.at(1).state, State::Ask); // kept its place, took the new state
        QCOMPARE(path->rules.at(1).scope, QStringLiteral("project"));
        QCOMPARE(path->rules.last().pattern, QStringLiteral(".env"));
        QVERIFY(merged.surface(QStringLiteral("bash"))->shorthand); // a string over a map wins whole
        QCOMPARE(merged.surfaces.last().name, QStringLiteral("read"));
    }
};

QTEST_GUILESS_MAIN(TestAgentPermsConfig)
#include "tst_agentperms_config.moc"
