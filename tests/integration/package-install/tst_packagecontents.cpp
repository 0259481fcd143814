// SPDX-License-Identifier: GPL-3.0-or-later
// The Debian package as a packager inspects it before publishing: its control fields, the
// files it installs and where, and the desktop metadata validated by the freedesktop tools.
#include "PackageTestSupport.h"

#include <QDirIterator>
#include <QFile>
#include <QSettings>
#include <QTest>
#include <QXmlStreamReader>

using paddock::testing::BuiltPackage;
using paddock::testing::PackageEntry;
using paddock::testing::runTool;
using paddock::testing::ToolRun;

namespace {

// The hicolor sizes desktops look up; each is rendered from the SVG.
const QList<int> kIconSizes{16, 22, 24, 32, 48, 64, 128, 256, 512};

/** Width and height from a PNG's IHDR chunk, or (0, 0) when the file is not a PNG. */
QSize pngSize(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = file.read(24);
    if (head.size() < 24 || !head.startsWith("\x89PNG\r\n\x1a\n") || head.mid(12, 4) != "IHDR")
        return {};
    auto bigEndian = [&head](int at) {
        return int((uchar(head[at]) << 24) | (uchar(head[at + 1]) << 16) | (uchar(head[at + 2]) << 8) |
                   uchar(head[at + 3]));
    };
    return {bigEndian(16), bigEndian(20)};
}

} // namespace

class TestPackageContents : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fieldsDescribeThePackage();
    void dependsComeFromTheBinariesAndTheRuntime();
    void executablesInstallWhereTheyFindEachOther();
    void everythingIsUnderUsrAndOwnedByRoot();
    void sampleKitsAreInstalled();
    void iconIsInstalledInEverySize();
    void desktopEntryIsValid();
    void bundlesHaveTheirTypeAndIcon();
    void appArmorProfileAndItsScripts();
    void metainfoIsValid();
    void systemdUnitStartsTheInstalledDaemon();

private:
    static ToolRun readelf(QStringList arguments, const QString &file)
    {
        arguments << QStringLiteral("--wide") << file;
        return runTool(QStringLiteral("readelf"), arguments);
    }
    /** Fails with the tool's output, or says which package provides a missing tool. */
    static QByteArray toolFailed(const ToolRun &run, const QString &tool, const QString &package)
    {
        if (run.exitCode == -1 && run.err.startsWith(QStringLiteral("cannot start")))
            return QStringLiteral("%1 is missing: install %2 (installer/setup-debian.sh does)")
                .arg(tool, package)
                .toUtf8();
        return run.describe(tool);
    }
    QString extracted(const QString &relative) const { return m_root.filePath(relative); }
    bool hasEntry(const QString &path) const;
    PackageEntry entry(const QString &path) const;

    BuiltPackage m_package;
    QMap<QString, QString> m_fields;
    QList<PackageEntry> m_entries;
    QTemporaryDir m_root;
};

void TestPackageContents::initTestCase()
{
    QString error;
    QVERIFY2(m_package.build(&error), qPrintable(error));
    m_fields = m_package.fields();
    m_entries = m_package.entries();
    QVERIFY(!m_entries.isEmpty());
    QVERIFY(m_root.isValid());
    const ToolRun extract =
        runTool(QStringLiteral("dpkg-deb"), {QStringLiteral("--extract"), m_package.path(), m_root.path()});
    QVERIFY2(extract.ok(), extract.describe(QStringLiteral("dpkg-deb --extract")));
}

bool TestPackageContents::hasEntry(const QString &path) const
{
    return !entry(path).path.isEmpty();
}

PackageEntry TestPackageContents::entry(const QString &path) const
{
    for (const PackageEntry &candidate : m_entries) {
        if (candidate.path == path)
            return candidate;
    }
    return {};
}

