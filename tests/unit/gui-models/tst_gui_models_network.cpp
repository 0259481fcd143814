// SPDX-License-Identifier: GPL-3.0-or-later
// The Network page's models fed with what paddockd sends: refused connections from
// `events.denials` then counted live from `network` events, the rules of `policy.get`, the
// learning proposal of `policy.proposal`, and the agent's refusals of `agent.refusals` and topic
// `agent`. Each row is read through data() under the role names QML binds to.
#include "GuiModelsSupport.h"

#include "AgentRefusalsModel.h"
#include "DenialsModel.h"
#include "LearningModel.h"
#include "RulesModel.h"
#include "events/NetworkEvent.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

using namespace paddock;
using namespace paddock::gui;
using test::column;
using test::shown;
using test::wireEvent;
using test::wireResult;

class TestGuiModelsNetwork : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void refusalsAreListedMostRecentFirst();
    void aRefusalOfAListedHostCountsUpInPlace();
    void aRefusalOfANewHostGoesOnTop();
    void aSecretGuardRefusalNamesItsValue();
    void whatIsLoadedOrAllowedDoesNotCount();
    void aRemovedRowComesBackOnlyWithANewRefusal();
    void rulesSayWhereEachComesFrom();
    void aRuleLimitedToAProgramOrRequestsSaysSo();
    void theLearningProposalListsPatternsChecked();
    void agentRefusalsLeaveOutTheDismissed();
    void anAgentRefusalComesToTheTop();

private:
    static void load(DenialsModel &model)
    {
        model.setDenials(wireResult(QStringLiteral("events-denials")).value(QLatin1String("denials")).toArray());
    }
};

void TestGuiModelsNetwork::refusalsAreListedMostRecentFirst()
{
    DenialsModel model;
    QSignalSpy count(&model, &DenialsModel::countChanged);
    load(model);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(count.size(), 1);
    QCOMPARE(column(model, "host"),
             QStringList({QStringLiteral("registry.npmjs.org"), QStringLiteral("169.254.169.254"),
                          QStringLiteral("registry.npmjs.org")}));
    QCOMPARE(column(model, "sandbox"),
             QStringList({QStringLiteral("web"), QStringLiteral("web"), QStringLiteral("ml")}));
    QCOMPARE(shown(model, 0, "kit").toString(), QStringLiteral("pi"));
    QCOMPARE(shown(model, 0, "port").toInt(), 443);
    QCOMPARE(shown(model, 0, "count").toLongLong(), 5);
    QCOMPARE(shown(model, 0, "reason").toString(),
             QStringLiteral("no rule allows registry.npmjs.org:443 (default deny)"));
    QCOMPARE(shown(model, 1, "rule").toString(), QStringLiteral("3f2a9c1d"));
    // Not today: the day is said too (TZ=UTC).
    QCOMPARE(shown(model, 0, "lastSeenText").toString(), QStringLiteral("2026-01-05 10:02"));
    QCOMPARE(shown(model, 2, "firstSeen").toDateTime(),
             QDateTime::fromString(QStringLiteral("2026-01-05T09:31:00.000Z"), Qt::ISODateWithMs));
    // The same host in two sandboxes is two rows.
    QCOMPARE(model.rowOf(QStringLiteral("registry.npmjs.org"), QStringLiteral("web")), 0);
    QCOMPARE(model.rowOf(QStringLiteral("registry.npmjs.org"), QStringLiteral("ml")), 2);
}

void TestGuiModelsNetwork::aRefusalOfAListedHostCountsUpInPlace()
{
    DenialsModel model;
    load(model);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy denied(&model, &DenialsModel::denied);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    model.addEvent(test::at(wireEvent(QStringLiteral("network-denied"), QStringLiteral("network")), now));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
    QCOMPARE(shown(model, 0, "count").toLongLong(), 6);
    // Seen today: the time alone.
    QCOMPARE(shown(model, 0, "lastSeenText").toString(), now.toLocalTime().toString(QStringLiteral("HH:mm:ss")));
    // The other sandbox's row of the same host is untouched.
    QCOMPARE(shown(model, 2, "count").toLongLong(), 2);
    QCOMPARE(denied.size(), 1);
    QCOMPARE(denied.at(0).at(0).toString(), QStringLiteral("registry.npmjs.org"));
    QCOMPARE(denied.at(0).at(3).toBool(), false);
}

