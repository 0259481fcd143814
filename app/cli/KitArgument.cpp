// SPDX-License-Identifier: GPL-3.0-or-later
#include "KitArgument.h"

#include "Command.h"

#include "kit/KitLibrary.h"

namespace paddock::cli {

QString kitArgumentHelp()
{
    return QStringLiteral("A kit's name as 'paddock kit ls' lists it, or a kit folder (holding spec.yaml).");
}

QCommandLineOption kitOption(const QString &description)
{
    return {QStringLiteral("kit"), description + QLatin1Char(' ') + kitArgumentHelp(), QLatin1String(kKitValueName)};
}

std::optional<QString> resolveKit(const QString &argument)
{
    const kit::KitLibrary library;
    QString error;
    std::optional<QString> folder = library.resolve(argument, &error);
    if (!folder)
        failure(error);
    return folder;
}

} // namespace paddock::cli
