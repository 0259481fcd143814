// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/WorkspaceGuard.h"

#include "common/Paths.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace paddock::sandbox {
namespace {

bool isInside(const QString &path, const QString &folder)
{
    return path == folder || path.startsWith(folder == QLatin1String("/") ? folder : folder + QLatin1Char('/'));
}

QString shown(const QString &path)
{
    return paths::tildePath(path);
}

} // namespace

QString resolvedPath(const QString &path)
{
    QString existing = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QString rest;
    while (!QFileInfo::exists(existing) && existing != QLatin1String("/")) {
        rest = QLatin1Char('/') + QFileInfo(existing).fileName() + rest;
        existing = QFileInfo(existing).absolutePath();
    }
    const QString canonical = QFileInfo(existing).canonicalFilePath();
    return QDir::cleanPath((canonical.isEmpty() ? existing : canonical) + rest);
}

bool isPathInside(const QString &path, const QString &folder)
{
    return isInside(path, folder);
}

QString shownPath(const QString &path)
{
    return shown(path);
}

QStringList protectedFolders()
{
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return {paths::configDir(),
            paths::dataDir(),
            paths::stateDir(),
            paths::runtimeDir(),
            data + QStringLiteral("/keyrings"),
            data + QStringLiteral("/kwalletd")};
}

std::optional<QString> workspaceProblem(const QString &folder, const QStringList &protectedList)
{
    const QString workspace = resolvedPath(folder);
    const QString advice = QStringLiteral("; choose a project folder, such as ~/projects/NAME, or a folder "
                                          "made for the sandbox");
    if (workspace == QLatin1String("/"))
        return QStringLiteral("the whole file system cannot be a workspace: the sandbox could change every file "
                              "you can") +
               advice;
    if (workspace == resolvedPath(QDir::homePath()))
        return QStringLiteral("your home folder cannot be a workspace: the sandbox could read ~/.ssh and your "
                              "other projects, and rewrite Paddock's own settings") +
               advice;
    for (const QString &entry : protectedList.isEmpty() ? protectedFolders() : protectedList) {
        const QString guarded = resolvedPath(entry);
        if (workspace == guarded)
            return QStringLiteral("%1 is one of Paddock's own folders, which the sandbox must not reach")
                       .arg(shown(workspace)) +
                   advice;
        if (isInside(guarded, workspace))
            return QStringLiteral("%1 holds %2, which the sandbox must not reach: it could rewrite its own policy, "
                                  "keys' approvals or sandbox state")
                       .arg(shown(workspace), shown(guarded)) +
                   advice;
        if (isInside(workspace, guarded))
            return QStringLiteral("%1 is inside %2, which the sandbox must not reach")
                       .arg(shown(workspace), shown(guarded)) +
                   advice;
    }
    return std::nullopt;
}

} // namespace paddock::sandbox
