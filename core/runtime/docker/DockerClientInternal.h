// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the files of DockerClient share (DockerClient.cpp, DockerClientImages.cpp); nothing
// else includes it.

#include "runtime/docker/DockerResult.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMap>
#include <QString>

Q_DECLARE_LOGGING_CATEGORY(lcDocker)

namespace paddock::runtime::docker::detail {

/** How long a call that is not a build, a load or a wait may take. */
inline constexpr long kShortTimeoutSeconds = 60;
/** How long a commit may take: the engine packs every file the container wrote. */
inline constexpr long kCommitTimeoutSeconds = 30 * 60;

inline QString containerPath(const QString &id, const QString &rest = {})
{
    return QStringLiteral("/containers/") + id + rest;
}

inline QByteArray compactJson(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

inline QJsonObject jsonObject(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

inline QString boolParam(bool value)
{
    return value ? QStringLiteral("1") : QStringLiteral("0");
}

inline QJsonArray envArray(const QMap<QString, QString> &env)
{
    QJsonArray array;
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        array.append(it.key() + QLatin1Char('=') + it.value());
    return array;
}

inline Error protocolError(const QString &what)
{
    return Error{Error::Kind::Protocol, 0, what};
}

} // namespace paddock::runtime::docker::detail
