// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/KitLoader.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::kit {

struct YamlEditOutcome;

/** The two lists of `permissions.network`. */
enum class NetworkList {
    Allow,
    Deny
};

/** When a descriptor's network-policy@1 list is in force: while the agent runs, or while the install hooks run. */
enum class NetworkPhase {
    Runtime,
    Install
};

/**
 * Which network-policy@1 request of a descriptor, and which of its phases, an edit of a network
 * list is about. A spec.yaml has only the default: its `permissions.network`.
 */
struct NetworkScope
{
    NetworkPhase phase = NetworkPhase::Runtime;
    /**
     * -1 for the kit's own request among the top-level capabilities (the first added pattern adds
     * it); else the index in `capabilities` of a `group:` whose network-policy@1 member is edited
     * where it is.
     */
    int group = -1;
};

/** "permissions.network.allow" or "permissions.network.deny". */
QString networkListPath(NetworkList list);

/** What one edit did, in a sentence without the file's name. */
struct KitEditResult
{
    enum class Status {
        Changed,   ///< the text changed
        Unchanged, ///< nothing to do: the kit already says that (an entry present, a value equal)
        Failed,    ///< refused; the text is as it was
    };
    Status status = Status::Failed;
    QString message; ///< "added github.com to permissions.network.allow", or why it failed

    bool changed() const { return status == Status::Changed; }
    bool failed() const { return status == Status::Failed; }
};

/**
 * @brief Edits a kit's spec.yaml as text, changing only the lines concerned.
 *
 * Comments, key order, quoting and line endings elsewhere in the file survive byte for
 * byte. A new list item or variable is one new line that copies its siblings'
 * indentation, dash spacing and quoting; a missing `permissions`, `network`, list or
 * `environment.variables` is added at the end of its nearest existing parent in the
 * file's own indentation. Removing the last item of a block list removes the list's
 * key, and `network`/`permissions` too when they are left empty, so adding then
 * removing a pattern gives back the original bytes; a flow list (`[a, b]`) is left as
 * `[]`. Network patterns compare case-insensitively.
 *
 * An authored schemaVersion "3" descriptor (STEM/STEM.yaml) is edited the same way: its
 * network lists are the runtime (or, with NetworkPhase::Install, install-phase) allow and deny
 * lists of its network-policy@1 request, which the first added pattern creates, or those of the
 * network-policy@1 member of a capability group (NetworkScope::group), edited inside the group;
 * a pattern is checked with the decoder's rule for entries. An emptied list goes with its key
 * and the `install:`/`runtime:` left empty; the kit's own request goes when nothing is left of
 * it, while a group's member stays in its group.
 *
 * Edits happen in memory; save() re-validates the result with KitLoader (the strict v3
 * decoder for a descriptor) and replaces the file atomically, or leaves it untouched.
 */
class KitEditor
{
public:
    /** Reads @p kitDir/spec.yaml, else its authored descriptor (or @p kitDir itself when it is a file). */
    static std::optional<KitEditor> open(const QString &kitDir, QString *error);
    /** An editor over text held in memory; @p filePath is where save() writes. */
    static KitEditor fromText(const QByteArray &text, const QString &filePath = {});

    QString filePath() const { return m_filePath; }
    QByteArray text() const { return m_text; }
    QByteArray originalText() const { return m_original; }
    bool isModified() const { return m_text != m_original; }

    /** The patterns of @p list as the file spells them (empty when there is no list). */
    QStringList networkPatterns(NetworkList list, NetworkScope scope = {}) const;
    KitEditResult addNetworkPattern(NetworkList list, const QString &pattern, NetworkScope scope = {});
    KitEditResult removeNetworkPattern(NetworkList list, const QString &pattern, NetworkScope scope = {});
    /** A descriptor's capability groups that hold a network-policy@1 member: their indexes in `capabilities`. */
    QList<int> networkPolicyGroups() const;

    KitEditResult setEnvironmentVariable(const QString &name, const QString &value);
    KitEditResult removeEnvironmentVariable(const QString &name);

    /** Sets a scalar field such as "description" or "sandbox.image" (dotted path). */
    KitEditResult setScalar(const QString &dottedPath, const QString &value);

    /** Diagnostics of the current text, from KitLoader::loadText. */
    QList<Diagnostic> validate() const;

    /**
     * Writes the text to filePath() when it is a valid kit. Refuses, leaving the file
     * as it was, when the kit would be invalid (the errors go to @p diagnostics), when
     * the file changed on disk since it was read, or when the write fails. Saving an
     * unmodified editor writes nothing and succeeds.
     */
    bool save(QString *error = nullptr, QList<Diagnostic> *diagnostics = nullptr);

    /** True for a schemaVersion "3" descriptor: its network lists are network-policy@1's runtime ones. */
    bool isV3Descriptor() const { return m_v3; }

private:
    /** What the strict reader says of @p text: KitLoader for a spec.yaml, the v3 decoder for a descriptor. */
    KitLoadResult check(const QByteArray &text) const;
    KitEditResult apply(const YamlEditOutcome &outcome, const QString &changedMessage, const QString &unchangedMessage);

    QString m_filePath;
    QByteArray m_text;
    QByteArray m_original;
    bool m_v3 = false;
};

} // namespace paddock::kit
