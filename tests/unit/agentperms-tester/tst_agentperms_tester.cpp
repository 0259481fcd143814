// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/AgentConfig.h"
#include "agentperms/RuleTester.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace paddock::agentperms;

namespace {

PermissionConfig configOf(const QString &text, const QString &scope = QStringLiteral("global"))
{
    JsoncError error;
    const std::optional<JsonNode> root = parseJsonc(text, &error);
    return root ? configFromJson(*root, text, scope) : PermissionConfig{};
}

QJsonObject documentedCases()
{
    QFile file(QStringLiteral(PADDOCK_FIXTURES "/agentperms/documented-cases.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

const TestContext kContext{QStringLiteral("/home/agent"), QStringLiteral("/work/project")};

} // namespace

class TestAgentPermsTester : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void wildcards_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("matches");
        QTest::newRow("star crosses slashes") << "src/*"
                                              << "src/deep/nested/a.ts" << true;
        QTest::newRow("anchored") << "*.env"
                                  << ".env.local" << false;
        QTest::newRow("question mark") << "file?.txt"
                                       << "file1.txt" << true;
        QTest::newRow("question mark is one") << "file?.txt"
                                              << "file12.txt" << false;
        QTest::newRow("trailing space star, bare") << "git *"
                                                   << "git" << true;
        QTest::newRow("trailing space star, args") << "git *"
                                                   << "git log -1" << true;
        QTest::newRow("not a prefix") << "git *"
                                      << "gitk" << false;
        QTest::newRow("home") << "~/.ssh/*"
                              << "/home/agent/.ssh/id_rsa" << true;
        QTest::newRow("$HOME") << "$HOME/.ssh/*"
                               << "/home/agent/.ssh/config" << true;
        QTest::newRow("bare directory") << "~/.cargo/registry/*"
                                        << "/home/agent/.cargo/registry" << false;
        QTest::newRow("regex characters are literal") << "a+b(c).txt"
                                                      << "a+b(c).txt" << true;
        QTest::newRow("case sensitive") << "*.env"
                                        << ".ENV" << false;
    }
    void wildcards()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, value);
        QFETCH(bool, matches);
        QCOMPARE(wildcardMatches(pattern, value, QStringLiteral("/home/agent")), matches);
    }

    // Every documented case: the first layer that stops the call, and the final answer.
    void documentedCases_data()
    {
        QTest::addColumn<QJsonObject>("testCase");
        const QJsonArray cases = ::documentedCases().value(QLatin1String("cases")).toArray();
        QVERIFY(cases.size() >= 30);
        for (const QJsonValue &value : cases) {
            const QJsonObject c = value.toObject();
            const QString name = c.value(QLatin1String("tool")).toString() + QLatin1String(": ") +
                                 c.value(QLatin1String("value")).toString();
            QTest::newRow(qPrintable(name)) << c;
        }
    }
    void documentedCases()
    {
        QFETCH(QJsonObject, testCase);
        const QJsonDocument configDocument(::documentedCases().value(QLatin1String("config")).toObject());
        const PermissionConfig config = configOf(QString::fromUtf8(configDocument.toJson()));
        const TestResult result = testCall(
            config,
            {testCase.value(QLatin1String("tool")).toString(), testCase.value(QLatin1String("value")).toString()},
            kContext);
        const QString expect = testCase.value(QLatin1String("expect")).toString();
        QCOMPARE(result.firstStop ? stateName(result.firstStop->state) : QStringLiteral("allow"), expect);
        QCOMPARE(stateName(result.state), testCase.value(QLatin1String("final")).toString(expect));
        QVERIFY(result.certain);
        if (testCase.contains(QLatin1String("layer"))) {
            QVERIFY(result.firstStop);
            QCOMPARE(result.firstStop->layer, testCase.value(QLatin1String("layer")).toString());
            QCOMPARE(result.firstStop->pattern, testCase.value(QLatin1String("pattern")).toString());
        }
    }

    void lastMatchWins()
    {
        const PermissionConfig wrongOrder =
            configOf(QStringLiteral(R"({"permission": {"*": "allow", "path": {"*.env": "deny", "*": "allow"}}})"));
        QCOMPARE(testCall(wrongOrder, {QStringLiteral("read"), QStringLiteral(".env")}, kContext).state, State::Allow);
        const PermissionConfig rightOrder =
            configOf(QStringLiteral(R"({"permission": {"*": "allow", "path": {"*": "allow", "*.env": "deny"}}})"));
        const TestResult result = testCall(rightOrder, {QStringLiteral("read"), QStringLiteral(".env")}, kContext);
        QCOMPARE(result.state, State::Deny);
        QCOMPARE(result.decidedBy->ruleText(), QStringLiteral("path \"*.env\" (global, line 1)"));
    }

    void theUniversalFallbackAndTheBuiltInAsk()
    {
        const TestResult fallback =
            testCall(configOf(QStringLiteral(R"({"permission": {"*": "deny", "read": "allow"}})")),
                     {QStringLiteral("mcp"), QStringLiteral("server:tool")}, kContext);
        QCOMPARE(fallback.state, State::Deny);
        QVERIFY(fallback.decidedBy->fallback);
        const TestResult builtIn =
            testCall(PermissionConfig{}, {QStringLiteral("skill"), QStringLiteral("x")}, kContext);
        QCOMPARE(builtIn.state, State::Ask);
        QCOMPARE(builtIn.decidedBy->scope, QStringLiteral("default"));
    }

    void aToolDeniedEverywhereIsHidden()
    {
        const TestResult result = testCall(configOf(QStringLiteral(R"({"permission": {"grep": "deny"}})")),
                                           {QStringLiteral("grep"), QStringLiteral("src")}, kContext);
        QCOMPARE(result.state, State::Deny);
        QVERIFY(result.notes.join(QLatin1Char(' ')).contains(QLatin1String("hides")));
    }

    void saysWhereTheExtensionParsesFurther_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("chain") << "git status && rm -rf build";
        QTest::newRow("pipe") << "cat a | sh";
        QTest::newRow("substitution") << "echo $(rm -rf foo)";
        QTest::newRow("backticks") << "echo `id`";
        QTest::newRow("subshell") << "(cd x; make)";
        QTest::newRow("redirection") << "echo secret > .env";
    }
    void saysWhereTheExtensionParsesFurther()
    {
        QFETCH(QString, command);
        const TestResult result = testCall(configOf(QStringLiteral(R"({"permission": {"bash": {"*": "allow"}}})")),
                                           {QStringLiteral("bash"), command}, kContext);
        QVERIFY(!result.certain);
        QVERIFY(result.notes.join(QLatin1Char(' ')).contains(QLatin1String("splits")));
    }

    void wrappersAreFlooredToAsk()
    {
        const PermissionConfig config =
            configOf(QStringLiteral(R"({"permission": {"bash": {"*": "allow", "sudo rm *": "deny"}}})"));
        for (const QString &command : {QStringLiteral("sudo apt-get update"), QStringLiteral("sh -c 'curl x'"),
                                       QStringLiteral("find . -exec rm {} +"), QStringLiteral("xargs rm")})
            QCOMPARE(testCall(config, {QStringLiteral("bash"), command}, kContext).state, State::Ask);
        QCOMPARE(testCall(config, {QStringLiteral("bash"), QStringLiteral("sudo rm -rf /")}, kContext).state,
                 State::Deny);
        QCOMPARE(testCall(config, {QStringLiteral("bash"), QStringLiteral("find . -name x")}, kContext).state,
                 State::Allow);
    }

    void mcpDiscoveryFollowsAnAllow()
    {
        const PermissionConfig config =
            configOf(QStringLiteral(R"({"permission": {"*": "ask", "mcp": {"myServer:*": "allow"}}})"));
        QCOMPARE(testCall(config, {QStringLiteral("mcp"), QStringLiteral("mcp_list")}, kContext).state, State::Allow);
        QCOMPARE(testCall(config, {QStringLiteral("mcp"), QStringLiteral("other:x")}, kContext).state, State::Ask);
    }

    void theProjectScopeWins()
    {
        const PermissionConfig global =
            configOf(QStringLiteral(R"({"permission": {"*": "allow", "path": {"*": "allow", "*.env": "deny"}}})"));
        const PermissionConfig project = configOf(
            QStringLiteral("{\n\"permission\": {\"path\": {\".env\": \"allow\"}}}"), QStringLiteral("project"));
        const TestResult result =
            testCall(mergeConfigs(global, project), {QStringLiteral("read"), QStringLiteral(".env")}, kContext);
        QCOMPARE(result.state, State::Allow);
        QCOMPARE(result.layers.first().scope, QStringLiteral("project"));
        QCOMPARE(result.layers.first().line, 2);
    }

    void readsQueries()
    {
        std::optional<TestQuery> q = TestQuery::parse(QStringLiteral("bash: rm -rf game"));
        QVERIFY(q);
        QCOMPARE(q->surface, QStringLiteral("bash"));
        QCOMPARE(q->value, QStringLiteral("rm -rf game"));
        q = TestQuery::parse(QStringLiteral("external_directory: ~/.ssh/id_rsa"));
        QCOMPARE(q->surface, QStringLiteral("external_directory"));
        QCOMPARE(q->value, QStringLiteral("~/.ssh/id_rsa"));
        q = TestQuery::parse(QStringLiteral("read .env"));
        QCOMPARE(q->value, QStringLiteral(".env"));
        QVERIFY(!TestQuery::parse(QStringLiteral("   ")));
    }
};

QTEST_GUILESS_MAIN(TestAgentPermsTester)
#include "tst_agentperms_tester.moc"
