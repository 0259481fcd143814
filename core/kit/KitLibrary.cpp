// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitLibrary.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "kit/KitLoader.h"
#include "kit/YamlTextEdit.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

Q_LOGGING_CATEGORY(lcKitLibrary, "paddock.kit.library", QtWarningMsg)

namespace paddock::kit {

namespace {

const QString kSpecFile = QStringLiteral("spec.yaml");
const QStringList kKitsPath{QStringLiteral("kits")};

// A fresh kits.yaml starts with a line saying what it is, for whoever opens it.
const QByteArray kConfigHeader = "# Kit folders added to Paddock (paddock kit add DIR), one per item.\n";

/** The folder as the library stores it: absolute, clean, symbolic links resolved when it exists. */
QString normalisedDir(const QString &dir)
{
    const QFileInfo info(dir);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

QString scalarAt(const YAML::Node &root, const char *key)
{
    try {
        const YAML::Node node = root[key];
        if (node && node.IsScalar())
            return QString::fromStdString(node.Scalar());
    } catch (const YAML::Exception &) {
    }
    return {};
}

/** The folders of kits.yaml in file order, or the place where the file stops making sense. */
struct ConfigContents
{
    QStringList folders;
    QString error;
};

ConfigContents parseConfig(const QByteArray &text, const QString &fileName)
{
    ConfigContents contents;
    auto fail = [&](const YAML::Mark &mark, const QString &message) {
        contents.error =
            QStringLiteral("%1:%2:%3: %4").arg(fileName).arg(mark.line + 1).arg(mark.column + 1).arg(message);
        contents.folders.clear();
        return contents;
    };
    YAML::Node root;
    try {
        root = YAML::Load(text.toStdString());
    } catch (const YAML::ParserException &e) {
        return fail(e.mark, QString::fromStdString(e.msg));
    }
    if (!root || root.IsNull())
        return contents;
    if (!root.IsMap())
        return fail(root.Mark(), QStringLiteral("expected a mapping with the key 'kits'"));
    for (const auto &entry : root) {
        const QString key = QString::fromStdString(entry.first.as<std::string>(""));
        if (key != QLatin1String("kits"))
            return fail(entry.first.Mark(), QStringLiteral("unknown key '%1', expected 'kits'").arg(key));
        const YAML::Node list = entry.second;
        if (list.IsNull())
            continue;
        if (!list.IsSequence())
            return fail(list.Mark(), QStringLiteral("'kits' must be a list of folders"));
        for (const YAML::Node &item : list) {
            if (!item.IsScalar() || item.Scalar().empty())
                return fail(item.Mark(), QStringLiteral("each item of 'kits' must be the path of a kit folder"));
            const QString folder = QString::fromStdString(item.Scalar());
            if (!QDir::isAbsolutePath(folder))
                return fail(item.Mark(), QStringLiteral("'%1' is not an absolute path").arg(folder));
            contents.folders << QDir::cleanPath(folder);
        }
    }
    return contents;
}

/** kits.yaml without its last folder: its comments, then an empty list. */
QByteArray emptiedConfig(const QByteArray &text)
{
    QByteArray result;
    for (const QByteArray &line : text.split('\n')) {
        if (line.trimmed().startsWith('#'))
            result += line + '\n';
    }
    return result + "kits: []\n";
}

bool isInside(const QString &path, const QString &root)
{
    const QString r = normalisedDir(root);
    return path == r || path.startsWith(r + QLatin1Char('/'));
}

} // namespace

QString sourceName(KitSource source)
{
    switch (source) {
    case KitSource::Added:
        return QStringLiteral("added");
    case KitSource::Imported:
        return QStringLiteral("imported");
    case KitSource::Sample:
        return QStringLiteral("sample");
    }
    return {};
}

KitLibrary::KitLibrary(QString configFile, QStringList sampleRoots, QString importedRoot)
    : m_configFile(std::move(configFile)),
      m_sampleRoots(std::move(sampleRoots)),
      m_importedRoot(std::move(importedRoot))
{
    reload();
}

QString KitLibrary::defaultConfigFile()
{
    return paths::configDir() + QStringLiteral("/kits.yaml");
}

QString KitLibrary::defaultImportedRoot()
{
    return paths::dataDir() + QStringLiteral("/kits");
}

QStringList KitLibrary::defaultSampleRoots()
{
    const QString fromEnvironment = qEnvironmentVariable("PADDOCK_SAMPLE_KITS");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment.split(QLatin1Char(':'), Qt::SkipEmptyParts);

    // Installed: BINDIR/../share/paddock/kits. A build: the source tree it came from.
    QStringList candidates;
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/paddock/kits");
    candidates << QStringLiteral(PADDOCK_SOURCE_KITS_DIR);
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo(candidate).isDir())
            return {QDir::cleanPath(candidate)};
    }
    return {};
}