void TestGuiModelsNetwork::aRefusalOfANewHostGoesOnTop()
{
    DenialsModel model;
    load(model);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy denied(&model, &DenialsModel::denied);
    QJsonObject event = wireEvent(QStringLiteral("network-denied"), QStringLiteral("network"));
    event.insert(QStringLiteral("host"), QStringLiteral("objects.githubusercontent.com"));
    model.addEvent(event);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(column(model, "host").constFirst(), QStringLiteral("objects.githubusercontent.com"));
    QCOMPARE(shown(model, 0, "count").toLongLong(), 1);
    QCOMPARE(shown(model, 0, "lastSeenText").toString(), QStringLiteral("2026-01-05 10:03"));
    // What was on top moves down one, and is still found by host and sandbox.
    QCOMPARE(model.rowOf(QStringLiteral("registry.npmjs.org"), QStringLiteral("web")), 1);
    QCOMPARE(shown(model, 1, "count").toLongLong(), 5);
    QCOMPARE(denied.size(), 1);
    QCOMPARE(denied.at(0).at(3).toBool(), true);
}

void TestGuiModelsNetwork::aSecretGuardRefusalNamesItsValue()
{
    DenialsModel model;
    load(model);
    // The value's file and name ride in the rule, as the proxy writes it; a file may hold spaces.
    QJsonObject event = wireEvent(QStringLiteral("network-denied"), QStringLiteral("network"));
    event.insert(QStringLiteral("host"), QStringLiteral("api.provider.test"));
    event.insert(QStringLiteral("rule"), QStringLiteral("secret-guard: config/my app/.env OPENAI_KEY"));
    model.addEvent(event);
    QCOMPARE(shown(model, 0, "guardFile").toString(), QStringLiteral("config/my app/.env"));
    QCOMPARE(shown(model, 0, "guardName").toString(), QStringLiteral("OPENAI_KEY"));
    // A refusal by a network rule, and a redaction's rule, name no value.
    QCOMPARE(shown(model, 1, "guardName").toString(), QString());
    QVERIFY(!events::guardedValueOfRule(QStringLiteral("secret-guard: .env OPENAI_KEY redacted")));
    QVERIFY(!events::guardedValueOfRule(QStringLiteral("secret-guard")));
    QCOMPARE(events::secretGuardRule({QStringLiteral(".env"), QStringLiteral("DB_PASSWORD")}),
             QStringLiteral("secret-guard: .env DB_PASSWORD"));
}

void TestGuiModelsNetwork::whatIsLoadedOrAllowedDoesNotCount()
{
    DenialsModel model;
    load(model);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    // A refusal the loaded answer holds already (sent while it was asked): not counted twice.
    model.addEvent(test::at(wireEvent(QStringLiteral("network-denied"), QStringLiteral("network")),
                            QDateTime::fromString(QStringLiteral("2026-01-05T10:01:59.000Z"), Qt::ISODateWithMs)));
    // A connection let through is no refusal.
    model.addEvent(wireEvent(QStringLiteral("network-allowed"), QStringLiteral("network")));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(shown(model, 0, "count").toLongLong(), 5);
    QCOMPARE(changed.size(), 0);
    QCOMPARE(inserted.size(), 0);
}

void TestGuiModelsNetwork::aRemovedRowComesBackOnlyWithANewRefusal()
{
    DenialsModel model;
    load(model);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    model.removeDenial(QStringLiteral("169.254.169.254"), QStringLiteral("web"));
    QCOMPARE(removed.size(), 1);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowOf(QStringLiteral("169.254.169.254"), QStringLiteral("web")), -1);
    // The rows after it are found at their new place.
    QCOMPARE(model.rowOf(QStringLiteral("registry.npmjs.org"), QStringLiteral("ml")), 1);

    QJsonObject event = wireEvent(QStringLiteral("network-denied"), QStringLiteral("network"));
    event.insert(QStringLiteral("host"), QStringLiteral("169.254.169.254"));
    event.insert(QStringLiteral("port"), 80);
    // Refused before the dismissal, arriving after it: the row stays away.
    model.addEvent(event);
    QCOMPARE(model.rowCount(), 2);
    // Refused again afterwards: back on top, counted from one.
    model.addEvent(test::at(event, QDateTime::currentDateTimeUtc().addSecs(1)));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.rowOf(QStringLiteral("169.254.169.254"), QStringLiteral("web")), 0);
    QCOMPARE(shown(model, 0, "count").toLongLong(), 1);
    QCOMPARE(shown(model, 0, "port").toInt(), 80);
}

