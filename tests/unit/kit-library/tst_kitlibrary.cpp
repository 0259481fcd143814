// SPDX-License-Identifier: GPL-3.0-or-later
// The kit library: folders the user added (kits.yaml), kits imported from bundles, the shipped
// samples, templates, and how a name or a path given by the user finds a kit.
#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace paddock::kit;

namespace {

QString fixture(const QString &relative)
{
    return QStringLiteral(PADDOCK_FIXTURES "/kits/") + relative;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

} // namespace

class TestKitLibrary : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void emptyLibraryListsSamplesOnly();
    void addRemembersFolderAcrossInstances();
    void addTwiceChangesNothing();
    void addRefusesFolderWithoutSpec();
    void addKeepsInvalidKitWithErrorCount();
    void forgetByNameAndByFolder();
    void forgetRefusesSample();
    void forgetKeepsCommentsOfKitsYaml();
    void kitsYamlIsReplacedAtomically();
    void brokenKitsYamlNamesLineAndLosesNothing();
    void missingFolderIsListedAsError();
    void defaultSamplesAreFound();
    void templatesValidate_data();
    void templatesValidate();
    void createFromTemplateNamesKitAfterFolder();
    void createRefusesExistingSpec();
    void copyKitCopiesFilesTree();
    void importedKitsAreListedAfterAddedOnes();
    void importedKitCannotBeAddedOrForgotten();
    void resolveLooksUpNamesFirst();
    void resolveTakesSlashesAndFoldersAsPaths();
    void resolveSaysWhatWasLookedUpWhere();
    void resolveRefusesTwoKitsOfTheUsersWithOneName();
    void resolveTakesTheBuiltKitOverItsAuthoredFolder();

private:
    QString configFile() const { return m_dir.filePath(QStringLiteral("config/paddock/kits.yaml")); }
    QString samplesRoot() const { return m_dir.filePath(QStringLiteral("samples")); }
    /** Where `bundle import` writes, as the default library finds it (XDG_DATA_HOME is the test's). */
    QString importedRoot() const { return m_dir.filePath(QStringLiteral("data/paddock/kits")); }
    QString makeKit(const QString &folder, const QString &fixtureName);

    QTemporaryDir m_dir;
};

void TestKitLibrary::init()
{
    QVERIFY(m_dir.isValid());
    QDir(m_dir.path()).removeRecursively();
    QDir().mkpath(m_dir.path());
    QDir::setCurrent(m_dir.path());
    qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    // Two samples, as an installed share/paddock/kits holds them.
    makeKit(samplesRoot() + QStringLiteral("/pi"), QStringLiteral("published/pi"));
    makeKit(samplesRoot() + QStringLiteral("/aider"), QStringLiteral("published/aider"));
}

QString TestKitLibrary::makeKit(const QString &folder, const QString &fixtureName)
{
    QDir().mkpath(folder);
    QFile::copy(fixture(fixtureName + QStringLiteral("/spec.yaml")), folder + QStringLiteral("/spec.yaml"));
    return QFileInfo(folder).canonicalFilePath();
}

void TestKitLibrary::emptyLibraryListsSamplesOnly()
{
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.configError().isEmpty());
    const QList<KitEntry> entries = library.entries();
    QCOMPARE(entries.size(), 2);
    QCOMPARE(entries.at(0).name, QStringLiteral("aider"));
    QCOMPARE(entries.at(1).name, QStringLiteral("pi"));
    QCOMPARE(entries.at(1).displayName, QStringLiteral("Pi"));
    for (const KitEntry &entry : entries) {
        QCOMPARE(entry.source, KitSource::Sample);
        QVERIFY(entry.readOnly());
        QVERIFY2(entry.valid(), qPrintable(entry.name));
    }
    QVERIFY(!QFileInfo::exists(configFile()));
}

