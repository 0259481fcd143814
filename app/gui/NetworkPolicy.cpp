// SPDX-License-Identifier: GPL-3.0-or-later
#include "NetworkPolicy.h"

#include <QHostAddress>
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
    const QString name = host.trimmed().toLower();
    const bool isAddress = !QHostAddress(name).isNull();
    const bool isV6 = name.contains(QLatin1Char(':'));
    const QString withPort = (isV6 ? QLatin1Char('[') + name + QLatin1Char(']') : name) + QLatin1Char(':') +
                             QString::number(port > 0 ? port : 443);
    const QString portSuffix = port > 0 && port != 443 ? QLatin1Char(':') + QString::number(port) : QString();
    const QString parent = name.section(QLatin1Char('.'), 1);
    // The daemon refuses wildcards over a public suffix (co.uk, github.io); a parent with a
    // single label (a top-level domain) is left out here already.
    const bool hasParent = !isAddress && parent.contains(QLatin1Char('.'));
    return {{QStringLiteral("exact"), portSuffix.isEmpty() ? name : withPort},
            {QStringLiteral("wildcard"), hasParent ? QStringLiteral("*.") + parent + portSuffix : QString()},
            {QStringLiteral("deep"), hasParent ? QStringLiteral("**.") + parent + portSuffix : QString()},
            {QStringLiteral("hostport"), withPort}};
}

QString NetworkPolicy::allowCommandFor(const QString &host, int port, const QString &sandbox, const QString &where,
                                       const QString &what)
{
    QString command = QStringLiteral("paddock policy allow network %1").arg(host);
    if (port > 0 && port != 443)
        command += QStringLiteral(" --port %1").arg(port);
    if (where != QLatin1String("global"))
        command += QStringLiteral(" --sandbox %1").arg(sandbox);
    command += QStringLiteral(" --where %1").arg(where);
    if (what != QLatin1String("exact"))
        command += QStringLiteral(" --what %1").arg(what);
    return command;
}

} // namespace paddock::gui
