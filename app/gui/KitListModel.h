// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"
#include "kit/KitLibrary.h"

#include <QString>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The Kits page's list: every kit of the library with its origin and health.
 *
 * Kits are the user's own files, so the list reads them in-process through core/kit
 * (KitLibrary); nothing here needs the daemon. Each action mirrors a CLI command:
 * add (`paddock kit add`), forget (`kit forget`), createFromTemplate (`kit new`).
 * Actions return false and set `error` to one sentence when refused.
 */
class KitListModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString configError READ configError NOTIFY countChanged)
    Q_PROPERTY(QVariantList templates READ templates CONSTANT)

public:
    enum Role {
        NameRole = Qt::UserRole + 1,
        DisplayNameRole,
        VersionRole,
        KindRole,
        DescriptionRole,
        DirectoryRole,
        SourceRole,
        ReadOnlyRole,
        ValidRole,
        ErrorCountRole,
        WarningCountRole,
        FirstProblemRole,
        SchemaVersionRole,
        ReferenceRole,
        DigestRole,
        ProvidesRole,
        CapabilitiesRole,
        AuthoredRole,
    };
    Q_ENUM(Role)

    explicit KitListModel(QObject *parent = nullptr);

    QString configError() const { return m_library.configError(); }
    QVariantList templates() const;

    /** Reads kits.yaml and every kit again. */
    Q_INVOKABLE void reload();
    /** Adds a kit folder (a path or a file: URL). */
    Q_INVOKABLE bool add(const QString &folder);
    /** Forgets the added kit in @p directory; its files stay. */
    Q_INVOKABLE bool forget(const QString &directory);
    /** Writes a new kit from a template into @p folder and adds it. */
    Q_INVOKABLE bool createFromTemplate(const QString &templateName, const QString &folder, const QString &name = {});
    /** Copies the kit in @p directory (a sample) to @p folder and adds the copy. */
    Q_INVOKABLE bool copyTo(const QString &directory, const QString &folder);
    /** The row of the kit in @p directory, or -1. */
    Q_INVOKABLE int indexOfDirectory(const QString &directory) const;
    /** The folder a path or a file: URL names, absolute and clean. */
    Q_INVOKABLE static QString localPath(const QString &pathOrUrl);

private:
    bool fail(const QString &message);
    void succeed();

    kit::KitLibrary m_library;
    Rows<kit::KitEntry> m_rows{this};
};

} // namespace paddock::gui
