// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/YamlText.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace paddock::gui {

/** @brief One line of the difference between the file on disk and the edited text. */
struct KitTextChange
{
    enum class Kind {
        Removed,
        Added
    };
    Kind kind = Kind::Added;
    int line = 0; ///< 1-based: in the original for Removed, in the edited text for Added
    QString text;
};

/** @brief A diagnostic of the loader and the field (dotted YAML path) it is about. */
struct KitFieldDiagnostic
{
    kit::Diagnostic diagnostic;
    QString path; ///< "sandbox.image", "credentials.0.apiKey.inject.1.domain"; empty when unknown
};

/**
 * @brief A kit's spec.yaml being edited as text, field by field.
 *
 * Fields are named by dotted paths whose numeric parts index lists
 * ("credentials.0.apiKey.inject.1.domain"). Edits of fields outside lists go through the
 * minimal-diff writer (YamlTextEdit); edits inside list items replace exactly the bytes
 * of the value, or insert or delete exactly the lines of an entry or item, in the
 * indentation of their siblings. Every edit is parsed back and checked; one that would
 * not give the value asked for leaves the text as it was. Diagnostics of the strict
 * loader are recomputed after each change and mapped to the field they point at.
 */
class KitDocument
{
public:
    KitDocument() = default;
    KitDocument(QByteArray text, QString filePath);

    QByteArray text() const { return m_text; }
    QByteArray originalText() const { return m_original; }
    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_text != m_original; }
    /** An authored schemaVersion "3" descriptor, checked by the v3 decoder rather than the kit loader. */
    bool isV3() const { return m_v3; }

    /** Replaces the whole text (the YAML view); the text may be anything, even invalid YAML. */
    void setText(const QByteArray &text);
    /** Back to the text of the file as it was read. */
    void revert() { setText(m_original); }

    // Reading. Missing or non-scalar nodes read as empty.
    QString scalar(const QString &path) const;
    bool exists(const QString &path) const;
    int count(const QString &path) const;
    QStringList strings(const QString &path) const;
    QStringList keys(const QString &path) const;

    // Editing. Each returns false with @p error and leaves the text unchanged when refused.
    bool setScalar(const QString &path, const QString &value, QString *error = nullptr);
    /** Sets a boolean or number, written plain (`true`, `8080`) rather than as a quoted string. */
    bool setPlain(const QString &path, const QString &value, QString *error = nullptr);
    bool removeEntry(const QString &path, QString *error = nullptr);
    /** Appends a string, or a mapping of scalars (QVariantMap in key order given by @p keyOrder). */
    bool appendItem(const QString &listPath, const QVariant &item, QString *error = nullptr,
                    const QStringList &keyOrder = {});
    bool removeItem(const QString &listPath, int index, QString *error = nullptr);

    QList<KitFieldDiagnostic> diagnostics() const { return m_diagnostics; }
    int errorCount() const;
    int warningCount() const;
    /** Messages about @p path or anything under it. */
    QStringList messagesFor(const QString &path) const;

    /** The lines removed from and added to the original, in order. */
    QList<KitTextChange> changes() const;

    /**
     * Writes the text to filePath() atomically when it is a valid kit and the file did not
     * change on disk since it was read; the edited text becomes the original.
     */
    bool save(QString *error = nullptr);

private:
    bool applyText(const QByteArray &text, const QString &path, const QVariant &expected, QString *error);
    void revalidate();
    std::optional<kit::ScalarStyle> originalStyle(const QString &path) const;

    QByteArray m_text;
    QByteArray m_original;
    QString m_filePath;
    bool m_v3 = false;
    QList<KitFieldDiagnostic> m_diagnostics;
};

} // namespace paddock::gui
