// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace paddock::kit {

/** What one text edit did: the new text, or why the text was left alone. */
struct YamlEditOutcome
{
    enum class Status {
        Changed,
        Unchanged,
        Failed
    };
    Status status = Status::Failed;
    QByteArray text; ///< the edited text when Changed, the input otherwise
    QString error;   ///< when Failed: one sentence a person can act on
};

/**
 * @brief Minimal-diff edits of a YAML document held as text.
 *
 * Each edit touches only the lines it concerns: a new list item or mapping entry is one
 * new line written in the habits of its siblings (indentation, dash spacing, quoting),
 * a removal deletes exactly the lines of what is removed, and a changed value replaces
 * only that value's bytes. Missing parent mappings are created in the file's own
 * indentation at the end of the nearest existing parent. Every result is parsed again
 * and compared with the expected document; an edit that would change anything else
 * fails instead. Paths name mapping keys from the top level ("permissions", "network",
 * "allow"); an element "[key=value]" selects the item of a sequence that is a mapping whose
 * `key` is that value ("capabilities", "[type=com.docker.sandbox/network-policy@1]", "config"),
 * and "[N]" the item at index N. Appending under a "[key=value]" item that does not exist adds
 * the item, holding `key: value` and the rest of the path, in its sequence's style; a removal
 * that would leave such an item with only that key removes the item.
 */
namespace YamlTextEdit {

/** Appends @p value to the sequence at @p path, creating the sequence and its parents. */
YamlEditOutcome appendToSequence(const QByteArray &text, const QStringList &path, const QString &value);

/**
 * Removes item @p index of the sequence at @p path. Removing the last item of a block
 * sequence removes its key, and every mapping left empty by that; a flow sequence is
 * left as "[]".
 */
YamlEditOutcome removeFromSequence(const QByteArray &text, const QStringList &path, int index);

/**
 * Sets the scalar at @p path to @p value, keeping its quoting style when the value can
 * be written in it; creates the entry and its parents when missing.
 */
YamlEditOutcome setScalar(const QByteArray &text, const QStringList &path, const QString &value);

/** Removes the mapping entry at @p path, and every mapping left empty by that. */
YamlEditOutcome removeEntry(const QByteArray &text, const QStringList &path);

} // namespace YamlTextEdit

} // namespace paddock::kit
