// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Protocol.h"

#include <QDeadlineTimer>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QLocalSocket;

namespace paddock::api {

/** @brief What the daemon said about itself in its hello. */
struct ServerInfo
{
    int protocol = 0;
    QString name;
    QString version;
    qint64 pid = -1;
};

/** @brief An event pushed by the daemon to a subscribed client. */
struct Event
{
    QString topic;
    QJsonObject data;
};

/** The hello a client sends: protocol version and who it is. */
QJsonObject clientHello();

/**
 * Checks the daemon's hello. Returns an empty string when it is acceptable, otherwise the
 * sentence to show the user.
 */
QString checkServerHello(const QJsonObject &hello, ServerInfo *info);

/**
 * Checks that the process behind a connected socket runs as this user, so that a socket
 * planted by someone else (say in a /tmp fallback directory) never receives requests.
 * Returns an empty string when it does, otherwise the sentence to show.
 */
QString checkDaemonPeer(qintptr socketDescriptor, const QString &socketPath);

/**
 * @brief A blocking connection to paddockd, for the command line.
 *
 * Every wait is bounded by a timeout. Never use it on a GUI thread: DaemonClient is the
 * asynchronous counterpart. Events that arrive while waiting for a result are kept for
 * waitForEvent().
 */
class DaemonConnection
{
public:
    /** Why open() failed, so a caller knows whether starting the daemon could help. */
    enum class Failure {
        None,
        NotRunning, ///< no socket, or a socket nobody listens on
        NoAnswer,   ///< connected, but no hello within the timeout
        Refused,    ///< the daemon closed the connection or refused our protocol version
    };

    DaemonConnection();
    ~DaemonConnection();
    DaemonConnection(const DaemonConnection &) = delete;
    DaemonConnection &operator=(const DaemonConnection &) = delete;

    /** Connects and exchanges hellos within @p timeoutMs. */
    bool open(const QString &socketPath, int timeoutMs, QString *error);
    void close();
    bool isOpen() const;
    /**
     * isOpen(), and the daemon has not closed its end since the last call (it stopped or was
     * restarted): checked without blocking, for a connection kept between calls.
     */
    bool isUsable() const;
    Failure failure() const { return m_failure; }
    const ServerInfo &server() const { return m_server; }

    /** Sends a request and waits up to @p timeoutMs for its answer. */
    Reply call(const QString &method, const QJsonObject &params = {}, int timeoutMs = 5000);
    /**
     * As call(), handing each event that arrives meanwhile to @p onEvent at once instead of
     * keeping it for waitForEvent(): a long call whose progress comes as events.
     */
    Reply call(const QString &method, const QJsonObject &params, int timeoutMs,
               const std::function<void(const Event &event)> &onEvent);
    /** Returns the next event, waiting up to @p timeoutMs for one. */
    std::optional<Event> waitForEvent(int timeoutMs);

private:
    /** Reads one message, waiting at most until @p deadline. */
    std::optional<Message> readMessage(const QDeadlineTimer &deadline, QString *error);

    std::unique_ptr<QLocalSocket> m_socket;
    std::unique_ptr<LineBuffer> m_lines;
    QList<Message> m_received;
    QList<Event> m_events;
    ServerInfo m_server;
    Failure m_failure = Failure::None;
    qint64 m_nextId = 1;
};

} // namespace paddock::api
