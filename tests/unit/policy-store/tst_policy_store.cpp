// SPDX-License-Identifier: GPL-3.0-or-later
// policy.yaml: round trip, atomic writes, hand edits picked up while running, broken files
// reported with their position while the last good policy keeps deciding.
#include "policy/PolicyStore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using paddock::Result;
using namespace paddock::policy;

namespace {

Request request(const QString &host, const QString &sandbox = QStringLiteral("web"))
{
    Request r;
    r.sandbox = sandbox;
    r.kit = QStringLiteral("node");
    r.host = host;
    r.port = 443;
    r.addresses = {QHostAddress(QStringLiteral("203.0.113.7"))};
    return r;
}

/** Replaces the file the way editors and tools do: a new file renamed over the old one. */
void saveAtomically(const QString &path, const QByteArray &contents)
{
    QSaveFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(contents);
    QVERIFY(file.commit());
}

/** Rewrites the file in place from another process (same inode). */
void rewriteFromAnotherProcess(const QString &path, const QByteArray &contents)
{
    QProcess shell;
    shell.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("cat > \"$0\""), path});
    QVERIFY(shell.waitForStarted());
    shell.write(contents);
    shell.closeWriteChannel();
    QVERIFY(shell.waitForFinished());
    QCOMPARE(shell.exitCode(), 0);
}

const QByteArray kAllowExample = "preset: deny-all\n"
                                 "rules:\n"
                                 "  - decision: allow\n"
                                 "    pattern: example.com\n";

} // namespace

class TestPolicyStore : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void missingFileIsDenyAll();
    void defaultPathIsInTheConfigDir();
    void roundTrip();
    void writesAreAtomicAndPrivate();
    void addingTheSameRuleTwiceKeepsOne();
    void removeByIdAndByPattern();
    void resolveOverrides();
    void ruleChangeAppliesToNextDecision();
    void handEditWithSaveFileIsPickedUp();
    void handEditInPlaceByAnotherProcessIsPickedUp();
    void brokenFileKeepsTheLastGoodPolicy();
    void changesAreRefusedWhileTheFileIsBroken();
    void requestRulesRoundTrip();
    void parseErrors_data();
    void parseErrors();

private:
    std::unique_ptr<QTemporaryDir> m_home;
    QString m_path;
};

void TestPolicyStore::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    QVERIFY(m_home->isValid());
    for (const char *variable : {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"})
        qputenv(variable, QFile::encodeName(m_home->filePath(QString::fromLatin1(variable).toLower())));
    m_path = m_home->filePath(QStringLiteral("xdg_config_home/paddock/policy.yaml"));
    QVERIFY(QDir().mkpath(QFileInfo(m_path).absolutePath()));
}

void TestPolicyStore::cleanup()
{
    m_home.reset();
}

void TestPolicyStore::missingFileIsDenyAll()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    QCOMPARE(store.policy().preset, Preset::DenyAll);
    QVERIFY(store.policy().rules.isEmpty());
    QVERIFY(!store.engine().decide(request(QStringLiteral("github.com"))).allowed);
    QVERIFY(!QFile::exists(m_path)); // reading creates nothing but the directory
}

void TestPolicyStore::defaultPathIsInTheConfigDir()
{
    QCOMPARE(PolicyStore::defaultPath(), m_path);
    PolicyStore store;
    QCOMPARE(store.path(), m_path);
}

