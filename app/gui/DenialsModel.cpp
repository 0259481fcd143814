// SPDX-License-Identifier: GPL-3.0-or-later
#include "DenialsModel.h"

#include "events/NetworkEvent.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcDenials, "paddock.gui.denials", QtInfoMsg)

namespace paddock::gui {
namespace {

QDateTime parseTime(const QJsonValue &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs).toUTC();
}

} // namespace

DenialsModel::DenialsModel(QObject *parent) : RowListModel(parent)
{
    using R = const DenialGroup &;
    m_rows.setRoles({{HostRole, "host", [](R row) { return row.host; }},
                     {SandboxRole, "sandbox", [](R row) { return row.sandbox; }},
                     {KitRole, "kit", [](R row) { return row.kit; }},
                     {PortRole, "port", [](R row) { return row.port; }},
                     {ProtocolRole, "protocol", [](R row) { return row.protocol; }},
                     {ReasonRole, "reason", [](R row) { return row.reason; }},
                     {ProgramRole, "program", [](R row) { return row.program; }},
                     {CommandRole, "command", [](R row) { return row.command; }},
                     {WrittenRole, "written", [](R row) { return row.written; }},
                     {RuleRole, "rule", [](R row) { return row.rule; }},
                     {GuardFileRole, "guardFile", [](R row) { return row.guardFile; }},
                     {GuardNameRole, "guardName", [](R row) { return row.guardName; }},
                     {CountRole, "count", [](R row) { return row.count; }},
                     {FirstSeenRole, "firstSeen", [](R row) { return row.firstSeen; }},
                     {LastSeenRole, "lastSeen", [](R row) { return row.lastSeen; }},
                     {LastSeenTextRole, "lastSeenText",
                      [](R row) {
                          const QDateTime local = row.lastSeen.toLocalTime();
                          return local.date() == QDate::currentDate()
                                     ? local.toString(QStringLiteral("HH:mm:ss"))
                                     : local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
                      }}},
                    HostRole);
    followTopics({QStringLiteral("network")});
}

QString DenialsModel::keyOf(const QString &host, const QString &sandbox)
{
    return sandbox + QLatin1Char('\n') + host;
}

std::optional<DenialGroup> DenialGroup::fromJson(const QJsonObject &json)
{
    const auto text = [&json](const char *name) { return json.value(QLatin1String(name)).toString(); };
    const QDateTime time = parseTime(json.value(QLatin1String("time")));
    DenialGroup row;
    row.host = text("host");
    row.sandbox = text("sandbox");
    row.kit = text("kit");
    row.port = json.value(QLatin1String("port")).toInt();
    row.protocol = text("protocol");
    row.reason = text("reason");
    row.rule = text("rule");
    if (const std::optional<events::GuardedValue> guarded = events::guardedValueOfRule(row.rule)) {
        row.guardFile = guarded->file;
        row.guardName = guarded->name;
    }
    row.program = text("program");
    row.command = text("command");
    row.written = text("written");
    row.count = json.contains(QLatin1String("count")) ? json.value(QLatin1String("count")).toInteger() : 1;
    row.firstSeen =
        json.contains(QLatin1String("firstSeen")) ? parseTime(json.value(QLatin1String("firstSeen"))) : time;
    row.lastSeen = json.contains(QLatin1String("lastSeen")) ? parseTime(json.value(QLatin1String("lastSeen"))) : time;
    return row;
}

void DenialsModel::daemonEvent(const QString &topic, const QJsonObject &data)
{
    if (topic == QLatin1String("network"))
        addEvent(data);
}

void DenialsModel::setLimit(int limit)
{
    if (limit == m_limit)
        return;
    m_limit = limit;
    emit limitChanged();
}

void DenialsModel::reload()
{
    if (!connected())
        return;
    beginLoad();
    m_incoming = {};
    fetchPage(++m_generation, 0);
}

