// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Runtime.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::runtime::session {

/** @brief What a client asks of paddock-init's session server (SessionProtocol.h). */
struct SessionRequest
{
    enum class Kind {
        Attach, ///< join the agent session
        Spawn,  ///< start a command (or, with @ref agent, the agent)
    };
    Kind kind = Kind::Spawn;
    QStringList argv;                   ///< Spawn: the command; empty with agent: the kit's program
    QMap<QString, QString> environment; ///< added to the sandbox's environment
    QString workingDir;                 ///< empty: the sandbox's
    QString user;                       ///< empty: the agent's user
    bool terminal = false;              ///< a terminal of its own (when the caller has one to relay)
    bool agent = false;                 ///< Spawn: this command becomes the agent session
    bool startAgent = false;            ///< Attach: start the agent first when it is not running
    bool replay = true;                 ///< Attach: show the agent's recent output first
    bool detachKeys = false;            ///< Ctrl-P Ctrl-Q leaves the session running (as Docker's attach)
    QString token;                      ///< the sandbox's session token, where it has one
    /** Signals to this process go to the session (a CLI on a person's terminal); a daemon asking
     *  on its own behalf leaves its signals alone. */
    bool forwardSignals = true;
};

/** @brief How a session ended for its client. */
struct SessionOutcome
{
    enum class Kind {
        Exited,
        Detached,
        Failed
    };
    Kind kind = Kind::Failed;
    int exitCode = 0;
    QString error;
};

/**
 * The Spawn request that runs @p request: its command (or, with ExecRequest::asAgent, the
 * agent), environment, directory and user, with a terminal when it is interactive. Only the
 * agent's session can be left with the detach keys; a command's caller waits for its end.
 */
SessionRequest spawnRequest(const ExecRequest &request);
/** The Attach request of @p options, with a terminal. */
SessionRequest attachRequest(const AttachOptions &options);
/**
 * What a runtime reports for a session that ended as @p outcome; for a failed one,
 * @p relayErrors when there are any (the relay's own sentence on why it could not reach the
 * server), else the outcome's error.
 */
RuntimeResult resultOf(const SessionOutcome &outcome, const QString &relayErrors = {});

/** Connects to the session socket at @p path; -1 with @p error when nothing answers there. */
int connectSocket(const QString &path, QString *error);
/**
 * A listening unix socket at @p path (replacing a stale one), mode 0600, for paddock-init to
 * inherit; -1 with @p error. Paths longer than a socket address allows work too.
 */
int listenSocket(const QString &path, QString *error);

/**
 * Runs @p request over the connected session channel @p fd (which it closes), relaying the
 * caller's terminal or standard streams in @p io until the session ends or is left.
 *
 * With a terminal on both sides the caller's terminal is put in raw mode for the duration,
 * its size follows, and Ctrl-C reaches the session as a keystroke. Without one, SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT sent to this process go to the session's processes instead, and
 * end of input is passed on. With @ref SessionRequest::detachKeys, Ctrl-P Ctrl-Q leaves.
 */
SessionOutcome runSession(int fd, const SessionRequest &request, const ProcessIo &io);

/** Asks the session channel @p fd (which it closes) about the agent. */
std::optional<AgentInfo> queryAgent(int fd, const QString &token, QString *error);

/**
 * Starts the kit's program as the agent session over the channel @p fd (which it closes), with
 * a terminal nobody watches yet when @p terminal, and returns once the server has started it:
 * the agent keeps running after this client leaves. False with @p error when the server
 * refused or failed.
 */
bool startAgent(int fd, const QString &token, bool terminal, QString *error);

} // namespace paddock::runtime::session
