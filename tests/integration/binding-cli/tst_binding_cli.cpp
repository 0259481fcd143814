// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock binding approve|revoke|ls|check` and the interactive approval, run as a user runs
// them: the real binary, a copy of a published kit with credentials, credentials.yaml in a
// throwaway config directory and a real GNOME Keyring for the secrets `check` looks for.
#include "CliHome.h"
#include "KeyringSession.h"
#include "TestFiles.h"

#include "secrets/SecretStore.h"

#include "Needs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using paddock::test::CliHome;
using paddock::test::CliRun;

namespace {

const QByteArray kKey = "sk-ant-api03-Hy6Tg3Rf8Ed1Ws4Qa7Zx2Cv5Bn9MjK";

// anthropic (required, api.anthropic.com), github (optional, api.github.com and github.com)
// and workos (OAuth only).
const QString kFixture = QStringLiteral(PADDOCK_FIXTURES "/kits/published/sample-agent-v2");

const QByteArray kAnthropicInject = "        - domain: api.anthropic.com\n"
                                    "          header: x-api-key\n"
                                    "          format: \"%s\"\n";

/** service -> domains, from `binding ls --json`. */
QMap<QString, QStringList> bindingsOf(const CliRun &run)
{
    QMap<QString, QStringList> result;
    const QJsonDocument document = QJsonDocument::fromJson(run.out);
    if (!document.isArray()) {
        result.insert(QStringLiteral("not JSON"), {run.outText()});
        return result;
    }
    for (const QJsonValue &value : document.array()) {
        QStringList domains;
        for (const QJsonValue &domain : value[QStringLiteral("domains")].toArray())
            domains << domain.toString();
        result.insert(value[QStringLiteral("service")].toString(), domains);
    }
    return result;
}

} // namespace

class TestBindingCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void approveListRevoke();
    void approveAllTakesEveryInjectedCredential();
    void approveRefusesWhatTheKitDoesNotHave();
    void checkFailsUntilSecretAndBindingExist();
    void checkNamesADomainAddedToTheKit();
    void checkJsonParses();
    void interactiveApproveAll();
    void interactiveNoApprovesNothing();
    void interactiveReviewEach();
    void interactiveWithoutTerminalNeverAsks();
    void helpDescribesEachCommand_data();
    void helpDescribesEachCommand();

private:
    CliRun binding(const QStringList &arguments, const QByteArray &input = QByteArray());
    QMap<QString, QStringList> listed();
    bool editKit(const QByteArray &before, const QByteArray &after);

    std::unique_ptr<CliHome> m_home;
    QString m_kit;
};

void TestBindingCli::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    QVERIFY(QFileInfo(QStringLiteral(PADDOCK_BIN)).isExecutable());
}

void TestBindingCli::init()
{
    m_home = std::make_unique<CliHome>();
    QVERIFY(m_home->isValid());
    m_kit = m_home->root() + QStringLiteral("/kits/sample agent");
    QVERIFY(paddock::test::copyFiles(kFixture, m_kit));
}

void TestBindingCli::cleanup()
{
    paddock::secrets::SecretStore store(m_home->configDir() + QStringLiteral("/secrets.yaml"), nullptr);
    for (const paddock::secrets::SecretId &id : store.list())
        store.removeAndWait(id);
    m_home.reset();
}

CliRun TestBindingCli::binding(const QStringList &arguments, const QByteArray &input)
{
    return m_home->run(QStringList{QStringLiteral("binding")} + arguments, input);
}

QMap<QString, QStringList> TestBindingCli::listed()
{
    return bindingsOf(binding({QStringLiteral("ls"), QStringLiteral("--json")}));
}

bool TestBindingCli::editKit(const QByteArray &before, const QByteArray &after)
{
    QFile file(m_kit + QStringLiteral("/spec.yaml"));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    QByteArray text = file.readAll();
    file.close();
    if (text.count(before) != 1)
        return false;
    text.replace(before, after);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

void TestBindingCli::approveListRevoke()
{
    const CliRun approve =
        binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("anthropic")});
    QVERIFY2(approve.exitCode == 0, approve.err.constData());
    QVERIFY2(approve.outText().contains(QStringLiteral("api.anthropic.com")), approve.out.constData());
    QVERIFY2(approve.err.isEmpty(), approve.err.constData());

    QMap<QString, QStringList> expected{{QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}}};
    QCOMPARE(listed(), expected);
    const CliRun text = binding({QStringLiteral("ls")});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.outText().contains(QStringLiteral("anthropic")) &&
                 text.outText().contains(QStringLiteral("api.anthropic.com")),
             text.out.constData());

    // The file has the shape sbx reads.
    QFile file(m_home->configDir() + QStringLiteral("/credentials.yaml"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray yaml = file.readAll();
    QVERIFY2(yaml.contains("bindings:") && yaml.contains("apiKey:") && yaml.contains("domains:"), yaml.constData());

    const CliRun revoke = binding({QStringLiteral("revoke"), QStringLiteral("anthropic")});
    QVERIFY2(revoke.exitCode == 0, revoke.err.constData());
    QVERIFY(listed().isEmpty());
    const CliRun again = binding({QStringLiteral("revoke"), QStringLiteral("anthropic")});
    QCOMPARE(again.exitCode, 1);
    QVERIFY2(again.errText().contains(QStringLiteral("anthropic")), again.err.constData());
}

void TestBindingCli::approveAllTakesEveryInjectedCredential()
{
    const CliRun approve =
        binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("--all")});
    QVERIFY2(approve.exitCode == 0, approve.err.constData());
    const QMap<QString, QStringList> expected{
        {QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}},
        {QStringLiteral("github"), {QStringLiteral("api.github.com"), QStringLiteral("github.com")}},
    };
    QCOMPARE(listed(), expected);
}

