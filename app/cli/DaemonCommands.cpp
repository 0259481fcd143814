// SPDX-License-Identifier: GPL-3.0-or-later
// paddock daemon status|start|stop|ping
#include "Cli.h"
#include "CliSupport.h"

#include "api/DaemonConnection.h"
#include "api/DaemonLauncher.h"
#include "common/Paths.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

namespace paddock::cli {
namespace {

constexpr int kConnectTimeoutMs = 2000;
constexpr int kCallTimeoutMs = 5000;
constexpr int kStopTimeoutMs = 5000;

void printJson(const QJsonObject &object)
{
    out() << QJsonDocument(object).toJson(QJsonDocument::Indented);
}

QString formatUptime(qint64 ms)
{
    const qint64 seconds = ms / 1000;
    const qint64 days = seconds / 86400;
    const qint64 hours = seconds % 86400 / 3600;
    const qint64 minutes = seconds % 3600 / 60;
    const QString secondsText = QStringLiteral("%1s").arg(seconds % 60, 2, 10, QLatin1Char('0'));
    if (days > 0)
        return QStringLiteral("%1d %2h %3m").arg(days).arg(hours).arg(minutes, 2, 10, QLatin1Char('0'));
    if (hours > 0)
        return QStringLiteral("%1h %2m %3").arg(hours).arg(minutes, 2, 10, QLatin1Char('0')).arg(secondsText);
    if (minutes > 0)
        return QStringLiteral("%1m %2").arg(minutes).arg(secondsText);
    return QStringLiteral("%1s").arg(seconds);
}

int runStatus(const Invocation &invocation)
{
    const bool json = invocation.parser.isSet(jsonOption());
    const QString socket = paths::daemonSocket();
    api::DaemonConnection connection;
    QString error;
    if (!connection.open(socket, kConnectTimeoutMs, &error)) {
        const bool notRunning = connection.failure() == api::DaemonConnection::Failure::NotRunning;
        if (json) {
            QJsonObject object{{QStringLiteral("running"), false}, {QStringLiteral("socket"), socket}};
            if (!notRunning)
                object.insert(QStringLiteral("error"), error);
            printJson(object);
            return ExitFailed;
        }
        if (notRunning) {
            out() << "paddockd is not running (socket " << socket << ")\n";
            return ExitFailed;
        }
        return failure(error);
    }
    const api::Reply version = connection.call(QStringLiteral("version"), {}, kCallTimeoutMs);
    const api::Reply ping = connection.call(QStringLiteral("ping"), {}, kCallTimeoutMs);
    if (version.isError())
        return failure(QStringLiteral("paddockd did not tell its version: %1").arg(version.errorMessage()));
    if (ping.isError())
        return failure(QStringLiteral("paddockd did not answer ping: %1").arg(ping.errorMessage()));
    const qint64 pid = ping.result().value(QLatin1String("pid")).toInteger(-1);
    const qint64 uptimeMs = ping.result().value(QLatin1String("uptimeMs")).toInteger();
    const QString daemonVersion = version.result().value(QLatin1String("version")).toString();
    const int protocol = version.result().value(QLatin1String("protocol")).toInt();
    if (json) {
        printJson({{QStringLiteral("running"), true},
                   {QStringLiteral("pid"), pid},
                   {QStringLiteral("version"), daemonVersion},
                   {QStringLiteral("protocol"), protocol},
                   {QStringLiteral("uptimeMs"), uptimeMs},
                   {QStringLiteral("socket"), socket}});
        return ExitOk;
    }
    out() << "paddockd is running\n"
          << "  pid:       " << pid << '\n'
          << "  version:   " << daemonVersion << '\n'
          << "  protocol:  " << protocol << '\n'
          << "  uptime:    " << formatUptime(uptimeMs) << '\n'
          << "  socket:    " << socket << '\n';
    return ExitOk;
}

int runStart(const Invocation &)
{
    const api::DaemonStatus status = api::ensureDaemonRunning(paths::daemonSocket());
    if (!status.running)
        return failure(status.error);
    if (status.started)
        out() << "started paddockd (pid " << status.pid << ")\n";
    else
        out() << "paddockd is already running (pid " << status.pid << ")\n";
    return ExitOk;
}

int runStop(const Invocation &)
{
    const QString socket = paths::daemonSocket();
    api::DaemonConnection connection;
    QString error;
    if (!connection.open(socket, kConnectTimeoutMs, &error)) {
        if (connection.failure() == api::DaemonConnection::Failure::NotRunning) {
            out() << "paddockd is not running\n";
            return ExitOk;
        }
        return failure(error);
    }
    const qint64 pid = connection.server().pid;
    const api::Reply reply = connection.call(QStringLiteral("shutdown"), {}, kCallTimeoutMs);
    if (reply.isError())
        return failure(QStringLiteral("paddockd (pid %1) refused to stop: %2").arg(pid).arg(reply.errorMessage()));
    connection.close();
    // The daemon removes its socket as it exits; until then a new client would reach it.
    const QDeadlineTimer deadline(kStopTimeoutMs);
    while (QFileInfo::exists(socket)) {
        if (deadline.hasExpired())
            return failure(
                QStringLiteral("paddockd (pid %1) did not stop within %2 seconds").arg(pid).arg(kStopTimeoutMs / 1000));
        QThread::msleep(20);
    }
    out() << "stopped paddockd (pid " << pid << ")\n";
    return ExitOk;
}

int runPing(const Invocation &)
{
    api::DaemonConnection connection;
    QString error;
    if (!connection.open(paths::daemonSocket(), kConnectTimeoutMs, &error))
        return failure(error);
    QElapsedTimer timer;
    timer.start();
    const api::Reply reply = connection.call(QStringLiteral("ping"), {}, kCallTimeoutMs);
    if (reply.isError())
        return failure(reply.errorMessage());
    out() << "pong from paddockd (pid " << reply.result().value(QLatin1String("pid")).toInteger() << ") in "
          << QString::number(timer.nsecsElapsed() / 1e6, 'f', 2) << " ms\n";
    return ExitOk;
}

} // namespace

Command daemonCommand()
{
    Command status;
    status.name = QStringLiteral("status");
    status.summary = QStringLiteral("Say whether paddockd is running, and its pid, version and uptime.");
    status.description = QStringLiteral("Asks paddockd for its pid, version and uptime. Does not start it.\n"
                                        "Exit status: 0 when it is running, 1 when it is not.");
    status.options << jsonOption();
    status.maxPositional = 0;
    status.run = runStatus;

    Command start;
    start.name = QStringLiteral("start");
    start.summary = QStringLiteral("Start paddockd unless it is running, and print its pid.");
    start.description =
        QStringLiteral("Starts paddockd in the background unless it already answers, and waits for it to answer.\n"
                       "The executable is taken from $PADDOCKD when set, else from beside paddock, else from PATH.");
    start.maxPositional = 0;
    start.run = runStart;

    Command stop;
    stop.name = QStringLiteral("stop");
    stop.summary = QStringLiteral("Ask paddockd to shut down and wait until it has.");
    stop.description = QStringLiteral("Asks paddockd to shut down and waits until its socket is gone.\n"
                                      "Succeeds when it was not running.");
    stop.maxPositional = 0;
    stop.run = runStop;

    Command ping;
    ping.name = QStringLiteral("ping");
    ping.summary = QStringLiteral("Check that paddockd answers, and how fast.");
    ping.maxPositional = 0;
    ping.run = runPing;

    Command daemon;
    daemon.name = QStringLiteral("daemon");
    daemon.summary = QStringLiteral("Manage paddockd, the per-user daemon.");
    daemon.description =
        QStringLiteral("paddockd owns running sandboxes, the proxy, the network policy and the denial log.\n"
                       "The GUI and the CLI start it when they need it; these commands inspect and control it.");
    daemon.subcommands << status << start << stop << ping;
    return daemon;
}

} // namespace paddock::cli
