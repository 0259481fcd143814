// SPDX-License-Identifier: GPL-3.0-or-later
// The classroom as a student and a teacher do it in the window, with the real paddockd started on
// demand (private XDG directories and keyring) and a real bubblewrap sandbox: a bundle imported,
// "Create my sandbox" through its folder, key and start steps with the agent's terminal opened on
// `paddock attach`, the checklist of the new sandbox run by the daemon and going green check by
// check; the imported kit on the Kits page, and "Export bundle…" writing a bundle a class imports.
#include "KeyringSession.h"
#include "PageDriving.h"

#include "bundle/Bundle.h"

#include "Needs.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

const QString kKey = QStringLiteral("sk-course-T4m8Qw2Zr6Yp1Lx9");

// A course kit that runs on the host's own system under bubblewrap: its key is proxy-managed
// (the sentinel inside) and injected nowhere, so every course check can pass with no provider.
const QByteArray kCourseKit = R"(schemaVersion: "2"
kind: sandbox
name: course
displayName: Course agent
description: The agent of the course.
version: 1.0.0
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command:
    default: ["exec sleep 600"]
credentials:
  - service: course
    description: The course's key, from your teacher
    required: true
    apiKey:
      name: COURSE_API_KEY
      proxyManaged: true
permissions:
  network:
    allow:
      - docs.example.org
)";

} // namespace

class TestClassroomFlow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void importCreateAndCheck();
    void kitsPageListsTheImportAndExportsIt();

private:
    QQuickItem *pageItem(const QString &page, const QString &name)
    {
        return findItem(findItem(m_window, QStringLiteral("page_") + page), name);
    }
    QObject *classroom() { return findObject(m_window, QStringLiteral("classroomModel")); }
    QStringList terminalArguments() const;
    bool ensureCourseImported();

    QString m_home;
    QString m_project;
    QString m_bundle;
    QString m_terminalRecord;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestClassroomFlow::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsSet(secrets::test::kUnavailableVariable),
                 qEnvironmentVariable(secrets::test::kUnavailableVariable));
    m_home = isolateEnvironment();
    qputenv("PADDOCKD", PADDOCKD_BIN);
    qputenv("PADDOCK_INIT", PADDOCK_INIT_BIN);
    // No container engine is needed, nor touched.
    qputenv("DOCKER_HOST", QFile::encodeName(QStringLiteral("unix://") + m_home + QStringLiteral("/no-docker.sock")));
    // An empty sample folder: the library holds what the test imports.
    QDir().mkpath(m_home + QStringLiteral("/samples"));
    qputenv("PADDOCK_SAMPLE_KITS", QFile::encodeName(m_home + QStringLiteral("/samples")));
    m_project = m_home + QStringLiteral("/project");
    QVERIFY(writeFile(m_project + QStringLiteral("/README.md"), "my project\n"));

    // The teacher's bundle.
    QVERIFY(writeFile(m_home + QStringLiteral("/teacher/course/spec.yaml"), kCourseKit));
    bundle::ExportRequest request;
    request.kitDir = m_home + QStringLiteral("/teacher/course");
    const bundle::ExportResult exported = bundle::exportBundle(request);
    QVERIFY2(exported.ok(), qPrintable(exported.error));
    m_bundle = m_home + QStringLiteral("/course.paddock");
    QVERIFY(writeFile(m_bundle, exported.archive));

    // A stand-in terminal that writes down what it was asked to run.
    m_terminalRecord = m_home + QStringLiteral("/terminal-args");
    QVERIFY(useRecordingTerminal(m_home + QStringLiteral("/fake-terminal"), m_terminalRecord));

    WarningRecorder::install();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    QTest::keyClick(m_window, Qt::Key_5, Qt::ControlModifier);
    QTRY_VERIFY(isShown(pageItem(QStringLiteral("classroom"), QStringLiteral("chooseBundleButton"))));
    QObject *terminal = findObject(m_window, QStringLiteral("classroomTerminal"));
    QVERIFY(terminal);
    terminal->setProperty("paddockProgram", QStringLiteral(PADDOCK_BIN));
}

void TestClassroomFlow::cleanupTestCase()
{
    stopEverything();
}

