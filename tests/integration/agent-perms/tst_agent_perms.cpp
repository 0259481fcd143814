// SPDX-License-Identifier: GPL-3.0-or-later
// The agent's own guard with the real parts: Pi 0.87.1 on Node 22 with pi-permission-system
// 20.7.3 (from npm, cached in the build tree) in a real bubblewrap sandbox made by the real
// daemon, talking through the sandbox's proxy to a local model that asks for tool calls.
// The extension refuses; its refusals reach Paddock's stream within a second; Allow writes a
// rule that lets the same call pass; and the rule tester agrees with the extension on the
// documented cases.
#include "SandboxFixture.h"

#include "agentperms/AgentConfig.h"

#include "Needs.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

const QString kSandbox = QStringLiteral("pi-perms");

bool writeText(const QString &path, const QByteArray &contents)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(contents) == contents.size();
}

QByteArray readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/** @brief fake_model.py: the local model, reached from the sandbox as model.test. */
class FakeModel
{
public:
    bool start(const QString &directory)
    {
        m_calls = directory + QStringLiteral("/calls.json");
        m_results = directory + QStringLiteral("/results.jsonl");
        if (!plan(QStringLiteral("none"), {}))
            return false;
        m_process.start(QStringLiteral("python3"),
                        {QStringLiteral("-u"), QStringLiteral(FAKE_MODEL), m_calls, m_results});
        static const QRegularExpression listening(QStringLiteral("port (\\d+)"));
        QByteArray seen;
        while (m_process.waitForReadyRead(20000)) {
            seen += m_process.readAllStandardOutput();
            const QRegularExpressionMatch match = listening.match(QString::fromUtf8(seen));
            if (match.hasMatch()) {
                m_port = match.captured(1).toUShort();
                return true;
            }
        }
        return false;
    }
    ~FakeModel()
    {
        m_process.kill();
        m_process.waitForFinished();
    }
    /** The calls the next session asks for, with ids PREFIX0, PREFIX1, … */
    bool plan(const QString &prefix, const QJsonArray &calls) const
    {
        return writeText(
            m_calls,
            QJsonDocument(QJsonObject{{QStringLiteral("id"), prefix}, {QStringLiteral("calls"), calls}}).toJson());
    }
    /** What the agent got back for call @p id. */
    QString result(const QString &id) const
    {
        for (const QByteArray &line : readText(m_results).split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QLatin1String("id")).toString() == id)
                return o.value(QLatin1String("content")).toString();
        }
        return {};
    }
    quint16 port() const { return m_port; }
    QString errors() { return QString::fromUtf8(readText(m_results + QStringLiteral(".log"))); }

private:
    QProcess m_process;
    QString m_calls;
    QString m_results;
    quint16 m_port = 0;
};

QJsonArray call(const QString &tool, const QString &value)
{
    if (tool == QLatin1String("bash"))
        return {tool, QJsonObject{{QStringLiteral("command"), value}}};
    if (tool == QLatin1String("write"))
        return {tool, QJsonObject{{QStringLiteral("path"), value}, {QStringLiteral("content"), QStringLiteral("x\n")}}};
    if (tool == QLatin1String("edit"))
        return {tool, QJsonObject{{QStringLiteral("path"), value},
                                  {QStringLiteral("edits"),
                                   QJsonArray{QJsonObject{{QStringLiteral("oldText"), QStringLiteral("a")},
                                                          {QStringLiteral("newText"), QStringLiteral("b")}}}}}};
    return {tool, QJsonObject{{QStringLiteral("path"), value}}};
}

} // namespace

class TestAgentPerms : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void refusalsReachTheStream();
    void allowLetsTheSameCallPass();
    void verifyNamesTheRuleThatRefusesEnv();
    void bundlesCarryTheRules();
    void theTesterAgreesWithTheExtension();
    void cleanupTestCase();

