// SPDX-License-Identifier: GPL-3.0-or-later
// policy.get/preset/add/update/remove/allow and events.denials/dismiss against the real
// daemon: what they answer, what they write (policy.yaml, the kit's spec.yaml), and what a
// sandbox can reach right after.
#include "SandboxFixture.h"

#include "api/DaemonConnection.h"

using paddock::test::Finished;
using paddock::test::SandboxFixture;
using namespace paddock;

class TestPolicyApi : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void freshPolicyHasNoRules();
    void addUpdateRemoveEditPolicyYaml();
    void presetChanges();
    void allowComputesPatterns_data();
    void allowComputesPatterns();
    void policyTopicAnnouncesChanges();
    void refusalsAreGroupedByHostAndSandbox();
    void dismissHidesUntilRefusedAgain();
    void dismissalSurvivesARestart();
    void removingAnotherSandboxOfTheKitKeepsItsRules();
    void allowForTheSandboxLetsTheNextRequestThrough();
    void allowInTheKitChangesOneLineAndAppliesAtOnce();
    void cliDoesWhatTheWindowDoes();
    void kitAllowAppliesToTheRunningSandboxOnReturn();

private:
    api::Reply call(const QString &method, const QJsonObject &params = {});
    /** `curl` from inside the sandbox; returns the HTTP status. */
    QString fetch(const QString &url);
    QJsonArray denials(const QJsonObject &params = {});
    QJsonObject denialOf(const QString &host);
    QStringList userPatterns();

    static constexpr const char *kName = "net";
    std::unique_ptr<SandboxFixture> m_fixture;
};

api::Reply TestPolicyApi::call(const QString &method, const QJsonObject &params)
{
    api::DaemonConnection connection;
    QString error;
    if (!connection.open(m_fixture->socketPath(), 5000, &error))
        return api::Reply::failure(QStringLiteral("test"), error);
    return connection.call(method, params, 30000);
}

QString TestPolicyApi::fetch(const QString &url)
{
    const Finished exec = m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("curl"),
                                              QStringLiteral("-s"), QStringLiteral("-o"), QStringLiteral("/dev/null"),
                                              QStringLiteral("-w"), QStringLiteral("%{http_code}"), url});
    return exec.out;
}

QJsonArray TestPolicyApi::denials(const QJsonObject &params)
{
    const api::Reply reply = call(QStringLiteral("events.denials"), params);
    return reply.result().value(QLatin1String("denials")).toArray();
}

QJsonObject TestPolicyApi::denialOf(const QString &host)
{
    for (const QJsonValue &value : denials()) {
        if (value.toObject().value(QLatin1String("host")).toString() == host)
            return value.toObject();
    }
    return {};
}

QStringList TestPolicyApi::userPatterns()
{
    QStringList patterns;
    for (const QJsonValue &value :
         call(QStringLiteral("policy.get")).result().value(QLatin1String("rules")).toArray()) {
        const QJsonObject rule = value.toObject();
        if (!rule.value(QLatin1String("readOnly")).toBool())
            patterns << rule.value(QLatin1String("scope")).toString() + QLatin1Char(' ') +
                            rule.value(QLatin1String("pattern")).toString();
    }
    return patterns;
}

void TestPolicyApi::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
    const Finished ca = m_fixture->makeAuthority();
    QVERIFY2(ca.exitCode == 0, qPrintable(ca.err));
    // More names leading to the upstream, for the sandbox to be refused on.
    policy::PolicyStore store(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
    store.load();
    for (const char16_t *name : {u"third.test", u"fourth.test", u"fifth.test", u"sixth.test"})
        QVERIFY(store.setResolveOverride(name, QHostAddress(QStringLiteral("127.0.0.1"))).ok());
}

void TestPolicyApi::cleanupTestCase()
{
    m_fixture.reset();
}

