// SPDX-License-Identifier: GPL-3.0-or-later
// The Network page's view models against the real daemon and a real sandbox: rules that
// follow every change, refusals loaded then counted live in place, dismiss and allow, the
// learning proposal, and notifications through a notification server on the session bus.
// Every test function has a Paddock of its own (daemon, policy, event log and sandbox), made
// by init() and taken down by cleanup(), so each one passes alone and in any order.
#include "NetworkTestSupport.h"

#include "DenialsModel.h"
#include "LearningModel.h"
#include "NetworkNotifier.h"
#include "NetworkPolicy.h"
#include "RequestsModel.h"
#include "RulesModel.h"
#include "api/DaemonClient.h"

#include "Needs.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QtTest>

#include <memory>

using namespace paddock;
using namespace paddock::gui;
using paddock::guitest::NetworkFixture;

/** @brief Stands in for the desktop's notification server: records Notify calls. */
class FakeNotifications : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Shown
    {
        QString summary;
        QString body;
        QStringList actions;
    };
    QList<Shown> shown;

public Q_SLOTS:
    uint Notify(const QString &, uint, const QString &, const QString &summary, const QString &body,
                const QStringList &actions, const QVariantMap &, int)
    {
        shown.append({summary, body, actions});
        return uint(shown.size());
    }
    QStringList GetCapabilities() { return {QStringLiteral("actions")}; }
};

class TestNetworkModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void allowChoicesStartNarrow();
    void rulesLoadAndFollowEveryChange();
    void refusalsLoadThenCountLiveInPlace();
    void dismissTakesTheRowAwayUntilRefusedAgain();
    void allowTakesTheRowAwayAndLetsTheNextRequestThrough();
    void learningProposalIsChecked();
    void learningLeavesOutWhatARuleAllowsAlready();
    void requestsLoadThenFollowLive();
    void requestsKeepTheNewestWithinTheLimit();
    void notifiesOncePerHostWhileInTheBackground();

private:
    static int rowOfHost(const DenialsModel &model, const QString &host)
    {
        return model.rowOf(host, QLatin1String(NetworkFixture::kSandbox));
    }

    /** The function's own daemon and sandbox, and a client connected to that daemon. */
    std::unique_ptr<NetworkFixture> m_network;
    std::unique_ptr<api::DaemonClient> m_client;
};

void TestNetworkModels::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("paddock-tests"));
}

void TestNetworkModels::init()
{
    m_network = std::make_unique<NetworkFixture>();
    QVERIFY2(m_network->setUp(), "the fixture did not start (python3, paddockd)");
    QVERIFY(m_network->startSandbox());
    m_client = std::make_unique<api::DaemonClient>();
    m_client->setSocketPath(m_network->socketPath());
    m_client->connectToDaemon();
    QTRY_VERIFY_WITH_TIMEOUT(m_client->isConnected(), 10000);
}

void TestNetworkModels::cleanup()
{
    if (m_client)
        m_client->disconnectFromDaemon();
    m_client.reset();
    // Removes the sandbox and stops the daemon; the next function starts from nothing.
    m_network.reset();
}

void TestNetworkModels::allowChoicesStartNarrow()
{
    const QVariantMap choices = NetworkPolicy::allowChoicesFor(QStringLiteral("api.example.com"), 443);
    QCOMPARE(choices.value(QStringLiteral("exact")).toString(), QStringLiteral("api.example.com"));
    QCOMPARE(choices.value(QStringLiteral("wildcard")).toString(), QStringLiteral("*.example.com"));
    QCOMPARE(choices.value(QStringLiteral("deep")).toString(), QStringLiteral("**.example.com"));
    QCOMPARE(choices.value(QStringLiteral("anyport")).toString(), QStringLiteral("api.example.com:*"));
    QVERIFY(!choices.contains(QStringLiteral("hostport"))); // the same rule as exact
    const QVariantMap top = NetworkPolicy::allowChoicesFor(QStringLiteral("example.com"), 8080);
    QCOMPARE(top.value(QStringLiteral("exact")).toString(), QStringLiteral("example.com:8080"));
    QVERIFY(top.value(QStringLiteral("wildcard")).toString().isEmpty());
    QVERIFY(NetworkPolicy::allowChoicesFor(QStringLiteral("10.0.0.1"), 443)
                .value(QStringLiteral("deep"))
                .toString()
                .isEmpty());
    QCOMPARE(NetworkPolicy::allowCommandFor(QStringLiteral("a.test"), 8080, QStringLiteral("net"),
                                            QStringLiteral("kit"), QStringLiteral("exact")),
             QStringLiteral("paddock policy allow network a.test --port 8080 --sandbox net --where kit"));
}