private:
    QString homeConfig() const
    {
        return m_fixture->path(QStringLiteral("data/paddock/sandboxes/%1/home/").arg(kSandbox)) +
               paddock::agentperms::globalConfigRelativePath();
    }
    QString reviewLog() const
    {
        return m_fixture->path(QStringLiteral("data/paddock/sandboxes/%1/home/").arg(kSandbox)) +
               paddock::agentperms::reviewLogRelativePath();
    }
    QStringList piArguments() const
    {
        return {QStringLiteral("exec"),
                QStringLiteral("-w"),
                m_fixture->workspace(),
                kSandbox,
                QStringLiteral("pi"),
                QStringLiteral("--offline"),
                QStringLiteral("--no-session"),
                QStringLiteral("--model"),
                QStringLiteral("fake/m1"),
                QStringLiteral("--tools"),
                QStringLiteral("read,bash,edit,write,grep,find,ls"),
                QStringLiteral("--no-approve"),
                QStringLiteral("-p"),
                QStringLiteral("go")};
    }
    /**
     * One Pi session: read .env and rm -rf game are refused; the model then waits until the
     * file m_go exists, and asks for the same read again. Started unless an earlier test
     * started it (the allow test uses it, and each test runs alone); true once both refusals
     * reached the stream.
     */
    bool startRefusedSession();
    /** The project file allows .env, as the allow test leaves it: allowed from the refused session if not. */
    bool envAllowedInProject();
    /** Runs Pi once in the sandbox; the model asks for @p calls. */
    Finished runPi(const QString &prefix, const QJsonArray &calls)
    {
        if (!m_model.plan(prefix, calls))
            return {};
        return m_fixture->paddock(piArguments());
    }
    /** The first decision the review log shows for call @p id: deny, ask, or allow (none). */
    QString firstDecision(const QString &id) const
    {
        for (const QByteArray &line : readText(reviewLog()).split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QLatin1String("toolCallId")).toString() != id)
                continue;
            const QString event = o.value(QLatin1String("event")).toString();
            if (event == QLatin1String("permission_request.blocked"))
                return QStringLiteral("deny");
            if (event == QLatin1String("permission_request.waiting"))
                return QStringLiteral("ask");
        }
        return QStringLiteral("allow");
    }

    std::unique_ptr<SandboxFixture> m_fixture;
    FakeModel m_model;
    QString m_cache;
    QList<QJsonObject> m_stream; ///< refusals as `agent-perms refusals --follow --json` printed them
    QList<qint64> m_latencies;   ///< ms from the extension's timestamp to the line's arrival
    std::unique_ptr<QProcess> m_follow;
    QProcess m_pi; ///< the session that is refused, then allowed
    QString m_go;  ///< the file that lets the model ask for its last call
};

void TestAgentPerms::initTestCase()
{
    QProcess install;
    install.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    install.start(QStringLiteral(PADDOCK_SOURCE_DIR "/tests/support/install-pi.sh"),
                  {QStringLiteral(PADDOCK_PI_CACHE)});
    PADDOCK_NEED(install.waitForFinished(480000) && install.exitCode() == 0,
                 "Node 22, Pi and pi-permission-system from the npm registry (see above why they could not be "
                 "installed)");
    m_cache = QStringLiteral(PADDOCK_PI_CACHE);

    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY(m_fixture->setUp());
    QVERIFY(m_model.start(m_fixture->path(QString())));
    paddock::policy::PolicyStore store(m_fixture->path(QStringLiteral("config/paddock/policy.yaml")));
    store.load();
    QVERIFY(store.setResolveOverride(u"model.test", QHostAddress(QStringLiteral("127.0.0.1"))).ok());

    // The kit: Pi from the cache (bound read-only at the same path), the course's rules from
    // the Pi sample kit, the extension loaded by path, and the model as its only provider.
    const QString kit = m_fixture->path(QStringLiteral("pikit"));
    const QByteArray spec = QStringLiteral(R"(schemaVersion: "2"
kind: sandbox
name: pi-perms
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
environment:
  variables:
    PATH: "%1/node_modules/.bin:/usr/local/bin:/usr/bin:/bin"
    PI_SKIP_VERSION_CHECK: "1"
    PI_TELEMETRY: "0"
    NODE_OPTIONS: "--disable-warning=UNDICI-EHPA"
permissions:
  network:
    allow:
      - model.test:%2
)")
                                .arg(m_cache)
                                .arg(m_model.port())
                                .toUtf8();
    const QString agentDir = kit + QStringLiteral("/files/home/.pi/agent/");
    QVERIFY(writeText(kit + QStringLiteral("/spec.yaml"), spec));
    QVERIFY(writeText(agentDir + QStringLiteral("settings.json"),
                      QStringLiteral("{\"packages\": [\"%1/node_modules/@gotgenes/pi-permission-system\"]}\n")
                          .arg(m_cache)
                          .toUtf8()));
    QVERIFY(writeText(agentDir + QStringLiteral("models.json"),
                      QStringLiteral(R"({"providers": {"fake": {"baseUrl": "http://model.test:%1/v1",
  "api": "openai-completions", "apiKey": "local", "models": [{"id": "m1"}]}}})")
                          .arg(m_model.port())
                          .toUtf8()));
    QVERIFY(writeText(kit + QLatin1Char('/') + paddock::agentperms::kitConfigRelativePath(),
                      readText(QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/pi/") +
                               paddock::agentperms::kitConfigRelativePath())));
    QVERIFY(writeText(m_fixture->workspace() + QStringLiteral("/.env"), "TOKEN=course-key-42\n"));
    QVERIFY(QDir().mkpath(m_fixture->workspace() + QStringLiteral("/game")));

    const Finished run = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--detach"), QStringLiteral("--kit"),
                                             kit, QStringLiteral("--name"), kSandbox, m_fixture->workspace(), m_cache,
                                             QStringLiteral("--"), QStringLiteral("sleep 100000")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + m_fixture->daemonLog()));

    // The stream, as a person following it would see it.
    m_follow = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    m_follow->setProcessEnvironment(env);
    connect(m_follow.get(), &QProcess::readyReadStandardOutput, this, [this] {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        while (m_follow->canReadLine()) {
            const QJsonObject refusal = QJsonDocument::fromJson(m_follow->readLine()).object();
            const QDateTime at =
                QDateTime::fromString(refusal.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
            m_stream << refusal;
            m_latencies << at.msecsTo(now);
        }
    });
    m_follow->start(QStringLiteral(PADDOCK_BIN),
                    {QStringLiteral("agent-perms"), QStringLiteral("refusals"), QStringLiteral("--follow"),
                     QStringLiteral("--json"), QStringLiteral("--sandbox"), kSandbox});
    QVERIFY(m_follow->waitForStarted());
    QTest::qWait(500); // subscribed
}

