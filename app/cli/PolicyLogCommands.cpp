// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy log|denials|dismiss|export: what the policy refused and allowed.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

#include "events/EventStore.h"
#include "events/Jsonl.h"
#include "events/LogJson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include <optional>

namespace paddock::cli {
namespace {

using namespace policycli;

/** `policy dismiss HOST --sandbox NAME`: hides a refused host from the lists until it is refused again. */
int runDismiss(const Invocation &call)
{
    int code = ExitOk;
    const QString host = call.positional.constFirst();
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("events.dismiss"),
                   {{QStringLiteral("host"), host}, {QStringLiteral("sandbox"), call.parser.value(kSandbox)}}, &code,
                   kPolicyCallTimeoutMs);
    if (!result)
        return code;
    out() << "Dismissed " << host << "; it shows again when it is refused again.\n";
    return ExitOk;
}

/** `policy denials [--sandbox NAME] [--json]`: the refused hosts as the window lists them. */
int runDenials(const Invocation &call)
{
    QJsonObject params;
    if (call.parser.isSet(kSandbox))
        params.insert(QStringLiteral("sandbox"), call.parser.value(kSandbox));
    int code = ExitOk;
    const std::optional<QJsonObject> result =
        callDaemon(call, QStringLiteral("events.denials"), params, &code, kPolicyCallTimeoutMs);
    if (!result)
        return code;
    const QJsonArray denials = result->value(QLatin1String("denials")).toArray();
    if (call.parser.isSet(kJson)) {
        printJson(QJsonDocument(denials));
        return ExitOk;
    }
    if (denials.isEmpty()) {
        out() << "Nothing has been refused.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const QJsonValue &value : denials) {
        const QJsonObject denial = value.toObject();
        const QString sandbox = denial.value(QLatin1String("sandbox")).toString();
        rows << QStringList{
            denial.value(QLatin1String("host")).toString(),
            QString::number(denial.value(QLatin1String("port")).toInt()),
            sandbox.isEmpty() ? QStringLiteral("-") : sandbox,
            QString::number(denial.value(QLatin1String("count")).toInteger()),
            timeText(QDateTime::fromString(denial.value(QLatin1String("lastSeen")).toString(), Qt::ISODateWithMs)),
            denial.value(QLatin1String("reason")).toString()};
    }
    printTable({QStringLiteral("HOST"), QStringLiteral("PORT"), QStringLiteral("SANDBOX"), QStringLiteral("COUNT"),
                QStringLiteral("LAST SEEN"), QStringLiteral("REASON")},
               rows);
    return ExitOk;
}

/** `30s`, `10m`, `2h`, `7d` (units may be combined: `1h30m`); nullopt otherwise. */
std::optional<qint64> parseDurationSeconds(const QString &text)
{
    static const QRegularExpression part(QStringLiteral("(\\d+)([smhd])"));
    qint64 total = 0;
    qsizetype at = 0;
    auto it = part.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        if (match.capturedStart() != at)
            return std::nullopt;
        at = match.capturedEnd();
        const qint64 unit = QStringLiteral("smhd").indexOf(match.captured(2)) == 0   ? 1
                            : QStringLiteral("smhd").indexOf(match.captured(2)) == 1 ? 60
                            : QStringLiteral("smhd").indexOf(match.captured(2)) == 2 ? 3600
                                                                                     : 86400;
        total += match.captured(1).toLongLong() * unit;
    }
    if (at == 0 || at != text.size())
        return std::nullopt;
    return total;
}

std::optional<int> sinceOption(const Invocation &call, QDateTime *since)
{
    if (!call.parser.isSet(QStringLiteral("since")))
        return std::nullopt;
    const QString text = call.parser.value(QStringLiteral("since"));
    const std::optional<qint64> seconds = parseDurationSeconds(text);
    if (!seconds)
        return usageError(call.commandPath,
                          QStringLiteral("--since takes a duration such as 30s, 10m, 2h or 7d, got '%1'").arg(text));
    *since = QDateTime::currentDateTimeUtc().addSecs(-*seconds);
    return std::nullopt;
}

QString hostPort(const QString &host, quint16 port)
{
    return (host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host) + QLatin1Char(':') +
           QString::number(port);
}

void printBlocked(const char *title, const QList<events::BlockedEntry> &entries)
{
    out() << title << ":\n";
    if (entries.isEmpty()) {
        out() << "  (none)\n";
        return;
    }
    QList<QStringList> rows;
    for (const events::BlockedEntry &e : entries)
        rows << QStringList{e.sandbox.isEmpty() ? QStringLiteral("-") : e.sandbox,
                            hostPort(e.host, e.port),
                            programCell(e.program, e.written),
                            e.rule,
                            QString::number(e.count),
                            timeText(e.lastSeen),
                            e.reason};
    printTable({QStringLiteral("SANDBOX"), QStringLiteral("HOST"), QStringLiteral("PROGRAM"), QStringLiteral("RULE"),
                QStringLiteral("COUNT"), QStringLiteral("LAST SEEN"), QStringLiteral("REASON")},
               rows);
}

