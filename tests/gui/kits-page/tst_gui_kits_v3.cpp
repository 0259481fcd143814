// SPDX-License-Identifier: GPL-3.0-or-later
// Kit images (schemaVersion 3) on the Kits page, as a user meets them: "Import kit image…" reads
// an OCI archive, and the kit's row says where it came from and what each capability became.
#include "../../unit/kit-v3/OciKitArchive.h"
#include "GuiTestSupport.h"

#include "api/DaemonConnection.h"
#include "common/Paths.h"
#include "kit/KitLibrary.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;
using namespace paddock::test;

namespace {

const QByteArray kDescriptor = R"({"schemaVersion":"3","kind":"workload","displayName":"Course shell",)"
                               R"("provides":["course-shell@2.1.0"],)"
                               R"("capabilities":[{"type":"com.docker.sandbox/network-policy@1",)"
                               R"("config":{"runtime":{"allow":["api.course.test"]}}},)"
                               R"({"type":"com.docker.sandbox/port@1","config":{"container":8080}},)"
                               R"({"type":"com.docker.sandbox/agent-skills@1","optional":true,)"
                               R"("config":{"path":"/home/agent/.skills"}}]})";

} // namespace

class TestGuiKitsV3 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();
    void importedKitImageListsItsCapabilities();
    void climbingArchiveIsRefusedAndListsNothing();
    void widerUpdateWaitsForApproval();

private:
    QQuickItem *item(const QString &name) { return findItem(m_window, name); }
    QObject *popup(const QString &name) { return findObject(m_window, name); }
    QQuickItem *row(const QString &kitName) { return item(QStringLiteral("kitRow_") + kitName); }
    void click(QQuickItem *target);
    void typeInto(QQuickItem *field, const QString &text);
    QString writeArchive(const QString &name, const OciKit &kit, QString *digest = nullptr);
    void importThroughDialog(const QString &archive);

    QTemporaryDir m_dir;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestGuiKitsV3::initTestCase()
{
    QCOMPARE(qgetenv("QT_QPA_PLATFORM"), QByteArray("offscreen"));
    isolateEnvironment();
    WarningRecorder::install();
    gui::setUpApplication(*qGuiApp);
    gui::installTranslations(*qApp, QLocale(QLocale::English, QLocale::UnitedStates));
    qputenv("PADDOCK_SAMPLE_KITS", m_dir.filePath(QStringLiteral("no-samples")).toUtf8());
    // The import is the daemon's (kit.load), started on demand as the window starts it.
    qputenv("PADDOCKD", PADDOCKD_BIN);
}

void TestGuiKitsV3::cleanupTestCase()
{
    api::DaemonConnection connection;
    QString error;
    if (connection.open(paths::daemonSocket(), 5000, &error))
        connection.call(QStringLiteral("shutdown"));
}

void TestGuiKitsV3::init()
{
    QDir(kit::KitLibrary::defaultImportedRoot()).removeRecursively();
    m_engine = new QQmlApplicationEngine(this);
    m_window = showPageWindow(*m_engine, "KitsPage", 1100, 900);
    QVERIFY(m_window);
}

void TestGuiKitsV3::cleanup()
{
    delete m_engine;
    m_engine = nullptr;
    m_window = nullptr;
    const QByteArray warnings = takeWarnings();
    QVERIFY2(warnings.isEmpty(), warnings.constData());
}

void TestGuiKitsV3::click(QQuickItem *target)
{
    QVERIFY(target);
    QVERIFY2(isShown(target), qPrintable(target->objectName()));
    QVERIFY(target->isEnabled());
    QTest::mouseClick(m_window, Qt::LeftButton, Qt::NoModifier, centreOf(target));
}

void TestGuiKitsV3::typeInto(QQuickItem *field, const QString &text)
{
    QVERIFY(field);
    field->forceActiveFocus();
    QVERIFY(field->hasActiveFocus());
    for (const QChar c : text)
        QTest::keyClick(m_window, c.toLatin1());
}

QString TestGuiKitsV3::writeArchive(const QString &name, const OciKit &kit, QString *digest)
{
    const QString archive = m_dir.filePath(name);
    QFile out(archive);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    out.write(ociKitArchive(kit, digest));
    return archive;
}

