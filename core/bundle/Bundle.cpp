// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/Bundle.h"

#include "agentperms/ScopeFile.h"

#include "common/Paths.h"
#include "kit/KitLoader.h"
#include "kit/KitRules.h"
#include "paddock/Version.h"
#include "policy/PolicyStore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSet>
#include <QTemporaryDir>
#include <QUuid>

#include <algorithm>

Q_LOGGING_CATEGORY(lcBundle, "paddock.bundle")

namespace paddock::bundle {

namespace {

QString resolvedPolicyPath(const QString &path)
{
    return path.isEmpty() ? policy::PolicyStore::defaultPath() : path;
}

/** policy.yaml as it is on disk, without the store's watcher; a missing file is the default policy. */
std::optional<policy::PolicyData> readPolicy(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.exists())
        return policy::PolicyData{};
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    auto parsed = policy::PolicyStore::parse(file.readAll(), path);
    if (const auto *problem = std::get_if<policy::PolicyError>(&parsed)) {
        *error = QStringLiteral("the policy file is not usable: %1").arg(problem->toString());
        return std::nullopt;
    }
    return std::get<policy::PolicyData>(parsed);
}

QString firstError(const kit::KitLoadResult &result)
{
    for (const kit::Diagnostic &d : result.diagnostics) {
        if (d.isError())
            return d.toString();
    }
    return QStringLiteral("the kit does not load");
}

/** The kit folder's members, sorted, or an error naming a link or special file. */
bool collectKitEntries(const QString &kitDir, QList<TarEntry> *entries, qint64 *bytes, QString *error)
{
    const TarLimits limits;
    QDirIterator it(kitDir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    QStringList paths;
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(kitDir).relativeFilePath(path);
        // A git checkout of a kit carries its history; students need the kit only.
        if (relative == QLatin1String(".git") || relative.startsWith(QLatin1String(".git/")))
            continue;
        paths << relative;
    }
    std::sort(paths.begin(), paths.end());
    for (const QString &relative : std::as_const(paths)) {
        const QFileInfo info(kitDir + QLatin1Char('/') + relative);
        if (info.isSymLink()) {
            *error = QStringLiteral("the kit holds a symbolic link, '%1': a bundle carries files and folders only")
                         .arg(relative);
            return false;
        }
        TarEntry entry;
        entry.path = BundleManifest::kitFolder() + QLatin1Char('/') + relative;
        if (info.isDir()) {
            entry.type = TarEntry::Type::Directory;
        } else if (info.isFile()) {
            if (info.size() > limits.maxEntrySize) {
                *error = QStringLiteral("'%1' is larger than a bundle allows (%2 bytes)")
                             .arg(relative)
                             .arg(limits.maxEntrySize);
                return false;
            }
            QFile file(info.filePath());
            if (!file.open(QIODevice::ReadOnly)) {
                *error = QStringLiteral("cannot read %1: %2").arg(info.filePath(), file.errorString());
                return false;
            }
            entry.data = file.readAll();
            entry.executable = info.permissions() & QFileDevice::ExeOwner;
            *bytes += entry.data.size();
        } else {
            *error = QStringLiteral("the kit holds '%1', which is neither a file nor a folder").arg(relative);
            return false;
        }
        entries->append(std::move(entry));
        if (entries->size() >= limits.maxEntries || *bytes > limits.maxTotalSize) {
            *error = QStringLiteral("the kit is larger than a bundle allows (%1 entries, %2 bytes)")
                         .arg(limits.maxEntries)
                         .arg(limits.maxTotalSize);
            return false;
        }
    }
    return true;
}

/**
 * @p folder, absolute, with symbolic links resolved in the part that exists; the folders
 * that do not exist yet are appended as they are. Empty when a missing part is a dangling
 * link (it would be followed once created) or the existing part cannot be resolved.
 */
QString resolvedFolder(const QString &folder)
{
    QString existing = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    QStringList missing;
    while (!QFileInfo::exists(existing)) {
        const QFileInfo info(existing);
        if (info.isSymLink() || info.fileName().isEmpty())
            return {};
        missing.prepend(info.fileName());
        existing = info.path();
    }
    const QString canonical = QFileInfo(existing).canonicalFilePath();
    if (canonical.isEmpty())
        return {};
    return missing.isEmpty() ? canonical : QDir(canonical).filePath(missing.join(QLatin1Char('/')));
}

/**
 * The kit folder @p name directly inside @p kitsFolder, resolved: @p name must be a kit
 * name, which can hold no '/', '.' or '..', and the result's parent must be the resolved
 * kits folder itself. Whatever a bundle says, an import writes nowhere else.
 */
std::optional<QString> kitFolderIn(const QString &kitsFolder, const QString &name, QString *error)
{
    if (!kit::rules::isValidKitName(name)) {
        *error = QStringLiteral("refusing to write the kit folder '%1' in %2: '%1' is not a kit name (1-64 lowercase "
                                "letters, digits and inner hyphens), so it could lead outside the kits folder")
                     .arg(name, kitsFolder);
        return std::nullopt;
    }
    const QString folder = resolvedFolder(kitsFolder);
    if (folder.isEmpty()) {
        *error = QStringLiteral("refusing to write the kit folder '%1': the kits folder %2 cannot be resolved")
                     .arg(name, kitsFolder);
        return std::nullopt;
    }
    const QString destination = QDir(folder).filePath(name);
    const QFileInfo info(destination);
    if (info.path() != folder || info.fileName() != name) {
        *error = QStringLiteral("refusing to write %1: it is not a folder directly inside %2").arg(destination, folder);
        return std::nullopt;
    }
    return destination;
}

/** The kit folder an import with @p options writes, checked (see kitFolderIn()). */
std::optional<QString> importDestination(const QString &kitName, const ImportOptions &options, QString *error)
{
    if (options.destination.isEmpty())
        return kitFolderIn(paths::dataDir() + QStringLiteral("/kits"), kitName, error);
    // --into DIR names the kit folder itself; it is held to the same rule inside its parent.
    const QFileInfo into(QDir::cleanPath(QFileInfo(options.destination).absoluteFilePath()));
    return kitFolderIn(into.path(), into.fileName(), error);
}

/**
 * Whether @p plan writes where @p options say: applyImport() may be given a plan it did not
 * make, or the kits folder may have been replaced by a link since the preview.
 */
bool planStillConfined(const OpenedBundle &bundle, const ImportPlan &plan, const ImportOptions &options, QString *error)
{
    const std::optional<QString> expected = importDestination(bundle.kit.name, options, error);
    if (!expected)
        return false;
    if (plan.destination != *expected) {
        *error = QStringLiteral("refusing to write %1: importing '%2' with these options writes %3 (was the kits "
                                "folder %4 replaced since the preview?)")
                     .arg(plan.destination, bundle.kit.name, *expected,
                          options.destination.isEmpty() ? paths::dataDir() + QStringLiteral("/kits")
                                                        : QFileInfo(options.destination).absolutePath());
        return false;
    }
    if (QFileInfo(plan.destination).isSymLink()) {
        *error = QStringLiteral("refusing to write %1: it is a symbolic link").arg(plan.destination);
        return false;
    }
    return true;
}

/** Writes the kit's members into @p root, which this process has just created. */
bool writeEntries(const QString &root, const QList<TarEntry> &entries, QString *error)
{
    for (const TarEntry &entry : entries) {
        // readTar() already refused '..' and absolute paths; this keeps that true here too.
        const QString target = QDir::cleanPath(root + QLatin1Char('/') + entry.path);
        if (!target.startsWith(QDir::cleanPath(root) + QLatin1Char('/'))) {
            *error = QStringLiteral("entry '%1' leads outside the kit folder").arg(entry.path);
            return false;
        }
        if (entry.type == TarEntry::Type::Directory) {
            if (!QDir().mkpath(target)) {
                *error = QStringLiteral("cannot create the folder %1").arg(target);
                return false;
            }
            continue;
        }
        if (!QDir().mkpath(QFileInfo(target).path())) {
            *error = QStringLiteral("cannot create the folder %1").arg(QFileInfo(target).path());
            return false;
        }
        // NewOnly: nothing in the fresh staging folder may be written twice or through a link.
        QFile file(target);
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly) || file.write(entry.data) != entry.data.size() ||
            !file.flush()) {
            *error = QStringLiteral("cannot write %1: %2").arg(target, file.errorString());
            return false;
        }
        QFileDevice::Permissions mode =
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
        if (entry.executable)
            mode |= QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther;
        file.setPermissions(mode);
    }
    return true;
}

