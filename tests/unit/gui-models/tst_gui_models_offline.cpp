// SPDX-License-Identifier: GPL-3.0-or-later
// What the window's view models do when the user asks for something and no daemon is there:
// every action says the one sentence DaemonLink has for it, through the way that action reports
// any refusal. The Sandboxes page once said nothing when a start it had approved found no
// daemon while a stop said so: each of its actions is checked on its own.
#include "GuiModelsSupport.h"
#include "IsolatedHome.h"

#include "AgentPerms.h"
#include "AgentRefusalsModel.h"
#include "AskModel.h"
#include "BindingRequest.h"
#include "ClassroomModel.h"
#include "LearningModel.h"
#include "NetworkPolicy.h"
#include "SandboxListModel.h"
#include "SandboxReview.h"
#include "SandboxWizard.h"
#include "SecretListModel.h"
#include "UpstreamProxySettings.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <memory>

using namespace paddock;
using namespace paddock::gui;
using test::wireResult;

namespace {

/** An object asked for something, and what it then says to the user. */
struct Asked
{
    std::shared_ptr<QObject> object;
    std::function<QString()> said;
};
using Ask = std::function<Asked()>;
using SandboxAction = std::function<void(SandboxListModel &, const QString &name)>;

/** @p object asked through @p ask; what it says is argument @p argument of the last @p signal. */
template<typename Object, typename Signal>
Asked bySignal(std::shared_ptr<Object> object, Signal signal, int argument, std::function<void(Object &)> ask)
{
    auto spy = std::make_shared<QSignalSpy>(object.get(), signal);
    ask(*object);
    return {object, [spy, argument] { return spy->isEmpty() ? QString() : spy->last().at(argument).toString(); }};
}

/** @p object asked through @p ask; what it says is its `error`. */
template<typename Object>
Asked byError(std::shared_ptr<Object> object, std::function<void(Object &)> ask)
{
    ask(*object);
    return {object, [object] { return object->error(); }};
}

} // namespace

Q_DECLARE_METATYPE(Ask)
Q_DECLARE_METATYPE(SandboxAction)

class TestGuiModelsOffline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everySandboxActionSaysTheDaemonIsNotConnected_data();
    void everySandboxActionSaysTheDaemonIsNotConnected();
    void everyOtherActionSaysTheSame_data();
    void everyOtherActionSaysTheSame();

private:
    QTemporaryDir m_home;
};

void TestGuiModelsOffline::initTestCase()
{
    // The wizard and the Classroom page read the user's kits: an empty home has none.
    QVERIFY(m_home.isValid());
    test::useXdgOf(test::isolatedEnvironment(m_home.path()));
}

void TestGuiModelsOffline::everySandboxActionSaysTheDaemonIsNotConnected_data()
{
    QTest::addColumn<SandboxAction>("action");
    QTest::newRow("start") << SandboxAction([](SandboxListModel &m, const QString &name) { m.start(name); });
    // Approved in the binding dialog: started at once, without asking binding.check.
    QTest::newRow("start approved") << SandboxAction(
        [](SandboxListModel &m, const QString &name) { m.start(name, true); });
    QTest::newRow("stop") << SandboxAction([](SandboxListModel &m, const QString &name) { m.stop(name); });
    QTest::newRow("remove") << SandboxAction([](SandboxListModel &m, const QString &name) { m.remove(name); });
}

void TestGuiModelsOffline::everySandboxActionSaysTheDaemonIsNotConnected()
{
    QFETCH(SandboxAction, action);
    SandboxListModel model;
    model.applyList(wireResult(QStringLiteral("sandbox-list")).value(QLatin1String("sandboxes")).toArray());
    const int row = model.rowOf(QStringLiteral("web"));
    QVERIFY(row >= 0);
    QSignalSpy failed(&model, &SandboxListModel::actionFailed);
    QSignalSpy succeeded(&model, &SandboxListModel::actionSucceeded);
    QSignalSpy approval(&model, &SandboxListModel::approvalNeeded);

    action(model, QStringLiteral("web"));
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(failed.constFirst().at(0).toString(), DaemonLink::notConnectedMessage());
    QCOMPARE(failed.constFirst().at(0).toString(), QStringLiteral("The daemon is not connected."));
    // Said once, and the row is not left waiting.
    QTest::qWait(50);
    QCOMPARE(failed.size(), 1);
    QVERIFY(succeeded.isEmpty());
    QVERIFY(approval.isEmpty());
    QCOMPARE(model.get(row).value(QStringLiteral("busy")).toBool(), false);
}

