// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxListModel.h"

#include "events/Activity.h"

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
/** Every how many polls the sparklines are read again (about every 15 s). */
constexpr int kActivityEveryPolls = 5;
constexpr int kTickIntervalMs = 1000;
// events.denials groups by host; enough groups to count every refusal of one run.
constexpr int kDenialGroupLimit = 100000;

QString networkTopic()
{
    return QStringLiteral("network");
}

} // namespace

SandboxListModel::SandboxListModel(QObject *parent) : RowListModel(parent)
{
    declareRoles();
    // Separately: a daemon without agent permissions refuses the topic, not the other one.
    followTopics({networkTopic(), QStringLiteral("agent")});
    m_poll.setInterval(kPollIntervalMs);
    connect(&m_poll, &QTimer::timeout, this, &SandboxListModel::refresh);
    // Uptime moves every second; only its role changes.
    m_tick.setInterval(kTickIntervalMs);
    connect(&m_tick, &QTimer::timeout, this, [this] { m_rows.rolesChanged({UptimeRole}); });
    // The answer on its way when an action finished may predate it: asked once more after it.
    connect(this, &RowListModel::loadingChanged, this, [this] {
        if (!loading() && std::exchange(m_refreshAgain, false))
            QTimer::singleShot(0, this, &SandboxListModel::refresh);
    });
}

void SandboxListModel::declareRoles()
{
    using R = const SandboxRow &;
    m_rows.setRoles({
        {NameRole, "name", [](R row) { return row.name; }},
        {KitRole, "kit", [](R row) { return row.kit; }},
        {BackendRole, "backend", [](R row) { return row.backend; }},
        {StatusRole, "status", [](R row) { return row.status; }},
        {WorkspaceRole, "workspace", [](R row) { return row.workspace; }},
        {StartedAtRole, "startedAt", [](R row) { return row.startedAt; }},
        {UptimeRole, "uptime",
         [](R row) {
             if (row.status != QLatin1String("running") || !row.startedAt.isValid())
                 return QString();
             return formatUptime(row.startedAt.msecsTo(QDateTime::currentDateTimeUtc()));
         }},
        {DenialsRole, "denials", [this](R row) { return denialsOf(row.name); }},
        {BusyRole, "busy", [](R row) { return row.busy; }},
        {ExitCodeRole, "exitCode", [](R row) { return row.exitCode; }},
        {AgentStateRole, "agentState", [](R row) { return row.agentState; }},
        {AgentExitCodeRole, "agentExitCode", [](R row) { return row.agentExitCode; }},
        {AgentAttachedRole, "agentAttached", [](R row) { return row.agentAttached; }},
        {StateTextRole, "stateText",
         [](R row) { return describeState(row.status, row.agentState, row.agentExitCode, row.agentReason); }},
        {AgentRefusalsRole, "agentRefusals", [this](R row) { return m_agentRefusals.value(row.name); }},
        {RootTextRole, "rootText", [](R row) { return row.rootText; }},
        {SharesTextRole, "sharesText", [](R row) { return row.sharesText; }},
        {ActivityRole, "activity", [this](R row) { return m_activity.value(row.name); }},
        {AgentVerbsRole, "agentVerbs", [](R row) { return row.agentVerbs; }},
    });
}

void SandboxListModel::daemonConnected()
{
    // A new daemon connection: the stored counts are asked again.
    m_denials.clear();
    m_poll.start();
    m_tick.start();
    refresh();
}

void SandboxListModel::daemonDisconnected()
{
    m_poll.stop();
    m_tick.stop();
}

qint64 SandboxListModel::denialsOf(const QString &name) const
{
    const auto found = m_denials.constFind(name);
    return found == m_denials.cend() ? 0 : found->total();
}