void TestNetworkModels::rulesLoadAndFollowEveryChange()
{
    NetworkPolicy policy;
    QSignalSpy finished(&policy, &NetworkPolicy::actionFinished);
    policy.setClient(m_client.get());
    QTRY_VERIFY(policy.loaded());
    QCOMPARE(policy.preset(), QStringLiteral("deny-all"));
    RulesModel *rules = policy.rules();
    const int kitRules = rules->rowCount(); // the running kit's, read-only
    QVERIFY(kitRules >= 1);
    QVERIFY(rules->get(0).value(QStringLiteral("readOnly")).toBool());

    policy.addRule(QStringLiteral("pypi.org"), QStringLiteral("allow"), QStringLiteral("global"));
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(finished.at(0).at(1).toBool());
    QTRY_COMPARE(rules->rowCount(), kitRules + 1);
    QVERIFY(m_network->userRules().contains(QStringLiteral("global pypi.org")));

    // A change made elsewhere (the CLI, another window) shows up by itself.
    QVERIFY(!m_network->call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("crates.io")}})
                 .isError());
    QTRY_COMPARE(rules->rowCount(), kitRules + 2);

    rules->setFilter(QStringLiteral("CRATES"));
    QCOMPARE(rules->rowCount(), 1);
    QCOMPARE(rules->get(0).value(QStringLiteral("pattern")).toString(), QStringLiteral("crates.io"));
    rules->setFilter(QStringLiteral("nothing-like-this"));
    QCOMPARE(rules->rowCount(), 0);
    QCOMPARE(rules->totalCount(), kitRules + 2);
    rules->setFilter(QStringLiteral("pypi"));
    const QString id = rules->get(0).value(QStringLiteral("ruleId")).toString();

    policy.updateRule(id, QStringLiteral("*.pypi.org"), QStringLiteral("deny"), QStringLiteral("sandbox:net"));
    QTRY_COMPARE(finished.size(), 2);
    QVERIFY2(finished.at(1).at(1).toBool(), qPrintable(finished.at(1).at(2).toString()));
    QTRY_COMPARE(rules->get(0).value(QStringLiteral("pattern")).toString(), QStringLiteral("*.pypi.org"));
    QCOMPARE(rules->get(0).value(QStringLiteral("decision")).toString(), QStringLiteral("deny"));
    QCOMPARE(rules->get(0).value(QStringLiteral("scope")).toString(), QStringLiteral("sandbox:net"));

    policy.removeRule(rules->get(0).value(QStringLiteral("ruleId")).toString());
    QTRY_COMPARE(finished.size(), 3);
    QTRY_COMPARE(rules->rowCount(), 0);
    rules->setFilter({});
    QCOMPARE(rules->rowCount(), kitRules + 1);

    // A refusal says why, and changes nothing.
    policy.addRule(QStringLiteral("not a pattern"), QStringLiteral("allow"), QStringLiteral("global"));
    QTRY_COMPARE(finished.size(), 4);
    QVERIFY(!finished.at(3).at(1).toBool());
    QVERIFY(!policy.error().isEmpty());

    policy.setPreset(QStringLiteral("balanced"));
    QTRY_COMPARE(policy.preset(), QStringLiteral("balanced"));
    policy.setPreset(QStringLiteral("deny-all"));
    QTRY_COMPARE(policy.preset(), QStringLiteral("deny-all"));
    rules->setFilter(QStringLiteral("crates.io"));
    const QString cratesId = rules->get(0).value(QStringLiteral("ruleId")).toString();
    rules->setFilter({});
    QVERIFY(!m_network->call(QStringLiteral("policy.remove"), {{QStringLiteral("id"), cratesId}}).isError());
    QTRY_COMPARE(rules->rowCount(), kitRules);
}

