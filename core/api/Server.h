// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/Protocol.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace paddock::api {

class ServerConnection;
class PeerCheckingLocalServer;

/** @brief Who sent a request: the peer's credentials as the kernel reported them. */
struct CallContext
{
    qint64 peerPid = -1;
    uint peerUid = 0;
    quint64 connectionId = 0; ///< unique per connection for the server's lifetime
};

/**
 * @brief Answers a call later: handed to asynchronous handlers, may be copied and kept.
 *
 * Complete it on the server's thread (queue work back with QMetaObject::invokeMethod).
 * Completing it twice, or after the client went away, does nothing.
 */
class PendingReply
{
public:
    PendingReply() = default;
    void complete(const Reply &reply) const;
    void succeed(const QJsonObject &result = {}) const { complete(Reply::success(result)); }
    void fail(const QString &code, const QString &message) const { complete(Reply::failure(code, message)); }
    /** A reply that calls @p then instead of answering a client: one method's handler used by another. */
    static PendingReply forward(std::function<void(const Reply &)> then);

private:
    friend class Server;
    struct State;
    std::shared_ptr<State> m_state;
};

/** Answers at once. */
using MethodHandler = std::function<Reply(const QJsonObject &params, const CallContext &context)>;
/** Answers through @p reply, now or later (a sandbox that takes a while to start). */
using AsyncMethodHandler =
    std::function<void(const QJsonObject &params, const CallContext &context, const PendingReply &reply)>;

/**
 * @brief The daemon side of the protocol described in api/Protocol.h.
 *
 * Owns the listening socket, refuses peers of another uid, performs the hello exchange and
 * dispatches requests to handlers looked up by method name, so each area registers its own
 * methods (`registerMethod("policy.check", ...)`) without touching the dispatcher. Topics
 * registered with registerTopic() can be subscribed to, and publish() pushes an event to
 * every subscriber.
 *
 * Built in: ping, version, subscribe, unsubscribe, shutdown (emits shutdownRequested()).
 */
class Server : public QObject
{
    Q_OBJECT
public:
    explicit Server(QObject *parent = nullptr);
    ~Server() override;

    /**
     * Listens on @p socketPath, which must not exist (the caller deals with stale sockets).
     * The parent directory is created with mode 0700 and the socket gets mode 0600.
     */
    bool listen(const QString &socketPath, QString *error);
    /** Stops listening, drops every client and removes the socket file. */
    void close();
    bool isListening() const;
    QString socketPath() const { return m_socketPath; }

    /** Registers or replaces the handler of @p method. */
    void registerMethod(const QString &method, MethodHandler handler);
    void registerAsyncMethod(const QString &method, AsyncMethodHandler handler);
    bool hasMethod(const QString &method) const { return m_methods.contains(method); }

    /** Makes @p topic something clients may subscribe to. */
    void registerTopic(const QString &topic);
    /** Sends @p data as event @p topic to every subscribed client; returns how many got it. */
    int publish(const QString &topic, const QJsonObject &data);
    /**
     * Whether some client is subscribed to @p topic now; callable from any thread, so a
     * publisher elsewhere can skip building an event nobody would receive.
     */
    bool isSubscribed(const QString &topic) const;
    /**
     * publish() from any thread: when some client is subscribed to @p topic, @p make builds the
     * event on the caller's thread and it is sent from the server's; events queued meanwhile go
     * together, in order, with one hop between the threads. Nothing is built for no subscriber.
     */
    void publishLater(const QString &topic, const std::function<QJsonObject()> &make);

    int clientCount() const { return int(m_connections.size()); }
    /** Line limit for incoming lines; kMaxLineBytes unless changed (before listen()). */
    void setMaxLineBytes(qsizetype bytes) { m_maxLineBytes = bytes; }
    /** Version reported by `version` and the hello; the project version unless changed. */
    void setDaemonVersion(const QString &version) { m_daemonVersion = version; }
    /** Uid allowed to connect; the process's real uid unless changed. */
    void setAllowedUid(uint uid) { m_allowedUid = uid; }

Q_SIGNALS:
    /** A client called `shutdown`; its answer is already on its way. */
    void shutdownRequested();
    /** A connection from another user was closed unanswered. */
    void peerRefused(uint uid, qint64 pid);
    void clientConnected(quint64 connectionId);
    void clientDisconnected(quint64 connectionId);

private:
    friend class ServerConnection;
    friend class PeerCheckingLocalServer;
    struct Method
    {
        AsyncMethodHandler handler;
    };

    void registerBuiltins();
    void acceptSocket(quintptr descriptor);
    void dispatch(ServerConnection *connection, qint64 id, const QString &method, const QJsonObject &params);
    Reply changeSubscriptions(ServerConnection *connection, const QJsonObject &params, bool subscribe);
    QJsonObject helloObject() const;
    void forget(ServerConnection *connection);
    /** Makes isSubscribed() answer from the connections' subscriptions as they are now. */
    void updateSubscribedTopics();
    /** Publishes what publishLater() queued; on the server's thread. */
    void publishQueued();

    PeerCheckingLocalServer *m_listener = nullptr;
    QString m_socketPath;
    QHash<QString, Method> m_methods;
    QSet<QString> m_topics;
    QHash<quint64, ServerConnection *> m_connections;
    mutable std::mutex m_subscribedMutex;
    QSet<QString> m_subscribedTopics; ///< under m_subscribedMutex: every connection's subscriptions
    std::mutex m_laterMutex;
    std::vector<std::pair<QString, QJsonObject>> m_later; ///< under m_laterMutex: publishLater()'s events
    quint64 m_nextConnectionId = 1;
    qsizetype m_maxLineBytes = kMaxLineBytes;
    QString m_daemonVersion;
    uint m_allowedUid;
    QElapsedTimer m_uptime;
};

} // namespace paddock::api
