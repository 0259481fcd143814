// SPDX-License-Identifier: GPL-3.0-or-later
// The Kits page as a user drives it: the list of samples and added kits, the editor's
// fields and their messages, saving with the summary of changes, new kits and copies.
#include "GuiTestSupport.h"

#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"

#include <QQmlComponent>
#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

namespace {

// A kit of the user's own, with comments and habits of its author that must survive.
const QByteArray kUserKit = R"(# My agent, tuned for the course.
schemaVersion: "2"
kind: sandbox
name: course-agent
displayName: Course agent
description: Pi for the course   # shown to students
sandbox:
  image: docker/sandbox-templates:shell-docker
  entrypoint:
    - pi
# Only what the course needs.
permissions:
  network:
    allow:
      - registry.npmjs.org
credentials:
  - service: anthropic
    apiKey:
      name: ANTHROPIC_API_KEY
      proxyManaged: true
      inject:
        - domain: registry.npmjs.org
          header: x-api-key
          format: '%s'
)";

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestGuiKitsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void listShowsSampleAndAddedKit();
    void invalidNameShowsMessageAtField();
    void invalidValueInListItemShowsMessageAtThatField();
    void validEditSavesExactlyTheseLines();
    void yamlTextFollowsForm();
    void sampleOpensReadOnlyAndCopies();
    void newKitFromTemplateValidates();
    void addAndForgetFolder();
    void leavingWithChangesAsksFirst();
    void editorControlsHaveNames();
    void editorScreenshot();

private:
    QQuickItem *item(const QString &name) { return findItem(m_window, name); }
    /** Popups (dialogs) are objects, not items. */
    QObject *popup(const QString &name) { return findObject(m_window, name); }
    QQuickItem *row(const QString &kitName) { return item(QStringLiteral("kitRow_") + kitName); }
    QQuickItem *inRow(const QString &kitName, const QString &name) { return findItem(row(kitName), name); }
    QObject *editor() { return m_window->findChild<QObject *>(QStringLiteral("kitEditorModel")); }
    QObject *kitList() { return m_window->findChild<QObject *>(QStringLiteral("kitListModel")); }
    void click(QQuickItem *target);
    void typeInto(QQuickItem *field, const QString &text, bool replace = true);
    void openKit(const QString &kitName);
    QString labelText(const QString &name) { return item(name) ? item(name)->property("text").toString() : QString(); }

    QTemporaryDir m_dir;
    QString m_userKit;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestGuiKitsPage::initTestCase()
{
    QCOMPARE(qgetenv("QT_QPA_PLATFORM"), QByteArray("offscreen"));
    isolateEnvironment();
    WarningRecorder::install();
    gui::setUpApplication(*qGuiApp);
    gui::installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
}

