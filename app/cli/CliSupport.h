// SPDX-License-Identifier: GPL-3.0-or-later
// What every command group uses: the --json option, a leaf of the command tree, quiet
// libraries and calls to paddockd.
//
// How a command reports a problem: failure() or usageError() prints the sentence and gives the
// exit code, which the command returns. A step that may stop the command returns that code as
// std::optional<int> (nullopt: go on); a step that yields a value returns std::optional<T> and
// sets *code when it yields none.
#pragma once

#include "Command.h"

#include <QCommandLineOption>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

namespace paddock::api {
class DaemonConnection;
class Reply;
} // namespace paddock::api

namespace paddock::cli {

/** `--json`, described as "Print WHAT as JSON." */
QCommandLineOption jsonOption(const QString &what = QStringLiteral("the result"));

/** A leaf of the command tree. */
Command leaf(const QString &name, const QString &summary, const QString &description,
             std::function<int(const Invocation &)> run);

/**
 * The libraries log their progress for the daemon's journal; a command reports its own
 * problems, so their debug and info lines stay quiet here, and so do the warnings of
 * @p warningCategories ("paddock.*" for every library). QT_LOGGING_RULES turns them back on.
 */
void quietLibraryLogs(const QString &warningCategories);

/** Prints @p header and @p rows as columns separated by two spaces; the last column is not padded. */
void printTable(const QStringList &header, const QList<QStringList> &rows);
/** "12.3 kB", "4.5 MB", "1.25 GB". */
QString humanBytes(qint64 bytes);
/**
 * A program as a table shows it: "curl", "curl (written inside the sandbox: /tmp)" when its
 * file is not the sandbox's base's (whatever its name says), "-" when not known.
 */
QString programCell(const QString &program, const QString &written);

/**
 * Asks a running daemon to write what its proxy did a moment ago into the event log (a
 * refusal a client already has), so a reader that opens the log next sees it; nothing when
 * no daemon runs.
 */
void flushEventsInDaemon();

/**
 * The same for credentials.yaml and the keychain (`credentials.reload`): a binding revoked or a
 * key removed by this command is out of force when it returns.
 */
bool applyCredentialsInDaemon(QString *error);

/** How long a command waits for an ordinary daemon call (the keychain may ask to be unlocked). */
inline constexpr int kDaemonCallTimeoutMs = 60000;

/** Connects to paddockd, starting it when nothing answers. */
bool connectDaemon(api::DaemonConnection &connection, QString *error);
/**
 * Calls @p method on paddockd, started when nothing answers. When it cannot be reached the
 * reply is a failure (api::errors::kDisconnected) with the reason. Prints nothing.
 */
api::Reply daemonReply(const QString &method, const QJsonObject &params, int timeoutMs);
/**
 * Calls @p method on paddockd, started when nothing answers. On failure prints the daemon's
 * sentence and sets @p code: ExitUsage when the daemon found the parameters invalid, else
 * ExitFailed.
 */
std::optional<QJsonObject> callDaemon(const Invocation &call, const QString &method, const QJsonObject &params,
                                      int *code, int timeoutMs);

/**
 * Prints what the daemon's @p method (events.export or events.requests) adds to the event log
 * from now on, asking it every 200 ms for the entries of @p listKey at or after the newest
 * time seen (an entry already printed at that time is not printed again), until SIGINT or
 * SIGTERM (ExitOk) or a failure. The daemon reads what every proxy wrote, its own and a
 * `paddock proxy serve`'s.
 */
int followEventLog(const QString &method, QJsonObject params, const QString &listKey,
                   const std::function<void(const QJsonObject &entry)> &print);

/**
 * `COMMAND NAME on|off` for a mode of a sandbox: calls @p method {name, enabled} and prints the
 * sandbox's INFO with --json, else what @p describe says of (name, on). Returns the exit code.
 */
int switchSandboxMode(const Invocation &call, const QString &method, int timeoutMs,
                      const std::function<void(const QString &name, bool on)> &describe);

} // namespace paddock::cli