QString siblingPath(const QString &destination, const QString &what)
{
    const QFileInfo info(destination);
    return info.path() +
           QStringLiteral("/.%1.%2-%3").arg(info.fileName(), what, QUuid::createUuid().toString(QUuid::Id128).left(12));
}

bool applyPolicy(const ImportPlan &plan, const ImportOptions &options, QString *error)
{
    if (!plan.hasPolicy)
        return true;
    policy::PolicyStore store(resolvedPolicyPath(options.policyPath));
    if (!store.load()) {
        *error = store.lastError() ? store.lastError()->toString() : QStringLiteral("cannot read the policy file");
        return false;
    }
    if (plan.presetChanges()) {
        const policy::StoreResult result = store.setPreset(plan.newPreset);
        if (!result.ok()) {
            *error = result.error().text();
            return false;
        }
    }
    for (const PlannedRule &planned : plan.rules) {
        if (planned.alreadyPresent)
            continue;
        const policy::StoreResult result =
            store.addRule(planned.rule.scope, planned.rule.verdict, planned.rule.pattern);
        if (!result.ok()) {
            *error = result.error().text();
            return false;
        }
    }
    return true;
}

} // namespace

QList<BundleSecret> secretsOf(const kit::Kit &kit)
{
    QList<BundleSecret> secrets;
    for (const kit::Credential &credential : kit.credentials) {
        BundleSecret secret;
        secret.service = credential.service;
        secret.description = credential.description;
        secret.required = credential.required;
        if (credential.apiKey) {
            secret.variable = credential.apiKey->name;
            for (const kit::Injection &injection : credential.apiKey->inject)
                secret.domains.append(injection.domain);
        }
        if (credential.oauth)
            secret.domains.append(credential.oauth->resourceHosts);
        secret.domains.removeDuplicates();
        secrets.append(secret);
    }
    return secrets;
}

