// SPDX-License-Identifier: GPL-3.0-or-later
// The Classroom page's model fed with what paddockd sends: the running sandboxes of the
// imported kit from `sandbox.list`, then a checklist run: its `verify` events, one check each,
// and the `sandbox.verify` result that settles the verdict. The checks are read through
// data() under the role names QML binds to.
#include "GuiModelsSupport.h"

#include "ClassroomModel.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace paddock;
using namespace paddock::gui;
using test::column;
using test::shown;
using test::wireEvent;
using test::wireResult;

namespace {

/** The run the canned verify events and result belong to. */
const QString kRun = QStringLiteral("0b7c6a52-2f0e-4d51-9a77-3c1f5e0d8e21");

QJsonObject verifyEvent(const char *name)
{
    return wireEvent(QLatin1String(name), QStringLiteral("verify"));
}

/** The listed sandboxes with @p name's status set to @p status. */
QJsonObject listWith(const QString &name, const QString &status)
{
    QJsonObject result = wireResult(QStringLiteral("sandbox-list"));
    QJsonArray sandboxes = result.value(QLatin1String("sandboxes")).toArray();
    for (qsizetype i = 0; i < sandboxes.size(); ++i) {
        QJsonObject sandbox = sandboxes.at(i).toObject();
        if (sandbox.value(QLatin1String("name")).toString() == name) {
            sandbox.insert(QStringLiteral("status"), status);
            sandboxes.replace(i, sandbox);
        }
    }
    result.insert(QStringLiteral("sandboxes"), sandboxes);
    return result;
}

} // namespace

class TestGuiModelsClassroom : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void theRunningSandboxesOfTheKitAreOffered();
    void checksAppearAsTheirEventsArrive();
    void theResultSettlesTheVerdict();

private:
    QTemporaryDir m_home;
};

void TestGuiModelsClassroom::initTestCase()
{
    // The model looks for the kit imported last: in an empty home, there is none.
    QVERIFY(m_home.isValid());
    for (const char *name : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "HOME"})
        qputenv(name, QFile::encodeName(m_home.path() + QLatin1Char('/') + QLatin1String(name)));
}

void TestGuiModelsClassroom::theRunningSandboxesOfTheKitAreOffered()
{
    ClassroomModel classroom;
    QCOMPARE(classroom.kit(), QString());
    // No kit imported: every running sandbox, by name.
    classroom.applySandboxList(wireResult(QStringLiteral("sandbox-list")));
    QCOMPARE(classroom.sandboxes(), QStringList({QStringLiteral("docs"), QStringLiteral("ml"), QStringLiteral("web")}));

    // The course's kit: its running sandboxes only (api is stopped, web runs another kit).
    classroom.setKit(QStringLiteral("course"), m_home.filePath(QStringLiteral("kits/course")));
    classroom.applySandboxList(wireResult(QStringLiteral("sandbox-list")));
    QCOMPARE(classroom.sandboxes(), QStringList({QStringLiteral("docs"), QStringLiteral("ml")}));
    QCOMPARE(classroom.sandbox(), QStringLiteral("docs"));

    // The one chosen stops: the choice moves to one that runs.
    QSignalSpy chosen(&classroom, &ClassroomModel::sandboxChanged);
    classroom.applySandboxList(listWith(QStringLiteral("docs"), QStringLiteral("stopped")));
    QCOMPARE(classroom.sandboxes(), QStringList({QStringLiteral("ml")}));
    QCOMPARE(classroom.sandbox(), QStringLiteral("ml"));
    QCOMPARE(chosen.size(), 1);

    // A sandbox just created from the kit is chosen once it runs.
    classroom.refreshSandboxes(QStringLiteral("docs"));
    classroom.applySandboxList(wireResult(QStringLiteral("sandbox-list")));
    QCOMPARE(classroom.sandbox(), QStringLiteral("docs"));
    // The next list does not take the user's choice away again.
    classroom.setSandbox(QStringLiteral("ml"));
    classroom.applySandboxList(wireResult(QStringLiteral("sandbox-list")));
    QCOMPARE(classroom.sandbox(), QStringLiteral("ml"));
}

