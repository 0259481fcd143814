// SPDX-License-Identifier: GPL-3.0-or-later
#include "api/Server.h"

#include "common/Paths.h"
#include "paddock/Version.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>

#include <algorithm>

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcApiServer, "paddock.api.server", QtInfoMsg)

namespace paddock::api {
namespace {

// A subscriber that stops reading must not make the daemon buffer events without end.
constexpr qint64 kMaxQueuedBytes = 16 * 1024 * 1024;

struct PeerCredentials
{
    bool known = false;
    uint uid = 0;
    qint64 pid = -1;
};

PeerCredentials peerCredentials(int fd)
{
    struct ucred credentials
    {};
    socklen_t length = sizeof(credentials);
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0 || length != sizeof(credentials))
        return {};
    return {true, credentials.uid, credentials.pid};
}

QStringList topicsParam(const QJsonObject &params, QString *error)
{
    const QJsonValue value = params.value(QLatin1String("topics"));
    if (!value.isArray()) {
        *error = QStringLiteral("\"topics\" must be a list of topic names");
        return {};
    }
    QStringList topics;
    for (const QJsonValue &topic : value.toArray()) {
        if (!topic.isString()) {
            *error = QStringLiteral("\"topics\" must be a list of topic names");
            return {};
        }
        topics << topic.toString();
    }
    return topics;
}

} // namespace

/** @brief QLocalServer that checks the peer's uid before a connection becomes a socket. */
class PeerCheckingLocalServer : public QLocalServer
{
public:
    explicit PeerCheckingLocalServer(Server *server) : QLocalServer(server), m_server(server) {}

protected:
    void incomingConnection(quintptr socketDescriptor) override { m_server->acceptSocket(socketDescriptor); }

private:
    Server *m_server;
};

/** @brief One client: framing, handshake state and subscriptions. */
class ServerConnection : public QObject
{
public:
    ServerConnection(Server *server, QLocalSocket *socket, const CallContext &context)
        : QObject(server), m_server(server), m_socket(socket), m_context(context), m_lines(server->m_maxLineBytes)
    {
        socket->setParent(this);
        connect(socket, &QLocalSocket::readyRead, this, &ServerConnection::readLines);
        connect(socket, &QLocalSocket::disconnected, this, [this] { m_server->forget(this); });
    }

    const CallContext &context() const { return m_context; }
    QSet<QString> &subscriptions() { return m_subscriptions; }

    void send(const QByteArray &line)
    {
        if (m_closing)
            return;
        m_socket->write(line);
        // Out now rather than when the event loop next runs: what a handler does after its
        // answer (events, other services' bookkeeping) does not hold the client up.
        m_socket->flush();
    }

    /** Sends a last error and closes once it is written. */
    void closeWithError(const char *code, const QString &message)
    {
        if (m_closing)
            return;
        m_socket->write(encodeFatalError(QLatin1String(code), message));
        m_closing = true;
        m_socket->disconnectFromServer();
    }

    void drop()
    {
        m_closing = true;
        m_socket->abort();
    }

    /** Closes without waiting for the event loop, after writing what the socket takes now. */
    void closeNow()
    {
        m_socket->flush();
        drop();
    }

    qint64 queuedBytes() const { return m_socket->bytesToWrite(); }
    bool isClosing() const { return m_closing; }

private:
    void readLines()
    {
        if (m_closing) {
            m_socket->readAll();
            return;
        }
        const QList<QByteArray> lines = m_lines.append(m_socket->readAll());
        for (const QByteArray &line : lines) {
            if (m_closing)
                return;
            handleLine(line);
        }
        if (m_lines.isOversized()) {
            qCWarning(lcApiServer) << "closing connection" << m_context.connectionId << "from pid" << m_context.peerPid
                                   << ": a line exceeded" << m_lines.maxLineBytes() << "bytes";
            closeWithError(
                errors::kLineTooLong,
                QStringLiteral("a line exceeded %1 bytes; closing the connection").arg(m_lines.maxLineBytes()));
        }
    }

