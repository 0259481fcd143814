// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy log --requests: the HTTP requests Paddock saw into, one line each.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

#include "events/EventStore.h"

#include <QJsonArray>
#include <QThread>

#include <csignal>

namespace paddock::cli::policycli {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int)
{
    g_stop = 1;
}

QStringList requestRow(const events::NetworkEvent &event)
{
    const events::RequestDetail &request = *event.request;
    const QString host =
        event.host.contains(QLatin1Char(':')) ? QLatin1Char('[') + event.host + QLatin1Char(']') : event.host;
    return {timeText(event.time),
            event.sandbox.isEmpty() ? QStringLiteral("-") : event.sandbox,
            programCell(event.program, event.written),
            request.method,
            host + QLatin1Char(':') + QString::number(event.port) + request.path,
            request.status > 0 ? QString::number(request.status) : QStringLiteral("-"),
            QString::number(event.bytesUp),
            QString::number(event.bytesDown),
            QString::number(request.durationMs) + QStringLiteral("ms"),
            event.rule};
}

const QStringList kHeader{QStringLiteral("TIME"),   QStringLiteral("SANDBOX"), QStringLiteral("PROGRAM"),
                          QStringLiteral("METHOD"), QStringLiteral("URL"),     QStringLiteral("STATUS"),
                          QStringLiteral("UP"),     QStringLiteral("DOWN"),    QStringLiteral("TIME TAKEN"),
                          QStringLiteral("RULE")};

/** Prints new records every 200 ms until SIGINT or SIGTERM; rows with the same time print once. */
int followRequests(events::EventStore &store, events::RequestFilter filter, bool json)
{
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    filter.newestFirst = false;
    filter.limit = 0;
    filter.since = events::currentEventTime();
    QSet<QByteArray> printed; // the lines at filter.since
    if (!json) {
        err() << "Following requests as they happen; Ctrl-C stops.\n";
        err().flush();
    }
    while (!g_stop) {
        QDateTime newest = filter.since;
        QSet<QByteArray> atNewest = printed;
        const bool ok = store.forEachRequest(filter, [&](const events::NetworkEvent &event) {
            const QByteArray line = QJsonDocument(event.toJson()).toJson(QJsonDocument::Compact) + '\n';
            if (event.time == filter.since && printed.contains(line))
                return true;
            out() << (json ? QString::fromUtf8(line) : requestRow(event).join(QStringLiteral("  ")) + '\n');
            if (event.time > newest) {
                newest = event.time;
                atNewest.clear();
            }
            atNewest.insert(line);
            return true;
        });
        out().flush();
        if (!ok)
            return failure(store.errorString());
        printed = atNewest;
        filter.since = newest;
        QThread::msleep(200);
    }
    return ExitOk;
}

} // namespace

int runRequestLog(const Invocation &call, const QString &sandbox, const QDateTime &since, int limit)
{
    const bool json = call.parser.isSet(kJson);
    events::RequestFilter filter;
    filter.sandbox = sandbox;
    filter.since = since;
    if (limit > 0)
        filter.limit = limit;
    events::EventStore store;
    if (!store.open())
        return failure(store.errorString());
    if (call.parser.isSet(QStringLiteral("follow")))
        return followRequests(store, filter, json);
    QList<events::NetworkEvent> records;
    if (!store.forEachRequest(filter, [&](const events::NetworkEvent &event) {
            records.append(event);
            return true;
        }))
        return failure(store.errorString());
    if (json) {
        QJsonArray array;
        for (const events::NetworkEvent &event : std::as_const(records))
            array << event.toJson();
        printJson(QJsonDocument(QJsonObject{{QStringLiteral("requests"), array}}));
        return ExitOk;
    }
    if (records.isEmpty()) {
        out() << "No requests recorded. Paddock records the requests it sees: plain HTTP, and HTTPS to\n"
                 "hosts whose TLS it terminates (a bound credential).\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const events::NetworkEvent &event : std::as_const(records))
        rows << requestRow(event);
    printTable(kHeader, rows);
    return ExitOk;
}

} // namespace paddock::cli::policycli
