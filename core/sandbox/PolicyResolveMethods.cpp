// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/PolicyResolveMethods.h"

#include "api/Server.h"
#include "policy/PolicyStore.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcResolveEdits, "paddock.policy.resolve", QtInfoMsg)

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

QString hostOf(const QJsonObject &params)
{
    return params.value(QLatin1String("host")).toString().trimmed();
}

api::Reply setOverride(policy::PolicyStore &store, const QJsonObject &params)
{
    const QString host = hostOf(params);
    const QString text = params.value(QLatin1String("address")).toString().trimmed();
    const QHostAddress address(text);
    if (host.isEmpty())
        return invalid(QStringLiteral("policy.resolve.set needs a host"));
    if (address.isNull())
        return invalid(QStringLiteral("'%1' is not an IP address").arg(text));
    const policy::StoreResult result = store.setResolveOverride(host, address);
    if (!result.ok())
        return api::Reply::failure(QLatin1String(api::errors::kPolicyFailed), result.error().text());
    qCInfo(lcResolveEdits).noquote() << "resolve override" << host.toLower() << "->" << address.toString();
    return api::Reply::success(
        {{QStringLiteral("host"), host.toLower()}, {QStringLiteral("address"), address.toString()}});
}

api::Reply removeOverride(policy::PolicyStore &store, const QJsonObject &params)
{
    const QString host = hostOf(params);
    if (host.isEmpty())
        return invalid(QStringLiteral("policy.resolve.remove needs a host"));
    const policy::StoreResult result = store.removeResolveOverride(host);
    if (!result.ok())
        return api::Reply::failure(QLatin1String(api::errors::kNoSuchRule), result.error().text());
    qCInfo(lcResolveEdits).noquote() << "resolve override removed:" << host.toLower();
    return api::Reply::success({{QStringLiteral("removed"), result->removed}});
}

api::Reply listOverrides(const policy::PolicyStore &store)
{
    QJsonArray overrides;
    const QMap<QString, QHostAddress> map = store.resolveOverrides();
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        overrides << QJsonObject{{QStringLiteral("host"), it.key()},
                                 {QStringLiteral("address"), it.value().toString()}};
    return api::Reply::success({{QStringLiteral("overrides"), overrides}});
}

} // namespace

void registerPolicyResolveMethods(api::Server &server, policy::PolicyStore &store)
{
    server.registerMethod(
        QStringLiteral("policy.resolve.set"),
        [&store](const QJsonObject &params, const api::CallContext &) { return setOverride(store, params); });
    server.registerMethod(
        QStringLiteral("policy.resolve.remove"),
        [&store](const QJsonObject &params, const api::CallContext &) { return removeOverride(store, params); });
    server.registerMethod(QStringLiteral("policy.resolve.list"),
                          [&store](const QJsonObject &, const api::CallContext &) { return listOverrides(store); });
}

} // namespace paddock::sandbox
