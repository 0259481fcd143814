// SPDX-License-Identifier: GPL-3.0-or-later
#include "DenialsModel.h"

#include "api/DaemonClient.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcDenials, "paddock.gui.denials", QtInfoMsg)

namespace paddock::gui {
namespace {

QDateTime parseTime(const QJsonValue &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs).toUTC();
}

} // namespace

DenialsModel::DenialsModel(QObject *parent) : QAbstractListModel(parent) {}

int DenialsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant DenialsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Denial &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case HostRole:
        return row.host;
    case SandboxRole:
        return row.sandbox;
    case KitRole:
        return row.kit;
    case PortRole:
        return row.port;
    case ProtocolRole:
        return row.protocol;
    case ReasonRole:
        return row.reason;
    case ProgramRole:
        return row.program;
    case CommandRole:
        return row.command;
    case WrittenRole:
        return row.written;
    case RuleRole:
        return row.rule;
    case CountRole:
        return row.count;
    case FirstSeenRole:
        return row.firstSeen;
    case LastSeenRole:
        return row.lastSeen;
    case LastSeenTextRole: {
        const QDateTime local = row.lastSeen.toLocalTime();
        return local.date() == QDate::currentDate() ? local.toString(QStringLiteral("HH:mm:ss"))
                                                    : local.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    default:
        return {};
    }
}

QHash<int, QByteArray> DenialsModel::roleNames() const
{
    return {{HostRole, "host"},         {SandboxRole, "sandbox"},
            {KitRole, "kit"},           {PortRole, "port"},
            {ProtocolRole, "protocol"}, {ReasonRole, "reason"},
            {ProgramRole, "program"},   {CommandRole, "command"},
            {WrittenRole, "written"},   {RuleRole, "rule"},
            {CountRole, "count"},       {FirstSeenRole, "firstSeen"},
            {LastSeenRole, "lastSeen"}, {LastSeenTextRole, "lastSeenText"}};
}

QString DenialsModel::keyOf(const QString &host, const QString &sandbox)
{
    return sandbox + QLatin1Char('\n') + host;
}

void DenialsModel::setClient(api::DaemonClient *client)
{
    if (m_client == client)
        return;
    if (m_client)
        m_client->disconnect(this);
    m_client = client;
    if (!m_client)
        return;
    connect(m_client, &api::DaemonClient::connected, this, &DenialsModel::reload);
    connect(m_client, &api::DaemonClient::eventReceived, this, [this](const QString &topic, const QJsonObject &data) {
        if (topic == QLatin1String("network"))
            addEvent(data);
    });
    if (m_client->isConnected())
        reload();
}

void DenialsModel::setLimit(int limit)
{
    if (limit == m_limit)
        return;
    m_limit = limit;
    emit limitChanged();
}

void DenialsModel::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void DenialsModel::reload()
{
    if (!m_client || !m_client->isConnected())
        return;
    setLoading(true);
    const quint64 generation = ++m_generation;
    // Subscribed first: whatever the daemon sends from now on is either in the answer below
    // or arrives after it.
    m_client->subscribe({QStringLiteral("network")});
    m_incoming = {};
    fetchPage(generation, 0);
}

void DenialsModel::fetchPage(quint64 generation, int offset)
{
    const int pageSize = std::min(kPageSize, m_limit - offset);
    m_client->call(QStringLiteral("events.denials"),
                   {{QStringLiteral("limit"), pageSize}, {QStringLiteral("offset"), offset}},
                   [this, generation, offset, pageSize](const api::Reply &reply) {
                       if (generation != m_generation)
                           return;
                       if (reply.isError()) {
                           setLoading(false);
                           // The status line already says when the daemon is gone: not a warning.
                           qCInfo(lcDenials).noquote() << "cannot list the refusals:" << reply.errorMessage();
                           emit loadFailed(reply.errorMessage());
                           return;
                       }
                       const QJsonArray page = reply.result().value(QLatin1String("denials")).toArray();
                       for (const QJsonValue &value : page)
                           m_incoming.append(value);
                       const int total = reply.result().value(QLatin1String("total")).toInt();
                       const int next = offset + int(page.size());
                       if (page.size() == pageSize && next < std::min(total, m_limit) && m_client) {
                           fetchPage(generation, next);
                           return;
                       }
                       setLoading(false);
                       setDenials(m_incoming);
                       m_incoming = {};
                   });
}