void TestKitLibrary::addRemembersFolderAcrossInstances()
{
    const QString kit = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    {
        KitLibrary library(configFile(), {samplesRoot()});
        QString error;
        bool changed = false;
        QVERIFY2(library.add(kit, &error, &changed), qPrintable(error));
        QVERIFY(changed);
    }
    KitLibrary again(configFile(), {samplesRoot()});
    QCOMPARE(again.addedDirectories(), QStringList{kit});
    const QList<KitEntry> entries = again.entries();
    QCOMPARE(entries.size(), 3);
    QCOMPARE(entries.constFirst().name, QStringLiteral("claude"));
    QCOMPARE(entries.constFirst().source, KitSource::Added);
    QVERIFY(!entries.constFirst().readOnly());
    QCOMPARE(again.find(QStringLiteral("claude"))->directory, kit);
    QVERIFY(readAll(configFile()).contains(kit.toUtf8()));
    // Private to the user, like every file of the configuration folder.
    QCOMPARE(QFileInfo(configFile()).permissions() & (QFile::ReadOther | QFile::ReadGroup), QFile::Permissions());
}

void TestKitLibrary::addTwiceChangesNothing()
{
    const QString kit = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(kit));
    const QByteArray before = readAll(configFile());
    bool changed = true;
    // The same folder through a relative spelling.
    QVERIFY(library.add(kit + QStringLiteral("/../claude"), nullptr, &changed));
    QVERIFY(!changed);
    QCOMPARE(readAll(configFile()), before);
    // A sample is in the library already.
    QVERIFY(library.add(samplesRoot() + QStringLiteral("/pi"), nullptr, &changed));
    QVERIFY(!changed);
    QCOMPARE(library.addedDirectories().size(), 1);
}

void TestKitLibrary::addRefusesFolderWithoutSpec()
{
    const QString empty = m_dir.filePath(QStringLiteral("work/empty"));
    QDir().mkpath(empty);
    KitLibrary library(configFile(), {samplesRoot()});
    QString error;
    QVERIFY(!library.add(empty, &error));
    QVERIFY2(error.contains(QStringLiteral("no spec.yaml")), qPrintable(error));
    QVERIFY(!library.add(m_dir.filePath(QStringLiteral("nowhere")), &error));
    QVERIFY2(error.contains(QStringLiteral("not a folder")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(configFile()));
}

void TestKitLibrary::addKeepsInvalidKitWithErrorCount()
{
    const QString kit = makeKit(m_dir.filePath(QStringLiteral("work/draft")), QStringLiteral("draft-keys/aws"));
    QVERIFY(QFileInfo::exists(kit + QStringLiteral("/spec.yaml")));
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(kit));
    const KitEntry entry = library.entries().constFirst();
    QVERIFY(!entry.valid());
    QVERIFY(entry.errorCount >= 1);
    QVERIFY(!entry.name.isEmpty());
    QVERIFY(entry.diagnostics.constFirst().line > 0);
}

void TestKitLibrary::forgetByNameAndByFolder()
{
    const QString claude = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    const QString codex = makeKit(m_dir.filePath(QStringLiteral("work/codex")), QStringLiteral("published/codex"));
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(claude));
    QVERIFY(library.add(codex));
    QString error;
    QString forgotten;
    QVERIFY2(library.forget(QStringLiteral("claude"), &error, &forgotten), qPrintable(error));
    QCOMPARE(forgotten, claude);
    QCOMPARE(KitLibrary(configFile(), {samplesRoot()}).addedDirectories(), QStringList{codex});
    QVERIFY2(library.forget(codex, &error), qPrintable(error));
    QVERIFY(KitLibrary(configFile(), {samplesRoot()}).addedDirectories().isEmpty());
    // The kit's own files are not touched.
    QVERIFY(QFileInfo::exists(claude + QStringLiteral("/spec.yaml")));
    QVERIFY(!library.forget(QStringLiteral("claude"), &error));
    QVERIFY2(error.contains(QStringLiteral("no added kit")), qPrintable(error));
}

void TestKitLibrary::forgetRefusesSample()
{
    KitLibrary library(configFile(), {samplesRoot()});
    QString error;
    QVERIFY(!library.forget(QStringLiteral("pi"), &error));
    QVERIFY2(error.contains(QStringLiteral("sample")), qPrintable(error));
    QCOMPARE(library.entries().size(), 2);
}

void TestKitLibrary::forgetKeepsCommentsOfKitsYaml()
{
    const QString claude = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    const QString codex = makeKit(m_dir.filePath(QStringLiteral("work/codex")), QStringLiteral("published/codex"));
    const QByteArray original = "# my kits\nkits:\n  # the one I use most\n  - " + codex.toUtf8() + "\n";
    writeAll(configFile(), original);
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(claude));
    QCOMPARE(readAll(configFile()), original + "  - " + claude.toUtf8() + "\n");
    QVERIFY(library.forget(claude));
    QCOMPARE(readAll(configFile()), original);
}

