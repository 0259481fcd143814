// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/SandboxName.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace paddock::kit {

QString defaultSandboxName(const QString &kitName, const QString &workspace)
{
    const QString folder = QFileInfo(QDir::cleanPath(workspace)).fileName();
    QString name = (folder.isEmpty() ? kitName : kitName + QLatin1Char('-') + folder).toLower();
    static const QRegularExpression invalid(QStringLiteral("[^a-z0-9-]"));
    static const QRegularExpression dashes(QStringLiteral("-{2,}"));
    name.replace(invalid, QStringLiteral("-"));
    name.replace(dashes, QStringLiteral("-"));
    while (name.startsWith(QLatin1Char('-')))
        name.remove(0, 1);
    name.truncate(63);
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("sandbox") : name;
}

} // namespace paddock::kit