/** Prints each refusal (and failed upstream) the daemon reports, as it happens. */
int followLog(const QString &sandbox, bool json)
{
    if (!json) {
        err() << "Following refusals as they happen; Ctrl-C stops.\n";
        err().flush();
    }
    QJsonObject params;
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    return followEventLog(
        QStringLiteral("events.export"), params, QStringLiteral("events"), [json](const QJsonObject &data) {
            const std::optional<events::NetworkEvent> event = events::NetworkEvent::fromJson(data);
            if (!event)
                return;
            if (json) {
                out() << events::toJsonLine(*event);
                return;
            }
            out() << timeText(event->time) << "  " << (event->sandbox.isEmpty() ? QStringLiteral("-") : event->sandbox)
                  << "  " << events::outcomeToken(event->outcome) << "  " << hostPort(event->host, event->port) << "  "
                  << programCell(event->program, event->written) << "  " << event->rule << "  " << event->reason
                  << '\n';
        });
}

/** The log's filter as the daemon's events.* methods take it. */
QJsonObject logParams(const QString &sandbox, const QDateTime &since)
{
    QJsonObject params;
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    if (since.isValid())
        params.insert(QStringLiteral("since"), events::formatEventTime(since));
    return params;
}

int runLog(const Invocation &call)
{
    const QString sandbox = call.positional.value(0);
    const bool json = call.parser.isSet(kJson);
    events::LogFilter filter;
    filter.sandbox = sandbox;
    if (const std::optional<int> stopped = sinceOption(call, &filter.since))
        return *stopped;
    if (call.parser.isSet(QStringLiteral("limit"))) {
        bool ok = false;
        filter.limit = call.parser.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || filter.limit < 1)
            return usageError(call.commandPath, QStringLiteral("--limit takes a positive number"));
    }
    if (call.parser.isSet(QStringLiteral("requests")))
        return runRequestLog(call, sandbox, filter.since,
                             call.parser.isSet(QStringLiteral("limit")) ? filter.limit : 0);
    if (call.parser.isSet(QStringLiteral("follow")))
        return followLog(sandbox, json);
    QJsonObject params = logParams(sandbox, filter.since);
    params.insert(QStringLiteral("limit"), filter.limit);
    int code = ExitOk;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("events.log"), params, &code, kPolicyCallTimeoutMs);
    if (!answer)
        return code;
    if (json) {
        printJson(QJsonDocument(*answer));
        return ExitOk;
    }
    const events::PolicyLog log = events::policyLogFromJson(*answer);
    printBlocked("Blocked requests", log.blocked);
    out() << "\nAllowed requests:\n";
    if (log.allowed.isEmpty()) {
        out() << "  (none)\n";
    } else {
        QList<QStringList> rows;
        for (const events::AllowedEntry &e : log.allowed)
            rows << QStringList{e.sandbox.isEmpty() ? QStringLiteral("-") : e.sandbox, hostPort(e.host, e.port), e.rule,
                                QString::number(e.count), timeText(e.lastSeen)};
        printTable({QStringLiteral("SANDBOX"), QStringLiteral("HOST"), QStringLiteral("RULE"), QStringLiteral("COUNT"),
                    QStringLiteral("LAST SEEN")},
                   rows);
    }
    if (!log.failed.isEmpty()) {
        out() << '\n';
        printBlocked("Failed connections (allowed, upstream unreachable)", log.failed);
    }
    return ExitOk;
}

/**
 * Writes the stored refusals @p filter names to @p device, one JSON line each, reading them
 * from the daemon a page at a time up to the moment the export began. The exit code on a
 * failure.
 */
std::optional<int> exportPages(const Invocation &call, const events::EventFilter &filter, QIODevice &device,
                               qint64 *lines)
{
    QJsonObject params = logParams(filter.sandbox, filter.since);
    params.insert(QStringLiteral("until"), events::formatEventTime(events::currentEventTime().addMSecs(1)));
    for (;;) {
        params.insert(QStringLiteral("offset"), *lines);
        int code = ExitOk;
        const std::optional<QJsonObject> page =
            callDaemon(call, QStringLiteral("events.export"), params, &code, kPolicyCallTimeoutMs);
        if (!page)
            return code;
        const QJsonArray events = page->value(QLatin1String("events")).toArray();
        if (events.isEmpty())
            return std::nullopt;
        for (const QJsonValue &event : events) {
            const QByteArray line = QJsonDocument(event.toObject()).toJson(QJsonDocument::Compact) + '\n';
            if (device.write(line) != line.size())
                return failure(QStringLiteral("Cannot write the export: %1.").arg(device.errorString()));
            ++*lines;
        }
    }
}

