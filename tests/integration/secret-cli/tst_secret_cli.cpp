// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock secret set|ls|rm` as a user runs them: the real binary against a real GNOME Keyring
// on a private session bus. The key goes in through stdin or a prompt that does not echo, is
// shown only masked, and is written to no file and printed by no command.
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

const QByteArray kKey = "sk-ant-api03-Vb8qT2mXz5LpR9wK4nJc7HsE1yFd6GaU";
const QByteArray kSandboxKey = "ghp_Q3w8ErT5yU1iO7pA2sD9fG4hJ6kL0zXc";
const QByteArray kTypedKey = "sk-typed-Nn4Bb7Vv2Cc9Xx5Zz1Mm8Ll3Kk6";

/** What `secret ls` shows for @p key: its first and last four characters. */
QString masked(const QByteArray &key)
{
    return QString::fromUtf8(key.left(4)) + QStringLiteral("…") + QString::fromUtf8(key.right(4));
}

QJsonArray parseArray(const CliRun &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError || !document.isArray())
        return QJsonArray{QStringLiteral("not a JSON array: %1").arg(run.outText())};
    return document.array();
}

} // namespace

class TestSecretCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void setFromStdinThenListMasked();
    void keyIsInNoFileAndNoOutput();
    void oneTrailingNewlineIsStripped();
    void sandboxScopedSetListRemove();
    void removeThenListNoLongerShowsIt();
    void removingAnUnknownSecretFails();
    void emptyValueIsRefused();
    void valueIsNeverAnArgument();
    void promptDoesNotEcho();
    void interruptedPromptGivesEchoBack();
    void deadSessionBusSaysWhatToInstall();
    void helpDescribesEachCommand_data();
    void helpDescribesEachCommand();

private:
    QByteArray storedValue(const paddock::secrets::SecretId &id);
    std::unique_ptr<CliHome> m_home;
};

void TestSecretCli::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(paddock::secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(paddock::secrets::test::kUnavailableVariable));
    QVERIFY(QFileInfo(QStringLiteral(PADDOCK_BIN)).isExecutable());
}

void TestSecretCli::init()
{
    m_home = std::make_unique<CliHome>();
    QVERIFY(m_home->isValid());
}

void TestSecretCli::cleanup()
{
    // The keyring outlives a test function: remove what this one stored.
    paddock::secrets::SecretStore store(m_home->configDir() + QStringLiteral("/secrets.yaml"), nullptr);
    for (const paddock::secrets::SecretId &id : store.list())
        store.removeAndWait(id);
    m_home.reset();
}

QByteArray TestSecretCli::storedValue(const paddock::secrets::SecretId &id)
{
    paddock::secrets::SecretStore store(m_home->configDir() + QStringLiteral("/secrets.yaml"), nullptr);
    return store.getAndWait(id).value;
}

