// SPDX-License-Identifier: GPL-3.0-or-later
// The Sandboxes page's model against a protocol server the test controls, so the order of
// stored and live refusals is chosen rather than raced: refusals since a sandbox started are
// the stored ones plus those that arrive live, each counted once. The list is the JSON a
// daemon sends, and the roles are read through data() as a view reads them. A start and a
// stop cut off by the daemon going away, or asked for once it is gone, say the same.
#include "DaemonBound.h"
#include "DaemonStatus.h"
#include "GuiTestSupport.h"
#include "SandboxListModel.h"

#include "api/Server.h"
#include "common/Paths.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>

using namespace paddock;

namespace {

const QDateTime kStart = QDateTime::fromString(QStringLiteral("2026-01-05T10:00:00.000Z"), Qt::ISODateWithMs);

QString iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QJsonObject denialEvent(const QString &sandbox, const QDateTime &time,
                        const QString &outcome = QStringLiteral("denied"))
{
    return {{QStringLiteral("time"), iso(time)},
            {QStringLiteral("sandbox"), sandbox},
            {QStringLiteral("kit"), QStringLiteral("k")},
            {QStringLiteral("host"), QStringLiteral("denied.test")},
            {QStringLiteral("port"), 80},
            {QStringLiteral("outcome"), outcome}};
}

} // namespace

class TestSandboxListModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void listsWhatTheDaemonRuns();
    void storedAndLiveRefusalsAreCountedOnce();
    void aRestartCountsFromTheNewStart();
    void agentStateIsReadable();
    void agentStateFollowsTheList();
    void uptimeIsReadable();
    void rootIsReadable();
    void theEngineIsNamedWhenNotLocal();
    void agentVerbsAreTheKitsTerminalVerbs();
    void startAndStopSayTheSameWhenTheDaemonGoes();

private:
    int denials() const { return m_model->data(m_model->index(0), gui::SandboxListModel::DenialsRole).toInt(); }
    /** Publishes @p event and waits until the model's client has it. */
    void publish(const QJsonObject &event)
    {
        QSignalSpy received(m_status->client(), &api::DaemonClient::eventReceived);
        QCOMPARE(m_server.publish(QStringLiteral("network"), event), 1);
        QVERIFY(received.wait(5000));
    }

    api::Server m_server;
    QJsonArray m_sandboxes;
    QJsonArray m_stored;
    QList<QJsonObject> m_denialQueries;
    QList<api::PendingReply> m_held; ///< starts and stops the daemon has not answered
    gui::DaemonStatus *m_status = nullptr;
    gui::SandboxListModel *m_model = nullptr;
};

void TestSandboxListModel::initTestCase()
{
    guitest::isolateEnvironment();
    m_server.registerMethod(QStringLiteral("sandbox.list"), [this](const QJsonObject &, const api::CallContext &) {
        return api::Reply::success({{QStringLiteral("sandboxes"), m_sandboxes}});
    });
    m_server.registerMethod(QStringLiteral("events.denials"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                m_denialQueries << params;
                                return api::Reply::success({{QStringLiteral("denials"), m_stored}});
                            });
    for (const QString &method : {QStringLiteral("sandbox.start"), QStringLiteral("sandbox.stop")})
        m_server.registerAsyncMethod(method, [this](const QJsonObject &, const api::CallContext &,
                                                    const api::PendingReply &reply) { m_held << reply; });
    m_server.registerTopic(QStringLiteral("network"));
    QString error;
    QVERIFY2(m_server.listen(paths::daemonSocket(), &error), qPrintable(error));
}

// Each test starts from one running sandbox, an empty store and a model that has just loaded
// the list: none depends on what an earlier one changed.
void TestSandboxListModel::init()
{
    m_sandboxes = {QJsonObject{{QStringLiteral("name"), QStringLiteral("web")},
                               {QStringLiteral("kit"), QStringLiteral("pi")},
                               {QStringLiteral("backend"), QStringLiteral("bwrap")},
                               {QStringLiteral("status"), QStringLiteral("running")},
                               {QStringLiteral("workspace"), QStringLiteral("/home/me/web")},
                               {QStringLiteral("startedAt"), iso(kStart)},
                               {QStringLiteral("root"), QJsonObject{{QStringLiteral("base"), QStringLiteral("image")},
                                                                    {QStringLiteral("image"), QStringLiteral("pi:1")},
                                                                    {QStringLiteral("bytes"), 1200000}}}}};
    m_stored = {};
    m_denialQueries.clear();
    m_held.clear();
    m_status = new gui::DaemonStatus(this);
    m_model = new gui::SandboxListModel(this);
    m_model->setDaemon(m_status);
    QTRY_VERIFY(m_model->loaded());
}

