// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentRefusalsModel.h"

#include <QDateTime>
#include <QJsonArray>

namespace paddock::gui {
namespace {

QString agentTopic()
{
    return QStringLiteral("agent");
}

QString timeText(const QString &iso)
{
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs).toLocalTime();
    if (!time.isValid())
        return {};
    return time.date() == QDate::currentDate() ? time.toString(QStringLiteral("HH:mm:ss"))
                                               : time.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace

AgentRefusalsModel::AgentRefusalsModel(QObject *parent) : RowListModel(parent)
{
    using R = const AgentRefusal &;
    // Not "id": that name is QML's own.
    m_rows.setRoles({
        {IdRole, "refusalId", [](R row) { return row.id; }},
        {SandboxRole, "sandbox", [](R row) { return row.sandbox; }},
        {KitRole, "kit", [](R row) { return row.kit; }},
        {ToolRole, "tool", [](R row) { return row.tool; }},
        {ValueRole, "value", [](R row) { return row.value; }},
        {StateRole, "state", [](R row) { return row.state; }},
        {ResolutionRole, "resolution", [](R row) { return row.resolution; }},
        {RuleRole, "rule", [](R row) { return row.rule; }},
        {CountRole, "count", [](R row) { return row.count; }},
        {LastSeenTextRole, "lastSeenText", [](R row) { return timeText(row.time); }},
    });
    followTopics({agentTopic()});
}

std::optional<AgentRefusal> AgentRefusal::fromJson(const QJsonObject &json)
{
    if (json.value(QLatin1String("dismissed")).toBool())
        return std::nullopt;
    const auto text = [&json](const char *name) { return json.value(QLatin1String(name)).toString(); };
    return AgentRefusal{json.value(QLatin1String("id")).toInt(),
                        text("sandbox"),
                        text("kit"),
                        text("tool"),
                        text("value"),
                        text("state"),
                        text("resolution"),
                        text("rule"),
                        json.value(QLatin1String("count")).toInt(),
                        text("time")};
}

void AgentRefusalsModel::daemonEvent(const QString &topic, const QJsonObject &data)
{
    if (topic == agentTopic() && data.value(QLatin1String("type")) == QLatin1String("refusal"))
        addRefusal(data.value(QLatin1String("refusal")).toObject());
}

void AgentRefusalsModel::reload()
{
    load(QStringLiteral("agent.refusals"), {},
         [this](const QJsonObject &result) { setRefusals(result.value(QLatin1String("refusals")).toArray()); });
}

void AgentRefusalsModel::setRefusals(const QJsonArray &refusals)
{
    m_rows.reset(Rows<AgentRefusal>::fromJson(refusals));
}

int AgentRefusalsModel::rowOfId(int id) const
{
    return m_rows.find([id](const AgentRefusal &row) { return row.id == id; });
}

void AgentRefusalsModel::addRefusal(const QJsonObject &refusal)
{
    const std::optional<AgentRefusal> row = AgentRefusal::fromJson(refusal);
    if (!row)
        return;
    const int at = rowOfId(row->id);
    if (at == 0)
        return m_rows.replaceAt(0, *row);
    if (at > 0)
        m_rows.removeAt(at);
    m_rows.insertAt(0, *row);
}

void AgentRefusalsModel::preview(int id, const QString &where)
{
    act(QStringLiteral("agent.allow"),
        {{QStringLiteral("id"), id}, {QStringLiteral("where"), where}, {QStringLiteral("dryRun"), true}},
        [this, id, where](const api::Reply &reply) {
            if (reply.isError())
                return setError(reply.errorMessage());
            setError({});
            const QJsonObject result = reply.result();
            QStringList lines;
            for (const QJsonValue &value : result.value(QLatin1String("diff")).toArray())
                lines << QStringLiteral("%1 %2 | %3")
                             .arg(value[QLatin1String("kind")].toString())
                             .arg(value[QLatin1String("line")].toInt(), 3)
                             .arg(value[QLatin1String("text")].toString());
            QStringList changes;
            for (const QJsonValue &value : result.value(QLatin1String("changes")).toArray())
                changes << QStringLiteral("%1: %2").arg(value[QLatin1String("surface")].toString(),
                                                        value[QLatin1String("pattern")].toString());
            Q_EMIT previewReady(id, where, result.value(QLatin1String("path")).toString(),
                                lines.join(QLatin1Char('\n')), changes.join(QLatin1Char('\n')));
        });
}

void AgentRefusalsModel::allow(int id, const QString &where)
{
    act(QStringLiteral("agent.allow"), {{QStringLiteral("id"), id}, {QStringLiteral("where"), where}},
        [this](const api::Reply &reply) {
            if (reply.isError())
                return setError(reply.errorMessage());
            setError({});
            Q_EMIT allowed(reply.result().value(QLatin1String("path")).toString());
        });
}

void AgentRefusalsModel::dismiss(int id)
{
    act(QStringLiteral("agent.dismiss"), {{QStringLiteral("id"), id}}, [this, id](const api::Reply &reply) {
        if (reply.isError())
            return setError(reply.errorMessage());
        if (const int row = rowOfId(id); row >= 0)
            m_rows.removeAt(row);
    });
}

} // namespace paddock::gui