QByteArray KitLibrary::readConfigText() const
{
    QFile file(m_configFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool KitLibrary::reload(QString *error)
{
    m_added.clear();
    m_configError.clear();
    if (QFileInfo::exists(m_configFile)) {
        QFile file(m_configFile);
        if (!file.open(QIODevice::ReadOnly)) {
            m_configError = QStringLiteral("cannot read %1: %2").arg(m_configFile, file.errorString());
        } else {
            const ConfigContents contents = parseConfig(file.readAll(), m_configFile);
            m_configError = contents.error;
            for (const QString &folder : contents.folders) {
                if (!m_added.contains(folder))
                    m_added << folder;
            }
        }
    }
    if (!m_configError.isEmpty())
        qCWarning(lcKitLibrary).noquote() << m_configError;
    if (error)
        *error = m_configError;
    return m_configError.isEmpty();
}

QStringList KitLibrary::sampleDirectories() const
{
    QStringList dirs;
    for (const QString &root : m_sampleRoots) {
        const QDir dir(root);
        const QStringList children = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &child : children) {
            const QString path = normalisedDir(dir.filePath(child));
            if (QFileInfo::exists(path + QLatin1Char('/') + kSpecFile) && !dirs.contains(path))
                dirs << path;
        }
    }
    return dirs;
}

QStringList KitLibrary::importedDirectories() const
{
    QStringList dirs;
    if (m_importedRoot.isEmpty())
        return dirs;
    // Not hidden: an import stages its kit in a hidden sibling folder before renaming it.
    const QDir root(m_importedRoot);
    const QStringList children = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks, QDir::Name);
    for (const QString &child : children) {
        const QString path = normalisedDir(root.filePath(child));
        if (KitLoader::isKitDirectory(path) && !m_added.contains(path))
            dirs << path;
    }
    return dirs;
}

KitEntry KitLibrary::readEntry(const QString &directory, KitSource source)
{
    KitEntry entry;
    entry.directory = directory;
    entry.source = source;
    const QString specPath = directory + QLatin1Char('/') + kSpecFile;
    if (!KitLoader::isKitDirectory(directory) && readAuthoredEntry(directory, entry))
        return entry;
    if (!KitLoader::isKitDirectory(directory)) {
        Diagnostic missing;
        missing.file = specPath;
        missing.message = QFileInfo(directory).isDir()
                              ? QStringLiteral("the folder has no spec.yaml")
                              : QStringLiteral("the folder does not exist any more; forget it or put it back");
        entry.diagnostics << missing;
        entry.errorCount = 1;
        entry.name = QFileInfo(directory).fileName();
        return entry;
    }

    const KitLoadResult result = KitLoader::loadDirectory(directory);
    entry.diagnostics = result.diagnostics;
    for (const Diagnostic &d : result.diagnostics)
        (d.isError() ? entry.errorCount : entry.warningCount)++;
    if (result.kit) {
        entry.name = result.kit->name;
        entry.kind = kindName(result.kit->kind);
        entry.displayName = result.kit->displayName;
        entry.version = result.kit->version;
        entry.description = result.kit->description;
        entry.reference = result.kit->reference;
        entry.digest = result.kit->digest;
        entry.schemaVersion = result.kit->schemaVersion;
        entry.provides = result.kit->provides;
        entry.capabilities = result.kit->capabilities;
        return entry;
    }
    // An invalid kit still has a name to list it by, when its YAML parses at all.
    QFile file(specPath);
    if (file.open(QIODevice::ReadOnly)) {
        try {
            const YAML::Node root = YAML::Load(file.readAll().toStdString());
            if (root.IsMap()) {
                entry.name = scalarAt(root, "name");
                entry.kind = scalarAt(root, "kind");
                entry.displayName = scalarAt(root, "displayName");
                entry.version = scalarAt(root, "version");
                entry.description = scalarAt(root, "description");
            }
        } catch (const YAML::Exception &) {
        }
    }
    if (entry.name.isEmpty())
        entry.name = QFileInfo(directory).fileName();
    return entry;
}

