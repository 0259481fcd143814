// SPDX-License-Identifier: GPL-3.0-or-later
// Every list of the window is a RowListModel: get(row), which QML dialogs read a row through,
// gives each role under its name with the value data() gives, so no list hands a dialog fewer
// keys than its delegates see. Each list is filled from what paddockd sends (wire/*.json) or,
// for the kits, from the sample kits of the source tree. A list with a filter keeps its shown
// rows in step with its rows as they come and go (QAbstractItemModelTester watches).
#include "GuiModelsSupport.h"
#include "IsolatedHome.h"

#include "AgentRefusalsModel.h"
#include "AskModel.h"
#include "ChecklistModel.h"
#include "DenialsModel.h"
#include "KitListModel.h"
#include "LearningModel.h"
#include "RequestsModel.h"
#include "RulesModel.h"
#include "SandboxListModel.h"
#include "SecretListModel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <memory>

using namespace paddock;
using namespace paddock::gui;
using test::column;
using test::wireResult;

namespace {

QJsonArray wireArray(const QString &name, const char *key)
{
    return wireResult(name).value(QLatin1String(key)).toArray();
}

QJsonObject request(int n, const QString &method, const QString &sandbox)
{
    return {{QStringLiteral("time"), QStringLiteral("2026-01-05T10:00:%1.000Z").arg(n, 2, 10, QLatin1Char('0'))},
            {QStringLiteral("sandbox"), sandbox},
            {QStringLiteral("method"), method},
            {QStringLiteral("host"), QStringLiteral("api.example.com")},
            {QStringLiteral("port"), 443},
            {QStringLiteral("protocol"), QStringLiteral("https")},
            {QStringLiteral("path"), QStringLiteral("/n/%1").arg(n)},
            {QStringLiteral("status"), 200},
            {QStringLiteral("outcome"), QStringLiteral("allowed")},
            {QStringLiteral("bytesUp"), 10},
            {QStringLiteral("bytesDown"), 20},
            {QStringLiteral("durationMs"), 30}};
}

using Fill = std::function<std::unique_ptr<RowListModel>()>;

} // namespace

Q_DECLARE_METATYPE(Fill)

class TestGuiModelsRows : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void getGivesEveryRole_data();
    void getGivesEveryRole();
    void aFilteredListKeepsItsShownRowsInStep();
    void aRowOfAFilteredListIsFoundWhereItIsShown();

private:
    QTemporaryDir m_home;
};

void TestGuiModelsRows::initTestCase()
{
    // The kits list reads the user's kits.yaml: an empty home has none, the samples stay.
    QVERIFY(m_home.isValid());
    test::useXdgOf(test::isolatedEnvironment(m_home.path()));
}

void TestGuiModelsRows::getGivesEveryRole_data()
{
    QTest::addColumn<Fill>("fill");
    QTest::newRow("sandboxes") << Fill([] {
        auto model = std::make_unique<SandboxListModel>();
        model->applyList(wireArray(QStringLiteral("sandbox-list"), "sandboxes"));
        return model;
    });
    QTest::newRow("refused connections") << Fill([] {
        auto model = std::make_unique<DenialsModel>();
        model->setDenials(wireArray(QStringLiteral("events-denials"), "denials"));
        return model;
    });
    QTest::newRow("rules") << Fill([] {
        auto model = std::make_unique<RulesModel>();
        model->setRules(wireArray(QStringLiteral("policy-get"), "rules"));
        return model;
    });
    QTest::newRow("requests") << Fill([] {
        auto model = std::make_unique<RequestsModel>();
        model->setRecords({request(2, QStringLiteral("POST"), QStringLiteral("web")),
                           request(1, QStringLiteral("GET"), QStringLiteral("web"))});
        return model;
    });
    QTest::newRow("learning") << Fill([] {
        auto model = std::make_unique<LearningModel>();
        model->setProposal(wireResult(QStringLiteral("policy-proposal")));
        return model;
    });
    QTest::newRow("waiting connections") << Fill([] {
        auto model = std::make_unique<AskModel>();
        model->setAsks(wireArray(QStringLiteral("policy-asks"), "asks"));
        return model;
    });
    QTest::newRow("agent refusals") << Fill([] {
        auto model = std::make_unique<AgentRefusalsModel>();
        model->setRefusals(wireArray(QStringLiteral("agent-refusals"), "refusals"));
        return model;
    });
    QTest::newRow("secrets") << Fill([] {
        auto model = std::make_unique<SecretListModel>();
        model->applySecretList(wireResult(QStringLiteral("secret-list")));
        return model;
    });
    QTest::newRow("checklist") << Fill([] {
        auto model = std::make_unique<ChecklistModel>();
        model->applyResult(wireResult(QStringLiteral("sandbox-verify")));
        return model;
    });
    QTest::newRow("kits") << Fill([] { return std::make_unique<KitListModel>(); });
}