void TestPolicyStore::roundTrip()
{
    PolicyData written;
    {
        PolicyStore store(m_path);
        QVERIFY(store.load());
        QVERIFY(store.setPreset(Preset::Balanced).ok());
        QVERIFY(store.addRule(Scope::global(), Verdict::Allow, u"Example.com:8080").ok());
        QVERIFY(store.addRule(Scope::sandbox(QStringLiteral("web")), Verdict::Deny, u"*.evil.example").ok());
        QVERIFY(
            store.addRule(Scope::kit(QStringLiteral("node")), Verdict::Allow, u"**.corp.example:*", Origin::Approval)
                .ok());
        QVERIFY(store.addRule(Scope::global(), Verdict::Allow, u"[fd00::/8]:443").ok());
        QVERIFY(store.addRule(Scope::global(), Verdict::Deny, u"**").ok());
        // The same host for one program is another rule, with an id of its own.
        QVERIFY(
            store.addRule(Scope::global(), Verdict::Allow, u"example.com:8080", Origin::User, {}, QStringLiteral("pip"))
                .ok());
        QVERIFY(!store.addRule(Scope::global(), Verdict::Allow, u"example.com", Origin::User, {}, QStringLiteral("a b"))
                     .ok());
        QVERIFY(store.setResolveOverride(u"Test.Example.", QHostAddress(QStringLiteral("127.0.0.1"))).ok());
        written = store.policy();
    }
    QCOMPARE(written.rules.size(), 6);
    QCOMPARE(written.rules[5].program, QStringLiteral("pip"));
    QVERIFY(written.rules[5].id != written.rules[0].id);
    QVERIFY(written.rules[0].created.isValid());

    PolicyStore reread(m_path);
    QVERIFY(reread.load());
    QVERIFY(reread.policy() == written);
    QCOMPARE(reread.policy().rules[1].pattern.toString(), QStringLiteral("*.evil.example"));
    QCOMPARE(reread.policy().rules[2].origin, Origin::Approval);
    QCOMPARE(reread.policy().rules[5].program, QStringLiteral("pip"));
    QCOMPARE(reread.policy().resolveOverrides.value(QStringLiteral("test.example")),
             QHostAddress(QStringLiteral("127.0.0.1")));

    // Ask mode's settings are written only when they differ from the defaults, and read back.
    QVERIFY(!PolicyStore::serialise(written).contains("\nask:"));
    written.ask = AskSettings{true, 5, true};
    QVERIFY(PolicyStore::serialise(written).contains("\nask:"));

    // The text form alone round-trips too.
    const auto parsed = PolicyStore::parse(PolicyStore::serialise(written), QStringLiteral("policy.yaml"));
    QVERIFY(std::holds_alternative<PolicyData>(parsed));
    QVERIFY(std::get<PolicyData>(parsed) == written);
}

void TestPolicyStore::writesAreAtomicAndPrivate()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    for (int i = 0; i < 10; ++i)
        QVERIFY(store.addRule(Scope::global(), Verdict::Allow, QStringLiteral("host%1.example").arg(i)).ok());
    const QDir dir = QFileInfo(m_path).dir();
    QCOMPARE(dir.entryList(QDir::Files | QDir::Hidden | QDir::System), QStringList{QStringLiteral("policy.yaml")});
    struct stat st
    {};
    QCOMPARE(::stat(QFile::encodeName(m_path).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0600u);
}

void TestPolicyStore::addingTheSameRuleTwiceKeepsOne()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    const StoreResult first = store.addRule(Scope::global(), Verdict::Allow, u"example.com");
    const StoreResult second = store.addRule(Scope::global(), Verdict::Allow, u"EXAMPLE.com.:443");
    QVERIFY(first.ok() && second.ok());
    QCOMPARE(second->rule->id, first->rule->id);
    QCOMPARE(store.policy().rules.size(), 1);
    // A refused pattern changes nothing and says why.
    const StoreResult bad = store.addRule(Scope::global(), Verdict::Allow, u"*.com");
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().text().contains(QLatin1String("top-level domain")));
    QCOMPARE(store.policy().rules.size(), 1);
}

void TestPolicyStore::removeByIdAndByPattern()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    const QString globalId = store.addRule(Scope::global(), Verdict::Allow, u"example.com")->rule->id;
    QVERIFY(store.addRule(Scope::sandbox(QStringLiteral("web")), Verdict::Allow, u"example.com").ok());
    QVERIFY(store.addRule(Scope::sandbox(QStringLiteral("web")), Verdict::Allow, u"other.example").ok());

    StoreResult result = store.removeRule(u"Example.COM.", Scope::sandbox(QStringLiteral("web")));
    QVERIFY(result.ok());
    QCOMPARE(result->removed, 1);
    QCOMPARE(store.policy().rules.size(), 2);
    QCOMPARE(store.policy().rules[0].id, globalId);

    QVERIFY(store.removeRule(globalId).ok());
    QCOMPARE(store.policy().rules.size(), 1);
    result = store.removeRule(QStringLiteral("nosuchid"));
    QVERIFY(!result.ok());
    QVERIFY(result.error().text().contains(QLatin1String("nosuchid")));
    QVERIFY(!store.removeRule(u"example.com", Scope::global()).ok());
}