void TestNetworkModels::refusalsLoadThenCountLiveInPlace()
{
    // Refused before the model exists: it comes from the stored log.
    QCOMPARE(m_network->fetch(QStringLiteral("other.test")), QStringLiteral("403"));
    NetworkPolicy policy;
    policy.setClient(m_client.get());
    DenialsModel *denials = policy.denials();
    QTRY_COMPARE(denials->rowCount(), 1);
    QCOMPARE(denials->get(0).value(QStringLiteral("host")).toString(), QStringLiteral("other.test"));
    QCOMPARE(denials->get(0).value(QStringLiteral("count")).toLongLong(), 1);
    QCOMPARE(denials->get(0).value(QStringLiteral("kit")).toString(), QStringLiteral("probe"));
    QVERIFY(!denials->get(0).value(QStringLiteral("reason")).toString().isEmpty());

    // Refused again: the same row counts up, nothing is added.
    QSignalSpy inserted(denials, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(denials, &QAbstractItemModel::dataChanged);
    QCOMPARE(m_network->fetch(QStringLiteral("other.test")), QStringLiteral("403"));
    QTRY_COMPARE(denials->get(0).value(QStringLiteral("count")).toLongLong(), 2);
    QCOMPARE(denials->rowCount(), 1);
    QCOMPARE(inserted.size(), 0);
    QVERIFY(changed.size() >= 1);

    // A new host goes on top.
    QSignalSpy denied(denials, &DenialsModel::denied);
    QCOMPARE(m_network->fetch(QStringLiteral("third.test")), QStringLiteral("403"));
    QTRY_COMPARE(denials->rowCount(), 2);
    QCOMPARE(denials->get(0).value(QStringLiteral("host")).toString(), QStringLiteral("third.test"));
    QCOMPARE(rowOfHost(*denials, QStringLiteral("other.test")), 1);
    QCOMPARE(denied.size(), 1);
    QVERIFY(denied.at(0).at(3).toBool());

    // What the model counted live is what the daemon stored.
    DenialsModel fresh;
    fresh.setClient(m_client.get());
    QTRY_COMPARE(fresh.rowCount(), 2);
    QCOMPARE(fresh.get(rowOfHost(fresh, QStringLiteral("other.test"))).value(QStringLiteral("count")).toLongLong(), 2);
}

void TestNetworkModels::dismissTakesTheRowAwayUntilRefusedAgain()
{
    QCOMPARE(m_network->fetch(QStringLiteral("other.test")), QStringLiteral("403"));
    QCOMPARE(m_network->fetch(QStringLiteral("third.test")), QStringLiteral("403"));
    NetworkPolicy policy;
    policy.setClient(m_client.get());
    DenialsModel *denials = policy.denials();
    QTRY_COMPARE(denials->rowCount(), 2);
    QSignalSpy finished(&policy, &NetworkPolicy::actionFinished);
    policy.dismiss(QStringLiteral("other.test"), QLatin1String(NetworkFixture::kSandbox));
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(finished.at(0).at(1).toBool());
    QCOMPARE(rowOfHost(*denials, QStringLiteral("other.test")), -1);
    QCOMPARE(denials->rowCount(), 1);
    denials->reload();
    QTRY_VERIFY(!denials->loading());
    QCOMPARE(denials->rowCount(), 1);

    QCOMPARE(m_network->fetch(QStringLiteral("other.test")), QStringLiteral("403"));
    QTRY_COMPARE(rowOfHost(*denials, QStringLiteral("other.test")), 0);
    QCOMPARE(denials->get(0).value(QStringLiteral("count")).toLongLong(), 1);
}

void TestNetworkModels::allowTakesTheRowAwayAndLetsTheNextRequestThrough()
{
    QCOMPARE(m_network->fetch(QStringLiteral("third.test")), QStringLiteral("403"));
    NetworkPolicy policy;
    policy.setClient(m_client.get());
    DenialsModel *denials = policy.denials();
    QTRY_VERIFY(rowOfHost(*denials, QStringLiteral("third.test")) >= 0);
    const QVariantMap row = denials->get(rowOfHost(*denials, QStringLiteral("third.test")));
    QSignalSpy finished(&policy, &NetworkPolicy::actionFinished);
    policy.allow(row.value(QStringLiteral("host")).toString(), row.value(QStringLiteral("port")).toInt(),
                 row.value(QStringLiteral("sandbox")).toString(), QStringLiteral("sandbox"), QStringLiteral("exact"));
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).toString()));
    QCOMPARE(rowOfHost(*denials, QStringLiteral("third.test")), -1);
    QCOMPARE(m_network->fetch(QStringLiteral("third.test")), QStringLiteral("200"));
    QVERIFY(m_network->userRules().contains(
        QStringLiteral("sandbox:net third.test:%1").arg(m_network->fixture().upstreamPort())));
}

