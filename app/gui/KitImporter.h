// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief "Import kit image…" on the Kits page: a schemaVersion 3 kit (an OCI image) loaded from
 * an OCI layout or `docker save` archive, as `paddock kit load FILE [--name NAME]` does.
 *
 * The archive is the user's file and the kit goes to their kits folder and image store, so this
 * is done in-process through core/kit, as the page's other kit actions are. Reading layers takes
 * a while: it runs on a thread of its own and @c busy is true meanwhile. An archive is hostile:
 * core/kit decodes its descriptor strictly and the image store refuses climbing entries.
 */
class KitImporter : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY resultChanged)
    Q_PROPERTY(QString result READ result NOTIFY resultChanged)
    /** What an update of a loaded kit would be granted beyond it; the import waits for approval. */
    Q_PROPERTY(QStringList widenings READ widenings NOTIFY resultChanged)

public:
    explicit KitImporter(QObject *parent = nullptr);

    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    QString result() const { return m_result; }
    QStringList widenings() const { return m_widenings; }

    /** The same import from a terminal, for @p file (a path or a file: URL) and @p name. */
    Q_INVOKABLE QString command(const QString &file, const QString &name) const;
    /** A path or a file: URL (from a FileDialog) as a local path. */
    Q_INVOKABLE QString localPath(const QString &pathOrUrl) const;
    /** Clears the last result. */
    Q_INVOKABLE void reset();
    /**
     * Loads the archive @p file (a path or a file: URL); @p name empty: from the image reference.
     * With @p approveWidening, an update granted more than the loaded kit is accepted.
     */
    Q_INVOKABLE void importArchive(const QString &file, const QString &name, bool approveWidening = false);

Q_SIGNALS:
    void busyChanged();
    void resultChanged();
    /** The kit now in the library's folder @p directory. */
    void imported(const QString &directory);

private:
    void finish(const QString &result, const QString &error, const QString &directory,
                const QStringList &widenings = {});

    bool m_busy = false;
    QString m_error;
    QString m_result;
    QStringList m_widenings;
};

} // namespace paddock::gui
