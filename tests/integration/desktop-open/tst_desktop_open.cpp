// SPDX-License-Identifier: GPL-3.0-or-later
// What happens when a student double-clicks the course.paddock a teacher mailed: the desktop
// knows the file as a Paddock bundle (by its name, and by its content when the name lost its
// suffix), Paddock's entry is the application that opens it, and opening it runs
// `paddock open FILE`. The MIME type and the entry are installed as a user would, in a private
// XDG_DATA_HOME, and the freedesktop tools' own caches are built there.
#include "Needs.h"
#include "ProcessRun.h"

#include "bundle/Bundle.h"

#include <QtTest>

using namespace paddock;

namespace {
const QString kType = QStringLiteral("application/x-paddock-bundle");
const QString kSource = QStringLiteral(PADDOCK_SOURCE_DIR);
} // namespace

class TestDesktopOpen : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void desktopEntryIsValidAndOpensBundles();
    void bundleIsKnownByNameAndContent();
    void paddockIsTheDefaultApplication();
    void openingTheFileRunsPaddockOpen();

private:
    test::Finished run(const QString &program, const QStringList &arguments);
    QString writeFile(const QString &name, const QByteArray &bytes);

    QTemporaryDir m_dir;
    QString m_data;
    test::ProcessOptions m_options;
    QString m_bundle;
};