int ImportPlan::rulesToAdd() const
{
    return int(
        std::count_if(rules.cbegin(), rules.cend(), [](const PlannedRule &rule) { return !rule.alreadyPresent; }));
}

ExportResult exportBundle(const ExportRequest &request)
{
    ExportResult result;
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(request.kitDir, {});
    if (!loaded.ok()) {
        result.error = QStringLiteral("the kit does not validate: %1").arg(firstError(loaded));
        return result;
    }
    // The name becomes the importer's folder name; the loader checks it, and so does the packer.
    if (!kit::rules::isValidKitName(loaded.kit->name)) {
        result.error = QStringLiteral("refusing to pack the kit: its name '%1' is not a kit name (1-64 lowercase "
                                      "letters, digits and inner hyphens)")
                           .arg(loaded.kit->name);
        return result;
    }
    BundleManifest &manifest = result.manifest;
    manifest.createdBy = QStringLiteral("paddock ") + QLatin1String(kVersion);
    manifest.kitName = loaded.kit->name;
    manifest.secrets = secretsOf(*loaded.kit);
    manifest.notes = request.notes;
    manifest.engine = request.engine;
    if (!manifest.engine.isEmpty() && !BundleManifest::validEngineName(manifest.engine)) {
        result.error =
            QStringLiteral("'%1' is not an engine's name (letters, digits, '.', '_' and '-')").arg(manifest.engine);
        return result;
    }
    if (manifest.notes.size() > 64 * 1024) {
        result.error = QStringLiteral("the notes are longer than 64 KiB");
        return result;
    }
    if (request.includePolicy) {
        QString error;
        const std::optional<policy::PolicyData> data = readPolicy(resolvedPolicyPath(request.policyPath), &error);
        if (!data) {
            result.error = error;
            return result;
        }
        BundlePolicy bundlePolicy;
        bundlePolicy.preset = data->preset;
        // Rules for one sandbox name mean nothing on another machine; global ones and the
        // kit's own travel. Preset and kit rules are already carried by the preset and the kit.
        for (const policy::Rule &rule : data->rules) {
            const bool portable =
                rule.scope.kind == policy::Scope::Kind::Global || rule.scope == policy::Scope::kit(manifest.kitName);
            if (portable && (rule.origin == policy::Origin::User || rule.origin == policy::Origin::Approval))
                bundlePolicy.rules.append({rule.verdict, rule.pattern.toString(), rule.scope});
        }
        manifest.policy = bundlePolicy;
    }

    QList<TarEntry> entries;
    entries.append({BundleManifest::fileName(), TarEntry::Type::File, false,
                    QJsonDocument(manifest.toJson()).toJson(QJsonDocument::Indented)});
    entries.append({BundleManifest::kitFolder(), TarEntry::Type::Directory, false, {}});
    QList<TarEntry> kitEntries;
    if (!collectKitEntries(request.kitDir, &kitEntries, &result.bytes, &result.error))
        return result;
    result.fileCount = int(std::count_if(kitEntries.cbegin(), kitEntries.cend(),
                                         [](const TarEntry &e) { return e.type == TarEntry::Type::File; }));
    entries.append(kitEntries);
    result.archive = writeTar(entries, &result.error);
    qCInfo(lcBundle) << "packed kit" << manifest.kitName << "with" << result.fileCount << "files";
    return result;
}

