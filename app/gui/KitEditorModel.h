// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "KitDocument.h"

#include <QFileInfo>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The Kits page's editor: one kit's spec.yaml (or authored v3 descriptor), its form
 * fields and its YAML text.
 *
 * The form and the text view edit the same text (KitDocument); after every change the
 * strict loader checks it again and each diagnostic is mapped to the field it is about,
 * so a field shows its own message as the user types. Fields are named by dotted paths
 * ("sandbox.image", "credentials.0.apiKey.inject.1.domain"); QML reads them through
 * value(), count(), strings() and keys(), which it re-reads when `revision` changes.
 * save() goes through the minimal-diff text and replaces spec.yaml atomically. Sample
 * kits open read-only: every edit is refused until they are copied.
 */
class KitEditorModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString directory READ directory NOTIFY openedChanged)
    Q_PROPERTY(QString filePath READ filePath NOTIFY openedChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY openedChanged)
    Q_PROPERTY(bool readOnly READ readOnly NOTIFY openedChanged)
    Q_PROPERTY(bool isV3 READ isV3 NOTIFY openedChanged)
    Q_PROPERTY(QString fileName READ fileName NOTIFY openedChanged)
    Q_PROPERTY(QString stem READ stem NOTIFY openedChanged)
    Q_PROPERTY(QString text READ text NOTIFY revisionChanged)
    Q_PROPERTY(int revision READ revision NOTIFY revisionChanged)
    Q_PROPERTY(bool modified READ modified NOTIFY revisionChanged)
    Q_PROPERTY(int errorCount READ errorCount NOTIFY revisionChanged)
    Q_PROPERTY(int warningCount READ warningCount NOTIFY revisionChanged)
    Q_PROPERTY(QVariantList diagnostics READ diagnostics NOTIFY revisionChanged)
    Q_PROPERTY(QVariantList changes READ changes NOTIFY revisionChanged)
    Q_PROPERTY(QString message READ message NOTIFY messageChanged)

public:
    explicit KitEditorModel(QObject *parent = nullptr);

    QString directory() const { return m_directory; }
    QString filePath() const { return m_document.filePath(); }
    bool loaded() const { return m_loaded; }
    bool readOnly() const { return m_readOnly; }
    /** An authored schemaVersion "3" descriptor (STEM/STEM.yaml) rather than a spec.yaml. */
    bool isV3() const { return m_document.isV3(); }
    QString fileName() const { return QFileInfo(m_document.filePath()).fileName(); }
    /** A descriptor's name: its file name without the extension. */
    QString stem() const { return QFileInfo(m_document.filePath()).completeBaseName(); }
    QString text() const { return QString::fromUtf8(m_document.text()); }
    int revision() const { return m_revision; }
    bool modified() const { return m_document.isModified(); }
    int errorCount() const { return m_document.errorCount(); }
    int warningCount() const { return m_document.warningCount(); }
    QVariantList diagnostics() const;
    QVariantList changes() const;
    QString message() const { return m_message; }

    /**
     * Reads DIR/spec.yaml, else DIR's authored schemaVersion "3" descriptor (DIR may also be the
     * descriptor file). Returns false with `message` set when it cannot be read.
     */
    Q_INVOKABLE bool open(const QString &directory, bool readOnly);
    Q_INVOKABLE void close();

    Q_INVOKABLE QString value(const QString &path) const { return m_document.scalar(path); }
    Q_INVOKABLE bool exists(const QString &path) const { return m_document.exists(path); }
    Q_INVOKABLE int count(const QString &path) const { return m_document.count(path); }
    Q_INVOKABLE QStringList strings(const QString &path) const { return m_document.strings(path); }
    Q_INVOKABLE QStringList keys(const QString &path) const { return m_document.keys(path); }
    /** The diagnostics about @p path and what is under it, one per line. */
    Q_INVOKABLE QString messageFor(const QString &path) const;

    /** Sets a text field; an empty value removes an optional field when @p removeWhenEmpty. */
    Q_INVOKABLE bool setValue(const QString &path, const QString &value, bool removeWhenEmpty = false);
    /** Sets a true/false field; false removes it when @p removeWhenFalse (the default is false). */
    Q_INVOKABLE bool setBool(const QString &path, bool value, bool removeWhenFalse = true);
    /** Sets a number field (ports, sizes); an empty value removes it. */
    Q_INVOKABLE bool setNumber(const QString &path, const QString &value);
    /** Replaces the whole YAML text (the text view). */
    Q_INVOKABLE void setText(const QString &text);

    /** Appends a string or an object of fields ({service: "x"}) to a list, creating it. */
    Q_INVOKABLE bool appendItem(const QString &listPath, const QVariant &item, const QStringList &keyOrder = {});
    Q_INVOKABLE bool removeItem(const QString &listPath, int index);
    /** Sets one item of a list of strings. */
    Q_INVOKABLE bool setItem(const QString &listPath, int index, const QString &value);

    Q_INVOKABLE bool setVariable(const QString &name, const QString &value);
    Q_INVOKABLE bool removeVariable(const QString &name);
    /**
     * Adds a host to a network list: `permissions.network` of a spec.yaml; of a descriptor, its
     * network-policy@1's runtime list, or install-phase one when @p install, of the kit's own
     * request (@p group -1) or of the member of the group at @p group in `capabilities`.
     */
    Q_INVOKABLE bool addNetworkPattern(bool deny, const QString &pattern, bool install = false, int group = -1);
    Q_INVOKABLE bool removeNetworkPattern(bool deny, const QString &pattern, bool install = false, int group = -1);

    /** Writes spec.yaml (atomically, only the lines changed) when the kit is valid. */
    Q_INVOKABLE bool save();
    /** Drops the changes. */
    Q_INVOKABLE void revert();

Q_SIGNALS:
    void openedChanged();
    void revisionChanged();
    void messageChanged();
    void saved();

private:
    bool refuseWhenReadOnly();
    bool finish(bool ok, const QString &error);
    void setMessage(const QString &message);
    void bump();

    KitDocument m_document;
    QString m_directory;
    bool m_loaded = false;
    bool m_readOnly = false;
    int m_revision = 0;
    QString m_message;
};

} // namespace paddock::gui
