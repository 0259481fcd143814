// SPDX-License-Identifier: GPL-3.0-or-later
// The Classroom page's models fed what the daemon sends, as canned JSON, and read back through
// data() as the page reads them: the running sandboxes of the imported kit, the checks of one
// run as their events arrive, the verdict from the answer, and another run's events ignored;
// and the image step following its build's events.
#include "ChecklistModel.h"
#include "ClassroomModel.h"
#include "ImagePreparation.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using paddock::gui::ChecklistModel;
using paddock::gui::ClassroomModel;

namespace {

QJsonObject sandbox(const QString &name, const QString &kit, const QString &status)
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("kit"), kit},
            {QStringLiteral("status"), status},
            {QStringLiteral("backend"), QStringLiteral("bwrap")}};
}

QJsonObject list(const QJsonArray &sandboxes)
{
    return {{QStringLiteral("sandboxes"), sandboxes}};
}

QJsonObject check(const QString &id, const QString &status, const QString &message, const QStringList &details = {})
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("title"), QStringLiteral("Title of ") + id},
            {QStringLiteral("status"), status},
            {QStringLiteral("message"), message},
            {QStringLiteral("details"), QJsonArray::fromStringList(details)}};
}

QJsonObject verifyEvent(const QString &run, int index, const QJsonObject &checked)
{
    return {{QStringLiteral("run"), run},
            {QStringLiteral("sandbox"), QStringLiteral("course-a")},
            {QStringLiteral("kit"), QStringLiteral("course")},
            {QStringLiteral("index"), index},
            {QStringLiteral("total"), 5},
            {QStringLiteral("check"), checked}};
}

QVariant cell(QAbstractItemModel *model, int row, int role)
{
    return model->data(model->index(row, 0), role);
}

} // namespace

class TestClassroomModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void runningSandboxesOfTheKitAreOffered();
    void everyRunningSandboxWithoutAnImportedKit();
    void checksArriveOneByOneThenSettle();
    void failedCheckMakesTheVerdictRed();
    void otherRunsAndLateEventsAreIgnored();
    void imageStepFollowsItsJob();

private:
    QTemporaryDir m_home;
};

void TestClassroomModel::initTestCase()
{
    // No imported kit in the library: the model starts with none.
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_home.path()));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home.path()));
}

void TestClassroomModel::runningSandboxesOfTheKitAreOffered()
{
    ClassroomModel model;
    QCOMPARE(model.kit(), QString());
    model.setKit(QStringLiteral("course"), m_home.filePath(QStringLiteral("kits/course")));
    QSignalSpy changed(&model, &ClassroomModel::sandboxesChanged);
    model.applySandboxList(
        list({sandbox(QStringLiteral("course-b"), QStringLiteral("course"), QStringLiteral("running")),
              sandbox(QStringLiteral("course-old"), QStringLiteral("course"), QStringLiteral("stopped")),
              sandbox(QStringLiteral("pi-neon"), QStringLiteral("pi"), QStringLiteral("running")),
              sandbox(QStringLiteral("course-a"), QStringLiteral("course"), QStringLiteral("running"))}));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(model.sandboxes(), (QStringList{QStringLiteral("course-a"), QStringLiteral("course-b")}));
    // Preselected when there is one.
    QCOMPARE(model.sandbox(), QStringLiteral("course-a"));

    // The chosen one stays while it runs; the same list again changes nothing.
    model.setSandbox(QStringLiteral("course-b"));
    model.applySandboxList(
        list({sandbox(QStringLiteral("course-a"), QStringLiteral("course"), QStringLiteral("running")),
              sandbox(QStringLiteral("course-b"), QStringLiteral("course"), QStringLiteral("running"))}));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(model.sandbox(), QStringLiteral("course-b"));
    // Once it stops, the first running one is taken.
    model.applySandboxList(
        list({sandbox(QStringLiteral("course-a"), QStringLiteral("course"), QStringLiteral("running")),
              sandbox(QStringLiteral("course-b"), QStringLiteral("course"), QStringLiteral("stopped"))}));
    QCOMPARE(model.sandboxes(), QStringList{QStringLiteral("course-a")});
    QCOMPARE(model.sandbox(), QStringLiteral("course-a"));
    // A sandbox just created is selected once the list shows it running.
    model.refreshSandboxes(QStringLiteral("course-new"));
    model.applySandboxList(
        list({sandbox(QStringLiteral("course-a"), QStringLiteral("course"), QStringLiteral("running")),
              sandbox(QStringLiteral("course-new"), QStringLiteral("course"), QStringLiteral("running"))}));
    QCOMPARE(model.sandbox(), QStringLiteral("course-new"));
    // None running: nothing to choose.
    model.applySandboxList(list({}));
    QCOMPARE(model.sandboxes(), QStringList());
    QCOMPARE(model.sandbox(), QString());
}

