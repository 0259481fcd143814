// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/KitSettingsMethods.h"

#include "api/Server.h"
#include "kit/KitSettings.h"
#include "runtime/SandboxSpec.h"
#include "sandbox/SharedFolders.h"

#include <QDir>
#include <QJsonArray>
#include <QLoggingCategory>

#include <algorithm>
#include <variant>

Q_LOGGING_CATEGORY(lcKitSettingsMethods, "paddock.sandbox.kitsettings", QtInfoMsg)

namespace paddock::sandbox {
namespace {

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

api::Reply refused(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kKitFailed), message);
}

/** The kit's folder of @p params, or empty when it is not an absolute path. */
QString kitOf(const QJsonObject &params)
{
    const QString kit = params.value(QLatin1String("kit")).toString();
    return QDir::isAbsolutePath(kit) ? QDir::cleanPath(kit) : QString();
}

QJsonObject sharesJson(const kit::KitShares &shares)
{
    QJsonObject env;
    for (auto it = shares.variables.cbegin(); it != shares.variables.cend(); ++it)
        env.insert(it.key(), it.value());
    return {{QStringLiteral("mounts"), QJsonArray::fromStringList(shares.mounts)}, {QStringLiteral("env"), env}};
}

api::Reply settings(const QJsonObject &params)
{
    const QString kit = kitOf(params);
    if (kit.isEmpty())
        return invalid(QStringLiteral("kit.settings needs the kit's folder, absolute"));
    QString error;
    const std::optional<QString> isolation = kit::KitSettings::minimumIsolation(kit, &error);
    const kit::KitShares shares = kit::KitSettings::shares(kit, &error);
    if (!error.isEmpty())
        return refused(error);
    QJsonObject answer = sharesJson(shares);
    answer.insert(QStringLiteral("kit"), kit);
    answer.insert(QStringLiteral("file"), kit::KitSettings::path());
    answer.insert(QStringLiteral("isolation"), isolation ? QJsonValue(*isolation) : QJsonValue(QJsonValue::Null));
    return api::Reply::success(answer);
}

/** The shares of @p params, each checked as a create checks it; or the reply refusing one. */
std::variant<kit::KitShares, api::Reply> checkedShares(const QJsonObject &params, QJsonArray *warnings)
{
    kit::KitShares shares;
    for (const QJsonValue &value : params.value(QLatin1String("mounts")).toArray()) {
        const QString text = value.toString();
        QString error;
        std::optional<kit::SharedFolder> folder = kit::SharedFolder::parse(text, QString(), &error);
        if (!folder || !QDir::isAbsolutePath(folder->hostPath))
            return invalid(
                QStringLiteral("%1: %2").arg(text, folder ? QStringLiteral("the host path must be absolute") : error));
        QString warning;
        if (const std::optional<QString> problem =
                sharedFolderProblem(&*folder, QString(), runtime::SandboxSpec().sandboxHome, &warning))
            return refused(QStringLiteral("%1: %2").arg(text, *problem));
        if (!warning.isEmpty())
            warnings->append(warning);
        // One folder per inside path: the last given wins.
        shares.mounts.erase(std::remove_if(shares.mounts.begin(), shares.mounts.end(),
                                           [&](const QString &kept) {
                                               const auto old = kit::SharedFolder::parse(kept, QString(), &error);
                                               return old && old->insidePath == folder->insidePath;
                                           }),
                            shares.mounts.end());
        shares.mounts << folder->toString();
    }
    const QJsonObject env = params.value(QLatin1String("env")).toObject();
    for (auto it = env.begin(); it != env.end(); ++it) {
        if (const std::optional<QString> problem = variableProblem(it.key(), it.value().toString(), {}))
            return refused(*problem);
        shares.variables.insert(it.key(), it.value().toString());
    }
    return shares;
}

api::Reply setShares(const QJsonObject &params)
{
    const QString kit = kitOf(params);
    if (kit.isEmpty())
        return invalid(QStringLiteral("kit.shares.set needs the kit's folder, absolute"));
    QJsonArray warnings;
    auto checked = checkedShares(params, &warnings);
    if (const auto *failed = std::get_if<api::Reply>(&checked))
        return *failed;
    const kit::KitShares shares = std::get<kit::KitShares>(checked);
    QString error;
    const kit::KitShares before = kit::KitSettings::shares(kit, &error);
    if (!error.isEmpty())
        return refused(error);
    const bool changed = shares != before;
    if (changed && !kit::KitSettings::setShares(kit, shares, &error))
        return refused(error);
    if (changed)
        qCInfo(lcKitSettingsMethods).noquote() << "shares of kit" << kit << "written:" << shares.mounts.size()
                                               << "folders," << shares.variables.size() << "variables";
    QJsonObject answer = sharesJson(shares);
    answer.insert(QStringLiteral("kit"), kit);
    answer.insert(QStringLiteral("file"), kit::KitSettings::path());
    answer.insert(QStringLiteral("changed"), changed);
    answer.insert(QStringLiteral("warnings"), warnings);
    return api::Reply::success(answer);
}

api::Reply setIsolation(const QJsonObject &params)
{
    const QString kit = kitOf(params);
    const QString level = params.value(QLatin1String("isolation")).toString();
    if (kit.isEmpty())
        return invalid(QStringLiteral("kit.isolation.set needs the kit's folder, absolute"));
    if (level != QLatin1String("container") && level != QLatin1String("gvisor"))
        return invalid(QStringLiteral("the isolation is container or gvisor, not '%1'").arg(level));
    QString error;
    if (!kit::KitSettings::setMinimumIsolation(kit, level, &error))
        return refused(error);
    const std::optional<QString> minimum = kit::KitSettings::minimumIsolation(kit, &error);
    if (!error.isEmpty())
        return refused(error);
    qCInfo(lcKitSettingsMethods).noquote() << "least isolation of kit" << kit << "set to" << level;
    return api::Reply::success({{QStringLiteral("kit"), kit},
                                {QStringLiteral("file"), kit::KitSettings::path()},
                                {QStringLiteral("isolation"), minimum ? QJsonValue(*minimum) : QJsonValue()}});
}

} // namespace

void registerKitSettingsMethods(api::Server &server)
{
    server.registerMethod(QStringLiteral("kit.settings"),
                          [](const QJsonObject &params, const api::CallContext &) { return settings(params); });
    server.registerMethod(QStringLiteral("kit.shares.set"),
                          [](const QJsonObject &params, const api::CallContext &) { return setShares(params); });
    server.registerMethod(QStringLiteral("kit.isolation.set"),
                          [](const QJsonObject &params, const api::CallContext &) { return setIsolation(params); });
}

} // namespace paddock::sandbox