void TestKitLibrary::kitsYamlIsReplacedAtomically()
{
    const QString claude = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(claude));
    struct stat before
    {};
    QCOMPARE(::stat(QFile::encodeName(configFile()).constData(), &before), 0);
    const QString codex = makeKit(m_dir.filePath(QStringLiteral("work/codex")), QStringLiteral("published/codex"));
    QVERIFY(library.add(codex));
    struct stat after
    {};
    QCOMPARE(::stat(QFile::encodeName(configFile()).constData(), &after), 0);
    // A new inode: the file was renamed over, never truncated and rewritten in place.
    QVERIFY(before.st_ino != after.st_ino);
    // No temporary file left beside it.
    const QStringList left = QDir(QFileInfo(configFile()).absolutePath()).entryList(QDir::Files | QDir::Hidden);
    QCOMPARE(left, QStringList{QStringLiteral("kits.yaml")});
}

void TestKitLibrary::brokenKitsYamlNamesLineAndLosesNothing()
{
    const QString claude = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    const QByteArray broken = "kits:\n  - /home/me/kits/pi\n  - [unclosed\n";
    writeAll(configFile(), broken);
    KitLibrary library(configFile(), {samplesRoot()});
    const QString error = library.configError();
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.startsWith(configFile() + QStringLiteral(":4:")) ||
                 error.startsWith(configFile() + QStringLiteral(":3:")),
             qPrintable(error));
    // The samples are still there; the file is left exactly as it was by add and forget.
    QCOMPARE(library.entries().size(), 2);
    QString addError;
    QVERIFY(!library.add(claude, &addError));
    QVERIFY2(addError.contains(QStringLiteral("left as it is")), qPrintable(addError));
    QVERIFY(!library.forget(QStringLiteral("/home/me/kits/pi")));
    QCOMPARE(readAll(configFile()), broken);

    // A well-formed file of the wrong shape names its line too.
    writeAll(configFile(), "kits:\n  - relative/path\n");
    QVERIFY(!library.reload());
    QVERIFY2(library.configError().startsWith(configFile() + QStringLiteral(":2:5:")),
             qPrintable(library.configError()));
    writeAll(configFile(), "kit:\n  - /a\n");
    QVERIFY(!library.reload());
    QVERIFY2(library.configError().contains(QStringLiteral(":1:1: unknown key 'kit'")),
             qPrintable(library.configError()));
}

void TestKitLibrary::missingFolderIsListedAsError()
{
    const QString claude = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(claude));
    QVERIFY(QDir(claude).removeRecursively());
    const KitEntry entry = library.entries().constFirst();
    QCOMPARE(entry.directory, claude);
    QCOMPARE(entry.errorCount, 1);
    QVERIFY2(entry.diagnostics.constFirst().message.contains(QStringLiteral("does not exist")),
             qPrintable(entry.diagnostics.constFirst().message));
    // It can still be forgotten by folder.
    QVERIFY(library.forget(claude));
}

void TestKitLibrary::defaultSamplesAreFound()
{
    // A build finds the source tree's resources/kits; PADDOCK_SAMPLE_KITS replaces it.
    qunsetenv("PADDOCK_SAMPLE_KITS");
    const QStringList roots = KitLibrary::defaultSampleRoots();
    const QString sourceKits = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits");
    if (QFileInfo(sourceKits).isDir()) {
        QCOMPARE(roots, QStringList{QDir::cleanPath(sourceKits)});
        KitLibrary library(configFile(), roots);
        QVERIFY(!library.sampleDirectories().isEmpty());
        for (const KitEntry &entry : library.entries())
            QVERIFY2(entry.valid(), qPrintable(entry.directory));
    }
    qputenv("PADDOCK_SAMPLE_KITS", (samplesRoot() + QStringLiteral(":/nonexistent")).toUtf8());
    QCOMPARE(KitLibrary::defaultSampleRoots(), (QStringList{samplesRoot(), QStringLiteral("/nonexistent")}));
    QCOMPARE(KitLibrary(configFile()).sampleDirectories().size(), 2);
    qunsetenv("PADDOCK_SAMPLE_KITS");
}

