// SPDX-License-Identifier: GPL-3.0-or-later
// Ask mode's model fed with what paddockd sends: the waiting connections of `policy.asks`,
// then kept live from the `asks` topic (held, updated, ended), and the sandboxes in ask mode
// from `sandbox.list`. Each row is read through data() under the role names QML binds to.
#include "GuiModelsSupport.h"

#include "AskModel.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QtTest>

using namespace paddock;
using namespace paddock::gui;
using test::column;
using test::shown;
using test::wireEvent;
using test::wireResult;

class TestGuiModelsAsk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void waitingAsksAreListedOldestFirst();
    void secondsLeftCountDownToTheDeadline();
    void heldUpdatedEndedKeepTheListLive();
    void aReloadEndsWhatIsNoLongerListed();
    void askingSandboxesComeFromTheList();
    void theAnswerCommandSaysWhatTheButtonsDo();
    void answeringWithoutADaemonSaysSo();

private:
    static QJsonArray canned()
    {
        return wireResult(QStringLiteral("policy-asks")).value(QLatin1String("asks")).toArray();
    }
    /** @p event with its ASK's deadline @p seconds from now, as a fresh hold would carry it. */
    static QJsonObject dueIn(QJsonObject event, int seconds)
    {
        QJsonObject ask = event.value(QLatin1String("ask")).toObject();
        ask.insert(QStringLiteral("deadline"),
                   QDateTime::currentDateTimeUtc().addSecs(seconds).toString(Qt::ISODateWithMs));
        event.insert(QStringLiteral("ask"), ask);
        return event;
    }
};

void TestGuiModelsAsk::waitingAsksAreListedOldestFirst()
{
    AskModel model;
    QSignalSpy count(&model, &AskModel::countChanged);
    QSignalSpy held(&model, &AskModel::held);
    model.setAsks(canned());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(count.size(), 1);
    QCOMPARE(held.size(), 2);
    QCOMPARE(column(model, "askId"), QStringList({QStringLiteral("3"), QStringLiteral("4")}));
    QCOMPARE(column(model, "host"), QStringList({QStringLiteral("llm.ilaas.fr"), QStringLiteral("pypi.org")}));
    QCOMPARE(column(model, "sandbox"), QStringList({QStringLiteral("web"), QStringLiteral("ml")}));
    QCOMPARE(shown(model, 0, "kit").toString(), QStringLiteral("pi"));
    QCOMPARE(shown(model, 0, "port").toInt(), 443);
    QCOMPARE(shown(model, 0, "protocol").toString(), QStringLiteral("connect"));
    QCOMPARE(shown(model, 0, "waiting").toInt(), 2);
    QCOMPARE(shown(model, 0, "reason").toString(),
             QStringLiteral("no rule covers llm.ilaas.fr:443, and sandbox web asks before connecting"));
    QCOMPARE(shown(model, 0, "since").toDateTime(),
             QDateTime::fromString(QStringLiteral("2026-01-05T10:04:00.000Z"), Qt::ISODateWithMs));
    QCOMPARE(shown(model, 1, "deadline").toDateTime(),
             QDateTime::fromString(QStringLiteral("2026-01-05T10:04:35.000Z"), Qt::ISODateWithMs));
    // Long past: nothing left, never a negative count.
    QCOMPARE(shown(model, 0, "secondsLeft").toInt(), 0);
    // The prompt's view: the oldest.
    QCOMPARE(model.oldest().value(QStringLiteral("askId")).toString(), QStringLiteral("3"));
    QCOMPARE(model.oldest().value(QStringLiteral("waiting")).toInt(), 2);
    QCOMPARE(model.rowOf(QStringLiteral("4")), 1);
    QCOMPARE(model.rowOf(QStringLiteral("99")), -1);
}

