// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxListModel.h"

#include "common/Paths.h"

#include <QDir>
#include <QJsonArray>
#include <QLocale>
#include <QLoggingCategory>

#include <algorithm>
#include <utility>

Q_LOGGING_CATEGORY(lcSandboxList, "paddock.gui.sandboxes", QtWarningMsg)

namespace paddock::gui {
namespace {

// sandbox.list is cheap (runtime state files); a few seconds keeps terminal-made changes visible.
constexpr int kPollIntervalMs = 3000;
constexpr int kTickIntervalMs = 1000;
// events.denials groups by host; enough groups to count every refusal of one run.
constexpr int kDenialGroupLimit = 100000;

QString networkTopic()
{
    return QStringLiteral("network");
}

} // namespace

SandboxListModel::SandboxListModel(QObject *parent) : QAbstractListModel(parent)
{
    m_poll.setInterval(kPollIntervalMs);
    connect(&m_poll, &QTimer::timeout, this, &SandboxListModel::refresh);
    // Uptime moves every second; only its role changes.
    m_tick.setInterval(kTickIntervalMs);
    connect(&m_tick, &QTimer::timeout, this, [this] {
        for (int i = 0; i < m_rows.size(); ++i) {
            if (m_rows.at(i).status == QLatin1String("running"))
                Q_EMIT dataChanged(index(i), index(i), {UptimeRole});
        }
    });
}

api::DaemonClient *SandboxListModel::client() const
{
    return m_daemon && m_daemon->connected() ? m_daemon->client() : nullptr;
}

void SandboxListModel::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    if (m_daemon) {
        disconnect(m_daemon, nullptr, this, nullptr);
        disconnect(m_daemon->client(), nullptr, this, nullptr);
    }
    m_daemon = daemon;
    m_wasConnected = false;
    if (m_daemon) {
        connect(m_daemon, &DaemonStatus::statusChanged, this, [this] {
            if (m_daemon->connected() == m_wasConnected)
                return;
            if (m_daemon->connected()) {
                onConnected();
            } else {
                m_wasConnected = false;
                m_poll.stop();
                m_tick.stop();
            }
        });
        connect(m_daemon->client(), &api::DaemonClient::eventReceived, this, &SandboxListModel::onEvent);
        if (m_daemon->connected())
            onConnected();
    }
    Q_EMIT daemonChanged();
}

void SandboxListModel::onConnected()
{
    m_wasConnected = true;
    if (api::DaemonClient *c = client()) {
        c->subscribe({networkTopic()});
        // Separately: a daemon without agent permissions refuses the topic, not the other one.
        c->subscribe({QStringLiteral("agent")});
    }
    // A new daemon connection: the stored counts are asked again.
    m_denials.clear();
    m_poll.start();
    m_tick.start();
    refresh();
}

int SandboxListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant SandboxListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case NameRole:
        return row.name;
    case KitRole:
        return row.kit;
    case BackendRole:
        return row.backend;
    case StatusRole:
        return row.status;
    case WorkspaceRole:
        return row.workspace;
    case StartedAtRole:
        return row.startedAt;
    case UptimeRole:
        if (row.status != QLatin1String("running") || !row.startedAt.isValid())
            return QString();
        return formatUptime(row.startedAt.msecsTo(QDateTime::currentDateTimeUtc()));
    case DenialsRole: {
        const auto found = m_denials.constFind(row.name);
        return found == m_denials.cend() ? 0 : found->total();
    }
    case AgentRefusalsRole:
        return m_agentRefusals.value(row.name);
    case BusyRole:
        return row.busy;
    case ExitCodeRole:
        return row.exitCode;
    case AgentStateRole:
        return row.agentState;
    case AgentExitCodeRole:
        return row.agentExitCode;
    case AgentAttachedRole:
        return row.agentAttached;
    case StateTextRole:
        return describeState(row.status, row.agentState, row.agentExitCode);
    case RootTextRole:
        return row.rootText;
    case SharesTextRole:
        return row.sharesText;
    default:
        return {};
    }
}

