// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/docker/DockerClient.h"
#include "runtime/docker/StreamDemuxer.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <mutex>
#include <thread>

namespace paddock::runtime::docker {

/**
 * @brief The session channel of a running container, as a plain file descriptor.
 *
 * A container's paddock-init listens on an abstract unix socket in the container's own network
 * namespace, which nothing on the host can reach directly. An Engine exec of
 * `paddock-init --session-client NAME` joins its stdin and stdout to that socket; this class
 * starts that exec and copies, on a thread of its own, between the exec's hijacked stream
 * (whose output is multiplexed) and one end of a socketpair. The caller gets the other end and
 * speaks the session protocol on it (runtime/session/SessionClient.h) as it would on a unix
 * socket. The relay carries bytes only: the session server checks the token in the Hello.
 *
 * The thread ends once the caller has closed its end, or once the exec has ended and the
 * caller has closed its end after reading what came before.
 */
class SessionBridge
{
public:
    /**
     * Starts the relay exec in container @p containerId, as @p user (the agent's), for the
     * abstract socket @p socketName; nullptr with @p error when the engine refuses it.
     */
    static std::unique_ptr<SessionBridge> open(const DockerClient &client, const QString &containerId,
                                               const QString &user, const QString &socketName, QString *error);
    ~SessionBridge();
    SessionBridge(const SessionBridge &) = delete;
    SessionBridge &operator=(const SessionBridge &) = delete;

    /** The caller's end of the channel, once; the caller closes it (runSession and queryAgent do). */
    int takeFd();
    /**
     * Waits for the relay to end (close the fd from takeFd() first), then returns what it wrote
     * on its standard error: paddock-init's sentence when the session server does not answer.
     */
    QString finish();

private:
    SessionBridge(std::unique_ptr<HijackedConnection> stream, int local, int remote);
    void run();
    /** Copies the exec's output to the caller until the stream pauses; false once it ended. */
    bool pumpOutput(StreamDemuxer &demuxer);
    /** Copies the caller's bytes to the exec (while @p toExec); false once the caller closed its end. */
    bool pumpInput(bool toExec);
    /** After the caller closed its end: ends the exec's input and lets its relay wind down. */
    void windDown();

    std::unique_ptr<HijackedConnection> m_stream;
    int m_local = -1;          ///< this side's end, used by the thread only
    int m_remote = -1;         ///< the caller's end until takeFd()
    bool m_callerGone = false; ///< the thread's: a write to the caller failed
    std::thread m_thread;
    std::mutex m_mutex;
    QByteArray m_errors;
};

} // namespace paddock::runtime::docker
