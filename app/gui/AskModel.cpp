// SPDX-License-Identifier: GPL-3.0-or-later
#include "AskModel.h"

#include "NetworkPolicy.h"
#include "api/DaemonClient.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cmath>

Q_LOGGING_CATEGORY(lcAsks, "paddock.gui.asks", QtInfoMsg)

namespace paddock::gui {
namespace {

QDateTime parseTime(const QJsonValue &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs).toUTC();
}

} // namespace

AskModel::AskModel(QObject *parent) : QAbstractListModel(parent)
{
    m_ticker.setInterval(1000);
    connect(&m_ticker, &QTimer::timeout, this, &AskModel::tick);
}

int AskModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant AskModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Ask &row = m_rows.at(index.row());
    switch (role) {
    case AskIdRole:
        return row.id;
    case SandboxRole:
        return row.sandbox;
    case KitRole:
        return row.kit;
    case Qt::DisplayRole:
    case HostRole:
        return row.host;
    case PortRole:
        return row.port;
    case ProtocolRole:
        return row.protocol;
    case ProgramRole:
        return row.program;
    case CommandRole:
        return row.command;
    case WrittenRole:
        return row.written;
    case WaitingRole:
        return row.waiting;
    case SinceRole:
        return row.since;
    case DeadlineRole:
        return row.deadline;
    case ReasonRole:
        return row.reason;
    case SecondsLeftRole:
        return secondsUntil(row.deadline);
    default:
        return {};
    }
}

QHash<int, QByteArray> AskModel::roleNames() const
{
    // Not "id": that name is QML's own.
    return {{AskIdRole, "askId"},
            {SandboxRole, "sandbox"},
            {KitRole, "kit"},
            {HostRole, "host"},
            {PortRole, "port"},
            {ProtocolRole, "protocol"},
            {WaitingRole, "waiting"},
            {SinceRole, "since"},
            {DeadlineRole, "deadline"},
            {ReasonRole, "reason"},
            {SecondsLeftRole, "secondsLeft"},
            {ProgramRole, "program"},
            {CommandRole, "command"},
            {WrittenRole, "written"}};
}

int AskModel::secondsUntil(const QDateTime &deadline, const QDateTime &now)
{
    if (!deadline.isValid())
        return 0;
    return std::max(0, int(std::ceil(double(now.msecsTo(deadline)) / 1000.0)));
}

void AskModel::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    m_daemon = daemon;
    setClient(daemon ? daemon->client() : nullptr);
    emit daemonChanged();
}

void AskModel::setClient(api::DaemonClient *client)
{
    if (m_client == client)
        return;
    if (m_client)
        m_client->disconnect(this);
    m_client = client;
    if (!m_client)
        return;
    connect(m_client, &api::DaemonClient::connected, this, &AskModel::reload);
    // A daemon that went away took its held connections with it.
    connect(m_client, &api::DaemonClient::disconnected, this, [this] { setAsks({}); });
    connect(m_client, &api::DaemonClient::eventReceived, this, [this](const QString &topic, const QJsonObject &data) {
        if (topic == QLatin1String("asks"))
            addEvent(data);
    });
    if (m_client->isConnected())
        reload();
}

void AskModel::setError(const QString &error)
{
    if (error == m_error)
        return;
    m_error = error;
    emit errorChanged();
}

void AskModel::reload()
{
    if (!m_client || !m_client->isConnected())
        return;
    m_loading = true;
    const quint64 generation = ++m_generation;
    // Subscribed first: every change from now on is in the answer below or arrives after it.
    m_client->subscribe({QStringLiteral("asks")});
    m_client->call(QStringLiteral("policy.asks"), {},
                   [this, self = QPointer<AskModel>(this), generation](const api::Reply &reply) {
                       if (!self || generation != m_generation)
                           return;
                       m_loading = false;
                       if (reply.isError()) {
                           // An older daemon has no ask mode: nothing waits then.
                           qCInfo(lcAsks).noquote() << "cannot list the waiting connections:" << reply.errorMessage();
                           return;
                       }
                       setAsks(reply.result().value(QLatin1String("asks")).toArray());
                   });
    loadSandboxes();
}