    void handleLine(const QByteArray &line)
    {
        if (line.trimmed().isEmpty())
            return;
        DecodeError error;
        const std::optional<Message> message = decodeMessage(line, &error);
        if (!message) {
            if (!m_helloDone) {
                closeWithError(errors::kHelloRequired,
                               QStringLiteral("the connection must start with a hello: %1").arg(error.message));
                return;
            }
            send(encodeResponse(error.id, Reply::failure(error.code, error.message)));
            return;
        }
        if (!m_helloDone) {
            handleHello(*message);
            return;
        }
        switch (message->kind) {
        case Message::Kind::Request:
            m_server->dispatch(this, *message->id, message->method, message->params);
            return;
        case Message::Kind::Hello:
            send(encodeResponse(std::nullopt, Reply::failure(QLatin1String(errors::kInvalidRequest),
                                                             QStringLiteral("the hello was already exchanged"))));
            return;
        case Message::Kind::Response:
        case Message::Kind::Event:
        case Message::Kind::Error:
            send(encodeResponse(message->id,
                                Reply::failure(QLatin1String(errors::kInvalidRequest),
                                               QStringLiteral("clients send requests, not responses or events"))));
            return;
        }
    }

    void handleHello(const Message &message)
    {
        if (message.kind != Message::Kind::Hello) {
            closeWithError(errors::kHelloRequired, QStringLiteral("the connection must start with a hello"));
            return;
        }
        const QJsonValue version = message.hello.value(QLatin1String("protocol"));
        if (!version.isDouble() || version.toInt() != kProtocolVersion) {
            const QString theirs = version.isDouble() ? QString::number(version.toInt()) : QStringLiteral("none");
            qCWarning(lcApiServer).noquote()
                << "refusing client" << message.hello.value(QLatin1String("client")).toString() << "(pid"
                << m_context.peerPid << ") speaking protocol version" << theirs;
            closeWithError(errors::kProtocolMismatch,
                           QStringLiteral("paddockd speaks protocol version %1 but the client speaks version %2; "
                                          "use a client and daemon from the same Paddock release "
                                          "(paddock daemon stop restarts the daemon on next use)")
                               .arg(kProtocolVersion)
                               .arg(theirs));
            return;
        }
        m_helloDone = true;
        send(encodeHello(m_server->helloObject()));
    }

    Server *m_server;
    QLocalSocket *m_socket;
    CallContext m_context;
    LineBuffer m_lines;
    QSet<QString> m_subscriptions;
    bool m_helloDone = false;
    bool m_closing = false;
};

struct PendingReply::State
{
    QPointer<ServerConnection> connection;
    qint64 id = 0;
    bool done = false;
    std::function<void(const Reply &)> then; ///< forward(): called instead of sending
};

PendingReply PendingReply::forward(std::function<void(const Reply &)> then)
{
    PendingReply reply;
    reply.m_state = std::make_shared<State>();
    reply.m_state->then = std::move(then);
    return reply;
}

void PendingReply::complete(const Reply &reply) const
{
    if (!m_state || m_state->done)
        return;
    m_state->done = true;
    if (m_state->then)
        return m_state->then(reply);
    if (m_state->connection)
        m_state->connection->send(encodeResponse(m_state->id, reply));
}

Server::Server(QObject *parent) : QObject(parent), m_daemonVersion(QLatin1String(kVersion)), m_allowedUid(::getuid())
{
    m_uptime.start();
    registerBuiltins();
}

Server::~Server()
{
    close();
}

bool Server::listen(const QString &socketPath, QString *error)
{
    close();
    const QString directory = QFileInfo(socketPath).absolutePath();
    if (!paths::ensurePrivateDir(directory, error))
        return false;
    m_listener = new PeerCheckingLocalServer(this);
    // The socket is created with the umask's mode; make it owner-only from the start, not
    // only after the chmod below.
    const mode_t previousUmask = ::umask(0177);
    const bool listening = m_listener->listen(socketPath);
    ::umask(previousUmask);
    if (!listening) {
        if (error)
            *error = QStringLiteral("cannot listen on %1: %2").arg(socketPath, m_listener->errorString());
        delete m_listener;
        m_listener = nullptr;
        return false;
    }
    if (::chmod(QFile::encodeName(socketPath).constData(), 0600) != 0) {
        if (error)
            *error = QStringLiteral("cannot make %1 owner-only (mode 0600)").arg(socketPath);
        close();
        return false;
    }
    m_socketPath = socketPath;
    qCInfo(lcApiServer).noquote() << "listening on" << socketPath;
    return true;
}

