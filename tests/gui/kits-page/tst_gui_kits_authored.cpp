// SPDX-License-Identifier: GPL-3.0-or-later
// An authored schemaVersion "3" kit (STEM/STEM.yaml beside STEM.dockerfile) on the Kits page:
// listed from the folder added, opened in the editor, its network-policy@1 lists (runtime and
// install-phase, the kit's own and a group's) and display name edited and saved line for line,
// and what the decoder refuses left out of the file.
#include "GuiTestSupport.h"

#include "kit/KitLibrary.h"
#include "kit/KitV3Authored.h"

#include <QQmlComponent>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

const QByteArray kDescriptor = R"(# syntax=docker/sandbox-kit:3
schemaVersion: "3"
kind: workload
displayName: Demo agent   # as listed
description: A shell that reaches GitHub
capabilities:
  # GitHub only, never the tracker.
  - type: com.docker.sandbox/network-policy@1
    config:
      runtime:
        allow:
          - github.com
        deny:
          - tracker.example.com
  - type: com.docker.sandbox/credential@1
    config:
      service: github
      phase: runtime
      apiKey:
        name: GH_TOKEN
        inject:
          - domain: github.com
            header: Authorization
            format: "Bearer %s"
)";

// A group holding its own network-policy@1, after the kit's own request.
const QByteArray kGroup = R"(  - group:
      name: mirror
      optional: true
      capabilities:
        - type: com.docker.sandbox/network-policy@1
          config:
            runtime:
              allow: [mirror.example.com]   # the cache
)";

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestGuiKitsAuthored : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void opensLikeASpecFolder();
    void editsAndSavesOnlyTheTouchedLines();
    void refusedEntryLeavesTheFile();
    void saveRefusedWithTheDecodersPlace();
    void addsAnInstallHostAndSavesIt();
    void editsAGroupsListsInTheGroup();
    void sampleKitListsStayReadOnly();
    void editorScreenshot();

private:
    QQuickItem *item(const QString &name) { return findItem(m_window, name); }
    QObject *popup(const QString &name) { return findObject(m_window, name); }
    QQuickItem *inRow(const QString &name) { return findItem(item(QStringLiteral("kitRow_demo")), name); }
    QObject *editor() { return m_window->findChild<QObject *>(QStringLiteral("kitEditorModel")); }
    QString labelText(const QString &name) { return item(name) ? item(name)->property("text").toString() : QString(); }
    QString descriptor() const { return m_kit + QStringLiteral("/demo.yaml"); }
    void click(QQuickItem *target);
    void typeInto(QQuickItem *field, const QString &text);
    void openDemo();
    void saveInDialog();
    void writeDescriptor(const QByteArray &text);

    QTemporaryDir m_dir;
    QString m_kit;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestGuiKitsAuthored::initTestCase()
{
    QCOMPARE(qgetenv("QT_QPA_PLATFORM"), QByteArray("offscreen"));
    isolateEnvironment();
    WarningRecorder::install();
    gui::setUpApplication(*qGuiApp);
    gui::installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestGuiKitsAuthored::init()
{
    QDir(m_dir.path()).removeRecursively();
    QDir().mkpath(m_dir.filePath(QStringLiteral("samples")));
    qputenv("PADDOCK_SAMPLE_KITS", m_dir.filePath(QStringLiteral("samples")).toUtf8());
    QFile::remove(kit::KitLibrary::defaultConfigFile());
    QDir().mkpath(m_dir.filePath(QStringLiteral("kits/demo")));
    m_kit = QFileInfo(m_dir.filePath(QStringLiteral("kits/demo"))).canonicalFilePath();
    {
        QFile file(descriptor());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kDescriptor);
        QFile recipe(m_kit + QStringLiteral("/demo.dockerfile"));
        QVERIFY(recipe.open(QIODevice::WriteOnly));
        recipe.write("FROM docker/sandbox-templates:shell\n");
    }
    kit::KitLibrary library;
    QString error;
    QVERIFY2(library.add(m_kit, &error), qPrintable(error));

    m_engine = new QQmlApplicationEngine(this);
    m_window = showPageWindow(*m_engine, "KitsPage", 1300, 1600);
    QVERIFY(m_window);
}

void TestGuiKitsAuthored::cleanup()
{
    delete m_engine;
    m_engine = nullptr;
    m_window = nullptr;
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestGuiKitsAuthored::click(QQuickItem *target)
{
    QVERIFY(target);
    QVERIFY2(isShown(target), qPrintable(target->objectName()));
    QVERIFY(target->isEnabled());
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(target));
}