void DenialsModel::fetchPage(quint64 generation, int offset)
{
    const int pageSize = std::min(kPageSize, m_limit - offset);
    const bool sent = request(
        QStringLiteral("events.denials"), {{QStringLiteral("limit"), pageSize}, {QStringLiteral("offset"), offset}},
        [this, generation, offset, pageSize](const api::Reply &reply) {
            if (generation != m_generation)
                return;
            if (reply.isError()) {
                // The status line already says when the daemon is gone: not a warning.
                qCInfo(lcDenials).noquote() << "cannot list the refusals:" << reply.errorMessage();
                return failLoad(reply.errorMessage());
            }
            const QJsonArray page = reply.result().value(QLatin1String("denials")).toArray();
            for (const QJsonValue &value : page)
                m_incoming.append(value);
            const int total = reply.result().value(QLatin1String("total")).toInt();
            const int next = offset + int(page.size());
            if (page.size() == pageSize && next < std::min(total, m_limit))
                return fetchPage(generation, next);
            setDenials(std::exchange(m_incoming, {}));
            endLoad();
        });
    if (!sent)
        failLoad(notConnectedMessage());
}

void DenialsModel::setDenials(const QJsonArray &denials)
{
    QList<DenialGroup> rows = Rows<DenialGroup>::fromJson(denials);
    m_loadedUpTo.clear();
    for (const DenialGroup &row : std::as_const(rows))
        m_loadedUpTo.insert(keyOf(row.host, row.sandbox), row.lastSeen);
    m_rows.reset(std::move(rows));
    reindex();
}

void DenialsModel::reindex()
{
    m_index.clear();
    for (int row = 0; row < m_rows.size(); ++row)
        m_index.insert(keyOf(m_rows.at(row).host, m_rows.at(row).sandbox), row);
}

void DenialsModel::addEvent(const QJsonObject &event)
{
    // A secret whose command or reference failed: the request was refused, the event says why.
    const QString rule = event.value(QLatin1String("rule")).toString();
    if (event.value(QLatin1String("outcome")).toString() == QLatin1String("upstream-failed") &&
        rule.startsWith(QLatin1String("secret ")))
        return emit secretNotSent(rule.mid(7), event.value(QLatin1String("sandbox")).toString(),
                                  event.value(QLatin1String("reason")).toString());
    // While loading, the answer on its way holds this event already.
    if (loading() || event.value(QLatin1String("outcome")).toString() != QLatin1String("denied"))
        return;
    const std::optional<DenialGroup> refused = DenialGroup::fromJson(event);
    const QString key = keyOf(refused->host, refused->sandbox);
    if (const auto loaded = m_loadedUpTo.constFind(key);
        loaded != m_loadedUpTo.cend() && refused->lastSeen <= loaded.value())
        return;

    const auto found = m_index.constFind(key);
    if (found == m_index.cend()) {
        m_rows.insertAt(0, *refused);
        reindex();
        return emit denied(refused->host, refused->sandbox, refused->port, true);
    }
    // Refused again: counted in place, with what this refusal says of it.
    const DenialGroup &before = m_rows.at(found.value());
    DenialGroup row = *refused;
    row.count = before.count + 1;
    row.firstSeen = before.firstSeen;
    row.lastSeen = std::max(before.lastSeen, refused->lastSeen);
    m_rows.replaceAt(found.value(), row);
    emit denied(row.host, row.sandbox, row.port, false);
}

void DenialsModel::removeDenial(const QString &host, const QString &sandbox)
{
    const QString key = keyOf(host, sandbox);
    const auto found = m_index.constFind(key);
    if (found == m_index.cend())
        return;
    // Requests refused before the row went away (allowed or dismissed) may still be on their
    // way as events: they must not bring the row back. A refusal from now on does.
    m_loadedUpTo.insert(key, QDateTime::currentDateTimeUtc());
    m_rows.removeAt(found.value());
    reindex();
}

int DenialsModel::rowOf(const QString &host, const QString &sandbox) const
{
    return m_index.value(keyOf(host, sandbox), -1);
}

} // namespace paddock::gui