void TestPackageContents::fieldsDescribeThePackage()
{
    const QString architecture =
        runTool(QStringLiteral("dpkg"), {QStringLiteral("--print-architecture")}).out.trimmed();
    const QString version = QStringLiteral(PADDOCK_VERSION "-1");
    QCOMPARE(m_fields.value(QStringLiteral("Package")), QStringLiteral("paddock"));
    QCOMPARE(m_fields.value(QStringLiteral("Version")), version);
    QCOMPARE(m_fields.value(QStringLiteral("Architecture")), architecture);
    QCOMPARE(m_package.fileName(), QStringLiteral("paddock_%1_%2.deb").arg(version, architecture));
    QCOMPARE(m_fields.value(QStringLiteral("Section")), QStringLiteral("devel"));
    QCOMPARE(m_fields.value(QStringLiteral("Priority")), QStringLiteral("optional"));
    QVERIFY2(m_fields.value(QStringLiteral("Maintainer")).contains(QRegularExpression(QStringLiteral(".+ <.+@.+>"))),
             qPrintable(m_fields.value(QStringLiteral("Maintainer"))));
    QVERIFY(!m_fields.contains(QStringLiteral("Homepage")));
    // Debian's place for the licence of an installed package.
    QVERIFY(hasEntry(QStringLiteral("usr/share/doc/paddock/copyright")));

    // A synopsis line, then the long description with paragraphs kept apart by " ." lines.
    const QStringList description = m_fields.value(QStringLiteral("Description")).split(QLatin1Char('\n'));
    QVERIFY2(description.size() > 3, qPrintable(description.join(QLatin1Char('\n'))));
    QCOMPARE(description.constFirst(), QStringLiteral("sandbox manager for coding agents"));
    QVERIFY(description.contains(QStringLiteral(".")));
    QVERIFY(description.join(QLatin1Char(' ')).contains(QStringLiteral("bubblewrap")));
}

void TestPackageContents::dependsComeFromTheBinariesAndTheRuntime()
{
    const QString depends = m_fields.value(QStringLiteral("Depends"));
    const QStringList names = BuiltPackage::packageNames(depends);

    // dpkg-shlibdeps read the executables: the package of every library they load is
    // there, with a minimum version.
    const QString multiarch =
        runTool(QStringLiteral("dpkg-architecture"), {QStringLiteral("-qDEB_HOST_MULTIARCH")}).out.trimmed();
    QVERIFY(!multiarch.isEmpty());
    QSet<QString> sonames;
    for (const QString &path : {QStringLiteral("usr/bin/paddock"), QStringLiteral("usr/bin/paddock-gui"),
                                QStringLiteral("usr/bin/paddock-proxy"), QStringLiteral("usr/bin/paddockd")}) {
        const ToolRun dynamic = readelf({QStringLiteral("--dynamic")}, extracted(path));
        static const QRegularExpression needed(QStringLiteral(R"(\(NEEDED\).*\[(.+)\])"));
        for (auto match = needed.globalMatch(dynamic.out); match.hasNext();)
            sonames.insert(match.next().captured(1));
    }
    QVERIFY2(sonames.contains(QStringLiteral("libQt6Core.so.6")),
             qPrintable(QStringList(sonames.cbegin(), sonames.cend()).join(QLatin1Char(' '))));
    for (const QString &soname : std::as_const(sonames)) {
        const ToolRun owner =
            runTool(QStringLiteral("dpkg-query"), {QStringLiteral("--search"), QStringLiteral("*/") + soname});
        QString package;
        for (const QString &line : owner.out.split(QLatin1Char('\n'))) {
            if (line.endsWith(QLatin1Char('/') + multiarch + QLatin1Char('/') + soname))
                package = line.section(QLatin1Char(':'), 0, 0);
        }
        QVERIFY2(!package.isEmpty(), qPrintable(QStringLiteral("no package owns %1: %2").arg(soname, owner.out)));
        QVERIFY2(depends.contains(QRegularExpression(
                     QStringLiteral("(^|, )%1 \\(>= [^)]+\\)").arg(QRegularExpression::escape(package)))),
                 qPrintable(QStringLiteral("%1 (for %2) missing from Depends: %3").arg(package, soname, depends)));
    }

    // What no binary links but Paddock needs at run time.
    for (const QString &runtime :
         {QStringLiteral("bubblewrap"), QStringLiteral("ca-certificates"), QStringLiteral("libqt6sql6-sqlite"),
          QStringLiteral("qml6-module-qtquick"), QStringLiteral("qml6-module-qtquick-controls"),
          QStringLiteral("qml6-module-qtquick-layouts"), QStringLiteral("qml6-module-qtquick-templates"),
          QStringLiteral("qml6-module-qtquick-window"), QStringLiteral("qml6-module-qtquick-dialogs"),
          QStringLiteral("qml6-module-qt-labs-folderlistmodel"), QStringLiteral("qml6-module-qtqml-workerscript"),
          QStringLiteral("publicsuffix")})
        QVERIFY2(names.contains(runtime),
                 qPrintable(QStringLiteral("%1 missing from Depends: %2").arg(runtime, depends)));

    const QStringList recommends = BuiltPackage::packageNames(m_fields.value(QStringLiteral("Recommends")));
    QVERIFY2(recommends.contains(QStringLiteral("gnome-keyring")), qPrintable(recommends.join(QLatin1Char(' '))));
    QVERIFY2(recommends.contains(QStringLiteral("docker.io")), qPrintable(recommends.join(QLatin1Char(' '))));
    QVERIFY(!names.contains(QStringLiteral("docker.io")));
}

