// SPDX-License-Identifier: GPL-3.0-or-later
// Ask mode through the CLI and the daemon: curl inside a sandbox asks for a host no rule
// covers, the connection waits, and `paddock policy answer` (or nobody, until the timeout)
// decides on that same connection. Each function uses hosts of its own, so each runs alone.
#include "SandboxFixture.h"

#include <QtTest>

#include <memory>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

class SandboxAskTest : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "asker";
    std::unique_ptr<SandboxFixture> m_fixture;
    QByteArray m_policyBefore;

    QString port() const { return QString::number(m_fixture->upstreamPort()); }

    /** `paddock exec NAME sh -c SCRIPT`, left running: the test answers while it waits. */
    std::unique_ptr<QProcess> startInSandbox(const QString &script)
    {
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(m_fixture->environment());
        process->setWorkingDirectory(m_fixture->workspace());
        process->start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("sh"),
                                                     QStringLiteral("-c"), script});
        // Started before anything is asked of it: its state is the program's, not QProcess's start-up.
        process->waitForStarted();
        process->closeWriteChannel();
        return process;
    }
    /** curl for http://HOST:PORT/hello.txt, printing "STATUS CONNECTIONS". */
    QString curl(const QString &host, const QString &extra = {}) const
    {
        return QStringLiteral("curl -s -S %1 -w '%{http_code} %{num_connects}\\n' -o /dev/null http://%2:%3/hello.txt")
            .arg(extra, host, port());
    }
    static QString finish(QProcess &process)
    {
        if (!process.waitForFinished(60000))
            return QStringLiteral("(still running)");
        return QString::fromUtf8(process.readAllStandardOutput()).trimmed() +
               QString::fromUtf8(process.readAllStandardError()).trimmed();
    }

    QJsonArray asks()
    {
        const Finished listed =
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("ask"), QStringLiteral("--json")});
        return listed.exitCode == 0 ? QJsonDocument::fromJson(listed.out.toUtf8()).array() : QJsonArray();
    }
    /** The ASK of @p host once @p waiting connections wait under it; empty if that never happens. */
    QJsonObject waitForAsk(const QString &host, int waiting = 1)
    {
        QJsonObject found;
        [[maybe_unused]] const bool seen = QTest::qWaitFor(
            [&] {
                for (const QJsonValue &value : asks()) {
                    const QJsonObject ask = value.toObject();
                    if (ask.value(QLatin1String("host")).toString() == host &&
                        ask.value(QLatin1String("waiting")).toInt() >= waiting) {
                        found = ask;
                        return true;
                    }
                }
                return false;
            },
            30000);
        return found;
    }
    bool asked(const QString &host)
    {
        for (const QJsonValue &value : asks()) {
            if (value.toObject().value(QLatin1String("host")).toString() == host)
                return true;
        }
        return false;
    }
    Finished answer(const QJsonObject &ask, const QStringList &how)
    {
        return m_fixture->paddock(
            QStringList{QStringLiteral("policy"), QStringLiteral("answer"), ask.value(QLatin1String("id")).toString()} +
            how);
    }
    QList<QJsonObject> rulesFor(const QString &patternStart)
    {
        const Finished listed =
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("ls"), QStringLiteral("--json")});
        QList<QJsonObject> found;
        const QJsonDocument document = QJsonDocument::fromJson(listed.out.toUtf8());
        const QJsonArray rules =
            document.isArray() ? document.array() : document.object().value(QLatin1String("rules")).toArray();
        for (const QJsonValue &rule : rules) {
            if (rule.toObject().value(QLatin1String("pattern")).toString().startsWith(patternStart))
                found << rule.toObject();
        }
        return found;
    }
    bool setAskMode(bool on)
    {
        return m_fixture
                   ->paddock(
                       {QStringLiteral("ask"), QLatin1String(kName), on ? QStringLiteral("on") : QStringLiteral("off")})
                   .exitCode == 0;
    }