void TestPolicyStore::resolveOverrides()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    QVERIFY(store.setResolveOverride(u"API.Test.", QHostAddress(QStringLiteral("127.0.0.1"))).ok());
    QVERIFY(store.setResolveOverride(u"v6.test", QHostAddress(QStringLiteral("::1"))).ok());
    QVERIFY(!store.setResolveOverride(u"10.0.0.1", QHostAddress(QStringLiteral("127.0.0.1"))).ok());
    QCOMPARE(store.resolveOverrides().keys(), (QStringList{QStringLiteral("api.test"), QStringLiteral("v6.test")}));
    QCOMPARE(store.engine().resolveOverride(u"api.test"), QHostAddress(QStringLiteral("127.0.0.1")));
    QVERIFY(store.removeResolveOverride(u"api.TEST").ok());
    QVERIFY(!store.engine().resolveOverride(u"api.test"));
    QVERIFY(!store.removeResolveOverride(u"api.test").ok());
}

void TestPolicyStore::ruleChangeAppliesToNextDecision()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    QSignalSpy changed(&store, &PolicyStore::policyChanged);
    QVERIFY(!store.engine().decide(request(QStringLiteral("example.com"))).allowed);
    const StoreResult added =
        store.addRule(Scope::sandbox(QStringLiteral("web")), Verdict::Allow, u"example.com", Origin::Approval);
    QVERIFY(added.ok());
    QCOMPARE(changed.count(), 1);
    QVERIFY(store.engine().decide(request(QStringLiteral("example.com"))).allowed);
    QVERIFY(!store.engine().decide(request(QStringLiteral("example.com"), QStringLiteral("db"))).allowed);
    QVERIFY(store.removeRule(added->rule->id).ok());
    QVERIFY(!store.engine().decide(request(QStringLiteral("example.com"))).allowed);
    QVERIFY(store.setPreset(Preset::Balanced).ok());
    QVERIFY(store.engine().decide(request(QStringLiteral("registry.npmjs.org"))).allowed);
}

void TestPolicyStore::handEditWithSaveFileIsPickedUp()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    QSignalSpy changed(&store, &PolicyStore::policyChanged);
    saveAtomically(m_path, kAllowExample);
    QVERIFY(changed.wait(10000));
    QVERIFY(store.engine().decide(request(QStringLiteral("example.com"))).allowed);
    // A rule without id gets the derived one.
    QCOMPARE(store.policy().rules[0].id, ruleIdFor(Scope::global(), Verdict::Allow, store.policy().rules[0].pattern));

    // The file was replaced by a rename; a second replacement is still seen.
    saveAtomically(m_path, "preset: balanced\n");
    QVERIFY(changed.wait(10000));
    QCOMPARE(store.policy().preset, Preset::Balanced);
    QVERIFY(!store.engine().decide(request(QStringLiteral("example.com"))).allowed);
}

void TestPolicyStore::handEditInPlaceByAnotherProcessIsPickedUp()
{
    PolicyStore store(m_path);
    QVERIFY(store.load());
    QVERIFY(store.addRule(Scope::global(), Verdict::Allow, u"first.example").ok());
    QSignalSpy changed(&store, &PolicyStore::policyChanged);
    rewriteFromAnotherProcess(m_path, kAllowExample);
    QVERIFY(changed.wait(10000));
    QVERIFY(store.engine().decide(request(QStringLiteral("example.com"))).allowed);
    QVERIFY(!store.engine().decide(request(QStringLiteral("first.example"))).allowed);
}

