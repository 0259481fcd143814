// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock policy` as a user runs it: the real binary on a private policy.yaml and event log.
#include "CliHome.h"
#include "events/EventStore.h"

#include <QDir>
#include <QFile>
#include <QHostInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using paddock::test::CliHome;
using paddock::test::Finished;

namespace {

QJsonObject jsonObject(const Finished &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << error.errorString() << run.out;
    return document.object();
}

QStringList args(const QString &line)
{
    return line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

} // namespace

class TestPolicyCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void initChoosesPreset();
    void lsPresetListsItsRules();
    void allowAndDenyAddRules();
    void invalidPatternChangesNothing();
    void checkShowsRuleAndFailsOnDeny();
    void checkJsonParses();
    void checkCountsTheKitsPermissions();
    void checkRefusesNameLeadingToLoopback();
    void checkTrustsResolveOverride();
    void rmByIdAndByPattern();
    void resolveSetLsRm();
    void logAndExportShowRefusalsThroughProxy();
    void logFollowPrintsNewRefusals();
    void exportReadsTheDaemonPageByPage();
    void brokenPolicyFileIsReportedAndKept();
    void helpForEveryCommand_data();
    void helpForEveryCommand();

private:
    Finished policy(const QString &line) { return m_home.paddock(QStringList{QStringLiteral("policy")} + args(line)); }
    QJsonArray rules()
    {
        return jsonObject(policy(QStringLiteral("ls --json"))).value(QStringLiteral("rules")).toArray();
    }
    QJsonObject ruleWithPattern(const QString &pattern)
    {
        for (const QJsonValue &rule : rules()) {
            if (rule.toObject().value(QStringLiteral("pattern")).toString() == pattern)
                return rule.toObject();
        }
        return {};
    }

    CliHome m_home;
};

void TestPolicyCli::initTestCase()
{
    QVERIFY(QFileInfo(QStringLiteral(PADDOCK_BIN)).isExecutable());
    QVERIFY(m_home.isValid());
}

void TestPolicyCli::initChoosesPreset()
{
    QCOMPARE(jsonObject(policy(QStringLiteral("ls --json"))).value(QStringLiteral("preset")).toString(),
             QStringLiteral("deny-all"));
    const Finished init = policy(QStringLiteral("init balanced"));
    QVERIFY2(init.exitCode == 0, qPrintable(init.err));
    QVERIFY(init.out.contains(QLatin1String("balanced")));
    QCOMPARE(jsonObject(policy(QStringLiteral("ls --json"))).value(QStringLiteral("preset")).toString(),
             QStringLiteral("balanced"));
    QVERIFY(QFile::exists(m_home.policyFile()));

    const Finished bogus = policy(QStringLiteral("init most"));
    QCOMPARE(bogus.exitCode, 2);
    QVERIFY(bogus.err.contains(QLatin1String("'most'")));
    QCOMPARE(jsonObject(policy(QStringLiteral("ls --json"))).value(QStringLiteral("preset")).toString(),
             QStringLiteral("balanced"));
    QCOMPARE(policy(QStringLiteral("init deny-all")).exitCode, 0);
}