void TestSandboxListModel::cleanup()
{
    delete m_model;
    m_model = nullptr;
    delete m_status;
    m_status = nullptr;
    // The next test's model is the only client events go to.
    QTRY_COMPARE(m_server.clientCount(), 0);
}

void TestSandboxListModel::listsWhatTheDaemonRuns()
{
    QCOMPARE(m_model->rowCount(), 1);
    const QVariantMap row = m_model->get(m_model->rowOf(QStringLiteral("web")));
    QCOMPARE(row.value(QStringLiteral("kit")).toString(), QStringLiteral("pi"));
    QCOMPARE(row.value(QStringLiteral("backend")).toString(), QStringLiteral("bwrap"));
    QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    QCOMPARE(row.value(QStringLiteral("workspace")).toString(), QStringLiteral("/home/me/web"));
    QVERIFY(!row.value(QStringLiteral("uptime")).toString().isEmpty());
    QCOMPARE(row.value(QStringLiteral("rootText")).toString(), QStringLiteral("root 1.2 MB over image pi:1"));
    // The stored refusals were asked for this sandbox, since it started.
    QTRY_COMPARE(m_denialQueries.size(), 1);
    QCOMPARE(m_denialQueries.constFirst().value(QLatin1String("sandbox")).toString(), QStringLiteral("web"));
    QCOMPARE(
        QDateTime::fromString(m_denialQueries.constFirst().value(QLatin1String("since")).toString(), Qt::ISODateWithMs),
        kStart);
}

void TestSandboxListModel::storedAndLiveRefusalsAreCountedOnce()
{
    QCOMPARE(denials(), 0);
    publish(denialEvent(QStringLiteral("web"), kStart.addSecs(5)));
    QCOMPARE(denials(), 1);
    // Other sandboxes, other outcomes and refusals from before the start are not this run's.
    publish(denialEvent(QStringLiteral("other"), kStart.addSecs(6)));
    publish(denialEvent(QStringLiteral("web"), kStart.addSecs(7), QStringLiteral("allowed")));
    publish(denialEvent(QStringLiteral("web"), kStart.addSecs(-60)));
    QCOMPARE(denials(), 1);

    // The store now holds that refusal and two more: counted from the store, not twice.
    m_stored = {QJsonObject{{QStringLiteral("sandbox"), QStringLiteral("web")},
                            {QStringLiteral("host"), QStringLiteral("denied.test")},
                            {QStringLiteral("count"), 2},
                            {QStringLiteral("lastSeen"), iso(kStart.addSecs(5))}},
                QJsonObject{{QStringLiteral("sandbox"), QStringLiteral("web")},
                            {QStringLiteral("host"), QStringLiteral("other.test")},
                            {QStringLiteral("count"), 1},
                            {QStringLiteral("lastSeen"), iso(kStart.addSecs(3))}}};
    // A new connection to the daemon makes the model ask the store again.
    m_denialQueries.clear();
    m_model->setDaemon(nullptr);
    m_model->setDaemon(m_status);
    QTRY_COMPARE(m_denialQueries.size(), 1);
    QTRY_COMPARE(denials(), 3);
    // A live refusal the store already holds does not count again; a newer one does.
    publish(denialEvent(QStringLiteral("web"), kStart.addSecs(4)));
    QCOMPARE(denials(), 3);
    publish(denialEvent(QStringLiteral("web"), kStart.addSecs(30)));
    QCOMPARE(denials(), 4);
}