void TestClassroomModel::everyRunningSandboxWithoutAnImportedKit()
{
    ClassroomModel model;
    model.applySandboxList(
        list({sandbox(QStringLiteral("pi-neon"), QStringLiteral("pi"), QStringLiteral("running")),
              sandbox(QStringLiteral("course-a"), QStringLiteral("course"), QStringLiteral("running")),
              sandbox(QStringLiteral("idle"), QStringLiteral("pi"), QStringLiteral("created"))}));
    QCOMPARE(model.sandboxes(), (QStringList{QStringLiteral("course-a"), QStringLiteral("pi-neon")}));
}

void TestClassroomModel::checksArriveOneByOneThenSettle()
{
    ClassroomModel model;
    ChecklistModel *checks = model.checks();
    QCOMPARE(checks->roleNames().value(ChecklistModel::CheckIdRole), QByteArray("checkId"));
    model.beginRun(QStringLiteral("run-1"));
    QVERIFY(model.checking());
    QCOMPARE(checks->rowCount(), 0);

    model.applyVerifyEvent(
        verifyEvent(QStringLiteral("run-1"), 0,
                    check(QStringLiteral("credential"), QStringLiteral("ok"),
                          QStringLiteral("Inside the sandbox COURSE_API_KEY is proxy-managed, not a key."))));
    QCOMPARE(checks->rowCount(), 1);
    QCOMPARE(cell(checks, 0, ChecklistModel::CheckIdRole).toString(), QStringLiteral("credential"));
    // A known check is titled in the window's language, here English.
    QCOMPARE(cell(checks, 0, ChecklistModel::TitleRole).toString(),
             QStringLiteral("The credential variable inside is the sentinel"));
    QCOMPARE(cell(checks, 0, ChecklistModel::StatusRole).toString(), QStringLiteral("ok"));
    QCOMPARE(cell(checks, 0, ChecklistModel::MessageRole).toString(),
             QStringLiteral("Inside the sandbox COURSE_API_KEY is proxy-managed, not a key."));
    QCOMPARE(model.checkProgress(), QStringLiteral("Checked 1 of 5…"));
    QVERIFY(model.checklistVerdict().isEmpty());

    model.applyVerifyEvent(
        verifyEvent(QStringLiteral("run-1"), 1,
                    check(QStringLiteral("future"), QStringLiteral("skipped"), QStringLiteral("Later."),
                          {QStringLiteral("one"), QStringLiteral("two")})));
    QCOMPARE(checks->rowCount(), 2);
    // A check this window does not know keeps the daemon's title; details come one per line.
    QCOMPARE(cell(checks, 1, ChecklistModel::TitleRole).toString(), QStringLiteral("Title of future"));
    QCOMPARE(cell(checks, 1, ChecklistModel::DetailsRole).toString(), QStringLiteral("one\ntwo"));
    QCOMPARE(cell(checks, 1, Qt::DisplayRole).toString(), QStringLiteral("Title of future"));
    QCOMPARE(checks->failedCount(), 0);

    // The answer settles every row, in its order, and the verdict.
    QJsonArray all;
    for (const QString &id :
         {QStringLiteral("credential"), QStringLiteral("blocked"), QStringLiteral("workspace"), QStringLiteral("log")})
        all.append(check(id, QStringLiteral("ok"), QStringLiteral("Fine.")));
    all.append(check(QStringLiteral("key"), QStringLiteral("skipped"), QStringLiteral("The kit injects no key.")));
    model.applyVerifyResult(QStringLiteral("run-1"), {{QStringLiteral("sandbox"), QStringLiteral("course-a")},
                                                      {QStringLiteral("passed"), true},
                                                      {QStringLiteral("checks"), all}});
    QVERIFY(!model.checking());
    QCOMPARE(checks->rowCount(), 5);
    QCOMPARE(cell(checks, 4, ChecklistModel::CheckIdRole).toString(), QStringLiteral("key"));
    QCOMPARE(cell(checks, 4, ChecklistModel::StatusRole).toString(), QStringLiteral("skipped"));
    QCOMPARE(cell(checks, 4, ChecklistModel::TitleRole).toString(), QStringLiteral("The key reaches its provider"));
    QVERIFY(model.checklistPassed());
    QCOMPARE(model.checklistVerdict(), QStringLiteral("No check failed: this sandbox is ready."));
    QCOMPARE(model.checkProgress(), QString());
    QVERIFY(!cell(checks, 5, ChecklistModel::StatusRole).isValid());
}