void TestGuiModelsAsk::secondsLeftCountDownToTheDeadline()
{
    const QDateTime now = QDateTime::fromString(QStringLiteral("2026-01-05T10:04:00.000Z"), Qt::ISODateWithMs);
    QCOMPARE(AskModel::secondsUntil(now.addSecs(30), now), 30);
    QCOMPARE(AskModel::secondsUntil(now.addMSecs(29100), now), 30); // a part of a second still counts
    QCOMPARE(AskModel::secondsUntil(now.addSecs(-5), now), 0);
    QCOMPARE(AskModel::secondsUntil({}, now), 0);

    AskModel model;
    model.addEvent(dueIn(wireEvent(QStringLiteral("ask-held"), QStringLiteral("asks")), 20));
    QCOMPARE(model.rowCount(), 1);
    const int before = shown(model, 0, "secondsLeft").toInt();
    QVERIFY2(before >= 19 && before <= 20, qPrintable(QString::number(before)));
    // Each second the row says so, without any message from the daemon.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy oldest(&model, &AskModel::oldestChanged);
    QTRY_VERIFY_WITH_TIMEOUT(changed.size() >= 2, 3500);
    QVERIFY(changed.constFirst().at(2).value<QList<int>>().contains(AskModel::SecondsLeftRole));
    QVERIFY(oldest.size() >= 2);
    QVERIFY(shown(model, 0, "secondsLeft").toInt() < before);
    // Nothing waits: the count stops.
    model.addEvent({{QStringLiteral("change"), QStringLiteral("ended")},
                    {QStringLiteral("ask"), QJsonObject{{QStringLiteral("id"), QStringLiteral("5")}}}});
    QCOMPARE(model.rowCount(), 0);
    changed.clear();
    QTest::qWait(1300);
    QCOMPARE(changed.size(), 0);
}

void TestGuiModelsAsk::heldUpdatedEndedKeepTheListLive()
{
    AskModel model;
    model.setAsks(canned());
    QSignalSpy held(&model, &AskModel::held);
    QSignalSpy ended(&model, &AskModel::ended);
    QSignalSpy oldest(&model, &AskModel::oldestChanged);

    // A new destination waits: last, it is the newest.
    model.addEvent(wireEvent(QStringLiteral("ask-held"), QStringLiteral("asks")));
    QCOMPARE(column(model, "askId"), QStringList({QStringLiteral("3"), QStringLiteral("4"), QStringLiteral("5")}));
    QCOMPARE(held.size(), 1);
    QCOMPARE(held.constFirst().constFirst().toString(), QStringLiteral("5"));
    QCOMPARE(shown(model, 2, "host").toString(), QStringLiteral("example.org"));
    QCOMPARE(shown(model, 2, "protocol").toString(), QStringLiteral("http"));
    QCOMPARE(oldest.size(), 0); // the prompt's question stays the same

    // One more connection to the oldest: counted in place, not a row more.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.addEvent(wireEvent(QStringLiteral("ask-updated"), QStringLiteral("asks")));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(shown(model, 0, "waiting").toInt(), 3);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(held.size(), 1);
    QCOMPARE(oldest.size(), 1);
    QCOMPARE(model.oldest().value(QStringLiteral("waiting")).toInt(), 3);

    // Answered (anywhere): it goes, and the next oldest is the question.
    model.addEvent(wireEvent(QStringLiteral("ask-ended"), QStringLiteral("asks")));
    QCOMPARE(column(model, "askId"), QStringList({QStringLiteral("4"), QStringLiteral("5")}));
    QCOMPARE(ended.size(), 1);
    QCOMPARE(ended.constFirst().constFirst().toString(), QStringLiteral("3"));
    QCOMPARE(model.oldest().value(QStringLiteral("host")).toString(), QStringLiteral("pypi.org"));
    // Ended twice (its event and a reload racing): once is enough.
    model.addEvent(wireEvent(QStringLiteral("ask-ended"), QStringLiteral("asks")));
    QCOMPARE(ended.size(), 1);
    QCOMPARE(model.rowCount(), 2);
    // An unknown change or an ASK without an id changes nothing.
    model.addEvent({{QStringLiteral("change"), QStringLiteral("exploded")},
                    {QStringLiteral("ask"), QJsonObject{{QStringLiteral("id"), QStringLiteral("4")}}}});
    model.addEvent({{QStringLiteral("change"), QStringLiteral("held")}, {QStringLiteral("ask"), QJsonObject{}}});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(shown(model, 0, "host").toString(), QStringLiteral("pypi.org"));
}

