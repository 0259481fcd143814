// SPDX-License-Identifier: GPL-3.0-or-later
// Learning mode through the CLI and the daemon: a host no rule allows passes while a sandbox
// is learning and is recorded as learned; `paddock policy propose` folds sibling hosts into
// one pattern, and `--apply` makes the next request pass with learning off.
#include "SandboxFixture.h"

#include "events/EventStore.h"

#include <QtTest>

using paddock::test::Finished;
using paddock::test::LocalUpstream;
using paddock::test::SandboxFixture;

class SandboxLearningTest : public QObject
{
    Q_OBJECT

private:
    static constexpr const char *kName = "learner";
    std::unique_ptr<SandboxFixture> m_fixture;

    QString port() const { return QString::number(m_fixture->upstreamPort()); }
    /** `curl` inside the sandbox: the body, or the status line of a refusal. */
    Finished fetch(const QString &host)
    {
        return m_fixture->paddock({QStringLiteral("exec"), QLatin1String(kName), QStringLiteral("curl"),
                                   QStringLiteral("-s"), QStringLiteral("-S"), QStringLiteral("-w"),
                                   QStringLiteral("%{http_code}"), QStringLiteral("-o"), QStringLiteral("/dev/null"),
                                   QStringLiteral("http://%1:%2/hello.txt").arg(host, port())});
    }
    QJsonObject propose(const QStringList &extra = {})
    {
        const Finished run = m_fixture->paddock(QStringList{QStringLiteral("policy"), QStringLiteral("propose"),
                                                            QLatin1String(kName), QStringLiteral("--json")} +
                                                extra);
        if (run.exitCode != 0)
            qWarning().noquote() << run.err;
        return QJsonDocument::fromJson(run.out.toUtf8()).object();
    }

private slots:
    void initTestCase()
    {
        QString why;
        m_fixture = SandboxFixture::startWithAuthority(&why);
        QVERIFY2(m_fixture, qPrintable(why));
        // The test's names lead to the local upstream through trusted overrides.
        const Finished mapped = m_fixture->mapToUpstream(
            {QStringLiteral("api.tools.test"), QStringLiteral("cdn.tools.test"), QStringLiteral("new.tools.test"),
             QStringLiteral("solo.test"), QStringLiteral("evil.test")});
        QVERIFY2(mapped.exitCode == 0, qPrintable(mapped.err));
        const Finished deny = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("deny"),
                                                  QStringLiteral("network"), QStringLiteral("evil.test:") + port()});
        QVERIFY2(deny.exitCode == 0, qPrintable(deny.err));
        const Finished run = m_fixture->runDetached(QLatin1String(kName));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog()));
    }

    void cleanupTestCase() { m_fixture.reset(); }

    void refusedBeforeLearning()
    {
        QCOMPARE(fetch(QStringLiteral("api.tools.test")).out, QStringLiteral("403"));
        QCOMPARE(m_fixture->listed().value(QLatin1String(kName)).value(QLatin1String("learning")).toBool(true), false);
    }

    void learningLetsRefusedHostsThrough()
    {
        const Finished on = m_fixture->paddock({QStringLiteral("learn"), QLatin1String(kName), QStringLiteral("on")});
        QVERIFY2(on.exitCode == 0, qPrintable(on.err));
        QVERIFY(m_fixture->listed().value(QLatin1String(kName)).value(QLatin1String("learning")).toBool());

        for (const char *host : {"api.tools.test", "cdn.tools.test", "solo.test"}) {
            const Finished fetched = fetch(QLatin1String(host));
            QVERIFY2(fetched.out == QLatin1String("200"),
                     qPrintable(host + QStringLiteral(": ") + fetched.out + fetched.err));
        }
        // An explicit deny is the user's choice, not a default to learn past.
        QCOMPARE(fetch(QStringLiteral("evil.test")).out, QStringLiteral("403"));
    }

    void eventsSayLearned()
    {
        propose(); // the daemon writes what it holds before proposing
        paddock::events::EventStore store(m_fixture->path(QStringLiteral("state/paddock/events.sqlite")));
        QVERIFY2(store.open(), qPrintable(store.errorString()));
        paddock::events::EventFilter filter;
        filter.sandbox = QLatin1String(kName);
        filter.includeLearned = true;
        QList<paddock::events::NetworkEvent> learned;
        QList<paddock::events::NetworkEvent> denied;
        QVERIFY(store.forEachEvent(filter, [&](const paddock::events::NetworkEvent &event) {
            (event.outcome == paddock::events::NetworkEvent::Outcome::Learned ? learned : denied).append(event);
            return true;
        }));
        QStringList learnedHosts;
        for (const paddock::events::NetworkEvent &event : std::as_const(learned)) {
            learnedHosts << event.host;
            QCOMPARE(event.toJson().value(QLatin1String("outcome")).toString(), QStringLiteral("learned"));
            QCOMPARE(event.rule, QStringLiteral("default deny"));
            QVERIFY2(event.reason.contains(event.host), qPrintable(event.reason));
        }
        learnedHosts.sort();
        learnedHosts.removeDuplicates();
        QCOMPARE(learnedHosts, (QStringList{QStringLiteral("api.tools.test"), QStringLiteral("cdn.tools.test"),
                                            QStringLiteral("solo.test")}));
        QVERIFY(std::any_of(denied.cbegin(), denied.cend(),
                            [](const auto &event) { return event.host == QLatin1String("evil.test"); }));
    }

    void proposalFoldsSiblings()
    {
        const QJsonObject proposal = propose();
        QStringList patterns;
        for (const QJsonValue &pattern : proposal.value(QLatin1String("patterns")).toArray())
            patterns << pattern.toString();
        QCOMPARE(patterns,
                 (QStringList{QStringLiteral("*.tools.test:") + port(), QStringLiteral("solo.test:") + port()}));
        QHash<QString, QJsonObject> entries;
        for (const QJsonValue &value : proposal.value(QLatin1String("entries")).toArray())
            entries.insert(value.toObject().value(QLatin1String("host")).toString(), value.toObject());
        QCOMPARE(entries.value(QStringLiteral("api.tools.test")).value(QLatin1String("suggestion")).toString(),
                 QStringLiteral("*.tools.test:") + port());
        QVERIFY(entries.value(QStringLiteral("api.tools.test")).value(QLatin1String("count")).toInteger() >= 2);
        QVERIFY(!entries.value(QStringLiteral("api.tools.test")).value(QLatin1String("lastSeen")).toString().isEmpty());
        QVERIFY(entries.value(QStringLiteral("evil.test"))
                    .value(QLatin1String("suggestion"))
                    .toString()
                    .startsWith(QLatin1String("none:")));

        // The table for a person says the same.
        const Finished text =
            m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("propose"), QLatin1String(kName)});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("*.tools.test:") + port()), qPrintable(text.out));
    }

    void applyAllowsWithLearningOff()
    {
        const Finished off = m_fixture->paddock({QStringLiteral("learn"), QLatin1String(kName), QStringLiteral("off")});
        QVERIFY2(off.exitCode == 0, qPrintable(off.err));
        QCOMPARE(fetch(QStringLiteral("api.tools.test")).out, QStringLiteral("403"));

        const QJsonObject applied = propose({QStringLiteral("--apply")});
        QCOMPARE(applied.value(QLatin1String("scope")).toString(), QStringLiteral("sandbox:learner"));
        QCOMPARE(applied.value(QLatin1String("applied")).toArray().size(), 2);
        // The daemon sees policy.yaml change; the next request is decided by the new rules.
        QVERIFY(QTest::qWaitFor([this] { return fetch(QStringLiteral("api.tools.test")).out == QLatin1String("200"); },
                                20000));
        QCOMPARE(fetch(QStringLiteral("new.tools.test")).out, QStringLiteral("200")); // a sibling never seen
        QCOMPARE(fetch(QStringLiteral("solo.test")).out, QStringLiteral("200"));
        QCOMPARE(fetch(QStringLiteral("evil.test")).out, QStringLiteral("403"));
        QVERIFY(!m_fixture->listed().value(QLatin1String(kName)).value(QLatin1String("learning")).toBool());
    }

    void badUsage()
    {
        QCOMPARE(m_fixture->paddock({QStringLiteral("learn"), QLatin1String(kName), QStringLiteral("maybe")}).exitCode,
                 2);
        QCOMPARE(m_fixture->paddock({QStringLiteral("learn"), QStringLiteral("nobody"), QStringLiteral("on")}).exitCode,
                 1);
        QCOMPARE(m_fixture
                     ->paddock({QStringLiteral("policy"), QStringLiteral("propose"), QLatin1String(kName),
                                QStringLiteral("--apply"), QStringLiteral("--scope"), QStringLiteral("planet")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(SandboxLearningTest)
#include "tst_sandbox_learning.moc"