void TestGuiModelsOffline::everyOtherActionSaysTheSame_data()
{
    QTest::addColumn<Ask>("ask");
    QTest::newRow("store a key") << Ask([] {
        return bySignal<SecretListModel>(
            std::make_shared<SecretListModel>(), &SecretListModel::actionFailed, 0,
            [](SecretListModel &m) { m.set(QStringLiteral("svc"), {}, QStringLiteral("v")); });
    });
    QTest::newRow("remove a key") << Ask([] {
        return bySignal<SecretListModel>(std::make_shared<SecretListModel>(), &SecretListModel::actionFailed, 0,
                                         [](SecretListModel &m) { m.remove(QStringLiteral("svc"), {}); });
    });
    QTest::newRow("add a rule") << Ask([] {
        return bySignal<NetworkPolicy>(
            std::make_shared<NetworkPolicy>(), &NetworkPolicy::actionFinished, 2, [](NetworkPolicy &p) {
                p.addRule(QStringLiteral("example.org"), QStringLiteral("allow"), QStringLiteral("global"));
            });
    });
    QTest::newRow("answer a waiting connection") << Ask([] {
        return bySignal<AskModel>(std::make_shared<AskModel>(), &AskModel::answered, 2,
                                  [](AskModel &m) { m.answer(QStringLiteral("3"), QStringLiteral("deny")); });
    });
    QTest::newRow("approve a binding") << Ask([] {
        return bySignal<BindingRequest>(std::make_shared<BindingRequest>(), &BindingRequest::failed, 0,
                                        [](BindingRequest &r) { r.approve({QStringLiteral("svc")}); });
    });
    QTest::newRow("save the upstream proxy") << Ask([] {
        return bySignal<UpstreamProxySettings>(
            std::make_shared<UpstreamProxySettings>(), &UpstreamProxySettings::saved, 1,
            [](UpstreamProxySettings &s) { s.save(QStringLiteral("http://proxy:3128"), {}, {}); });
    });
    QTest::newRow("change an agent rule") << Ask([] {
        return byError<AgentPerms>(std::make_shared<AgentPerms>(), [](AgentPerms &p) {
            p.setKit(QStringLiteral("/kits/pi"));
            p.setRule(QStringLiteral("bash"), QStringLiteral("ls"), QStringLiteral("allow"));
        });
    });
    QTest::newRow("allow an agent refusal") << Ask([] {
        return byError<AgentRefusalsModel>(std::make_shared<AgentRefusalsModel>(),
                                           [](AgentRefusalsModel &m) { m.allow(7, QStringLiteral("project")); });
    });
    QTest::newRow("revert a file") << Ask([] {
        return byError<SandboxReview>(std::make_shared<SandboxReview>(), [](SandboxReview &r) {
            r.setName(QStringLiteral("web"));
            r.revert(QStringLiteral(".git/config"));
        });
    });
    QTest::newRow("store a key in the wizard") << Ask([] {
        return byError<SandboxWizard>(std::make_shared<SandboxWizard>(),
                                      [](SandboxWizard &w) { w.storeKey(QStringLiteral("svc"), QStringLiteral("v")); });
    });
    QTest::newRow("run the checklist") << Ask([] {
        return byError<ClassroomModel>(std::make_shared<ClassroomModel>(), [](ClassroomModel &c) {
            c.setSandbox(QStringLiteral("web"));
            c.runChecks();
        });
    });
    QTest::newRow("switch learning") << Ask([] {
        return byError<LearningModel>(std::make_shared<LearningModel>(), [](LearningModel &m) {
            m.setSandbox(QStringLiteral("web"));
            m.setLearning(true);
        });
    });
}

void TestGuiModelsOffline::everyOtherActionSaysTheSame()
{
    QFETCH(Ask, ask);
    const Asked asked = ask();
    QTRY_COMPARE(asked.said(), DaemonLink::notConnectedMessage());
}

QTEST_GUILESS_MAIN(TestGuiModelsOffline)
#include "tst_gui_models_offline.moc"