void TestNetworkModels::requestsLoadThenFollowLive()
{
    const QString port = QString::number(m_network->fixture().upstreamPort());
    QVERIFY(
        !m_network
             ->call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("fourth.test:") + port}})
             .isError());
    QCOMPARE(m_network->fetch(QStringLiteral("fourth.test")), QStringLiteral("200")); // before the model: loaded

    NetworkPolicy policy;
    policy.setClient(m_client.get());
    RequestsModel requests;
    requests.setPolicy(&policy);
    QTRY_VERIFY(!requests.loading() && requests.rowCount() == 1);
    QVariantMap row = requests.get(0);
    QCOMPARE(row.value(QStringLiteral("method")).toString(), QStringLiteral("GET"));
    QCOMPARE(row.value(QStringLiteral("url")).toString(), QStringLiteral("http://fourth.test:%1/hello.txt").arg(port));
    QCOMPARE(row.value(QStringLiteral("status")).toInt(), 200);
    QCOMPARE(row.value(QStringLiteral("sandbox")).toString(), QLatin1String(NetworkFixture::kSandbox));
    QCOMPARE(row.value(QStringLiteral("program")).toString(), QStringLiteral("curl"));
    QVERIFY(row.value(QStringLiteral("bytesDown")).toLongLong() > 0);

    // A request made now arrives live, at the top, once.
    const test::Finished post = m_network->fixture().paddock(
        {QStringLiteral("exec"), QLatin1String(NetworkFixture::kSandbox), QStringLiteral("curl"), QStringLiteral("-s"),
         QStringLiteral("-o"), QStringLiteral("/dev/null"), QStringLiteral("-X"), QStringLiteral("POST"),
         QStringLiteral("-d"), QStringLiteral("x"), m_network->url(QStringLiteral("fourth.test"))});
    QCOMPARE(post.exitCode, 0);
    QTRY_COMPARE(requests.rowCount(), 2);
    QCOMPARE(requests.get(0).value(QStringLiteral("method")).toString(), QStringLiteral("POST"));
    QTest::qWait(300);
    QCOMPARE(requests.rowCount(), 2);
    requests.reload(); // the same two from the log, not four
    QTRY_VERIFY(!requests.loading());
    QCOMPARE(requests.rowCount(), 2);

    // The filter hides without asking again; another sandbox's requests are none of these.
    requests.setFilter(QStringLiteral("post"));
    QCOMPARE(requests.rowCount(), 1);
    QCOMPARE(requests.totalCount(), 2);
    requests.setFilter(QStringLiteral("curl"));
    QCOMPARE(requests.rowCount(), 2);
    requests.setFilter({});
    requests.setSandbox(QStringLiteral("another"));
    QTRY_VERIFY(!requests.loading());
    QCOMPARE(requests.totalCount(), 0);
    QCOMPARE(m_network->fetch(QStringLiteral("fourth.test")), QStringLiteral("200"));
    QTest::qWait(500);
    QCOMPARE(requests.totalCount(), 0);
    requests.setSandbox(QLatin1String(NetworkFixture::kSandbox));
    QTRY_COMPARE(requests.totalCount(), 3);
}

void TestNetworkModels::requestsKeepTheNewestWithinTheLimit()
{
    RequestsModel requests;
    const auto record = [](int n) {
        return QJsonObject{
            {QStringLiteral("time"), QStringLiteral("2026-12-01T10:00:%1.000Z").arg(n, 2, 10, QLatin1Char('0'))},
            {QStringLiteral("sandbox"), QStringLiteral("net")},
            {QStringLiteral("method"), n % 2 ? QStringLiteral("POST") : QStringLiteral("GET")},
            {QStringLiteral("host"), QStringLiteral("api.example.com")},
            {QStringLiteral("port"), 443},
            {QStringLiteral("protocol"), QStringLiteral("connect")},
            {QStringLiteral("path"), QStringLiteral("/n/%1").arg(n)},
            {QStringLiteral("status"), 200}};
    };
    requests.setLimit(3);
    requests.setRecords({record(5), record(4), record(3), record(2)}); // newest first, one too many
    QCOMPARE(requests.rowCount(), 3);
    QCOMPARE(requests.get(0).value(QStringLiteral("url")).toString(), QStringLiteral("https://api.example.com/n/5"));
    requests.setFilter(QStringLiteral("POST"));
    QCOMPARE(requests.rowCount(), 2); // 5 and 3
    requests.addRecord(record(6));    // GET: kept, not shown; 3 goes
    QCOMPARE(requests.totalCount(), 3);
    QCOMPARE(requests.rowCount(), 1);
    QCOMPARE(requests.get(0).value(QStringLiteral("path")).toString(), QStringLiteral("/n/5"));
    requests.addRecord(record(7)); // POST: shown at the top; 4 goes
    QCOMPARE(requests.rowCount(), 2);
    QCOMPARE(requests.get(0).value(QStringLiteral("path")).toString(), QStringLiteral("/n/7"));
    requests.setFilter({});
    QStringList paths;
    for (int i = 0; i < requests.rowCount(); ++i)
        paths << requests.get(i).value(QStringLiteral("path")).toString();
    QCOMPARE(paths, (QStringList{QStringLiteral("/n/7"), QStringLiteral("/n/6"), QStringLiteral("/n/5")}));
}