void AskModel::loadSandboxes()
{
    m_client->call(QStringLiteral("sandbox.list"), {},
                   [this, self = QPointer<AskModel>(this)](const api::Reply &reply) {
                       if (self && !reply.isError())
                           setSandboxes(reply.result().value(QLatin1String("sandboxes")).toArray());
                   });
}

void AskModel::setSandboxes(const QJsonArray &sandboxes)
{
    QStringList asking;
    for (const QJsonValue &value : sandboxes) {
        const QJsonObject info = value.toObject();
        if (info.value(QLatin1String("asking")).toBool())
            asking << info.value(QLatin1String("name")).toString();
    }
    if (asking == m_asking)
        return;
    m_asking = asking;
    emit askingChanged();
}

void AskModel::setAsked(const QString &sandbox, bool asking)
{
    if (asking == m_asking.contains(sandbox))
        return;
    if (asking)
        m_asking << sandbox;
    else
        m_asking.removeAll(sandbox);
    emit askingChanged();
}

AskModel::Ask AskModel::fromJson(const QJsonObject &object)
{
    Ask ask;
    ask.id = object.value(QLatin1String("id")).toVariant().toString();
    ask.sandbox = object.value(QLatin1String("sandbox")).toString();
    ask.kit = object.value(QLatin1String("kit")).toString();
    ask.host = object.value(QLatin1String("host")).toString();
    ask.port = object.value(QLatin1String("port")).toInt();
    ask.protocol = object.value(QLatin1String("protocol")).toString();
    ask.waiting = object.value(QLatin1String("waiting")).toInt();
    ask.since = parseTime(object.value(QLatin1String("since")));
    ask.deadline = parseTime(object.value(QLatin1String("deadline")));
    ask.reason = object.value(QLatin1String("reason")).toString();
    ask.program = object.value(QLatin1String("program")).toString();
    ask.command = object.value(QLatin1String("command")).toString();
    ask.written = object.value(QLatin1String("written")).toString();
    return ask;
}

void AskModel::setAsks(const QJsonArray &asks)
{
    QList<Ask> rows;
    for (const QJsonValue &value : asks) {
        const Ask ask = fromJson(value.toObject());
        if (!ask.id.isEmpty())
            rows.append(ask);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Ask &a, const Ask &b) { return a.since < b.since; });
    QStringList before;
    for (const Ask &row : std::as_const(m_rows))
        before << row.id;
    beginResetModel();
    m_rows = rows;
    endResetModel();
    for (const QString &id : std::as_const(before)) {
        if (rowOf(id) < 0)
            emit ended(id);
    }
    for (const Ask &row : std::as_const(m_rows)) {
        setAsked(row.sandbox, true);
        if (!before.contains(row.id))
            emit held(row.id);
    }
    emit countChanged();
    emit oldestChanged();
    updateTimer();
}

void AskModel::addEvent(const QJsonObject &event)
{
    // While loading, the answer on its way holds this change already.
    if (m_loading)
        return;
    const QString change = event.value(QLatin1String("change")).toString();
    if (change == QLatin1String("mode")) // switched here, in the CLI or in another window
        return setAsked(event.value(QLatin1String("sandbox")).toString(),
                        event.value(QLatin1String("asking")).toBool());
    const Ask ask = fromJson(event.value(QLatin1String("ask")).toObject());
    if (ask.id.isEmpty())
        return;
    if (change == QLatin1String("ended"))
        remove(ask.id);
    else if (change == QLatin1String("held") || change == QLatin1String("updated"))
        insertOrUpdate(ask);
}

void AskModel::insertOrUpdate(const Ask &ask)
{
    const int row = rowOf(ask.id);
    if (row >= 0) {
        m_rows[row] = ask;
        emit dataChanged(index(row), index(row));
        if (row == 0)
            emit oldestChanged();
        return;
    }
    // The daemon sends them oldest first; a late one still goes where its time says.
    const auto at = std::upper_bound(m_rows.cbegin(), m_rows.cend(), ask.since,
                                     [](const QDateTime &since, const Ask &other) { return since < other.since; });
    const int position = int(at - m_rows.cbegin());
    beginInsertRows({}, position, position);
    m_rows.insert(position, ask);
    endInsertRows();
    setAsked(ask.sandbox, true);
    emit countChanged();
    if (position == 0)
        emit oldestChanged();
    updateTimer();
    emit held(ask.id);
}