void TestClassroomFlow::cleanup()
{
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

QStringList TestClassroomFlow::terminalArguments() const
{
    QFile file(m_terminalRecord);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

/**
 * The teacher's bundle imported from the Classroom page, unless importCreateAndCheck did it:
 * the test of the Kits page runs alone.
 */
bool TestClassroomFlow::ensureCourseImported()
{
    if (QFileInfo::exists(m_home + QStringLiteral("/XDG_DATA_HOME/paddock/kits/course/spec.yaml")))
        return true;
    const QString page = QStringLiteral("classroom");
    QTest::keyClick(m_window, Qt::Key_5, Qt::ControlModifier);
    if (!QMetaObject::invokeMethod(classroom(), "openBundle", Q_ARG(QUrl, QUrl::fromLocalFile(m_bundle))))
        return false;
    auto importButton = [&] { return pageItem(page, QStringLiteral("importBundleButton")); };
    if (!QTest::qWaitFor([&] { return importButton() && importButton()->isEnabled(); }, 20000) ||
        !press(m_window, importButton()))
        return false;
    return QTest::qWaitFor([&] { return isShown(pageItem(page, QStringLiteral("importResult"))); }, 20000);
}

void TestClassroomFlow::importCreateAndCheck()
{
    const QString page = QStringLiteral("classroom");
    // Import: what the file dialog does once the file is chosen, then the Import button.
    QVERIFY(QMetaObject::invokeMethod(classroom(), "openBundle", Q_ARG(QUrl, QUrl::fromLocalFile(m_bundle))));
    QTRY_VERIFY_WITH_TIMEOUT(pageItem(page, QStringLiteral("importBundleButton"))->isEnabled(), 20000);
    QVERIFY(!isShown(pageItem(page, QStringLiteral("createSandboxButton"))));
    QVERIFY(press(m_window, pageItem(page, QStringLiteral("importBundleButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(pageItem(page, QStringLiteral("importResult"))), 20000);
    QQuickItem *create = pageItem(page, QStringLiteral("createSandboxButton"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(create) && create->isEnabled(), 20000);

    // Create my sandbox: the folder (bubblewrap, the default backend), the missing key, start.
    QObject *dialog = findObject(m_window, QStringLiteral("classroomSandboxDialog"));
    QVERIFY(dialog);
    QVERIFY(press(m_window, create));
    QTRY_VERIFY(dialog->property("opened").toBool());
    QQuickItem *stepTitle = findInPopup(dialog, QStringLiteral("classroomStepTitle"));
    QQuickItem *next = findInPopup(dialog, QStringLiteral("classroomNextButton"));
    QCOMPARE(stepTitle->property("text").toString(), QStringLiteral("1. Your project folder"));
    QVERIFY(findInPopup(dialog, QStringLiteral("classroomBackendBwrap"))->property("checked").toBool());
    QVERIFY(!next->isEnabled());
    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("classroomFolderField")), m_project));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(press(m_window, next));

    QTRY_COMPARE_WITH_TIMEOUT(stepTitle->property("text").toString(), QStringLiteral("2. Keys and approvals"), 15000);
    QQuickItem *keyField = findInPopup(dialog, QStringLiteral("classroomKeyField_course"));
    QVERIFY(isShown(keyField));
    QVERIFY(!next->isEnabled());
    QVERIFY(type(m_window, keyField, kKey));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("classroomKeySave_course"))));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(findInPopup(dialog, QStringLiteral("classroomCredentialsReady"))), 15000);
    QVERIFY(press(m_window, next));

    // No image step for bubblewrap: one line says the host's system is used.
    QTRY_COMPARE(stepTitle->property("text").toString(), QStringLiteral("4. Create and start"));
    QQuickItem *host = findInPopup(dialog, QStringLiteral("classroomHostSystem"));
    QVERIFY(isShown(host));
    QVERIFY(host->property("text").toString().contains(QLatin1String("this computer's own system")));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("classroomCreateButton"))));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->property("visible").toBool(), 60000);

    // Running, with its agent opened in a terminal on `paddock attach`.
    const QString name = QStringLiteral("course-project");
    QQuickItem *message = pageItem(page, QStringLiteral("createMessage"));
    QTRY_VERIFY(isShown(message));
    QVERIFY2(message->property("text").toString().startsWith(name + QStringLiteral(" is running")),
             qPrintable(message->property("text").toString()));
    QTRY_VERIFY_WITH_TIMEOUT(!terminalArguments().isEmpty(), 10000);
    const QStringList arguments = terminalArguments();
    QVERIFY2(arguments.contains(QStringLiteral("-e")), qPrintable(arguments.join(QLatin1Char(' '))));
    QCOMPARE(arguments.mid(arguments.size() - 3),
             (QStringList{QStringLiteral(PADDOCK_BIN), QStringLiteral("attach"), name}));
    const QJsonObject info = daemonCall(QStringLiteral("sandbox.inspect"), {{QStringLiteral("name"), name}})
                                 .result()
                                 .value(QLatin1String("sandbox"))
                                 .toObject();
    QCOMPARE(info.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    QCOMPARE(info.value(QLatin1String("kit")).toString(), QStringLiteral("course"));

    // The checklist picks the new sandbox by itself, and goes green one check at a time.
    QQuickItem *choice = pageItem(page, QStringLiteral("checkSandboxChoice"));
    QTRY_COMPARE_WITH_TIMEOUT(choice->property("displayText").toString(), name, 15000);
    QVERIFY(choice->isEnabled());
    auto *checks = classroom()->property("checks").value<QAbstractItemModel *>();
    QVERIFY(checks);
    QList<bool> insertedWhileChecking;
    connect(checks, &QAbstractItemModel::rowsInserted, this,
            [&] { insertedWhileChecking << classroom()->property("checking").toBool(); });
    QVERIFY(press(m_window, pageItem(page, QStringLiteral("runChecksButton"))));
    QQuickItem *verdict = pageItem(page, QStringLiteral("checklistVerdict"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(verdict), 60000);
    QCOMPARE(verdict->property("text").toString(), QStringLiteral("No check failed: this sandbox is ready."));
    // Each check arrived as its event, before the answer.
    QCOMPARE(insertedWhileChecking, QList<bool>(5, true));
    for (const QString &id : {QStringLiteral("credential"), QStringLiteral("blocked"), QStringLiteral("workspace"),
                              QStringLiteral("log")}) {
        QQuickItem *row = pageItem(page, QStringLiteral("check_") + id);
        QVERIFY2(isShown(row), qPrintable(id));
        QCOMPARE(row->property("status").toString(), QStringLiteral("ok"));
    }
    QCOMPARE(pageItem(page, QStringLiteral("check_key"))->property("status").toString(), QStringLiteral("skipped"));
    QVERIFY(pageItem(page, QStringLiteral("check_credential"))
                ->property("message")
                .toString()
                .contains(QLatin1String("COURSE_API_KEY is proxy-managed")));
    // The probe's file does not stay in the project.
    QCOMPARE(QDir(m_project).entryList({QStringLiteral(".paddock-verify-*")}, QDir::Files | QDir::Hidden),
             QStringList());
}

void TestClassroomFlow::kitsPageListsTheImportAndExportsIt()
{
    QVERIFY(ensureCourseImported());
    const QString page = QStringLiteral("kits");
    QTest::keyClick(m_window, Qt::Key_2, Qt::ControlModifier);
    QQuickItem *row = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((row = pageItem(page, QStringLiteral("kitRow_course"))) && isShown(row), 10000);
    QCOMPARE(findItem(row, QStringLiteral("kitSource"))->property("text").toString(), QStringLiteral("imported"));
    // Imported kits are the user's: editable, not forgotten (they live in the kits folder).
    QCOMPARE(findItem(row, QStringLiteral("kitOpenButton"))->property("text").toString(), QStringLiteral("Edit"));
    QVERIFY(!isShown(findItem(row, QStringLiteral("kitForgetButton"))));

    QObject *dialog = findObject(m_window, QStringLiteral("bundleExportDialog"));
    QVERIFY(dialog);
    QVERIFY(press(m_window, findItem(row, QStringLiteral("kitExportButton"))));
    QTRY_VERIFY(dialog->property("opened").toBool());
    const QString notes = m_home + QStringLiteral("/notes.txt");
    QVERIFY(writeFile(notes, "Bring your key to class.\n"));
    const QString output = m_home + QStringLiteral("/out/again.paddock");
    QDir().mkpath(m_home + QStringLiteral("/out"));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("exportPolicyCheck"))));
    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("exportNotesField")), notes));
    QVERIFY(type(m_window, findInPopup(dialog, QStringLiteral("exportOutputField")), output));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("exportButton"))));
    QQuickItem *result = findInPopup(dialog, QStringLiteral("exportResult"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(result), 20000);
    QVERIFY2(result->property("text").toString().startsWith(QStringLiteral("Wrote ") + output),
             qPrintable(result->property("text").toString()));

    // The file is a bundle a class can import: the kit, the notes, the policy, the key's name.
    const bundle::OpenResult opened = bundle::openBundle(output);
    QVERIFY2(opened.bundle, qPrintable(opened.error));
    QCOMPARE(opened.bundle->kit.name, QStringLiteral("course"));
    QCOMPARE(opened.bundle->manifest.notes, QStringLiteral("Bring your key to class.\n"));
    QVERIFY(opened.bundle->manifest.policy.has_value());
    QCOMPARE(opened.bundle->manifest.secrets.size(), 1);
    QCOMPARE(opened.bundle->manifest.secrets.constFirst().service, QStringLiteral("course"));
    QVERIFY(press(m_window, findInPopup(dialog, QStringLiteral("exportCloseButton"))));
    QTRY_VERIFY(!dialog->property("visible").toBool());
}

int main(int argc, char **argv)
{
    // Run as an ordinary user, the environment holds little: the test sets what it needs.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_QUICK_BACKEND", "software");
    qunsetenv("QT_QUICK_CONTROLS_STYLE");
    qputenv("LANGUAGE", "en");
    qputenv("LC_ALL", "en_US.UTF-8");
    paddock::secrets::test::enterPrivateKeyring(argc, argv);
    QGuiApplication app(argc, argv);
    TestClassroomFlow test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_classroom_flow.moc"
