// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy log|denials|dismiss|export: what the policy refused and allowed.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

#include "events/EventStore.h"
#include "events/Jsonl.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QThread>

#include <csignal>
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

/** Opens the event log for reading, with what happened up to now in it; the exit code when it cannot be used. */
std::optional<int> openEvents(events::EventStore &store)
{
    flushEventsInDaemon();
    if (!store.open())
        return failure(store.errorString());
    return std::nullopt;
}

QString hostPort(const QString &host, quint16 port)
{
    return (host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host) + QLatin1Char(':') +
           QString::number(port);
}

QJsonObject blockedJson(const events::BlockedEntry &entry)
{
    return QJsonObject{{QStringLiteral("sandbox"), entry.sandbox},
                       {QStringLiteral("kit"), entry.kit},
                       {QStringLiteral("host"), entry.host},
                       {QStringLiteral("port"), entry.port},
                       {QStringLiteral("protocol"), entry.protocol},
                       {QStringLiteral("rule"), entry.rule},
                       {QStringLiteral("reason"), entry.reason},
                       {QStringLiteral("program"), entry.program},
                       {QStringLiteral("command"), entry.command},
                       {QStringLiteral("written"), entry.written},
                       {QStringLiteral("count"), entry.count},
                       {QStringLiteral("firstSeen"), events::formatEventTime(entry.firstSeen)},
                       {QStringLiteral("lastSeen"), events::formatEventTime(entry.lastSeen)}};
}

QJsonObject allowedJson(const events::AllowedEntry &entry)
{
    return QJsonObject{{QStringLiteral("sandbox"), entry.sandbox},
                       {QStringLiteral("kit"), entry.kit},
                       {QStringLiteral("host"), entry.host},
                       {QStringLiteral("port"), entry.port},
                       {QStringLiteral("rule"), entry.rule},
                       {QStringLiteral("count"), entry.count},
                       {QStringLiteral("bytesUp"), entry.bytesUp},
                       {QStringLiteral("bytesDown"), entry.bytesDown},
                       {QStringLiteral("firstSeen"), events::formatEventTime(entry.firstSeen)},
                       {QStringLiteral("lastSeen"), events::formatEventTime(entry.lastSeen)}};
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

volatile std::sig_atomic_t g_stopFollowing = 0;
void onFollowSignal(int)
{
    g_stopFollowing = 1;
}

/**
 * Prints refusals as they are stored, polling the database every 200 ms for rows at or after
 * the newest time seen (the lines already printed at that time are remembered, so none is
 * printed twice). Stops on SIGINT or SIGTERM.
 */
int followLog(events::EventStore &store, const QString &sandbox, bool json)
{
    struct sigaction action = {};
    action.sa_handler = onFollowSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);

    events::EventFilter filter;
    filter.sandbox = sandbox;
    filter.includeUpstreamFailures = true;
    filter.since = events::currentEventTime();
    QSet<QByteArray> printedAtSince;
    if (!json) {
        err() << "Following refusals as they happen; Ctrl-C stops.\n";
        err().flush();
    }
    while (!g_stopFollowing) {
        QDateTime newest = filter.since;
        QSet<QByteArray> printedAtNewest;
        const bool ok = store.forEachEvent(filter, [&](const events::NetworkEvent &event) {
            const QByteArray line = events::toJsonLine(event);
            if (event.time == filter.since && printedAtSince.contains(line))
                return true;
            if (json)
                out() << line;
            else
                out() << timeText(event.time) << "  " << (event.sandbox.isEmpty() ? QStringLiteral("-") : event.sandbox)
                      << "  " << events::outcomeToken(event.outcome) << "  " << hostPort(event.host, event.port) << "  "
                      << programCell(event.program, event.written) << "  " << event.rule << "  " << event.reason
                      << '\n';
            if (event.time > newest) {
                newest = event.time;
                printedAtNewest.clear();
            }
            printedAtNewest.insert(line);
            return true;
        });
        out().flush();
        if (!ok)
            return failure(store.errorString());
        if (newest == filter.since)
            printedAtSince.unite(printedAtNewest);
        else
            printedAtSince = printedAtNewest;
        filter.since = newest;
        QThread::msleep(200);
    }
    return ExitOk;
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
    events::EventStore store;
    if (const std::optional<int> stopped = openEvents(store))
        return *stopped;
    if (call.parser.isSet(QStringLiteral("follow")))
        return followLog(store, sandbox, json);

    const events::PolicyLog log = store.log(filter);
    if (json) {
        QJsonArray blocked, allowed, failed;
        for (const events::BlockedEntry &entry : log.blocked)
            blocked << blockedJson(entry);
        for (const events::AllowedEntry &entry : log.allowed)
            allowed << allowedJson(entry);
        for (const events::BlockedEntry &entry : log.failed)
            failed << blockedJson(entry);
        printJson(QJsonDocument(QJsonObject{{QStringLiteral("blocked"), blocked},
                                            {QStringLiteral("allowed"), allowed},
                                            {QStringLiteral("failed"), failed}}));
        return ExitOk;
    }
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

int runExport(const Invocation &call)
{
    if (!call.parser.isSet(QStringLiteral("jsonl")))
        return usageError(call.commandPath, QStringLiteral("choose the format: --jsonl"));
    events::EventFilter filter;
    filter.sandbox = call.parser.value(kSandbox);
    filter.includeUpstreamFailures = true;
    if (const std::optional<int> stopped = sinceOption(call, &filter.since))
        return *stopped;
    events::EventStore store;
    if (const std::optional<int> stopped = openEvents(store))
        return *stopped;
    QString error;
    const QString path = call.parser.value(QStringLiteral("output"));
    if (path.isEmpty() || path == QLatin1String("-")) {
        out().flush();
        QFile stdoutFile;
        if (!stdoutFile.open(stdout, QIODevice::WriteOnly))
            return failure(QStringLiteral("cannot write to standard output"));
        if (events::writeJsonl(store, filter, stdoutFile, &error) < 0)
            return failure(error);
        return ExitOk;
    }
    // Written beside the target and renamed into place, so a reader never sees half a file.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    const qint64 lines = events::writeJsonl(store, filter, file, &error);
    if (lines < 0)
        return failure(error);
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
                            "refusal many times in a second), to standard output or FILE."),
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
