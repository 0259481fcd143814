// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliSupport.h"

#include "api/DaemonConnection.h"
#include "api/DaemonLauncher.h"
#include "common/Paths.h"

#include <QLoggingCategory>

namespace paddock::cli {
namespace {

constexpr int kConnectTimeoutMs = 5000;

} // namespace

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

bool connectDaemon(api::DaemonConnection &connection, QString *error)
{
    const QString socket = paths::daemonSocket();
    const api::DaemonStatus status = api::ensureDaemonRunning(socket);
    if (!status.running) {
        *error = status.error;
        return false;
    }
    return connection.open(socket, kConnectTimeoutMs, error);
}

std::optional<QJsonObject> callDaemon(const Invocation &call, const QString &method, const QJsonObject &params,
                                      int *code, int timeoutMs)
{
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error)) {
        *code = failure(error);
        return std::nullopt;
    }
    const api::Reply reply = connection.call(method, params, timeoutMs);
    if (reply.isError()) {
        *code = reply.errorCode() == QLatin1String(api::errors::kInvalidParams)
                    ? usageError(call.commandPath, reply.errorMessage())
                    : failure(reply.errorMessage());
        return std::nullopt;
    }
    return reply.result();
}

} // namespace paddock::cli