void TestPolicyApi::freshPolicyHasNoRules()
{
    const api::Reply reply = call(QStringLiteral("policy.get"));
    QVERIFY2(!reply.isError(), qPrintable(reply.errorMessage()));
    QCOMPARE(reply.result().value(QLatin1String("preset")).toString(), QStringLiteral("deny-all"));
    QVERIFY(!reply.result().value(QLatin1String("presetDescription")).toString().isEmpty());
    QCOMPARE(reply.result().value(QLatin1String("rules")).toArray().size(), 0);
}

void TestPolicyApi::addUpdateRemoveEditPolicyYaml()
{
    const api::Reply added =
        call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("pypi.org")},
                                            {QStringLiteral("scope"), QStringLiteral("sandbox:x")}});
    QVERIFY2(!added.isError(), qPrintable(added.errorMessage()));
    const QJsonObject rule = added.result().value(QLatin1String("rule")).toObject();
    QCOMPARE(rule.value(QLatin1String("decision")).toString(), QStringLiteral("allow"));
    QCOMPARE(rule.value(QLatin1String("origin")).toString(), QStringLiteral("user"));
    QVERIFY(!rule.value(QLatin1String("created")).toString().isEmpty());
    QCOMPARE(userPatterns(), QStringList{QStringLiteral("sandbox:x pypi.org")});
    QFile file(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("pattern: pypi.org"));

    const api::Reply bad = call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("**")}});
    QCOMPARE(bad.errorCode(), QStringLiteral("invalid-params"));

    const QString id = rule.value(QLatin1String("id")).toString();
    const api::Reply updated =
        call(QStringLiteral("policy.update"), {{QStringLiteral("id"), id},
                                               {QStringLiteral("pattern"), QStringLiteral("*.pypi.org")},
                                               {QStringLiteral("decision"), QStringLiteral("deny")}});
    QVERIFY2(!updated.isError(), qPrintable(updated.errorMessage()));
    QCOMPARE(userPatterns(), QStringList{QStringLiteral("sandbox:x *.pypi.org")});
    const QString newId =
        updated.result().value(QLatin1String("rule")).toObject().value(QLatin1String("id")).toString();
    // A refused edit leaves the rule as it was.
    const api::Reply refused =
        call(QStringLiteral("policy.update"),
             {{QStringLiteral("id"), newId}, {QStringLiteral("pattern"), QStringLiteral("a b")}});
    QVERIFY(refused.isError());
    QCOMPARE(userPatterns(), QStringList{QStringLiteral("sandbox:x *.pypi.org")});

    QVERIFY(!call(QStringLiteral("policy.remove"), {{QStringLiteral("id"), newId}}).isError());
    QCOMPARE(userPatterns(), QStringList());
    QCOMPARE(call(QStringLiteral("policy.remove"), {{QStringLiteral("id"), newId}}).errorCode(),
             QStringLiteral("no-such-rule"));
}

void TestPolicyApi::presetChanges()
{
    QVERIFY(!call(QStringLiteral("policy.preset"), {{QStringLiteral("preset"), QStringLiteral("balanced")}}).isError());
    QCOMPARE(call(QStringLiteral("policy.get")).result().value(QLatin1String("preset")).toString(),
             QStringLiteral("balanced"));
    QVERIFY(call(QStringLiteral("policy.preset"), {{QStringLiteral("preset"), QStringLiteral("open")}}).isError());
    QVERIFY(!call(QStringLiteral("policy.preset"), {{QStringLiteral("preset"), QStringLiteral("deny-all")}}).isError());
}

