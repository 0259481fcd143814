// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock verify NAME` and the daemon's `sandbox.verify` it calls, the course's checklist,
// against real bubblewrap sandboxes run by the real daemon, as an ordinary user: all green on a
// sound sandbox with an event per check, and the right check red when one thing is wrong.
#include "SandboxFixture.h"

#include "api/DaemonConnection.h"

#include <sys/stat.h>

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

/** The checks of a `verify --json` answer, by id. */
QHash<QString, QJsonObject> checksOf(const Finished &verified)
{
    QHash<QString, QJsonObject> checks;
    const QJsonObject root = QJsonDocument::fromJson(verified.out.toUtf8()).object();
    for (const QJsonValue &value : root.value(QLatin1String("checks")).toArray())
        checks.insert(value.toObject().value(QLatin1String("id")).toString(), value.toObject());
    return checks;
}

QString statusOf(const QHash<QString, QJsonObject> &checks, const QString &id)
{
    return checks.value(id).value(QLatin1String("status")).toString();
}

QString messageOf(const QHash<QString, QJsonObject> &checks, const QString &id)
{
    return checks.value(id).value(QLatin1String("message")).toString();
}

} // namespace

class TestVerify : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void soundSandboxPassesEveryCheck();
    void daemonMethodReportsEachCheckAsAnEvent();
    void daemonMethodRefusesWhatItCannotCheck();
    void variableHoldingAKeyFailsTheCredentialCheck();
    void readOnlyWorkspaceFailsTheWorkspaceCheck();
    void refusalNoRuleChoseIsNamed();
    void stoppedSandboxIsNotVerified();

private:
    /** Starts a detached sandbox of @p kit on @p workspace that sleeps until removed. */
    bool startSleeping(const QString &name, const QString &kit, const QString &workspace);
    Finished verify(const QString &name, bool json = true);

    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestVerify::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

bool TestVerify::startSleeping(const QString &name, const QString &kit, const QString &workspace)
{
    QDir().mkpath(workspace);
    const Finished started = m_fixture->paddock({QStringLiteral("run"), QStringLiteral("--detach"),
                                                 QStringLiteral("--kit"), kit, QStringLiteral("--name"), name,
                                                 workspace, QStringLiteral("--"), QStringLiteral("sleep 600")});
    if (started.exitCode != 0)
        qWarning().noquote() << started.err;
    return started.exitCode == 0;
}

Finished TestVerify::verify(const QString &name, bool json)
{
    QStringList arguments{QStringLiteral("verify"), name};
    if (json)
        arguments << QStringLiteral("--json");
    return m_fixture->paddock(arguments);
}

void TestVerify::soundSandboxPassesEveryCheck()
{
    QVERIFY(startSleeping(QStringLiteral("v-sound"), m_fixture->kitDir(), m_fixture->workspace()));
    const Finished verified = verify(QStringLiteral("v-sound"));
    QVERIFY2(verified.exitCode == 0, qPrintable(verified.out + verified.err));
    const QHash<QString, QJsonObject> checks = checksOf(verified);
    QCOMPARE(statusOf(checks, QStringLiteral("credential")), QStringLiteral("ok"));
    QVERIFY2(messageOf(checks, QStringLiteral("credential")).contains(QLatin1String("TEST_API_KEY is proxy-managed")),
             qPrintable(verified.out));
    QCOMPARE(statusOf(checks, QStringLiteral("blocked")), QStringLiteral("ok"));
    QVERIFY2(messageOf(checks, QStringLiteral("blocked")).contains(QLatin1String("default deny")),
             qPrintable(verified.out));
    QCOMPARE(statusOf(checks, QStringLiteral("workspace")), QStringLiteral("ok"));
    QCOMPARE(statusOf(checks, QStringLiteral("log")), QStringLiteral("ok"));
    // The probe kit injects no key, so there is nothing to send to a provider.
    QCOMPARE(statusOf(checks, QStringLiteral("key")), QStringLiteral("skipped"));
    QVERIFY(QJsonDocument::fromJson(verified.out.toUtf8()).object().value(QLatin1String("passed")).toBool());

    // The probe's file does not stay in the user's project.
    const QStringList left =
        QDir(m_fixture->workspace()).entryList({QStringLiteral(".paddock-verify-*")}, QDir::Files | QDir::Hidden);
    QCOMPARE(left, QStringList());

    // The probe refusal is in the policy log, for this sandbox: the student can see it there.
    const Finished log = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log")});
    QVERIFY2(log.out.contains(QLatin1String("paddock-verify-")), qPrintable(log.out));

    // Text form: one line per check, and a verdict.
    const Finished text = verify(QStringLiteral("v-sound"), false);
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains(QLatin1String("ok      The credential variable inside is the sentinel")),
             qPrintable(text.out));
    QVERIFY2(text.out.contains(QLatin1String("No check failed.")), qPrintable(text.out));
}

