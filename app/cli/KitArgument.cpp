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

QCommandLineOption composedKitOption()
{
    return kitOption(QStringLiteral("The kit; again for each mixin composed onto a workload."));
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

std::optional<QMap<QString, QString>> kitArgValues(const Invocation &call, int *code)
{
    QMap<QString, QString> values;
    for (const QString &pair : call.parser.values(QStringLiteral("arg"))) {
        const qsizetype equals = pair.indexOf(QLatin1Char('='));
        if (equals <= 0) {
            *code = usageError(call.commandPath, QStringLiteral("--arg takes NAME=VALUE, got '%1'").arg(pair));
            return std::nullopt;
        }
        values.insert(pair.left(equals), pair.mid(equals + 1));
    }
    return values;
}

std::optional<QJsonObject> kitArgsJson(const Invocation &call, int *code)
{
    const std::optional<QMap<QString, QString>> values = kitArgValues(call, code);
    if (!values)
        return std::nullopt;
    QJsonObject json;
    for (auto it = values->cbegin(); it != values->cend(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

} // namespace paddock::cli