void TestSandboxListModel::aRestartCountsFromTheNewStart()
{
    const QDateTime restart = kStart.addSecs(3600);
    QJsonObject sandbox = m_sandboxes[0].toObject();
    sandbox.insert(QStringLiteral("startedAt"), iso(restart));
    m_sandboxes[0] = sandbox;
    m_stored = {};
    m_denialQueries.clear();
    m_model->refresh();
    QTRY_COMPARE(m_denialQueries.size(), 1);
    QCOMPARE(
        QDateTime::fromString(m_denialQueries.constFirst().value(QLatin1String("since")).toString(), Qt::ISODateWithMs),
        restart);
    QTRY_COMPARE(denials(), 0);
    publish(denialEvent(QStringLiteral("web"), restart.addSecs(1)));
    QCOMPARE(denials(), 1);
}

void TestSandboxListModel::agentStateIsReadable()
{
    using Model = gui::SandboxListModel;
    QCOMPARE(Model::describeState(QStringLiteral("running"), QStringLiteral("running"), -1),
             QStringLiteral("Running · agent running"));
    QCOMPARE(Model::describeState(QStringLiteral("running"), QStringLiteral("exited"), 3),
             QStringLiteral("Running · agent exited (status 3)"));
    QCOMPARE(Model::describeState(QStringLiteral("running"), QStringLiteral("exited"), 0),
             QStringLiteral("Running · agent exited (status 0)"));
    QCOMPARE(Model::describeState(QStringLiteral("running"), QStringLiteral("none"), -1),
             QStringLiteral("Running · agent not started"));
    // A runtime that reports no agent: the sandbox's state alone.
    QCOMPARE(Model::describeState(QStringLiteral("running"), QString(), -1), QStringLiteral("Running"));
    // A stopped sandbox's exit status is its supervisor's (143 for a stop): not the user's business.
    QCOMPARE(Model::describeState(QStringLiteral("stopped"), QString(), 143), QStringLiteral("Stopped"));
    QCOMPARE(Model::describeState(QStringLiteral("created"), QString(), -1), QStringLiteral("Created"));
}