QHash<int, QByteArray> SandboxListModel::roleNames() const
{
    return {{NameRole, "name"},
            {KitRole, "kit"},
            {BackendRole, "backend"},
            {StatusRole, "status"},
            {WorkspaceRole, "workspace"},
            {StartedAtRole, "startedAt"},
            {UptimeRole, "uptime"},
            {DenialsRole, "denials"},
            {BusyRole, "busy"},
            {ExitCodeRole, "exitCode"},
            {AgentStateRole, "agentState"},
            {AgentExitCodeRole, "agentExitCode"},
            {AgentAttachedRole, "agentAttached"},
            {StateTextRole, "stateText"},
            {AgentRefusalsRole, "agentRefusals"},
            {RootTextRole, "rootText"},
            {SharesTextRole, "sharesText"}};
}

QVariantMap SandboxListModel::get(const QString &name) const
{
    const int row = rowOf(name);
    QVariantMap map;
    if (row < 0)
        return map;
    const QHash<int, QByteArray> roles = roleNames();
    for (auto it = roles.cbegin(); it != roles.cend(); ++it)
        map.insert(QString::fromLatin1(it.value()), data(index(row), it.key()));
    return map;
}

QString SandboxListModel::formatUptime(qint64 milliseconds)
{
    const qint64 seconds = qMax<qint64>(0, milliseconds / 1000);
    if (seconds < 60)
        return tr("%1 s").arg(seconds);
    if (seconds < 3600)
        return tr("%1 min").arg(seconds / 60);
    if (seconds < 86400)
        return tr("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60, 2, 10, QLatin1Char('0'));
    return tr("%1 d %2 h").arg(seconds / 86400).arg((seconds % 86400) / 3600);
}

QString SandboxListModel::describeState(const QString &status, const QString &agentState, int agentExitCode)
{
    if (status == QLatin1String("running")) {
        if (agentState == QLatin1String("running"))
            return tr("Running · agent running");
        if (agentState == QLatin1String("exited"))
            return agentExitCode >= 0 ? tr("Running · agent exited (status %1)").arg(agentExitCode)
                                      : tr("Running · agent exited");
        if (agentState == QLatin1String("none"))
            return tr("Running · agent not started");
        return tr("Running");
    }
    if (status == QLatin1String("stopped"))
        return tr("Stopped");
    if (status == QLatin1String("created"))
        return tr("Created");
    return status;
}

QString SandboxListModel::describeShares(const QJsonObject &info)
{
    const auto shown = [](const QString &path) { return paths::tildePath(path); };
    QStringList parts;
    for (const QJsonValue &value : info.value(QLatin1String("mounts")).toArray()) {
        const QJsonObject mount = value.toObject();
        parts << tr("%1 → %2 (%3)")
                     .arg(shown(mount.value(QLatin1String("host")).toString()),
                          mount.value(QLatin1String("inside")).toString(),
                          mount.value(QLatin1String("mode")).toString() == QLatin1String("ro") ? tr("read-only")
                                                                                               : tr("read-write"));
    }
    const QStringList variables = info.value(QLatin1String("env")).toObject().keys();
    if (!variables.isEmpty())
        parts << tr("variables %1").arg(variables.join(QStringLiteral(", ")));
    QStringList services;
    for (const QJsonValue &value : info.value(QLatin1String("services")).toArray()) {
        QStringList reach;
        for (const QJsonValue &port : value[QLatin1String("ports")].toArray())
            reach << value[QLatin1String("name")].toString() + QLatin1Char(':') + QString::number(port.toInt());
        services << (reach.isEmpty() ? value[QLatin1String("name")].toString() : reach.join(QStringLiteral(", ")));
    }
    if (!services.isEmpty())
        parts << tr("services %1").arg(services.join(QStringLiteral(", ")));
    return parts.isEmpty() ? QString() : tr("Shares %1").arg(parts.join(QStringLiteral(" · ")));
}

QString SandboxListModel::describeRoot(const QString &base, const QString &image, qint64 bytes)
{
    if (base != QLatin1String("image") && base != QLatin1String("host"))
        return {};
    // Decimal units, as `paddock ls` prints them.
    const QString size =
        bytes >= 0 ? QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat) : tr("size unknown");
    return base == QLatin1String("image") ? tr("root %1 over image %2").arg(size, image)
                                          : tr("root %1 over the host's system").arg(size);
}