QList<KitEntry> KitLibrary::entries() const
{
    QList<KitEntry> list;
    for (const QString &dir : m_added)
        list << readEntry(dir, KitSource::Added);
    for (const QString &dir : importedDirectories())
        list << readEntry(dir, KitSource::Imported);
    for (const QString &dir : sampleDirectories())
        list << readEntry(dir, KitSource::Sample);
    return list;
}

std::optional<KitEntry> KitLibrary::find(const QString &nameOrDir) const
{
    const QString asDir = normalisedDir(nameOrDir);
    if (m_added.contains(asDir))
        return readEntry(asDir, KitSource::Added);
    if (importedDirectories().contains(asDir))
        return readEntry(asDir, KitSource::Imported);
    const QStringList samples = sampleDirectories();
    if (samples.contains(asDir))
        return readEntry(asDir, KitSource::Sample);
    for (const KitEntry &entry : entries()) {
        if (entry.name == nameOrDir)
            return entry;
    }
    return std::nullopt;
}

std::optional<QString> KitLibrary::resolve(const QString &nameOrPath, QString *error) const
{
    QString ignored;
    QString &message = error ? *error : ignored;
    const QString argument = nameOrPath.trimmed();
    if (argument.isEmpty()) {
        message = QStringLiteral("no kit given: name one of 'paddock kit ls' or a kit folder");
        return std::nullopt;
    }
    const bool isPath = argument.contains(QLatin1Char('/'));
    if (!isPath) {
        // The user's own kits shadow a sample of the same name; two of their own are ambiguous.
        // An authored descriptor's folder is the recipe of the kit `kit build` makes under the
        // same name: that kit is the one a sandbox runs, the folder only when nothing was built.
        QStringList own;
        QString sample, authored;
        for (const KitEntry &entry : entries()) {
            if (entry.name != argument)
                continue;
            if (entry.authored) {
                authored = entry.directory;
            } else if (entry.source == KitSource::Sample) {
                if (sample.isEmpty())
                    sample = entry.directory;
            } else if (!own.contains(entry.directory)) {
                own << entry.directory;
            }
        }
        if (own.size() > 1) {
            message = QStringLiteral("several kits of the library are named %1 (%2); give the folder instead")
                          .arg(argument, own.join(QStringLiteral(", ")));
            return std::nullopt;
        }
        if (!own.isEmpty())
            return own.constFirst();
        if (!sample.isEmpty())
            return sample;
        if (!authored.isEmpty())
            return authored;
    }
    const QFileInfo folder(argument);
    if (folder.isDir())
        return normalisedDir(argument);
    if (isPath)
        message = folder.exists() ? QStringLiteral("%1 is not a folder").arg(argument)
                                  : QStringLiteral("%1 does not exist").arg(argument);
    else
        message =
            QStringLiteral("no kit named %1 in the library (paddock kit ls lists them) and no folder %1").arg(argument);
    return std::nullopt;
}

bool KitLibrary::writeConfig(const QByteArray &text, QString *error)
{
    QString dirError;
    if (!paths::ensurePrivateDir(QFileInfo(m_configFile).absolutePath(), &dirError)) {
        if (error)
            *error = dirError;
        return false;
    }
    return writeFileAtomically(m_configFile, text, error, 0600);
}

bool KitLibrary::add(const QString &dir, QString *error, bool *changed)
{
    if (changed)
        *changed = false;
    QString ignored;
    QString &message = error ? *error : ignored;
    const QString folder = normalisedDir(dir);
    if (!QFileInfo(folder).isDir()) {
        message = QStringLiteral("%1 is not a folder").arg(dir);
        return false;
    }
    if (!QFileInfo(folder + QLatin1Char('/') + kSpecFile).isFile() && authoredDescriptorOfFolder(folder).isEmpty()) {
        message = QStringLiteral("%1 holds no spec.yaml, so it is not a kit folder").arg(dir);
        return false;
    }
    // Reading the file again first: another paddock may have changed it meanwhile.
    reload();
    if (!m_configError.isEmpty()) {
        message = QStringLiteral("%1 is not readable, so it was left as it is; fix it first (%2)")
                      .arg(m_configFile, m_configError);
        return false;
    }
    if (m_added.contains(folder) || importedDirectories().contains(folder))
        return true;
    for (const QString &root : std::as_const(m_sampleRoots)) {
        if (isInside(folder, root))
            return true;
    }

    QByteArray text = readConfigText();
    if (text.trimmed().isEmpty())
        text = kConfigHeader;
    const YamlEditOutcome outcome = YamlTextEdit::appendToSequence(text, kKitsPath, folder);
    if (outcome.status == YamlEditOutcome::Status::Failed) {
        message = QStringLiteral("cannot add %1 to %2: %3").arg(folder, m_configFile, outcome.error);
        return false;
    }
    if (!writeConfig(outcome.text, &message))
        return false;
    m_added << folder;
    if (changed)
        *changed = true;
    return true;
}

