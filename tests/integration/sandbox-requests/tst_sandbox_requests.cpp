// SPDX-License-Identifier: GPL-3.0-or-later
// What each plain-HTTP request did, and rules that name a method and a path: curl inside a
// real sandbox, the real paddockd and CLI, a local upstream the test names lead to.
#include "BusyCores.h"
#include "SandboxFixture.h"

#include "api/DaemonConnection.h"

#include <QtTest>

#include <memory>
#include <vector>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class SandboxRequestsTest : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "requests";
    static constexpr const char *kSecret = "s3cr3t-query-token";
    std::unique_ptr<SandboxFixture> m_fixture;

    QString port() const { return QString::number(m_fixture->upstreamPort()); }

    /** Runs @p script in the sandbox; its standard output, trimmed. */
    QString inSandbox(const QString &script)
    {
        const Finished run = m_fixture->paddock(
            {QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("sh"), QStringLiteral("-c"), script});
        return run.out.trimmed() + run.err.trimmed();
    }
    /** curl from the sandbox: "STATUS" and, with @p body, the body after it. */
    QString curl(const QString &method, const QString &url, bool body = false)
    {
        return inSandbox(
            QStringLiteral("curl -s -S -X %1 %2 -w '%{http_code}' http://%3")
                .arg(method, body ? QStringLiteral("-o /dev/stderr") : QStringLiteral("-o /dev/null"), url));
    }
    QString ruleId(const Finished &added)
    {
        static const QRegularExpression rule(QStringLiteral("\\(rule ([0-9a-f-]+),"));
        return rule.match(added.out).captured(1);
    }
    /** The request records of the sandbox, newest first, once at least @p count are stored. */
    QJsonArray records(int count)
    {
        QJsonArray found;
        [[maybe_unused]] const bool enough = QTest::qWaitFor(
            [&] {
                const Finished log =
                    m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--requests"),
                                        QLatin1String(kName), QStringLiteral("--json")});
                found = QJsonDocument::fromJson(log.out.toUtf8()).object().value(QLatin1String("requests")).toArray();
                return found.size() >= count;
            },
            10000);
        return found;
    }