void TestPackageContents::executablesInstallWhereTheyFindEachOther()
{
    // paddock runs paddock-gui and paddock-proxy and starts paddockd from beside itself; paddockd
    // finds paddock-init in ../libexec/paddock.
    for (const QString &path : {QStringLiteral("usr/bin/paddock"), QStringLiteral("usr/bin/paddock-gui"),
                                QStringLiteral("usr/bin/paddock-proxy"), QStringLiteral("usr/bin/paddockd"),
                                QStringLiteral("usr/libexec/paddock/paddock-init")}) {
        const PackageEntry file = entry(path);
        QVERIFY2(!file.path.isEmpty(), qPrintable(path));
        QCOMPARE(file.mode, QStringLiteral("-rwxr-xr-x"));
    }
    QVERIFY(QFileInfo(extracted(QStringLiteral("usr/bin/../libexec/paddock/paddock-init"))).isExecutable());

    // paddock-init is bind-mounted into sandboxes of any distribution: it must need no
    // dynamic loader. And the package carries no debugging data or symbol tables.
    const ToolRun init = readelf({QStringLiteral("--program-headers"), QStringLiteral("--section-headers")},
                                 extracted(QStringLiteral("usr/libexec/paddock/paddock-init")));
    QVERIFY2(init.ok(), init.describe(QStringLiteral("readelf")));
    QVERIFY2(!init.out.contains(QStringLiteral("INTERP")), qPrintable(init.out));
    for (const QString &path : {QStringLiteral("usr/bin/paddock"), QStringLiteral("usr/bin/paddock-gui"),
                                QStringLiteral("usr/bin/paddock-proxy"), QStringLiteral("usr/bin/paddockd"),
                                QStringLiteral("usr/libexec/paddock/paddock-init")}) {
        const ToolRun sections = readelf({QStringLiteral("--section-headers")}, extracted(path));
        QVERIFY2(sections.ok(), sections.describe(QStringLiteral("readelf")));
        QVERIFY2(!sections.out.contains(QStringLiteral(".debug_info")) &&
                     !sections.out.contains(QStringLiteral(".symtab")),
                 qPrintable(path + QStringLiteral(" is not stripped")));
    }
}

void TestPackageContents::everythingIsUnderUsrAndOwnedByRoot()
{
    // But the AppArmor profile, which AppArmor reads from /etc alone.
    const QStringList inEtc{QStringLiteral("etc"), QStringLiteral("etc/apparmor.d"),
                            QStringLiteral("etc/apparmor.d/paddock-bwrap")};
    for (const PackageEntry &file : std::as_const(m_entries)) {
        QVERIFY2(file.path == QStringLiteral("usr") || file.path.startsWith(QStringLiteral("usr/")) ||
                     inEtc.contains(file.path),
                 qPrintable(file.path));
        QVERIFY2(!file.path.startsWith(QStringLiteral("usr/local")), qPrintable(file.path));
        QVERIFY2(file.owner == QStringLiteral("root/root"), qPrintable(file.owner + QLatin1Char(' ') + file.path));
        // No file is writable by anyone but root.
        QVERIFY2(file.mode.mid(5, 1) != QStringLiteral("w") && file.mode.mid(8, 1) != QStringLiteral("w"),
                 qPrintable(file.mode + QLatin1Char(' ') + file.path));
    }
}