void TestKitLibrary::templatesValidate_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &name : KitLibrary::templateNames())
        QTest::newRow(qPrintable(name)) << name;
}

void TestKitLibrary::templatesValidate()
{
    QFETCH(QString, name);
    const QByteArray text = KitLibrary::templateText(name);
    QVERIFY(!text.isEmpty());
    const KitLoadResult result = KitLoader::loadText(text, name + QStringLiteral("/spec.yaml"));
    QVERIFY(result.ok());
    QVERIFY(result.diagnostics.isEmpty());
    QCOMPARE(kindName(result.kit->kind), name);
    QVERIFY(!KitLibrary::templateDescription(name).isEmpty());
}

void TestKitLibrary::createFromTemplateNamesKitAfterFolder()
{
    const QString dir = m_dir.filePath(QStringLiteral("work/My Agent_2"));
    QString error;
    QVERIFY2(KitLibrary::createFromTemplate(QStringLiteral("sandbox"), dir, {}, &error), qPrintable(error));
    const KitLoadResult result = KitLoader::loadDirectory(dir);
    QVERIFY(result.ok());
    QCOMPARE(result.kit->name, QStringLiteral("my-agent-2"));
    // Only the name line differs from the template: its comments are the user's to read.
    const QList<QByteArray> templateLines = KitLibrary::templateText(QStringLiteral("sandbox")).split('\n');
    const QList<QByteArray> written = readAll(dir + QStringLiteral("/spec.yaml")).split('\n');
    QCOMPARE(written.size(), templateLines.size());
    int differing = 0;
    for (qsizetype i = 0; i < written.size(); ++i)
        differing += written.at(i) != templateLines.at(i);
    QCOMPARE(differing, 1);

    const QString mixin = m_dir.filePath(QStringLiteral("work/tools"));
    QVERIFY(KitLibrary::createFromTemplate(QStringLiteral("mixin"), mixin, QStringLiteral("python-tools"), &error));
    QCOMPARE(KitLoader::loadDirectory(mixin).kit->name, QStringLiteral("python-tools"));
    QVERIFY(!KitLibrary::createFromTemplate(QStringLiteral("mixin"), m_dir.filePath(QStringLiteral("x")),
                                            QStringLiteral("Bad Name"), &error));
    QVERIFY(!KitLibrary::createFromTemplate(QStringLiteral("nope"), m_dir.filePath(QStringLiteral("y")), {}, &error));
    QVERIFY2(error.contains(QStringLiteral("sandbox, mixin")), qPrintable(error));
}

void TestKitLibrary::createRefusesExistingSpec()
{
    const QString kit = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    const QByteArray before = readAll(kit + QStringLiteral("/spec.yaml"));
    QString error;
    QVERIFY(!KitLibrary::createFromTemplate(QStringLiteral("sandbox"), kit, {}, &error));
    QVERIFY2(error.contains(QStringLiteral("already holds")), qPrintable(error));
    QCOMPARE(readAll(kit + QStringLiteral("/spec.yaml")), before);
}

void TestKitLibrary::copyKitCopiesFilesTree()
{
    const QString sample = samplesRoot() + QStringLiteral("/pi");
    writeAll(sample + QStringLiteral("/files/home/.config/pi/settings.json"), "{}\n");
    QVERIFY(QFile::link(QStringLiteral("settings.json"), sample + QStringLiteral("/files/home/.config/pi/link.json")));
    QFile::setPermissions(sample + QStringLiteral("/spec.yaml"), QFile::ReadOwner);
    const QString copy = m_dir.filePath(QStringLiteral("work/my-pi"));
    QString error;
    QVERIFY2(KitLibrary::copyKit(sample, copy, &error), qPrintable(error));
    QCOMPARE(readAll(copy + QStringLiteral("/spec.yaml")), readAll(sample + QStringLiteral("/spec.yaml")));
    QVERIFY(QFileInfo(copy + QStringLiteral("/spec.yaml")).isWritable());
    QCOMPARE(readAll(copy + QStringLiteral("/files/home/.config/pi/settings.json")), QByteArray("{}\n"));
    QCOMPARE(QFileInfo(copy + QStringLiteral("/files/home/.config/pi/link.json")).symLinkTarget(),
             copy + QStringLiteral("/files/home/.config/pi/settings.json"));
    QVERIFY(KitLoader::loadDirectory(copy).ok());
    // Never over an existing kit.
    QVERIFY(!KitLibrary::copyKit(sample, copy, &error));
    QVERIFY2(error.contains(QStringLiteral("not empty")), qPrintable(error));
}