void TestBindingCli::approveRefusesWhatTheKitDoesNotHave()
{
    const CliRun unknown =
        binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("openai")});
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.errText().contains(QStringLiteral("openai")), unknown.err.constData());
    QCOMPARE(binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit}).exitCode, 2);
    QCOMPARE(binding({QStringLiteral("approve"), QStringLiteral("anthropic")}).exitCode, 2);
    const CliRun missingKit = binding({QStringLiteral("approve"), QStringLiteral("--kit"),
                                       m_home->root() + QStringLiteral("/no-kit"), QStringLiteral("--all")});
    QCOMPARE(missingKit.exitCode, 1);
    QVERIFY(listed().isEmpty());
}

void TestBindingCli::checkFailsUntilSecretAndBindingExist()
{
    const QString secretFix = QStringLiteral("paddock secret set anthropic");
    const QString approveFix = QStringLiteral("paddock binding approve --kit '%1' anthropic").arg(m_kit);

    CliRun check = binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit});
    QCOMPARE(check.exitCode, 1);
    QVERIFY2(check.outText().contains(secretFix), check.out.constData());
    QVERIFY2(check.outText().contains(approveFix), check.out.constData());
    QVERIFY2(check.outText().contains(QStringLiteral("anthropic (required)")), check.out.constData());
    QVERIFY2(check.outText().contains(QStringLiteral("github (optional)")), check.out.constData());

    QCOMPARE(binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("anthropic")}).exitCode,
             0);
    check = binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit});
    QCOMPARE(check.exitCode, 1);
    QVERIFY2(check.outText().contains(secretFix), check.out.constData());
    QVERIFY2(!check.outText().contains(approveFix), check.out.constData());

    QCOMPARE(m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic")}, kKey).exitCode,
             0);
    check = binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit});
    QVERIFY2(check.exitCode == 0, check.all().constData());
    QVERIFY2(!check.outText().contains(secretFix), check.out.constData());
    // The optional github credential is still reported with its fixes, without failing.
    QVERIFY2(check.outText().contains(QStringLiteral("paddock secret set github")), check.out.constData());

    // Without the binding again, check fails again.
    QCOMPARE(binding({QStringLiteral("revoke"), QStringLiteral("anthropic")}).exitCode, 0);
    QCOMPARE(binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit}).exitCode, 1);
    QVERIFY(!m_home->transcript().contains(kKey));
}

void TestBindingCli::checkNamesADomainAddedToTheKit()
{
    QCOMPARE(m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic")}, kKey).exitCode,
             0);
    QCOMPARE(binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("anthropic")}).exitCode,
             0);
    QCOMPARE(binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit}).exitCode, 0);

    QVERIFY(editKit(kAnthropicInject, kAnthropicInject + "        - domain: api.eu.anthropic.com\n"
                                                         "          header: x-api-key\n"
                                                         "          format: \"%s\"\n"));
    CliRun check = binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit});
    QCOMPARE(check.exitCode, 1);
    QVERIFY2(check.outText().contains(QStringLiteral("not approved for api.eu.anthropic.com")), check.out.constData());
    QVERIFY2(check.outText().contains(QStringLiteral("paddock binding approve --kit")), check.out.constData());

    QCOMPARE(binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("anthropic")}).exitCode,
             0);
    check = binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit});
    QVERIFY2(check.exitCode == 0, check.out.constData());
    QCOMPARE(listed().value(QStringLiteral("anthropic")),
             (QStringList{QStringLiteral("api.anthropic.com"), QStringLiteral("api.eu.anthropic.com")}));
}