bool TestAgentPerms::startRefusedSession()
{
    if (m_pi.state() != QProcess::NotRunning)
        return QTest::qWaitFor([this] { return m_stream.size() >= 2; }, 30000);
    m_go = m_fixture->path(QStringLiteral("go"));
    QFile::remove(m_go);
    if (!m_model.plan(QStringLiteral("first"),
                      {call(QStringLiteral("read"), QStringLiteral(".env")),
                       call(QStringLiteral("bash"), QStringLiteral("rm -rf game")),
                       QJsonArray{QStringLiteral("wait"), m_go}, call(QStringLiteral("read"), QStringLiteral(".env"))}))
        return false;
    m_pi.setProcessChannelMode(QProcess::MergedChannels);
    m_pi.start(QStringLiteral(PADDOCK_BIN), piArguments());
    if (!m_pi.waitForStarted())
        return false;
    m_pi.closeWriteChannel(); // Pi reads a prompt from a standard input that is not a terminal
    return QTest::qWaitFor([this] { return m_stream.size() >= 2; }, 30000);
}

bool TestAgentPerms::envAllowedInProject()
{
    const QString project =
        m_fixture->workspace() + QLatin1Char('/') + paddock::agentperms::projectConfigRelativePath();
    if (readText(project).contains("\".env\": \"allow\""))
        return true;
    if (!startRefusedSession())
        return false;
    const QString id = QString::number(m_stream.at(0).value(QLatin1String("id")).toInt());
    const Finished allow =
        m_fixture->paddock({QStringLiteral("agent-perms"), QStringLiteral("allow"), id, QStringLiteral("--where"),
                            QStringLiteral("project"), QStringLiteral("--yes")});
    // The session goes on to its end, as in the allow test.
    const bool ended =
        writeText(m_go, "go\n") && QTest::qWaitFor([this] { return m_pi.state() == QProcess::NotRunning; }, 60000);
    return ended && allow.exitCode == 0 && readText(project).contains("\".env\": \"allow\"");
}

