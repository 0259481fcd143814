// SPDX-License-Identifier: GPL-3.0-or-later
// The Classroom page as a student uses it: a bundle chosen, its preview read, the import
// pressed and the kit found on disk; a hostile bundle refused with the entry named; the
// checklist saying why it cannot run when no daemon can be reached.
#include "GuiTestSupport.h"
#include "PageDriving.h"

#include "bundle/Bundle.h"

#include <QtTest>

Q_IMPORT_QML_PLUGIN(PaddockPlugin)

using namespace paddock;
using namespace paddock::guitest;

class TestClassroomPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void previewThenImport();
    void bundleEngineIsNamedAndOffered();
    void hostileBundleIsRefused();
    void checklistWithoutDaemonSaysWhy();

private:
    QQuickItem *item(const QString &name)
    {
        return findItem(findItem(m_window, QStringLiteral("page_classroom")), name);
    }
    QObject *model();
    void click(QQuickItem *button);
    QString writeBundle(const QByteArray &bytes, const QString &name);

    QString m_home;
    QQmlApplicationEngine *m_engine = nullptr;
    QQuickWindow *m_window = nullptr;
};

void TestClassroomPage::initTestCase()
{
    m_home = isolateEnvironment();
    m_window = showMainWindow(this, &m_engine);
    QVERIFY(m_window);
    QTest::keyClick(m_window, Qt::Key_5, Qt::ControlModifier);
    QTRY_VERIFY(isShown(item(QStringLiteral("chooseBundleButton"))));
    QVERIFY(!item(QStringLiteral("importBundleButton"))->isEnabled());
}

QObject *TestClassroomPage::model()
{
    for (QObject *object : allObjects(m_window)) {
        if (object->objectName() == QLatin1String("classroomModel"))
            return object;
    }
    return nullptr;
}

void TestClassroomPage::click(QQuickItem *button)
{
    QVERIFY(button);
    QVERIFY(isShown(button) && button->isEnabled());
    QMetaObject::invokeMethod(button, "clicked");
}

QString TestClassroomPage::writeBundle(const QByteArray &bytes, const QString &name)
{
    const QString path = m_home + QLatin1Char('/') + name;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return path;
}