void TestPolicyApi::allowComputesPatterns_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("expected"); // empty: refused

    QTest::newRow("exact") << "api.example.com" << 443 << "exact"
                           << "api.example.com";
    QTest::newRow("exact, other port") << "api.example.com" << 8080 << "exact"
                                       << "api.example.com:8080";
    QTest::newRow("wildcard") << "api.example.com" << 443 << "wildcard"
                              << "*.example.com";
    QTest::newRow("deep") << "a.b.example.com" << 443 << "deep"
                          << "**.b.example.com";
    QTest::newRow("deep, other port") << "api.example.com" << 8080 << "deep"
                                      << "**.example.com:8080";
    QTest::newRow("hostport") << "api.example.com" << 8443 << "hostport"
                              << "api.example.com:8443";
    QTest::newRow("hostport, 443 is the default") << "api.example.com" << 443 << "hostport"
                                                  << "api.example.com";
    QTest::newRow("anyport") << "api.example.com" << 8443 << "anyport"
                             << "api.example.com:*";
    QTest::newRow("upper case") << "API.Example.COM" << 443 << "exact"
                                << "api.example.com";
    QTest::newRow("registrable domain") << "example.com" << 443 << "wildcard"
                                        << "";
    QTest::newRow("under a two-label suffix") << "shop.co.uk" << 443 << "deep"
                                              << "";
    QTest::newRow("two-label suffix below") << "a.shop.co.uk" << 443 << "wildcard"
                                            << "*.shop.co.uk";
    QTest::newRow("address") << "10.1.2.3" << 443 << "wildcard"
                             << "";
    QTest::newRow("unknown choice") << "api.example.com" << 443 << "everything"
                                    << "";
}

void TestPolicyApi::allowComputesPatterns()
{
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, what);
    QFETCH(QString, expected);
    const api::Reply reply = call(QStringLiteral("policy.allow"), {{QStringLiteral("host"), host},
                                                                   {QStringLiteral("port"), port},
                                                                   {QStringLiteral("where"), QStringLiteral("global")},
                                                                   {QStringLiteral("what"), what}});
    if (expected.isEmpty()) {
        QVERIFY(reply.isError());
        QCOMPARE(reply.errorCode(), QStringLiteral("invalid-params"));
        QVERIFY(!userPatterns().join(QLatin1Char(',')).contains(host.section(QLatin1Char('.'), 1)));
        return;
    }
    QVERIFY2(!reply.isError(), qPrintable(reply.errorMessage()));
    QCOMPARE(reply.result().value(QLatin1String("pattern")).toString(), expected);
    QVERIFY(userPatterns().contains(QStringLiteral("global ") + expected));
    const QString id = reply.result().value(QLatin1String("rule")).toObject().value(QLatin1String("id")).toString();
    QCOMPARE(reply.result().value(QLatin1String("rule")).toObject().value(QLatin1String("origin")).toString(),
             QStringLiteral("approval"));
    QVERIFY(!call(QStringLiteral("policy.remove"), {{QStringLiteral("id"), id}}).isError());
}

void TestPolicyApi::policyTopicAnnouncesChanges()
{
    api::DaemonConnection connection;
    QString error;
    QVERIFY2(connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    QVERIFY(!connection
                 .call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("policy")}}})
                 .isError());
    const api::Reply added =
        call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("crates.io")}});
    QVERIFY(!added.isError());
    const std::optional<api::Event> event = connection.waitForEvent(10000);
    QVERIFY(event);
    QCOMPARE(event->topic, QStringLiteral("policy"));
    QVERIFY(!call(QStringLiteral("policy.remove"),
                  {{QStringLiteral("id"),
                    added.result().value(QLatin1String("rule")).toObject().value(QLatin1String("id"))}})
                 .isError());
}