void TestDesktopOpen::initTestCase()
{
    for (const char *tool :
         {"update-mime-database", "update-desktop-database", "xdg-mime", "gio", "desktop-file-validate"}) {
        PADDOCK_NEED(!QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty(),
                     QStringLiteral("%1 (installer/setup-debian.sh)").arg(QLatin1String(tool)));
    }
    QVERIFY(m_dir.isValid());
    m_data = m_dir.filePath(QStringLiteral("data"));
    QVERIFY(QDir().mkpath(m_data + QStringLiteral("/mime/packages")));
    QVERIFY(QDir().mkpath(m_data + QStringLiteral("/applications")));
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("config"))));
    QVERIFY(QFile::copy(kSource + QStringLiteral("/resources/mime/paddock.xml"),
                        m_data + QStringLiteral("/mime/packages/paddock.xml")));

    // The entry as installed, but its Exec runs a stand-in that records its arguments.
    QFile entry(kSource + QStringLiteral("/resources/desktop/paddock.desktop"));
    QVERIFY(entry.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(entry.readAll());
    const QString standIn = m_dir.filePath(QStringLiteral("stand-in-paddock"));
    QVERIFY(writeFile(QStringLiteral("stand-in-paddock"),
                      QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1.tmp' && mv '%1.tmp' '%1'\n")
                          .arg(m_dir.filePath(QStringLiteral("opened.txt")))
                          .toUtf8()) == standIn);
    QVERIFY(QFile::setPermissions(standIn, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    static const QRegularExpression execLine(QStringLiteral("^Exec=paddock "), QRegularExpression::MultilineOption);
    QVERIFY2(text.contains(execLine), qPrintable(text));
    text.replace(execLine, QStringLiteral("Exec=") + standIn + QLatin1Char(' '));
    QVERIFY(!writeFile(QStringLiteral("data/applications/paddock.desktop"), text.toUtf8()).isEmpty());

    // GNOME's way of asking (gio, which reads shared-mime-info): xdg-mime's generic one asks
    // file(1), which knows no type a package adds.
    m_options.environment.insert(QStringLiteral("XDG_DATA_HOME"), m_data);
    m_options.environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
    m_options.environment.insert(QStringLiteral("XDG_DATA_DIRS"), QStringLiteral("/usr/share"));
    m_options.environment.insert(QStringLiteral("XDG_CURRENT_DESKTOP"), QStringLiteral("GNOME"));
    m_options.workingDirectory = m_dir.path();

    const test::Finished mime = run(QStringLiteral("update-mime-database"), {m_data + QStringLiteral("/mime")});
    QVERIFY2(mime.exitCode == 0 && mime.err.isEmpty(), qPrintable(mime.err));
    const test::Finished desktop =
        run(QStringLiteral("update-desktop-database"), {m_data + QStringLiteral("/applications")});
    QVERIFY2(desktop.exitCode == 0, qPrintable(desktop.err));

    bundle::ExportRequest request;
    request.kitDir = kSource + QStringLiteral("/resources/kits/shell");
    const bundle::ExportResult exported = bundle::exportBundle(request);
    QVERIFY2(exported.ok(), qPrintable(exported.error));
    m_bundle = writeFile(QStringLiteral("course.paddock"), exported.archive);
    QVERIFY(!m_bundle.isEmpty());
    // The same bundle saved by a mail client under a name without the suffix.
    QVERIFY(!writeFile(QStringLiteral("course-attachment"), exported.archive).isEmpty());
    QVERIFY(!writeFile(QStringLiteral("notes.txt"), "Bring a laptop.\n").isEmpty());
}

test::Finished TestDesktopOpen::run(const QString &program, const QStringList &arguments)
{
    return test::runText(program, arguments, m_options);
}

QString TestDesktopOpen::writeFile(const QString &name, const QByteArray &bytes)
{
    QFile file(m_dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return {};
    return file.fileName();
}

void TestDesktopOpen::desktopEntryIsValidAndOpensBundles()
{
    const QString entry = kSource + QStringLiteral("/resources/desktop/paddock.desktop");
    const test::Finished validate = run(QStringLiteral("desktop-file-validate"), {entry});
    QVERIFY2(validate.exitCode == 0 && validate.out.isEmpty(), qPrintable(validate.out + validate.err));
    QSettings settings(entry, QSettings::IniFormat);
    settings.beginGroup(QStringLiteral("Desktop Entry"));
    QCOMPARE(settings.value(QStringLiteral("Exec")).toString(), QStringLiteral("paddock open %f"));
    QVERIFY2(settings.value(QStringLiteral("MimeType")).toString().contains(kType),
             qPrintable(settings.value(QStringLiteral("MimeType")).toString()));
}

void TestDesktopOpen::bundleIsKnownByNameAndContent()
{
    for (const QString &name : {QStringLiteral("course.paddock"), QStringLiteral("course-attachment")}) {
        const test::Finished query =
            run(QStringLiteral("xdg-mime"), {QStringLiteral("query"), QStringLiteral("filetype"), name});
        QVERIFY2(query.exitCode == 0, qPrintable(query.err));
        QVERIFY2(query.out.trimmed() == kType, qPrintable(name + QStringLiteral(": ") + query.out + query.err));
    }
    const test::Finished notes = run(
        QStringLiteral("xdg-mime"), {QStringLiteral("query"), QStringLiteral("filetype"), QStringLiteral("notes.txt")});
    QVERIFY2(notes.out.trimmed() == QLatin1String("text/plain"), qPrintable(notes.out + notes.err));
}

void TestDesktopOpen::paddockIsTheDefaultApplication()
{
    const test::Finished query =
        run(QStringLiteral("xdg-mime"), {QStringLiteral("query"), QStringLiteral("default"), kType});
    QVERIFY2(query.exitCode == 0, qPrintable(query.err));
    QCOMPARE(query.out.trimmed(), QStringLiteral("paddock.desktop"));
}

void TestDesktopOpen::openingTheFileRunsPaddockOpen()
{
    // What a file manager does on a double-click: the type's default application, launched.
    const test::Finished open = run(QStringLiteral("gio"), {QStringLiteral("open"), m_bundle});
    QVERIFY2(open.exitCode == 0, qPrintable(open.err));
    QFile opened(m_dir.filePath(QStringLiteral("opened.txt")));
    QTRY_VERIFY_WITH_TIMEOUT(opened.exists(), 20000);
    QVERIFY(opened.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(opened.readAll()), QStringLiteral("open\n") + m_bundle + QLatin1Char('\n'));
}

QTEST_GUILESS_MAIN(TestDesktopOpen)
#include "tst_desktop_open.moc"
