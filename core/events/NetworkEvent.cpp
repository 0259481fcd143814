// SPDX-License-Identifier: GPL-3.0-or-later
#include "events/NetworkEvent.h"

#include <QJsonValue>

#include <algorithm>
#include <limits>

namespace paddock::events {
namespace {

const QString kTime = QStringLiteral("time");
const QString kSandbox = QStringLiteral("sandbox");
const QString kKit = QStringLiteral("kit");
const QString kHost = QStringLiteral("host");
const QString kPort = QStringLiteral("port");
const QString kProtocol = QStringLiteral("protocol");
const QString kOutcome = QStringLiteral("outcome");
const QString kRule = QStringLiteral("rule");
const QString kReason = QStringLiteral("reason");
const QString kBytesUp = QStringLiteral("bytesUp");
const QString kBytesDown = QStringLiteral("bytesDown");
const QString kPid = QStringLiteral("pid");
const QString kProgram = QStringLiteral("program");
const QString kExe = QStringLiteral("exe");
const QString kCommand = QStringLiteral("command");
const QString kWritten = QStringLiteral("written");
const QString kRepeats = QStringLiteral("repeats");

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

bool readString(const QJsonObject &object, const QString &key, QString *out, QString *error)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined()) {
        out->clear();
        return true;
    }
    if (!value.isString())
        return fail(error, QStringLiteral("the field \"%1\" must be a string").arg(key));
    *out = value.toString();
    return true;
}

// JSON numbers are doubles: accept only whole values in range, so "port": 1.5 is an error
// rather than a silent truncation.
bool readInteger(const QJsonObject &object, const QString &key, qint64 min, qint64 max, qint64 *out, QString *error)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined()) {
        *out = 0;
        return true;
    }
    const double number = value.toDouble(-1.5);
    if (!value.isDouble() || number != static_cast<double>(static_cast<qint64>(number)) || number < double(min) ||
        number > double(max))
        return fail(error,
                    QStringLiteral("the field \"%1\" must be a whole number from %2 to %3").arg(key).arg(min).arg(max));
    *out = static_cast<qint64>(number);
    return true;
}

} // namespace

QString outcomeToken(NetworkEvent::Outcome outcome)
{
    switch (outcome) {
    case NetworkEvent::Outcome::Allowed:
        return QStringLiteral("allowed");
    case NetworkEvent::Outcome::Denied:
        return QStringLiteral("denied");
    case NetworkEvent::Outcome::UpstreamFailed:
        return QStringLiteral("upstream-failed");
    case NetworkEvent::Outcome::Learned:
        return QStringLiteral("learned");
    }
    return QStringLiteral("denied");
}

std::optional<NetworkEvent::Outcome> outcomeFromToken(const QString &token)
{
    for (auto outcome : {NetworkEvent::Outcome::Allowed, NetworkEvent::Outcome::Denied,
                         NetworkEvent::Outcome::UpstreamFailed, NetworkEvent::Outcome::Learned}) {
        if (token == outcomeToken(outcome))
            return outcome;
    }
    return std::nullopt;
}

bool isKnownProtocol(const QString &protocol)
{
    static const QStringList known{QStringLiteral("connect"),  QStringLiteral("http"), QStringLiteral("socks"),
                                   QStringLiteral("tcp"),      QStringLiteral("udp"),  QStringLiteral("dns"),
                                   QStringLiteral("ssh-agent")};
    return known.contains(protocol);
}

QDateTime currentEventTime()
{
    return QDateTime::fromMSecsSinceEpoch(QDateTime::currentMSecsSinceEpoch(), Qt::UTC);
}