void TestPolicyApi::refusalsAreGroupedByHostAndSandbox()
{
    const Finished create = m_fixture->paddock({QStringLiteral("create"), QStringLiteral("--kit"), m_fixture->kitDir(),
                                                QStringLiteral("--name"), QLatin1String(kName), m_fixture->workspace(),
                                                QStringLiteral("--"), QStringLiteral("while :; do sleep 1; done")});
    QVERIFY2(create.exitCode == 0, qPrintable(create.err));
    const Finished start = m_fixture->paddock({QStringLiteral("start"), QLatin1String(kName)});
    QVERIFY2(start.exitCode == 0, qPrintable(start.err));

    QCOMPARE(fetch(m_fixture->allowedUrl()), QStringLiteral("200"));
    QCOMPARE(denials().size(), 0);
    QCOMPARE(fetch(m_fixture->otherUrl()), QStringLiteral("403"));
    QCOMPARE(fetch(m_fixture->otherUrl()), QStringLiteral("403"));
    const QString third = QStringLiteral("http://third.test:%1/hello.txt").arg(m_fixture->upstreamPort());
    QCOMPARE(fetch(third), QStringLiteral("403"));

    const QJsonArray listed = denials();
    QCOMPARE(listed.size(), 2);
    // Most recent first.
    QCOMPARE(listed.at(0).toObject().value(QLatin1String("host")).toString(), QStringLiteral("third.test"));
    const QJsonObject other = denialOf(QStringLiteral("other.test"));
    QCOMPARE(other.value(QLatin1String("count")).toInt(), 2);
    QCOMPARE(other.value(QLatin1String("sandbox")).toString(), QLatin1String(kName));
    QCOMPARE(other.value(QLatin1String("kit")).toString(), QStringLiteral("probe"));
    QCOMPARE(other.value(QLatin1String("port")).toInt(), int(m_fixture->upstreamPort()));
    QVERIFY(!other.value(QLatin1String("reason")).toString().isEmpty());
    QVERIFY(!other.value(QLatin1String("rule")).toString().isEmpty());
    QVERIFY(other.value(QLatin1String("firstSeen")).toString() <= other.value(QLatin1String("lastSeen")).toString());
    // Filters: another sandbox has none; a limit keeps the most recent.
    QCOMPARE(denials({{QStringLiteral("sandbox"), QStringLiteral("nobody")}}).size(), 0);
    QCOMPARE(denials({{QStringLiteral("limit"), 1}}).size(), 1);
    QCOMPARE(denials({{QStringLiteral("since"), QStringLiteral("2999-01-01T00:00:00.000Z")}}).size(), 0);
}

void TestPolicyApi::dismissHidesUntilRefusedAgain()
{
    QVERIFY(!call(QStringLiteral("events.dismiss"), {{QStringLiteral("host"), QStringLiteral("other.test")},
                                                     {QStringLiteral("sandbox"), QLatin1String(kName)}})
                 .isError());
    QVERIFY(denialOf(QStringLiteral("other.test")).isEmpty());
    QVERIFY(!denialOf(QStringLiteral("third.test")).isEmpty());
    QCOMPARE(fetch(m_fixture->otherUrl()), QStringLiteral("403"));
    // Back, counting only what came after the dismissal.
    QCOMPARE(denialOf(QStringLiteral("other.test")).value(QLatin1String("count")).toInt(), 1);
    QVERIFY(!call(QStringLiteral("events.dismiss"), {{QStringLiteral("host"), QStringLiteral("other.test")},
                                                     {QStringLiteral("sandbox"), QLatin1String(kName)}})
                 .isError());
}

void TestPolicyApi::dismissalSurvivesARestart()
{
    m_fixture->stopDaemon();
    QVERIFY(m_fixture->startDaemon());
    QVERIFY(denialOf(QStringLiteral("other.test")).isEmpty());
    QVERIFY(!denialOf(QStringLiteral("third.test")).isEmpty());
}

void TestPolicyApi::removingAnotherSandboxOfTheKitKeepsItsRules()
{
    // A second sandbox of the same kit comes and goes: the kit's allowlist still lets the
    // first one through, and the guard still follows it.
    const Finished other =
        m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--rm"), QStringLiteral("--kit"), m_fixture->kitDir(),
                            QStringLiteral("--name"), QStringLiteral("net-other"), m_fixture->workspace(),
                            QStringLiteral("--"), QStringLiteral("true")});
    QVERIFY2(other.exitCode == 0, qPrintable(other.err));
    QCOMPARE(fetch(m_fixture->allowedUrl()), QStringLiteral("200"));
    QCOMPARE(fetch(m_fixture->otherUrl()), QStringLiteral("403"));
}

