// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/AskService.h"

#include "api/Server.h"
#include "network/PolicyDecider.h"
#include "policy/AllowChoice.h"
#include "sandbox/PolicyService.h"
#include "sandbox/SandboxService.h"

#include <QJsonArray>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcAsk, "paddock.sandbox.ask", QtInfoMsg)

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

QString isoTime(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

} // namespace

AskService::AskService(api::Server &server, SandboxService &sandboxes, PolicyService &policy, QObject *parent)
    : QObject(parent), m_server(server), m_sandboxes(sandboxes), m_policy(policy)
{}

void AskService::start()
{
    m_server.registerTopic(asksTopic());
    connect(&m_sandboxes, &SandboxService::connectionHeld, this, &AskService::onHold);
    m_server.registerMethod(QStringLiteral("policy.asks"), [this](const QJsonObject &, const api::CallContext &) {
        QJsonArray asks;
        for (const Ask &ask : std::as_const(m_asks))
            asks.append(askJson(ask));
        return api::Reply::success({{QStringLiteral("asks"), asks}});
    });
    m_server.registerAsyncMethod(QStringLiteral("policy.answer"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { answer(params, reply); });
}

void AskService::onHold(const proxy::ProxyEvent &event)
{
    const auto same = [&event](const Ask &ask) {
        return ask.sandbox == event.sandbox && ask.host == event.host && ask.port == event.port;
    };
    auto it = std::find_if(m_asks.begin(), m_asks.end(), same);
    if (event.kind == proxy::ProxyEvent::Kind::HoldEnded) {
        if (it == m_asks.end() || !it->connections.removeOne(event.connection))
            return;
        if (!it->connections.isEmpty())
            return publish(QStringLiteral("updated"), *it);
        const Ask ended = *it;
        m_asks.erase(it);
        return publish(QStringLiteral("ended"), ended);
    }
    if (it != m_asks.end()) {
        it->connections.append(event.connection);
        it->deadline = std::max(it->deadline, event.deadline);
        noteProgram(*it, event);
        return publish(QStringLiteral("updated"), *it);
    }
    Ask ask;
    ask.id = QString::number(m_nextId++);
    ask.sandbox = event.sandbox;
    ask.kit = event.kit;
    ask.host = event.host;
    ask.port = event.port;
    ask.protocol = proxy::protocolName(event.protocol);
    ask.reason = event.reason;
    ask.since = event.time;
    ask.deadline = event.deadline;
    ask.connections = {event.connection};
    noteProgram(ask, event);
    m_asks.append(ask);
    qCInfo(lcAsk).noquote() << "sandbox" << ask.sandbox << "waits for an answer about" << ask.host << ask.port;
    publish(QStringLiteral("held"), ask);
}

void AskService::noteProgram(Ask &ask, const proxy::ProxyEvent &event)
{
    if (!event.program.known())
        return;
    ask.pid = event.program.pid;
    ask.program = QString::fromStdString(event.program.name());
    ask.command = QString::fromStdString(event.program.commandLine());
    ask.written = QString::fromStdString(event.program.writtenWhere);
    if (!ask.programs.contains(ask.program))
        ask.programs.append(ask.program);
}

void AskService::answer(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString id = params.value(QLatin1String("id")).toVariant().toString();
    const QString decision = params.value(QLatin1String("decision")).toString();
    const QString where = params.value(QLatin1String("where")).toString();
    const QString what = params.value(QLatin1String("what")).toString(QStringLiteral("exact"));
    const auto it = std::find_if(m_asks.cbegin(), m_asks.cend(), [&id](const Ask &ask) { return ask.id == id; });
    if (it == m_asks.cend())
        return reply.complete(api::Reply::failure(
            QLatin1String(api::errors::kNotFound),
            QStringLiteral("nothing waits under id %1: it was answered, timed out, or its client left").arg(id)));
    if (decision != QLatin1String("allow") && decision != QLatin1String("deny"))
        return reply.complete(invalid(QStringLiteral("the decision must be allow or deny")));
    const bool allow = decision == QLatin1String("allow");
    const Ask ask = *it;
    QJsonObject result{{QStringLiteral("decision"), decision}, {QStringLiteral("once"), where.isEmpty()}};
    if (where.isEmpty())
        return finishAnswer(id, allow, QStringLiteral("%1 (%2 once)").arg(network::kAskRule, decision), result, reply);

    QJsonObject request{{QStringLiteral("host"), ask.host},
                        {QStringLiteral("port"), ask.port},
                        {QStringLiteral("sandbox"), ask.sandbox},
                        {QStringLiteral("where"), where},
                        {QStringLiteral("what"), what}};
    if (allow) {
        // The same rule the Allow dialog writes; the rule change itself releases the waiting
        // connections too (the proxy decides them again), the answer below makes it certain.
        m_policy.allow(request, api::PendingReply::forward([this, id, result, reply](const api::Reply &allowed) {
                           if (allowed.isError())
                               return reply.complete(allowed);
                           QJsonObject merged = result;
                           for (auto field = allowed.result().constBegin(); field != allowed.result().constEnd();
                                ++field)
                               merged.insert(field.key(), field.value());
                           finishAnswer(id, true,
                                        network::kAskRule + QStringLiteral(": ") +
                                            allowed.result().value(QLatin1String("pattern")).toString(),
                                        merged, reply);
                       }));
        return;
    }
    const Result<QString> pattern = policy::allowChoicePattern(ask.host, ask.port, what);
    if (!pattern)
        return reply.complete(invalid(pattern.error().text()));
    QString scope;
    if (where == QLatin1String("global"))
        scope = QStringLiteral("global");
    else if (where == QLatin1String("sandbox"))
        scope = QStringLiteral("sandbox:") + ask.sandbox;
    else if (where == QLatin1String("kit") && !ask.kit.isEmpty())
        scope = QStringLiteral("kit:") + ask.kit;
    else
        return reply.complete(
            invalid(QStringLiteral("unknown place '%1': expected sandbox, kit or global").arg(where)));
    const api::Reply added = m_policy.addRule({{QStringLiteral("pattern"), *pattern},
                                               {QStringLiteral("decision"), QStringLiteral("deny")},
                                               {QStringLiteral("scope"), scope}});
    if (added.isError())
        return reply.complete(added);
    result.insert(QStringLiteral("pattern"), *pattern);
    result.insert(QStringLiteral("where"), where);
    result.insert(QStringLiteral("rule"), added.result().value(QLatin1String("rule")));
    result.insert(QStringLiteral("message"), QStringLiteral("denied %1 (%2)").arg(*pattern, scope));
    finishAnswer(id, false, network::kAskRule + QStringLiteral(": denied ") + *pattern, result, reply);
}

void AskService::finishAnswer(const QString &id, bool allow, const QString &rule, QJsonObject result,
                              const api::PendingReply &reply)
{
    const auto it = std::find_if(m_asks.cbegin(), m_asks.cend(), [&id](const Ask &ask) { return ask.id == id; });
    // Gone meanwhile: a written rule already released every connection it covered.
    const QList<quint64> connections = it == m_asks.cend() ? QList<quint64>() : it->connections;
    proxy::HoldAnswer held;
    held.allow = allow;
    held.rule = rule;
    if (!allow)
        held.reason = QStringLiteral("denied when asked");
    m_sandboxes.proxy().answer(std::vector<quint64>(connections.cbegin(), connections.cend()), held);
    result.insert(QStringLiteral("answered"), connections.size());
    if (!result.contains(QLatin1String("message")))
        result.insert(QStringLiteral("message"), QStringLiteral("%1 %2 waiting connection(s), this time only")
                                                     .arg(allow ? QStringLiteral("allowed") : QStringLiteral("denied"))
                                                     .arg(connections.size()));
    if (it != m_asks.cend())
        qCInfo(lcAsk).noquote() << rule << "for" << it->host << it->port << "in sandbox" << it->sandbox;
    reply.succeed(result);
}

void AskService::publish(const QString &change, const Ask &ask)
{
    m_server.publish(asksTopic(), {{QStringLiteral("change"), change}, {QStringLiteral("ask"), askJson(ask)}});
}

QJsonObject AskService::askJson(const Ask &ask)
{
    return {{QStringLiteral("id"), ask.id},
            {QStringLiteral("sandbox"), ask.sandbox},
            {QStringLiteral("kit"), ask.kit},
            {QStringLiteral("host"), ask.host},
            {QStringLiteral("port"), ask.port},
            {QStringLiteral("protocol"), ask.protocol},
            {QStringLiteral("waiting"), ask.connections.size()},
            {QStringLiteral("since"), isoTime(ask.since)},
            {QStringLiteral("deadline"), isoTime(ask.deadline)},
            {QStringLiteral("reason"), ask.reason},
            {QStringLiteral("pid"), ask.pid},
            {QStringLiteral("program"), ask.program},
            {QStringLiteral("command"), ask.command},
            {QStringLiteral("written"), ask.written},
            {QStringLiteral("programs"), QJsonArray::fromStringList(ask.programs)}};
}

} // namespace paddock::sandbox
