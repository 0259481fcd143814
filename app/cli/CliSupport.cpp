// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliSupport.h"

#include "api/DaemonConnection.h"
#include "api/DaemonLauncher.h"
#include "common/Paths.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <csignal>

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

void printTable(const QStringList &header, const QList<QStringList> &rows)
{
    QList<qsizetype> widths;
    for (const QString &cell : header)
        widths << cell.size();
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    }
    auto print = [&](const QStringList &row) {
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i)
            line += i + 1 < row.size() ? row[i].leftJustified(widths[i] + 2) : row[i];
        out() << line << '\n';
    };
    print(header);
    for (const QStringList &row : rows)
        print(row);
}

QString programCell(const QString &program, const QString &written)
{
    if (program.isEmpty())
        return QStringLiteral("-");
    return written.isEmpty() ? program : QStringLiteral("%1 (written inside the sandbox: %2)").arg(program, written);
}

QString humanBytes(qint64 bytes)
{
    if (bytes < 1000 * 1000)
        return QStringLiteral("%1 kB").arg(double(bytes) / 1000, 0, 'f', 1);
    if (bytes < qint64(1000) * 1000 * 1000)
        return QStringLiteral("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 1);
    return QStringLiteral("%1 GB").arg(double(bytes) / 1e9, 0, 'f', 2);
}

namespace {

/** Calls @p method on a running daemon; nothing when none runs (it reads the files as it starts). */
bool applyInRunningDaemon(const QString &method, QString *error)
{
    api::DaemonConnection connection;
    QString unreachable;
    if (!connection.open(paths::daemonSocket(), kConnectTimeoutMs, &unreachable))
        return true;
    const api::Reply reply = connection.call(method, {}, 30000);
    // A daemon from before this method reads the file when its watch sees it change, as it always did.
    if (reply.isError() && reply.errorCode() != QLatin1String(api::errors::kUnknownMethod)) {
        *error = reply.errorMessage();
        return false;
    }
    return true;
}

} // namespace

void flushEventsInDaemon()
{
    // Best effort: without a daemon there is nothing unwritten; a failure reads what is stored.
    QString ignored;
    applyInRunningDaemon(QStringLiteral("events.flush"), &ignored);
}

bool applyCredentialsInDaemon(QString *error)
{
    return applyInRunningDaemon(QStringLiteral("credentials.reload"), error);
}

bool connectDaemon(api::DaemonConnection &connection, QString *error)
{
    const QString socket = paths::daemonSocket();
    // The connection that finds the daemon running is the one the call goes over.
    const api::DaemonStatus status = api::ensureDaemonRunning(socket, api::kDaemonStartTimeoutMs, &connection);
    if (!status.running)
        *error = status.error;
    return status.running;
}

namespace {

/**
 * The command's connection to paddockd: opened by its first call and kept for the next ones,
 * so that `run` (host grants, credentials, inspect, create, start, remove) says hello once.
 * Closed before the application object goes, while its sockets can still be torn down.
 */
api::DaemonConnection &commandConnection()
{
    static api::DaemonConnection connection;
    [[maybe_unused]] static const bool closedWithTheApplication = [] {
        qAddPostRoutine([] { connection.close(); });
        return true;
    }();
    return connection;
}

} // namespace

api::Reply daemonReply(const QString &method, const QJsonObject &params, int timeoutMs)
{
    api::DaemonConnection &connection = commandConnection();
    // A daemon stopped or restarted since the last call is found (or started) again, as by a
    // new connection; a call cut off midway is not sent again.
    if (!connection.isUsable()) {
        connection.close();
        QString error;
        if (!connectDaemon(connection, &error))
            return api::Reply::failure(QLatin1String(api::errors::kDisconnected), error);
    }
    return connection.call(method, params, timeoutMs);
}

std::optional<QJsonObject> callDaemon(const Invocation &call, const QString &method, const QJsonObject &params,
                                      int *code, int timeoutMs)
{
    const api::Reply reply = daemonReply(method, params, timeoutMs);
    if (reply.isError()) {
        *code = reply.errorCode() == QLatin1String(api::errors::kInvalidParams)
                    ? usageError(call.commandPath, reply.errorMessage())
                    : failure(reply.errorMessage());
        return std::nullopt;
    }
    return reply.result();
}

namespace {

volatile std::sig_atomic_t g_stopFollowing = 0;
void onFollowSignal(int)
{
    g_stopFollowing = 1;
}

} // namespace

int followEventLog(const QString &method, QJsonObject params, const QString &listKey,
                   const std::function<void(const QJsonObject &entry)> &print)
{
    struct sigaction action = {};
    action.sa_handler = onFollowSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    QString since = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    QSet<QByteArray> printedAtSince;
    while (!g_stopFollowing) {
        params.insert(QStringLiteral("since"), since);
        const api::Reply reply = daemonReply(method, params, kConnectTimeoutMs * 6);
        if (reply.isError())
            return failure(reply.errorMessage());
        for (const QJsonValue &value : reply.result().value(listKey).toArray()) {
            const QJsonObject entry = value.toObject();
            const QString time = entry.value(QLatin1String("time")).toString();
            const QByteArray line = QJsonDocument(entry).toJson(QJsonDocument::Compact);
            if (time == since && printedAtSince.contains(line))
                continue;
            if (time != since) {
                since = time;
                printedAtSince.clear();
            }
            printedAtSince.insert(line);
            print(entry);
        }
        out().flush();
        QThread::msleep(200);
    }
    return ExitOk;
}

int switchSandboxMode(const Invocation &call, const QString &method, int timeoutMs,
                      const std::function<void(const QString &name, bool on)> &describe)
{
    const QString name = call.positional.at(0);
    const QString state = call.positional.at(1);
    if (state != QLatin1String("on") && state != QLatin1String("off"))
        return usageError(call.commandPath, QStringLiteral("expected on or off, not '%1'").arg(state));
    const bool on = state == QLatin1String("on");
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, method, {{QStringLiteral("name"), name}, {QStringLiteral("enabled"), on}}, &code, timeoutMs);
    if (!result)
        return code;
    if (call.parser.isSet(QStringLiteral("json")))
        out() << QJsonDocument(result->value(QLatin1String("sandbox")).toObject()).toJson(QJsonDocument::Indented);
    else
        describe(name, on);
    return ExitOk;
}

} // namespace paddock::cli