void TestVerify::daemonMethodReportsEachCheckAsAnEvent()
{
    QVERIFY(
        startSleeping(QStringLiteral("v-events"), m_fixture->kitDir(), m_fixture->path(QStringLiteral("events-ws"))));
    paddock::api::DaemonConnection connection;
    QString error;
    QVERIFY2(connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    QVERIFY(!connection
                 .call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("verify")}}})
                 .isError());
    QList<QJsonObject> events;
    const paddock::api::Reply reply = connection.call(
        QStringLiteral("sandbox.verify"),
        {{QStringLiteral("name"), QStringLiteral("v-events")}, {QStringLiteral("run"), QStringLiteral("run-1")}},
        120000, [&](const paddock::api::Event &event) {
            if (event.topic == QLatin1String("verify"))
                events << event.data;
        });
    QVERIFY2(!reply.isError(), qPrintable(reply.errorMessage()));

    // One event per check, in order, before the answer, each naming the caller's run.
    const QStringList ids{QStringLiteral("credential"), QStringLiteral("blocked"), QStringLiteral("workspace"),
                          QStringLiteral("log"), QStringLiteral("key")};
    QCOMPARE(events.size(), ids.size());
    const QJsonArray checks = reply.result().value(QLatin1String("checks")).toArray();
    QCOMPARE(checks.size(), ids.size());
    for (int i = 0; i < events.size(); ++i) {
        const QJsonObject &event = events.at(i);
        QCOMPARE(event.value(QLatin1String("run")).toString(), QStringLiteral("run-1"));
        QCOMPARE(event.value(QLatin1String("sandbox")).toString(), QStringLiteral("v-events"));
        QCOMPARE(event.value(QLatin1String("kit")).toString(), QStringLiteral("probe"));
        QCOMPARE(event.value(QLatin1String("index")).toInt(), i);
        QCOMPARE(event.value(QLatin1String("total")).toInt(), ids.size());
        QCOMPARE(event.value(QLatin1String("check")).toObject().value(QLatin1String("id")).toString(), ids.at(i));
        QCOMPARE(event.value(QLatin1String("check")).toObject(), checks.at(i).toObject());
    }
    // The four course checks pass; the probe kit injects no key, so there is no provider to ask.
    for (const QString &id : ids.mid(0, 4))
        QCOMPARE(checks.at(ids.indexOf(id)).toObject().value(QLatin1String("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(checks.at(4).toObject().value(QLatin1String("status")).toString(), QStringLiteral("skipped"));
    QVERIFY(reply.result().value(QLatin1String("passed")).toBool());
    QCOMPARE(reply.result().value(QLatin1String("sandbox")).toString(), QStringLiteral("v-events"));
}

void TestVerify::daemonMethodRefusesWhatItCannotCheck()
{
    QVERIFY(
        startSleeping(QStringLiteral("v-halted"), m_fixture->kitDir(), m_fixture->path(QStringLiteral("halted-ws"))));
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("v-halted")}).exitCode, 0);
    paddock::api::DaemonConnection connection;
    QString error;
    QVERIFY2(connection.open(m_fixture->socketPath(), 5000, &error), qPrintable(error));
    const auto verifyCall = [&](const QJsonObject &params) {
        return connection.call(QStringLiteral("sandbox.verify"), params, 30000);
    };
    QCOMPARE(verifyCall({{QStringLiteral("name"), QStringLiteral("v-halted")}}).errorCode(),
             QStringLiteral("not-running"));
    QCOMPARE(verifyCall({{QStringLiteral("name"), QStringLiteral("nobody")}}).errorCode(),
             QStringLiteral("no-such-sandbox"));
    QCOMPARE(verifyCall({}).errorCode(), QStringLiteral("invalid-params"));
    QCOMPARE(verifyCall({{QStringLiteral("name"), QStringLiteral("v-halted")},
                         {QStringLiteral("run"), QString(65, QLatin1Char('x'))}})
                 .errorCode(),
             QStringLiteral("invalid-params"));
}

void TestVerify::variableHoldingAKeyFailsTheCredentialCheck()
{
    // A kit that hands the key itself to the sandbox, as a plain container would.
    const QString kit = m_fixture->writeKit(QStringLiteral("leaky-kit"), R"(schemaVersion: "2"
kind: sandbox
name: leaky
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
environment:
  variables:
    LEAKY_API_KEY: sk-live-0123456789abcdef
credentials:
  - service: leaky
    apiKey:
      name: LEAKY_API_KEY
      proxyManaged: false
)");
    QVERIFY(!kit.isEmpty());
    QVERIFY(startSleeping(QStringLiteral("v-leaky"), kit, m_fixture->path(QStringLiteral("leaky-workspace"))));
    const Finished verified = verify(QStringLiteral("v-leaky"));
    QCOMPARE(verified.exitCode, 1);
    const QHash<QString, QJsonObject> checks = checksOf(verified);
    QCOMPARE(statusOf(checks, QStringLiteral("credential")), QStringLiteral("failed"));
    QVERIFY2(messageOf(checks, QStringLiteral("credential"))
                 .contains(QLatin1String("LEAKY_API_KEY holds a value that is not the sentinel")),
             qPrintable(verified.out));
    // The report names the variable, never its value.
    QVERIFY2(!verified.out.contains(QLatin1String("sk-live")), qPrintable(verified.out));
    QCOMPARE(statusOf(checks, QStringLiteral("blocked")), QStringLiteral("ok"));
    QCOMPARE(statusOf(checks, QStringLiteral("workspace")), QStringLiteral("ok"));
    QVERIFY(!QJsonDocument::fromJson(verified.out.toUtf8()).object().value(QLatin1String("passed")).toBool());
}

