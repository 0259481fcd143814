// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "proxy/ProxyTypes.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace paddock::runtime::docker {
class DockerClient;
}

/**
 * Companion services: containers on the Docker engine beside a sandbox (a dev database), started
 * and stopped with it, on a network of their own that the engine keeps without a route out
 * (`Internal`). The sandbox reaches each by its name and ports through its proxy endpoint (a
 * proxy::ServiceRoute per port), and nothing else of that network.
 */
namespace paddock::sandbox {

/** @brief One companion: what `paddock service add` takes. */
struct Companion
{
    QString name;  ///< how the sandbox reaches it: `[a-z][a-z0-9-]*`, at most 32
    QString image; ///< a local image of the engine
    QMap<QString, QString> env;
    QList<quint16> ports; ///< the ports the sandbox may reach
    QStringList volumes;  ///< paths inside kept in named volumes across restarts
    QStringList command;  ///< empty: the image's

    QJsonObject toJson() const;
    /** Reads and checks one; the error names what is wrong. */
    static Result<Companion> fromJson(const QJsonObject &object);
    bool operator==(const Companion &) const = default;
};

QJsonArray toJson(const QList<Companion> &companions);
/** The list as stored; entries that do not read are skipped. */
QList<Companion> companionsFromJson(const QJsonArray &array);

/** @brief Runs a sandbox's companions on the engine. Blocking calls: run off the daemon's thread. */
class CompanionRunner
{
public:
    explicit CompanionRunner(const runtime::docker::DockerClient &client);

    static QString networkName(const QString &sandbox);
    static QString containerName(const QString &sandbox, const QString &companion);
    static QString volumeName(const QString &sandbox, const QString &companion, int index);

    /**
     * Makes the network and each companion's container when missing and starts them; returns the
     * routes the sandbox's endpoint gets, or an error (the engine's words, or the image to load).
     */
    Result<std::vector<proxy::ServiceRoute>> start(const QString &sandbox, const QList<Companion> &companions) const;
    /** Stops the sandbox's companions (their containers stay, with their volumes). */
    void stop(const QString &sandbox) const;
    /** Removes one companion's container (and, with @p volumes, its volumes). */
    void remove(const QString &sandbox, const Companion &companion, bool volumes) const;
    /** Removes every companion container of @p sandbox, their volumes and the network. */
    void removeAll(const QString &sandbox, const QList<Companion> &companions) const;

private:
    const runtime::docker::DockerClient &m_client;
};

} // namespace paddock::sandbox