void TestPolicyCli::lsPresetListsItsRules()
{
    const QJsonObject balanced = jsonObject(policy(QStringLiteral("ls --preset balanced --json")));
    QVERIFY(balanced.value(QStringLiteral("rules")).toArray().size() > 5);
    const QJsonObject allowAll = jsonObject(policy(QStringLiteral("ls --preset allow-all --json")));
    QCOMPARE(allowAll.value(QStringLiteral("rules"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("pattern"))
                 .toString(),
             QStringLiteral("**"));
    const Finished table = policy(QStringLiteral("ls --preset balanced"));
    QCOMPARE(table.exitCode, 0);
    QVERIFY(table.out.contains(QLatin1String("PATTERN")));
    QCOMPARE(policy(QStringLiteral("ls --preset nope")).exitCode, 2);
}

void TestPolicyCli::allowAndDenyAddRules()
{
    const Finished allow = policy(QStringLiteral("allow network example.com,api.example.org:8443 pypi.org"));
    QVERIFY2(allow.exitCode == 0, qPrintable(allow.err));
    for (const QString &pattern :
         {QStringLiteral("example.com"), QStringLiteral("api.example.org:8443"), QStringLiteral("pypi.org")}) {
        const QJsonObject rule = ruleWithPattern(pattern);
        QVERIFY2(!rule.isEmpty(), qPrintable(pattern));
        QCOMPARE(rule.value(QStringLiteral("decision")).toString(), QStringLiteral("allow"));
        QCOMPARE(rule.value(QStringLiteral("scope")).toString(), QStringLiteral("global"));
        QCOMPARE(rule.value(QStringLiteral("origin")).toString(), QStringLiteral("user"));
        QVERIFY(!rule.value(QStringLiteral("created")).toString().isEmpty());
    }
    const Finished deny = policy(QStringLiteral("deny network evil.example.com --sandbox web"));
    QVERIFY2(deny.exitCode == 0, qPrintable(deny.err));
    const QJsonObject denied = ruleWithPattern(QStringLiteral("evil.example.com"));
    QCOMPARE(denied.value(QStringLiteral("decision")).toString(), QStringLiteral("deny"));
    QCOMPARE(denied.value(QStringLiteral("scope")).toString(), QStringLiteral("sandbox:web"));

    const Finished table = policy(QStringLiteral("ls"));
    QCOMPARE(table.exitCode, 0);
    for (const char *column : {"ID", "SCOPE", "DECISION", "PATTERN", "ORIGIN", "CREATED"})
        QVERIFY(table.out.contains(QLatin1String(column)));
    QVERIFY(table.out.contains(denied.value(QStringLiteral("id")).toString()));
    QVERIFY(policy(QStringLiteral("allow")).exitCode == 2);
    QVERIFY(policy(QStringLiteral("allow files /etc")).exitCode == 2);
}

void TestPolicyCli::invalidPatternChangesNothing()
{
    const int before = int(rules().size());
    const Finished run = policy(QStringLiteral("allow network good.example.net,*.com"));
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QLatin1String("'*.com'")), qPrintable(run.err));
    QCOMPARE(int(rules().size()), before);
    QVERIFY(ruleWithPattern(QStringLiteral("good.example.net")).isEmpty());
    QCOMPARE(policy(QStringLiteral("allow network **")).exitCode, 2);
}

void TestPolicyCli::checkShowsRuleAndFailsOnDeny()
{
    const QString allowId = ruleWithPattern(QStringLiteral("example.com")).value(QStringLiteral("id")).toString();
    const Finished allowed = policy(QStringLiteral("check network example.com"));
    // example.com does not resolve here; the decision by rule stands and is reported.
    QCOMPARE(allowed.exitCode, 0);
    QVERIFY2(allowed.out.contains(QLatin1String("allowed")) && allowed.out.contains(allowId), qPrintable(allowed.out));

    const Finished nothing = policy(QStringLiteral("check network nothing.example:8080"));
    QCOMPARE(nothing.exitCode, 1);
    QVERIFY(nothing.out.contains(QLatin1String("default deny")));
    QVERIFY(nothing.out.contains(QLatin1String("paddock policy allow network nothing.example:8080")));

    const QString denyId = ruleWithPattern(QStringLiteral("evil.example.com")).value(QStringLiteral("id")).toString();
    const Finished denied = policy(QStringLiteral("check network evil.example.com --sandbox web"));
    QCOMPARE(denied.exitCode, 1);
    QVERIFY2(denied.out.contains(denyId), qPrintable(denied.out));
    QVERIFY(denied.out.contains(QLatin1String("paddock policy rm ") + denyId));
    // The sandbox rule does not apply to another sandbox.
    QCOMPARE(policy(QStringLiteral("check network evil.example.com --sandbox other")).exitCode, 1);
    QVERIFY(!policy(QStringLiteral("check network evil.example.com --sandbox other")).out.contains(denyId));
}

void TestPolicyCli::checkJsonParses()
{
    const Finished run = policy(QStringLiteral("check network nothing.example --json"));
    QCOMPARE(run.exitCode, 1);
    const QJsonObject object = jsonObject(run);
    QCOMPARE(object.value(QStringLiteral("allowed")).toBool(true), false);
    QCOMPARE(object.value(QStringLiteral("rule")).toString(), QStringLiteral("default deny"));
    QCOMPARE(object.value(QStringLiteral("port")).toInt(), 443);
    QVERIFY(object.value(QStringLiteral("fix")).toString().contains(QLatin1String("nothing.example")));
}

void TestPolicyCli::checkCountsTheKitsPermissions()
{
    // The kit allows registry.npmjs.org; without the kit nothing does.
    const QString kit = QStringLiteral(PADDOCK_FIXTURES "/kits/published/agentmemory");
    QCOMPARE(policy(QStringLiteral("check network registry.npmjs.org")).exitCode, 1);
    const Finished withKit = policy(QStringLiteral("check network registry.npmjs.org --json --kit ") + kit);
    const QJsonObject object = jsonObject(withKit);
    QVERIFY2(object.value(QStringLiteral("allowed")).toBool(), qPrintable(withKit.out + withKit.err));
    QCOMPARE(withKit.exitCode, 0);
    QCOMPARE(policy(QStringLiteral("check network registry.npmjs.org --kit /nonexistent")).exitCode, 1);
}