void TestSandboxListModel::agentStateFollowsTheList()
{
    auto sandbox = [](const QString &name, const QString &status, const QJsonObject &agent) {
        QJsonObject info{{QStringLiteral("name"), name},
                         {QStringLiteral("kit"), QStringLiteral("pi")},
                         {QStringLiteral("backend"), QStringLiteral("bwrap")},
                         {QStringLiteral("status"), status},
                         {QStringLiteral("workspace"), QStringLiteral("/home/me/") + name},
                         {QStringLiteral("startedAt"), iso(kStart)}};
        if (!agent.isEmpty())
            info.insert(QStringLiteral("agent"), agent);
        if (status == QLatin1String("stopped"))
            info.insert(QStringLiteral("exitCode"), 143);
        return info;
    };
    // As sandbox.list sends them (see SandboxService::withAgent).
    m_sandboxes = {sandbox(QStringLiteral("a-running"), QStringLiteral("running"),
                           {{QStringLiteral("state"), QStringLiteral("running")},
                            {QStringLiteral("pid"), 4},
                            {QStringLiteral("attached"), 1},
                            {QStringLiteral("sessions"), 0},
                            {QStringLiteral("startedAt"), QStringLiteral("2026-01-05T10:00:01Z")}}),
                   sandbox(QStringLiteral("b-exited"), QStringLiteral("running"),
                           {{QStringLiteral("state"), QStringLiteral("exited")},
                            {QStringLiteral("exitCode"), 3},
                            {QStringLiteral("attached"), 0},
                            {QStringLiteral("sessions"), 1},
                            {QStringLiteral("finishedAt"), QStringLiteral("2026-01-05T10:02:00Z")}}),
                   sandbox(QStringLiteral("c-stopped"), QStringLiteral("stopped"), {}),
                   sandbox(QStringLiteral("d-none"), QStringLiteral("running"),
                           {{QStringLiteral("state"), QStringLiteral("none")},
                            {QStringLiteral("attached"), 0},
                            {QStringLiteral("sessions"), 0}})};
    QSignalSpy reset(m_model, &QAbstractItemModel::modelReset);
    m_model->refresh();
    QTRY_COMPARE(m_model->rowCount(), 4);
    QVERIFY(reset.count() >= 1);
    auto role = [this](int row, gui::SandboxListModel::Role r) { return m_model->data(m_model->index(row), r); };
    using M = gui::SandboxListModel;
    QCOMPARE(role(0, M::AgentStateRole).toString(), QStringLiteral("running"));
    QCOMPARE(role(0, M::AgentAttachedRole).toInt(), 1);
    QCOMPARE(role(0, M::AgentExitCodeRole).toInt(), -1);
    QCOMPARE(role(0, M::StateTextRole).toString(), QStringLiteral("Running · agent running"));
    QCOMPARE(role(1, M::AgentStateRole).toString(), QStringLiteral("exited"));
    QCOMPARE(role(1, M::AgentExitCodeRole).toInt(), 3);
    QCOMPARE(role(1, M::StateTextRole).toString(), QStringLiteral("Running · agent exited (status 3)"));
    QCOMPARE(role(2, M::StatusRole).toString(), QStringLiteral("stopped"));
    QCOMPARE(role(2, M::AgentStateRole).toString(), QString());
    QCOMPARE(role(2, M::StateTextRole).toString(), QStringLiteral("Stopped"));
    QCOMPARE(role(3, M::StateTextRole).toString(), QStringLiteral("Running · agent not started"));
    // The names QML binds to.
    const QVariantMap row = m_model->get(m_model->rowOf(QStringLiteral("b-exited")));
    QCOMPARE(row.value(QStringLiteral("agentState")).toString(), QStringLiteral("exited"));
    QCOMPARE(row.value(QStringLiteral("agentExitCode")).toInt(), 3);
    QCOMPARE(row.value(QStringLiteral("stateText")).toString(), QStringLiteral("Running · agent exited (status 3)"));

    // The agent starts again (attach --start): the same row changes in place.
    QJsonObject again = m_sandboxes[1].toObject();
    again.insert(QStringLiteral("agent"), QJsonObject{{QStringLiteral("state"), QStringLiteral("running")},
                                                      {QStringLiteral("pid"), 9},
                                                      {QStringLiteral("attached"), 1},
                                                      {QStringLiteral("sessions"), 0}});
    m_sandboxes[1] = again;
    QSignalSpy changed(m_model, &QAbstractItemModel::dataChanged);
    reset.clear();
    m_model->refresh();
    QTRY_VERIFY(!changed.isEmpty());
    QCOMPARE(reset.count(), 0);
    // Row 1 changed in place (another row may change too: an uptime that crossed a boundary).
    const bool rowOneChanged = std::any_of(changed.cbegin(), changed.cend(), [](const QList<QVariant> &signal) {
        return signal.at(0).toModelIndex().row() <= 1 && signal.at(1).toModelIndex().row() >= 1;
    });
    QVERIFY(rowOneChanged);
    QCOMPARE(role(1, M::StateTextRole).toString(), QStringLiteral("Running · agent running"));
    QCOMPARE(role(1, M::AgentExitCodeRole).toInt(), -1);
}

void TestSandboxListModel::uptimeIsReadable()
{
    QCOMPARE(gui::SandboxListModel::formatUptime(12 * 1000), QStringLiteral("12 s"));
    QCOMPARE(gui::SandboxListModel::formatUptime(5 * 60 * 1000 + 59 * 1000), QStringLiteral("5 min"));
    QCOMPARE(gui::SandboxListModel::formatUptime((2 * 3600 + 5 * 60) * 1000), QStringLiteral("2 h 05 min"));
    QCOMPARE(gui::SandboxListModel::formatUptime(qint64(3 * 86400 + 4 * 3600) * 1000), QStringLiteral("3 d 4 h"));
}

void TestSandboxListModel::rootIsReadable()
{
    using M = gui::SandboxListModel;
    QCOMPARE(M::describeRoot(QStringLiteral("host"), QString(), 12000),
             QStringLiteral("root 12.0 kB over the host's system"));
    // What mounts it, as the daemon says it.
    QCOMPARE(M::describeRoot(QStringLiteral("host"), QString(), 12000, QStringLiteral("kernel overlay")),
             QStringLiteral("root 12.0 kB over the host's system (kernel overlay)"));
    QCOMPARE(M::describeRoot(QStringLiteral("image"), QStringLiteral("pi:1"), -1),
             QStringLiteral("root size unknown over image pi:1"));
    // The host's system read-only is no root of its own: nothing to show.
    QVERIFY(M::describeRoot(QStringLiteral("read-only"), QString(), -1).isEmpty());
    QVERIFY(M::describeRoot(QString(), QString(), -1).isEmpty());
}