void TestGuiModelsAsk::aReloadEndsWhatIsNoLongerListed()
{
    AskModel model;
    model.setAsks(canned());
    model.addEvent(wireEvent(QStringLiteral("ask-held"), QStringLiteral("asks")));
    QSignalSpy held(&model, &AskModel::held);
    QSignalSpy ended(&model, &AskModel::ended);
    // After a reconnection the daemon lists only 3 and 4: 5 was answered meanwhile.
    model.setAsks(canned());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(ended.size(), 1);
    QCOMPARE(ended.constFirst().constFirst().toString(), QStringLiteral("5"));
    QCOMPARE(held.size(), 0); // 3 and 4 were already there
    // The daemon went away: nothing waits any more.
    model.setAsks({});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(ended.size(), 3);
    QVERIFY(model.oldest().isEmpty());
}

void TestGuiModelsAsk::askingSandboxesComeFromTheList()
{
    AskModel model;
    QSignalSpy asking(&model, &AskModel::askingChanged);
    model.setSandboxes(wireResult(QStringLiteral("sandbox-list-asking")).value(QLatin1String("sandboxes")).toArray());
    QCOMPARE(model.askingSandboxes(), QStringList({QStringLiteral("web"), QStringLiteral("docs")}));
    QVERIFY(model.isAsking(QStringLiteral("web")));
    QVERIFY(!model.isAsking(QStringLiteral("ml")));
    QCOMPARE(asking.size(), 1);
    // A daemon of before ask mode says nothing of it: nobody asks.
    model.setSandboxes(wireResult(QStringLiteral("sandbox-list")).value(QLatin1String("sandboxes")).toArray());
    QVERIFY(model.askingSandboxes().isEmpty());
    // A sandbox with a waiting connection asks, whatever the list said last.
    model.addEvent(wireEvent(QStringLiteral("ask-held"), QStringLiteral("asks")));
    QVERIFY(model.isAsking(QStringLiteral("web")));
    // Switched off elsewhere (`paddock ask web off`): the switch follows.
    model.addEvent(wireEvent(QStringLiteral("ask-mode-off"), QStringLiteral("asks")));
    QVERIFY(!model.isAsking(QStringLiteral("web")));
    QCOMPARE(model.rowCount(), 1); // what waits still waits until the proxy refuses it
}

void TestGuiModelsAsk::theAnswerCommandSaysWhatTheButtonsDo()
{
    AskModel model;
    QCOMPARE(model.answerCommand(QStringLiteral("3"), QStringLiteral("allow"), {}, {}),
             QStringLiteral("paddock policy answer 3 allow"));
    QCOMPARE(model.answerCommand(QStringLiteral("3"), QStringLiteral("deny"), QStringLiteral("sandbox"),
                                 QStringLiteral("exact")),
             QStringLiteral("paddock policy answer 3 deny --where sandbox"));
    QCOMPARE(model.answerCommand(QStringLiteral("4"), QStringLiteral("allow"), QStringLiteral("global"),
                                 QStringLiteral("wildcard")),
             QStringLiteral("paddock policy answer 4 allow --where global --what wildcard"));
    // The Allow choices are the Allow dialog's.
    const QVariantMap choices = model.allowChoices(QStringLiteral("api.example.org"), 8443);
    QCOMPARE(choices.value(QStringLiteral("exact")).toString(), QStringLiteral("api.example.org:8443"));
    QCOMPARE(choices.value(QStringLiteral("wildcard")).toString(), QStringLiteral("*.example.org:8443"));
}

void TestGuiModelsAsk::answeringWithoutADaemonSaysSo()
{
    AskModel model;
    model.setAsks(canned());
    QSignalSpy answered(&model, &AskModel::answered);
    model.answer(QStringLiteral("3"), QStringLiteral("allow"));
    // Answered from the event loop, as every action without a daemon is.
    QTRY_COMPARE(answered.size(), 1);
    QCOMPARE(answered.constFirst().at(0).toString(), QStringLiteral("3"));
    QCOMPARE(answered.constFirst().at(1).toBool(), false);
    QCOMPARE(answered.constFirst().at(2).toString(), QStringLiteral("The daemon is not connected."));
    QCOMPARE(model.rowCount(), 2); // still waiting
}

QTEST_MAIN(TestGuiModelsAsk)
#include "tst_gui_models_ask.moc"
