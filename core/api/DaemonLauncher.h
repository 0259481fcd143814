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

/**
 * Makes sure a daemon answers on @p socketPath: if nothing does, starts paddockd and waits
 * up to @p timeoutMs for it. Blocks; GUI code uses DaemonClient with start on demand.
 */
DaemonStatus ensureDaemonRunning(const QString &socketPath, int timeoutMs = kDaemonStartTimeoutMs);

} // namespace paddock::api