void TestGuiModelsRows::getGivesEveryRole()
{
    QFETCH(Fill, fill);
    const std::unique_ptr<RowListModel> model = fill();
    QVERIFY2(model->rowCount() > 0, "the list has rows to look at");
    QCOMPARE(model->count(), model->rowCount());
    const QHash<int, QByteArray> roles = model->roleNames();
    QVERIFY(!roles.isEmpty());
    for (int row = 0; row < model->rowCount(); ++row) {
        const QVariantMap got = model->get(row);
        QCOMPARE(got.size(), roles.size());
        for (auto it = roles.cbegin(); it != roles.cend(); ++it) {
            const QString name = QString::fromLatin1(it.value());
            QVERIFY2(got.contains(name), qPrintable(QStringLiteral("row %1 has no %2").arg(row).arg(name)));
            QCOMPARE(got.value(name), model->data(model->index(row), it.key()));
        }
    }
    // Outside the rows there is nothing to give.
    QVERIFY(model->get(-1).isEmpty());
    QVERIFY(model->get(model->rowCount()).isEmpty());
}

void TestGuiModelsRows::aFilteredListKeepsItsShownRowsInStep()
{
    RequestsModel requests;
    QAbstractItemModelTester tester(&requests, QAbstractItemModelTester::FailureReportingMode::QtTest);
    requests.setLimit(4);
    requests.setRecords({request(3, QStringLiteral("GET"), QStringLiteral("web")),
                         request(2, QStringLiteral("POST"), QStringLiteral("web")),
                         request(1, QStringLiteral("GET"), QStringLiteral("web"))});
    requests.setFilter(QStringLiteral("post"));
    QCOMPARE(column(requests, "path"), QStringList({QStringLiteral("/n/2")}));
    QCOMPARE(requests.totalCount(), 3);

    // New records go on top, shown or not; the oldest leaves past the limit, hidden or not.
    requests.addRecord(request(4, QStringLiteral("GET"), QStringLiteral("web")));
    requests.addRecord(request(5, QStringLiteral("POST"), QStringLiteral("web")));
    QCOMPARE(column(requests, "path"), QStringList({QStringLiteral("/n/5"), QStringLiteral("/n/2")}));
    QCOMPARE(requests.totalCount(), 4);
    requests.addRecord(request(6, QStringLiteral("GET"), QStringLiteral("web")));
    requests.addRecord(request(7, QStringLiteral("GET"), QStringLiteral("web")));
    QCOMPARE(column(requests, "path"), QStringList({QStringLiteral("/n/5")}));
    QCOMPARE(requests.get(0).value(QStringLiteral("method")).toString(), QStringLiteral("POST"));

    requests.setFilter(QString());
    QCOMPARE(column(requests, "path"), QStringList({QStringLiteral("/n/7"), QStringLiteral("/n/6"),
                                                    QStringLiteral("/n/5"), QStringLiteral("/n/4")}));
}

void TestGuiModelsRows::aRowOfAFilteredListIsFoundWhereItIsShown()
{
    RulesModel rules;
    rules.setRules(wireArray(QStringLiteral("policy-get"), "rules"));
    QVERIFY(rules.rowCount() > 1);
    const QString last = rules.get(rules.rowCount() - 1).value(QStringLiteral("ruleId")).toString();
    const QString pattern = rules.get(rules.rowCount() - 1).value(QStringLiteral("pattern")).toString();
    rules.setFilter(pattern);
    QCOMPARE(rules.get(rules.rowOf(last)).value(QStringLiteral("pattern")).toString(), pattern);
    rules.setFilter(QStringLiteral("no rule says this"));
    QCOMPARE(rules.rowCount(), 0);
    QCOMPARE(rules.rowOf(last), -1);
}

QTEST_GUILESS_MAIN(TestGuiModelsRows)
#include "tst_gui_models_rows.moc"
