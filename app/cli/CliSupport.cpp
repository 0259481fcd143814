// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliSupport.h"

#include <QLoggingCategory>

namespace paddock::cli {

QCommandLineOption jsonOption(const QString &what)
{
    return QCommandLineOption(QStringLiteral("json"), QStringLiteral("Print %1 as JSON.").arg(what));
}

Command leaf(const QString &name, const QString &summary, const QString &description,
             std::function<int(const Invocation &)> run)
{
    Command command;
    command.name = name;
    command.summary = summary;
    command.description = description;
    command.run = std::move(run);
    return command;
}

void quietLibraryLogs(const QString &warningCategories)
{
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(
            QStringLiteral("paddock.*.debug=false\npaddock.*.info=false\n%1.warning=false").arg(warningCategories));
}

} // namespace paddock::cli
