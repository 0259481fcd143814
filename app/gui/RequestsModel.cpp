// SPDX-License-Identifier: GPL-3.0-or-later
#include "RequestsModel.h"

#include "api/DaemonClient.h"

#include <QJsonDocument>

#include <algorithm>

namespace paddock::gui {
namespace {

const QString kTopic = QStringLiteral("requests");

QString urlOf(const RequestsModel::Record &record)
{
    const bool plain = record.protocol == QLatin1String("http");
    const QString host =
        record.host.contains(QLatin1Char(':')) ? QLatin1Char('[') + record.host + QLatin1Char(']') : record.host;
    const bool usualPort = record.port == (plain ? 80 : 443);
    return (plain ? QStringLiteral("http://") : QStringLiteral("https://")) + host +
           (usualPort ? QString() : QLatin1Char(':') + QString::number(record.port)) + record.path;
}

} // namespace

RequestsModel::RequestsModel(QObject *parent) : QAbstractListModel(parent) {}

int RequestsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_shown.size());
}

QVariant RequestsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Record &row = m_records.at(m_shown.at(index.row()));
    switch (role) {
    case TimeRole:
        return row.time;
    case TimeTextRole: {
        const QDateTime local = row.time.toLocalTime();
        return local.date() == QDate::currentDate() ? local.toString(QStringLiteral("HH:mm:ss"))
                                                    : local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    case SandboxRole:
        return row.sandbox;
    case MethodRole:
        return row.method;
    case HostRole:
        return row.host;
    case PortRole:
        return row.port;
    case PathRole:
        return row.path;
    case Qt::DisplayRole:
    case UrlRole:
        return urlOf(row);
    case StatusRole:
        return row.status;
    case OutcomeRole:
        return row.outcome;
    case RuleRole:
        return row.rule;
    case ReasonRole:
        return row.reason;
    case ProgramRole:
        return row.program;
    case CommandRole:
        return row.command;
    case WrittenRole:
        return row.written;
    case BytesUpRole:
        return row.bytesUp;
    case BytesDownRole:
        return row.bytesDown;
    case DurationRole:
        return row.durationMs;
    default:
        return {};
    }
}

QHash<int, QByteArray> RequestsModel::roleNames() const
{
    return {{TimeRole, "time"},           {TimeTextRole, "timeText"},
            {SandboxRole, "sandbox"},     {MethodRole, "method"},
            {HostRole, "host"},           {PortRole, "port"},
            {PathRole, "path"},           {UrlRole, "url"},
            {StatusRole, "status"},       {OutcomeRole, "outcome"},
            {RuleRole, "rule"},           {ReasonRole, "reason"},
            {ProgramRole, "program"},     {CommandRole, "command"},
            {BytesUpRole, "bytesUp"},     {BytesDownRole, "bytesDown"},
            {DurationRole, "durationMs"}, {WrittenRole, "written"}};
}