void TestPolicyCli::checkRefusesNameLeadingToLoopback()
{
    // Under allow-all, `localhost` is still refused: `**` names no address.
    QCOMPARE(policy(QStringLiteral("init allow-all")).exitCode, 0);
    const Finished run = policy(QStringLiteral("check network localhost:8080"));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains(QLatin1String("rebinding")) && run.out.contains(QLatin1String("127.0.0.1")),
             qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("paddock policy allow network localhost:8080")), qPrintable(run.out));
    QCOMPARE(policy(QStringLiteral("init deny-all")).exitCode, 0);
    // A rule naming localhost opens loopback on its port, which is what it says.
    QCOMPARE(policy(QStringLiteral("allow network localhost:8080")).exitCode, 0);
    QVERIFY2(policy(QStringLiteral("check network localhost:8080")).exitCode == 0,
             qPrintable(policy(QStringLiteral("check network localhost:8080")).out));
    QCOMPARE(policy(QStringLiteral("rm localhost:8080")).exitCode, 0);

    // The same through the system resolver: this machine's own name, when it leads to a
    // loopback or private address.
    const QString self = QHostInfo::localHostName().toLower();
    const QHostInfo info = QHostInfo::fromName(self);
    bool nonPublic = false;
    for (const QHostAddress &address : info.addresses()) {
        nonPublic = nonPublic || address.isLoopback() || address.isLinkLocal();
        for (const char *range : {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"})
            nonPublic = nonPublic || address.isInSubnet(QHostAddress::parseSubnet(QLatin1String(range)));
    }
    if (self.isEmpty() || self.contains(QLatin1Char('.')) || !nonPublic)
        QSKIP("this machine's name does not resolve to a non-public address");
    QCOMPARE(policy(QStringLiteral("allow network ") + self).exitCode, 0);
    const Finished viaDns = policy(QStringLiteral("check network ") + self);
    QCOMPARE(viaDns.exitCode, 1);
    QVERIFY2(viaDns.out.contains(QLatin1String("rebinding")), qPrintable(viaDns.out));
    QCOMPARE(policy(QStringLiteral("rm ") + self).exitCode, 0);
}

void TestPolicyCli::checkTrustsResolveOverride()
{
    // An override is the user's own statement of where a name leads, so it is not rebinding.
    QCOMPARE(policy(QStringLiteral("allow network mirror.test")).exitCode, 0);
    QCOMPARE(policy(QStringLiteral("resolve set mirror.test 127.0.0.1")).exitCode, 0);
    const Finished run = policy(QStringLiteral("check network mirror.test"));
    QVERIFY2(run.exitCode == 0, qPrintable(run.out));
    QCOMPARE(policy(QStringLiteral("resolve rm mirror.test")).exitCode, 0);
    QCOMPARE(policy(QStringLiteral("rm mirror.test")).exitCode, 0);
}

void TestPolicyCli::rmByIdAndByPattern()
{
    const QString id = ruleWithPattern(QStringLiteral("pypi.org")).value(QStringLiteral("id")).toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(policy(QStringLiteral("rm ") + id).exitCode, 0);
    QVERIFY(ruleWithPattern(QStringLiteral("pypi.org")).isEmpty());

    // A sandbox rule is removed from its own scope only.
    QCOMPARE(policy(QStringLiteral("rm evil.example.com")).exitCode, 1);
    QVERIFY(!ruleWithPattern(QStringLiteral("evil.example.com")).isEmpty());
    QCOMPARE(policy(QStringLiteral("rm evil.example.com --sandbox web")).exitCode, 0);
    QVERIFY(ruleWithPattern(QStringLiteral("evil.example.com")).isEmpty());

    const Finished missing = policy(QStringLiteral("rm deadbeef"));
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(missing.err.count(QLatin1Char('\n')), 1); // one plain sentence
}

void TestPolicyCli::resolveSetLsRm()
{
    QCOMPARE(policy(QStringLiteral("resolve set Internal.Test 10.1.2.3")).exitCode, 0);
    QJsonArray list = QJsonDocument::fromJson(policy(QStringLiteral("resolve ls --json")).out.toUtf8()).array();
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.first().toObject().value(QStringLiteral("host")).toString(), QStringLiteral("internal.test"));
    QCOMPARE(list.first().toObject().value(QStringLiteral("address")).toString(), QStringLiteral("10.1.2.3"));
    QVERIFY(policy(QStringLiteral("resolve ls")).out.contains(QLatin1String("10.1.2.3")));

    QCOMPARE(policy(QStringLiteral("resolve set other.test not-an-address")).exitCode, 2);
    QCOMPARE(policy(QStringLiteral("resolve rm internal.test")).exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(policy(QStringLiteral("resolve ls --json")).out.toUtf8()).array().size(), 0);
    QCOMPARE(policy(QStringLiteral("resolve rm internal.test")).exitCode, 1);
}