void TestPolicyApi::allowForTheSandboxLetsTheNextRequestThrough()
{
    const QString third = QStringLiteral("http://third.test:%1/hello.txt").arg(m_fixture->upstreamPort());
    const api::Reply reply =
        call(QStringLiteral("policy.allow"), {{QStringLiteral("host"), QStringLiteral("third.test")},
                                              {QStringLiteral("port"), int(m_fixture->upstreamPort())},
                                              {QStringLiteral("sandbox"), QLatin1String(kName)}});
    QVERIFY2(!reply.isError(), qPrintable(reply.errorMessage()));
    QCOMPARE(reply.result().value(QLatin1String("scope")).toString(), QStringLiteral("sandbox:net"));
    QCOMPARE(reply.result().value(QLatin1String("pattern")).toString(),
             QStringLiteral("third.test:%1").arg(m_fixture->upstreamPort()));
    QCOMPARE(fetch(third), QStringLiteral("200"));
    // For this sandbox only: the global decision is unchanged.
    const Finished check =
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("check"), QStringLiteral("network"),
                            QStringLiteral("third.test:%1").arg(m_fixture->upstreamPort())});
    QCOMPARE(check.exitCode, 1);
    // Needs a sandbox.
    QCOMPARE(
        call(QStringLiteral("policy.allow"), {{QStringLiteral("host"), QStringLiteral("x.example.com")}}).errorCode(),
        QStringLiteral("invalid-params"));
}

void TestPolicyApi::allowInTheKitChangesOneLineAndAppliesAtOnce()
{
    const QString specPath = m_fixture->kitDir() + QStringLiteral("/spec.yaml");
    QFile before(specPath);
    QVERIFY(before.open(QIODevice::ReadOnly));
    const QList<QByteArray> oldLines = before.readAll().split('\n');
    before.close();
    const QString fourth = QStringLiteral("http://fourth.test:%1/hello.txt").arg(m_fixture->upstreamPort());
    QCOMPARE(fetch(fourth), QStringLiteral("403"));

    const api::Reply reply =
        call(QStringLiteral("policy.allow"), {{QStringLiteral("host"), QStringLiteral("fourth.test")},
                                              {QStringLiteral("port"), int(m_fixture->upstreamPort())},
                                              {QStringLiteral("sandbox"), QLatin1String(kName)},
                                              {QStringLiteral("where"), QStringLiteral("kit")}});
    QVERIFY2(!reply.isError(), qPrintable(reply.errorMessage()));
    QCOMPARE(QFileInfo(reply.result().value(QLatin1String("kitFile")).toString()).canonicalFilePath(),
             QFileInfo(specPath).canonicalFilePath());
    QVERIFY(reply.result().value(QLatin1String("changed")).toBool());

    QFile after(specPath);
    QVERIFY(after.open(QIODevice::ReadOnly));
    const QList<QByteArray> newLines = after.readAll().split('\n');
    QCOMPARE(newLines.size(), oldLines.size() + 1);
    QList<QByteArray> added = newLines;
    for (const QByteArray &line : oldLines)
        added.removeOne(line);
    QCOMPARE(added.size(), 1);
    QVERIFY2(added.constFirst().contains(QStringLiteral("fourth.test:%1").arg(m_fixture->upstreamPort()).toUtf8()),
             added.constFirst().constData());

    // Applied at once, with no restart of anything.
    QCOMPARE(fetch(fourth), QStringLiteral("200"));
    // And listed among the rules, as the kit's, read-only here.
    bool listed = false;
    for (const QJsonValue &value :
         call(QStringLiteral("policy.get")).result().value(QLatin1String("rules")).toArray()) {
        const QJsonObject rule = value.toObject();
        if (rule.value(QLatin1String("pattern")).toString().startsWith(QLatin1String("fourth.test"))) {
            listed = true;
            QCOMPARE(rule.value(QLatin1String("scope")).toString(), QStringLiteral("kit:probe"));
            QCOMPARE(rule.value(QLatin1String("origin")).toString(), QStringLiteral("kit"));
            QVERIFY(rule.value(QLatin1String("readOnly")).toBool());
            QVERIFY(rule.value(QLatin1String("source")).toString().endsWith(QLatin1String("/spec.yaml")));
        }
    }
    QVERIFY(listed);
}

