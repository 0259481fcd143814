// SPDX-License-Identifier: GPL-3.0-or-later
#include "NetworkPolicy.h"

#include "policy/AllowChoice.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcNetworkPolicy, "paddock.gui.network", QtInfoMsg)

namespace paddock::gui {

NetworkPolicy::NetworkPolicy(QObject *parent) : DaemonBound(parent)
{
    m_denials.followDaemonOf(this);
    followTopics({QStringLiteral("policy")});
}

void NetworkPolicy::daemonEvent(const QString &topic, const QJsonObject &data)
{
    Q_UNUSED(data)
    if (topic == QLatin1String("policy"))
        loadPolicy();
}

void NetworkPolicy::refresh()
{
    loadPolicy();
    m_denials.reload();
}

void NetworkPolicy::loadPolicy()
{
    request(QStringLiteral("policy.get"), {}, [this](const api::Reply &reply) {
        if (reply.isError())
            return setError(reply.errorMessage());
        const QJsonObject result = reply.result();
        m_preset = result.value(QLatin1String("preset")).toString();
        m_presetDescription = result.value(QLatin1String("presetDescription")).toString();
        m_rules.setRules(result.value(QLatin1String("rules")).toArray());
        m_loaded = true;
        emit policyChanged();
    });
}

void NetworkPolicy::call(const QString &action, const QString &method, const QJsonObject &params,
                         std::function<QString(const QJsonObject &)> done)
{
    ++m_pending;
    emit pendingCallsChanged();
    act(method, params, [this, action, done = std::move(done)](const api::Reply &reply) {
        --m_pending;
        emit pendingCallsChanged();
        if (reply.isError()) {
            qCInfo(lcNetworkPolicy).noquote() << action << "refused:" << reply.errorMessage();
            setError(reply.errorMessage());
            emit actionFinished(action, false, reply.errorMessage());
            return;
        }
        setError({});
        emit actionFinished(action, true, done(reply.result()));
    });
}

void NetworkPolicy::setPreset(const QString &preset)
{
    call(QStringLiteral("preset"), QStringLiteral("policy.preset"), {{QStringLiteral("preset"), preset}},
         [](const QJsonObject &result) {
             return tr("The preset is now %1.").arg(result.value(QLatin1String("preset")).toString());
         });
}

void NetworkPolicy::addRule(const QString &pattern, const QString &decision, const QString &scope)
{
    call(QStringLiteral("add"), QStringLiteral("policy.add"),
         {{QStringLiteral("pattern"), pattern},
          {QStringLiteral("decision"), decision},
          {QStringLiteral("scope"), scope}},
         [](const QJsonObject &result) {
             const QString added =
                 result.value(QLatin1String("rule")).toObject().value(QLatin1String("pattern")).toString();
             return result.value(QLatin1String("existed")).toBool() ? tr("%1 was already there.").arg(added)
                                                                    : tr("Added %1.").arg(added);
         });
}

void NetworkPolicy::updateRule(const QString &id, const QString &pattern, const QString &decision, const QString &scope)
{
    call(QStringLiteral("update"), QStringLiteral("policy.update"),
         {{QStringLiteral("id"), id},
          {QStringLiteral("pattern"), pattern},
          {QStringLiteral("decision"), decision},
          {QStringLiteral("scope"), scope}},
         [](const QJsonObject &result) {
             return tr("Changed the rule to %1.")
                 .arg(result.value(QLatin1String("rule")).toObject().value(QLatin1String("pattern")).toString());
         });
}

void NetworkPolicy::removeRule(const QString &id)
{
    call(QStringLiteral("remove"), QStringLiteral("policy.remove"), {{QStringLiteral("id"), id}},
         [](const QJsonObject &) { return tr("Removed the rule."); });
}

void NetworkPolicy::allow(const QString &host, int port, const QString &sandbox, const QString &where,
                          const QString &what)
{
    QJsonObject params{{QStringLiteral("host"), host},
                       {QStringLiteral("sandbox"), sandbox},
                       {QStringLiteral("where"), where},
                       {QStringLiteral("what"), what}};
    if (port > 0)
        params.insert(QStringLiteral("port"), port);
    call(QStringLiteral("allow"), QStringLiteral("policy.allow"), params,
         [this, host, sandbox](const QJsonObject &result) {
             // Allowed now: the row has done its job.
             m_denials.removeDenial(host, sandbox);
             const QString pattern = result.value(QLatin1String("pattern")).toString();
             const QString placed = result.value(QLatin1String("where")).toString();
             if (placed == QLatin1String("kit"))
                 return tr("Allowed %1 in %2.").arg(pattern, result.value(QLatin1String("kitFile")).toString());
             if (placed == QLatin1String("global"))
                 return tr("Allowed %1 for every sandbox.").arg(pattern);
             return tr("Allowed %1 for sandbox %2.").arg(pattern, sandbox);
         });
}

void NetworkPolicy::allowValue(const QString &host, const QString &sandbox, const QString &file, const QString &name)
{
    call(QStringLiteral("allowValue"), QStringLiteral("sandbox.guard"),
         {{QStringLiteral("name"), sandbox},
          {QStringLiteral("allow"), QJsonObject{{QStringLiteral("file"), file}, {QStringLiteral("name"), name}}}},
         [this, host, sandbox, file, name](const QJsonObject &) {
             m_denials.removeDenial(host, sandbox);
             return tr("Sandbox %1 may now send the value of %2 from %3.").arg(sandbox, name, file);
         });
}

void NetworkPolicy::dismiss(const QString &host, const QString &sandbox)
{
    call(QStringLiteral("dismiss"), QStringLiteral("events.dismiss"),
         {{QStringLiteral("host"), host}, {QStringLiteral("sandbox"), sandbox}},
         [this, host, sandbox](const QJsonObject &) {
             m_denials.removeDenial(host, sandbox);
             return tr("Dismissed %1; it shows again if it is refused again.").arg(host);
         });
}

QVariantMap NetworkPolicy::allowChoicesFor(const QString &host, int port)
{
    const std::uint16_t refusedPort = port > 0 && port <= 65535 ? std::uint16_t(port) : std::uint16_t(443);
    QVariantMap choices;
    // Each choice a different rule (policy::allowChoicePattern); one that cannot be allowed
    // (a wildcard over an address or a public suffix) is empty.
    for (const QString &what :
         {QStringLiteral("exact"), QStringLiteral("anyport"), QStringLiteral("wildcard"), QStringLiteral("deep")}) {
        choices.insert(what, policy::allowChoicePattern(host, refusedPort, what).valueOr(QString()));
    }
    return choices;
}

QString NetworkPolicy::allowCommandFor(const QString &host, int port, const QString &sandbox, const QString &where,
                                       const QString &what)
{
    const std::uint16_t refusedPort = port > 0 && port <= 65535 ? std::uint16_t(port) : std::uint16_t(443);
    return policy::allowChoiceCommand(host, refusedPort, sandbox, where, what);
}

} // namespace paddock::gui