void TestGuiKitsPage::init()
{
    // Fresh folders and a fresh page for every test: samples, one added kit, nothing else.
    QDir(m_dir.path()).removeRecursively();
    QDir().mkpath(m_dir.filePath(QStringLiteral("samples/pi")));
    QVERIFY(QFile::copy(QStringLiteral(PADDOCK_FIXTURES "/kits/published/pi/spec.yaml"),
                        m_dir.filePath(QStringLiteral("samples/pi/spec.yaml"))));
    qputenv("PADDOCK_SAMPLE_KITS", m_dir.filePath(QStringLiteral("samples")).toUtf8());
    QFile::remove(kit::KitLibrary::defaultConfigFile());

    m_userKit = m_dir.filePath(QStringLiteral("kits/course"));
    QDir().mkpath(m_userKit);
    {
        QFile file(m_userKit + QStringLiteral("/spec.yaml"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kUserKit);
    }
    m_userKit = QFileInfo(m_userKit).canonicalFilePath();
    kit::KitLibrary library;
    QString error;
    QVERIFY2(library.add(m_userKit, &error), qPrintable(error));

    m_engine = new QQmlApplicationEngine(this);
    m_window = showPageWindow(*m_engine, "KitsPage", 1300, 1600);
    QVERIFY(m_window);
}

void TestGuiKitsPage::cleanup()
{
    delete m_engine;
    m_engine = nullptr;
    m_window = nullptr;
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestGuiKitsPage::click(QQuickItem *target)
{
    QVERIFY(target);
    QVERIFY2(isShown(target), qPrintable(target->objectName()));
    QVERIFY(target->isEnabled());
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(target));
}

void TestGuiKitsPage::typeInto(QQuickItem *field, const QString &text, bool replace)
{
    QVERIFY(field);
    field->forceActiveFocus();
    QVERIFY(field->hasActiveFocus());
    if (replace) {
        QTest::keyClick(m_window, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(m_window, Qt::Key_Backspace);
    } else {
        QTest::keyClick(m_window, Qt::Key_End);
    }
    // QTest has no keyClicks for a QWindow in Qt 6.4: one key press per character.
    for (const QChar c : text)
        QTest::keyClick(m_window, c.toLatin1());
}

void TestGuiKitsPage::openKit(const QString &kitName)
{
    click(inRow(kitName, QStringLiteral("kitOpenButton")));
    QVERIFY(editor()->property("loaded").toBool());
    QTRY_VERIFY(isShown(item(QStringLiteral("kitEditorPane"))));
}

void TestGuiKitsPage::listShowsSampleAndAddedKit()
{
    QCOMPARE(kitList()->property("count").toInt(), 2);
    QVERIFY(row(QStringLiteral("course-agent")));
    QVERIFY(row(QStringLiteral("pi")));
    QCOMPARE(inRow(QStringLiteral("course-agent"), QStringLiteral("kitName"))->property("text").toString(),
             QStringLiteral("Course agent"));
    QCOMPARE(inRow(QStringLiteral("course-agent"), QStringLiteral("kitSource"))->property("text").toString(),
             QStringLiteral("your folder"));
    QCOMPARE(inRow(QStringLiteral("pi"), QStringLiteral("kitSource"))->property("text").toString(),
             QStringLiteral("sample"));
    // The added kit's inject domain is in its own allowlist: no warning at all.
    QCOMPARE(inRow(QStringLiteral("course-agent"), QStringLiteral("kitStatus"))->property("text").toString(),
             QStringLiteral("Valid"));
    // An added kit can be forgotten and edited; a sample viewed and copied.
    QVERIFY(isShown(inRow(QStringLiteral("course-agent"), QStringLiteral("kitForgetButton"))));
    QVERIFY(!inRow(QStringLiteral("course-agent"), QStringLiteral("kitCopyButton"))->isVisible());
    QCOMPARE(inRow(QStringLiteral("course-agent"), QStringLiteral("kitOpenButton"))->property("text").toString(),
             QStringLiteral("Edit"));
    QCOMPARE(inRow(QStringLiteral("pi"), QStringLiteral("kitOpenButton"))->property("text").toString(),
             QStringLiteral("View"));
    QVERIFY(isShown(inRow(QStringLiteral("pi"), QStringLiteral("kitCopyButton"))));
    QVERIFY(!inRow(QStringLiteral("pi"), QStringLiteral("kitForgetButton"))->isVisible());
}

void TestGuiKitsPage::invalidNameShowsMessageAtField()
{
    openKit(QStringLiteral("course-agent"));
    QQuickItem *message = item(QStringLiteral("message_name"));
    QVERIFY(message);
    QVERIFY(!message->isVisible());
    typeInto(item(QStringLiteral("field_name")), QStringLiteral("Course Agent"));
    QTRY_VERIFY(message->isVisible());
    const QString text = message->property("text").toString();
    QVERIFY2(text.contains(QStringLiteral("name")), qPrintable(text));
    QCOMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("1 error(s)"));
    // Only that field says so; others stay quiet.
    QVERIFY(!item(QStringLiteral("message_sandbox.image"))->isVisible());
    // Fixing it clears the message, as you type.
    typeInto(item(QStringLiteral("field_name")), QStringLiteral("course-agent-2"));
    QTRY_VERIFY(!message->isVisible());
    QCOMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("Valid"));
}