void TestPackageContents::sampleKitsAreInstalled()
{
    // Every kit of resources/kits, file for file, with its scripts still executable.
    const QString source = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits");
    QDirIterator files(source, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    int count = 0;
    while (files.hasNext()) {
        const QString file = files.next();
        const QString installed = QStringLiteral("usr/share/paddock/kits/") + QDir(source).relativeFilePath(file);
        const PackageEntry packaged = entry(installed);
        QVERIFY2(!packaged.path.isEmpty(), qPrintable(installed));
        QVERIFY2(packaged.isExecutable() == QFileInfo(file).isExecutable(),
                 qPrintable(QStringLiteral("%1 has mode %2").arg(installed, packaged.mode)));
        ++count;
    }
    QVERIFY(count > 0);
    QVERIFY(hasEntry(QStringLiteral("usr/share/paddock/kits/shell/spec.yaml")));
}

void TestPackageContents::iconIsInstalledInEverySize()
{
    QVERIFY(hasEntry(QStringLiteral("usr/share/icons/hicolor/scalable/apps/paddock.svg")));
    for (const int size : kIconSizes) {
        const QString path = QStringLiteral("usr/share/icons/hicolor/%1x%1/apps/paddock.png").arg(size);
        QVERIFY2(hasEntry(path), qPrintable(path + QStringLiteral(" is missing (is rsvg-convert installed?)")));
        QCOMPARE(pngSize(extracted(path)), QSize(size, size));
    }
}

void TestPackageContents::desktopEntryIsValid()
{
    const QString desktop = extracted(QStringLiteral("usr/share/applications/paddock.desktop"));
    QVERIFY(QFileInfo::exists(desktop));
    // Quiet means valid: hints and warnings are printed, and only errors fail the tool.
    const ToolRun validate = runTool(QStringLiteral("desktop-file-validate"), {desktop});
    QVERIFY2(validate.ok() && validate.out.isEmpty(),
             toolFailed(validate, QStringLiteral("desktop-file-validate"), QStringLiteral("desktop-file-utils")));

    QSettings entry(desktop, QSettings::IniFormat);
    entry.beginGroup(QStringLiteral("Desktop Entry"));
    QCOMPARE(entry.value(QStringLiteral("Name")).toString(), QStringLiteral("Paddock"));
    // The command and icon it names are the ones this package installs.
    const QString exec = entry.value(QStringLiteral("Exec")).toString().section(QLatin1Char(' '), 0, 0);
    QVERIFY2(hasEntry(QStringLiteral("usr/bin/") + exec), qPrintable(exec));
    const QString icon = entry.value(QStringLiteral("Icon")).toString();
    QVERIFY(hasEntry(QStringLiteral("usr/share/icons/hicolor/scalable/apps/%1.svg").arg(icon)));
}

void TestPackageContents::bundlesHaveTheirTypeAndIcon()
{
    // The type *.paddock files get, which the desktop entry opens.
    QVERIFY(hasEntry(QStringLiteral("usr/share/mime/packages/paddock.xml")));
    QFile mime(extracted(QStringLiteral("usr/share/mime/packages/paddock.xml")));
    QVERIFY(mime.open(QIODevice::ReadOnly));
    QVERIFY(mime.readAll().contains("<mime-type type=\"application/x-paddock-bundle\">"));
    QSettings entry(extracted(QStringLiteral("usr/share/applications/paddock.desktop")), QSettings::IniFormat);
    entry.beginGroup(QStringLiteral("Desktop Entry"));
    QVERIFY(entry.value(QStringLiteral("MimeType")).toString().contains(QLatin1String("application/x-paddock-bundle")));
    QVERIFY(hasEntry(QStringLiteral("usr/share/icons/hicolor/scalable/mimetypes/application-x-paddock-bundle.svg")));
    for (const int size : kIconSizes) {
        const QString path =
            QStringLiteral("usr/share/icons/hicolor/%1x%1/mimetypes/application-x-paddock-bundle.png").arg(size);
        QVERIFY2(hasEntry(path), qPrintable(path + QStringLiteral(" is missing (is rsvg-convert installed?)")));
    }
}

void TestPackageContents::appArmorProfileAndItsScripts()
{
    QVERIFY(hasEntry(QStringLiteral("etc/apparmor.d/paddock-bwrap")));
    QTemporaryDir control;
    QVERIFY(control.isValid());
    const ToolRun unpack = runTool(QStringLiteral("dpkg-deb"), {QStringLiteral("--control"), m_package.path(),
                                                                control.filePath(QStringLiteral("DEBIAN"))});
    QVERIFY2(unpack.ok(), unpack.describe(QStringLiteral("dpkg-deb --control")));
    const auto read = [&control](const QString &name) {
        QFile file(control.filePath(QStringLiteral("DEBIAN/") + name));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    };
    // The profile is the administrator's to change, kept on upgrades.
    QVERIFY2(read(QStringLiteral("conffiles"))
                 .split(QLatin1Char('\n'))
                 .contains(QStringLiteral("/etc/apparmor.d/paddock-bwrap")),
             qPrintable(read(QStringLiteral("conffiles"))));
    // The copy of bubblewrap the profile names follows bubblewrap's updates.
    QVERIFY2(read(QStringLiteral("triggers")).contains(QLatin1String("interest-noawait /usr/bin/bwrap")),
             qPrintable(read(QStringLiteral("triggers"))));
    QVERIFY(QFileInfo(control.filePath(QStringLiteral("DEBIAN/postinst"))).isExecutable());
    QVERIFY(QFileInfo(control.filePath(QStringLiteral("DEBIAN/postrm"))).isExecutable());
    QVERIFY(read(QStringLiteral("postinst")).contains(QLatin1String("apparmor_parser -r")));
}

void TestPackageContents::metainfoIsValid()
{
    const QString metainfo = extracted(QStringLiteral("usr/share/metainfo/dev.paddock.Paddock.metainfo.xml"));
    QVERIFY(QFileInfo::exists(metainfo));
    const ToolRun validate =
        runTool(QStringLiteral("appstreamcli"), {QStringLiteral("validate"), QStringLiteral("--no-net"), metainfo});
    QVERIFY2(validate.ok(), toolFailed(validate, QStringLiteral("appstreamcli"), QStringLiteral("appstream")));

    // The id, what it launches and its newest release (the first listed).
    QFile file(metainfo);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QString id;
    QString launchable;
    QString newestRelease;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("id") && id.isEmpty())
            id = xml.readElementText();
        else if (xml.name() == QLatin1String("launchable"))
            launchable = xml.readElementText();
        else if (xml.name() == QLatin1String("release") && newestRelease.isEmpty())
            newestRelease = xml.attributes().value(QLatin1String("version")).toString();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(id, QStringLiteral("dev.paddock.Paddock"));
    QVERIFY2(hasEntry(QStringLiteral("usr/share/applications/") + launchable), qPrintable(launchable));
    QCOMPARE(newestRelease, QStringLiteral(PADDOCK_VERSION));
}