private slots:
    void initTestCase()
    {
        m_fixture = std::make_unique<SandboxFixture>();
        QVERIFY2(m_fixture->setUp(), "the fixture could not start");
        const Finished authority = m_fixture->makeAuthority();
        QVERIFY2(authority.exitCode == 0, qPrintable(authority.err));
        const Finished mapped = m_fixture->mapToUpstream(
            QStringLiteral("once.test kept.test never.test slow.test many.test gone.test denied.test later.test "
                           "tunnel.test socks.test")
                .split(QLatin1Char(' ')));
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        const Finished deny = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("deny"),
                                                  QStringLiteral("network"), QStringLiteral("denied.test:") + port()});
        QVERIFY2(deny.exitCode == 0, qPrintable(deny.err));
        const Finished run = m_fixture->runDetached(QLatin1String(kName));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog()));
        QFile policy(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
        QVERIFY(policy.open(QIODevice::ReadOnly));
        m_policyBefore = policy.readAll();
    }

    void init() { QVERIFY(setAskMode(true)); }
    void cleanup() { QVERIFY(setAskMode(false)); }
    void cleanupTestCase() { m_fixture.reset(); }

    void allowOnceOnTheSameConnection()
    {
        QVERIFY(m_fixture->listed().value(QLatin1String(kName)).value(QLatin1String("asking")).toBool());
        const std::unique_ptr<QProcess> fetch = startInSandbox(curl(QStringLiteral("once.test")));
        const QJsonObject ask = waitForAsk(QStringLiteral("once.test"));
        QVERIFY2(!ask.isEmpty(), qPrintable(m_fixture->daemonLog()));
        QCOMPARE(ask.value(QLatin1String("sandbox")).toString(), QLatin1String(kName));
        QCOMPARE(ask.value(QLatin1String("port")).toInt(), int(m_fixture->upstreamPort()));
        QCOMPARE(ask.value(QLatin1String("protocol")).toString(), QStringLiteral("http"));
        const QDateTime since = QDateTime::fromString(ask.value(QLatin1String("since")).toString(), Qt::ISODateWithMs);
        const QDateTime deadline =
            QDateTime::fromString(ask.value(QLatin1String("deadline")).toString(), Qt::ISODateWithMs);
        QCOMPARE(since.secsTo(deadline), 30);        // the default wait
        QCOMPARE(fetch->state(), QProcess::Running); // it waits rather than failing

        const Finished answered = answer(ask, {QStringLiteral("allow")});
        QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
        QVERIFY2(answered.out.contains(QStringLiteral("this time only")), qPrintable(answered.out));
        QCOMPARE(finish(*fetch), QStringLiteral("200 1")); // one connection: the one that waited
        QVERIFY(QTest::qWaitFor([this] { return !asked(QStringLiteral("once.test")); }, 10000));
        QVERIFY(rulesFor(QStringLiteral("once.test")).isEmpty()); // nothing written

        // Once means once: the next request waits again, and "deny" refuses it.
        const std::unique_ptr<QProcess> again = startInSandbox(curl(QStringLiteral("once.test")));
        const QJsonObject second = waitForAsk(QStringLiteral("once.test"));
        QVERIFY(!second.isEmpty());
        QVERIFY(second.value(QLatin1String("id")) != ask.value(QLatin1String("id")));
        QCOMPARE(answer(second, {QStringLiteral("deny")}).exitCode, 0);
        QCOMPARE(finish(*again), QStringLiteral("403 1"));
    }

    void tunnelAllowedOnce()
    {
        // CONNECT: the 200 "connection established" comes only with the answer.
        const std::unique_ptr<QProcess> fetch =
            startInSandbox(curl(QStringLiteral("tunnel.test"), QStringLiteral("--proxytunnel")));
        const QJsonObject ask = waitForAsk(QStringLiteral("tunnel.test"));
        QVERIFY(!ask.isEmpty());
        QCOMPARE(ask.value(QLatin1String("protocol")).toString(), QStringLiteral("connect"));
        QCOMPARE(answer(ask, {QStringLiteral("allow")}).exitCode, 0);
        QCOMPARE(finish(*fetch), QStringLiteral("200 1"));
    }

    void socksHeldToo()
    {
        // SOCKS5 on the same proxy address: the reply comes only with the answer.
        const std::unique_ptr<QProcess> fetch =
            startInSandbox(QStringLiteral("P=${HTTP_PROXY#http://}; P=${P%/}; ") +
                           curl(QStringLiteral("socks.test"), QStringLiteral("--socks5-hostname \"$P\"")));
        const QJsonObject ask = waitForAsk(QStringLiteral("socks.test"));
        QVERIFY(!ask.isEmpty());
        QCOMPARE(ask.value(QLatin1String("protocol")).toString(), QStringLiteral("socks"));
        QCOMPARE(answer(ask, {QStringLiteral("allow")}).exitCode, 0);
        QCOMPARE(finish(*fetch), QStringLiteral("200 1"));
    }

    void allowKeptWritesTheRule()
    {
        const std::unique_ptr<QProcess> fetch = startInSandbox(curl(QStringLiteral("kept.test")));
        const QJsonObject ask = waitForAsk(QStringLiteral("kept.test"));
        QVERIFY(!ask.isEmpty());
        const Finished answered =
            answer(ask, {QStringLiteral("allow"), QStringLiteral("--where"), QStringLiteral("sandbox")});
        QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
        QCOMPARE(finish(*fetch), QStringLiteral("200 1"));
        const QList<QJsonObject> rules = rulesFor(QStringLiteral("kept.test"));
        QCOMPARE(rules.size(), 1);
        QCOMPARE(rules.first().value(QLatin1String("decision")).toString(), QStringLiteral("allow"));
        QCOMPARE(rules.first().value(QLatin1String("scope")).toString(), QStringLiteral("sandbox:asker"));
        // The rule answers from now on: nothing waits.
        const std::unique_ptr<QProcess> next = startInSandbox(curl(QStringLiteral("kept.test")));
        QCOMPARE(finish(*next), QStringLiteral("200 1"));
    }

    void denyAlwaysLeavesADenyRule()
    {
        const std::unique_ptr<QProcess> fetch = startInSandbox(curl(QStringLiteral("never.test")));
        const QJsonObject ask = waitForAsk(QStringLiteral("never.test"));
        QVERIFY(!ask.isEmpty());
        const Finished answered =
            answer(ask, {QStringLiteral("deny"), QStringLiteral("--where"), QStringLiteral("sandbox")});
        QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
        QCOMPARE(finish(*fetch), QStringLiteral("403 1"));
        const QList<QJsonObject> rules = rulesFor(QStringLiteral("never.test"));
        QCOMPARE(rules.size(), 1);
        QCOMPARE(rules.first().value(QLatin1String("decision")).toString(), QStringLiteral("deny"));
        // Refused at once from now on, never asked again.
        const std::unique_ptr<QProcess> next = startInSandbox(curl(QStringLiteral("never.test")));
        QCOMPARE(finish(*next), QStringLiteral("403 1"));
        QVERIFY(!asked(QStringLiteral("never.test")));
    }

    void tenWaitingAnsweredTogether()
    {
        QString script;
        for (int i = 0; i < 10; ++i)
            script += curl(QStringLiteral("many.test")) + QStringLiteral(" & ");
        script += QStringLiteral("wait");
        const std::unique_ptr<QProcess> fetch = startInSandbox(script);
        const QJsonObject ask = waitForAsk(QStringLiteral("many.test"), 10);
        QVERIFY2(!ask.isEmpty(), "ten connections to one host should wait under one id");
        QCOMPARE(ask.value(QLatin1String("waiting")).toInt(), 10);
        const Finished answered = answer(ask, {QStringLiteral("allow")});
        QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
        const QStringList lines = finish(*fetch).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 10);
        for (const QString &line : lines)
            QCOMPARE(line, QStringLiteral("200 1"));
    }

    void noAnswerRefusesAfterTheTimeout()
    {
        // A shorter wait, set where a user sets it: policy.yaml's ask section.
        QFile policy(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
        QVERIFY(policy.open(QIODevice::Append));
        policy.write("ask:\n  timeout: 2\n");
        policy.close();
        const auto restore = qScopeGuard([&] {
            QVERIFY(policy.open(QIODevice::WriteOnly | QIODevice::Truncate));
            policy.write(m_policyBefore);
        });
        QTest::qWait(500); // the daemon reads the file again once it settles
        QElapsedTimer waited;
        waited.start();
        const std::unique_ptr<QProcess> fetch =
            startInSandbox(QStringLiteral("curl -s -S -D - -o /dev/null http://slow.test:%1/hello.txt").arg(port()));
        const QJsonObject ask = waitForAsk(QStringLiteral("slow.test"));
        QVERIFY(!ask.isEmpty());
        const QString head = finish(*fetch);
        QVERIFY2(head.startsWith(QLatin1String("HTTP/1.1 403")), qPrintable(head));
        QVERIFY2(head.contains(QStringLiteral("X-Paddock-Reason: nobody answered within 2 s")), qPrintable(head));
        QVERIFY2(head.contains(QStringLiteral("X-Paddock-Rule: ask")), qPrintable(head));
        QVERIFY(QTest::qWaitFor([this] { return !asked(QStringLiteral("slow.test")); }, 10000));
    }

    void clientThatLeavesIsNotAsked()
    {
        const std::unique_ptr<QProcess> fetch =
            startInSandbox(curl(QStringLiteral("gone.test"), QStringLiteral("--max-time 2")));
        QVERIFY(!waitForAsk(QStringLiteral("gone.test")).isEmpty());
        finish(*fetch); // curl gave up
        QVERIFY2(QTest::qWaitFor([this] { return !asked(QStringLiteral("gone.test")); }, 10000),
                 "the question should go when the client leaves, not at the timeout");
    }

    void onlyWhatNoRuleCoversIsAsked()
    {
        // A host a rule denies is refused at once.
        const std::unique_ptr<QProcess> denied = startInSandbox(curl(QStringLiteral("denied.test")));
        QCOMPARE(finish(*denied), QStringLiteral("403 1"));
        QVERIFY(!asked(QStringLiteral("denied.test")));

        // Ask mode turned off while a connection waits: it is refused at once, as the default says.
        const std::unique_ptr<QProcess> later = startInSandbox(curl(QStringLiteral("later.test")));
        QVERIFY(!waitForAsk(QStringLiteral("later.test")).isEmpty());
        QVERIFY(setAskMode(false));
        QCOMPARE(finish(*later), QStringLiteral("403 1"));
        QVERIFY(QTest::qWaitFor([this] { return !asked(QStringLiteral("later.test")); }, 10000));
    }

    void badAnswers()
    {
        QCOMPARE(m_fixture
                     ->paddock({QStringLiteral("policy"), QStringLiteral("answer"), QStringLiteral("999"),
                                QStringLiteral("allow")})
                     .exitCode,
                 1);
        QCOMPARE(m_fixture
                     ->paddock({QStringLiteral("policy"), QStringLiteral("answer"), QStringLiteral("1"),
                                QStringLiteral("maybe")})
                     .exitCode,
                 2);
        QCOMPARE(m_fixture->paddock({QStringLiteral("ask"), QLatin1String(kName), QStringLiteral("perhaps")}).exitCode,
                 2);
        QCOMPARE(m_fixture->paddock({QStringLiteral("ask"), QStringLiteral("nobody"), QStringLiteral("on")}).exitCode,
                 1);
    }
};

QTEST_GUILESS_MAIN(SandboxAskTest)
#include "tst_sandbox_ask.moc"
