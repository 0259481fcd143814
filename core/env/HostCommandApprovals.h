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

/**
 * Runs @p command with `sh -c` in its file's folder, with `SBX_SANDBOX_NAME` (and
 * `PADDOCK_SANDBOX`) set to @p sandbox, once more checked against @p approvals right before it
 * starts. Its output goes where this process's does when @p forwardOutput, else nowhere. False
 * with @p error when it is not approved, does not start, or fails.
 */
bool runApprovedCommand(const HostCommand &command, const HostCommandApprovals &approvals, const QString &sandbox,
                        bool forwardOutput, QString *error);

} // namespace paddock::env