int runExport(const Invocation &call)
{
    if (!call.parser.isSet(QStringLiteral("jsonl")))
        return usageError(call.commandPath, QStringLiteral("choose the format: --jsonl"));
    events::EventFilter filter;
    filter.sandbox = call.parser.value(kSandbox);
    filter.includeUpstreamFailures = true;
    if (const std::optional<int> stopped = sinceOption(call, &filter.since))
        return *stopped;
    const QString path = call.parser.value(QStringLiteral("output"));
    QSaveFile file(path);
    QFile standardOutput;
    QIODevice *device = &standardOutput;
    if (path.isEmpty() || path == QLatin1String("-")) {
        out().flush();
        if (!standardOutput.open(stdout, QIODevice::WriteOnly))
            return failure(QStringLiteral("cannot write to standard output"));
    } else if (file.open(QIODevice::WriteOnly)) {
        device = &file; // written beside the target and renamed into place: no reader sees half a file
    } else {
        return failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    }
    qint64 lines = 0;
    if (const std::optional<int> stopped = exportPages(call, filter, *device, &lines))
        return *stopped;
    if (device != &file)
        return ExitOk;
    if (!file.commit())
        return failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    err() << "Wrote " << lines << (lines == 1 ? " event" : " events") << " to " << path << ".\n";
    return ExitOk;
}

Command logCommand()
{
    Command log = leaf(QStringLiteral("log"), QStringLiteral("Show what was refused and allowed."),
                       QStringLiteral("Prints the Blocked section (refusals grouped by sandbox, host, port and rule,\n"
                                      "with the program inside that asked last, the reason, the count and when\n"
                                      "last seen), the Allowed section, and\n"
                                      "connections that were allowed but could not reach their destination.\n"
                                      "With --follow, prints each refusal as it happens until interrupted.\n"
                                      "With --requests, prints the HTTP requests Paddock saw instead: plain HTTP\n"
                                      "and HTTPS to hosts whose TLS it terminates (a bound credential), each with\n"
                                      "its method, path (the query shown as ?…), status, bytes up and down, time\n"
                                      "taken and the rule that decided; never a header or a key."),
                       runLog);
    log.positionalSyntax = QStringLiteral("[SANDBOX]");
    log.positionalHelp = {{QStringLiteral("SANDBOX"), QStringLiteral("Only this sandbox's connections.")}};
    log.maxPositional = 1;
    log.options = {jsonOption(QStringLiteral("the log")),
                   QCommandLineOption(QStringLiteral("limit"),
                                      QStringLiteral("At most N lines per section (default 100)."),
                                      QStringLiteral("N")),
                   QCommandLineOption(QStringLiteral("since"),
                                      QStringLiteral("Only what happened in the last DURATION (30s, 10m, 2h, 7d)."),
                                      QStringLiteral("DURATION")),
                   QCommandLineOption(QStringLiteral("follow"), QStringLiteral("Print new refusals as they happen.")),
                   QCommandLineOption(QStringLiteral("requests"),
                                      QStringLiteral("List the HTTP requests Paddock saw, newest first."))};
    return log;
}

Command exportCommand()
{
    Command exportCommand =
        leaf(QStringLiteral("export"), QStringLiteral("Export the stored refusals for audit."),
             QStringLiteral("Writes every stored refusal and upstream failure, oldest first, one JSON\n"
                            "object per line (time, sandbox, kit, host, port, protocol, outcome, rule,\n"
                            "reason, bytesUp, bytesDown, and repeats where one line stands for the same\n"
                            "refusal many times in a second; guardFile and guardName where the secret\n"
                            "guard refused a value), to standard output or FILE."),
             runExport);
    exportCommand.maxPositional = 0;
    exportCommand.options = {
        QCommandLineOption(QStringLiteral("jsonl"), QStringLiteral("JSON lines (the only format).")),
        QCommandLineOption({QStringLiteral("o"), QStringLiteral("output")},
                           QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE")),
        sandboxOption(QStringLiteral("Only this sandbox's events.")),
        QCommandLineOption(QStringLiteral("since"), QStringLiteral("Only the last DURATION (30s, 10m, 2h, 7d)."),
                           QStringLiteral("DURATION")),
    };
    return exportCommand;
}

Command denialsCommand()
{
    Command denials = leaf(QStringLiteral("denials"), QStringLiteral("List the refused hosts, grouped."),
                           QStringLiteral("Prints the refused connections as the window lists them: one line per\n"
                                          "host and sandbox with the count, when last refused and why. Dismissed\n"
                                          "hosts are left out until they are refused again."),
                           runDenials);
    denials.maxPositional = 0;
    denials.options = {sandboxOption(QStringLiteral("Only this sandbox's refusals.")),
                       jsonOption(QStringLiteral("the refusals"))};
    return denials;
}

Command dismissCommand()
{
    Command dismiss = leaf(QStringLiteral("dismiss"), QStringLiteral("Hide a refused host until it is refused again."),
                           QStringLiteral("Takes HOST off the list of refused connections of the sandbox given with\n"
                                          "--sandbox (or of connections without a sandbox); the next refusal\n"
                                          "brings it back."),
                           runDismiss);
    dismiss.positionalSyntax = QStringLiteral("HOST");
    dismiss.minPositional = dismiss.maxPositional = 1;
    dismiss.options = {sandboxOption(QStringLiteral("The sandbox HOST was refused for."))};
    return dismiss;
}

} // namespace

QList<Command> policyLogCommands()
{
    return {logCommand(), denialsCommand(), dismissCommand(), exportCommand()};
}

} // namespace paddock::cli
