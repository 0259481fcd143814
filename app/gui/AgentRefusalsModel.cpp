// SPDX-License-Identifier: GPL-3.0-or-later
#include "AgentRefusalsModel.h"

#include "api/DaemonClient.h"

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

AgentRefusalsModel::AgentRefusalsModel(QObject *parent) : QAbstractListModel(parent) {}

void AgentRefusalsModel::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    if (m_daemon)
        disconnect(m_daemon, nullptr, this, nullptr);
    m_daemon = daemon;
    if (m_daemon) {
        connect(m_daemon, &DaemonStatus::statusChanged, this, [this] {
            if (m_daemon->connected())
                reload();
        });
        connect(m_daemon->client(), &api::DaemonClient::eventReceived, this,
                [this](const QString &topic, const QJsonObject &data) {
                    if (topic == agentTopic() && data.value(QLatin1String("type")) == QLatin1String("refusal"))
                        addRefusal(data.value(QLatin1String("refusal")).toObject());
                });
        reload();
    }
    emit daemonChanged();
}

int AgentRefusalsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant AgentRefusalsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const QJsonObject &row = m_rows.at(index.row());
    switch (role) {
    case IdRole:
        return row.value(QLatin1String("id")).toInt();
    case SandboxRole:
        return row.value(QLatin1String("sandbox")).toString();
    case KitRole:
        return row.value(QLatin1String("kit")).toString();
    case ToolRole:
        return row.value(QLatin1String("tool")).toString();
    case ValueRole:
        return row.value(QLatin1String("value")).toString();
    case StateRole:
        return row.value(QLatin1String("state")).toString();
    case ResolutionRole:
        return row.value(QLatin1String("resolution")).toString();
    case RuleRole:
        return row.value(QLatin1String("rule")).toString();
    case CountRole:
        return row.value(QLatin1String("count")).toInt();
    case LastSeenTextRole:
        return timeText(row.value(QLatin1String("time")).toString());
    default:
        return {};
    }
}

QHash<int, QByteArray> AgentRefusalsModel::roleNames() const
{
    return {{IdRole, "refusalId"},
            {SandboxRole, "sandbox"},
            {KitRole, "kit"},
            {ToolRole, "tool"},
            {ValueRole, "value"},
            {StateRole, "state"},
            {ResolutionRole, "resolution"},
            {RuleRole, "rule"},
            {CountRole, "count"},
            {LastSeenTextRole, "lastSeenText"}};
}

void AgentRefusalsModel::reload()
{
    if (!m_daemon || !m_daemon->connected())
        return;
    m_daemon->client()->subscribe({agentTopic()});
    QPointer<AgentRefusalsModel> self(this);
    m_daemon->client()->call(QStringLiteral("agent.refusals"), {}, [self](const api::Reply &reply) {
        if (!self)
            return;
        if (reply.isError()) {
            self->setError(reply.errorMessage());
            return;
        }
        self->setRefusals(reply.result().value(QLatin1String("refusals")).toArray());
    });
}

void AgentRefusalsModel::setRefusals(const QJsonArray &refusals)
{
    beginResetModel();
    m_rows.clear();
    for (const QJsonValue &value : refusals) {
        if (!value.toObject().value(QLatin1String("dismissed")).toBool())
            m_rows << value.toObject();
    }
    endResetModel();
    emit countChanged();
}

int AgentRefusalsModel::rowOfId(int id) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).value(QLatin1String("id")).toInt() == id)
            return int(i);
    }
    return -1;
}

void AgentRefusalsModel::addRefusal(const QJsonObject &refusal)
{
    const int row = rowOfId(refusal.value(QLatin1String("id")).toInt());
    if (row > 0) {
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
    } else if (row == 0) {
        m_rows[0] = refusal;
        emit dataChanged(index(0), index(0));
        return;
    }
    beginInsertRows({}, 0, 0);
    m_rows.prepend(refusal);
    endInsertRows();
    emit countChanged();
}

QVariantMap AgentRefusalsModel::get(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).toVariantMap() : QVariantMap();
}

void AgentRefusalsModel::preview(int id, const QString &where)
{
    if (!m_daemon || !m_daemon->connected())
        return;
    QPointer<AgentRefusalsModel> self(this);
    m_daemon->client()->call(
        QStringLiteral("agent.allow"),
        {{QStringLiteral("id"), id}, {QStringLiteral("where"), where}, {QStringLiteral("dryRun"), true}},
        [self, id, where](const api::Reply &reply) {
            if (!self)
                return;
            if (reply.isError()) {
                self->setError(reply.errorMessage());
                return;
            }
            self->setError({});
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
            emit self->previewReady(id, where, result.value(QLatin1String("path")).toString(),
                                    lines.join(QLatin1Char('\n')), changes.join(QLatin1Char('\n')));
        });
}

void AgentRefusalsModel::allow(int id, const QString &where)
{
    if (!m_daemon || !m_daemon->connected())
        return;
    QPointer<AgentRefusalsModel> self(this);
    m_daemon->client()->call(QStringLiteral("agent.allow"),
                             {{QStringLiteral("id"), id}, {QStringLiteral("where"), where}},
                             [self](const api::Reply &reply) {
                                 if (!self)
                                     return;
                                 if (reply.isError()) {
                                     self->setError(reply.errorMessage());
                                     return;
                                 }
                                 self->setError({});
                                 emit self->allowed(reply.result().value(QLatin1String("path")).toString());
                             });
}

void AgentRefusalsModel::dismiss(int id)
{
    if (!m_daemon || !m_daemon->connected())
        return;
    const int row = rowOfId(id);
    if (row >= 0) {
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
        emit countChanged();
    }
    m_daemon->client()->call(QStringLiteral("agent.dismiss"), {{QStringLiteral("id"), id}}, {});
}

void AgentRefusalsModel::setError(const QString &error)
{
    if (error == m_error)
        return;
    m_error = error;
    emit errorChanged();
}

} // namespace paddock::gui