void AskModel::remove(const QString &id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    emit countChanged();
    if (row == 0)
        emit oldestChanged();
    updateTimer();
    emit ended(id);
}

void AskModel::updateTimer()
{
    if (m_rows.isEmpty())
        m_ticker.stop();
    else if (!m_ticker.isActive())
        m_ticker.start();
}

void AskModel::tick()
{
    if (m_rows.isEmpty())
        return;
    emit dataChanged(index(0), index(int(m_rows.size()) - 1), {SecondsLeftRole});
    emit oldestChanged();
}

int AskModel::rowOf(const QString &id) const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).id == id)
            return row;
    }
    return -1;
}

QVariantMap AskModel::get(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return {};
    const Ask &ask = m_rows.at(row);
    return {{QStringLiteral("askId"), ask.id},          {QStringLiteral("sandbox"), ask.sandbox},
            {QStringLiteral("kit"), ask.kit},           {QStringLiteral("host"), ask.host},
            {QStringLiteral("port"), ask.port},         {QStringLiteral("protocol"), ask.protocol},
            {QStringLiteral("waiting"), ask.waiting},   {QStringLiteral("since"), ask.since},
            {QStringLiteral("deadline"), ask.deadline}, {QStringLiteral("reason"), ask.reason},
            {QStringLiteral("program"), ask.program},   {QStringLiteral("command"), ask.command},
            {QStringLiteral("written"), ask.written},   {QStringLiteral("secondsLeft"), secondsUntil(ask.deadline)}};
}

void AskModel::answer(const QString &id, const QString &decision, const QString &where, const QString &what)
{
    if (!m_client || !m_client->isConnected()) {
        emit answered(id, false, tr("The daemon is not connected."));
        return;
    }
    QJsonObject params{{QStringLiteral("id"), id}, {QStringLiteral("decision"), decision}};
    if (!where.isEmpty()) {
        params.insert(QStringLiteral("where"), where);
        params.insert(QStringLiteral("what"), what.isEmpty() ? QStringLiteral("exact") : what);
    }
    m_client->call(QStringLiteral("policy.answer"), params,
                   [this, self = QPointer<AskModel>(this), id](const api::Reply &reply) {
                       if (!self)
                           return;
                       if (reply.isError()) {
                           qCInfo(lcAsks).noquote() << "answer refused:" << reply.errorMessage();
                           setError(reply.errorMessage());
                           emit answered(id, false, reply.errorMessage());
                           return;
                       }
                       setError({});
                       emit answered(id, true, reply.result().value(QLatin1String("message")).toString());
                   });
}

void AskModel::setAsking(const QString &sandbox, bool enabled)
{
    if (!m_client || !m_client->isConnected() || sandbox.isEmpty())
        return;
    m_client->call(
        QStringLiteral("sandbox.ask"), {{QStringLiteral("name"), sandbox}, {QStringLiteral("enabled"), enabled}},
        [this, self = QPointer<AskModel>(this), sandbox](const api::Reply &reply) {
            if (!self)
                return;
            if (reply.isError()) {
                setError(reply.errorMessage());
                emit askingChanged(); // a switch goes back to what is true
                return;
            }
            setError({});
            setAsked(sandbox,
                     reply.result().value(QLatin1String("sandbox")).toObject().value(QLatin1String("asking")).toBool());
        });
}

QVariantMap AskModel::allowChoices(const QString &host, int port) const
{
    return NetworkPolicy::allowChoicesFor(host, port);
}

QString AskModel::answerCommand(const QString &id, const QString &decision, const QString &where,
                                const QString &what) const
{
    QString command = QStringLiteral("paddock policy answer %1 %2").arg(id, decision);
    if (!where.isEmpty())
        command += QStringLiteral(" --where %1").arg(where);
    if (!where.isEmpty() && !what.isEmpty() && what != QLatin1String("exact"))
        command += QStringLiteral(" --what %1").arg(what);
    return command;
}

} // namespace paddock::gui
