// SPDX-License-Identifier: GPL-3.0-or-later
#include "api/DaemonClient.h"

#include "api/DaemonLauncher.h"
#include "common/Paths.h"

#include <QJsonArray>
#include <QLocalSocket>
#include <QLoggingCategory>
#include <QTimer>

Q_LOGGING_CATEGORY(lcApiClient, "paddock.api.client", QtWarningMsg)

namespace paddock::api {
namespace {
constexpr int kRetryIntervalMs = 100;
}

DaemonClient::DaemonClient(QObject *parent)
    : QObject(parent), m_socketPath(paths::daemonSocket()), m_retryTimer(new QTimer(this))
{
    m_retryTimer->setSingleShot(true);
    m_retryTimer->setInterval(kRetryIntervalMs);
    connect(m_retryTimer, &QTimer::timeout, this, &DaemonClient::attempt);
}

DaemonClient::~DaemonClient()
{
    resetSocket();
}

void DaemonClient::connectToDaemon()
{
    if (m_state != State::Disconnected)
        return;
    m_startedDaemon = false;
    setState(State::Connecting);
    attempt();
}

void DaemonClient::disconnectFromDaemon()
{
    if (m_state == State::Disconnected)
        return;
    const bool wasConnected = m_state == State::Connected;
    m_retryTimer->stop();
    resetSocket();
    setState(State::Disconnected);
    failAllCalls(QStringLiteral("disconnected from paddockd"));
    if (wasConnected)
        Q_EMIT disconnected();
}

qint64 DaemonClient::call(const QString &method, const QJsonObject &params, Callback callback)
{
    const qint64 id = m_nextId++;
    switch (m_state) {
    case State::Disconnected:
        // Answered from the event loop, so a callback never runs inside call().
        QTimer::singleShot(0, this, [this, id, callback = std::move(callback)] {
            const Reply reply =
                Reply::failure(QLatin1String(errors::kDisconnected), QStringLiteral("not connected to paddockd"));
            if (callback)
                callback(reply);
            Q_EMIT replied(id, reply);
        });
        break;
    case State::Connecting:
        m_queued << Call{id, method, params, std::move(callback)};
        break;
    case State::Connected:
        m_sent.insert(id, std::move(callback));
        m_socket->write(encodeRequest(id, method, params));
        break;
    }
    return id;
}

qint64 DaemonClient::subscribe(const QStringList &topics, Callback callback)
{
    return call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray::fromStringList(topics)}},
                std::move(callback));
}

void DaemonClient::attempt()
{
    resetSocket();
    m_helloDone = false;
    m_lines = std::make_unique<LineBuffer>();
    m_socket = new QLocalSocket(this);
    connect(m_socket, &QLocalSocket::connected, this, &DaemonClient::onConnected);
    connect(m_socket, &QLocalSocket::errorOccurred, this, &DaemonClient::onSocketError);
    connect(m_socket, &QLocalSocket::readyRead, this, &DaemonClient::onReadyRead);
    connect(m_socket, &QLocalSocket::disconnected, this, &DaemonClient::onSocketClosed);
    m_socket->connectToServer(m_socketPath);
}

void DaemonClient::onConnected()
{
    const QString stranger = checkDaemonPeer(m_socket->socketDescriptor(), m_socketPath);
    if (!stranger.isEmpty()) {
        fail(stranger);
        return;
    }
    m_socket->write(encodeHello(clientHello()));
}

void DaemonClient::onSocketError()
{
    const QLocalSocket::LocalSocketError error = m_socket->error();
    if (error == QLocalSocket::PeerClosedError)
        return; // onSocketClosed() follows
    const bool nobodyListens =
        error == QLocalSocket::ServerNotFoundError || error == QLocalSocket::ConnectionRefusedError;
    if (m_helloDone || m_state != State::Connecting) {
        onSocketClosed();
        return;
    }
    if (!nobodyListens) {
        fail(QStringLiteral("cannot connect to paddockd on %1: %2").arg(m_socketPath, m_socket->errorString()));
        return;
    }
    if (m_startedDaemon) {
        if (m_startDeadline.hasExpired()) {
            fail(QStringLiteral("cannot start paddockd: it did not answer on %1 within %2 seconds")
                     .arg(m_socketPath)
                     .arg(kDaemonStartTimeoutMs / 1000.0));
            return;
        }
        m_retryTimer->start();
        return;
    }
    if (!m_startOnDemand) {
        fail(QStringLiteral("paddockd is not running (nothing listens on %1)").arg(m_socketPath));
        return;
    }
    QString startError;
    if (!startDaemonDetached(&startError)) {
        fail(QStringLiteral("cannot start paddockd: %1").arg(startError));
        return;
    }
    m_startedDaemon = true;
    m_startDeadline = QDeadlineTimer(kDaemonStartTimeoutMs);
    m_retryTimer->start();
}