void TestAgentPerms::refusalsReachTheStream()
{
    // One session: read .env and rm -rf game are refused; the model then waits until the
    // rule is allowed, and asks for the same read again.
    QVERIFY2(startRefusedSession(),
             qPrintable(QString::fromUtf8(readText(reviewLog()) + m_pi.readAll()) + m_fixture->daemonLog()));

    // The extension refused both: the agent never saw the key, and the folder is still there.
    QVERIFY(QTest::qWaitFor([this] { return !m_model.result(QStringLiteral("first1")).isEmpty(); }, 10000));
    QVERIFY(m_model.result(QStringLiteral("first0")).contains(QLatin1String("pi-permission-system")));
    QVERIFY(!m_model.result(QStringLiteral("first0")).contains(QLatin1String("course-key-42")));
    QVERIFY(QFileInfo(m_fixture->workspace() + QStringLiteral("/game")).isDir());

    const QJsonObject read = m_stream.at(0);
    QCOMPARE(read.value(QLatin1String("tool")).toString(), QStringLiteral("read"));
    QCOMPARE(read.value(QLatin1String("value")).toString(), QStringLiteral(".env"));
    QCOMPARE(read.value(QLatin1String("state")).toString(), QStringLiteral("deny"));
    QCOMPARE(read.value(QLatin1String("sandbox")).toString(), kSandbox);
    QCOMPARE(read.value(QLatin1String("surface")).toString(), QStringLiteral("path"));
    QCOMPARE(read.value(QLatin1String("pattern")).toString(), QStringLiteral("*.env"));
    const QJsonObject bash = m_stream.at(1);
    QCOMPARE(bash.value(QLatin1String("tool")).toString(), QStringLiteral("bash"));
    QCOMPARE(bash.value(QLatin1String("value")).toString(), QStringLiteral("rm -rf game"));
    QCOMPARE(bash.value(QLatin1String("pattern")).toString(), QStringLiteral("rm -rf *"));

    // Each line reached the stream after the extension wrote it (how soon is printed, for
    // reading; latency is a benchmark's figure, not a pass or fail).
    QVERIFY(!m_latencies.isEmpty());
    for (qint64 latency : std::as_const(m_latencies)) {
        qInfo("refusal -> stream: %lld ms", latency);
        QVERIFY2(latency >= 0, qPrintable(QString::number(latency)));
    }

    // The Sandboxes row counts them.
    const Finished counts =
        m_fixture->paddock({QStringLiteral("agent-perms"), QStringLiteral("refusals"), QStringLiteral("--json")});
    QCOMPARE(QJsonDocument::fromJson(counts.out.toUtf8()).array().size(), 2);
}

void TestAgentPerms::allowLetsTheSameCallPass()
{
    QVERIFY(startRefusedSession());
    const QString id = QString::number(m_stream.at(0).value(QLatin1String("id")).toInt());
    const Finished preview =
        m_fixture->paddock({QStringLiteral("agent-perms"), QStringLiteral("allow"), id, QStringLiteral("--where"),
                            QStringLiteral("project"), QStringLiteral("--dry-run")});
    QVERIFY2(preview.exitCode == 0, qPrintable(preview.err));
    QVERIFY2(preview.out.contains(QLatin1String("\".env\": \"allow\"")), qPrintable(preview.out));
    const QString project =
        m_fixture->workspace() + QLatin1Char('/') + paddock::agentperms::projectConfigRelativePath();
    QVERIFY(!QFile::exists(project)); // a dry run writes nothing

    const Finished allow =
        m_fixture->paddock({QStringLiteral("agent-perms"), QStringLiteral("allow"), id, QStringLiteral("--where"),
                            QStringLiteral("project"), QStringLiteral("--yes")});
    QVERIFY2(allow.exitCode == 0, qPrintable(allow.err));
    QVERIFY2(readText(project).contains("\".env\": \"allow\""), readText(project).constData());

    // The same call, in the same session: the extension reads the changed file, and passes it.
    const qsizetype before = m_stream.size();
    QVERIFY(writeText(m_go, "go\n"));
    QVERIFY(QTest::qWaitFor([this] { return m_pi.state() == QProcess::NotRunning; }, 60000));
    QVERIFY2(m_pi.exitCode() == 0, m_pi.readAll().constData());
    QVERIFY2(m_model.result(QStringLiteral("first2")).contains(QLatin1String("course-key-42")),
             qPrintable(m_model.result(QStringLiteral("first2")) + m_model.errors()));
    QTest::qWait(2 * 200);
    QCOMPARE(m_stream.size(), before);
    QCOMPARE(firstDecision(QStringLiteral("first2")), QStringLiteral("allow"));
}

void TestAgentPerms::verifyNamesTheRuleThatRefusesEnv()
{
    // The project file now allows .env for this sandbox: verify says so, then passes without it.
    QVERIFY(envAllowedInProject());
    Finished verify = m_fixture->paddock({QStringLiteral("verify"), kSandbox, QStringLiteral("--json")});
    auto agentCheck = [](const Finished &finished) {
        for (const QJsonValue &check :
             QJsonDocument::fromJson(finished.out.toUtf8()).object().value(QLatin1String("checks")).toArray()) {
            if (check[QLatin1String("id")].toString() == QLatin1String("agent"))
                return check.toObject();
        }
        return QJsonObject();
    };
    QJsonObject check = agentCheck(verify);
    QCOMPARE(check.value(QLatin1String("status")).toString(), QStringLiteral("failed"));
    QVERIFY2(check.value(QLatin1String("message")).toString().contains(QLatin1String("\".env\" (project")),
             qPrintable(check.value(QLatin1String("message")).toString()));
    const Finished removed =
        m_fixture->paddock({QStringLiteral("agent-perms"), QStringLiteral("rm"), QStringLiteral("--sandbox"), kSandbox,
                            QStringLiteral("path"), QStringLiteral(".env")});
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
    check = agentCheck(m_fixture->paddock({QStringLiteral("verify"), kSandbox, QStringLiteral("--json")}));
    QCOMPARE(check.value(QLatin1String("status")).toString(), QStringLiteral("ok"));
    QVERIFY2(
        check.value(QLatin1String("message")).toString().contains(QLatin1String("path \"*.env\" (global, line 8)")),
        qPrintable(check.value(QLatin1String("message")).toString()));
}

