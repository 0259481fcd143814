// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/TrustedFiles.h"

#include <QDir>
#include <QFileInfo>

namespace paddock::runtime::trusted {

QStringList protectedPaths()
{
    return {QStringLiteral(".git/hooks"), QStringLiteral(".git/config"), QStringLiteral(".envrc"),
            QStringLiteral(".vscode"), QStringLiteral("sbxenv.yaml")};
}

QStringList reviewedPaths()
{
    return protectedPaths() + QStringList{QStringLiteral("Makefile"),       QStringLiteral("GNUmakefile"),
                                          QStringLiteral("package.json"),   QStringLiteral("pyproject.toml"),
                                          QStringLiteral("setup.py"),       QStringLiteral(".github/workflows"),
                                          QStringLiteral(".gitlab-ci.yml"), QStringLiteral(".pre-commit-config.yaml")};
}

QStringList existingProtected(const QString &workspace)
{
    QStringList found;
    const QString root = QDir::cleanPath(workspace);
    for (const QString &relative : protectedPaths()) {
        // Every step from the workspace down must be a real folder or file, not a link.
        bool plain = true;
        QString path = root;
        for (const QString &part : relative.split(QLatin1Char('/'))) {
            path += QLatin1Char('/') + part;
            const QFileInfo info(path);
            plain = plain && info.exists() && !info.isSymLink();
        }
        if (plain)
            found << relative;
    }
    return found;
}

} // namespace paddock::runtime::trusted
