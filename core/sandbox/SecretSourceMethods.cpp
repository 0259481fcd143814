// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SecretSourceMethods.h"

#include "api/Server.h"
#include "secrets/SecretId.h"
#include "secrets/SecretIndex.h"
#include "secrets/SecretSources.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcSecretSourceMethods, "paddock.sandbox.secretsources", QtInfoMsg)

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

api::Reply setSource(const std::function<void()> &changed, const QJsonObject &params)
{
    const QString service = params.value(QLatin1String("service")).toString();
    const QString sandbox = params.value(QLatin1String("sandbox")).toString();
    const secrets::SecretId id =
        sandbox.isEmpty() ? secrets::SecretId::global(service) : secrets::SecretId::forSandbox(sandbox, service);
    if (service.isEmpty())
        return invalid(QStringLiteral("a service name is required"));
    if (const QString problem = id.validate(); !problem.isEmpty())
        return invalid(problem);
    QString error;
    const std::optional<secrets::SecretSource> source =
        secrets::SecretSource::fromJson(params.value(QLatin1String("source")).toObject(), &error);
    if (!source)
        return invalid(error);
    if (const QString problem = source->validate(); !problem.isEmpty())
        return invalid(problem);
    if (!secrets::SecretSources().set(id, *source, &error) ||
        !secrets::SecretIndex(secrets::SecretIndex::defaultPath()).add(id, &error))
        return api::Reply::failure(QLatin1String(api::errors::kKeychainError), error);
    changed(); // the next request of a running sandbox takes its value from the source
    // The command line is the user's own words and holds no value; it is logged as what it runs.
    qCInfo(lcSecretSourceMethods).noquote()
        << "the key of" << id.displayName() << "now comes from" << source->kindToken() << source->program();
    QJsonObject answer{{QStringLiteral("service"), service}, {QStringLiteral("source"), source->toJson()}};
    if (!sandbox.isEmpty())
        answer.insert(QStringLiteral("sandbox"), sandbox);
    return api::Reply::success(answer);
}

} // namespace

void registerSecretSourceMethods(api::Server &server, std::function<void()> changed)
{
    server.registerMethod(QStringLiteral("secret.setSource"),
                          [changed = std::move(changed)](const QJsonObject &params, const api::CallContext &) {
                              return setSource(changed, params);
                          });
}

} // namespace paddock::sandbox