bool SandboxListModel::Row::sameState(const Row &other) const
{
    return status == other.status && startedAt == other.startedAt && kit == other.kit && workspace == other.workspace &&
           exitCode == other.exitCode && agentState == other.agentState && agentExitCode == other.agentExitCode &&
           agentAttached == other.agentAttached && rootText == other.rootText && sharesText == other.sharesText;
}

int SandboxListModel::rowOf(const QString &name) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).name == name)
            return i;
    }
    return -1;
}

void SandboxListModel::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

void SandboxListModel::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    Q_EMIT loadingChanged();
}

void SandboxListModel::refresh()
{
    api::DaemonClient *c = client();
    if (!c)
        return;
    if (m_loading) {
        // The answer on its way may predate an action just finished: ask once more after it.
        m_refreshAgain = true;
        return;
    }
    setLoading(true);
    countAgentRefusals();
    QPointer<SandboxListModel> self(this);
    c->call(QStringLiteral("sandbox.list"), {}, [self](const api::Reply &reply) {
        if (!self)
            return;
        self->setLoading(false);
        if (std::exchange(self->m_refreshAgain, false))
            QTimer::singleShot(0, self, &SandboxListModel::refresh);
        if (reply.isError()) {
            self->setError(reply.errorMessage());
            return;
        }
        self->setError(QString());
        self->applyList(reply.result().value(QLatin1String("sandboxes")).toArray());
        if (!self->m_loaded) {
            self->m_loaded = true;
            Q_EMIT self->loadingChanged();
        }
    });
}

void SandboxListModel::applyList(const QJsonArray &sandboxes)
{
    QList<Row> rows;
    for (const QJsonValue &value : sandboxes) {
        const QJsonObject info = value.toObject();
        Row row;
        row.name = info.value(QLatin1String("name")).toString();
        row.kit = info.value(QLatin1String("kit")).toString();
        row.backend = info.value(QLatin1String("backend")).toString();
        // A kernel of its own is worth saying where the backend is: "docker + gVisor".
        if (info.value(QLatin1String("isolation")).toString() == QLatin1String("gvisor"))
            row.backend += QStringLiteral(" + gVisor");
        row.status = info.value(QLatin1String("status")).toString();
        row.workspace = info.value(QLatin1String("workspace")).toString();
        row.startedAt = QDateTime::fromString(info.value(QLatin1String("startedAt")).toString(), Qt::ISODateWithMs);
        row.exitCode = info.value(QLatin1String("exitCode")).toInt(-1);
        // The daemon reports the agent of running sandboxes only.
        if (row.status == QLatin1String("running") && info.value(QLatin1String("agent")).isObject()) {
            const QJsonObject agent = info.value(QLatin1String("agent")).toObject();
            row.agentState = agent.value(QLatin1String("state")).toString();
            row.agentExitCode = agent.value(QLatin1String("exitCode")).toInt(-1);
            row.agentAttached = agent.value(QLatin1String("attached")).toInt();
        }
        const QJsonObject root = info.value(QLatin1String("root")).toObject();
        row.rootText =
            describeRoot(root.value(QLatin1String("base")).toString(), root.value(QLatin1String("image")).toString(),
                         root.value(QLatin1String("bytes")).toInteger(-1));
        row.sharesText = describeShares(info);
        if (const int old = rowOf(row.name); old >= 0)
            row.busy = m_rows.at(old).busy;
        rows << row;
    }
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.name < b.name; });
    qCDebug(lcSandboxList) << "the daemon lists" << rows.size() << "sandboxes";

    // Rows are updated in place when the names are the same, so views keep focus and scroll.
    bool sameNames = rows.size() == m_rows.size();
    for (int i = 0; sameNames && i < rows.size(); ++i)
        sameNames = rows.at(i).name == m_rows.at(i).name;
    if (sameNames) {
        for (int i = 0; i < rows.size(); ++i) {
            const Row &now = rows.at(i);
            const Row &before = m_rows.at(i);
            if (!now.sameState(before)) {
                m_rows[i] = now;
                Q_EMIT dataChanged(index(i), index(i));
            }
        }
    } else {
        beginResetModel();
        m_rows = rows;
        endResetModel();
        Q_EMIT countChanged();
    }

    for (const Row &row : std::as_const(m_rows)) {
        const QDateTime since = row.startedAt;
        const auto found = m_denials.constFind(row.name);
        if (found == m_denials.cend() || found->since != since)
            countStoredDenials(row.name, since);
    }
}