void TestAgentPerms::bundlesCarryTheRules()
{
    const QString bundle = m_fixture->path(QStringLiteral("course.paddock"));
    const Finished exported =
        m_fixture->paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                            m_fixture->path(QStringLiteral("pikit")), QStringLiteral("-o"), bundle});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    const Finished preview =
        m_fixture->paddock({QStringLiteral("bundle"), QStringLiteral("import"), bundle, QStringLiteral("--dry-run")});
    QVERIFY2(preview.exitCode == 0, qPrintable(preview.err));
    QVERIFY2(preview.out.contains(QLatin1String("The agent's own rules")), qPrintable(preview.out));
    QVERIFY2(preview.out.contains(QStringLiteral("path: *.env → deny, *.env.* → deny")), qPrintable(preview.out));
    QVERIFY(preview.out.contains(QStringLiteral("bash: * → ask, rm -rf * → deny")));
    QVERIFY(preview.out.contains(QLatin1String(".pi/agent/extensions/pi-permission-system/config.json")));
}

void TestAgentPerms::theTesterAgreesWithTheExtension()
{
    QFile file(QStringLiteral(PADDOCK_FIXTURES "/agentperms/documented-cases.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject documented = QJsonDocument::fromJson(file.readAll()).object();
    // The documented config is the only one in force: in the home, no project file.
    QVERIFY(writeText(homeConfig(), QJsonDocument(documented.value(QLatin1String("config")).toObject()).toJson()));
    const QString project =
        m_fixture->workspace() + QLatin1Char('/') + paddock::agentperms::projectConfigRelativePath();
    QFile::remove(project); // the allow test wrote one
    QVERIFY(!QFile::exists(project));
    QVERIFY(writeText(m_fixture->workspace() + QStringLiteral("/src/app.js"), "a\n"));

    const QJsonArray cases = documented.value(QLatin1String("cases")).toArray();
    QJsonArray calls;
    for (const QJsonValue &c : cases)
        calls.append(call(c[QLatin1String("tool")].toString(), c[QLatin1String("value")].toString()));
    const Finished pi = runPi(QStringLiteral("doc"), calls);
    QVERIFY2(pi.exitCode == 0, qPrintable(pi.out + pi.err));

    int agreed = 0;
    QStringList disagreements;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QString query = QStringLiteral("%1: %2").arg(cases.at(i)[QLatin1String("tool")].toString(),
                                                           cases.at(i)[QLatin1String("value")].toString());
        const Finished test =
            m_fixture->paddock({QStringLiteral("agent-perms"), QStringLiteral("test"), QStringLiteral("--sandbox"),
                                kSandbox, QStringLiteral("--json"), query});
        const QJsonObject answer = QJsonDocument::fromJson(test.out.toUtf8()).object();
        const QString tester =
            answer.contains(QLatin1String("firstStop"))
                ? answer.value(QLatin1String("firstStop")).toObject().value(QLatin1String("state")).toString()
                : QStringLiteral("allow");
        const QString extension = firstDecision(QStringLiteral("doc%1").arg(i));
        if (tester == extension)
            ++agreed;
        else
            disagreements << QStringLiteral("%1: extension %2, tester %3").arg(query, extension, tester);
    }
    qInfo("the tester agrees with the extension on %d of %lld documented calls", agreed, qint64(cases.size()));
    QVERIFY(agreed >= 30);
    QVERIFY2(disagreements.isEmpty(), qPrintable(disagreements.join(QLatin1Char('\n'))));
}

void TestAgentPerms::cleanupTestCase()
{
    if (m_follow) {
        m_follow->kill();
        m_follow->waitForFinished();
    }
    m_fixture.reset();
}

QTEST_GUILESS_MAIN(TestAgentPerms)
#include "tst_agent_perms.moc"
