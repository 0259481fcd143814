// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SecretGuardService.h"

#include "api/Protocol.h"
#include "api/Server.h"
#include "proxy/SecretGuard.h"
#include "sandbox/SandboxRecord.h"
#include "sandbox/SecretGuardSetup.h"

#include <QJsonArray>

#include <openssl/crypto.h>

namespace paddock::sandbox {
namespace {

QJsonObject valueJson(const QString &file, const QString &name)
{
    return {{QStringLiteral("file"), file}, {QStringLiteral("name"), name}};
}

api::Reply describe(const SandboxRecord &record)
{
    WorkspaceSecrets secrets = WorkspaceSecrets::read(record.workspace);
    QJsonArray values;
    for (proxy::guard::Value &value : secrets.values) {
        OPENSSL_cleanse(value.bytes.data(), value.bytes.size());
        values.append(valueJson(value.file, value.name));
    }
    QJsonArray allowed;
    for (const QString &key : record.allowedValues)
        allowed.append(valueJson(key.section(QLatin1Char('\t'), 0, 0), key.section(QLatin1Char('\t'), 1)));
    return api::Reply::success({{QStringLiteral("name"), record.name},
                                {QStringLiteral("mode"), record.secretGuard},
                                {QStringLiteral("workspace"), record.workspace},
                                {QStringLiteral("allowed"), allowed},
                                {QStringLiteral("values"), values},
                                {QStringLiteral("skipped"), QJsonArray::fromStringList(secrets.skipped)},
                                {QStringLiteral("files"), QJsonArray::fromStringList(secrets.files)}});
}

api::Reply invalid(const QString &why)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), why);
}

std::optional<api::Reply> changeAllowed(SandboxRecord &record, const QJsonObject &params)
{
    for (const bool allow : {true, false}) {
        const QJsonObject value = params.value(allow ? QLatin1String("allow") : QLatin1String("disallow")).toObject();
        if (value.isEmpty())
            continue;
        const QString file = value.value(QLatin1String("file")).toString();
        const QString name = value.value(QLatin1String("name")).toString();
        const QString key = allowedValueKey(file, name);
        if (!allow) {
            if (record.allowedValues.removeAll(key) == 0)
                return invalid(QStringLiteral("%1 from %2 is not allowed for %3").arg(name, file, record.name));
            continue;
        }
        WorkspaceSecrets secrets = WorkspaceSecrets::read(record.workspace);
        bool known = false;
        for (proxy::guard::Value &found : secrets.values) {
            known |= found.file == file && found.name == name;
            OPENSSL_cleanse(found.bytes.data(), found.bytes.size());
        }
        if (!known)
            return invalid(QStringLiteral("the workspace of %1 has no value %2 in %3 (see `paddock guard show %1`)")
                               .arg(record.name, name, file));
        if (!record.allowedValues.contains(key))
            record.allowedValues << key;
    }
    return std::nullopt;
}

} // namespace

void registerSecretGuard(api::Server &server)
{
    server.registerMethod(QStringLiteral("sandbox.guard"), [](const QJsonObject &params, const api::CallContext &) {
        const QString name = params.value(QLatin1String("name")).toString();
        std::optional<SandboxRecord> record = SandboxRecord::read(name);
        if (name.isEmpty() || !record)
            return api::Reply::failure(QLatin1String(api::errors::kNoSuchSandbox),
                                       QStringLiteral("no sandbox named %1").arg(name));
        bool changed = false;
        if (params.contains(QLatin1String("mode"))) {
            const QString mode = params.value(QLatin1String("mode")).toString();
            if (!proxy::guard::modeFromName(mode))
                return invalid(QStringLiteral("the guard's mode is refuse, redact or off, not '%1'").arg(mode));
            changed = record->secretGuard != mode;
            record->secretGuard = mode;
        }
        const QStringList before = record->allowedValues;
        if (const std::optional<api::Reply> refusal = changeAllowed(*record, params))
            return *refusal;
        changed |= before != record->allowedValues;
        if (const Result<void> written = changed ? record->write() : Result<void>(); !written)
            return api::Reply::failure(QLatin1String(api::errors::kInternal), written.error().text());
        return describe(*record);
    });
}

} // namespace paddock::sandbox