void TestGuiModelsClassroom::checksAppearAsTheirEventsArrive()
{
    ClassroomModel classroom;
    ChecklistModel *checks = classroom.checks();
    classroom.beginRun(kRun);
    QVERIFY(classroom.checking());
    QCOMPARE(classroom.checkProgress(), QStringLiteral("Starting the checks…"));

    classroom.applyVerifyEvent(verifyEvent("verify-credential"));
    QCOMPARE(checks->rowCount(), 1);
    QCOMPARE(shown(*checks, 0, "checkId").toString(), QStringLiteral("credential"));
    QCOMPARE(shown(*checks, 0, "title").toString(), QStringLiteral("The credential variable inside is the sentinel"));
    QCOMPARE(shown(*checks, 0, "status").toString(), QStringLiteral("ok"));
    QCOMPARE(shown(*checks, 0, "message").toString(),
             QStringLiteral("ANTHROPIC_API_KEY inside is the sentinel, not the key."));
    QCOMPARE(classroom.checkProgress(), QStringLiteral("Checked 1 of 5…"));

    // Another window's run on another sandbox is not this checklist.
    classroom.applyVerifyEvent(verifyEvent("verify-other-run"));
    QCOMPARE(checks->rowCount(), 1);
    QCOMPARE(shown(*checks, 0, "status").toString(), QStringLiteral("ok"));

    QSignalSpy inserted(checks, &QAbstractItemModel::rowsInserted);
    classroom.applyVerifyEvent(verifyEvent("verify-blocked"));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(column(*checks, "checkId"), QStringList({QStringLiteral("credential"), QStringLiteral("blocked")}));
    QCOMPARE(shown(*checks, 1, "status").toString(), QStringLiteral("failed"));
    QCOMPARE(shown(*checks, 1, "details").toString(),
             QStringLiteral("curl exited 0\nno refusal in the log since 10:09:00"));
    QCOMPARE(checks->failedCount(), 1);
    QCOMPARE(classroom.checkProgress(), QStringLiteral("Checked 2 of 5…"));
    QVERIFY(classroom.checking());
}

void TestGuiModelsClassroom::theResultSettlesTheVerdict()
{
    ClassroomModel classroom;
    ChecklistModel *checks = classroom.checks();
    classroom.beginRun(kRun);
    classroom.applyVerifyEvent(verifyEvent("verify-credential"));
    const QJsonObject result = wireResult(QStringLiteral("sandbox-verify"));

    // The result of a run that is not under way settles nothing.
    classroom.applyVerifyResult(QStringLiteral("5d1f0c3e-8a44-4b9e-b2a1-7e6f9c0d1a22"), result);
    QVERIFY(classroom.checking());
    QCOMPARE(checks->rowCount(), 1);

    QSignalSpy settled(&classroom, &ClassroomModel::checkingChanged);
    classroom.applyVerifyResult(kRun, result);
    QCOMPARE(settled.size(), 1);
    QVERIFY(!classroom.checking());
    QCOMPARE(classroom.checkProgress(), QString());
    QCOMPARE(column(*checks, "checkId"),
             QStringList({QStringLiteral("credential"), QStringLiteral("blocked"), QStringLiteral("workspace"),
                          QStringLiteral("log"), QStringLiteral("key")}));
    QCOMPARE(column(*checks, "status"),
             QStringList({QStringLiteral("ok"), QStringLiteral("failed"), QStringLiteral("ok"), QStringLiteral("ok"),
                          QStringLiteral("skipped")}));
    QCOMPARE(shown(*checks, 4, "title").toString(), QStringLiteral("The key reaches its provider"));
    QCOMPARE(checks->failedCount(), 1);
    QVERIFY(!classroom.checklistPassed());
    QCOMPARE(classroom.checklistVerdict(), QStringLiteral("Some checks failed: read each sentence for what to fix."));

    // An event arriving after the result changes nothing.
    classroom.applyVerifyEvent(verifyEvent("verify-blocked"));
    QCOMPARE(checks->rowCount(), 5);

    // Run again, everything passes (a skipped check does not count against it).
    QJsonObject passing = result;
    QJsonArray all = passing.value(QLatin1String("checks")).toArray();
    QJsonObject blocked = all.at(1).toObject();
    blocked.insert(QStringLiteral("status"), QStringLiteral("ok"));
    all.replace(1, blocked);
    passing.insert(QStringLiteral("checks"), all);
    passing.insert(QStringLiteral("passed"), true);
    classroom.beginRun(kRun);
    QCOMPARE(checks->rowCount(), 0);
    classroom.applyVerifyResult(kRun, passing);
    QVERIFY(classroom.checklistPassed());
    QCOMPARE(checks->failedCount(), 0);
    QCOMPARE(classroom.checklistVerdict(), QStringLiteral("No check failed: this sandbox is ready."));
}

QTEST_GUILESS_MAIN(TestGuiModelsClassroom)
#include "tst_gui_models_classroom.moc"
