// SPDX-License-Identifier: GPL-3.0-or-later
#include "AskModel.h"

#include "NetworkPolicy.h"

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

AskModel::AskModel(QObject *parent) : RowListModel(parent)
{
    using R = const HeldAsk &;
    // Not "id": that name is QML's own.
    m_rows.setRoles({{AskIdRole, "askId", [](R row) { return row.id; }},
                     {SandboxRole, "sandbox", [](R row) { return row.sandbox; }},
                     {KitRole, "kit", [](R row) { return row.kit; }},
                     {HostRole, "host", [](R row) { return row.host; }},
                     {PortRole, "port", [](R row) { return row.port; }},
                     {ProtocolRole, "protocol", [](R row) { return row.protocol; }},
                     {WaitingRole, "waiting", [](R row) { return row.waiting; }},
                     {SinceRole, "since", [](R row) { return row.since; }},
                     {DeadlineRole, "deadline", [](R row) { return row.deadline; }},
                     {ReasonRole, "reason", [](R row) { return row.reason; }},
                     {SecondsLeftRole, "secondsLeft", [](R row) { return secondsUntil(row.deadline); }},
                     {ProgramRole, "program", [](R row) { return row.program; }},
                     {CommandRole, "command", [](R row) { return row.command; }},
                     {WrittenRole, "written", [](R row) { return row.written; }}},
                    HostRole);
    followTopics({QStringLiteral("asks")});
    m_ticker.setInterval(1000);
    connect(&m_ticker, &QTimer::timeout, this, &AskModel::tick);
}

int AskModel::secondsUntil(const QDateTime &deadline, const QDateTime &now)
{
    if (!deadline.isValid())
        return 0;
    return std::max(0, int(std::ceil(double(now.msecsTo(deadline)) / 1000.0)));
}

void AskModel::daemonEvent(const QString &topic, const QJsonObject &data)
{
    if (topic == QLatin1String("asks"))
        addEvent(data);
}

void AskModel::reload()
{
    // An older daemon has no ask mode: nothing waits then, and loadFailed says why.
    load(QStringLiteral("policy.asks"), {},
         [this](const QJsonObject &result) { setAsks(result.value(QLatin1String("asks")).toArray()); });
    loadSandboxes();
}

void AskModel::loadSandboxes()
{
    request(QStringLiteral("sandbox.list"), {}, [this](const api::Reply &reply) {
        if (!reply.isError())
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

std::optional<HeldAsk> HeldAsk::fromJson(const QJsonObject &object)
{
    HeldAsk ask;
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
    if (ask.id.isEmpty())
        return std::nullopt;
    return ask;
}

void AskModel::setAsks(const QJsonArray &asks)
{
    QList<HeldAsk> next = Rows<HeldAsk>::fromJson(asks);
    std::stable_sort(next.begin(), next.end(), [](const HeldAsk &a, const HeldAsk &b) { return a.since < b.since; });
    QStringList before;
    for (const HeldAsk &row : m_rows.all())
        before << row.id;
    m_rows.reset(next);
    for (const QString &id : std::as_const(before)) {
        if (rowOf(id) < 0)
            emit ended(id);
    }
    for (const HeldAsk &row : m_rows.all()) {
        setAsked(row.sandbox, true);
        if (!before.contains(row.id))
            emit held(row.id);
    }
    emit oldestChanged();
    updateTimer();
}

void AskModel::addEvent(const QJsonObject &event)
{
    // While loading, the answer on its way holds this change already.
    if (loading())
        return;
    const QString change = event.value(QLatin1String("change")).toString();
    if (change == QLatin1String("mode")) // switched here, in the CLI or in another window
        return setAsked(event.value(QLatin1String("sandbox")).toString(),
                        event.value(QLatin1String("asking")).toBool());
    const std::optional<HeldAsk> ask = HeldAsk::fromJson(event.value(QLatin1String("ask")).toObject());
    if (!ask)
        return;
    if (change == QLatin1String("ended"))
        remove(ask->id);
    else if (change == QLatin1String("held") || change == QLatin1String("updated"))
        insertOrUpdate(*ask);
}

void AskModel::insertOrUpdate(const HeldAsk &ask)
{
    const int row = rowOf(ask.id);
    if (row >= 0) {
        m_rows.replaceAt(row, ask);
        if (row == 0)
            emit oldestChanged();
        return;
    }
    // The daemon sends them oldest first; a late one still goes where its time says.
    const auto at = std::upper_bound(m_rows.all().cbegin(), m_rows.all().cend(), ask.since,
                                     [](const QDateTime &since, const HeldAsk &other) { return since < other.since; });
    const int position = int(at - m_rows.all().cbegin());
    m_rows.insertAt(position, ask);
    setAsked(ask.sandbox, true);
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
    m_rows.removeAt(row);
    if (row == 0)
        emit oldestChanged();
    updateTimer();
    emit ended(id);
}

void AskModel::updateTimer()
{
    if (m_rows.all().isEmpty())
        m_ticker.stop();
    else if (!m_ticker.isActive())
        m_ticker.start();
}

void AskModel::tick()
{
    if (m_rows.all().isEmpty())
        return;
    m_rows.rolesChanged({SecondsLeftRole});
    emit oldestChanged();
}

int AskModel::rowOf(const QString &id) const
{
    return m_rows.find([&id](const HeldAsk &row) { return row.id == id; });
}

void AskModel::answer(const QString &id, const QString &decision, const QString &where, const QString &what)
{
    QJsonObject params{{QStringLiteral("id"), id}, {QStringLiteral("decision"), decision}};
    if (!where.isEmpty()) {
        params.insert(QStringLiteral("where"), where);
        params.insert(QStringLiteral("what"), what.isEmpty() ? QStringLiteral("exact") : what);
    }
    act(QStringLiteral("policy.answer"), params, [this, id](const api::Reply &reply) {
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
    if (sandbox.isEmpty())
        return;
    act(QStringLiteral("sandbox.ask"), {{QStringLiteral("name"), sandbox}, {QStringLiteral("enabled"), enabled}},
        [this, sandbox](const api::Reply &reply) {
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