void TestGuiKitsV3::importThroughDialog(const QString &archive)
{
    click(item(QStringLiteral("kitImportButton")));
    QTRY_VERIFY(popup(QStringLiteral("kitImportDialog"))->property("opened").toBool());
    // The form sits inside the dialog's frame (a Loader beside it once let it spill out).
    QObject *dialog = popup(QStringLiteral("kitImportDialog"));
    const QRectF frame(dialog->property("x").toReal(), dialog->property("y").toReal(),
                       dialog->property("width").toReal(), dialog->property("height").toReal());
    for (const char *name : {"kitImportFileField", "kitImportNameField", "kitImportAccept"}) {
        QQuickItem *part = item(QLatin1String(name));
        QVERIFY(part);
        const QRectF at = part->mapRectToScene(QRectF(0, 0, part->width(), part->height()));
        QVERIFY2(frame.contains(at), qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 is outside the dialog")
                                                    .arg(QLatin1String(name))
                                                    .arg(at.x())
                                                    .arg(at.y())
                                                    .arg(at.width())
                                                    .arg(at.height())));
    }
    typeInto(item(QStringLiteral("kitImportFileField")), archive);
    QObject *importer = popup(QStringLiteral("kitImporter"));
    QVERIFY(importer);
    // The window starts paddockd on demand, as it does on a desktop; the import waits for it.
    QTRY_VERIFY_WITH_TIMEOUT(importer->property("connected").toBool(), 30000);
    click(item(QStringLiteral("kitImportAccept")));
    QTRY_VERIFY_WITH_TIMEOUT(!importer->property("busy").toBool(), 30000);
}

void TestGuiKitsV3::importedKitImageListsItsCapabilities()
{
    OciKit kit;
    kit.refName = QStringLiteral("registry.example/course/shell:2.1");
    kit.layers = {tarOf({folder("etc"), file("etc/os-release", "ID=course-v3\n")})};
    kit.manifestAnnotations = kitAnnotations(kDescriptor);
    QString digest;
    const QString archive = writeArchive(QStringLiteral("course.tar"), kit, &digest);
    QVERIFY(!archive.isEmpty());

    importThroughDialog(archive);
    QCOMPARE(popup(QStringLiteral("kitImporter"))->property("error").toString(), QString());
    QTRY_VERIFY(!popup(QStringLiteral("kitImportDialog"))->property("visible").toBool());
    QTRY_VERIFY(row(QStringLiteral("shell")));

    QQuickItem *origin = findItem(row(QStringLiteral("shell")), QStringLiteral("kitOrigin"));
    QVERIFY(origin && isShown(origin));
    const QString originText = origin->property("text").toString();
    QVERIFY2(originText.contains(QLatin1String("from registry.example/course/shell:2.1")), qPrintable(originText));
    QVERIFY2(originText.contains(digest.left(19)), qPrintable(originText));
    QVERIFY2(originText.contains(QLatin1String("Provides course-shell@2.1.0")), qPrintable(originText));

    // In the descriptor's order, top to bottom.
    QList<QQuickItem *> labels = findItems(row(QStringLiteral("shell")), QStringLiteral("kitCapability"));
    std::sort(labels.begin(), labels.end(), [](QQuickItem *a, QQuickItem *b) { return a->y() < b->y(); });
    QStringList capabilities;
    for (QQuickItem *label : labels)
        capabilities << label->property("text").toString();
    QCOMPARE(capabilities.size(), 3);
    QVERIFY2(capabilities.at(0).contains(QLatin1String("allow api.course.test")), qPrintable(capabilities.join('|')));
    QVERIFY2(capabilities.at(1).contains(QLatin1String("port 8080/tcp published")), qPrintable(capabilities.at(1)));
    QVERIFY2(capabilities.at(2).startsWith(QStringLiteral("• Not here: optional")), qPrintable(capabilities.at(2)));
    QVERIFY2(capabilities.at(2).contains(QLatin1String("agent-skills@1")), qPrintable(capabilities.at(2)));

    // A kit image is read as published: no editor, no bundle export of a spec.yaml it lacks.
    QVERIFY(!findItem(row(QStringLiteral("shell")), QStringLiteral("kitOpenButton"))->isVisible());
    QVERIFY(!findItem(row(QStringLiteral("shell")), QStringLiteral("kitExportButton"))->isVisible());
    // The library holds it where `paddock kit ls` finds it.
    const std::optional<kit::KitEntry> entry = kit::KitLibrary().find(QStringLiteral("shell"));
    QVERIFY(entry);
    QCOMPARE(entry->digest, digest);
    // paddockd wrote it, the one writer of the library, not the window's process.
    QFile log(paths::stateDir() + QStringLiteral("/paddockd.log"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray logText = log.readAll();
    QVERIFY2(logText.contains("loaded kit shell from " + archive.toUtf8()), logText.right(2000).constData());

    const QImage image = m_window->grabWindow();
    const QString dir = QStringLiteral(PADDOCK_SCREENSHOT_DIR "/en");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(image.save(dir + QStringLiteral("/kits-v3.png")));
}

void TestGuiKitsV3::climbingArchiveIsRefusedAndListsNothing()
{
    OciKit kit;
    kit.refName = QStringLiteral("registry.example/kits/climber:1");
    kit.layers = {tarOf({file("../../escaped", "x")})};
    kit.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"workload"})");
    const QString archive = writeArchive(QStringLiteral("climber.tar"), kit);

    importThroughDialog(archive);
    // The dialog stays open with the reason; nothing is listed or written outside.
    QVERIFY(popup(QStringLiteral("kitImportDialog"))->property("visible").toBool());
    QQuickItem *error = item(QStringLiteral("kitImportError"));
    QTRY_VERIFY(error && isShown(error));
    QVERIFY2(error->property("text").toString().contains(QLatin1String("'../../escaped' leads outside the layer")),
             qPrintable(error->property("text").toString()));
    QVERIFY(!row(QStringLiteral("climber")));
    QVERIFY(!kit::KitLibrary().find(QStringLiteral("climber")));
}