void DenialsModel::setDenials(const QJsonArray &denials)
{
    QList<Denial> rows;
    rows.reserve(denials.size());
    for (const QJsonValue &value : denials) {
        const QJsonObject object = value.toObject();
        Denial row;
        row.host = object.value(QLatin1String("host")).toString();
        row.sandbox = object.value(QLatin1String("sandbox")).toString();
        row.kit = object.value(QLatin1String("kit")).toString();
        row.port = object.value(QLatin1String("port")).toInt();
        row.protocol = object.value(QLatin1String("protocol")).toString();
        row.reason = object.value(QLatin1String("reason")).toString();
        row.rule = object.value(QLatin1String("rule")).toString();
        row.program = object.value(QLatin1String("program")).toString();
        row.command = object.value(QLatin1String("command")).toString();
        row.written = object.value(QLatin1String("written")).toString();
        row.count = object.value(QLatin1String("count")).toInteger();
        row.firstSeen = parseTime(object.value(QLatin1String("firstSeen")));
        row.lastSeen = parseTime(object.value(QLatin1String("lastSeen")));
        rows.append(row);
    }
    beginResetModel();
    m_rows = rows;
    m_loadedUpTo.clear();
    for (const Denial &row : std::as_const(m_rows))
        m_loadedUpTo.insert(keyOf(row.host, row.sandbox), row.lastSeen);
    reindex(0);
    endResetModel();
    emit countChanged();
}

void DenialsModel::reindex(int from)
{
    if (from == 0)
        m_index.clear();
    for (int row = from; row < m_rows.size(); ++row)
        m_index.insert(keyOf(m_rows.at(row).host, m_rows.at(row).sandbox), row);
}

void DenialsModel::addEvent(const QJsonObject &event)
{
    // While loading, the answer on its way holds this event already.
    if (m_loading || event.value(QLatin1String("outcome")).toString() != QLatin1String("denied"))
        return;
    const QString host = event.value(QLatin1String("host")).toString();
    const QString sandbox = event.value(QLatin1String("sandbox")).toString();
    const QDateTime time = parseTime(event.value(QLatin1String("time")));
    const QString key = keyOf(host, sandbox);
    if (const auto loaded = m_loadedUpTo.constFind(key); loaded != m_loadedUpTo.cend() && time <= loaded.value())
        return;
    const int port = event.value(QLatin1String("port")).toInt();

    const auto found = m_index.constFind(key);
    if (found != m_index.cend()) {
        const int row = found.value();
        Denial &denial = m_rows[row];
        denial.count += 1;
        if (time > denial.lastSeen)
            denial.lastSeen = time;
        denial.port = port;
        denial.kit = event.value(QLatin1String("kit")).toString();
        denial.protocol = event.value(QLatin1String("protocol")).toString();
        denial.reason = event.value(QLatin1String("reason")).toString();
        denial.rule = event.value(QLatin1String("rule")).toString();
        denial.program = event.value(QLatin1String("program")).toString();
        denial.command = event.value(QLatin1String("command")).toString();
        denial.written = event.value(QLatin1String("written")).toString();
        const QModelIndex changed = index(row);
        emit dataChanged(changed, changed);
        emit denied(host, sandbox, port, false);
        return;
    }
    Denial denial;
    denial.host = host;
    denial.sandbox = sandbox;
    denial.kit = event.value(QLatin1String("kit")).toString();
    denial.port = port;
    denial.protocol = event.value(QLatin1String("protocol")).toString();
    denial.reason = event.value(QLatin1String("reason")).toString();
    denial.rule = event.value(QLatin1String("rule")).toString();
    denial.program = event.value(QLatin1String("program")).toString();
    denial.command = event.value(QLatin1String("command")).toString();
    denial.written = event.value(QLatin1String("written")).toString();
    denial.count = 1;
    denial.firstSeen = time;
    denial.lastSeen = time;
    beginInsertRows({}, 0, 0);
    m_rows.prepend(denial);
    reindex(0);
    endInsertRows();
    emit countChanged();
    emit denied(host, sandbox, port, true);
}

void DenialsModel::removeDenial(const QString &host, const QString &sandbox)
{
    const QString key = keyOf(host, sandbox);
    const auto found = m_index.constFind(key);
    if (found == m_index.cend())
        return;
    const int row = found.value();
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    m_index.remove(key);
    // Requests refused before the row went away (allowed or dismissed) may still be on their
    // way as events: they must not bring the row back. A refusal from now on does.
    m_loadedUpTo.insert(key, QDateTime::currentDateTimeUtc());
    reindex(0);
    endRemoveRows();
    emit countChanged();
}

int DenialsModel::rowOf(const QString &host, const QString &sandbox) const
{
    return m_index.value(keyOf(host, sandbox), -1);
}

QVariantMap DenialsModel::get(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return {};
    const Denial &denial = m_rows.at(row);
    return {{QStringLiteral("host"), denial.host},         {QStringLiteral("sandbox"), denial.sandbox},
            {QStringLiteral("kit"), denial.kit},           {QStringLiteral("port"), denial.port},
            {QStringLiteral("protocol"), denial.protocol}, {QStringLiteral("reason"), denial.reason},
            {QStringLiteral("rule"), denial.rule},         {QStringLiteral("count"), denial.count},
            {QStringLiteral("program"), denial.program},   {QStringLiteral("command"), denial.command},
            {QStringLiteral("written"), denial.written}};
}

} // namespace paddock::gui