void TestBindingCli::checkJsonParses()
{
    const CliRun check = binding({QStringLiteral("check"), QStringLiteral("--kit"), m_kit, QStringLiteral("--json")});
    QCOMPARE(check.exitCode, 1);
    const QJsonDocument document = QJsonDocument::fromJson(check.out);
    QVERIFY2(document.isObject(), check.out.constData());
    QCOMPARE(document[QStringLiteral("ready")].toBool(true), false);
    const QJsonArray credentials = document[QStringLiteral("credentials")].toArray();
    QCOMPARE(credentials.size(), 3);
    const QJsonObject anthropic = credentials.at(0).toObject();
    QCOMPARE(anthropic[QStringLiteral("service")].toString(), QStringLiteral("anthropic"));
    QCOMPARE(anthropic[QStringLiteral("required")].toBool(), true);
    QCOMPARE(anthropic[QStringLiteral("secret")].toBool(true), false);
    QCOMPARE(anthropic[QStringLiteral("fixes")].toArray().size(), 2);
    QCOMPARE(credentials.at(2).toObject()[QStringLiteral("kind")].toString(), QStringLiteral("oauth"));
}

void TestBindingCli::interactiveApproveAll()
{
    // A wildcard domain is worth a warning before anyone says yes.
    QVERIFY(editKit("        - domain: github.com\n", "        - domain: \"*.example.com\"\n"));
    const CliRun run = m_home->runOnTerminal({QStringLiteral("binding"), QStringLiteral("approve"),
                                              QStringLiteral("--kit"), m_kit, QStringLiteral("--interactive")},
                                             {{"[N]o: ", "A\n"}});
    QVERIFY2(run.exitCode == 0, run.out.constData());
    QVERIFY2(run.out.contains("Anthropic API credentials"), run.out.constData());
    QVERIFY2(run.out.contains("api.anthropic.com"), run.out.constData());
    QVERIFY2(run.out.contains("warning: *.example.com"), run.out.constData());
    const QMap<QString, QStringList> expected{
        {QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}},
        {QStringLiteral("github"), {QStringLiteral("api.github.com"), QStringLiteral("*.example.com")}},
    };
    QCOMPARE(listed(), expected);

    // Everything is approved now: nothing is asked.
    const CliRun again = m_home->runOnTerminal({QStringLiteral("binding"), QStringLiteral("approve"),
                                                QStringLiteral("--kit"), m_kit, QStringLiteral("--interactive")},
                                               {});
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(!again.out.contains("[N]o"), again.out.constData());
}

void TestBindingCli::interactiveNoApprovesNothing()
{
    const CliRun run = m_home->runOnTerminal({QStringLiteral("binding"), QStringLiteral("approve"),
                                              QStringLiteral("--kit"), m_kit, QStringLiteral("--interactive")},
                                             {{"[N]o: ", "n\n"}});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains("nothing was approved"), run.out.constData());
    QVERIFY(listed().isEmpty());
}

void TestBindingCli::interactiveReviewEach()
{
    const CliRun run = m_home->runOnTerminal({QStringLiteral("binding"), QStringLiteral("approve"),
                                              QStringLiteral("--kit"), m_kit, QStringLiteral("--interactive")},
                                             {{"[N]o: ", "maybe\n"},
                                              {"[N]o: ", "R\n"},
                                              {"Approve anthropic for api.anthropic.com? [y/N]: ", "y\n"},
                                              {"Approve github for api.github.com, github.com? [y/N]: ", "n\n"}});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains("github not approved"), run.out.constData());
    const QMap<QString, QStringList> expected{{QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}}};
    QCOMPARE(listed(), expected);
}

void TestBindingCli::interactiveWithoutTerminalNeverAsks()
{
    const CliRun run =
        binding({QStringLiteral("approve"), QStringLiteral("--kit"), m_kit, QStringLiteral("--interactive")}, "A\n");
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(!run.all().contains("[A]pprove"), run.all().constData());
    QVERIFY2(run.errText().contains(QStringLiteral("needs approval")), run.err.constData());
    QVERIFY2(run.errText().contains(QStringLiteral("--all")), run.err.constData());
    QVERIFY(listed().isEmpty());
}

void TestBindingCli::helpDescribesEachCommand_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("binding") << QStringList{QStringLiteral("binding")} << QStringLiteral("credentials.yaml");
    QTest::newRow("approve") << QStringList{QStringLiteral("binding"), QStringLiteral("approve")}
                             << QStringLiteral("--interactive");
    QTest::newRow("revoke") << QStringList{QStringLiteral("binding"), QStringLiteral("revoke")}
                            << QStringLiteral("SERVICE");
    QTest::newRow("ls") << QStringList{QStringLiteral("binding"), QStringLiteral("ls")} << QStringLiteral("--json");
    QTest::newRow("check") << QStringList{QStringLiteral("binding"), QStringLiteral("check")}
                           << QStringLiteral("required");
}

void TestBindingCli::helpDescribesEachCommand()
{
    QFETCH(QStringList, command);
    QFETCH(QString, mentions);
    const CliRun help = m_home->run(command + QStringList{QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.outText().contains(mentions), help.out.constData());
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestBindingCli, QCoreApplication)

#include "tst_binding_cli.moc"