OpenResult openBundle(const QString &file, const TarLimits &limits)
{
    OpenResult result;
    QFile input(file);
    if (!input.open(QIODevice::ReadOnly)) {
        result.error = QStringLiteral("cannot open %1: %2").arg(file, input.errorString());
        return result;
    }
    // The headers and padding add at most one block per entry and a few at the end.
    const qint64 bound = limits.maxTotalSize + qint64(limits.maxEntries + 2) * 1024 + 10240;
    if (input.size() > bound) {
        result.error = QStringLiteral("%1 is larger than a bundle may be (%2 bytes)").arg(file).arg(bound);
        return result;
    }
    return openBundleData(input.read(bound), limits);
}

OpenResult openBundleData(const QByteArray &archive, const TarLimits &limits)
{
    OpenResult result;
    TarReadResult read = readTar(archive, limits);
    if (!read.ok()) {
        result.error = read.error;
        return result;
    }
    if (read.entries.isEmpty() || read.entries.first().path != BundleManifest::fileName() ||
        read.entries.first().type != TarEntry::Type::File) {
        result.error =
            QStringLiteral("not a Paddock bundle: the archive does not start with %1").arg(BundleManifest::fileName());
        return result;
    }
    OpenedBundle bundle;
    QString error;
    const std::optional<BundleManifest> manifest = BundleManifest::fromJson(read.entries.first().data, &error);
    if (!manifest) {
        result.error = error;
        return result;
    }
    bundle.manifest = *manifest;
    const QString prefix = BundleManifest::kitFolder() + QLatin1Char('/');
    qsizetype spec = -1;
    for (qsizetype i = 1; i < read.entries.size(); ++i) {
        TarEntry &entry = read.entries[i];
        if (entry.path == BundleManifest::kitFolder() && entry.type == TarEntry::Type::Directory)
            continue;
        if (!entry.path.startsWith(prefix)) {
            result.error = QStringLiteral("entry '%1' is outside the bundle's kit folder").arg(entry.path);
            return result;
        }
        entry.path = entry.path.mid(prefix.size());
        bundle.kitBytes += entry.data.size();
        bundle.kitEntries.append(std::move(entry));
        if (bundle.kitEntries.last().path == QLatin1String("spec.yaml") &&
            bundle.kitEntries.last().type == TarEntry::Type::File)
            spec = bundle.kitEntries.size() - 1;
    }
    if (spec < 0) {
        result.error = QStringLiteral("the bundle's kit has no spec.yaml");
        return result;
    }
    const kit::KitLoadResult loaded =
        kit::KitLoader::loadText(bundle.kitEntries.at(spec).data, QStringLiteral("spec.yaml"), {});
    if (!loaded.ok()) {
        result.error = QStringLiteral("the bundle's kit does not validate: %1").arg(firstError(loaded));
        return result;
    }
    bundle.kit = *loaded.kit;
    if (bundle.kit.name != bundle.manifest.kitName) {
        result.error = QStringLiteral("the manifest names the kit '%1' but its spec.yaml says '%2'")
                           .arg(bundle.manifest.kitName, bundle.kit.name);
        return result;
    }
    for (const kit::Diagnostic &d : loaded.diagnostics)
        bundle.warnings << d.toString();
    if (secretsOf(bundle.kit) != bundle.manifest.secrets)
        bundle.warnings << QStringLiteral(
            "the manifest's list of secrets differs from the kit's credentials; the kit's "
            "credentials are shown");
    result.bundle = std::move(bundle);
    return result;
}