void TestPolicyCli::logAndExportShowRefusalsThroughProxy()
{
    QProcess serve;
    const QString proxy = m_home.startServe(serve, {QStringLiteral("--sandbox"), QStringLiteral("lab")});
    QVERIFY2(!proxy.isEmpty(), qPrintable(QString::fromUtf8(serve.readAllStandardError())));
    for (int i = 0; i < 3; ++i)
        QVERIFY(m_home.curlVia(proxy, QStringLiteral("http://blocked.test/"))
                    .out.startsWith(QLatin1String("HTTP/1.1 403")));
    QVERIFY(
        m_home.curlVia(proxy, QStringLiteral("http://once.test:8080/")).out.startsWith(QLatin1String("HTTP/1.1 403")));
    // Stopping the proxy writes what it has queued.
    QVERIFY(paddock::test::terminateCleanly(serve));

    const Finished log = policy(QStringLiteral("log"));
    QCOMPARE(log.exitCode, 0);
    QVERIFY(log.out.contains(QLatin1String("Blocked")));
    QVERIFY(log.out.contains(QLatin1String("Allowed")));
    const QStringList lines = log.out.split(QLatin1Char('\n'));
    const auto row = std::find_if(lines.cbegin(), lines.cend(),
                                  [](const QString &line) { return line.contains(QLatin1String("blocked.test:80")); });
    QVERIFY2(row != lines.cend(), qPrintable(log.out));
    QVERIFY(row->contains(QLatin1String("lab")) && row->contains(QLatin1String("default deny")));
    QVERIFY(row->contains(QRegularExpression(QStringLiteral("\\s3\\s"))));

    const QJsonObject json = jsonObject(policy(QStringLiteral("log --json")));
    const QJsonArray blocked = json.value(QStringLiteral("blocked")).toArray();
    QCOMPARE(blocked.size(), 2);
    QJsonObject blockedTest;
    for (const QJsonValue &entry : blocked) {
        if (entry.toObject().value(QStringLiteral("host")).toString() == QLatin1String("blocked.test"))
            blockedTest = entry.toObject();
    }
    QCOMPARE(blockedTest.value(QStringLiteral("count")).toInt(), 3);
    QCOMPARE(blockedTest.value(QStringLiteral("sandbox")).toString(), QStringLiteral("lab"));
    QVERIFY(!blockedTest.value(QStringLiteral("reason")).toString().isEmpty());
    QCOMPARE(jsonObject(policy(QStringLiteral("log lab --json"))).value(QStringLiteral("blocked")).toArray().size(), 2);
    QCOMPARE(
        jsonObject(policy(QStringLiteral("log elsewhere --json"))).value(QStringLiteral("blocked")).toArray().size(),
        0);
    QCOMPARE(
        jsonObject(policy(QStringLiteral("log --json --limit 1"))).value(QStringLiteral("blocked")).toArray().size(),
        1);
    QCOMPARE(policy(QStringLiteral("log --since soon")).exitCode, 2);
    QCOMPARE(
        jsonObject(policy(QStringLiteral("log --json --since 1h"))).value(QStringLiteral("blocked")).toArray().size(),
        2);

    const Finished exported = policy(QStringLiteral("export --jsonl"));
    QCOMPARE(exported.exitCode, 0);
    const QStringList jsonl = exported.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(jsonl.size(), 4);
    for (const QString &line : jsonl) {
        const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
        QCOMPARE(event.value(QStringLiteral("outcome")).toString(), QStringLiteral("denied"));
        QCOMPARE(event.value(QStringLiteral("sandbox")).toString(), QStringLiteral("lab"));
    }
    const QString file = m_home.filePath(QStringLiteral("audit.jsonl"));
    QCOMPARE(m_home
                 .paddock({QStringLiteral("policy"), QStringLiteral("export"), QStringLiteral("--jsonl"),
                           QStringLiteral("-o"), file})
                 .exitCode,
             0);
    QFile written(file);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(written.readAll()), exported.out);
    QCOMPARE(policy(QStringLiteral("export")).exitCode, 2);
}

