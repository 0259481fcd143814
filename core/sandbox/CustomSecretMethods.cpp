// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/CustomSecretMethods.h"

#include "api/Server.h"
#include "secrets/CustomSecrets.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"

#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcCustomSecretMethods, "paddock.sandbox.customsecrets", QtInfoMsg)

namespace paddock::sandbox {
namespace {

/** The secret @p params describe, its placeholder kept from an earlier one of the same name. */
secrets::CustomSecret secretOf(const QJsonObject &params)
{
    secrets::CustomSecret secret;
    secret.name = params.value(QLatin1String("name")).toString();
    for (const QJsonValue &host : params.value(QLatin1String("hosts")).toArray())
        secret.hosts << host.toString().toLower();
    secret.anywhere = params.value(QLatin1String("anywhere")).toBool();
    secret.header = params.value(QLatin1String("header")).toString();
    secret.body = params.value(QLatin1String("body")).toBool();
    secret.variable = params.value(QLatin1String("variable")).toString();
    secret.sandbox = params.value(QLatin1String("sandbox")).toString();
    const std::optional<secrets::CustomSecret> earlier =
        secret.name.isEmpty() ? std::nullopt : secrets::CustomSecrets().find(secret.name);
    secret.placeholder = earlier ? earlier->placeholder : secrets::CustomSecret::newPlaceholder();
    return secret;
}

QJsonObject secretJson(const secrets::CustomSecret &secret)
{
    QJsonObject object{{QStringLiteral("name"), secret.name},
                       {QStringLiteral("hosts"), QJsonArray::fromStringList(secret.hosts)},
                       {QStringLiteral("anywhere"), secret.anywhere},
                       {QStringLiteral("body"), secret.body},
                       {QStringLiteral("variable"), secret.variable},
                       {QStringLiteral("placeholder"), secret.placeholder}};
    if (!secret.anywhere)
        object.insert(QStringLiteral("header"), secret.header);
    if (!secret.sandbox.isEmpty())
        object.insert(QStringLiteral("sandbox"), secret.sandbox);
    return object;
}

/**
 * A custom secret whose value comes from a command or a reference: only its description is
 * written; a pasted value it replaces leaves the keychain once the change is in force.
 */
void setSourced(secrets::SecretStore &store, const std::function<void()> &changed, secrets::CustomSecret secret,
                const QJsonObject &sourceJson, const api::PendingReply &reply)
{
    QString error;
    secret.source = secrets::SecretSource::fromJson(sourceJson, &error);
    if (!secret.source)
        return reply.fail(QLatin1String(api::errors::kInvalidParams), error);
    if (const QString problem = secret.validate(); !problem.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams), problem);
    const std::optional<secrets::CustomSecret> earlier = secrets::CustomSecrets().find(secret.name);
    if (!secrets::CustomSecrets().set(secret, &error))
        return reply.fail(QLatin1String(api::errors::kKeychainError), error);
    changed();
    qCInfo(lcCustomSecretMethods).noquote()
        << "custom secret" << secret.name << "now comes from" << secret.source->kindToken() << secret.source->program();
    if (!earlier || earlier->source)
        return reply.succeed(secretJson(secret));
    store.removeKeyMaterial(secret.keyMaterialName(), [secret, reply](secrets::SecretResult) {
        reply.succeed(secretJson(secret)); // a pasted value already gone is no error
    });
}

void setCustom(secrets::SecretStore &store, const std::function<void()> &changed, const QJsonObject &params,
               const api::PendingReply &reply)
{
    const secrets::CustomSecret secret = secretOf(params);
    if (params.contains(QLatin1String("source")))
        return setSourced(store, changed, secret, params.value(QLatin1String("source")).toObject(), reply);
    if (const QString problem = secret.validate(); !problem.isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams), problem);
    const QJsonValue value = params.value(QLatin1String("value"));
    if (!value.isString() || value.toString().isEmpty())
        return reply.fail(QLatin1String(api::errors::kInvalidParams),
                          QStringLiteral("the value is empty: nothing was stored"));
    QByteArray bytes = value.toString().toUtf8();
    store.setKeyMaterial(secret.keyMaterialName(), std::move(bytes),
                         [secret, changed, reply](secrets::SecretResult result) {
                             secrets::wipe(result.value);
                             if (!result.ok())
                                 return reply.fail(QLatin1String(result.error == secrets::SecretError::NoBackend
                                                                     ? api::errors::kKeychainUnavailable
                                                                     : api::errors::kKeychainError),
                                                   result.message);
                             QString error;
                             if (!secrets::CustomSecrets().set(secret, &error))
                                 return reply.fail(QLatin1String(api::errors::kKeychainError), error);
                             changed(); // the proxy replaces the new value from the next request on
                             qCInfo(lcCustomSecretMethods).noquote() << "stored custom secret" << secret.name << "for"
                                                                     << secret.hosts.join(QLatin1Char(','));
                             reply.succeed(secretJson(secret));
                         });
    secrets::wipe(bytes);
}

} // namespace

void registerCustomSecretMethods(api::Server &server, secrets::SecretStore &store, std::function<void()> changed)
{
    server.registerAsyncMethod(QStringLiteral("secret.setCustom"),
                               [&store, changed = std::move(changed)](
                                   const QJsonObject &params, const api::CallContext &,
                                   const api::PendingReply &reply) { setCustom(store, changed, params, reply); });
}

} // namespace paddock::sandbox
