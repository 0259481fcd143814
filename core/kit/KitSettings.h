// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

namespace paddock::kit {

/**
 * @brief What Paddock keeps about a kit on this computer, outside the kit: today the least
 * isolation its sandboxes get.
 *
 * A kit's own spec.yaml stays as Docker Sandboxes reads it (an unknown key would make the
 * strict loader refuse it), so the setting lives in `configDir()/kit-settings.yaml`, keyed by
 * the kit's folder:
 *
 *     kits:
 *       /home/me/kits/untrusted:
 *         isolation: gvisor
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
};

} // namespace paddock::kit
