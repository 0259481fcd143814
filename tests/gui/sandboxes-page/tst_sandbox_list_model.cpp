// SPDX-License-Identifier: GPL-3.0-or-later
// The Sandboxes page's model against a protocol server the test controls, so the order of
// stored and live refusals is chosen rather than raced: refusals since a sandbox started are
// the stored ones plus those that arrive live, each counted once.
#include "DaemonStatus.h"
#include "GuiTestSupport.h"
#include "SandboxListModel.h"

#include "api/Server.h"
#include "common/Paths.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

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
    void listsWhatTheDaemonRuns();
    void storedAndLiveRefusalsAreCountedOnce();
    void aRestartCountsFromTheNewStart();
    void uptimeIsReadable();

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
    gui::DaemonStatus *m_status = nullptr;
    gui::SandboxListModel *m_model = nullptr;
};

void TestSandboxListModel::initTestCase()
{
    guitest::isolateEnvironment();
    m_sandboxes = {QJsonObject{{QStringLiteral("name"), QStringLiteral("web")},
                               {QStringLiteral("kit"), QStringLiteral("pi")},
                               {QStringLiteral("backend"), QStringLiteral("bwrap")},
                               {QStringLiteral("status"), QStringLiteral("running")},
                               {QStringLiteral("workspace"), QStringLiteral("/home/me/web")},
                               {QStringLiteral("startedAt"), iso(kStart)}}};
    m_server.registerMethod(QStringLiteral("sandbox.list"), [this](const QJsonObject &, const api::CallContext &) {
        return api::Reply::success({{QStringLiteral("sandboxes"), m_sandboxes}});
    });
    m_server.registerMethod(QStringLiteral("events.denials"),
                            [this](const QJsonObject &params, const api::CallContext &) {
                                m_denialQueries << params;
                                return api::Reply::success({{QStringLiteral("denials"), m_stored}});
                            });
    m_server.registerTopic(QStringLiteral("network"));
    QString error;
    QVERIFY2(m_server.listen(paths::daemonSocket(), &error), qPrintable(error));

    m_status = new gui::DaemonStatus(this);
    m_model = new gui::SandboxListModel(this);
    m_model->setDaemon(m_status);
    QTRY_VERIFY(m_model->loaded());
}

void TestSandboxListModel::listsWhatTheDaemonRuns()
{
    QCOMPARE(m_model->rowCount(), 1);
    const QVariantMap row = m_model->get(QStringLiteral("web"));
    QCOMPARE(row.value(QStringLiteral("kit")).toString(), QStringLiteral("pi"));
    QCOMPARE(row.value(QStringLiteral("backend")).toString(), QStringLiteral("bwrap"));
    QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    QCOMPARE(row.value(QStringLiteral("workspace")).toString(), QStringLiteral("/home/me/web"));
    QVERIFY(!row.value(QStringLiteral("uptime")).toString().isEmpty());
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

void TestSandboxListModel::uptimeIsReadable()
{
    QCOMPARE(gui::SandboxListModel::formatUptime(12 * 1000), QStringLiteral("12 s"));
    QCOMPARE(gui::SandboxListModel::formatUptime(5 * 60 * 1000 + 59 * 1000), QStringLiteral("5 min"));
    QCOMPARE(gui::SandboxListModel::formatUptime((2 * 3600 + 5 * 60) * 1000), QStringLiteral("2 h 05 min"));
    QCOMPARE(gui::SandboxListModel::formatUptime(qint64(3 * 86400 + 4 * 3600) * 1000), QStringLiteral("3 d 4 h"));
}

QTEST_GUILESS_MAIN(TestSandboxListModel)
#include "tst_sandbox_list_model.moc"