QString formatEventTime(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QString secretGuardRule(const GuardedValue &value)
{
    return QStringLiteral("secret-guard: %1 %2").arg(value.file, value.name);
}

std::optional<GuardedValue> guardedValueOfRule(const QString &rule)
{
    static const QLatin1String prefix("secret-guard: ");
    if (!rule.startsWith(prefix) || rule.endsWith(QLatin1String(" redacted")))
        return std::nullopt;
    const QString rest = rule.mid(prefix.size());
    const qsizetype space = rest.lastIndexOf(QLatin1Char(' '));
    if (space <= 0 || space + 1 >= rest.size())
        return std::nullopt;
    return GuardedValue{rest.left(space), rest.mid(space + 1)};
}

QJsonObject NetworkEvent::toJson() const
{
    QJsonObject json{
        {kTime, formatEventTime(time)},
        {kSandbox, sandbox},
        {kKit, kit},
        {kHost, host},
        {kPort, int(port)},
        {kProtocol, protocol},
        {kOutcome, outcomeToken(outcome)},
        {kRule, rule},
        {kReason, reason},
        {kBytesUp, double(bytesUp)},
        {kBytesDown, double(bytesDown)},
    };
    if (pid > 0) {
        json.insert(kPid, double(pid));
        json.insert(kProgram, program);
        json.insert(kExe, exe);
        json.insert(kCommand, command);
        if (!written.isEmpty())
            json.insert(kWritten, written);
    }
    if (repeats > 1)
        json.insert(kRepeats, double(repeats));
    if (const std::optional<GuardedValue> guarded = guardedValueOfRule(rule)) {
        json.insert(QStringLiteral("guardFile"), guarded->file);
        json.insert(QStringLiteral("guardName"), guarded->name);
    }
    if (request) {
        json.insert(QStringLiteral("method"), request->method);
        json.insert(QStringLiteral("path"), request->path);
        json.insert(QStringLiteral("status"), request->status);
        json.insert(QStringLiteral("durationMs"), double(request->durationMs));
    }
    return json;
}

std::optional<NetworkEvent> NetworkEvent::fromJson(const QJsonObject &object, QString *error)
{
    NetworkEvent event;

    const QJsonValue time = object.value(kTime);
    event.time = QDateTime::fromString(time.toString(), Qt::ISODateWithMs);
    if (!time.isString() || !event.time.isValid()) {
        fail(error, QStringLiteral("the field \"time\" must be an ISO 8601 date and time"));
        return std::nullopt;
    }
    event.time = event.time.toUTC();

    QString outcome;
    if (!readString(object, kOutcome, &outcome, error))
        return std::nullopt;
    const auto parsedOutcome = outcomeFromToken(outcome);
    if (!parsedOutcome) {
        fail(error, QStringLiteral("the field \"outcome\" must be allowed, denied, upstream-failed or learned"));
        return std::nullopt;
    }
    event.outcome = *parsedOutcome;

    if (!readString(object, kSandbox, &event.sandbox, error) || !readString(object, kKit, &event.kit, error) ||
        !readString(object, kHost, &event.host, error) || !readString(object, kRule, &event.rule, error) ||
        !readString(object, kReason, &event.reason, error) || !readString(object, kProtocol, &event.protocol, error) ||
        !readString(object, kProgram, &event.program, error) || !readString(object, kExe, &event.exe, error) ||
        !readString(object, kCommand, &event.command, error) || !readString(object, kWritten, &event.written, error))
        return std::nullopt;
    if (event.host.isEmpty()) {
        fail(error, QStringLiteral("the field \"host\" is missing"));
        return std::nullopt;
    }
    if (!isKnownProtocol(event.protocol)) {
        fail(error, QStringLiteral("the field \"protocol\" must be connect, http, socks, tcp, udp, dns or ssh-agent"));
        return std::nullopt;
    }

    qint64 port = 0;
    // 2^53: the largest count a JSON number carries exactly.
    constexpr qint64 maxBytes = qint64(1) << 53;
    if (!readInteger(object, kPort, 0, 65535, &port, error) ||
        !readInteger(object, kBytesUp, 0, maxBytes, &event.bytesUp, error) ||
        !readInteger(object, kBytesDown, 0, maxBytes, &event.bytesDown, error) ||
        !readInteger(object, kPid, 0, std::numeric_limits<int>::max(), &event.pid, error) ||
        !readInteger(object, kRepeats, 0, maxBytes, &event.repeats, error))
        return std::nullopt;
    event.repeats = std::max<qint64>(event.repeats, 1);
    event.port = static_cast<quint16>(port);
    if (object.contains(QLatin1String("method"))) { // a request record
        RequestDetail request;
        qint64 status = 0;
        if (!readString(object, QStringLiteral("method"), &request.method, error) ||
            !readString(object, QStringLiteral("path"), &request.path, error) ||
            !readInteger(object, QStringLiteral("status"), 0, 999, &status, error) ||
            !readInteger(object, QStringLiteral("durationMs"), 0, maxBytes, &request.durationMs, error))
            return std::nullopt;
        request.status = int(status);
        event.request = request;
    }
    return event;
}

} // namespace paddock::events