void TestSandboxListModel::theEngineIsNamedWhenNotLocal()
{
    const auto backend = [](const QString &runtime, const QString &engine, const QString &isolation) {
        const std::optional<gui::SandboxRow> row =
            gui::SandboxRow::fromJson({{QStringLiteral("name"), QStringLiteral("x")},
                                       {QStringLiteral("backend"), runtime},
                                       {QStringLiteral("engine"), engine},
                                       {QStringLiteral("isolation"), isolation}});
        return row ? row->backend : QString();
    };
    // This computer's own engine goes without saying, as in `paddock ls`; any other is named.
    QCOMPARE(backend(QStringLiteral("docker"), QStringLiteral("local"), QStringLiteral("container")),
             QStringLiteral("docker"));
    QCOMPARE(backend(QStringLiteral("bwrap"), QString(), QStringLiteral("container")), QStringLiteral("bwrap"));
    QCOMPARE(backend(QStringLiteral("docker"), QStringLiteral("lab"), QStringLiteral("container")),
             QStringLiteral("docker on engine lab"));
    QCOMPARE(backend(QStringLiteral("docker"), QStringLiteral("lab"), QStringLiteral("gvisor")),
             QStringLiteral("docker + gVisor on engine lab"));
}

void TestSandboxListModel::agentVerbsAreTheKitsTerminalVerbs()
{
    const std::optional<gui::SandboxRow> declared = gui::SandboxRow::fromJson(
        {{QStringLiteral("name"), QStringLiteral("x")},
         {QStringLiteral("agentVerbs"),
          QJsonObject{{QStringLiteral("terminal"), QJsonArray{QStringLiteral("new-session"), QStringLiteral("resume")}},
                      {QStringLiteral("headless"), QJsonArray{QStringLiteral("prompt")}}}}});
    QVERIFY(declared);
    QCOMPARE(declared->agentVerbs, (QStringList{QStringLiteral("new-session"), QStringLiteral("resume")}));
    const std::optional<gui::SandboxRow> none =
        gui::SandboxRow::fromJson({{QStringLiteral("name"), QStringLiteral("y")}});
    QVERIFY(none && none->agentVerbs.isEmpty());
    QVERIFY(!declared->sameState(*none));
}

void TestSandboxListModel::startAndStopSayTheSameWhenTheDaemonGoes()
{
    QSignalSpy failed(m_model, &gui::SandboxListModel::actionFailed);
    const auto saidTheSame = [&failed] {
        QCOMPARE(failed.size(), 2);
        QCOMPARE(failed.at(0).at(0).toString(), gui::DaemonLink::notConnectedMessage());
        QCOMPARE(failed.at(1).at(0).toString(), gui::DaemonLink::notConnectedMessage());
    };
    // An approved start (no binding check first) and a stop, both waiting for the daemon...
    m_model->start(QStringLiteral("web"), true);
    m_model->stop(QStringLiteral("web"));
    QTRY_COMPARE(m_held.size(), 2);
    QVERIFY(m_model->get(0).value(QStringLiteral("busy")).toBool());
    // ...which goes away before it answers.
    m_status->client()->disconnectFromDaemon();
    QTRY_COMPARE(failed.size(), 2);
    saidTheSame();
    QVERIFY(!m_model->get(0).value(QStringLiteral("busy")).toBool());

    // Asked again while it is gone: the same sentence, and nothing is sent.
    failed.clear();
    m_model->start(QStringLiteral("web"), true);
    m_model->stop(QStringLiteral("web"));
    QTRY_COMPARE(failed.size(), 2);
    saidTheSame();
    QCOMPARE(m_held.size(), 2);
}

QTEST_GUILESS_MAIN(TestSandboxListModel)
#include "tst_sandbox_list_model.moc"