void RequestsModel::setPolicy(NetworkPolicy *policy)
{
    if (m_policy == policy)
        return;
    if (m_policy)
        m_policy->disconnect(this);
    m_policy = policy;
    if (m_policy) {
        connect(m_policy, &NetworkPolicy::connectedChanged, this, [this] {
            if (m_policy->connected())
                reload();
        });
        reload();
    }
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

void RequestsModel::setFilter(const QString &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    refilter();
    emit filterChanged();
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

void RequestsModel::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void RequestsModel::setError(const QString &error)
{
    if (error == m_error)
        return;
    m_error = error;
    emit errorChanged();
}

void RequestsModel::reload()
{
    api::DaemonClient *client = m_policy ? m_policy->client() : nullptr;
    if (!client || !client->isConnected())
        return;
    // Listens on the client the policy uses now (it changes when the daemon does).
    if (m_client)
        m_client->disconnect(this);
    m_client = client;
    connect(client, &api::DaemonClient::eventReceived, this, [this](const QString &topic, const QJsonObject &data) {
        if (topic != kTopic)
            return;
        if (m_loading)
            m_arrivedWhileLoading << data;
        else
            addRecord(data);
    });
    setLoading(true);
    m_arrivedWhileLoading.clear();
    const quint64 generation = ++m_generation;
    // Subscribed first: a record sent from now on is in the answer below, or arrives after it.
    client->subscribe({kTopic});
    QJsonObject params{{QStringLiteral("limit"), m_limit}};
    if (!m_sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), m_sandbox);
    client->call(QStringLiteral("events.requests"), params,
                 [this, generation, self = QPointer<RequestsModel>(this)](const api::Reply &reply) {
                     if (!self || generation != m_generation)
                         return;
                     if (reply.isError()) {
                         setError(reply.errorMessage());
                         m_arrivedWhileLoading.clear();
                         setLoading(false);
                         return;
                     }
                     setError({});
                     setRecords(reply.result().value(QLatin1String("requests")).toArray());
                     QSet<QByteArray> loaded;
                     for (const Record &record : std::as_const(m_records))
                         loaded.insert(record.key);
                     const QList<QJsonObject> arrived = std::exchange(m_arrivedWhileLoading, {});
                     setLoading(false);
                     for (const QJsonObject &record : arrived) {
                         if (!loaded.contains(recordOf(record).key))
                             addRecord(record);
                     }
                 });
}

RequestsModel::Record RequestsModel::recordOf(const QJsonObject &json)
{
    Record record;
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
    beginResetModel();
    m_records.clear();
    for (const QJsonValue &value : records) {
        if (m_records.size() >= m_limit)
            break;
        m_records << recordOf(value.toObject());
    }
    showMatching();
    endResetModel();
    emit countChanged();
}

void RequestsModel::addRecord(const QJsonObject &json)
{
    Record record = recordOf(json);
    if (!m_sandbox.isEmpty() && record.sandbox != m_sandbox)
        return;
    insertNewest(std::move(record));
}

void RequestsModel::insertNewest(Record record)
{
    const bool shown = matches(record);
    if (shown)
        beginInsertRows({}, 0, 0);
    m_records.prepend(std::move(record));
    for (int &index : m_shown)
        ++index;
    if (shown) {
        m_shown.prepend(0);
        endInsertRows();
    }
    if (m_records.size() > m_limit) {
        const int oldest = int(m_records.size()) - 1;
        if (!m_shown.isEmpty() && m_shown.last() == oldest) {
            beginRemoveRows({}, int(m_shown.size()) - 1, int(m_shown.size()) - 1);
            m_shown.removeLast();
            m_records.removeLast();
            endRemoveRows();
        } else {
            m_records.removeLast();
        }
    }
    emit countChanged();
}

bool RequestsModel::matches(const Record &record) const
{
    const QString wanted = m_filter.trimmed();
    if (wanted.isEmpty())
        return true;
    const auto has = [&wanted](const QString &text) { return text.contains(wanted, Qt::CaseInsensitive); };
    return has(record.method) || has(urlOf(record)) || has(QString::number(record.status)) || has(record.program) ||
           has(record.sandbox) || has(record.outcome);
}

void RequestsModel::showMatching()
{
    m_shown.clear();
    for (int i = 0; i < m_records.size(); ++i) {
        if (matches(m_records.at(i)))
            m_shown << i;
    }
}

void RequestsModel::refilter()
{
    beginResetModel();
    showMatching();
    endResetModel();
    emit countChanged();
}

QVariantMap RequestsModel::get(int row) const
{
    QVariantMap map;
    if (row < 0 || row >= m_shown.size())
        return map;
    const QModelIndex at = index(row);
    const QHash<int, QByteArray> names = roleNames();
    for (auto it = names.cbegin(); it != names.cend(); ++it)
        map.insert(QString::fromLatin1(it.value()), data(at, it.key()));
    return map;
}

} // namespace paddock::gui