void TestGuiKitsPage::invalidValueInListItemShowsMessageAtThatField()
{
    openKit(QStringLiteral("course-agent"));
    const QString format = QStringLiteral("credentials.0.apiKey.inject.0.format");
    typeInto(item(QStringLiteral("field_") + format), QStringLiteral("Bearer"));
    QQuickItem *message = item(QStringLiteral("message_") + format);
    QTRY_VERIFY(message && message->isVisible());
    QVERIFY2(message->property("text").toString().contains(QStringLiteral("%s")),
             qPrintable(message->property("text").toString()));
    QVERIFY(!item(QStringLiteral("message_credentials.0.apiKey.inject.0.domain"))->isVisible());
    // The whole-kit list names the line.
    bool listed = false;
    for (QQuickItem *line : findItems(m_window, QStringLiteral("kitDiagnostic")))
        listed |= line->property("text").toString().startsWith(QStringLiteral("Line 24:"));
    QVERIFY(listed);
    // Saving is refused while the kit has an error, and the file is untouched.
    bool saved = true;
    QVERIFY(QMetaObject::invokeMethod(editor(), "save", Q_RETURN_ARG(bool, saved)));
    QVERIFY(!saved);
    QVERIFY2(labelText(QStringLiteral("kitEditorMessage")).contains(QStringLiteral("line 24")),
             qPrintable(labelText(QStringLiteral("kitEditorMessage"))));
    QCOMPARE(readAll(m_userKit + QStringLiteral("/spec.yaml")), kUserKit);
}

void TestGuiKitsPage::validEditSavesExactlyTheseLines()
{
    openKit(QStringLiteral("course-agent"));
    typeInto(item(QStringLiteral("field_sandbox.image")),
             QStringLiteral("docker/sandbox-templates:claude-code-docker"));
    typeInto(item(QStringLiteral("add_permissions.network.allow")), QStringLiteral("github.com"));
    click(item(QStringLiteral("addButton_permissions.network.allow")));
    QTRY_COMPARE(editor()->property("modified").toBool(), true);

    click(item(QStringLiteral("kitSaveButton")));
    QObject *dialog = popup(QStringLiteral("kitSaveDialog"));
    QTRY_VERIFY(dialog && dialog->property("opened").toBool());
    QStringList summary;
    for (QQuickItem *line : findItems(m_window, QStringLiteral("kitChangeLine")))
        summary << line->property("text").toString();
    QCOMPARE(summary, (QStringList{QStringLiteral("- 8    image: docker/sandbox-templates:shell-docker"),
                                   QStringLiteral("+ 8    image: docker/sandbox-templates:claude-code-docker"),
                                   QStringLiteral("+ 16        - github.com")}));
    click(item(QStringLiteral("kitConfirmSave")));
    QTRY_COMPARE(editor()->property("modified").toBool(), false);

    QByteArray expected = kUserKit;
    expected.replace("image: docker/sandbox-templates:shell-docker",
                     "image: docker/sandbox-templates:claude-code-docker");
    expected.replace("      - registry.npmjs.org\n", "      - registry.npmjs.org\n      - github.com\n");
    QCOMPARE(readAll(m_userKit + QStringLiteral("/spec.yaml")), expected);
    QVERIFY(kit::KitLoader::loadDirectory(m_userKit).ok());
    QVERIFY(labelText(QStringLiteral("kitEditorMessage")).startsWith(QStringLiteral("Saved ")));
}

