// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief "Import kit image…" on the Kits page: a schemaVersion 3 kit (an OCI image) loaded from
 * an OCI layout or `docker save` archive, as `paddock kit load FILE [--name NAME]` does.
 *
 * paddockd loads it (`kit.load`), the one writer of the kit library and the image store, off its
 * own thread; @c busy is true meanwhile. An update granted more than the loaded kit comes back
 * with @c widenings and nothing loaded, until imported again with approval. An archive is
 * hostile: the daemon decodes its descriptor strictly and the image store refuses climbing entries.
 */
class KitImporter : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString result READ result NOTIFY resultChanged)
    /** What an update of a loaded kit would be granted beyond it; the import waits for approval. */
    Q_PROPERTY(QStringList widenings READ widenings NOTIFY resultChanged)

public:
    explicit KitImporter(QObject *parent = nullptr);

    bool busy() const { return m_busy; }
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
    /** The daemon's answer to `kit.load` of @p file, in the words the dialog shows. */
    void finishLoad(const QString &file, const QJsonObject &answer);
    void finish(const QString &result, const QString &error, const QString &directory,
                const QStringList &widenings = {});

    bool m_busy = false;
    QString m_result;
    QStringList m_widenings;
};

} // namespace paddock::gui