void TestPackageContents::systemdUnitStartsTheInstalledDaemon()
{
    const QString unit = extracted(QStringLiteral("usr/lib/systemd/user/paddockd.service"));
    QVERIFY(QFileInfo::exists(unit));
    QFile file(unit);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("\nExecStart=/usr/bin/paddockd --foreground\n")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\nWantedBy=default.target\n")), qPrintable(text));

    // systemd's own check. It looks for the executable on this machine, so it reads a copy
    // whose ExecStart points into the extracted package; it warns about unknown keys on
    // stderr without failing, so stderr must stay empty too.
    QTemporaryDir runtime;
    QVERIFY(runtime.isValid());
    QFile copy(runtime.filePath(QStringLiteral("paddockd.service")));
    QVERIFY(copy.open(QIODevice::WriteOnly));
    copy.write(QString(text)
                   .replace(QStringLiteral("=/usr/bin/paddockd"),
                            QLatin1Char('=') + extracted(QStringLiteral("usr/bin/paddockd")))
                   .toUtf8());
    copy.close();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime.path());
    const ToolRun verify =
        runTool(QStringLiteral("systemd-analyze"),
                {QStringLiteral("verify"), QStringLiteral("--user"), copy.fileName()}, {}, environment);
    QVERIFY2(verify.ok() && verify.err.trimmed().isEmpty(),
             toolFailed(verify, QStringLiteral("systemd-analyze"), QStringLiteral("systemd")));
}

QTEST_GUILESS_MAIN(TestPackageContents)
#include "tst_packagecontents.moc"
