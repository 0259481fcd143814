// SPDX-License-Identifier: GPL-3.0-or-later
#include "network/PolicyDecider.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcDecider, "paddock.network.decider")

namespace paddock::network {
namespace {

/** `host:port`, IPv6 literals in brackets: the target form PolicyEngine::check reads. */
QString targetText(const QString &host, quint16 port)
{
    const QString name = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return name + QLatin1Char(':') + QString::number(port);
}

} // namespace

proxy::Verdict decide(const policy::PolicyEngine &engine, const proxy::ConnectionQuery &query)
{
    policy::Request request;
    request.sandbox = query.sandbox;
    request.kit = query.kit;
    request.host = query.host;
    request.port = query.port;
    request.addresses = QList<QHostAddress>(query.addresses.cbegin(), query.addresses.cend());
    const policy::Decision decision = engine.decide(request);

    proxy::Verdict verdict;
    verdict.allowed = decision.allowed;
    verdict.rule = decision.ruleLabel();
    verdict.reason = decision.reason();
    if (!decision.allowed) {
        // Only refusals pay for the fix text; check() decides again the same way.
        const policy::Explanation explanation =
            engine.check(targetText(query.host, query.port), query.sandbox, query.kit, request.addresses);
        verdict.fix = explanation.fix;
        qCDebug(lcDecider).noquote() << "refused" << targetText(query.host, query.port) << verdict.reason;
    }
    return verdict;
}

proxy::Decider policyDecider(const policy::PolicyEngine &engine)
{
    return [&engine](const proxy::ConnectionQuery &query) { return decide(engine, query); };
}

QMap<QString, QHostAddress> syncResolveOverrides(proxy::ResolveOverrides &resolver,
                                                 const QMap<QString, QHostAddress> &previous,
                                                 const QMap<QString, QHostAddress> &next)
{
    for (auto it = previous.cbegin(); it != previous.cend(); ++it) {
        if (!next.contains(it.key()))
            resolver.remove(it.key(), 0);
    }
    for (auto it = next.cbegin(); it != next.cend(); ++it)
        resolver.set(it.key(), 0, {it.value()});
    return next;
}

} // namespace paddock::network