void TestPolicyStore::brokenFileKeepsTheLastGoodPolicy()
{
    saveAtomically(m_path, kAllowExample);
    PolicyStore store(m_path);
    QVERIFY(store.load());
    QVERIFY(store.engine().decide(request(QStringLiteral("example.com"))).allowed);

    QSignalSpy failed(&store, &PolicyStore::loadFailed);
    QSignalSpy changed(&store, &PolicyStore::policyChanged);
    saveAtomically(m_path, "preset: deny-all\n"
                           "rules:\n"
                           "  - decision: allow\n"
                           "    pattern: example.com\n"
                           "  - decision: allow\n"
                           "    pattern: https://other.example\n");
    QVERIFY(failed.wait(10000));
    const auto error = failed.first().first().value<PolicyError>();
    QCOMPARE(error.line, 6);
    QCOMPARE(error.column, 14);
    QVERIFY2(error.message.contains(QLatin1String("scheme")), qPrintable(error.message));
    QVERIFY(error.toString().startsWith(m_path + QStringLiteral(":6:14: error: ")));
    QVERIFY(store.lastError());
    QCOMPARE(changed.count(), 0);
    // The previous policy still decides.
    QVERIFY(store.engine().decide(request(QStringLiteral("example.com"))).allowed);

    // A YAML syntax error is reported with its position too.
    saveAtomically(m_path, "preset: deny-all\nrules:\n  - decision: allow\n   pattern: [example.com\n");
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.last().first().value<PolicyError>().line, 4);
    QVERIFY(store.engine().decide(request(QStringLiteral("example.com"))).allowed);

    // Once fixed, the new policy applies and the error is gone.
    saveAtomically(m_path, "preset: balanced\n");
    QVERIFY(changed.wait(10000));
    QVERIFY(!store.lastError());
    QVERIFY(!store.engine().decide(request(QStringLiteral("example.com"))).allowed);
}

void TestPolicyStore::changesAreRefusedWhileTheFileIsBroken()
{
    saveAtomically(m_path, "preset: nonsense\n");
    PolicyStore store(m_path);
    QVERIFY(!store.load());
    QCOMPARE(store.lastError()->line, 1);
    const StoreResult result = store.addRule(Scope::global(), Verdict::Allow, u"example.com");
    QVERIFY(!result.ok());
    QVERIFY2(result.error().text().contains(QLatin1String("fix it")), qPrintable(result.error().text()));
    // The user's file is untouched.
    QFile file(m_path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("preset: nonsense\n"));
}

void TestPolicyStore::parseErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    QTest::newRow("unknown top-level field")
        << QByteArray("preset: balanced\nrulez: []\n") << 2 << 1 << "unknown field \"rulez\"";
    QTest::newRow("unknown rule field") << QByteArray("rules:\n  - decision: allow\n    pattern: a.example\n"
                                                      "    comment: x\n")
                                        << 4 << 5 << "unknown field \"comment\"";
    QTest::newRow("bad preset") << QByteArray("preset: open\n") << 1 << 9 << "deny-all, balanced or allow-all";
    QTest::newRow("bad decision") << QByteArray("rules:\n  - decision: maybe\n    pattern: a.example\n") << 2 << 15
                                  << "allow or deny";
    QTest::newRow("missing pattern") << QByteArray("rules:\n  - decision: allow\n") << 2 << 5 << "no pattern";
    QTest::newRow("bare star allowed by a user")
        << QByteArray("rules:\n  - decision: allow\n    pattern: \"*\"\n") << 3 << 14 << "only in deny lists";
    QTest::newRow("bad scope") << QByteArray("rules:\n  - scope: everyone\n    decision: allow\n    pattern: a.b\n")
                               << 2 << 12 << "global, sandbox:NAME or kit:NAME";
    QTest::newRow("bad time") << QByteArray("rules:\n  - decision: allow\n    pattern: a.b\n    created: soon\n") << 4
                              << 14 << "date and time";
    QTest::newRow("duplicate id") << QByteArray("rules:\n  - {id: x, decision: allow, pattern: a.b}\n"
                                                "  - {id: x, decision: allow, pattern: c.d}\n")
                                  << 3 << 5 << "used twice";
    QTest::newRow("bad override") << QByteArray("resolve:\n  api.test: localhost\n") << 2 << 13
                                  << "not an IPv4 or IPv6 address";
    QTest::newRow("not a mapping") << QByteArray("- a\n- b\n") << 1 << 1 << "expected a mapping";
    QTest::newRow("syntax") << QByteArray("rules: [a\n") << 2 << 1 << "";
    QTest::newRow("version") << QByteArray("version: 2\n") << 1 << 10 << "version 1";
    QTest::newRow("ask timeout") << QByteArray("ask:\n  timeout: 0\n") << 2 << 12 << "from 1 to 3600";
    QTest::newRow("ask unanswered") << QByteArray("ask:\n  all: true\n  unanswered: maybe\n") << 3 << 15
                                    << "deny or allow";
    QTest::newRow("ask field") << QByteArray("ask:\n  wait: 3\n") << 2 << 3 << "unknown field \"wait\" in ask";
    QTest::newRow("program with a space")
        << QByteArray("rules:\n  - decision: allow\n    pattern: a.b\n    program: my tool\n") << 4 << 14
        << "no spaces";
    QTest::newRow("relative program path")
        << QByteArray("rules:\n  - decision: allow\n    pattern: a.b\n    program: bin/pip\n") << 4 << 14
        << "absolute path";
    QTest::newRow("bad method") << QByteArray("rules:\n  - decision: deny\n    pattern: a.b\n    method: \"PO ST\"\n")
                                << 4 << 13 << "not an HTTP method";
    QTest::newRow("connect method") << QByteArray("rules:\n  - decision: deny\n    pattern: a.b\n    method: connect\n")
                                    << 4 << 13 << "CONNECT opens a tunnel";
    QTest::newRow("relative path") << QByteArray("rules:\n  - decision: deny\n    pattern: a.b\n    path: gists\n") << 4
                                   << 11 << "starts with /";
    QTest::newRow("path with query")
        << QByteArray("rules:\n  - decision: allow\n    pattern: a.b\n    method: GET\n    path: /x?y=1\n") << 5 << 11
        << "queries are not matched";
    QTest::newRow("dot segments") << QByteArray("rules:\n  - decision: deny\n    pattern: a.b\n    path: /a/../b\n")
                                  << 4 << 11 << "without . or .. segments";
    QTest::newRow("triple star") << QByteArray("rules:\n  - decision: deny\n    pattern: a.b\n    path: /a/***\n") << 4
                                 << 11 << "not ***";
}

