// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitFilesTree.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

namespace paddock::kit {

namespace {

Diagnostic problem(Diagnostic::Severity severity, const QString &file, const QString &message)
{
    Diagnostic d;
    d.severity = severity;
    d.file = file;
    d.message = message;
    return d;
}

bool isInside(const QString &path, const QString &root)
{
    return path == root || path.startsWith(root + QLatin1Char('/'));
}

} // namespace

QList<Diagnostic> checkFilesTree(const QString &dir, QList<KitFile> *files)
{
    QList<Diagnostic> diagnostics;
    const QDir kitDir(dir);
    const QString filesPath = kitDir.filePath(QStringLiteral("files"));
    const QFileInfo filesInfo(filesPath);
    if (!filesInfo.exists() && !filesInfo.isSymLink())
        return diagnostics;
    const QString root = QFileInfo(dir).canonicalFilePath();
    if (filesInfo.isSymLink() && !isInside(filesInfo.canonicalFilePath(), root)) {
        diagnostics << problem(Diagnostic::Severity::Error, filesPath,
                               QStringLiteral("`files` is a symbolic link leaving the kit directory"));
        return diagnostics;
    }
    if (!filesInfo.isDir()) {
        diagnostics << problem(Diagnostic::Severity::Error, filesPath,
                               QStringLiteral("`files` must be a directory holding home/ and workspace/"));
        return diagnostics;
    }

    const QFileInfoList top = QDir(filesPath).entryInfoList(
        QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
    for (const QFileInfo &entry : top) {
        const QString name = entry.fileName();
        if ((name != QLatin1String("home") && name != QLatin1String("workspace")) || !entry.isDir()) {
            diagnostics << problem(Diagnostic::Severity::Warning, entry.filePath(),
                                   QStringLiteral("ignored: only files/home/ and files/workspace/ are copied into the "
                                                  "sandbox"));
            continue;
        }
        if (entry.isSymLink() && !isInside(entry.canonicalFilePath(), root)) {
            diagnostics << problem(Diagnostic::Severity::Error, entry.filePath(),
                                   QStringLiteral("symbolic link leaving the kit directory"));
            continue;
        }
        // Links are not followed: each one is checked where it points, so a loop or a
        // link out of the kit cannot make the walk leave it.
        QDirIterator it(entry.filePath(), QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            const QFileInfo info = it.fileInfo();
            const QString relative = QDir(entry.filePath()).relativeFilePath(info.filePath());
            if (relative.startsWith(QLatin1String("../")) || QDir::isAbsolutePath(relative)) {
                diagnostics << problem(Diagnostic::Severity::Error, info.filePath(),
                                       QStringLiteral("path escapes files/%1/").arg(name));
                continue;
            }
            if (info.isSymLink()) {
                const QString target = info.canonicalFilePath();
                if (target.isEmpty()) {
                    diagnostics << problem(
                        Diagnostic::Severity::Error, info.filePath(),
                        QStringLiteral("symbolic link to '%1', which does not exist").arg(info.symLinkTarget()));
                    continue;
                }
                if (!isInside(target, root)) {
                    diagnostics << problem(Diagnostic::Severity::Error, info.filePath(),
                                           QStringLiteral("symbolic link to '%1', outside the kit directory; links "
                                                          "must resolve inside the kit")
                                               .arg(info.symLinkTarget()));
                    continue;
                }
            }
            if (info.isFile() && files)
                files->append({name, relative});
        }
    }
    return diagnostics;
}

} // namespace paddock::kit