void Server::close()
{
    const auto connections = m_connections;
    m_connections.clear();
    updateSubscribedTopics();
    for (ServerConnection *connection : connections) {
        // An answer such as shutdown's may still be queued; the event loop may be gone.
        connection->closeNow();
        connection->deleteLater();
    }
    if (m_listener) {
        // QLocalServer::close() removes the socket file it created.
        m_listener->close();
        delete m_listener;
        m_listener = nullptr;
        qCInfo(lcApiServer).noquote() << "stopped listening on" << m_socketPath;
    }
}

bool Server::isListening() const
{
    return m_listener && m_listener->isListening();
}

void Server::registerMethod(const QString &method, MethodHandler handler)
{
    registerAsyncMethod(method, [handler = std::move(handler)](const QJsonObject &params, const CallContext &context,
                                                               const PendingReply &reply) {
        reply.complete(handler(params, context));
    });
}

void Server::registerAsyncMethod(const QString &method, AsyncMethodHandler handler)
{
    m_methods.insert(method, Method{std::move(handler)});
}

void Server::registerTopic(const QString &topic)
{
    m_topics.insert(topic);
}

int Server::publish(const QString &topic, const QJsonObject &data)
{
    QByteArray line; // encoded for the first subscriber: most events have none
    int delivered = 0;
    const auto connections = m_connections;
    for (ServerConnection *connection : connections) {
        if (connection->isClosing() || !connection->subscriptions().contains(topic))
            continue;
        if (line.isEmpty())
            line = encodeEvent(topic, data);
        if (connection->queuedBytes() > kMaxQueuedBytes) {
            qCWarning(lcApiServer) << "dropping connection" << connection->context().connectionId << "from pid"
                                   << connection->context().peerPid << ": it stopped reading its events";
            connection->drop();
            continue;
        }
        connection->send(line);
        ++delivered;
    }
    return delivered;
}

bool Server::isSubscribed(const QString &topic) const
{
    const std::lock_guard lock(m_subscribedMutex);
    return m_subscribedTopics.contains(topic);
}

void Server::publishLater(const QString &topic, const std::function<QJsonObject()> &make)
{
    if (!isSubscribed(topic))
        return;
    QJsonObject data = make();
    bool first = false;
    {
        const std::lock_guard lock(m_laterMutex);
        first = m_later.empty();
        m_later.emplace_back(topic, std::move(data));
    }
    if (first)
        QMetaObject::invokeMethod(this, &Server::publishQueued, Qt::QueuedConnection);
}

void Server::publishQueued()
{
    std::vector<std::pair<QString, QJsonObject>> events;
    {
        const std::lock_guard lock(m_laterMutex);
        events.swap(m_later);
    }
    for (const auto &[topic, data] : events)
        publish(topic, data);
}

void Server::updateSubscribedTopics()
{
    QSet<QString> topics;
    for (ServerConnection *connection : std::as_const(m_connections))
        topics.unite(connection->subscriptions());
    const std::lock_guard lock(m_subscribedMutex);
    m_subscribedTopics.swap(topics);
}

void Server::registerBuiltins()
{
    registerMethod(QStringLiteral("ping"), [this](const QJsonObject &, const CallContext &) {
        return Reply::success({{QStringLiteral("pong"), true},
                               {QStringLiteral("pid"), QCoreApplication::applicationPid()},
                               {QStringLiteral("uptimeMs"), m_uptime.elapsed()}});
    });
    registerMethod(QStringLiteral("version"), [this](const QJsonObject &, const CallContext &) {
        return Reply::success({{QStringLiteral("name"), QStringLiteral("paddockd")},
                               {QStringLiteral("version"), m_daemonVersion},
                               {QStringLiteral("protocol"), kProtocolVersion}});
    });
    registerMethod(QStringLiteral("shutdown"), [this](const QJsonObject &, const CallContext &context) {
        qCInfo(lcApiServer) << "shutdown requested by pid" << context.peerPid;
        // Queued, so the answer is written before anything starts closing.
        QMetaObject::invokeMethod(this, &Server::shutdownRequested, Qt::QueuedConnection);
        return Reply::success({{QStringLiteral("stopping"), true}});
    });
    // subscribe and unsubscribe change the connection itself, so dispatch() answers them.
}