void TestKitLibrary::importedKitsAreListedAfterAddedOnes()
{
    const QString claude = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    const QString codex = makeKit(importedRoot() + QStringLiteral("/codex"), QStringLiteral("published/codex"));
    const QString gemini = makeKit(importedRoot() + QStringLiteral("/gemini"), QStringLiteral("published/gemini"));
    // What an import leaves aside is not a kit: its hidden staging folder, a link, a folder without spec.yaml.
    makeKit(importedRoot() + QStringLiteral("/.gemini.import-0123456789ab-XXXXXX"), QStringLiteral("published/gemini"));
    QVERIFY(QFile::link(claude, importedRoot() + QStringLiteral("/linked")));
    QVERIFY(QDir().mkpath(importedRoot() + QStringLiteral("/empty")));

    KitLibrary library(configFile(), {samplesRoot()});
    QCOMPARE(library.importedRoot(), importedRoot());
    QCOMPARE(library.importedDirectories(), (QStringList{codex, gemini}));
    QVERIFY(library.add(claude));
    const QList<KitEntry> entries = library.entries();
    QStringList listed;
    for (const KitEntry &entry : entries)
        listed << QStringLiteral("%1:%2").arg(entry.name, sourceName(entry.source));
    QCOMPARE(listed, (QStringList{QStringLiteral("claude:added"), QStringLiteral("codex:imported"),
                                  QStringLiteral("gemini:imported"), QStringLiteral("aider:sample"),
                                  QStringLiteral("pi:sample")}));
    // Imported kits are the user's to edit, as added ones are.
    QVERIFY(!entries.at(1).readOnly());
    QVERIFY(entries.at(1).valid());
    QCOMPARE(library.find(QStringLiteral("codex"))->source, KitSource::Imported);
    QCOMPARE(library.find(codex)->directory, codex);

    // An explicit importedRoot replaces the default one; an empty one lists none.
    QVERIFY(KitLibrary(configFile(), {samplesRoot()}, QString()).importedDirectories().isEmpty());
}

void TestKitLibrary::importedKitCannotBeAddedOrForgotten()
{
    const QString codex = makeKit(importedRoot() + QStringLiteral("/codex"), QStringLiteral("published/codex"));
    KitLibrary library(configFile(), {samplesRoot()});
    QString error;
    bool changed = true;
    QVERIFY2(library.add(codex, &error, &changed), qPrintable(error));
    QVERIFY(!changed);
    QVERIFY(!QFileInfo::exists(configFile()));
    QVERIFY(!library.forget(QStringLiteral("codex"), &error));
    QVERIFY2(error.contains(QLatin1String("imported from a bundle")), qPrintable(error));
    QVERIFY(!library.forget(codex, &error));
    QVERIFY2(error.contains(QLatin1String("imported from a bundle")), qPrintable(error));
    QCOMPARE(library.entries().size(), 3);
}

void TestKitLibrary::resolveTakesTheBuiltKitOverItsAuthoredFolder()
{
    // An authored descriptor's folder, added to the library: the recipe, listed under its stem.
    const QString authored = m_dir.filePath(QStringLiteral("work/codex"));
    writeAll(authored + QStringLiteral("/codex.yaml"), "schemaVersion: \"3\"\nkind: workload\n");
    writeAll(authored + QStringLiteral("/codex.dockerfile"), "FROM scratch\n");
    KitLibrary library(configFile(), {samplesRoot()});
    QString error;
    QVERIFY2(library.add(authored, &error), qPrintable(error));
    const QString folder = QFileInfo(authored).canonicalFilePath();
    // Nothing built yet: the name leads to the folder, whose loading says to build it.
    QCOMPARE(library.resolve(QStringLiteral("codex"), &error).value_or(error), folder);
    // `paddock kit build` made the kit of the same name: that is the one a sandbox runs.
    const QString built = makeKit(importedRoot() + QStringLiteral("/codex"), QStringLiteral("published/codex"));
    QCOMPARE(library.resolve(QStringLiteral("codex"), &error).value_or(error), built);
}

