// SPDX-License-Identifier: GPL-3.0-or-later
// The relay between a sandbox's agent socket and the user's agent: one backing connection per
// sandbox connection, one request in flight at a time, so answers keep the order of requests.
#include "sshagent/AgentRelay.h"

#include "sshagent/HostKeys.h"

#include <QFile>
#include <QLocalServer>
#include <QLocalSocket>

namespace paddock::sshagent {

namespace {

constexpr int kMaxConnections = 64;
constexpr qsizetype kMaxBuffered = 2 * (qsizetype(kMaxMessage) + 4);
const QByteArray kSessionBind = QByteArrayLiteral("session-bind@openssh.com");

} // namespace

struct AgentRelay::Connection
{
    QObject *holder = nullptr; ///< owns both sockets
    QLocalSocket *client = nullptr;
    QLocalSocket *backing = nullptr;
    QByteArray fromClient;
    QByteArray fromBacking;
    bool awaiting = false;                ///< a request is with the backing agent
    bool countBinding = false;            ///< the request with the backing agent is a binding to keep
    std::optional<SessionBind> candidate; ///< that binding
    QList<SessionBind> bindings;          ///< verified, not forwarding
};

AgentRelay::AgentRelay(AgentGrant grant, QString backingSocket, QString knownHostsPath, QObject *parent)
    : QObject(parent),
      m_grant(std::move(grant)),
      m_backingSocket(std::move(backingSocket)),
      m_knownHostsPath(std::move(knownHostsPath))
{}

AgentRelay::~AgentRelay()
{
    close();
}

Result<void> AgentRelay::listen(const QString &socketPath, bool anyUid)
{
    close();
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(anyUid ? QLocalServer::WorldAccessOption : QLocalServer::UserAccessOption);
    QLocalServer::removeServer(socketPath);
    if (!m_server->listen(socketPath)) {
        const QString why = m_server->errorString();
        delete m_server;
        m_server = nullptr;
        return fail(QStringLiteral("cannot make the sandbox's SSH agent socket %1: %2").arg(socketPath, why));
    }
    m_socketPath = socketPath;
    connect(m_server, &QLocalServer::newConnection, this, &AgentRelay::accept);
    return {};
}

void AgentRelay::close()
{
    const auto connections = m_connections;
    for (const std::shared_ptr<Connection> &connection : connections)
        drop(connection);
    if (m_server) {
        m_server->close();
        delete m_server;
        m_server = nullptr;
        QFile::remove(m_socketPath);
    }
}

void AgentRelay::accept()
{
    while (QLocalSocket *client = m_server->nextPendingConnection()) {
        if (m_connections.size() >= kMaxConnections) {
            client->abort();
            client->deleteLater();
            continue;
        }
        auto connection = std::make_shared<Connection>();
        connection->holder = new QObject(this);
        client->setParent(connection->holder);
        connection->client = client;
        connection->backing = new QLocalSocket(connection->holder);
        connection->backing->connectToServer(m_backingSocket);
        // A local socket connects at once or not at all; a missing agent is answered with FAILURE.
        connection->backing->waitForConnected(2000);
        m_connections << connection;
        connect(client, &QLocalSocket::readyRead, connection->holder, [this, connection] {
            connection->fromClient += connection->client->readAll();
            // What waits behind a request with the backing agent is bounded too.
            if (connection->fromClient.size() > kMaxBuffered)
                return drop(connection);
            pump(connection);
        });
        connect(client, &QLocalSocket::disconnected, connection->holder, [this, connection] { drop(connection); });
        connect(connection->backing, &QLocalSocket::readyRead, connection->holder,
                [this, connection] { fromBacking(connection); });
        connect(connection->backing, &QLocalSocket::disconnected, connection->holder, [this, connection] {
            if (connection->awaiting)
                drop(connection);
        });
        connection->fromClient += client->readAll();
        pump(connection);
    }
}

void AgentRelay::drop(const std::shared_ptr<Connection> &connection)
{
    if (!m_connections.removeOne(connection))
        return;
    connection->client->abort();
    connection->backing->abort();
    connection->holder->deleteLater();
}

void AgentRelay::pump(const std::shared_ptr<Connection> &connection)
{
    while (!connection->awaiting && m_connections.contains(connection)) {
        Frame frame = takeFrame(connection->fromClient);
        if (frame.malformed) {
            drop(connection);
            return;
        }
        if (!frame.payload)
            return;
        handle(connection, *frame.payload);
    }
}

void AgentRelay::handle(const std::shared_ptr<Connection> &connection, const QByteArray &payload)
{
    switch (quint8(payload.at(0))) {
    case kRequestIdentities:
        if (payload.size() == 1)
            forward(connection, payload);
        else
            answer(connection, kFailure);
        return;
    case kSignRequest:
        handleSign(connection, payload);
        return;
    case kExtension:
        handleExtension(connection, payload);
        return;
    default:
        // Adding, removing and locking keys, smartcards and providers change the agent for
        // everything else that uses it: never passed on.
        answer(connection, kFailure);
    }
}

void AgentRelay::handleSign(const std::shared_ptr<Connection> &connection, const QByteArray &payload)
{
    const std::optional<SignRequest> request = parseSignRequest(payload);
    if (!request) {
        answer(connection, kFailure);
        return;
    }
    SignPurpose purpose = classify(request->data);
    SignRecord record;
    record.key = fingerprint(request->keyBlob);
    const std::optional<QString> refused = refusal(*connection, purpose, &record.purpose);
    record.relayed = !refused;
    record.reason = refused.value_or(QString());
    if (onSign)
        onSign(record);
    if (refused)
        answer(connection, kFailure);
    else
        forward(connection, payload);
}

void AgentRelay::handleExtension(const std::shared_ptr<Connection> &connection, const QByteArray &payload)
{
    const std::optional<Extension> extension = parseExtension(payload);
    if (!extension || !extension->bind) {
        answer(connection, kFailure);
        return;
    }
    const SessionBind &bind = *extension->bind;
    // A binding counts only once its host key's signature over the session checks out; one
    // for a forwarded agent names a hop further on, never the server a login is for.
    if (bind.forwarding || !verifySignature(bind.hostKey, bind.sessionId, bind.signature)) {
        answer(connection, kFailure);
        return;
    }
    connection->countBinding = true;
    connection->candidate = bind;
    forward(connection, payload);
}

void AgentRelay::forward(const std::shared_ptr<Connection> &connection, const QByteArray &payload)
{
    if (connection->backing->state() != QLocalSocket::ConnectedState) {
        if (connection->countBinding)
            connection->bindings << *connection->candidate;
        connection->countBinding = false;
        answer(connection, kFailure);
        return;
    }
    connection->awaiting = true;
    connection->backing->write(framed(payload));
}

void AgentRelay::fromBacking(const std::shared_ptr<Connection> &connection)
{
    connection->fromBacking += connection->backing->readAll();
    Frame frame = takeFrame(connection->fromBacking);
    if (frame.malformed || (frame.payload && !connection->awaiting)) {
        drop(connection);
        return;
    }
    if (!frame.payload)
        return;
    // The binding is verified here whatever the backing agent makes of it.
    if (connection->countBinding)
        connection->bindings << *connection->candidate;
    connection->countBinding = false;
    connection->awaiting = false;
    connection->client->write(framed(*frame.payload));
    pump(connection);
}

void AgentRelay::answer(const std::shared_ptr<Connection> &connection, quint8 type)
{
    connection->client->write(framed(QByteArray(1, char(type))));
}

std::optional<QString> AgentRelay::refusal(const Connection &connection, SignPurpose &purpose, QString *what) const
{
    switch (purpose.kind) {
    case SignPurpose::Kind::Namespaced:
        *what = QStringLiteral("%1 signature").arg(purpose.signatureNamespace);
        if (m_grant.unrestricted || m_grant.sign.contains(purpose.signatureNamespace))
            return std::nullopt;
        return QStringLiteral("the kit does not let the agent sign in the namespace %1")
            .arg(purpose.signatureNamespace);
    case SignPurpose::Kind::Login:
        *what = QStringLiteral("login as %1").arg(purpose.user);
        if (m_grant.unrestricted)
            return std::nullopt;
        return loginRefusal(connection, purpose, what);
    case SignPurpose::Kind::Other:
        break;
    }
    *what = QStringLiteral("other data (neither a namespaced signature nor a login)");
    if (m_grant.unrestricted)
        return std::nullopt;
    return QStringLiteral("the kit lets the agent sign only named namespaces and logins");
}

std::optional<QString> AgentRelay::loginRefusal(const Connection &connection, const SignPurpose &purpose,
                                                QString *what) const
{
    if (m_grant.authenticate.isEmpty())
        return QStringLiteral("the kit lets the agent make no logins");
    const SessionBind *binding = nullptr;
    for (const SessionBind &bind : connection.bindings)
        if (bind.sessionId == purpose.sessionId)
            binding = &bind;
    if (!binding)
        return QStringLiteral("no verified session binding names the server (OpenSSH 8.9 or later binds sessions)");
    if (purpose.hostbound && purpose.hostKey != binding->hostKey)
        return QStringLiteral("the login names a host key other than the bound server's");
    const KnownHosts known = KnownHosts::read(m_knownHostsPath);
    bool knownServer = false;
    for (const QString &entry : m_grant.authenticate) {
        const qsizetype at = entry.lastIndexOf(QLatin1Char('@'));
        const QString host = entry.mid(at + 1);
        const QString user = at < 0 ? QString() : entry.left(at);
        if (!known.isKeyOf(host, binding->hostKey))
            continue;
        knownServer = true;
        *what = QStringLiteral("login as %1 to %2").arg(purpose.user, host);
        if (user.isEmpty() || user == purpose.user)
            return std::nullopt;
    }
    if (knownServer)
        return QStringLiteral("the kit names another account on that server");
    *what = QStringLiteral("login as %1 to a server with key %2").arg(purpose.user, fingerprint(binding->hostKey));
    return QStringLiteral("the server's host key is not a known key (~/.ssh/known_hosts) of a server the kit names");
}

} // namespace paddock::sshagent
