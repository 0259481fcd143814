// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "env/EnvFile.h"

#include <QSet>
#include <QString>

namespace paddock::env {

/**
 * @brief The host commands of environment files that the person approved, kept as hashes of
 * the exact text with the file's path and the phase (`paths::stateDir()/env-approvals.json`,
 * written atomically). A command whose text changed by one byte, or that moved to another
 * file, is not approved.
 */
class HostCommandApprovals
{
public:
    explicit HostCommandApprovals(const QString &path = defaultPath());
    static QString defaultPath();
    /** The key of @p command: SHA-256 of its file, phase and text. */
    static QString keyOf(const HostCommand &command);

    bool isApproved(const HostCommand &command) const;
    /** Adds @p command and writes the file; false with @p error when it cannot be written. */
    bool approve(const HostCommand &command, QString *error);

private:
    QString m_path;
    QSet<QString> m_keys;
};

} // namespace paddock::env