// The agent's own rules the kit carries, for the preview: a student sees what the agent will
// be refused before importing.
static void describeAgentRules(const QByteArray &data, ImportPlan *plan)
{
    agentperms::ScopeFile file;
    file.scope = QStringLiteral("global");
    file.setText(QString::fromUtf8(data));
    plan->hasAgentRules = true;
    plan->agentRules = agentperms::describeRules(file.config);
    if (!file.parseError.isEmpty())
        plan->agentRuleProblems << file.parseError;
    for (const agentperms::ConfigProblem &problem : std::as_const(file.problems))
        plan->agentRuleProblems << problem.toString();
}

std::optional<ImportPlan> planImport(const OpenedBundle &bundle, const ImportOptions &options, QString *error)
{
    ImportPlan plan;
    const std::optional<QString> destination = importDestination(bundle.kit.name, options, error);
    if (!destination)
        return std::nullopt;
    plan.destination = *destination;
    const QFileInfo existing(plan.destination);
    if (existing.exists() || existing.isSymLink()) {
        if (!existing.isDir() || existing.isSymLink()) {
            *error = QStringLiteral("%1 exists and is not a folder").arg(plan.destination);
            return std::nullopt;
        }
        if (!options.replace) {
            *error = QStringLiteral("%1 already exists; pass --replace to replace it").arg(plan.destination);
            return std::nullopt;
        }
        plan.replacesExisting = true;
    }
    for (const TarEntry &entry : bundle.kitEntries) {
        if (entry.type == TarEntry::Type::File)
            ++plan.fileCount;
        if (entry.path == QLatin1String("Dockerfile"))
            plan.hasDockerfile = true;
        if (entry.path == agentperms::kitConfigRelativePath())
            describeAgentRules(entry.data, &plan);
    }
    plan.bytes = bundle.kitBytes;
    plan.secrets = secretsOf(bundle.kit);
    plan.notes = bundle.manifest.notes;
    if (bundle.kit.sandbox)
        plan.image = bundle.kit.sandbox->image;

    if (bundle.manifest.policy) {
        const std::optional<policy::PolicyData> current = readPolicy(resolvedPolicyPath(options.policyPath), error);
        if (!current)
            return std::nullopt;
        plan.hasPolicy = true;
        plan.currentPreset = current->preset;
        plan.newPreset = bundle.manifest.policy->preset;
        QSet<QString> ids;
        for (const policy::Rule &rule : current->rules)
            ids.insert(rule.id);
        for (const BundleRule &rule : bundle.manifest.policy->rules) {
            if (!(rule.scope.kind == policy::Scope::Kind::Global ||
                  rule.scope == policy::Scope::kit(bundle.kit.name))) {
                *error = QStringLiteral("the bundle's rule '%1' has scope %2; a bundle may set global rules and rules "
                                        "for its own kit only")
                             .arg(rule.pattern, rule.scope.toString());
                return std::nullopt;
            }
            const Result<policy::HostPattern> parsed =
                policy::HostPattern::parse(rule.pattern, policy::patternContextFor(rule.verdict, policy::Origin::User));
            if (!parsed) {
                *error =
                    QStringLiteral("the bundle's rule '%1' is invalid: %2").arg(rule.pattern, parsed.error().message);
                return std::nullopt;
            }
            plan.rules.append({rule, ids.contains(policy::ruleIdFor(rule.scope, rule.verdict, parsed.value()))});
        }
    }
    return plan;
}