void TestGuiKitsPage::yamlTextFollowsForm()
{
    openKit(QStringLiteral("course-agent"));
    QQuickItem *yaml = item(QStringLiteral("kitYamlText"));
    QVERIFY(yaml);
    QCOMPARE(yaml->property("text").toByteArray(), kUserKit);
    typeInto(item(QStringLiteral("field_description")), QStringLiteral("Pi, for week 2"));
    QTRY_VERIFY(yaml->property("text").toString().contains(
        QStringLiteral("description: Pi, for week 2   # shown to students")));

    // Typing in the text moves the form.
    QString text = yaml->property("text").toString();
    text.replace(QStringLiteral("displayName: Course agent"), QStringLiteral("displayName: Course agent v2"));
    yaml->forceActiveFocus();
    yaml->setProperty("text", text);
    item(QStringLiteral("field_version"))->forceActiveFocus();
    QTRY_COMPARE(item(QStringLiteral("field_displayName"))->property("text").toString(),
                 QStringLiteral("Course agent v2"));
    QCOMPARE(labelText(QStringLiteral("kitEditorTitle")), QStringLiteral("Course agent v2"));
}

void TestGuiKitsPage::sampleOpensReadOnlyAndCopies()
{
    openKit(QStringLiteral("pi"));
    QVERIFY(editor()->property("readOnly").toBool());
    QVERIFY(item(QStringLiteral("kitYamlText"))->property("readOnly").toBool());
    QVERIFY(item(QStringLiteral("field_sandbox.image"))->property("readOnly").toBool());
    QVERIFY(!item(QStringLiteral("kitSaveButton"))->isVisible());
    // The model refuses edits too, whatever asks.
    bool ok = true;
    QMetaObject::invokeMethod(editor(), "setValue", Q_RETURN_ARG(bool, ok), Q_ARG(QString, QStringLiteral("name")),
                              Q_ARG(QString, QStringLiteral("x")), Q_ARG(bool, false));
    QVERIFY(!ok);
    QVERIFY(!editor()->property("modified").toBool());

    // Copy to… a folder of mine: the copy opens, editable, and is in the list.
    QQuickItem *copyButton = nullptr;
    for (QQuickItem *button : findItems(m_window, QStringLiteral("kitCopyButton"))) {
        if (isShown(button))
            copyButton = button;
    }
    click(copyButton);
    QTRY_VERIFY(popup(QStringLiteral("kitFolderDialog"))->property("opened").toBool());
    const QString target = m_dir.filePath(QStringLiteral("kits/my-pi"));
    typeInto(item(QStringLiteral("kitFolderField")), target);
    click(item(QStringLiteral("kitFolderAccept")));
    QTRY_VERIFY(!popup(QStringLiteral("kitFolderDialog"))->property("visible").toBool());
    QCOMPARE(editor()->property("directory").toString(), target);
    QVERIFY(!editor()->property("readOnly").toBool());
    QCOMPARE(readAll(target + QStringLiteral("/spec.yaml")),
             readAll(m_dir.filePath(QStringLiteral("samples/pi/spec.yaml"))));
    QCOMPARE(kitList()->property("count").toInt(), 3);
}

void TestGuiKitsPage::newKitFromTemplateValidates()
{
    click(item(QStringLiteral("kitNewButton")));
    QTRY_VERIFY(popup(QStringLiteral("kitFolderDialog"))->property("opened").toBool());
    const QString target = m_dir.filePath(QStringLiteral("kits/week-3"));
    typeInto(item(QStringLiteral("kitFolderField")), target);
    click(item(QStringLiteral("kitFolderAccept")));
    QTRY_VERIFY(!popup(QStringLiteral("kitFolderDialog"))->property("visible").toBool());
    QCOMPARE(editor()->property("directory").toString(), target);
    QCOMPARE(labelText(QStringLiteral("kitEditorStatus")), QStringLiteral("Valid"));
    QCOMPARE(item(QStringLiteral("field_name"))->property("text").toString(), QStringLiteral("week-3"));
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(target);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.kit->name, QStringLiteral("week-3"));
    QCOMPARE(kitList()->property("count").toInt(), 3);

    // A second kit in the same folder is refused, in the dialog.
    click(item(QStringLiteral("kitEditorBack")));
    click(item(QStringLiteral("kitNewButton")));
    QTRY_VERIFY(popup(QStringLiteral("kitFolderDialog"))->property("opened").toBool());
    typeInto(item(QStringLiteral("kitFolderField")), target);
    click(item(QStringLiteral("kitFolderAccept")));
    QTRY_VERIFY(labelText(QStringLiteral("kitFolderError")).contains(QStringLiteral("already holds a spec.yaml")));
    QVERIFY(popup(QStringLiteral("kitFolderDialog"))->property("visible").toBool());
}