void TestPolicyCli::logFollowPrintsNewRefusals()
{
    QProcess follow;
    follow.setProcessEnvironment(m_home.environment());
    follow.start(QStringLiteral(PADDOCK_BIN), args(QStringLiteral("policy log --follow --json")));
    QVERIFY(follow.waitForStarted());
    // Refusals are made until one shows up, so it does not matter when --follow started.
    QProcess serve;
    const QString proxy = m_home.startServe(serve, {QStringLiteral("--sandbox"), QStringLiteral("live")});
    QVERIFY(!proxy.isEmpty());
    QByteArray seen;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            m_home.curlVia(proxy, QStringLiteral("http://followed.test/"));
            seen += follow.readAllStandardOutput();
            return seen.contains("followed.test");
        }(),
        30000);
    const QJsonObject event = QJsonDocument::fromJson(seen.split('\n').first()).object();
    QCOMPARE(event.value(QStringLiteral("host")).toString(), QStringLiteral("followed.test"));
    QCOMPARE(event.value(QStringLiteral("sandbox")).toString(), QStringLiteral("live"));
    // Events older than the start of --follow are not printed.
    QVERIFY(!seen.contains("blocked.test"));
    QVERIFY(paddock::test::terminateCleanly(serve));
    QVERIFY(paddock::test::terminateCleanly(follow));
}

void TestPolicyCli::exportReadsTheDaemonPageByPage()
{
    // More refusals than one answer of the daemon carries (each answer is one protocol line of at
    // most 1 MiB): the export reads them page by page, each once, oldest first.
    const QString store =
        m_home.environment().value(QStringLiteral("XDG_STATE_HOME")) + QStringLiteral("/paddock/events.sqlite");
    {
        paddock::events::EventStore events(store);
        QVERIFY2(events.open(), qPrintable(events.errorString()));
        QList<paddock::events::NetworkEvent> batch;
        const QDateTime start = QDateTime::currentDateTimeUtc().addSecs(-600);
        for (int i = 0; i < 3000; ++i) {
            paddock::events::NetworkEvent event;
            event.time = start.addMSecs(i);
            event.sandbox = QStringLiteral("paged");
            event.host = QStringLiteral("page%1.test").arg(i);
            event.port = 443;
            event.protocol = QStringLiteral("connect");
            event.outcome = paddock::events::NetworkEvent::Outcome::Denied;
            event.rule = QStringLiteral("default deny");
            event.reason = QStringLiteral("no rule allows it ") + QString(400, QLatin1Char('x'));
            batch << event;
        }
        QVERIFY2(events.write(batch), qPrintable(events.errorString()));
    }
    const Finished exported =
        m_home.paddock({QStringLiteral("policy"), QStringLiteral("export"), QStringLiteral("--jsonl"),
                        QStringLiteral("--sandbox"), QStringLiteral("paged")});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    // More than one answer could hold.
    QVERIFY2(exported.out.size() > 1024 * 1024,
             qPrintable(QString::number(exported.out.size()) + exported.out.left(600)));
    const QStringList lines = exported.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3000);
    for (int i = 0; i < lines.size(); i += 499)
        QCOMPARE(QJsonDocument::fromJson(lines.at(i).toUtf8()).object().value(QStringLiteral("host")).toString(),
                 QStringLiteral("page%1.test").arg(i));
}

void TestPolicyCli::brokenPolicyFileIsReportedAndKept()
{
    const QByteArray broken = "version: 1\npreset: deny-all\nrules:\n  - decision: perhaps\n    pattern: x.example\n";
    QFile file(m_home.policyFile());
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(broken);
    file.close();

    const Finished ls = policy(QStringLiteral("ls"));
    QCOMPARE(ls.exitCode, 1);
    QVERIFY2(ls.err.contains(QLatin1String("policy.yaml:4:")), qPrintable(ls.err));
    QCOMPARE(policy(QStringLiteral("allow network y.example")).exitCode, 1);
    QCOMPARE(policy(QStringLiteral("init balanced")).exitCode, 1);

    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), broken);
}

void TestPolicyCli::helpForEveryCommand_data()
{
    QTest::addColumn<QString>("command");
    for (const char *command : {"", "init", "ls", "allow", "deny", "rm", "check", "resolve", "resolve set",
                                "resolve rm", "resolve ls", "log", "export"})
        QTest::newRow(*command ? command : "policy") << QString::fromLatin1(command);
}

void TestPolicyCli::helpForEveryCommand()
{
    QFETCH(QString, command);
    const Finished run = policy(command + QStringLiteral(" --help"));
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith(QLatin1String("Usage: paddock policy")));
}

QTEST_GUILESS_MAIN(TestPolicyCli)
#include "tst_policy_cli.moc"
