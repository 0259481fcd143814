// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bundle/BundleManifest.h"
#include "bundle/TarArchive.h"
#include "kit/Kit.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::bundle {

/** @brief What `paddock bundle export` is asked to pack. */
struct ExportRequest
{
    QString kitDir;
    bool includePolicy = false; ///< carry the preset and the global and kit rules of policy.yaml
    QString policyPath;         ///< empty: PolicyStore::defaultPath()
    QString notes;              ///< text shown to students on import
    QString engine;             ///< the engine students' sandboxes run on, by name; empty: none
};

/** @brief A packed bundle, or why there is none. */
struct ExportResult
{
    QString error; ///< empty on success
    QByteArray archive;
    BundleManifest manifest;
    int fileCount = 0;
    qint64 bytes = 0; ///< the kit's files, unpacked

    bool ok() const { return error.isEmpty(); }
};

/**
 * Packs the kit in @p request.kitDir (which must validate) into a `.paddock` archive:
 * `manifest.json` then the kit under `kit/`. Symbolic links and special files in the kit are
 * refused rather than followed; `.git` folders are left out. Secrets are listed by name and
 * description from the kit's credentials, never with a value.
 */
ExportResult exportBundle(const ExportRequest &request);

/** @brief A bundle read and checked in memory: nothing written yet. */
struct OpenedBundle
{
    BundleManifest manifest;
    kit::Kit kit;               ///< loaded from the bundle's spec.yaml
    QList<TarEntry> kitEntries; ///< paths relative to the kit folder
    qint64 kitBytes = 0;
    QStringList warnings; ///< the kit's own warnings, and mismatches with the manifest
};

/** @brief An opened bundle, or the reason it was refused. */
struct OpenResult
{
    std::optional<OpenedBundle> bundle;
    QString error;
};

/**
 * Reads @p archive as hostile input: the limits of @p limits, every member checked (see
 * readTar()), the manifest strict, every member inside `kit/` except the manifest, and the
 * kit's spec.yaml valid and named as the manifest says.
 */
OpenResult openBundleData(const QByteArray &archive, const TarLimits &limits = {});
/** openBundleData() on a file, refusing one larger than the limits allow before reading it. */
OpenResult openBundle(const QString &file, const TarLimits &limits = {});

/** @brief Where and how an import writes. */
struct ImportOptions
{
    /// The kit folder to create; empty: `paths::dataDir()/kits/NAME`. Either way its last
    /// component must be a kit name, and it is created directly inside its parent resolved.
    QString destination;
    QString policyPath;   ///< empty: PolicyStore::defaultPath()
    bool replace = false; ///< replace an existing kit folder at the destination
};

/** @brief One rule of the bundle as it relates to the importer's policy. */
struct PlannedRule
{
    BundleRule rule;
    bool alreadyPresent = false;
};

/** @brief Everything an import will change, computed without writing anything. */
struct ImportPlan
{
    QString destination;
    bool replacesExisting = false;
    int fileCount = 0;
    qint64 bytes = 0;
    bool hasPolicy = false;
    policy::Preset currentPreset = policy::Preset::DenyAll;
    policy::Preset newPreset = policy::Preset::DenyAll;
    QList<PlannedRule> rules;
    QList<BundleSecret> secrets; ///< from the kit's credentials
    QString notes;
    bool hasDockerfile = false;
    QString image; ///< the kit's sandbox.image
    /** The kit carries pi-permission-system's rules (agentperms::kitConfigRelativePath()). */
    bool hasAgentRules = false;
    QStringList agentRules;        ///< one line per surface (agentperms::describeRules())
    QStringList agentRuleProblems; ///< where the file does not parse or follow the schema

    bool presetChanges() const { return hasPolicy && newPreset != currentPreset; }
    int rulesToAdd() const;
};

/**
 * Works out what importing @p bundle would change. Reads policy.yaml; writes nothing. The
 * destination is refused unless it is a kit name directly inside the kits folder (or the
 * parent of `--into`), resolved through symbolic links; an existing link there is refused.
 */
std::optional<ImportPlan> planImport(const OpenedBundle &bundle, const ImportOptions &options, QString *error);

/**
 * Carries out @p plan: the kit is written to a staging folder beside the destination,
 * validated there, then renamed into place (the old one, with `replace`, moved away only
 * then); the preset and rules are applied last, and a failure there puts the previous kit
 * folder back. A failed import leaves no partial kit folder. The destination is checked
 * again as planImport() checks it, so a plan made by hand, or a kits folder replaced by a
 * link since the preview, is refused before anything is written.
 */
bool applyImport(const OpenedBundle &bundle, const ImportPlan &plan, const ImportOptions &options, QString *error);

/** The secrets a student must provide for @p kit: its credentials, without values. */
QList<BundleSecret> secretsOf(const kit::Kit &kit);

} // namespace paddock::bundle