void TestPolicyStore::requestRulesRoundTrip()
{
    PolicyData written;
    {
        PolicyStore store(m_path);
        QVERIFY(store.load());
        const auto gists = RequestMatch::parse(u"post", u"/gists");
        const auto org = RequestMatch::parse(u"GET,HEAD", u"/org/**");
        QVERIFY(gists && org);
        QVERIFY(store.addRule(Scope::global(), Verdict::Deny, u"api.github.com", Origin::User, *gists).ok());
        QVERIFY(store.addRule(Scope::sandbox(QStringLiteral("web")), Verdict::Allow, u"github.com", Origin::User, *org)
                    .ok());
        // The same host without the request part is another rule, with the id it always had.
        QVERIFY(store.addRule(Scope::global(), Verdict::Deny, u"api.github.com").ok());
        written = store.policy();
    }
    QCOMPARE(written.rules.size(), 3);
    QCOMPARE(written.rules[0].request.methods, QStringList{QStringLiteral("POST")});
    QCOMPARE(written.rules[0].request.path, QStringLiteral("/gists"));
    QVERIFY(written.rules[0].id != written.rules[2].id);
    QCOMPARE(written.rules[2].id, ruleIdFor(Scope::global(), Verdict::Deny, written.rules[2].pattern));
    QCOMPARE(written.rules[0].describe(), QStringLiteral("deny api.github.com POST /gists (global, user)"));

    QFile file(m_path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY2(text.contains("method: POST\n") && text.contains("path: /gists\n") &&
                 text.contains("method: GET,HEAD\n") && text.contains("path: /org/**\n"),
             text.constData());

    PolicyStore reread(m_path);
    QVERIFY(reread.load());
    QVERIFY(reread.policy() == written);
    QCOMPARE(reread.policy().rules[1].request.toString(), QStringLiteral("GET,HEAD /org/**"));

    // A rule written by hand without an id gets the one its fields give.
    const auto parsed = PolicyStore::parse("rules:\n  - decision: deny\n    pattern: api.github.com\n"
                                           "    method: POST\n    path: /gists\n",
                                           QStringLiteral("policy.yaml"));
    QVERIFY(std::holds_alternative<PolicyData>(parsed));
    QCOMPARE(std::get<PolicyData>(parsed).rules[0].id, written.rules[0].id);
}

void TestPolicyStore::parseErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const auto parsed = PolicyStore::parse(text, QStringLiteral("policy.yaml"));
    QVERIFY(std::holds_alternative<PolicyError>(parsed));
    const PolicyError error = std::get<PolicyError>(parsed);
    QVERIFY2(error.message.contains(message), qPrintable(error.message));
    QCOMPARE(error.line, line);
    QCOMPARE(error.column, column);
}

QTEST_GUILESS_MAIN(TestPolicyStore)
#include "tst_policy_store.moc"