void Server::acceptSocket(quintptr descriptor)
{
    const int fd = int(descriptor);
    const PeerCredentials peer = peerCredentials(fd);
    if (!peer.known || peer.uid != m_allowedUid) {
        if (peer.known) {
            qCWarning(lcApiServer) << "refused a connection from uid" << peer.uid << "pid" << peer.pid << ": only uid"
                                   << m_allowedUid << "may use this daemon";
        } else {
            qCWarning(lcApiServer) << "refused a connection whose peer credentials are unknown";
        }
        ::close(fd);
        Q_EMIT peerRefused(peer.uid, peer.pid);
        return;
    }
    auto *socket = new QLocalSocket;
    if (!socket->setSocketDescriptor(descriptor)) {
        qCWarning(lcApiServer) << "cannot take over an accepted connection:" << socket->errorString();
        delete socket;
        ::close(fd);
        return;
    }
    const CallContext context{peer.pid, peer.uid, m_nextConnectionId++};
    auto *connection = new ServerConnection(this, socket, context);
    m_connections.insert(context.connectionId, connection);
    qCDebug(lcApiServer) << "connection" << context.connectionId << "from pid" << peer.pid;
    Q_EMIT clientConnected(context.connectionId);
}

void Server::forget(ServerConnection *connection)
{
    const quint64 id = connection->context().connectionId;
    if (m_connections.remove(id) > 0) {
        updateSubscribedTopics();
        qCDebug(lcApiServer) << "connection" << id << "closed";
        Q_EMIT clientDisconnected(id);
    }
    connection->deleteLater();
}

void Server::dispatch(ServerConnection *connection, qint64 id, const QString &method, const QJsonObject &params)
{
    if (method == QLatin1String("subscribe") || method == QLatin1String("unsubscribe")) {
        connection->send(
            encodeResponse(id, changeSubscriptions(connection, params, method == QLatin1String("subscribe"))));
        return;
    }
    const auto found = m_methods.constFind(method);
    if (found == m_methods.constEnd()) {
        connection->send(encodeResponse(id, Reply::failure(QLatin1String(errors::kUnknownMethod),
                                                           QStringLiteral("unknown method '%1'").arg(method))));
        return;
    }
    PendingReply reply;
    reply.m_state = std::make_shared<PendingReply::State>();
    reply.m_state->connection = connection;
    reply.m_state->id = id;
    found->handler(params, connection->context(), reply);
}

Reply Server::changeSubscriptions(ServerConnection *connection, const QJsonObject &params, bool subscribe)
{
    QString error;
    const QStringList topics = topicsParam(params, &error);
    if (!error.isEmpty())
        return Reply::failure(QLatin1String(errors::kInvalidParams), error);
    for (const QString &topic : topics) {
        if (!m_topics.contains(topic))
            return Reply::failure(QLatin1String(errors::kUnknownTopic),
                                  QStringLiteral("unknown topic '%1'").arg(topic));
    }
    QSet<QString> &subscriptions = connection->subscriptions();
    for (const QString &topic : topics) {
        if (subscribe)
            subscriptions.insert(topic);
        else
            subscriptions.remove(topic);
    }
    updateSubscribedTopics();
    QStringList now(subscriptions.cbegin(), subscriptions.cend());
    std::sort(now.begin(), now.end());
    return Reply::success({{QStringLiteral("topics"), QJsonArray::fromStringList(now)}});
}

QJsonObject Server::helloObject() const
{
    return {{QStringLiteral("protocol"), kProtocolVersion},
            {QStringLiteral("server"), QStringLiteral("paddockd")},
            {QStringLiteral("version"), m_daemonVersion},
            {QStringLiteral("pid"), QCoreApplication::applicationPid()}};
}

} // namespace paddock::api