void SandboxListModel::countStoredDenials(const QString &name, const QDateTime &since)
{
    Denials &denials = m_denials[name];
    // Refusals seen live since this start stay: the store may not hold them yet.
    QList<QDateTime> live;
    for (const QDateTime &time : std::as_const(denials.liveTimes)) {
        if (time.isValid() && since.isValid() && time >= since)
            live << time;
    }
    denials = Denials{since, 0, since, live};
    api::DaemonClient *c = client();
    if (!c || !since.isValid())
        return;
    QPointer<SandboxListModel> self(this);
    c->call(QStringLiteral("events.denials"),
            {{QStringLiteral("sandbox"), name},
             {QStringLiteral("since"), since.toUTC().toString(Qt::ISODateWithMs)},
             {QStringLiteral("limit"), kDenialGroupLimit}},
            [self, name, since](const api::Reply &reply) {
                // An error: a daemon without events.denials, so live counting only.
                if (self && !reply.isError())
                    self->applyStoredDenials(name, since, reply.result());
            });
}

void SandboxListModel::applyStoredDenials(const QString &name, const QDateTime &since, const QJsonObject &result)
{
    auto found = m_denials.find(name);
    if (found == m_denials.end() || found->since != since)
        return;
    qint64 stored = 0;
    QDateTime upTo = since;
    for (const QJsonValue &value : result.value(QLatin1String("denials")).toArray()) {
        const QJsonObject group = value.toObject();
        if (group.value(QLatin1String("sandbox")).toString() != name)
            continue;
        stored += group.value(QLatin1String("count")).toInteger();
        const QDateTime last =
            QDateTime::fromString(group.value(QLatin1String("lastSeen")).toString(), Qt::ISODateWithMs);
        if (last.isValid() && last > upTo)
            upTo = last;
    }
    found->stored = stored;
    found->storedUpTo = upTo;
    // Live refusals the store holds now are counted once, from the store.
    found->liveTimes.removeIf([upTo](const QDateTime &t) { return t.isValid() && t <= upTo; });
    const int row = rowOf(name);
    if (row >= 0)
        Q_EMIT dataChanged(index(row), index(row), {DenialsRole});
}

void SandboxListModel::countAgentRefusals()
{
    api::DaemonClient *c = client();
    if (!c)
        return;
    QPointer<SandboxListModel> self(this);
    c->call(QStringLiteral("agent.counts"), {}, [self](const api::Reply &reply) {
        // An error: a daemon without agent permissions, so nothing to count.
        if (self && !reply.isError())
            self->applyAgentCounts(reply.result());
    });
}

void SandboxListModel::applyAgentCounts(const QJsonObject &result)
{
    QHash<QString, int> counts;
    const QJsonObject answer = result.value(QLatin1String("counts")).toObject();
    for (auto it = answer.begin(); it != answer.end(); ++it)
        counts.insert(it.key(), it.value().toInt());
    if (counts == m_agentRefusals)
        return;
    m_agentRefusals = counts;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0), index(int(m_rows.size()) - 1), {AgentRefusalsRole});
}

