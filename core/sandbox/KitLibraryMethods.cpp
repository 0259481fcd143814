// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/KitLibraryMethods.h"

#include "api/Server.h"
#include "kit/KitJson.h"
#include "kit/KitLibrary.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcKitLibraryMethods, "paddock.sandbox.kitlibrary", QtInfoMsg)

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

api::Reply list()
{
    const kit::KitLibrary library;
    QJsonArray kits;
    for (const kit::KitEntry &entry : library.entries())
        kits.append(kit::toJson(entry));
    return api::Reply::success(
        {{QStringLiteral("kits"), kits}, {QStringLiteral("configError"), library.configError()}});
}

api::Reply add(const QJsonObject &params)
{
    const QString directory = params.value(QLatin1String("directory")).toString();
    if (!QDir::isAbsolutePath(directory))
        return invalid(QStringLiteral("the kit's folder must be an absolute path"));
    kit::KitLibrary library;
    QString error;
    bool changed = false;
    if (!library.add(directory, &error, &changed))
        return refused(error);
    const kit::KitEntry entry =
        kit::KitLibrary::readEntry(QFileInfo(directory).canonicalFilePath(), kit::KitSource::Added);
    if (changed)
        qCInfo(lcKitLibraryMethods).noquote() << "added kit" << entry.name << "from" << entry.directory;
    return api::Reply::success({{QStringLiteral("added"), changed}, {QStringLiteral("kit"), kit::toJson(entry)}});
}

api::Reply forget(const QJsonObject &params)
{
    const QString nameOrDir = params.value(QLatin1String("kit")).toString();
    // A relative folder would be the daemon's, not the caller's: names have no slash.
    if (nameOrDir.isEmpty() || (nameOrDir.contains(QLatin1Char('/')) && !QDir::isAbsolutePath(nameOrDir)))
        return invalid(QStringLiteral("the kit must be a name or an absolute folder"));
    kit::KitLibrary library;
    QString error;
    QString folder;
    if (!library.forget(nameOrDir, &error, &folder))
        return refused(error);
    qCInfo(lcKitLibraryMethods).noquote() << "forgot kit folder" << folder;
    return api::Reply::success({{QStringLiteral("forgotten"), folder}});
}

} // namespace

void registerKitLibraryMethods(api::Server &server)
{
    server.registerMethod(QStringLiteral("kit.list"),
                          [](const QJsonObject &, const api::CallContext &) { return list(); });
    server.registerMethod(QStringLiteral("kit.add"),
                          [](const QJsonObject &params, const api::CallContext &) { return add(params); });
    server.registerMethod(QStringLiteral("kit.forget"),
                          [](const QJsonObject &params, const api::CallContext &) { return forget(params); });
}

} // namespace paddock::sandbox
