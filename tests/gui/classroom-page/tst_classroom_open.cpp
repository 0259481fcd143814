// SPDX-License-Identifier: GPL-3.0-or-later
// A bundle opened from the file manager (`paddock open FILE`, the desktop entry's Exec): the
// window starts on the Classroom page with the bundle's preview, nothing of it is in the
// kits folder or the network policy until Import is pressed, and a file that is no bundle
// says so on the page without a preview. A second `paddock open` hands its file to the window
// already running instead of opening another. On a real X display (Xvfb under with-services).
#include "GuiTestSupport.h"
#include "Needs.h"
#include "WindowInstance.h"

#include "bundle/Bundle.h"
#include "policy/PolicyStore.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestClassroomOpen : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void openedBundleIsPreviewedNotImported();
    void fileThatIsNoBundleShowsWhy();
    void secondOpenGoesToTheRunningWindow();
    void withoutDisplayTheCommandLineSaysWhatToDo();

private:
    /** The window as `paddock open FILE` starts it. */
    QQuickWindow *openWindowWith(const QString &file);
    QQuickItem *item(const QString &name)
    {
        return findItem(findItem(m_window, QStringLiteral("page_classroom")), name);
    }
    QString writeFile(const QString &name, const QByteArray &bytes);

    QString m_home;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestClassroomOpen::initTestCase()
{
    PADDOCK_NEED(!qEnvironmentVariableIsEmpty("DISPLAY"), "an X display (tests/with-services.sh starts Xvfb)");
    WarningRecorder::install();
    m_home = isolateEnvironment();
}

void TestClassroomOpen::cleanup()
{
    delete m_engine;
    m_engine = nullptr;
    m_window = nullptr;
}

QQuickWindow *TestClassroomOpen::openWindowWith(const QString &file)
{
    gui::setUpApplication(*qGuiApp);
    gui::installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
    m_engine = new QQmlApplicationEngine(this);
    gui::openBundleAtStart(*m_engine, file);
    m_window = loadMainWindow(*m_engine);
    return m_window;
}

QString TestClassroomOpen::writeFile(const QString &name, const QByteArray &bytes)
{
    const QString path = m_home + QLatin1Char('/') + name;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return path;
}