void TestPolicyApi::cliDoesWhatTheWindowDoes()
{
    const QString port = QString::number(m_fixture->upstreamPort());
    const QString fifth = QStringLiteral("http://fifth.test:%1/hello.txt").arg(port);
    QCOMPARE(fetch(fifth), QStringLiteral("403"));

    const Finished listed =
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("denials"), QStringLiteral("--json")});
    QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
    QVERIFY(listed.out.contains(QLatin1String("fifth.test")));

    const Finished dismissed =
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("dismiss"), QStringLiteral("fifth.test"),
                            QStringLiteral("--sandbox"), QLatin1String(kName)});
    QVERIFY2(dismissed.exitCode == 0, qPrintable(dismissed.err));
    QVERIFY(denialOf(QStringLiteral("fifth.test")).isEmpty());

    const Finished allowed = m_fixture->paddock(
        {QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("fifth.test"), QStringLiteral("--port"),
         port, QStringLiteral("--sandbox"), QLatin1String(kName), QStringLiteral("--where"), QStringLiteral("kit")});
    QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.err));
    QVERIFY2(allowed.out.contains(QLatin1String("fifth.test:") + port), qPrintable(allowed.out));
    QCOMPARE(fetch(fifth), QStringLiteral("200"));

    const Finished wide = m_fixture->paddock(
        {QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"), QStringLiteral("example.com"),
         QStringLiteral("--where"), QStringLiteral("global"), QStringLiteral("--what"), QStringLiteral("wildcard")});
    QCOMPARE(wide.exitCode, 2);

    const Finished added =
        m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"),
                            QStringLiteral("docs.rs"), QStringLiteral("--scope"), QStringLiteral("kit:probe")});
    QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    // Written by the CLI itself; the daemon reads policy.yaml again when it changes.
    QTRY_VERIFY(userPatterns().contains(QStringLiteral("kit:probe docs.rs")));
    const QString id = added.out.section(QStringLiteral("(rule "), 1).section(QLatin1Char(','), 0, 0);
    const Finished edited = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("edit"), id,
                                                QStringLiteral("--pattern"), QStringLiteral("*.docs.rs")});
    QVERIFY2(edited.exitCode == 0, qPrintable(edited.err + added.out));
    QVERIFY(userPatterns().contains(QStringLiteral("kit:probe *.docs.rs")));
    QVERIFY(!userPatterns().contains(QStringLiteral("kit:probe docs.rs")));
    // The existing form still works as before.
    const Finished plain = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("allow"),
                                               QStringLiteral("network"), QStringLiteral("github.com,pypi.org")});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
}

void TestPolicyApi::kitAllowAppliesToTheRunningSandboxOnReturn()
{
    const QString pattern = QStringLiteral("sixth.test:%1").arg(m_fixture->upstreamPort());
    const QString sixth = QStringLiteral("http://%1/hello.txt").arg(pattern);
    QCOMPARE(fetch(sixth), QStringLiteral("403"));

    // `kit allow` on the kit's folder, as a user edits it: the very next request passes.
    const Finished allowed =
        m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("allow"), m_fixture->kitDir(), pattern});
    QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.err));
    QVERIFY2(allowed.out.startsWith(QStringLiteral("added %1 to permissions.network.allow in ").arg(pattern)),
             qPrintable(allowed.out));
    QCOMPARE(fetch(sixth), QStringLiteral("200"));

    // And `kit deny` wins over it, as soon as it returns.
    const Finished denied =
        m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("deny"), m_fixture->kitDir(), pattern});
    QVERIFY2(denied.exitCode == 0, qPrintable(denied.err));
    QCOMPARE(fetch(sixth), QStringLiteral("403"));
    const Finished undenied = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("deny"), QStringLiteral("--remove"), m_fixture->kitDir(), pattern});
    QVERIFY2(undenied.exitCode == 0, qPrintable(undenied.err));
    QCOMPARE(fetch(sixth), QStringLiteral("200"));
}

QTEST_GUILESS_MAIN(TestPolicyApi)
#include "tst_policy_api.moc"