void SandboxListModel::onEvent(const QString &topic, const QJsonObject &data)
{
    if (topic == QLatin1String("agent")) {
        if (data.value(QLatin1String("type")).toString() == QLatin1String("refusal"))
            countAgentRefusals();
        return;
    }
    if (topic != networkTopic() || data.value(QLatin1String("outcome")).toString() != QLatin1String("denied"))
        return;
    const QString name = data.value(QLatin1String("sandbox")).toString();
    const int row = rowOf(name);
    if (row < 0)
        return;
    Denials &denials = m_denials[name];
    const QDateTime time = QDateTime::fromString(data.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
    if (time.isValid() && denials.storedUpTo.isValid() && time <= denials.storedUpTo)
        return;
    if (time.isValid() && denials.since.isValid() && time < denials.since)
        return;
    denials.liveTimes.append(time);
    Q_EMIT dataChanged(index(row), index(row), {DenialsRole});
}

qint64 SandboxListModel::Denials::total() const
{
    qint64 count = stored;
    for (const QDateTime &time : liveTimes) {
        if (!time.isValid() || !storedUpTo.isValid() || time > storedUpTo)
            ++count;
    }
    return count;
}

void SandboxListModel::setBusy(const QString &name, bool busy)
{
    const int row = rowOf(name);
    if (row < 0 || m_rows.at(row).busy == busy)
        return;
    m_rows[row].busy = busy;
    Q_EMIT dataChanged(index(row), index(row), {BusyRole});
}

void SandboxListModel::start(const QString &name, bool approved)
{
    api::DaemonClient *c = client();
    if (!c)
        return Q_EMIT actionFailed(tr("The daemon is not connected."));
    if (approved)
        return startNow(name);
    setBusy(name, true);
    QPointer<SandboxListModel> self(this);
    c->call(QStringLiteral("binding.check"), {{QStringLiteral("sandbox"), name}},
            [self, name](const api::Reply &reply) {
                if (!self)
                    return;
                // No kit recorded (a sandbox made by an older daemon) or no check available: start as asked.
                if (reply.isError())
                    return self->startNow(name);
                QVariantList pending;
                QStringList missing;
                const bool keychain = reply.result().value(QLatin1String("keychain")).toBool(true);
                for (const QJsonValue &value : reply.result().value(QLatin1String("credentials")).toArray()) {
                    const QJsonObject credential = value.toObject();
                    if (!credential.value(QLatin1String("approved")).toBool(true))
                        pending << credential.toVariantMap();
                    else if (keychain && credential.value(QLatin1String("required")).toBool() &&
                             !credential.value(QLatin1String("ready")).toBool(true))
                        missing << credential.value(QLatin1String("service")).toString();
                }
                if (!missing.isEmpty()) {
                    self->setBusy(name, false);
                    return Q_EMIT self->actionFailed(
                        tr("%1 cannot start: the key of %2 is not set. Add it on the Secrets page.")
                            .arg(name, missing.join(QStringLiteral(", "))));
                }
                if (!pending.isEmpty()) {
                    self->setBusy(name, false);
                    return Q_EMIT self->approvalNeeded(
                        name, reply.result().value(QLatin1String("directory")).toString(), pending);
                }
                self->startNow(name);
            });
}

void SandboxListModel::startNow(const QString &name)
{
    api::DaemonClient *c = client();
    if (!c)
        return;
    setBusy(name, true);
    QPointer<SandboxListModel> self(this);
    c->call(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name}}, [self, name](const api::Reply &reply) {
        if (!self)
            return;
        self->setBusy(name, false);
        if (reply.isError())
            Q_EMIT self->actionFailed(reply.errorMessage());
        else
            Q_EMIT self->actionSucceeded(tr("%1 started.").arg(name));
        self->refresh();
    });
}

void SandboxListModel::stop(const QString &name)
{
    api::DaemonClient *c = client();
    if (!c)
        return Q_EMIT actionFailed(tr("The daemon is not connected."));
    setBusy(name, true);
    QPointer<SandboxListModel> self(this);
    c->call(QStringLiteral("sandbox.stop"), {{QStringLiteral("name"), name}}, [self, name](const api::Reply &reply) {
        if (!self)
            return;
        self->setBusy(name, false);
        if (reply.isError())
            Q_EMIT self->actionFailed(reply.errorMessage());
        else
            Q_EMIT self->actionSucceeded(tr("%1 stopped.").arg(name));
        self->refresh();
    });
}

void SandboxListModel::remove(const QString &name)
{
    api::DaemonClient *c = client();
    if (!c)
        return Q_EMIT actionFailed(tr("The daemon is not connected."));
    const int row = rowOf(name);
    const bool running = row >= 0 && m_rows.at(row).status == QLatin1String("running");
    setBusy(name, true);
    QPointer<SandboxListModel> self(this);
    c->call(QStringLiteral("sandbox.remove"), {{QStringLiteral("name"), name}, {QStringLiteral("force"), running}},
            [self, name](const api::Reply &reply) {
                if (!self)
                    return;
                self->setBusy(name, false);
                if (reply.isError()) {
                    Q_EMIT self->actionFailed(reply.errorMessage());
                } else {
                    self->m_denials.remove(name);
                    Q_EMIT self->actionSucceeded(tr("%1 removed.").arg(name));
                }
                self->refresh();
            });
}

} // namespace paddock::gui
