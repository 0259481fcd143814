// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/Kit.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::kit {

/** @brief Where a kit of the library comes from. */
enum class KitSource {
    Added,    ///< a folder the user added; theirs to edit
    Imported, ///< written by `paddock bundle import` into the kits folder; theirs to edit
    Sample,   ///< shipped with Paddock; read-only, copied before editing
};

/** "added", "imported" or "sample". */
QString sourceName(KitSource source);

/** @brief One kit of the library as a list shows it: identity, origin and health. */
struct KitEntry
{
    QString directory; ///< absolute path of the kit folder
    KitSource source = KitSource::Added;
    QString name;        ///< `name:` as written; empty when the file cannot be read at all
    QString kind;        ///< `kind:` as written
    QString displayName; ///< `displayName:`, or empty
    QString version;
    QString description;
    QString reference;                     ///< a loaded OCI kit's image reference, else empty
    QString digest;                        ///< a loaded OCI kit's manifest digest, else empty
    QString schemaVersion;                 ///< "2" or "3" when the kit loads, else empty
    bool authored = false;                 ///< an authored v3 descriptor (STEM/STEM.yaml), edited in place
    QStringList provides;                  ///< a v3 kit's `provides`, arguments substituted
    QList<CapabilityOutcome> capabilities; ///< a v3 kit's requests and what each became here
    QList<Diagnostic> diagnostics;         ///< from KitLoader, or one error when the folder is gone
    int errorCount = 0;
    int warningCount = 0;

    bool valid() const { return errorCount == 0; }
    bool readOnly() const { return source == KitSource::Sample; }
};

/** The authored schemaVersion "3" descriptor a folder holds (STEM/STEM.yaml), or empty. */
QString authoredDescriptorOfFolder(const QString &directory);
/** Fills @p entry from the authored descriptor @p directory holds; false when it holds none. */
bool readAuthoredEntry(const QString &directory, KitEntry &entry);

/**
 * @brief The kits Paddock knows: folders the user added, kits imported from bundles, and the
 * samples it ships.
 *
 * Added folders are kept, one absolute path per item, in `configDir()/kits.yaml`:
 *
 *     kits:
 *       - /home/me/kits/pi
 *
 * The file is edited with the minimal-diff writer, so comments a user put there survive,
 * and replaced atomically. When it cannot be read, the library says where it is broken
 * and refuses to write it: an add or forget never overwrites a file it did not understand.
 *
 * Imported kits are the sub-folders holding a spec.yaml of the kits folder,
 * `paths::dataDir()/kits`, where `paddock bundle import` writes them (one folder per kit name;
 * hidden staging folders and symbolic links are not kits).
 *
 * Samples are the sub-folders holding a spec.yaml of each sample root: the installed
 * `share/paddock/kits` next to the executable, else `resources/kits` of the source tree
 * the program was built from; `PADDOCK_SAMPLE_KITS` (colon-separated folders) replaces both.
 */
class KitLibrary
{
public:
    /** A library over @p configFile, @p sampleRoots and @p importedRoot (for tests; the defaults otherwise). */
    explicit KitLibrary(QString configFile = defaultConfigFile(), QStringList sampleRoots = defaultSampleRoots(),
                        QString importedRoot = defaultImportedRoot());

    static QString defaultConfigFile();
    static QStringList defaultSampleRoots();
    /** The kits folder bundle imports write to: `paths::dataDir()/kits`. */
    static QString defaultImportedRoot();

    /**
     * Reads the configuration file again. Returns false with @p error ("FILE:LINE:COL:
     * MESSAGE") when it is not a list of folders; the library then lists samples only
     * and refuses to change the file.
     */
    bool reload(QString *error = nullptr);
    /** The error of the last reload(), empty when the file was read (or does not exist). */
    QString configError() const { return m_configError; }
    QString configFile() const { return m_configFile; }
    QStringList sampleRoots() const { return m_sampleRoots; }
    QString importedRoot() const { return m_importedRoot; }

    /** The added folders, in the order they were added. */
    QStringList addedDirectories() const { return m_added; }
    /** The sample kit folders, sorted by folder name. */
    QStringList sampleDirectories() const;
    /** The imported kit folders, sorted by folder name; an added folder is not listed again. */
    QStringList importedDirectories() const;

    /** Every kit, added ones first, then imported ones, then samples, each read and validated now. */
    QList<KitEntry> entries() const;
    /** Reads one kit folder as entries() does. */
    static KitEntry readEntry(const QString &directory, KitSource source);

    /**
     * The kit named @p nameOrDir: an added or sample folder (as given or made absolute),
     * else the kit whose `name:` is that, added kits first.
     */
    std::optional<KitEntry> find(const QString &nameOrDir) const;

    /**
     * The kit folder a command-line or window argument names. A library name is looked up first
     * (added and imported kits before samples, which they may shadow); an argument with a slash,
     * or the name of an existing folder, is a path. Returns the absolute folder, or nothing with
     * @p error saying what was looked up where ("no kit named X in the library (paddock kit ls
     * lists them) and no folder X"). Two kits of the user's own with the name are refused as
     * ambiguous, naming both folders. The folder is not loaded: its kit may still be invalid.
     */
    std::optional<QString> resolve(const QString &nameOrPath, QString *error) const;

    /**
     * Adds the kit folder @p dir (it must hold a spec.yaml; the kit may still be invalid).
     * Adding a folder already there, or a sample, succeeds and changes nothing;
     * @p changed says which.
     */
    bool add(const QString &dir, QString *error = nullptr, bool *changed = nullptr);

    /** Removes an added kit, by folder or name, from the library. Its files are untouched. */
    bool forget(const QString &nameOrDir, QString *error = nullptr, QString *forgottenDir = nullptr);

    /** The templates for a new kit: "sandbox" and "mixin". */
    static QStringList templateNames();
    /** The spec.yaml of template @p name, or an empty array. */
    static QByteArray templateText(const QString &name);
    /** What template @p name makes, in a sentence. */
    static QString templateDescription(const QString &name);

    /**
     * Writes a new kit from template @p templateName into @p dir (created; it must not
     * hold a spec.yaml yet), named @p kitName (default: derived from the folder name).
     */
    static bool createFromTemplate(const QString &templateName, const QString &dir, const QString &kitName = {},
                                   QString *error = nullptr);

    /** A valid kit name (`^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`) derived from @p folderName. */
    static QString nameFromFolder(const QString &folderName);

    /**
     * Copies the kit folder @p from (spec.yaml and the files/ tree) to @p to, which must not
     * exist or be empty. Used to make an editable copy of a sample.
     */
    static bool copyKit(const QString &from, const QString &to, QString *error = nullptr);

private:
    bool writeConfig(const QByteArray &text, QString *error);
    QByteArray readConfigText() const;

    QString m_configFile;
    QStringList m_sampleRoots;
    QString m_importedRoot;
    QStringList m_added;
    QString m_configError;
};

} // namespace paddock::kit