bool applyImport(const OpenedBundle &bundle, const ImportPlan &plan, const ImportOptions &options, QString *error)
{
    if (!planStillConfined(bundle, plan, options, error))
        return false;
    const QString parent = QFileInfo(plan.destination).path();
    if (!QDir().mkpath(parent)) {
        *error = QStringLiteral("cannot create the folder %1").arg(parent);
        return false;
    }
    // The parent was resolved through every link already: one that leads elsewhere now was
    // replaced while it was being created.
    if (const QString resolved = QFileInfo(parent).canonicalFilePath(); resolved != parent) {
        *error = QStringLiteral("refusing to write %1: the kits folder %2 now leads to %3")
                     .arg(plan.destination, parent, resolved);
        return false;
    }
    // Staged beside the destination, so the final step is a rename on one file system.
    QTemporaryDir staging(siblingPath(plan.destination, QStringLiteral("import")) + QStringLiteral("-XXXXXX"));
    if (!staging.isValid()) {
        *error = QStringLiteral("cannot create a staging folder in %1: %2").arg(parent, staging.errorString());
        return false;
    }
    if (!writeEntries(staging.path(), bundle.kitEntries, error))
        return false;
    const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(staging.path(), {});
    if (!loaded.ok()) {
        *error = QStringLiteral("the bundle's kit does not validate: %1").arg(firstError(loaded));
        return false;
    }
    QFile::setPermissions(staging.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                              QFileDevice::ExeOther);

    QString previous;
    if (QFileInfo::exists(plan.destination)) {
        if (!options.replace) {
            *error = QStringLiteral("%1 already exists; pass --replace to replace it").arg(plan.destination);
            return false;
        }
        previous = siblingPath(plan.destination, QStringLiteral("previous"));
        if (!QDir().rename(plan.destination, previous)) {
            *error = QStringLiteral("cannot move the existing %1 aside").arg(plan.destination);
            return false;
        }
    }
    const auto restorePrevious = [&] {
        if (!previous.isEmpty())
            QDir().rename(previous, plan.destination);
    };
    if (!QDir().rename(staging.path(), plan.destination)) {
        restorePrevious();
        *error = QStringLiteral("cannot move the kit into %1").arg(plan.destination);
        return false;
    }
    staging.setAutoRemove(false);
    if (!applyPolicy(plan, options, error)) {
        QDir(plan.destination).removeRecursively();
        restorePrevious();
        *error = QStringLiteral("the policy could not be changed, nothing was imported: %1").arg(*error);
        return false;
    }
    if (!previous.isEmpty())
        QDir(previous).removeRecursively();
    qCInfo(lcBundle) << "imported kit" << bundle.kit.name << "into" << plan.destination;
    return true;
}

} // namespace paddock::bundle