void TestNetworkModels::learningProposalIsChecked()
{
    LearningModel learning;
    learning.setProposal(QJsonObject{
        {QStringLiteral("entries"), QJsonArray{QJsonObject{{QStringLiteral("host"), QStringLiteral("a.example.com")},
                                                           {QStringLiteral("count"), 3}}}},
        {QStringLiteral("patterns"), QJsonArray{QStringLiteral("*.example.com"), QStringLiteral("pypi.org")}}});
    QCOMPARE(learning.rowCount(), 2);
    QCOMPARE(learning.checkedCount(), 2); // everything proposed starts checked
    learning.setChecked(1, false);
    QCOMPARE(learning.checkedCount(), 1);
    QCOMPARE(learning.entries().size(), 1);
    // A refresh of the same patterns keeps the user's choice.
    learning.setProposal(QJsonObject{
        {QStringLiteral("patterns"), QJsonArray{QStringLiteral("*.example.com"), QStringLiteral("pypi.org")}}});
    QCOMPARE(learning.data(learning.index(1), LearningModel::CheckedRole).toBool(), false);
    learning.checkAll(true);
    QCOMPARE(learning.checkedCount(), 2);

    // Against the daemon: the sandboxes are listed, and learning is offered when the daemon has it.
    NetworkPolicy policy;
    policy.setClient(m_client.get());
    learning.setPolicy(&policy);
    QTRY_VERIFY(learning.sandboxes().contains(QLatin1String(NetworkFixture::kSandbox)));
    QCOMPARE(learning.sandbox(), QLatin1String(NetworkFixture::kSandbox));
    const bool daemonHasIt =
        m_network->call(QStringLiteral("policy.proposal"), {{QStringLiteral("sandbox"), QStringLiteral("net")}})
            .errorCode() != QLatin1String(api::errors::kUnknownMethod);
    QTRY_COMPARE(learning.available(), daemonHasIt);
    if (!daemonHasIt)
        return;
    // Applying adds the checked patterns as the sandbox's rules.
    learning.setProposal(QJsonObject{{QStringLiteral("patterns"), QJsonArray{QStringLiteral("learned.example.org")}}});
    QSignalSpy applied(&learning, &LearningModel::applied);
    learning.apply(false, QStringLiteral("sandbox"));
    QTRY_COMPARE(applied.size(), 1);
    QVERIFY(m_network->userRules().contains(QStringLiteral("sandbox:net learned.example.org")));
}

void TestNetworkModels::learningLeavesOutWhatARuleAllowsAlready()
{
    const QString port = QString::number(m_network->fixture().upstreamPort());
    QVERIFY(!m_network
                 ->call(QStringLiteral("sandbox.learning"),
                        {{QStringLiteral("name"), QStringLiteral("net")}, {QStringLiteral("enabled"), true}})
                 .isError());
    QCOMPARE(m_network->fetch(QStringLiteral("third.test")), QStringLiteral("200"));
    QCOMPARE(m_network->fetch(QStringLiteral("fourth.test")), QStringLiteral("200"));
    NetworkPolicy policy;
    policy.setClient(m_client.get());
    LearningModel learning;
    learning.setPolicy(&policy);
    const auto proposed = [&learning] {
        QStringList patterns;
        for (int row = 0; row < learning.rowCount(); ++row)
            patterns << learning.data(learning.index(row), LearningModel::PatternRole).toString();
        return patterns;
    };
    QTRY_VERIFY2(proposed().contains(QStringLiteral("third.test:") + port), qPrintable(proposed().join(u' ')));
    QVERIFY(proposed().contains(QStringLiteral("fourth.test:") + port));

    // The same rule added elsewhere (the CLI, an answer to ask mode): no longer proposed.
    QVERIFY(
        !m_network
             ->call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("third.test:") + port},
                                                   {QStringLiteral("scope"), QStringLiteral("sandbox:net")}})
             .isError());
    QTRY_VERIFY2(!proposed().contains(QStringLiteral("third.test:") + port), qPrintable(proposed().join(u' ')));
    QVERIFY(proposed().contains(QStringLiteral("fourth.test:") + port));
    // A broader rule covers it too: this host on any port.
    QVERIFY(!m_network
                 ->call(QStringLiteral("policy.add"), {{QStringLiteral("pattern"), QStringLiteral("fourth.test:*")},
                                                       {QStringLiteral("scope"), QStringLiteral("global")}})
                 .isError());
    QTRY_VERIFY2(proposed().isEmpty(), qPrintable(proposed().join(u' ')));
}