void TestClassroomOpen::openedBundleIsPreviewedNotImported()
{
    // The teacher's bundle carries the kit and the course's network rules.
    const QString teacherPolicy = writeFile(QStringLiteral("teacher-policy.yaml"), "preset: deny-all\n"
                                                                                   "rules:\n"
                                                                                   "  - decision: allow\n"
                                                                                   "    pattern: course.example.org\n");
    bundle::ExportRequest request;
    request.kitDir = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/pi");
    request.includePolicy = true;
    request.policyPath = teacherPolicy;
    const bundle::ExportResult exported = bundle::exportBundle(request);
    QVERIFY2(exported.ok(), qPrintable(exported.error));
    const QString file = writeFile(QStringLiteral("course.paddock"), exported.archive);
    QVERIFY(!file.isEmpty());
    const QString kitFolder = m_home + QStringLiteral("/XDG_DATA_HOME/paddock/kits/pi");
    const QString policy = policy::PolicyStore::defaultPath();

    QVERIFY(openWindowWith(file));
    QQuickItem *page = findItem(m_window, QStringLiteral("page_classroom"));
    QTRY_VERIFY(isShown(page));
    QQuickItem *preview = item(QStringLiteral("bundlePreview"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(preview) && !preview->property("text").toString().isEmpty(), 20000);
    const QString text = preview->property("text").toString();
    QVERIFY2(text.contains(QLatin1String("Kit pi 0.1.0")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("course.example.org")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("write the kit folder ") + kitFolder), qPrintable(text));

    // Nothing imported: no kit folder, no policy written, until Import.
    QVERIFY(!QFileInfo::exists(kitFolder));
    QVERIFY(!QFileInfo::exists(policy));
    QQuickItem *import = item(QStringLiteral("importBundleButton"));
    QVERIFY(isShown(import) && import->isEnabled());

    QMetaObject::invokeMethod(import, "clicked");
    QQuickItem *result = item(QStringLiteral("importResult"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(result), 20000);
    QVERIFY2(result->property("text").toString().contains(QLatin1String("Kit pi imported")),
             qPrintable(result->property("text").toString()));
    QVERIFY(QFileInfo::exists(kitFolder + QStringLiteral("/spec.yaml")));
    QFile written(policy);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY(written.readAll().contains("course.example.org"));
    QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestClassroomOpen::fileThatIsNoBundleShowsWhy()
{
    const QString file = writeFile(QStringLiteral("notes.paddock"), "These are my notes, not a bundle.\n");
    QVERIFY(openWindowWith(file));
    QTRY_VERIFY(isShown(findItem(m_window, QStringLiteral("page_classroom"))));
    QQuickItem *error = item(QStringLiteral("classroomError"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(error), 20000);
    const QString message = error->property("text").toString();
    QVERIFY2(message.contains(file + QStringLiteral(" was refused")), qPrintable(message));
    QVERIFY(!isShown(item(QStringLiteral("bundlePreview"))));
    QVERIFY(!item(QStringLiteral("importBundleButton"))->isEnabled());
}

void TestClassroomOpen::secondOpenGoesToTheRunningWindow()
{
    // The window as `paddock` alone starts it, on its first page, following requests as main() does.
    gui::setUpApplication(*qGuiApp);
    m_engine = new QQmlApplicationEngine(this);
    auto *instance = new gui::WindowInstance(m_engine);
    QVERIFY(instance->listen());
    m_window = loadMainWindow(*m_engine);
    QVERIFY(m_window);
    gui::raiseOnRequests(*m_engine, *instance);
    QVERIFY(!isShown(findItem(m_window, QStringLiteral("page_classroom"))));

    bundle::ExportRequest request;
    request.kitDir = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/shell");
    const bundle::ExportResult exported = bundle::exportBundle(request);
    QVERIFY2(exported.ok(), qPrintable(exported.error));
    const QString file = writeFile(QStringLiteral("second.paddock"), exported.archive);

    // A second double-click: the real program hands the file over and ends, no second window.
    QProcess second;
    auto stop = qScopeGuard([&second] {
        second.kill();
        second.waitForFinished();
    });
    second.start(QStringLiteral(PADDOCK_BIN), {QStringLiteral("open"), file});
    QTRY_VERIFY_WITH_TIMEOUT(second.state() == QProcess::NotRunning, 20000);
    QCOMPARE(second.exitCode(), 0);
    QTRY_VERIFY(isShown(findItem(m_window, QStringLiteral("page_classroom"))));
    QQuickItem *preview = item(QStringLiteral("bundlePreview"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(preview) && !preview->property("text").toString().isEmpty(), 20000);
    QVERIFY2(preview->property("text").toString().contains(QLatin1String("Kit shell")),
             qPrintable(preview->property("text").toString()));
    QVERIFY(!QFileInfo::exists(m_home + QStringLiteral("/XDG_DATA_HOME/paddock/kits/shell")));
}

void TestClassroomOpen::withoutDisplayTheCommandLineSaysWhatToDo()
{
    // The real program, with no display: `open FILE` and a lone FILE.paddock are both requests
    // for the window, answered with the terminal's way; any other word is still a command.
    const QString file = writeFile(QStringLiteral("lesson.paddock"), "not read here\n");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QLatin1String(name));
    const auto paddock = [&env](const QStringList &arguments) {
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(PADDOCK_BIN), arguments);
        process.waitForFinished(30000);
        return std::make_pair(process.exitCode(), QString::fromUtf8(process.readAllStandardError()));
    };
    for (const QStringList &arguments : {QStringList{QStringLiteral("open"), file}, QStringList{file}}) {
        const auto [code, err] = paddock(arguments);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral("'paddock bundle import %1 --dry-run'").arg(file)), qPrintable(err));
    }
    const auto [code, err] = paddock({m_home + QStringLiteral("/missing.paddock")});
    QCOMPARE(code, 2);
    QVERIFY2(err.contains(QLatin1String("is not a command of 'paddock'")), qPrintable(err));
}

QTEST_MAIN(TestClassroomOpen)
#include "tst_classroom_open.moc"
