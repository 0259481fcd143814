// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock::api {

/** How long a client waits for a daemon it started to answer. */
inline constexpr int kDaemonStartTimeoutMs = 3000;

/**
 * Where the paddockd executable is: `$PADDOCKD` when set (tests, packaging), else next to
 * the running executable, else on PATH. Returns an empty string with @p error set.
 */
QString findDaemonExecutable(QString *error);

/**
 * Starts paddockd detached from the caller: its own session, no terminal, standard streams
 * on /dev/null (it logs to the journal or its log file). Does not wait for it to answer.
 */
bool startDaemonDetached(QString *error);

/** @brief The outcome of ensureDaemonRunning(). */
struct DaemonStatus
{
    bool running = false;
    bool started = false; ///< this call started it
    qint64 pid = -1;
    QString version;
    QString error; ///< one sentence, e.g. "cannot start paddockd: ..."
};

class DaemonConnection;

/**
 * Makes sure a daemon answers on @p socketPath: if nothing does, starts paddockd and waits
 * up to @p timeoutMs for it. Blocks; GUI code uses DaemonClient with start on demand.
 * With @p connection, the connection that found the daemon stays open there, so a caller
 * that goes on to call the daemon connects once rather than twice.
 */
DaemonStatus ensureDaemonRunning(const QString &socketPath, int timeoutMs = kDaemonStartTimeoutMs,
                                 DaemonConnection *connection = nullptr);

} // namespace paddock::api
