// SPDX-License-Identifier: GPL-3.0-or-later
#include "KitListModel.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QUrl>
#include <QVariantMap>

Q_LOGGING_CATEGORY(lcKitList, "paddock.gui.kitlist", QtWarningMsg)

namespace paddock::gui {

KitListModel::KitListModel(QObject *parent) : QAbstractListModel(parent)
{
    reload();
}

int KitListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant KitListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const kit::KitEntry &entry = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case NameRole:
        return entry.name;
    case DisplayNameRole:
        return entry.displayName;
    case VersionRole:
        return entry.version;
    case KindRole:
        return entry.kind;
    case DescriptionRole:
        return entry.description;
    case DirectoryRole:
        return entry.directory;
    case SourceRole:
        return kit::sourceName(entry.source);
    case ReadOnlyRole:
        return entry.readOnly();
    case ValidRole:
        return entry.valid();
    case ErrorCountRole:
        return entry.errorCount;
    case WarningCountRole:
        return entry.warningCount;
    case FirstProblemRole:
        for (const kit::Diagnostic &d : entry.diagnostics) {
            if (d.isError())
                return d.line > 0 ? tr("line %1: %2").arg(d.line).arg(d.message) : d.message;
        }
        return QString();
    default:
        return {};
    }
}

QHash<int, QByteArray> KitListModel::roleNames() const
{
    return {
        {NameRole, "name"},
        {DisplayNameRole, "displayName"},
        {VersionRole, "version"},
        {KindRole, "kind"},
        {DescriptionRole, "description"},
        {DirectoryRole, "directory"},
        {SourceRole, "source"},
        {ReadOnlyRole, "readOnly"},
        {ValidRole, "valid"},
        {ErrorCountRole, "errorCount"},
        {WarningCountRole, "warningCount"},
        {FirstProblemRole, "firstProblem"},
    };
}

QVariantList KitListModel::templates() const
{
    QVariantList list;
    for (const QString &name : kit::KitLibrary::templateNames()) {
        list << QVariantMap{{QStringLiteral("name"), name},
                            {QStringLiteral("description"), kit::KitLibrary::templateDescription(name)}};
    }
    return list;
}

void KitListModel::reload()
{
    beginResetModel();
    m_library.reload();
    m_entries = m_library.entries();
    endResetModel();
    Q_EMIT countChanged();
}

QString KitListModel::localPath(const QString &pathOrUrl)
{
    QString path = pathOrUrl.trimmed();
    if (path.startsWith(QLatin1String("file:")))
        path = QUrl(path).toLocalFile();
    if (path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    return path.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

bool KitListModel::fail(const QString &message)
{
    qCDebug(lcKitList).noquote() << message;
    m_error = message;
    Q_EMIT errorChanged();
    return false;
}

void KitListModel::succeed()
{
    if (!m_error.isEmpty()) {
        m_error.clear();
        Q_EMIT errorChanged();
    }
    reload();
}

bool KitListModel::add(const QString &folder)
{
    const QString path = localPath(folder);
    if (path.isEmpty())
        return fail(tr("Choose a kit folder first."));
    QString error;
    if (!m_library.add(path, &error))
        return fail(error);
    succeed();
    return true;
}

bool KitListModel::forget(const QString &directory)
{
    QString error;
    if (!m_library.forget(directory, &error))
        return fail(error);
    succeed();
    return true;
}

bool KitListModel::createFromTemplate(const QString &templateName, const QString &folder, const QString &name)
{
    const QString path = localPath(folder);
    if (path.isEmpty())
        return fail(tr("Choose a folder for the new kit first."));
    QString error;
    if (!kit::KitLibrary::createFromTemplate(templateName, path, name.trimmed(), &error))
        return fail(error);
    if (!m_library.add(path, &error))
        return fail(error);
    succeed();
    return true;
}

bool KitListModel::copyTo(const QString &directory, const QString &folder)
{
    const QString path = localPath(folder);
    if (path.isEmpty())
        return fail(tr("Choose a folder for the copy first."));
    QString error;
    if (!kit::KitLibrary::copyKit(directory, path, &error))
        return fail(error);
    if (!m_library.add(path, &error))
        return fail(error);
    succeed();
    return true;
}

int KitListModel::indexOfDirectory(const QString &directory) const
{
    const QString wanted = QFileInfo(directory).canonicalFilePath();
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        if (m_entries.at(i).directory == directory || m_entries.at(i).directory == wanted)
            return int(i);
    }
    return -1;
}

} // namespace paddock::gui
