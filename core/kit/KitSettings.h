// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::kit {

/**
 * @brief The folders and variables every sandbox of a kit gets on this computer, as the person
 * set them (`paddock kit share`, the wizard). Checked, like `--mount` and `--env`, when a
 * sandbox is created.
 */
struct KitShares
{
    QStringList mounts;               ///< `HOST[:INSIDE][:ro|rw]` each, HOST absolute or from ~
    QMap<QString, QString> variables; ///< NAME: VALUE

    bool isEmpty() const { return mounts.isEmpty() && variables.isEmpty(); }
    bool operator==(const KitShares &) const = default;
};

/**
 * @brief What Paddock keeps about a kit on this computer, outside the kit: the least isolation
 * its sandboxes get, and the folders and variables they share (KitShares).
 *
 * A kit's own spec.yaml stays as Docker Sandboxes reads it (an unknown key would make the
 * strict loader refuse it), so the setting lives in `configDir()/kit-settings.yaml`, keyed by
 * the kit's folder:
 *
 *     kits:
 *       /home/me/kits/untrusted:
 *         isolation: gvisor
 *         mounts: ["~/.nuget:/home/agent/.nuget:rw"]
 *         env: {NUGET_PACKAGES: /home/agent/.nuget/packages}
 *         services:
 *           - {name: postgres, image: "postgres:15", ports: [5432], env: {POSTGRES_PASSWORD: dev}}
 */
class KitSettings
{
public:
    /** `configDir()/kit-settings.yaml`. */
    static QString path();

    /**
     * The least isolation sandboxes of the kit in @p kitDirectory get ("gvisor"), or nullopt
     * when none is set. An unreadable file sets nothing, and says so in @p error.
     */
    static std::optional<QString> minimumIsolation(const QString &kitDirectory, QString *error = nullptr);
    /**
     * Sets (or, with "container", clears) the least isolation of the kit in @p kitDirectory,
     * writing the file atomically. False with @p error when it cannot be written.
     */
    static bool setMinimumIsolation(const QString &kitDirectory, const QString &isolation, QString *error);
    /** The kit's shared folders and variables; none when unset. An unreadable file says so in @p error. */
    static KitShares shares(const QString &kitDirectory, QString *error = nullptr);
    /** Replaces the kit's shared folders and variables, writing the file atomically. */
    static bool setShares(const QString &kitDirectory, const KitShares &shares, QString *error);
    /**
     * The companion services every new sandbox of the kit gets, as the daemon's `service.add`
     * takes them ({name, image, ports, env, volumes, command}); the daemon checks each. None when
     * unset; an unreadable file says so in @p error.
     */
    static QJsonArray services(const QString &kitDirectory, QString *error = nullptr);
    /** Replaces the kit's companion services, writing the file atomically. */
    static bool setServices(const QString &kitDirectory, const QJsonArray &services, QString *error);
};

} // namespace paddock::kit