void TestGuiKitsAuthored::typeInto(QQuickItem *field, const QString &text)
{
    QVERIFY(field);
    field->forceActiveFocus();
    QVERIFY(field->hasActiveFocus());
    QTest::keyClick(m_window, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(m_window, Qt::Key_Backspace);
    for (const QChar c : text)
        QTest::keyClick(m_window, c.toLatin1());
}

void TestGuiKitsAuthored::openDemo()
{
    click(inRow(QStringLiteral("kitOpenButton")));
    QVERIFY(editor()->property("loaded").toBool());
    QTRY_VERIFY(isShown(item(QStringLiteral("kitEditorPane"))));
}

void TestGuiKitsAuthored::saveInDialog()
{
    click(item(QStringLiteral("kitSaveButton")));
    QObject *dialog = popup(QStringLiteral("kitSaveDialog"));
    QTRY_VERIFY(dialog && dialog->property("opened").toBool());
    click(item(QStringLiteral("kitConfirmSave")));
    QTRY_COMPARE(editor()->property("modified").toBool(), false);
}

void TestGuiKitsAuthored::writeDescriptor(const QByteArray &text)
{
    QFile file(descriptor());
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(text), text.size());
}

void TestGuiKitsAuthored::opensLikeASpecFolder()
{
    // Listed by its stem, editable, with no export (a bundle carries a spec.yaml).
    QVERIFY(item(QStringLiteral("kitRow_demo")));
    QCOMPARE(inRow(QStringLiteral("kitName"))->property("text").toString(), QStringLiteral("Demo agent"));
    QCOMPARE(inRow(QStringLiteral("kitOpenButton"))->property("text").toString(), QStringLiteral("Edit"));
    QVERIFY(!inRow(QStringLiteral("kitExportButton"))->isVisible());
    // The row says what a sandbox runs: the kit built from the folder.
    QQuickItem *authored = inRow(QStringLiteral("kitAuthored"));
    QVERIFY(authored && authored->isVisible());
    QVERIFY2(authored->property("text").toString().contains(
                 QStringLiteral("paddock kit build %1 makes the kit").arg(QFileInfo(descriptor()).absolutePath())),
             qPrintable(authored->property("text").toString()));
    openDemo();
    QVERIFY(editor()->property("isV3").toBool());
    QCOMPARE(editor()->property("filePath").toString(), descriptor());
    QVERIFY(isShown(item(QStringLiteral("kitDescriptorForm"))));
    QCOMPARE(labelText(QStringLiteral("kitEditorTitle")), QStringLiteral("Demo agent"));
    QCOMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("Valid"));
    QCOMPARE(labelText(QStringLiteral("descriptorName")), QStringLiteral("Name: demo (the descriptor's file name)"));
    QCOMPARE(item(QStringLiteral("field_displayName"))->property("text").toString(), QStringLiteral("Demo agent"));
    QCOMPARE(item(QStringLiteral("field_description"))->property("text").toString(),
             QStringLiteral("A shell that reaches GitHub"));
    QCOMPARE(item(QStringLiteral("item_v3.allow.0"))->property("text").toString(), QStringLiteral("github.com"));
    QCOMPARE(item(QStringLiteral("item_v3.deny.0"))->property("text").toString(),
             QStringLiteral("tracker.example.com"));
    const QList<QQuickItem *> credentials = findItems(m_window, QStringLiteral("descriptorCredential"));
    QCOMPARE(credentials.size(), 1);
    QCOMPARE(credentials.first()->property("text").toString(),
             QStringLiteral("github (runtime), injected for github.com"));
}