void TestKitLibrary::resolveLooksUpNamesFirst()
{
    const QString importedPi = makeKit(importedRoot() + QStringLiteral("/pi"), QStringLiteral("published/pi"));
    const QString claude = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(claude));
    QString error;
    // An added kit, by name.
    QCOMPARE(library.resolve(QStringLiteral("claude"), &error).value_or(error), claude);
    // The user's imported pi shadows the sample of the same name.
    QCOMPARE(library.resolve(QStringLiteral("pi"), &error).value_or(error), importedPi);
    // A sample, by name, even with a folder of that name in the current directory.
    makeKit(m_dir.filePath(QStringLiteral("aider")), QStringLiteral("published/codex"));
    QCOMPARE(library.resolve(QStringLiteral("aider"), &error).value_or(error),
             QFileInfo(samplesRoot() + QStringLiteral("/aider")).canonicalFilePath());
}

void TestKitLibrary::resolveTakesSlashesAndFoldersAsPaths()
{
    const QString local = makeKit(m_dir.filePath(QStringLiteral("aider")), QStringLiteral("published/codex"));
    const QString work = makeKit(m_dir.filePath(QStringLiteral("work/mine")), QStringLiteral("published/codex"));
    KitLibrary library(configFile(), {samplesRoot()});
    QString error;
    // A slash makes a path, even when a kit has the name.
    QCOMPARE(library.resolve(QStringLiteral("./aider"), &error).value_or(error), local);
    QCOMPARE(library.resolve(QStringLiteral("aider/"), &error).value_or(error), local);
    QCOMPARE(library.resolve(QStringLiteral("work/mine"), &error).value_or(error), work);
    QCOMPARE(library.resolve(work, &error).value_or(error), work);
    // No kit is named "work": the existing folder is meant (whether or not it holds a kit).
    QCOMPARE(library.resolve(QStringLiteral("work"), &error).value_or(error),
             QFileInfo(m_dir.filePath(QStringLiteral("work"))).canonicalFilePath());
    QCOMPARE(library.resolve(QStringLiteral("."), &error).value_or(error), QFileInfo(m_dir.path()).canonicalFilePath());
}

void TestKitLibrary::resolveSaysWhatWasLookedUpWhere()
{
    KitLibrary library(configFile(), {samplesRoot()});
    QString error;
    QVERIFY(!library.resolve(QStringLiteral("nope"), &error));
    QCOMPARE(error, QStringLiteral("no kit named nope in the library (paddock kit ls lists them) and no folder nope"));
    QVERIFY(!library.resolve(QStringLiteral("work/nope"), &error));
    QCOMPARE(error, QStringLiteral("work/nope does not exist"));
    writeAll(m_dir.filePath(QStringLiteral("file.txt")), "not a kit\n");
    QVERIFY(!library.resolve(QStringLiteral("./file.txt"), &error));
    QCOMPARE(error, QStringLiteral("./file.txt is not a folder"));
    QVERIFY(!library.resolve(QString(), &error));
    QVERIFY2(error.contains(QLatin1String("no kit given")), qPrintable(error));
}

void TestKitLibrary::resolveRefusesTwoKitsOfTheUsersWithOneName()
{
    const QString imported = makeKit(importedRoot() + QStringLiteral("/claude"), QStringLiteral("published/claude"));
    const QString added = makeKit(m_dir.filePath(QStringLiteral("work/claude")), QStringLiteral("published/claude"));
    KitLibrary library(configFile(), {samplesRoot()});
    QVERIFY(library.add(added));
    QString error;
    QVERIFY(!library.resolve(QStringLiteral("claude"), &error));
    QVERIFY2(error.contains(QLatin1String("several kits of the library are named claude")), qPrintable(error));
    QVERIFY2(error.contains(imported) && error.contains(added), qPrintable(error));
    // Either is still reachable by its folder.
    QCOMPARE(library.resolve(imported, &error).value_or(error), imported);
}

QTEST_GUILESS_MAIN(TestKitLibrary)
#include "tst_kitlibrary.moc"