bool KitLibrary::forget(const QString &nameOrDir, QString *error, QString *forgottenDir)
{
    QString ignored;
    QString &message = error ? *error : ignored;
    reload();
    if (!m_configError.isEmpty()) {
        message = QStringLiteral("%1 is not readable, so it was left as it is; fix it first (%2)")
                      .arg(m_configFile, m_configError);
        return false;
    }

    QString folder = normalisedDir(nameOrDir);
    if (!m_added.contains(folder)) {
        // By name: only when exactly one added kit carries it.
        QStringList matches;
        for (const QString &dir : std::as_const(m_added)) {
            if (readEntry(dir, KitSource::Added).name == nameOrDir)
                matches << dir;
        }
        if (matches.size() > 1) {
            message = QStringLiteral("several added kits are named %1 (%2); name the folder instead")
                          .arg(nameOrDir, matches.join(QStringLiteral(", ")));
            return false;
        }
        if (matches.isEmpty()) {
            const QStringList imported = importedDirectories();
            if (std::any_of(imported.cbegin(), imported.cend(), [&](const QString &dir) {
                    return dir == folder || readEntry(dir, KitSource::Imported).name == nameOrDir;
                })) {
                message = QStringLiteral("%1 was imported from a bundle into %2; it stays in the library until its "
                                         "folder is deleted")
                              .arg(nameOrDir, m_importedRoot);
                return false;
            }
            const QStringList samples = sampleDirectories();
            const bool isSample = std::any_of(m_sampleRoots.cbegin(), m_sampleRoots.cend(),
                                              [&](const QString &root) { return isInside(folder, root); }) ||
                                  std::any_of(samples.cbegin(), samples.cend(), [&](const QString &dir) {
                                      return readEntry(dir, KitSource::Sample).name == nameOrDir;
                                  });
            message =
                isSample
                    ? QStringLiteral("%1 is a sample kit shipped with Paddock; it cannot be forgotten").arg(nameOrDir)
                    : QStringLiteral("no added kit is named %1 or lives in that folder (see paddock kit ls)")
                          .arg(nameOrDir);
            return false;
        }
        folder = matches.constFirst();
    }

    // Remove every item naming the folder, last first so the indices stay right.
    QByteArray text = readConfigText();
    const QStringList fileOrder = parseConfig(text, m_configFile).folders;
    for (qsizetype i = fileOrder.size() - 1; i >= 0; --i) {
        if (normalisedDir(fileOrder.at(i)) != folder && fileOrder.at(i) != folder)
            continue;
        const YamlEditOutcome outcome = YamlTextEdit::removeFromSequence(text, kKitsPath, int(i));
        if (outcome.status == YamlEditOutcome::Status::Failed && parseConfig(text, m_configFile).folders.size() == 1) {
            // The writer keeps a document from becoming empty; the last folder leaves an empty list.
            text = emptiedConfig(text);
            continue;
        }
        if (outcome.status == YamlEditOutcome::Status::Failed) {
            message = QStringLiteral("cannot remove %1 from %2: %3").arg(folder, m_configFile, outcome.error);
            return false;
        }
        text = outcome.text;
    }
    if (!writeConfig(text, &message))
        return false;
    m_added.removeAll(folder);
    if (forgottenDir)
        *forgottenDir = folder;
    return true;
}

QStringList KitLibrary::templateNames()
{
    return {QStringLiteral("sandbox"), QStringLiteral("mixin")};
}

