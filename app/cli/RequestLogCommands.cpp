// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy log --requests: the HTTP requests Paddock saw into, one line each.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

#include "events/EventStore.h"
#include "events/Jsonl.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::cli::policycli {
namespace {

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

/** Prints each request record the daemon reports, as it happens. */
int followRequests(const QString &sandbox, bool json)
{
    if (!json) {
        err() << "Following requests as they happen; Ctrl-C stops.\n";
        err().flush();
    }
    QJsonObject params{{QStringLiteral("oldestFirst"), true}, {QStringLiteral("limit"), 10000}};
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    return followEventLog(QStringLiteral("events.requests"), params, QStringLiteral("requests"),
                          [json](const QJsonObject &data) {
                              const std::optional<events::NetworkEvent> event = events::NetworkEvent::fromJson(data);
                              if (!event || !event->request)
                                  return;
                              out() << (json ? events::toJsonLine(*event)
                                             : (requestRow(*event).join(QStringLiteral("  ")) + '\n').toUtf8());
                          });
}

} // namespace

int runRequestLog(const Invocation &call, const QString &sandbox, const QDateTime &since, int limit)
{
    const bool json = call.parser.isSet(kJson);
    if (call.parser.isSet(QStringLiteral("follow")))
        return followRequests(sandbox, json);
    QJsonObject params;
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    if (since.isValid())
        params.insert(QStringLiteral("since"), events::formatEventTime(since));
    if (limit > 0)
        params.insert(QStringLiteral("limit"), limit);
    int code = ExitOk;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("events.requests"), params, &code, kPolicyCallTimeoutMs);
    if (!answer)
        return code;
    QList<events::NetworkEvent> records;
    for (const QJsonValue &value : answer->value(QLatin1String("requests")).toArray()) {
        if (std::optional<events::NetworkEvent> event = events::NetworkEvent::fromJson(value.toObject());
            event && event->request)
            records << *event;
    }
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