void TestVerify::readOnlyWorkspaceFailsTheWorkspaceCheck()
{
    const QString workspace = m_fixture->path(QStringLiteral("read-only-workspace"));
    QVERIFY(startSleeping(QStringLiteral("v-readonly"), m_fixture->kitDir(), workspace));
    // The sandbox runs without capabilities, so the folder's mode binds it as it binds a user.
    QCOMPARE(::chmod(QFile::encodeName(workspace).constData(), 0555), 0);
    const Finished verified = verify(QStringLiteral("v-readonly"));
    ::chmod(QFile::encodeName(workspace).constData(), 0755);
    QCOMPARE(verified.exitCode, 1);
    const QHash<QString, QJsonObject> checks = checksOf(verified);
    QCOMPARE(statusOf(checks, QStringLiteral("workspace")), QStringLiteral("failed"));
    QVERIFY2(messageOf(checks, QStringLiteral("workspace")).contains(QLatin1String("inside the sandbox failed")),
             qPrintable(verified.out));
    QCOMPARE(statusOf(checks, QStringLiteral("credential")), QStringLiteral("ok"));
    QCOMPARE(statusOf(checks, QStringLiteral("blocked")), QStringLiteral("ok"));
}

void TestVerify::refusalNoRuleChoseIsNamed()
{
    QCOMPARE(m_fixture
                 ->paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"),
                            QStringLiteral("chosen.test:*")})
                 .exitCode,
             0);
    QVERIFY(
        startSleeping(QStringLiteral("v-refused"), m_fixture->kitDir(), m_fixture->path(QStringLiteral("refused-ws"))));
    // The agent needed other.test, which no list allows; chosen.test is denied on purpose.
    for (const QString &url : {m_fixture->otherUrl(), QStringLiteral("http://chosen.test/")}) {
        const Finished request =
            m_fixture->paddock({QStringLiteral("exec"), QStringLiteral("v-refused"), QStringLiteral("curl"),
                                QStringLiteral("-s"), QStringLiteral("-o"), QStringLiteral("/dev/null"), url});
        QVERIFY2(request.exitCode == 0, qPrintable(request.err)); // curl gets the proxy's 403
    }
    // The daemon stores events in batches: wait until both refusals are in the log.
    QVERIFY(QTest::qWaitFor(
        [this] {
            const Finished log = m_fixture->paddock({QStringLiteral("policy"), QStringLiteral("log")});
            return log.out.contains(QLatin1String("other.test")) && log.out.contains(QLatin1String("chosen.test"));
        },
        20000));
    const Finished verified = verify(QStringLiteral("v-refused"));
    QCOMPARE(verified.exitCode, 1);
    const QHash<QString, QJsonObject> checks = checksOf(verified);
    QCOMPARE(statusOf(checks, QStringLiteral("log")), QStringLiteral("failed"));
    const QString message = messageOf(checks, QStringLiteral("log"));
    QVERIFY2(message.contains(QStringLiteral("other.test:%1").arg(m_fixture->upstreamPort())),
             qPrintable(verified.out));
    QVERIFY2(!message.contains(QLatin1String("chosen.test")), qPrintable(verified.out));
    QCOMPARE(statusOf(checks, QStringLiteral("blocked")), QStringLiteral("ok"));
}

void TestVerify::stoppedSandboxIsNotVerified()
{
    QVERIFY(
        startSleeping(QStringLiteral("v-stopped"), m_fixture->kitDir(), m_fixture->path(QStringLiteral("stopped-ws"))));
    QCOMPARE(m_fixture->paddock({QStringLiteral("stop"), QStringLiteral("v-stopped")}).exitCode, 0);
    const Finished verified = verify(QStringLiteral("v-stopped"), false);
    QCOMPARE(verified.exitCode, 1);
    QVERIFY2(verified.err.contains(QLatin1String("sandbox v-stopped is not running")), qPrintable(verified.err));
    const Finished missing = verify(QStringLiteral("no-such-sandbox"), false);
    QCOMPARE(missing.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestVerify)
#include "tst_verify.moc"