void TestGuiKitsV3::widerUpdateWaitsForApproval()
{
    OciKit kit;
    kit.refName = QStringLiteral("registry.example/course/shell:2.1");
    kit.layers = {tarOf({folder("etc"), file("etc/os-release", "ID=course-v3\n")})};
    kit.manifestAnnotations = kitAnnotations(kDescriptor);
    importThroughDialog(writeArchive(QStringLiteral("v1.tar"), kit));
    QTRY_VERIFY(row(QStringLiteral("shell")));

    kit.refName = QStringLiteral("registry.example/course/shell:2.2");
    kit.manifestAnnotations = kitAnnotations(
        QByteArray(kDescriptor)
            .replace(R"("allow":["api.course.test"])", R"("allow":["api.course.test","uploads.course.test"])"));
    importThroughDialog(writeArchive(QStringLiteral("v2.tar"), kit));
    // The dialog stays open with what the update adds; nothing changed yet.
    QVERIFY(popup(QStringLiteral("kitImportDialog"))->property("visible").toBool());
    QList<QQuickItem *> added = findItems(m_window, QStringLiteral("kitImportWidening"));
    QCOMPARE(added.size(), 1);
    QCOMPARE(added.at(0)->property("text").toString(), QStringLiteral("+ may reach uploads.course.test on any port"));
    QVERIFY(kit::KitLibrary().find(QStringLiteral("shell"))->reference.endsWith(QLatin1String(":2.1")));

    click(item(QStringLiteral("kitImportApprove")));
    click(item(QStringLiteral("kitImportAccept")));
    QTRY_VERIFY(!popup(QStringLiteral("kitImportDialog"))->property("visible").toBool());
    QVERIFY(kit::KitLibrary().find(QStringLiteral("shell"))->reference.endsWith(QLatin1String(":2.2")));
    QTRY_VERIFY(findItem(row(QStringLiteral("shell")), QStringLiteral("kitOrigin"))
                    ->property("text")
                    .toString()
                    .contains(QLatin1String("shell:2.2")));
}

QTEST_MAIN(TestGuiKitsV3)
#include "tst_gui_kits_v3.moc"