int SandboxListModel::rowOf(const QString &name) const
{
    return m_rows.find([&name](const SandboxRow &row) { return row.name == name; });
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

QString SandboxListModel::describeState(const QString &status, const QString &agentState, int agentExitCode,
                                        const QString &agentReason)
{
    if (status == QLatin1String("running") && !agentReason.isEmpty() && agentState != QLatin1String("running")) {
        return agentExitCode >= 0 ? tr("Running · the agent exited: %1 (exit %2)").arg(agentReason).arg(agentExitCode)
                                  : tr("Running · the agent did not start: %1").arg(agentReason);
    }
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

QString SandboxListModel::describeRoot(const QString &base, const QString &image, qint64 bytes, const QString &mount)
{
    if (base != QLatin1String("image") && base != QLatin1String("host"))
        return {};
    // Decimal units, as `paddock ls` prints them.
    const QString size =
        bytes >= 0 ? QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat) : tr("size unknown");
    if (base == QLatin1String("image"))
        return tr("root %1 over image %2").arg(size, image);
    // What mounts it ("kernel overlay", "fuse-overlayfs") is a program's name, not translated.
    return mount.isEmpty() ? tr("root %1 over the host's system").arg(size)
                           : tr("root %1 over the host's system (%2)").arg(size, mount);
}

bool SandboxRow::sameState(const SandboxRow &other) const
{
    return status == other.status && startedAt == other.startedAt && kit == other.kit && backend == other.backend &&
           workspace == other.workspace && exitCode == other.exitCode && agentState == other.agentState &&
           agentExitCode == other.agentExitCode && agentReason == other.agentReason &&
           agentAttached == other.agentAttached && rootText == other.rootText && sharesText == other.sharesText &&
           agentVerbs == other.agentVerbs;
}

void SandboxListModel::refresh()
{
    if (!connected())
        return;
    if (loading()) {
        m_refreshAgain = true;
        return;
    }
    countAgentRefusals();
    // The sparklines' minutes change slowly: one aggregated read every few polls.
    if (m_refreshes++ % kActivityEveryPolls == 0)
        countActivity();
    load(QStringLiteral("sandbox.list"), {},
         [this](const QJsonObject &result) { applyList(result.value(QLatin1String("sandboxes")).toArray()); });
}

std::optional<SandboxRow> SandboxRow::fromJson(const QJsonObject &info)
{
    SandboxRow row;
    row.name = info.value(QLatin1String("name")).toString();
    row.kit = info.value(QLatin1String("kit")).toString();
    row.backend = info.value(QLatin1String("backend")).toString();
    // A kernel of its own is worth saying where the backend is: "docker + gVisor".
    if (info.value(QLatin1String("isolation")).toString() == QLatin1String("gvisor"))
        row.backend += QStringLiteral(" + gVisor");
    // The engine, when not this computer's own (`local`), as `paddock ls` says docker@NAME.
    if (const QString engine = info.value(QLatin1String("engine")).toString();
        !engine.isEmpty() && engine != QLatin1String("local"))
        row.backend = SandboxListModel::tr("%1 on engine %2").arg(row.backend, engine);
    row.status = info.value(QLatin1String("status")).toString();
    row.workspace = info.value(QLatin1String("workspace")).toString();
    row.startedAt = QDateTime::fromString(info.value(QLatin1String("startedAt")).toString(), Qt::ISODateWithMs);
    row.exitCode = info.value(QLatin1String("exitCode")).toInt(-1);
    // The daemon reports the agent of running sandboxes only.
    if (row.status == QLatin1String("running") && info.value(QLatin1String("agent")).isObject()) {
        const QJsonObject agent = info.value(QLatin1String("agent")).toObject();
        row.agentState = agent.value(QLatin1String("state")).toString();
        row.agentExitCode = agent.value(QLatin1String("exitCode")).toInt(-1);
        row.agentReason = agent.value(QLatin1String("reason")).toString().left(200);
        row.agentAttached = agent.value(QLatin1String("attached")).toInt();
    }
    for (const QJsonValue &verb :
         info.value(QLatin1String("agentVerbs")).toObject().value(QLatin1String("terminal")).toArray())
        row.agentVerbs << verb.toString();
    const QJsonObject root = info.value(QLatin1String("root")).toObject();
    row.rootText = SandboxListModel::describeRoot(
        root.value(QLatin1String("base")).toString(),
        root.value(QLatin1String("reference")).toString(root.value(QLatin1String("image")).toString()),
        root.value(QLatin1String("bytes")).toInteger(-1), root.value(QLatin1String("mount")).toString());
    row.sharesText = SandboxListModel::describeShares(info);
    return row;
}

void SandboxListModel::applyList(const QJsonArray &sandboxes)
{
    QList<SandboxRow> next = Rows<SandboxRow>::fromJson(sandboxes);
    for (SandboxRow &row : next) {
        if (const int old = rowOf(row.name); old >= 0)
            row.busy = m_rows.all().at(old).busy;
    }
    std::sort(next.begin(), next.end(), [](const SandboxRow &a, const SandboxRow &b) { return a.name < b.name; });
    qCDebug(lcSandboxList) << "the daemon lists" << next.size() << "sandboxes";

    // Rows are updated in place when the names are the same, so views keep focus and scroll.
    bool sameNames = next.size() == m_rows.all().size();
    for (int i = 0; sameNames && i < next.size(); ++i)
        sameNames = next.at(i).name == m_rows.all().at(i).name;
    if (sameNames) {
        for (int i = 0; i < next.size(); ++i) {
            if (!next.at(i).sameState(m_rows.all().at(i)))
                m_rows.replaceAt(i, next.at(i));
        }
    } else {
        m_rows.reset(next);
    }

    for (const SandboxRow &row : m_rows.all()) {
        const auto found = m_denials.constFind(row.name);
        if (found == m_denials.cend() || found->since != row.startedAt)
            countStoredDenials(row.name, row.startedAt);
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
    if (!since.isValid())
        return;
    request(QStringLiteral("events.denials"),
            {{QStringLiteral("sandbox"), name},
             {QStringLiteral("since"), since.toUTC().toString(Qt::ISODateWithMs)},
             {QStringLiteral("limit"), kDenialGroupLimit}},
            [this, name, since](const api::Reply &reply) {
                // An error: a daemon without events.denials, so live counting only.
                if (!reply.isError())
                    applyStoredDenials(name, since, reply.result());
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
    if (const int row = rowOf(name); row >= 0)
        Q_EMIT dataChanged(index(row), index(row), {DenialsRole});
}

void SandboxListModel::countAgentRefusals()
{
    request(QStringLiteral("agent.counts"), {}, [this](const api::Reply &reply) {
        // An error: a daemon without agent permissions, so nothing to count.
        if (!reply.isError())
            applyAgentCounts(reply.result());
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
    m_rows.rolesChanged({AgentRefusalsRole});
}

void SandboxListModel::countActivity()
{
    // The last hour in two-minute buckets, every sandbox in one answer, no destinations.
    const QJsonObject params{{QStringLiteral("hours"), 1},
                             {QStringLiteral("buckets"), 30},
                             {QStringLiteral("hosts"), 0},
                             {QStringLiteral("perSandbox"), true}};
    request(QStringLiteral("events.activity"), params, [this](const api::Reply &reply) {
        if (!reply.isError())
            applyActivity(reply.result());
    });
}

void SandboxListModel::applyActivity(const QJsonObject &result)
{
    QHash<QString, QVariantList> activity;
    const events::Activity sums = events::activityFromJson(result);
    for (auto it = sums.sandboxes.cbegin(); it != sums.sandboxes.cend(); ++it) {
        QVariantList buckets;
        for (const events::ActivityBucket &bucket : it.value())
            buckets.append(QVariant(QVariantList{double(bucket.allowed), double(bucket.refused)}));
        activity.insert(it.key(), buckets);
    }
    if (activity == m_activity)
        return;
    m_activity = activity;
    m_rows.rolesChanged({ActivityRole});
}

void SandboxListModel::daemonEvent(const QString &topic, const QJsonObject &data)
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
    if (row < 0 || m_rows.all().at(row).busy == busy)
        return;
    SandboxRow changed = m_rows.all().at(row);
    changed.busy = busy;
    m_rows.replaceAt(row, changed, {BusyRole});
}

void SandboxListModel::finishAction(const QString &name, const api::Reply &reply, const QString &done)
{
    setBusy(name, false);
    if (reply.isError())
        Q_EMIT actionFailed(reply.errorMessage());
    else
        Q_EMIT actionSucceeded(done);
    refresh();
}

void SandboxListModel::start(const QString &name, bool approved)
{
    if (approved)
        return startNow(name);
    setBusy(name, true);
    act(QStringLiteral("binding.check"), {{QStringLiteral("sandbox"), name}},
        [this, name](const api::Reply &reply) { onBindingChecked(name, reply); });
}

void SandboxListModel::onBindingChecked(const QString &name, const api::Reply &reply)
{
    // No kit recorded (a sandbox made by an older daemon), no check available or no daemon to
    // ask: starting says what stands in the way, if anything does.
    if (reply.isError())
        return startNow(name);
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
        setBusy(name, false);
        return Q_EMIT actionFailed(tr("%1 cannot start: the key of %2 is not set. Add it on the Secrets page.")
                                       .arg(name, missing.join(QStringLiteral(", "))));
    }
    if (!pending.isEmpty()) {
        setBusy(name, false);
        return Q_EMIT approvalNeeded(name, reply.result().value(QLatin1String("directory")).toString(), pending);
    }
    startNow(name);
}

void SandboxListModel::startNow(const QString &name)
{
    setBusy(name, true);
    act(QStringLiteral("sandbox.start"), {{QStringLiteral("name"), name}},
        [this, name](const api::Reply &reply) { finishAction(name, reply, tr("%1 started.").arg(name)); });
}

void SandboxListModel::stop(const QString &name)
{
    setBusy(name, true);
    act(QStringLiteral("sandbox.stop"), {{QStringLiteral("name"), name}},
        [this, name](const api::Reply &reply) { finishAction(name, reply, tr("%1 stopped.").arg(name)); });
}

void SandboxListModel::remove(const QString &name)
{
    const int row = rowOf(name);
    const bool running = row >= 0 && m_rows.all().at(row).status == QLatin1String("running");
    setBusy(name, true);
    act(QStringLiteral("sandbox.remove"), {{QStringLiteral("name"), name}, {QStringLiteral("force"), running}},
        [this, name](const api::Reply &reply) {
            if (!reply.isError())
                m_denials.remove(name);
            finishAction(name, reply, tr("%1 removed.").arg(name));
        });
}

void SandboxListModel::recreate(const QString &name)
{
    setBusy(name, true);
    act(QStringLiteral("sandbox.recreate"), {{QStringLiteral("name"), name}},
        [this, name](const api::Reply &reply) { finishAction(name, reply, tr("%1 recreated.").arg(name)); });
}

} // namespace paddock::gui