void DaemonClient::onReadyRead()
{
    const QList<QByteArray> lines = m_lines->append(m_socket->readAll());
    for (const QByteArray &line : lines) {
        DecodeError error;
        const std::optional<Message> message = decodeMessage(line, &error);
        if (!message) {
            qCWarning(lcApiClient).noquote() << "ignoring a line from paddockd:" << error.message;
            continue;
        }
        handleMessage(*message);
        if (!m_socket)
            return; // the message ended the connection
    }
    if (m_lines->isOversized()) {
        qCWarning(lcApiClient) << "paddockd sent a line longer than" << m_lines->maxLineBytes() << "bytes";
        m_socket->abort();
    }
}

void DaemonClient::handleMessage(const Message &message)
{
    if (!m_helloDone) {
        if (message.kind == Message::Kind::Error) {
            fail(QStringLiteral("paddockd refused the connection: %1").arg(message.reply.errorMessage()));
            return;
        }
        if (message.kind != Message::Kind::Hello) {
            fail(QStringLiteral("paddockd did not start with a hello"));
            return;
        }
        const QString mismatch = checkServerHello(message.hello, &m_server);
        if (!mismatch.isEmpty()) {
            fail(mismatch);
            return;
        }
        m_helloDone = true;
        setState(State::Connected);
        const QList<Call> queued = std::exchange(m_queued, {});
        for (const Call &call : queued) {
            m_sent.insert(call.id, call.callback);
            m_socket->write(encodeRequest(call.id, call.method, call.params));
        }
        Q_EMIT connected();
        return;
    }
    switch (message.kind) {
    case Message::Kind::Response:
        if (message.id)
            finish(*message.id, message.reply);
        else
            qCWarning(lcApiClient).noquote() << "paddockd reported:" << message.reply.errorMessage();
        return;
    case Message::Kind::Event:
        Q_EMIT eventReceived(message.event, message.data);
        return;
    case Message::Kind::Error:
        qCWarning(lcApiClient).noquote() << "paddockd is closing the connection:" << message.reply.errorMessage();
        return;
    case Message::Kind::Hello:
    case Message::Kind::Request:
        return;
    }
}

void DaemonClient::onSocketClosed()
{
    if (m_state == State::Connected) {
        resetSocket();
        setState(State::Disconnected);
        failAllCalls(QStringLiteral("paddockd closed the connection"));
        Q_EMIT disconnected();
    } else if (m_state == State::Connecting && m_socket && m_socket->error() != QLocalSocket::ServerNotFoundError &&
               m_socket->error() != QLocalSocket::ConnectionRefusedError) {
        fail(QStringLiteral("paddockd on %1 closed the connection without a hello").arg(m_socketPath));
    }
}

void DaemonClient::fail(const QString &message)
{
    qCInfo(lcApiClient).noquote() << message;
    m_retryTimer->stop();
    resetSocket();
    setState(State::Disconnected);
    failAllCalls(message);
    Q_EMIT connectionFailed(message);
}

void DaemonClient::finish(qint64 id, const Reply &reply)
{
    const auto found = m_sent.find(id);
    if (found == m_sent.end())
        return;
    const Callback callback = found.value();
    m_sent.erase(found);
    if (callback)
        callback(reply);
    Q_EMIT replied(id, reply);
}

void DaemonClient::failAllCalls(const QString &message)
{
    const Reply reply = Reply::failure(QLatin1String(errors::kDisconnected), message);
    const QList<Call> queued = std::exchange(m_queued, {});
    const QHash<qint64, Callback> sent = std::exchange(m_sent, {});
    for (const Call &call : queued) {
        if (call.callback)
            call.callback(reply);
        Q_EMIT replied(call.id, reply);
    }
    for (auto it = sent.cbegin(); it != sent.cend(); ++it) {
        if (it.value())
            it.value()(reply);
        Q_EMIT replied(it.key(), reply);
    }
}

void DaemonClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void DaemonClient::resetSocket()
{
    if (!m_socket)
        return;
    QLocalSocket *socket = std::exchange(m_socket, nullptr);
    socket->disconnect(this);
    socket->abort();
    socket->deleteLater();
}

} // namespace paddock::api