void TestClassroomModel::failedCheckMakesTheVerdictRed()
{
    ClassroomModel model;
    model.beginRun(QStringLiteral("run-2"));
    model.applyVerifyEvent(verifyEvent(QStringLiteral("run-2"), 0,
                                       check(QStringLiteral("workspace"), QStringLiteral("failed"),
                                             QStringLiteral("Writing inside the sandbox failed."))));
    QCOMPARE(model.checks()->failedCount(), 1);
    // The same check again replaces its row.
    model.applyVerifyEvent(verifyEvent(
        QStringLiteral("run-2"), 0, check(QStringLiteral("workspace"), QStringLiteral("ok"), QStringLiteral("Fine."))));
    QCOMPARE(model.checks()->rowCount(), 1);
    QCOMPARE(model.checks()->failedCount(), 0);
    model.applyVerifyResult(
        QStringLiteral("run-2"),
        {{QStringLiteral("passed"), false},
         {QStringLiteral("checks"),
          QJsonArray{check(QStringLiteral("log"), QStringLiteral("failed"),
                           QStringLiteral("1 destination(s) were refused without a rule choosing it."),
                           {QStringLiteral("other.test:80 refused 1 time(s)")})}}});
    QVERIFY(!model.checklistPassed());
    QCOMPARE(model.checks()->failedCount(), 1);
    QCOMPARE(model.checklistVerdict(), QStringLiteral("Some checks failed: read each sentence for what to fix."));
    QCOMPARE(cell(model.checks(), 0, ChecklistModel::DetailsRole).toString(),
             QStringLiteral("other.test:80 refused 1 time(s)"));
}

void TestClassroomModel::otherRunsAndLateEventsAreIgnored()
{
    ClassroomModel model;
    // No run under way: nothing is shown.
    model.applyVerifyEvent(
        verifyEvent(QStringLiteral("run-3"), 0, check(QStringLiteral("credential"), QStringLiteral("ok"), {})));
    QCOMPARE(model.checks()->rowCount(), 0);
    model.beginRun(QStringLiteral("run-3"));
    // Another client's run of the checklist.
    model.applyVerifyEvent(verifyEvent(QStringLiteral("someone-else"), 0,
                                       check(QStringLiteral("credential"), QStringLiteral("failed"), {})));
    QCOMPARE(model.checks()->rowCount(), 0);
    // The answer of another run does not end this one.
    model.applyVerifyResult(QStringLiteral("someone-else"), {{QStringLiteral("passed"), true}});
    QVERIFY(model.checking());
    model.applyVerifyResult(QStringLiteral("run-3"),
                            {{QStringLiteral("passed"), true}, {QStringLiteral("checks"), QJsonArray{}}});
    QVERIFY(!model.checking());
    // An event after the answer changes nothing.
    model.applyVerifyEvent(
        verifyEvent(QStringLiteral("run-3"), 0, check(QStringLiteral("blocked"), QStringLiteral("failed"), {})));
    QCOMPARE(model.checks()->rowCount(), 0);
}