void TestNetworkModels::notifiesOncePerHostWhileInTheBackground()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    PADDOCK_NEED(bus.isConnected(), "a D-Bus session bus (run under dbus-run-session, as tests/run-all.sh does)");
    FakeNotifications server;
    QVERIFY(
        bus.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &server, QDBusConnection::ExportAllSlots));
    PADDOCK_NEED(bus.registerService(QStringLiteral("org.freedesktop.Notifications")),
                 "a session bus where no other notification server owns org.freedesktop.Notifications");

    NetworkPolicy policy;
    policy.setClient(m_client.get());
    QTRY_VERIFY(policy.loaded());
    QTRY_VERIFY(!policy.denials()->loading());
    NetworkNotifier notifier;
    notifier.setEnabled(true);
    notifier.setPolicy(&policy);
    QSignalSpy sent(&notifier, &NetworkNotifier::sent);

    // The window is in front: nothing.
    notifier.setWindowActive(true);
    QCOMPARE(m_network->fetch(QStringLiteral("fourth.test")), QStringLiteral("403"));
    QTRY_VERIFY(policy.denials()->rowOf(QStringLiteral("fourth.test"), QStringLiteral("net")) >= 0);

    // In the background: one notification, with an Allow button.
    notifier.setWindowActive(false);
    QCOMPARE(m_network->fetch(QStringLiteral("fifth.test")), QStringLiteral("403"));
    QTRY_COMPARE(sent.size(), 1);
    QCOMPARE(server.shown.size(), 1);
    QVERIFY(server.shown.at(0).summary.contains(QLatin1String("fifth.test")));
    QVERIFY(server.shown.at(0).actions.contains(QLatin1String("allow")));
    // Again within the minute: no second one for the same host.
    QCOMPARE(m_network->fetch(QStringLiteral("fifth.test")), QStringLiteral("403"));
    QTRY_COMPARE(policy.denials()
                     ->get(policy.denials()->rowOf(QStringLiteral("fifth.test"), QStringLiteral("net")))
                     .value(QStringLiteral("count"))
                     .toLongLong(),
                 2);
    QCOMPARE(server.shown.size(), 1);
    // Switched off: nothing either.
    notifier.setEnabled(false);
    QCOMPARE(m_network->fetch(QStringLiteral("fourth.test")), QStringLiteral("403"));
    QTRY_COMPARE(policy.denials()
                     ->get(policy.denials()->rowOf(QStringLiteral("fourth.test"), QStringLiteral("net")))
                     .value(QStringLiteral("count"))
                     .toLongLong(),
                 2);
    QCOMPARE(server.shown.size(), 1);
    QTRY_COMPARE(notifier.sentCount(), 1); // the window has the server's reply: a click can name it

    // The notification's Allow button allows the host for that sandbox, exactly.
    QSignalSpy invoked(&notifier, &NetworkNotifier::allowInvoked);
    QDBusMessage signal =
        QDBusMessage::createSignal(QStringLiteral("/org/freedesktop/Notifications"),
                                   QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
    signal << uint(1) << QStringLiteral("allow");
    QVERIFY(bus.send(signal));
    QTRY_COMPARE(invoked.size(), 1);
    QTRY_VERIFY(m_network->userRules().contains(
        QStringLiteral("sandbox:net fifth.test:%1").arg(m_network->fixture().upstreamPort())));
    QCOMPARE(m_network->fetch(QStringLiteral("fifth.test")), QStringLiteral("200"));
    bus.unregisterService(QStringLiteral("org.freedesktop.Notifications"));
    bus.unregisterObject(QStringLiteral("/org/freedesktop/Notifications"));
}

QTEST_MAIN(TestNetworkModels)
#include "tst_network_models.moc"