void TestGuiKitsAuthored::editsAndSavesOnlyTheTouchedLines()
{
    openDemo();
    typeInto(item(QStringLiteral("add_v3.allow")), QStringLiteral("api.github.com"));
    click(item(QStringLiteral("addButton_v3.allow")));
    QTRY_COMPARE(item(QStringLiteral("item_v3.allow.1"))->property("text").toString(),
                 QStringLiteral("api.github.com"));
    click(item(QStringLiteral("remove_v3.deny.0")));
    QTRY_VERIFY(!item(QStringLiteral("item_v3.deny.0")));
    typeInto(item(QStringLiteral("field_displayName")), QStringLiteral("Demo agent 2"));
    QTRY_COMPARE(editor()->property("modified").toBool(), true);
    QCOMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("Valid"));

    click(item(QStringLiteral("kitSaveButton")));
    QObject *dialog = popup(QStringLiteral("kitSaveDialog"));
    QTRY_VERIFY(dialog && dialog->property("opened").toBool());
    QCOMPARE(dialog->property("title").toString(), QStringLiteral("Save demo.yaml"));
    click(item(QStringLiteral("kitConfirmSave")));
    QTRY_COMPARE(editor()->property("modified").toBool(), false);

    QByteArray expected = kDescriptor;
    expected.replace("displayName: Demo agent   # as listed", "displayName: Demo agent 2   # as listed");
    expected.replace("          - github.com\n        deny:\n          - tracker.example.com\n",
                     "          - github.com\n          - api.github.com\n");
    QCOMPARE(readAll(descriptor()), expected);
    // What `paddock kit build` reads accepts it.
    const kit::AuthoredKitResult built = kit::readAuthoredKit(m_kit);
    QVERIFY2(built.kit, qPrintable(built.diagnostics.value(0).toString()));
    QVERIFY(built.kit->published.contains("\"allow\":[\"github.com\",\"api.github.com\"]"));
}

void TestGuiKitsAuthored::refusedEntryLeavesTheFile()
{
    openDemo();
    typeInto(item(QStringLiteral("add_v3.allow")), QStringLiteral("api.github.com:99999"));
    click(item(QStringLiteral("addButton_v3.allow")));
    QTRY_VERIFY(labelText(QStringLiteral("kitEditorMessage")).contains(QStringLiteral("is not a host pattern")));
    QVERIFY2(labelText(QStringLiteral("kitEditorMessage")).contains(QStringLiteral("out of range")),
             qPrintable(labelText(QStringLiteral("kitEditorMessage"))));
    QVERIFY(!editor()->property("modified").toBool());
    QVERIFY(!item(QStringLiteral("item_v3.allow.1")));
    QCOMPARE(readAll(descriptor()), kDescriptor);
}

void TestGuiKitsAuthored::saveRefusedWithTheDecodersPlace()
{
    openDemo();
    // Typed into the text view: an entry the decoder refuses, at line 14, column 13.
    QByteArray broken = kDescriptor;
    broken.replace("          - tracker.example.com\n", "          - tracker example.com\n");
    QVERIFY(QMetaObject::invokeMethod(editor(), "setText", Q_ARG(QString, QString::fromUtf8(broken))));
    QTRY_COMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("1 error(s)"));
    bool saved = true;
    QVERIFY(QMetaObject::invokeMethod(editor(), "save", Q_RETURN_ARG(bool, saved)));
    QVERIFY(!saved);
    const QString message = labelText(QStringLiteral("kitEditorMessage"));
    QVERIFY2(message.contains(descriptor() + QStringLiteral(":14:13: error:")), qPrintable(message));
    QCOMPARE(readAll(descriptor()), kDescriptor);
}

void TestGuiKitsAuthored::addsAnInstallHostAndSavesIt()
{
    openDemo();
    // Beside the runtime lists, with what they are for in plain words; empty for now.
    QVERIFY(isShown(item(QStringLiteral("phaseTitle_v3.install"))));
    QVERIFY2(labelText(QStringLiteral("installNote_v3")).startsWith(QStringLiteral("Only while the kit installs")),
             qPrintable(labelText(QStringLiteral("installNote_v3"))));
    QVERIFY(!item(QStringLiteral("item_v3.install.allow.0")));
    typeInto(item(QStringLiteral("add_v3.install.allow")), QStringLiteral("registry.npmjs.org"));
    click(item(QStringLiteral("addButton_v3.install.allow")));
    QTRY_COMPARE(item(QStringLiteral("item_v3.install.allow.0"))->property("text").toString(),
                 QStringLiteral("registry.npmjs.org"));
    // The runtime list is untouched, and a refused host is refused as there.
    QVERIFY(!item(QStringLiteral("item_v3.allow.1")));
    typeInto(item(QStringLiteral("add_v3.install.deny")), QStringLiteral("https://ads.example.com"));
    click(item(QStringLiteral("addButton_v3.install.deny")));
    QTRY_VERIFY(labelText(QStringLiteral("kitEditorMessage")).contains(QStringLiteral("is not a host pattern")));
    QVERIFY(!item(QStringLiteral("item_v3.install.deny.0")));
    QCOMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("Valid"));
    saveInDialog();

    QByteArray expected = kDescriptor;
    expected.replace("          - tracker.example.com\n", "          - tracker.example.com\n"
                                                          "      install:\n"
                                                          "        allow:\n"
                                                          "          - registry.npmjs.org\n");
    QCOMPARE(readAll(descriptor()), expected);
    const kit::AuthoredKitResult built = kit::readAuthoredKit(m_kit);
    QVERIFY2(built.kit, qPrintable(built.diagnostics.value(0).toString()));
    QVERIFY(built.kit->published.contains("\"install\":{\"allow\":[\"registry.npmjs.org\"]}"));

    // Removed again, the `install:` goes with it and the file is as it was.
    click(item(QStringLiteral("remove_v3.install.allow.0")));
    QTRY_VERIFY(!item(QStringLiteral("item_v3.install.allow.0")));
    saveInDialog();
    QCOMPARE(readAll(descriptor()), kDescriptor);
}

