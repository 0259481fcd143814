// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock::daemon {

/**
 * @brief One paddockd per user: an exclusive flock on a file beside the socket.
 *
 * The kernel drops the lock when the process dies, however it dies, so a crashed daemon
 * never blocks the next one. The holder writes its pid into the file for messages.
 */
class InstanceLock
{
public:
    enum class Result {
        Acquired,
        HeldByOther,
        Failed
    };

    InstanceLock() = default;
    ~InstanceLock();
    InstanceLock(const InstanceLock &) = delete;
    InstanceLock &operator=(const InstanceLock &) = delete;

    Result tryAcquire(const QString &path, QString *error);
    /** The pid written by the current holder, or -1. */
    qint64 holderPid() const;

private:
    int m_fd = -1;
    QString m_path;
};

} // namespace paddock::daemon