QByteArray KitLibrary::templateText(const QString &name)
{
    if (!templateNames().contains(name))
        return {};
    QFile file(QStringLiteral(":/paddock/kit-templates/%1/spec.yaml").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QString KitLibrary::templateDescription(const QString &name)
{
    if (name == QLatin1String("sandbox"))
        return QCoreApplication::translate("paddock::kit::KitLibrary",
                                           "A complete sandbox: an image, the agent to start, what it may reach.");
    if (name == QLatin1String("mixin"))
        return QCoreApplication::translate("paddock::kit::KitLibrary",
                                           "A mixin: domains, variables and setup layered onto another kit.");
    return {};
}

QString KitLibrary::nameFromFolder(const QString &folderName)
{
    QString name = folderName.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name = name.left(64);
    while (name.startsWith(QLatin1Char('-')))
        name.remove(0, 1);
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("my-kit") : name;
}

bool KitLibrary::createFromTemplate(const QString &templateName, const QString &dir, const QString &kitName,
                                    QString *error)
{
    QString ignored;
    QString &message = error ? *error : ignored;
    const QByteArray text = templateText(templateName);
    if (text.isEmpty()) {
        message = QStringLiteral("there is no template %1 (templates: %2)")
                      .arg(templateName, templateNames().join(QStringLiteral(", ")));
        return false;
    }
    const QString folder = QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
    const QString specPath = folder + QLatin1Char('/') + kSpecFile;
    if (QFileInfo::exists(specPath)) {
        message = QStringLiteral("%1 already holds a spec.yaml; choose a new folder").arg(dir);
        return false;
    }
    const QString name = kitName.isEmpty() ? nameFromFolder(QFileInfo(folder).fileName()) : kitName;
    const YamlEditOutcome named = YamlTextEdit::setScalar(text, {QStringLiteral("name")}, name);
    if (named.status == YamlEditOutcome::Status::Failed) {
        message = named.error;
        return false;
    }
    const KitLoadResult check = KitLoader::loadText(named.text, specPath);
    if (!check.ok()) {
        const auto firstError = std::find_if(check.diagnostics.cbegin(), check.diagnostics.cend(),
                                             [](const Diagnostic &d) { return d.isError(); });
        message = firstError != check.diagnostics.cend() ? firstError->message
                                                         : QStringLiteral("the new kit does not validate");
        return false;
    }
    if (!QDir().mkpath(folder)) {
        message = QStringLiteral("cannot create the folder %1").arg(dir);
        return false;
    }
    return writeFileAtomically(specPath, named.text, error);
}

bool KitLibrary::copyKit(const QString &from, const QString &to, QString *error)
{
    QString ignored;
    QString &message = error ? *error : ignored;
    const QString source = normalisedDir(from);
    const QString target = QDir::cleanPath(QFileInfo(to).absoluteFilePath());
    if (!QFileInfo(source + QLatin1Char('/') + kSpecFile).isFile()) {
        message = QStringLiteral("%1 holds no spec.yaml").arg(from);
        return false;
    }
    if (QFileInfo::exists(target) && !QDir(target).isEmpty()) {
        message = QStringLiteral("%1 already exists and is not empty; choose a new folder").arg(to);
        return false;
    }
    if (isInside(target, source)) {
        message = QStringLiteral("cannot copy a kit into itself");
        return false;
    }
    if (!QDir().mkpath(target)) {
        message = QStringLiteral("cannot create the folder %1").arg(to);
        return false;
    }
    QDirIterator it(source, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info = it.fileInfo();
        const QString destination = target + QLatin1Char('/') + QDir(source).relativeFilePath(path);
        bool ok = true;
        if (info.isSymLink()) {
            // The link as written, so a relative link still points inside the copy.
            std::error_code ec;
            const std::filesystem::path written = std::filesystem::read_symlink(path.toStdString(), ec);
            ok = !ec && QFile::link(QString::fromStdString(written.string()), destination);
        } else if (info.isDir()) {
            ok = QDir().mkpath(destination);
        } else if (info.isFile()) {
            // Installed samples may be read-only; the copy is the user's to edit.
            ok = QFile::copy(path, destination) &&
                 QFile::setPermissions(destination, QFile::permissions(destination) | QFile::WriteOwner);
        }
        if (!ok) {
            message = QStringLiteral("cannot copy %1 to %2").arg(path, destination);
            return false;
        }
    }
    return true;
}

} // namespace paddock::kit