void TestClassroomModel::imageStepFollowsItsJob()
{
    // A kit that names its image and can build it: a Dockerfile beside spec.yaml.
    const QString kit = m_home.filePath(QStringLiteral("docker-kit"));
    QDir().mkpath(kit);
    QFile spec(kit + QStringLiteral("/spec.yaml"));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write("schemaVersion: \"2\"\nkind: sandbox\nname: boxed\nsandbox:\n  image: course/boxed:1\n"
               "  entrypoint: [sh, -c]\n");
    spec.close();
    paddock::gui::ImagePreparation image;
    image.setKitDirectory(kit);
    QCOMPARE(image.image(), QStringLiteral("course/boxed:1"));
    QVERIFY(!image.canBuild());
    QFile dockerfile(kit + QStringLiteral("/Dockerfile"));
    QVERIFY(dockerfile.open(QIODevice::WriteOnly));
    dockerfile.write("FROM scratch\n");
    dockerfile.close();
    image.setKitDirectory(QString());
    image.setKitDirectory(kit);
    QVERIFY(image.canBuild());
    QCOMPARE(image.state(), QStringLiteral("idle"));

    // Without the daemon nothing can be asked, and it says so.
    image.check();
    QTRY_COMPARE(image.state(), QStringLiteral("failed"));
    QCOMPARE(image.error(), QStringLiteral("The daemon is not connected."));

    // A build under way: its steps move the progress; another job's events do not.
    image.followJob(QStringLiteral("build-7"));
    QCOMPARE(image.state(), QStringLiteral("working"));
    image.applyEvent({{QStringLiteral("job"), QStringLiteral("build-7")},
                      {QStringLiteral("state"), QStringLiteral("running")},
                      {QStringLiteral("step"), 2},
                      {QStringLiteral("totalSteps"), 4},
                      {QStringLiteral("percent"), 50},
                      {QStringLiteral("message"), QStringLiteral("COPY busybox /bin/busybox")}});
    QCOMPARE(image.percent(), 50);
    QCOMPARE(image.message(), QStringLiteral("Step 2 of 4: COPY busybox /bin/busybox"));
    image.applyEvent({{QStringLiteral("job"), QStringLiteral("load-1")},
                      {QStringLiteral("state"), QStringLiteral("failed")},
                      {QStringLiteral("error"), QStringLiteral("not ours")}});
    QCOMPARE(image.state(), QStringLiteral("working"));
    QVERIFY(!image.ready());
    // Its failure is said as the daemon says it.
    image.applyEvent({{QStringLiteral("job"), QStringLiteral("build-7")},
                      {QStringLiteral("state"), QStringLiteral("failed")},
                      {QStringLiteral("error"), QStringLiteral("step 3/4 (RUN false) failed")}});
    QCOMPARE(image.state(), QStringLiteral("failed"));
    QCOMPARE(image.error(), QStringLiteral("step 3/4 (RUN false) failed"));
    // Done: the image is looked for again (here without a daemon to answer).
    image.followJob(QStringLiteral("build-8"));
    image.applyEvent(
        {{QStringLiteral("job"), QStringLiteral("build-8")}, {QStringLiteral("state"), QStringLiteral("done")}});
    QTRY_COMPARE(image.state(), QStringLiteral("failed"));
    QCOMPARE(image.error(), QStringLiteral("The daemon is not connected."));
}

QTEST_GUILESS_MAIN(TestClassroomModel)
#include "tst_classroom_model.moc"