private slots:
    void initTestCase()
    {
        m_fixture = std::make_unique<SandboxFixture>();
        QVERIFY2(m_fixture->setUp(), "the fixture could not start");
        const Finished authority = m_fixture->makeAuthority();
        QVERIFY2(authority.exitCode == 0, qPrintable(authority.err));
        const Finished mapped = m_fixture->mapToUpstream(
            {QStringLiteral("rules.test"), QStringLiteral("limited.test"), QStringLiteral("verbs.test")});
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        const Finished run = m_fixture->runDetached(QLatin1String(kName));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog()));
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void methodPathDenyRefusesPostWhileGetPasses()
    {
        const QString host = QStringLiteral("rules.test:") + port();
        QCOMPARE(
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"), host})
                .exitCode,
            0);
        const Finished denied =
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"), host,
                                QStringLiteral("--method"), QStringLiteral("post"), QStringLiteral("--path"),
                                QStringLiteral("/hello.txt")});
        QVERIFY2(denied.exitCode == 0, qPrintable(denied.err));
        QVERIFY2(denied.out.contains(QStringLiteral("POST /hello.txt")), qPrintable(denied.out));
        const QString id = ruleId(denied);
        QVERIFY(!id.isEmpty());

        const QString url = host + QStringLiteral("/hello.txt");
        QCOMPARE(curl(QStringLiteral("GET"), url + QStringLiteral("?token=") + QLatin1String(kSecret)),
                 QStringLiteral("200"));
        const QString refused = curl(QStringLiteral("POST"), url, true);
        QVERIFY2(refused.startsWith(QStringLiteral("403")), qPrintable(refused));
        QVERIFY2(refused.contains(QStringLiteral("Rule: ") + id), qPrintable(refused));
        QVERIFY2(refused.contains(QStringLiteral("To allow it: paddock policy rm ") + id), qPrintable(refused));
        // Another path is not the rule's: the upstream answers (its server does not take POST).
        QCOMPARE(curl(QStringLiteral("POST"), host + QStringLiteral("/other")), QStringLiteral("501"));
        // A path spelled differently is the same path.
        QCOMPARE(curl(QStringLiteral("POST"), host + QStringLiteral("/./x/../hello%2etxt")), QStringLiteral("403"));

        const Finished listed = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("ls")});
        QVERIFY2(listed.out.contains(QStringLiteral("rules.test:") + port() + QStringLiteral(" POST /hello.txt")),
                 qPrintable(listed.out));
        QVERIFY2(listed.out.contains(QStringLiteral("does not open the whole tunnel")), qPrintable(listed.out));
    }

    void recordsShowWhatEachRequestDid()
    {
        const QJsonArray found = records(4);
        QVERIFY2(found.size() >= 4, qPrintable(QJsonDocument(found).toJson()));
        QJsonObject get, post;
        for (const QJsonValue &value : found) {
            const QJsonObject record = value.toObject();
            if (record.value(QLatin1String("method")) == QStringLiteral("GET") && get.isEmpty())
                get = record;
            if (record.value(QLatin1String("method")) == QStringLiteral("POST") &&
                record.value(QLatin1String("path")) == QStringLiteral("/hello.txt"))
                post = record;
        }
        QCOMPARE(get.value(QLatin1String("path")).toString(), QStringLiteral("/hello.txt?") + QChar(0x2026));
        QCOMPARE(get.value(QLatin1String("status")).toInt(), 200);
        QCOMPARE(get.value(QLatin1String("host")).toString(), QStringLiteral("rules.test"));
        QCOMPARE(get.value(QLatin1String("protocol")).toString(), QStringLiteral("http"));
        QCOMPARE(get.value(QLatin1String("outcome")).toString(), QStringLiteral("allowed"));
        QVERIFY(get.value(QLatin1String("bytesUp")).toDouble() > 0);
        QVERIFY(get.value(QLatin1String("bytesDown")).toDouble() > double(qstrlen("hello from the upstream\n")));
        QVERIFY(get.value(QLatin1String("durationMs")).toDouble() >= 0);
        QCOMPARE(post.value(QLatin1String("status")).toInt(), 403);
        QCOMPARE(post.value(QLatin1String("outcome")).toString(), QStringLiteral("denied"));
        QCOMPARE(post.value(QLatin1String("bytesUp")).toDouble(), 0.0);
        QCOMPARE(get.value(QLatin1String("program")).toString(), QStringLiteral("curl"));
        QCOMPARE(post.value(QLatin1String("program")).toString(), QStringLiteral("curl"));

        const Finished table = m_fixture->paddock(
            {QStringLiteral("policy"), QStringLiteral("log"), QStringLiteral("--requests"), QLatin1String(kName)});
        QVERIFY2(table.out.contains(QStringLiteral("rules.test:") + port() + QStringLiteral("/hello.txt?")),
                 qPrintable(table.out));
        QVERIFY2(table.out.contains(QStringLiteral("PROGRAM")) && table.out.contains(QStringLiteral("  curl  ")),
                 qPrintable(table.out));
        // The query is never stored: not in the log, not in the database.
        QVERIFY(!table.out.contains(QLatin1String(kSecret)));
        QFile database(m_fixture->path(QStringLiteral("state/paddock/events.sqlite")));
        QVERIFY(database.open(QIODevice::ReadOnly));
        QVERIFY(!database.readAll().contains(kSecret));
    }

    void recordsAreStreamedLive()
    {
        paddock::api::DaemonConnection connection;
        QString error;
        QVERIFY2(connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
        QVERIFY(!connection.call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{"requests"}}})
                     .isError());
        QCOMPARE(curl(QStringLiteral("GET"), QStringLiteral("rules.test:%1/hello.txt?key=%2").arg(port(), kSecret)),
                 QStringLiteral("200"));
        const std::optional<paddock::api::Event> event = connection.waitForEvent(10000);
        QVERIFY(event);
        QCOMPARE(event->topic, QStringLiteral("requests"));
        QCOMPARE(event->data.value(QLatin1String("method")).toString(), QStringLiteral("GET"));
        QCOMPARE(event->data.value(QLatin1String("status")).toInt(), 200);
        QVERIFY(!QJsonDocument(event->data).toJson().contains(kSecret));

        // What the window reads for a sandbox's requests, filtered by host.
        const paddock::api::Reply listed = connection.call(
            QStringLiteral("events.requests"),
            {{QStringLiteral("sandbox"), QLatin1String(kName)}, {QStringLiteral("host"), QStringLiteral("rules.test")}},
            10000);
        QVERIFY2(!listed.isError(), qPrintable(listed.errorMessage()));
        const QJsonArray requests = listed.result().value(QLatin1String("requests")).toArray();
        QVERIFY(requests.size() >= 5);
        QCOMPARE(requests.first().toObject().value(QLatin1String("status")).toInt(), 200); // newest first
        for (const QJsonValue &record : requests)
            QCOMPARE(record.toObject().value(QLatin1String("host")).toString(), QStringLiteral("rules.test"));
        QVERIFY(!QJsonDocument(requests).toJson().contains(kSecret));
    }

    void allowLimitedToAPathOpensOnlyThatPath()
    {
        const QString host = QStringLiteral("limited.test:") + port();
        const Finished allowed = m_fixture->paddock(
            {QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"), host,
             QStringLiteral("--method"), QStringLiteral("GET"), QStringLiteral("--path"), QStringLiteral("/hello*")});
        QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.err));
        QCOMPARE(curl(QStringLiteral("GET"), host + QStringLiteral("/hello.txt")), QStringLiteral("200"));
        const QString post = curl(QStringLiteral("POST"), host + QStringLiteral("/hello.txt"), true);
        QVERIFY2(post.startsWith(QStringLiteral("403")), qPrintable(post));
        QVERIFY2(post.contains(QStringLiteral("--method POST --path '/hello.txt'")), qPrintable(post));
        QCOMPARE(curl(QStringLiteral("GET"), host + QStringLiteral("/elsewhere")), QStringLiteral("403"));
        // A tunnel Paddock does not look into is refused, not opened whole.
        const QString tunnel = inSandbox(
            QStringLiteral("curl -s -S --proxytunnel -o /dev/null -w '%{http_code}' http://%1/hello.txt").arg(host));
        QVERIFY2(tunnel.contains(QStringLiteral("403")), qPrintable(tunnel));
    }

    void editingARuleKeepsItsMethodAndPath()
    {
        const Finished added = m_fixture->paddock(
            {QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"), QStringLiteral("edit.test"),
             QStringLiteral("--method"), QStringLiteral("GET"), QStringLiteral("--path"), QStringLiteral("/docs")});
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
        const Finished edited = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("edit"), ruleId(added),
                                                    QStringLiteral("--pattern"), QStringLiteral("edit2.test")});
        QVERIFY2(edited.exitCode == 0, qPrintable(edited.err));
        // Not widened to the whole host.
        const Finished listed = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("ls")});
        QVERIFY2(listed.out.contains(QStringLiteral("edit2.test GET /docs")), qPrintable(listed.out));
    }

    void malformedValuesAreRefused()
    {
        const Finished badMethod =
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"),
                                QStringLiteral("x.test"), QStringLiteral("--method"), QStringLiteral("PO ST")});
        QCOMPARE(badMethod.exitCode, 2);
        QVERIFY2(badMethod.err.contains(QStringLiteral("not an HTTP method")), qPrintable(badMethod.err));
        const Finished badPath =
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"),
                                QStringLiteral("x.test"), QStringLiteral("--path"), QStringLiteral("gists")});
        QCOMPARE(badPath.exitCode, 2);
        QVERIFY2(badPath.err.contains(QStringLiteral("starts with /")), qPrintable(badPath.err));
    }

    void everyRuleVerbIsInForceWhenItReturns()
    {
        // Each command's change is the daemon's to write and apply: the very next request sees
        // it, on a machine kept busy meanwhile (two shells spinning on its two cores).
        const paddock::test::BusyCores load;
        const QString host = QStringLiteral("verbs.test:") + port();
        const QString url = host + QStringLiteral("/hello.txt");
        const auto policy = [this](const QStringList &arguments) {
            return m_fixture->paddock(QStringList{QStringLiteral("policy")} + arguments);
        };
        QCOMPARE(curl(QStringLiteral("GET"), url), QStringLiteral("403"));
        const Finished allowed = policy({QStringLiteral("allow"), QStringLiteral("network"), host});
        QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.err));
        QCOMPARE(curl(QStringLiteral("GET"), url), QStringLiteral("200"));
        const Finished denied = policy({QStringLiteral("deny"), QStringLiteral("network"), host,
                                        QStringLiteral("--method"), QStringLiteral("GET")});
        QVERIFY2(denied.exitCode == 0, qPrintable(denied.err));
        QCOMPARE(curl(QStringLiteral("GET"), url), QStringLiteral("403"));
        QVERIFY2(policy({QStringLiteral("rm"), ruleId(denied)}).exitCode == 0, "the deny rule was not removed");
        QCOMPARE(curl(QStringLiteral("GET"), url), QStringLiteral("200"));
        QVERIFY2(policy({QStringLiteral("rm"), host}).exitCode == 0, "the allow rule was not removed by pattern");
        QCOMPARE(curl(QStringLiteral("GET"), url), QStringLiteral("403"));
        // One writer: the daemon wrote each change (its log names the rules), not the command line.
        const QString log = m_fixture->daemonLog();
        QVERIFY2(log.contains(QStringLiteral("added rule ") + ruleId(allowed)) &&
                     log.contains(QStringLiteral("added rule ") + ruleId(denied)) &&
                     log.contains(QStringLiteral("removed 1 rules: ") + host),
                 qPrintable(log.right(3000)));
    }

    void resolveOverrideIsInForceWhenItReturns()
    {
        // `policy resolve set|rm` are the daemon's to write and apply: the very next request
        // from the running sandbox goes where the override says.
        const paddock::test::BusyCores load;
        const QString host = QStringLiteral("late.test:") + port();
        const QString url = host + QStringLiteral("/hello.txt");
        const auto policy = [this](const QStringList &arguments) {
            return m_fixture->paddock(QStringList{QStringLiteral("policy")} + arguments);
        };
        QVERIFY(policy({QStringLiteral("allow"), QStringLiteral("network"), host}).exitCode == 0);
        const auto resolve = [&](const QString &address) {
            return policy({QStringLiteral("resolve"), QStringLiteral("set"), QStringLiteral("late.test"), address});
        };
        // Nothing listens on 127.0.0.2: the proxy cannot connect there.
        const Finished nowhere = resolve(QStringLiteral("127.0.0.2"));
        QVERIFY2(nowhere.exitCode == 0, qPrintable(nowhere.err));
        QVERIFY(curl(QStringLiteral("GET"), url) != QLatin1String("200"));
        const Finished upstream = resolve(QStringLiteral("127.0.0.1"));
        QVERIFY2(upstream.exitCode == 0, qPrintable(upstream.err));
        QCOMPARE(curl(QStringLiteral("GET"), url), QStringLiteral("200"));
        const Finished removed = policy({QStringLiteral("resolve"), QStringLiteral("rm"), QStringLiteral("late.test")});
        QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
        QVERIFY(curl(QStringLiteral("GET"), url) != QLatin1String("200"));
        QVERIFY(policy({QStringLiteral("rm"), host}).exitCode == 0);
        const QString log = m_fixture->daemonLog();
        QVERIFY2(log.contains(QStringLiteral("resolve override late.test -> 127.0.0.1")) &&
                     log.contains(QStringLiteral("resolve override removed: late.test")),
                 qPrintable(log.right(3000)));
    }
};

QTEST_GUILESS_MAIN(SandboxRequestsTest)
#include "tst_sandbox_requests.moc"