void TestGuiKitsPage::addAndForgetFolder()
{
    const QString other = m_dir.filePath(QStringLiteral("kits/aider"));
    QDir().mkpath(other);
    QVERIFY(QFile::copy(QStringLiteral(PADDOCK_FIXTURES "/kits/published/aider/spec.yaml"),
                        other + QStringLiteral("/spec.yaml")));
    click(item(QStringLiteral("kitAddButton")));
    QTRY_VERIFY(popup(QStringLiteral("kitFolderDialog"))->property("opened").toBool());
    typeInto(item(QStringLiteral("kitFolderField")), other);
    click(item(QStringLiteral("kitFolderAccept")));
    QTRY_VERIFY(!popup(QStringLiteral("kitFolderDialog"))->property("visible").toBool());
    QCOMPARE(kitList()->property("count").toInt(), 3);
    QTRY_VERIFY(row(QStringLiteral("aider")));
    QVERIFY(kit::KitLibrary().addedDirectories().contains(QFileInfo(other).canonicalFilePath()));

    click(inRow(QStringLiteral("aider"), QStringLiteral("kitForgetButton")));
    QTRY_COMPARE(kitList()->property("count").toInt(), 2);
    QVERIFY(!kit::KitLibrary().addedDirectories().contains(QFileInfo(other).canonicalFilePath()));
    QVERIFY(QFileInfo::exists(other + QStringLiteral("/spec.yaml")));
}

void TestGuiKitsPage::leavingWithChangesAsksFirst()
{
    openKit(QStringLiteral("course-agent"));
    typeInto(item(QStringLiteral("field_version")), QStringLiteral("2.0"));
    QTRY_VERIFY(editor()->property("modified").toBool());
    click(item(QStringLiteral("kitEditorBack")));
    QTRY_VERIFY(popup(QStringLiteral("kitDiscardDialog"))->property("opened").toBool());
    QVERIFY(editor()->property("loaded").toBool());
    click(item(QStringLiteral("kitDiscardConfirm")));
    QTRY_VERIFY(!editor()->property("loaded").toBool());
    QTRY_VERIFY(isShown(row(QStringLiteral("course-agent"))));
    QCOMPARE(readAll(m_userKit + QStringLiteral("/spec.yaml")), kUserKit);
}

void TestGuiKitsPage::editorControlsHaveNames()
{
    openKit(QStringLiteral("course-agent"));
    int checked = 0;
    for (QObject *object : allObjects(m_window)) {
        auto *control = qobject_cast<QQuickItem *>(object);
        if (!control || !isShown(control) || !control->activeFocusOnTab() || !control->isEnabled())
            continue;
        ++checked;
        QVERIFY2(!accessibleName(control).trimmed().isEmpty(),
                 qPrintable(QStringLiteral("%1 (%2) has no accessible name")
                                .arg(control->objectName(), QString::fromLatin1(control->metaObject()->className()))));
    }
    // The form's fields, the list editors, the text view and the buttons.
    QVERIFY2(checked > 40, qPrintable(QString::number(checked)));
}

void TestGuiKitsPage::editorScreenshot()
{
    m_window->resize(1100, 720);
    openKit(QStringLiteral("course-agent"));
    const QImage image = m_window->grabWindow();
    QVERIFY(!image.isNull());
    const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(image.save(dir + QStringLiteral("/kit-editor.png")));
}

QTEST_MAIN(TestGuiKitsPage)
#include "tst_gui_kitspage.moc"