void TestClassroomPage::previewThenImport()
{
    bundle::ExportRequest request;
    request.kitDir = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/pi");
    request.notes = QStringLiteral("Bring your ILaaS key to class.");
    const bundle::ExportResult exported = bundle::exportBundle(request);
    QVERIFY2(exported.ok(), qPrintable(exported.error));
    const QString file = writeBundle(exported.archive, QStringLiteral("course.paddock"));
    QVERIFY(!file.isEmpty());

    // What the file dialog does once a file is chosen.
    QVERIFY(QMetaObject::invokeMethod(model(), "openBundle", Q_ARG(QUrl, QUrl::fromLocalFile(file))));
    QQuickItem *preview = item(QStringLiteral("bundlePreview"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(preview) && !preview->property("text").toString().isEmpty(), 20000);
    const QString text = preview->property("text").toString();
    const QString destination = m_home + QStringLiteral("/XDG_DATA_HOME/paddock/kits/pi");
    QVERIFY2(text.contains(QLatin1String("Kit pi 0.1.0")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("Bring your ILaaS key to class.")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("write the kit folder ") + destination), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("ilaas: ILaaS API key")), qPrintable(text));
    // Nothing is written before Import.
    QVERIFY(!QFileInfo::exists(destination));

    click(item(QStringLiteral("importBundleButton")));
    QQuickItem *result = item(QStringLiteral("importResult"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(result), 20000);
    QVERIFY2(result->property("text").toString().contains(QLatin1String("Kit pi imported")),
             qPrintable(result->property("text").toString()));
    QVERIFY(QFileInfo::exists(destination + QStringLiteral("/spec.yaml")));
    QVERIFY(QFileInfo::exists(destination + QStringLiteral("/files/home/.pi/agent/models.json")));
    QVERIFY(!item(QStringLiteral("importBundleButton"))->isEnabled());
}

void TestClassroomPage::bundleEngineIsNamedAndOffered()
{
    bundle::ExportRequest request;
    request.kitDir = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/pi");
    request.engine = QStringLiteral("lab");
    const bundle::ExportResult exported = bundle::exportBundle(request);
    QVERIFY2(exported.ok(), qPrintable(exported.error));
    const QString file = writeBundle(exported.archive, QStringLiteral("lab-course.paddock"));
    QVERIFY(QMetaObject::invokeMethod(model(), "openBundle", Q_ARG(QUrl, QUrl::fromLocalFile(file))));
    QQuickItem *preview = item(QStringLiteral("bundlePreview"));
    QTRY_VERIFY2_WITH_TIMEOUT(preview->property("text").toString().contains(QLatin1String("container engine lab")),
                              qPrintable(preview->property("text").toString() + model()->property("error").toString()),
                              20000);
    // The kit imported before is replaced, as the preview says.
    QVERIFY2(preview->property("text").toString().contains(QLatin1String("replace the kit folder")),
             qPrintable(preview->property("text").toString()));
    click(item(QStringLiteral("importBundleButton")));
    QTRY_COMPARE_WITH_TIMEOUT(model()->property("engine").toString(), QStringLiteral("lab"), 20000);

    // Creating the student's sandbox names the class's engine; this computer has none of that name.
    QObject *dialog = nullptr;
    for (QObject *object : allObjects(m_window)) {
        if (object->objectName() == QLatin1String("classroomSandboxDialog"))
            dialog = object;
    }
    QVERIFY(dialog);
    QVERIFY(QMetaObject::invokeMethod(dialog, "begin", Q_ARG(QVariant, model()->property("kitDirectory")),
                                      Q_ARG(QVariant, model()->property("kit")),
                                      Q_ARG(QVariant, model()->property("engine"))));
    QTRY_VERIFY(dialog->property("opened").toBool());
    QQuickItem *note = findInPopup(dialog, QStringLiteral("classroomEngineNote"));
    QVERIFY(note && isShown(note));
    QVERIFY2(note->property("text").toString().contains(
                 QLatin1String("container engine lab, which this computer does not have yet")),
             qPrintable(note->property("text").toString()));
    QVERIFY(QMetaObject::invokeMethod(dialog, "close"));
}

void TestClassroomPage::hostileBundleIsRefused()
{
    // A tar member that is a symbolic link: written by hand, as no honest export makes one.
    QByteArray header(512, '\0');
    const QByteArray name = "manifest.json";
    std::memcpy(header.data(), name.constData(), size_t(name.size()));
    std::memcpy(header.data() + 100, "0000777", 7);
    std::memcpy(header.data() + 124, "00000000000", 11);
    header[156] = '2';
    std::memcpy(header.data() + 157, "/etc/passwd", 11);
    std::memcpy(header.data() + 257,
                "ustar\0"
                "00",
                8);
    std::memset(header.data() + 148, ' ', 8);
    int sum = 0;
    for (const char c : std::as_const(header))
        sum += static_cast<unsigned char>(c);
    std::memcpy(header.data() + 148, QByteArray::number(sum, 8).rightJustified(6, '0').constData(), 6);
    const QString file = writeBundle(header + QByteArray(1024, '\0'), QStringLiteral("hostile.paddock"));

    QVERIFY(QMetaObject::invokeMethod(model(), "openBundle", Q_ARG(QUrl, QUrl::fromLocalFile(file))));
    QQuickItem *error = item(QStringLiteral("classroomError"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(error), 20000);
    QVERIFY2(error->property("text").toString().contains(QLatin1String("entry 'manifest.json' is a symbolic link")),
             qPrintable(error->property("text").toString()));
    QVERIFY(!isShown(item(QStringLiteral("bundlePreview"))));
    QVERIFY(!item(QStringLiteral("importBundleButton"))->isEnabled());
}

void TestClassroomPage::checklistWithoutDaemonSaysWhy()
{
    // No daemon: no running sandbox to choose, and the checks, which run in the daemon, cannot start.
    QQuickItem *choice = item(QStringLiteral("checkSandboxChoice"));
    QVERIFY(choice);
    QVERIFY(!choice->isEnabled());
    QVERIFY2(choice->property("displayText").toString().contains(QLatin1String("is running")),
             qPrintable(choice->property("displayText").toString()));
    QVERIFY(!item(QStringLiteral("runChecksButton"))->isEnabled());
    QVERIFY(model()->setProperty("sandbox", QStringLiteral("pi-neon")));
    QVERIFY(QMetaObject::invokeMethod(model(), "runChecks"));
    QQuickItem *error = item(QStringLiteral("classroomError"));
    QTRY_VERIFY_WITH_TIMEOUT(isShown(error) && error->property("text").toString().contains(QLatin1String("daemon")),
                             10000);
    QVERIFY(!isShown(item(QStringLiteral("checklistVerdict"))));
}

QTEST_MAIN(TestClassroomPage)
#include "tst_classroom_page.moc"