void TestGuiKitsAuthored::editsAGroupsListsInTheGroup()
{
    const QByteArray original = kDescriptor + kGroup;
    writeDescriptor(original);
    openDemo();
    QCOMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("Valid"));
    QQuickItem *section = item(QStringLiteral("descriptorGroupNetwork_2"));
    QVERIFY(section && isShown(section));
    QCOMPARE(section->property("title").toString(), QStringLiteral("Network of the group mirror"));
    QCOMPARE(item(QStringLiteral("item_v3.group2.allow.0"))->property("text").toString(),
             QStringLiteral("mirror.example.com"));
    // A screen reader tells the group's lists from the kit's own.
    QCOMPARE(accessibleName(item(QStringLiteral("add_v3.group2.install.allow"))),
             QStringLiteral("New item of Allowed while installing, group mirror"));
    QCOMPARE(accessibleName(item(QStringLiteral("add_v3.install.allow"))),
             QStringLiteral("New item of Allowed while installing"));
    typeInto(item(QStringLiteral("add_v3.group2.install.allow")), QStringLiteral("pypi.org"));
    click(item(QStringLiteral("addButton_v3.group2.install.allow")));
    QTRY_COMPARE(item(QStringLiteral("item_v3.group2.install.allow.0"))->property("text").toString(),
                 QStringLiteral("pypi.org"));
    // The kit's own request has no install list of its own.
    QVERIFY(!item(QStringLiteral("item_v3.install.allow.0")));
    saveInDialog();
    QCOMPARE(readAll(descriptor()), original + "            install:\n"
                                               "              allow:\n"
                                               "                - pypi.org\n");
    const kit::AuthoredKitResult built = kit::readAuthoredKit(m_kit);
    QVERIFY2(built.kit, qPrintable(built.diagnostics.value(0).toString()));
}

void TestGuiKitsAuthored::sampleKitListsStayReadOnly()
{
    // Opened as the page opens a sample: read-only.
    QVERIFY(QMetaObject::invokeMethod(item(QStringLiteral("page_kits")), "openKit", Q_ARG(QVariant, m_kit),
                                      Q_ARG(QVariant, true)));
    QVERIFY(editor()->property("readOnly").toBool());
    QTRY_VERIFY(isShown(item(QStringLiteral("kitEditorPane"))));
    QVERIFY(isShown(item(QStringLiteral("phaseTitle_v3.install"))));
    QVERIFY(!isShown(item(QStringLiteral("add_v3.install.allow"))));
    QVERIFY(!isShown(item(QStringLiteral("remove_v3.allow.0"))));
    bool added = true;
    QVERIFY(QMetaObject::invokeMethod(editor(), "addNetworkPattern", Q_RETURN_ARG(bool, added), Q_ARG(bool, false),
                                      Q_ARG(QString, QStringLiteral("pypi.org")), Q_ARG(bool, true), Q_ARG(int, -1)));
    QVERIFY(!added);
    QVERIFY(!editor()->property("modified").toBool());
    QCOMPARE(readAll(descriptor()), kDescriptor);
}

void TestGuiKitsAuthored::editorScreenshot()
{
    m_window->resize(1100, 720);
    openDemo();
    const QImage image = m_window->grabWindow();
    QVERIFY(!image.isNull());
    const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(image.save(dir + QStringLiteral("/kit-editor-v3.png")));
}

QTEST_MAIN(TestGuiKitsAuthored)
#include "tst_gui_kits_authored.moc"