void TestSecretCli::setFromStdinThenListMasked()
{
    const CliRun set =
        m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic")}, kKey);
    QVERIFY2(set.exitCode == 0, set.err.constData());
    // stderr is for errors: a success prints nothing there.
    QVERIFY2(set.err.isEmpty(), set.err.constData());
    QCOMPARE(storedValue(paddock::secrets::SecretId::global(QStringLiteral("anthropic"))), kKey);

    const CliRun list = m_home->run({QStringLiteral("secret"), QStringLiteral("ls")});
    QCOMPARE(list.exitCode, 0);
    QVERIFY2(list.outText().contains(QStringLiteral("anthropic")), list.out.constData());
    QVERIFY2(list.outText().contains(QStringLiteral("global")), list.out.constData());
    QVERIFY2(list.outText().contains(masked(kKey)), list.out.constData());

    const CliRun json = m_home->run({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")});
    QCOMPARE(json.exitCode, 0);
    const QJsonArray array = parseArray(json);
    QCOMPARE(array.size(), 1);
    const QJsonObject entry = array.first().toObject();
    QCOMPARE(entry.value(QStringLiteral("service")).toString(), QStringLiteral("anthropic"));
    QCOMPARE(entry.value(QStringLiteral("scope")).toString(), QStringLiteral("global"));
    QCOMPARE(entry.value(QStringLiteral("value")).toString(), masked(kKey));
}

void TestSecretCli::keyIsInNoFileAndNoOutput()
{
    QCOMPARE(m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic")}, kKey).exitCode,
             0);
    QCOMPARE(m_home
                 ->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("--sandbox"),
                        QStringLiteral("web"), QStringLiteral("github")},
                       kSandboxKey)
                 .exitCode,
             0);
    QCOMPARE(m_home->run({QStringLiteral("secret"), QStringLiteral("ls")}).exitCode, 0);
    QCOMPARE(m_home->run({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")}).exitCode, 0);
    // The names are on disk (secrets.yaml), so the search below does look at the right files.
    QVERIFY(!paddock::test::filesContaining(m_home->root(), "anthropic").isEmpty());

    for (const QByteArray &key : {kKey, kSandboxKey}) {
        const QStringList files = paddock::test::filesContaining(m_home->root(), key);
        QVERIFY2(files.isEmpty(), qPrintable(files.join(QLatin1Char(' '))));
        QVERIFY2(!m_home->transcript().contains(key), m_home->transcript().constData());
        // Not even the middle of it.
        QVERIFY(!m_home->transcript().contains(key.mid(4, key.size() - 8)));
    }
}

void TestSecretCli::oneTrailingNewlineIsStripped()
{
    QCOMPARE(
        m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("openai")}, kKey + "\n").exitCode,
        0);
    QCOMPARE(storedValue(paddock::secrets::SecretId::global(QStringLiteral("openai"))), kKey);
}

void TestSecretCli::sandboxScopedSetListRemove()
{
    QCOMPARE(m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("github")}, kKey).exitCode,
             0);
    const CliRun set = m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("--sandbox"),
                                    QStringLiteral("web"), QStringLiteral("github")},
                                   kSandboxKey);
    QVERIFY2(set.exitCode == 0, set.err.constData());
    QCOMPARE(storedValue(paddock::secrets::SecretId::forSandbox(QStringLiteral("web"), QStringLiteral("github"))),
             kSandboxKey);
    QCOMPARE(storedValue(paddock::secrets::SecretId::global(QStringLiteral("github"))), kKey);

    const CliRun list = m_home->run({QStringLiteral("secret"), QStringLiteral("ls")});
    QVERIFY2(list.outText().contains(QStringLiteral("sandbox web")), list.out.constData());
    QVERIFY2(list.outText().contains(masked(kSandboxKey)), list.out.constData());

    const QJsonArray array =
        parseArray(m_home->run({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")}));
    QCOMPARE(array.size(), 2);
    bool sawSandbox = false;
    for (const QJsonValue &value : array) {
        const QJsonObject entry = value.toObject();
        if (entry.value(QStringLiteral("scope")).toString() == QLatin1String("sandbox")) {
            sawSandbox = true;
            QCOMPARE(entry.value(QStringLiteral("sandbox")).toString(), QStringLiteral("web"));
            QCOMPARE(entry.value(QStringLiteral("value")).toString(), masked(kSandboxKey));
        }
    }
    QVERIFY(sawSandbox);

    const CliRun remove = m_home->run({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("--sandbox"),
                                       QStringLiteral("web"), QStringLiteral("github")});
    QVERIFY2(remove.exitCode == 0, remove.err.constData());
    const QJsonArray after =
        parseArray(m_home->run({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")}));
    QCOMPARE(after.size(), 1);
    QCOMPARE(after.first().toObject().value(QStringLiteral("scope")).toString(), QStringLiteral("global"));
    // The global secret of the same service is untouched.
    QCOMPARE(storedValue(paddock::secrets::SecretId::global(QStringLiteral("github"))), kKey);
}

void TestSecretCli::removeThenListNoLongerShowsIt()
{
    QCOMPARE(m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic")}, kKey).exitCode,
             0);
    const CliRun remove = m_home->run({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("anthropic")});
    QVERIFY2(remove.exitCode == 0, remove.err.constData());
    const CliRun list = m_home->run({QStringLiteral("secret"), QStringLiteral("ls")});
    QCOMPARE(list.exitCode, 0);
    QVERIFY2(!list.outText().contains(QStringLiteral("anthropic")), list.out.constData());
    QCOMPARE(parseArray(m_home->run({QStringLiteral("secret"), QStringLiteral("ls"), QStringLiteral("--json")})).size(),
             0);
    QVERIFY(storedValue(paddock::secrets::SecretId::global(QStringLiteral("anthropic"))).isEmpty());
}

void TestSecretCli::removingAnUnknownSecretFails()
{
    const CliRun remove = m_home->run({QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("nothing-here")});
    QCOMPARE(remove.exitCode, 1);
    QVERIFY2(remove.errText().contains(QStringLiteral("nothing-here")), remove.err.constData());
}

void TestSecretCli::emptyValueIsRefused()
{
    for (const QByteArray &input : {QByteArray(), QByteArray("\n")}) {
        const CliRun set =
            m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic")}, input);
        QCOMPARE(set.exitCode, 1);
        QVERIFY2(set.errText().contains(QStringLiteral("empty")), set.err.constData());
    }
    const CliRun list = m_home->run({QStringLiteral("secret"), QStringLiteral("ls")});
    QVERIFY2(!list.outText().contains(QStringLiteral("anthropic")), list.out.constData());
}

void TestSecretCli::valueIsNeverAnArgument()
{
    const CliRun set = m_home->run(
        {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic"), QString::fromLatin1(kKey)});
    QCOMPARE(set.exitCode, 2);
    QVERIFY(storedValue(paddock::secrets::SecretId::global(QStringLiteral("anthropic"))).isEmpty());

    const CliRun help = m_home->run({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.outText().contains(QStringLiteral("never taken as an argument")), help.out.constData());
}

void TestSecretCli::promptDoesNotEcho()
{
    const CliRun typed =
        m_home->runOnTerminal({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("typed")},
                              {{"(not shown): ", kTypedKey + "\n"}});
    QVERIFY2(typed.exitCode == 0, typed.out.constData());
    QVERIFY2(typed.out.contains("Stored typed"), typed.out.constData());
    QVERIFY2(!typed.out.contains(kTypedKey), typed.out.constData());
    QVERIFY(!typed.out.contains(kTypedKey.left(8)));
    QCOMPARE(storedValue(paddock::secrets::SecretId::global(QStringLiteral("typed"))), kTypedKey);

    // An empty line at the prompt is refused and leaves the stored key alone.
    const CliRun empty = m_home->runOnTerminal(
        {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("typed")}, {{"(not shown): ", "\n"}});
    QCOMPARE(empty.exitCode, 1);
    QVERIFY2(empty.out.contains("empty"), empty.out.constData());
    QCOMPARE(storedValue(paddock::secrets::SecretId::global(QStringLiteral("typed"))), kTypedKey);
}

void TestSecretCli::interruptedPromptGivesEchoBack()
{
    // Ctrl-C at the prompt ends the command; the user's terminal must not stay without echo.
    const CliRun interrupted = m_home->runOnTerminal(
        {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("typed")}, {{"(not shown): ", "sk-half\x03"}});
    QCOMPARE(interrupted.signal, SIGINT);
    QVERIFY(interrupted.terminalEchoesAfter);
    QVERIFY(!interrupted.out.contains("sk-half"));
    QVERIFY(storedValue(paddock::secrets::SecretId::global(QStringLiteral("typed"))).isEmpty());

    // And after a normal end too.
    const CliRun typed =
        m_home->runOnTerminal({QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("typed")},
                              {{"(not shown): ", kTypedKey + "\n"}});
    QCOMPARE(typed.exitCode, 0);
    QVERIFY(typed.terminalEchoesAfter);
}

void TestSecretCli::deadSessionBusSaysWhatToInstall()
{
    QTemporaryDir nowhere;
    m_home->environment().insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                                 QStringLiteral("unix:path=") + nowhere.filePath(QStringLiteral("no-bus")));
    const QList<QStringList> commands = {
        {QStringLiteral("secret"), QStringLiteral("ls")},
        {QStringLiteral("secret"), QStringLiteral("rm"), QStringLiteral("anthropic")},
        {QStringLiteral("secret"), QStringLiteral("set"), QStringLiteral("anthropic")},
    };
    for (const QStringList &command : commands) {
        const CliRun run = m_home->run(command, kKey);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.errText().contains(QStringLiteral("no keychain service")), run.err.constData());
        QVERIFY2(run.errText().contains(QStringLiteral("gnome-keyring")), run.err.constData());
    }
    // No plaintext fallback: nothing was written anywhere.
    QVERIFY(paddock::test::filesContaining(m_home->root(), kKey).isEmpty());
}

void TestSecretCli::helpDescribesEachCommand_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("secret") << QStringList{QStringLiteral("secret")} << QStringLiteral("keychain");
    QTest::newRow("set") << QStringList{QStringLiteral("secret"), QStringLiteral("set")} << QStringLiteral("stdin");
    QTest::newRow("ls") << QStringList{QStringLiteral("secret"), QStringLiteral("ls")} << QStringLiteral("--json");
    QTest::newRow("rm") << QStringList{QStringLiteral("secret"), QStringLiteral("rm")} << QStringLiteral("--sandbox");
}

void TestSecretCli::helpDescribesEachCommand()
{
    QFETCH(QStringList, command);
    QFETCH(QString, mentions);
    const CliRun help = m_home->run(command + QStringList{QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.outText().contains(mentions), help.out.constData());
}

PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestSecretCli, QCoreApplication)

#include "tst_secret_cli.moc"
