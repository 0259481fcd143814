// SPDX-License-Identifier: GPL-3.0-or-later
#include "events/LogJson.h"

#include "events/NetworkEvent.h"

#include <QJsonArray>

namespace paddock::events {
namespace {

QJsonValue timeJson(const QDateTime &time)
{
    return formatEventTime(time); // "" when not known, as `policy log --json` always wrote it
}

QDateTime timeOf(const QJsonObject &json, QLatin1String key)
{
    return QDateTime::fromString(json.value(key).toString(), Qt::ISODateWithMs);
}

/** The fields every line has. */
template<typename Entry>
QJsonObject placeJson(const Entry &entry)
{
    return {{QStringLiteral("host"), entry.host},
            {QStringLiteral("port"), entry.port},
            {QStringLiteral("sandbox"), entry.sandbox},
            {QStringLiteral("kit"), entry.kit},
            {QStringLiteral("rule"), entry.rule},
            {QStringLiteral("count"), entry.count},
            {QStringLiteral("firstSeen"), timeJson(entry.firstSeen)},
            {QStringLiteral("lastSeen"), timeJson(entry.lastSeen)}};
}

template<typename Entry>
Entry placeOf(const QJsonObject &json)
{
    Entry entry;
    entry.host = json.value(QLatin1String("host")).toString();
    entry.port = quint16(json.value(QLatin1String("port")).toInt());
    entry.sandbox = json.value(QLatin1String("sandbox")).toString();
    entry.kit = json.value(QLatin1String("kit")).toString();
    entry.rule = json.value(QLatin1String("rule")).toString();
    entry.count = json.value(QLatin1String("count")).toInteger();
    entry.firstSeen = timeOf(json, QLatin1String("firstSeen"));
    entry.lastSeen = timeOf(json, QLatin1String("lastSeen"));
    return entry;
}

template<typename Entry>
QJsonArray arrayOf(const QList<Entry> &entries)
{
    QJsonArray array;
    for (const Entry &entry : entries)
        array << toJson(entry);
    return array;
}

template<typename Entry>
QList<Entry> entriesOf(const QJsonValue &value, Entry (*read)(const QJsonObject &))
{
    QList<Entry> entries;
    for (const QJsonValue &item : value.toArray())
        entries << read(item.toObject());
    return entries;
}

} // namespace

QJsonObject toJson(const BlockedEntry &entry)
{
    QJsonObject json = placeJson(entry);
    json.insert(QStringLiteral("protocol"), entry.protocol);
    json.insert(QStringLiteral("reason"), entry.reason);
    json.insert(QStringLiteral("program"), entry.program);
    json.insert(QStringLiteral("command"), entry.command);
    json.insert(QStringLiteral("written"), entry.written);
    return json;
}

QJsonObject toJson(const AllowedEntry &entry)
{
    QJsonObject json = placeJson(entry);
    json.insert(QStringLiteral("bytesUp"), entry.bytesUp);
    json.insert(QStringLiteral("bytesDown"), entry.bytesDown);
    return json;
}

QJsonObject toJson(const PolicyLog &log)
{
    return {{QStringLiteral("blocked"), arrayOf(log.blocked)},
            {QStringLiteral("allowed"), arrayOf(log.allowed)},
            {QStringLiteral("failed"), arrayOf(log.failed)}};
}

BlockedEntry blockedEntryFromJson(const QJsonObject &json)
{
    auto entry = placeOf<BlockedEntry>(json);
    entry.protocol = json.value(QLatin1String("protocol")).toString();
    entry.reason = json.value(QLatin1String("reason")).toString();
    entry.program = json.value(QLatin1String("program")).toString();
    entry.command = json.value(QLatin1String("command")).toString();
    entry.written = json.value(QLatin1String("written")).toString();
    return entry;
}

AllowedEntry allowedEntryFromJson(const QJsonObject &json)
{
    auto entry = placeOf<AllowedEntry>(json);
    entry.bytesUp = json.value(QLatin1String("bytesUp")).toInteger();
    entry.bytesDown = json.value(QLatin1String("bytesDown")).toInteger();
    return entry;
}

PolicyLog policyLogFromJson(const QJsonObject &json)
{
    PolicyLog log;
    log.blocked = entriesOf(json.value(QLatin1String("blocked")), blockedEntryFromJson);
    log.allowed = entriesOf(json.value(QLatin1String("allowed")), allowedEntryFromJson);
    log.failed = entriesOf(json.value(QLatin1String("failed")), blockedEntryFromJson);
    return log;
}

} // namespace paddock::events
