// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief "Export bundle…" on the Kits page: one kit packed into a `.paddock` file for a class,
 * with the options of `paddock bundle export` (the policy, a notes file, the output file).
 *
 * Packing reads the user's own kit and policy.yaml and writes a file they chose: a file
 * operation done in-process through core/bundle, as the Kits page edits kits, with no daemon
 * and no runtime. It runs on a thread of its own; @c busy is true meanwhile.
 */
class BundleExporter : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString kitDirectory READ kitDirectory NOTIFY optionsChanged)
    Q_PROPERTY(QString kitName READ kitName NOTIFY optionsChanged)
    Q_PROPERTY(bool includePolicy READ includePolicy WRITE setIncludePolicy NOTIFY optionsChanged)
    Q_PROPERTY(QString notesFile READ notesFile WRITE setNotesFile NOTIFY optionsChanged)
    Q_PROPERTY(QString outputFile READ outputFile WRITE setOutputFile NOTIFY optionsChanged)
    Q_PROPERTY(QString command READ command NOTIFY optionsChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY resultChanged)
    Q_PROPERTY(QString result READ result NOTIFY resultChanged)

public:
    explicit BundleExporter(QObject *parent = nullptr);

    QString kitDirectory() const { return m_kitDirectory; }
    QString kitName() const { return m_kitName; }
    bool includePolicy() const { return m_includePolicy; }
    void setIncludePolicy(bool include);
    QString notesFile() const { return m_notesFile; }
    void setNotesFile(const QString &file);
    QString outputFile() const { return m_outputFile; }
    void setOutputFile(const QString &file);
    /** The same export from a terminal. */
    QString command() const;
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    QString result() const { return m_result; }

    /** A path, or a file: URL from a FileDialog, as a local path. */
    Q_INVOKABLE static QString localPath(const QUrl &url);
    /** Starts over for kit @p name in @p directory: no notes, no policy, NAME.paddock in the home folder. */
    Q_INVOKABLE void reset(const QString &directory, const QString &name);
    /** Packs the kit and writes @c outputFile; @c result or @c error says how it went. */
    Q_INVOKABLE void exportBundle();

Q_SIGNALS:
    void optionsChanged();
    void busyChanged();
    void resultChanged();
    void exported(const QString &file);

private:
    void finish(const QString &result, const QString &error);

    QString m_kitDirectory;
    QString m_kitName;
    QString m_kitArgument; ///< how `--kit` names it: the name when the library finds this folder by it
    bool m_includePolicy = false;
    QString m_notesFile;
    QString m_outputFile;
    bool m_busy = false;
    QString m_error;
    QString m_result;
};

} // namespace paddock::gui