void TestGuiModelsNetwork::rulesSayWhereEachComesFrom()
{
    RulesModel rules;
    rules.setRules(wireResult(QStringLiteral("policy-get")).value(QLatin1String("rules")).toArray());
    QCOMPARE(rules.rowCount(), 3);
    QCOMPARE(column(rules, "pattern"), QStringList({QStringLiteral("pypi.org"), QStringLiteral("*.npmjs.org"),
                                                    QStringLiteral("api.anthropic.com")}));
    QCOMPARE(column(rules, "decision"),
             QStringList({QStringLiteral("allow"), QStringLiteral("deny"), QStringLiteral("allow")}));
    QCOMPARE(column(rules, "scope"),
             QStringList({QStringLiteral("global"), QStringLiteral("sandbox:web"), QStringLiteral("kit:pi")}));
    QCOMPARE(shown(rules, 0, "createdText").toString(), QStringLiteral("2026-01-05 09:15"));
    QCOMPARE(shown(rules, 0, "readOnly").toBool(), false);
    // The kit's rule: changed in its spec.yaml, which the row names; nobody created it here.
    QCOMPARE(shown(rules, 2, "readOnly").toBool(), true);
    QCOMPARE(shown(rules, 2, "source").toString(), QStringLiteral("/home/ada/.local/share/paddock/kits/pi/spec.yaml"));
    QCOMPARE(shown(rules, 2, "createdText").toString(), QString());

    // The filter looks at every column, in any case.
    rules.setFilter(QStringLiteral("SANDBOX:WEB"));
    QCOMPARE(column(rules, "pattern"), QStringList({QStringLiteral("*.npmjs.org")}));
    rules.setFilter(QStringLiteral("kit"));
    QCOMPARE(column(rules, "pattern"), QStringList({QStringLiteral("api.anthropic.com")}));
    QCOMPARE(rules.totalCount(), 3);
    rules.setFilter({});
    QCOMPARE(rules.rowCount(), 3);
}

void TestGuiModelsNetwork::aRuleLimitedToAProgramOrRequestsSaysSo()
{
    RulesModel rules;
    rules.setRules(QJsonArray{
        QJsonObject{{"id", "a"},
                    {"scope", "global"},
                    {"pattern", "pypi.org"},
                    {"decision", "allow"},
                    {"origin", "user"},
                    {"program", "pip"}},
        QJsonObject{{"id", "b"},
                    {"scope", "global"},
                    {"pattern", "api.github.com"},
                    {"decision", "deny"},
                    {"origin", "user"},
                    {"request", "POST /gists"}},
        QJsonObject{
            {"id", "c"}, {"scope", "global"}, {"pattern", "example.com"}, {"decision", "allow"}, {"origin", "user"}}});
    QCOMPARE(column(rules, "condition"),
             QStringList({QStringLiteral("for pip"), QStringLiteral("POST /gists"), QString()}));
    rules.setFilter(QStringLiteral("pip"));
    QCOMPARE(column(rules, "pattern"), QStringList({QStringLiteral("pypi.org")}));
}

void TestGuiModelsNetwork::theLearningProposalListsPatternsChecked()
{
    LearningModel learning;
    learning.setProposal(wireResult(QStringLiteral("policy-proposal")));
    QCOMPARE(column(learning, "pattern"),
             QStringList({QStringLiteral("*.pythonhosted.org"), QStringLiteral("pypi.org")}));
    QCOMPARE(shown(learning, 0, "chosen").toBool(), true);
    QCOMPARE(shown(learning, 1, "chosen").toBool(), true);
    QCOMPARE(learning.checkedCount(), 2);
    // The connections behind them, as the page lists them under the patterns.
    QCOMPARE(learning.entries().size(), 2);
    const QVariantMap first = learning.entries().constFirst().toMap();
    QCOMPARE(first.value(QStringLiteral("host")).toString(), QStringLiteral("files.pythonhosted.org"));
    QCOMPARE(first.value(QStringLiteral("count")).toInt(), 14);
    QCOMPARE(first.value(QStringLiteral("suggestion")).toString(), QStringLiteral("*.pythonhosted.org"));
    // Unticked through the role the check box writes.
    QVERIFY(learning.setData(learning.index(0), false, learning.roleNames().key("chosen")));
    QCOMPARE(shown(learning, 0, "chosen").toBool(), false);
    QCOMPARE(learning.checkedCount(), 1);
}

