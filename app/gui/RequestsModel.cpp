// SPDX-License-Identifier: GPL-3.0-or-later
#include "RequestsModel.h"

#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace paddock::gui {
namespace {

const QString kTopic = QStringLiteral("requests");

QString timeText(const QDateTime &time)
{
    const QDateTime local = time.toLocalTime();
    return local.date() == QDate::currentDate() ? local.toString(QStringLiteral("HH:mm:ss"))
                                                : local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace

RequestsModel::RequestsModel(QObject *parent) : RowListModel(parent)
{
    using R = const RequestRecord &;
    m_rows.setRoles({{TimeRole, "time", [](R row) { return row.time; }},
                     {TimeTextRole, "timeText", [](R row) { return timeText(row.time); }},
                     {SandboxRole, "sandbox", [](R row) { return row.sandbox; }},
                     {MethodRole, "method", [](R row) { return row.method; }},
                     {HostRole, "host", [](R row) { return row.host; }},
                     {PortRole, "port", [](R row) { return row.port; }},
                     {PathRole, "path", [](R row) { return row.path; }},
                     {UrlRole, "url", [](R row) { return row.url(); }},
                     {StatusRole, "status", [](R row) { return row.status; }},
                     {OutcomeRole, "outcome", [](R row) { return row.outcome; }},
                     {RuleRole, "rule", [](R row) { return row.rule; }},
                     {ReasonRole, "reason", [](R row) { return row.reason; }},
                     {ProgramRole, "program", [](R row) { return row.program; }},
                     {CommandRole, "command", [](R row) { return row.command; }},
                     {WrittenRole, "written", [](R row) { return row.written; }},
                     {BytesUpRole, "bytesUp", [](R row) { return row.bytesUp; }},
                     {BytesDownRole, "bytesDown", [](R row) { return row.bytesDown; }},
                     {DurationRole, "durationMs", [](R row) { return row.durationMs; }}},
                    UrlRole);
    followTopics({kTopic});
}

void RequestsModel::setPolicy(NetworkPolicy *policy)
{
    if (m_policy == policy)
        return;
    m_policy = policy;
    // The requests are read from the connection the policy uses, and again when it changes.
    followDaemonOf(policy);
    emit policyChanged();
}

void RequestsModel::setSandbox(const QString &sandbox)
{
    if (sandbox == m_sandbox)
        return;
    m_sandbox = sandbox;
    emit sandboxChanged();
    reload();
}

void RequestsModel::setLimit(int limit)
{
    limit = std::clamp(limit, 1, 10000);
    if (limit == m_limit)
        return;
    m_limit = limit;
    emit limitChanged();
    reload();
}

void RequestsModel::narrow(const QString &host, double fromMs, double untilMs)
{
    const qint64 from = std::max<qint64>(0, qint64(fromMs));
    const qint64 until = std::max<qint64>(0, qint64(untilMs));
    if (host == m_host && from == m_fromMs && until == m_untilMs)
        return;
    m_host = host;
    m_fromMs = from;
    m_untilMs = until;
    emit narrowed();
    reload();
}

void RequestsModel::daemonEvent(const QString &topic, const QJsonObject &data)
{
    if (topic != kTopic)
        return;
    if (loading())
        m_arrivedWhileLoading << data;
    else
        addRecord(data);
}

void RequestsModel::reload()
{
    QJsonObject params{{QStringLiteral("limit"), m_limit}};
    if (!m_sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), m_sandbox);
    if (!m_host.isEmpty())
        params.insert(QStringLiteral("host"), m_host);
    const auto time = [](qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs); };
    if (m_fromMs > 0)
        params.insert(QStringLiteral("since"), time(m_fromMs));
    if (m_untilMs > 0)
        params.insert(QStringLiteral("until"), time(m_untilMs));
    m_arrivedWhileLoading.clear();
    // Records that arrive while it loads are kept aside; those the answer has are left out.
    const bool sent = load(QStringLiteral("events.requests"), params, [this](const QJsonObject &result) {
        setRecords(result.value(QLatin1String("requests")).toArray());
        QSet<QByteArray> loaded;
        for (const RequestRecord &record : m_rows.all())
            loaded.insert(record.key);
        for (const QJsonObject &record : std::exchange(m_arrivedWhileLoading, {})) {
            if (!loaded.contains(RequestRecord::fromJson(record)->key))
                addRecord(record);
        }
    });
    if (!sent)
        m_arrivedWhileLoading.clear();
}

std::optional<RequestRecord> RequestRecord::fromJson(const QJsonObject &json)
{
    RequestRecord record;
    const auto text = [&json](const char *name) { return json.value(QLatin1String(name)).toString(); };
    record.time = QDateTime::fromString(text("time"), Qt::ISODateWithMs).toUTC();
    record.sandbox = text("sandbox");
    record.method = text("method");
    record.host = text("host");
    record.port = json.value(QLatin1String("port")).toInt();
    record.protocol = text("protocol");
    record.path = text("path");
    record.status = json.value(QLatin1String("status")).toInt();
    record.outcome = text("outcome");
    record.rule = text("rule");
    record.reason = text("reason");
    record.program = text("program");
    record.command = text("command");
    record.written = text("written");
    record.bytesUp = qint64(json.value(QLatin1String("bytesUp")).toDouble());
    record.bytesDown = qint64(json.value(QLatin1String("bytesDown")).toDouble());
    record.durationMs = qint64(json.value(QLatin1String("durationMs")).toDouble());
    record.key = QJsonDocument(json).toJson(QJsonDocument::Compact);
    return record;
}

void RequestsModel::setRecords(const QJsonArray &records)
{
    QList<RequestRecord> kept = Rows<RequestRecord>::fromJson(records);
    if (kept.size() > m_limit)
        kept.resize(m_limit);
    m_rows.reset(std::move(kept));
}

void RequestsModel::addRecord(const QJsonObject &json)
{
    std::optional<RequestRecord> record = RequestRecord::fromJson(json);
    if (!m_sandbox.isEmpty() && record->sandbox != m_sandbox)
        return;
    if (!m_host.isEmpty() && record->host != m_host)
        return;
    const qint64 ms = record->time.toMSecsSinceEpoch();
    if ((m_fromMs > 0 && ms < m_fromMs) || (m_untilMs > 0 && ms >= m_untilMs))
        return;
    insertNewest(std::move(*record));
}

void RequestsModel::insertNewest(RequestRecord record)
{
    m_rows.insertAt(0, std::move(record));
    if (m_rows.size() > m_limit)
        m_rows.removeAt(m_rows.size() - 1);
}

QString RequestRecord::url() const
{
    const bool plain = protocol == QLatin1String("http");
    const QString shownHost = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    const bool usualPort = port == (plain ? 80 : 443);
    return (plain ? QStringLiteral("http://") : QStringLiteral("https://")) + shownHost +
           (usualPort ? QString() : QLatin1Char(':') + QString::number(port)) + path;
}

bool RequestRecord::matches(const QString &filter) const
{
    const auto has = [&filter](const QString &text) { return text.contains(filter, Qt::CaseInsensitive); };
    return has(method) || has(url()) || has(QString::number(status)) || has(program) || has(sandbox) || has(outcome);
}

} // namespace paddock::gui