void TestGuiModelsNetwork::agentRefusalsLeaveOutTheDismissed()
{
    AgentRefusalsModel refusals;
    refusals.setRefusals(wireResult(QStringLiteral("agent-refusals")).value(QLatin1String("refusals")).toArray());
    QCOMPARE(refusals.rowCount(), 2);
    QCOMPARE(column(refusals, "refusalId"), QStringList({QStringLiteral("7"), QStringLiteral("6")}));
    QCOMPARE(column(refusals, "tool"), QStringList({QStringLiteral("bash"), QStringLiteral("read")}));
    QCOMPARE(shown(refusals, 0, "value").toString(), QStringLiteral("rm -rf node_modules"));
    QCOMPARE(shown(refusals, 0, "state").toString(), QStringLiteral("deny"));
    QCOMPARE(shown(refusals, 0, "count").toInt(), 2);
    QCOMPARE(shown(refusals, 0, "rule").toString(), QStringLiteral("bash \"rm -rf *\" (global)"));
    QCOMPARE(shown(refusals, 0, "lastSeenText").toString(), QStringLiteral("2026-01-05 10:06"));
    QCOMPARE(shown(refusals, 1, "state").toString(), QStringLiteral("ask"));
    QCOMPARE(shown(refusals, 1, "resolution").toString(), QStringLiteral("denied by the user"));
}

void TestGuiModelsNetwork::anAgentRefusalComesToTheTop()
{
    AgentRefusalsModel refusals;
    refusals.setRefusals(wireResult(QStringLiteral("agent-refusals")).value(QLatin1String("refusals")).toArray());

    // Refused again: its row, brought up to date, moves to the top; nothing is added.
    const QJsonObject again = wireEvent(QStringLiteral("agent-refusal-again"), QStringLiteral("agent"));
    QCOMPARE(again.value(QLatin1String("type")).toString(), QStringLiteral("refusal"));
    refusals.addRefusal(again.value(QLatin1String("refusal")).toObject());
    QCOMPARE(refusals.rowCount(), 2);
    QCOMPARE(column(refusals, "refusalId"), QStringList({QStringLiteral("6"), QStringLiteral("7")}));
    QCOMPARE(shown(refusals, 0, "count").toInt(), 2);
    QCOMPARE(shown(refusals, 0, "lastSeenText").toString(), QStringLiteral("2026-01-05 10:07"));

    // A refusal not seen before: a new row on top.
    const QJsonObject fresh = wireEvent(QStringLiteral("agent-refusal-new"), QStringLiteral("agent"));
    refusals.addRefusal(fresh.value(QLatin1String("refusal")).toObject());
    QCOMPARE(refusals.rowCount(), 3);
    QCOMPARE(column(refusals, "refusalId"),
             QStringList({QStringLiteral("8"), QStringLiteral("6"), QStringLiteral("7")}));
    QCOMPARE(shown(refusals, 0, "sandbox").toString(), QStringLiteral("docs"));
    QCOMPARE(shown(refusals, 0, "value").toString(), QStringLiteral("/etc/hosts"));

    // The same refusal again while on top: changed in place.
    QSignalSpy changed(&refusals, &QAbstractItemModel::dataChanged);
    QJsonObject third = fresh.value(QLatin1String("refusal")).toObject();
    third.insert(QStringLiteral("count"), 2);
    refusals.addRefusal(third);
    QCOMPARE(refusals.rowCount(), 3);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(shown(refusals, 0, "count").toInt(), 2);
}

QTEST_GUILESS_MAIN(TestGuiModelsNetwork)
#include "tst_gui_models_network.moc"
