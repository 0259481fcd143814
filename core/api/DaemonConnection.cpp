// SPDX-License-Identifier: GPL-3.0-or-later
#include "api/DaemonConnection.h"

#include "paddock/Version.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QLocalSocket>
#include <QLoggingCategory>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcApiConnection, "paddock.api.connection", QtWarningMsg)

namespace paddock::api {

QJsonObject clientHello()
{
    const QString application =
        QCoreApplication::instance() ? QCoreApplication::applicationName() : QStringLiteral("paddock");
    return {{QStringLiteral("protocol"), kProtocolVersion},
            {QStringLiteral("client"), QStringLiteral("%1 %2").arg(application, QLatin1String(kVersion))}};
}

QString checkServerHello(const QJsonObject &hello, ServerInfo *info)
{
    const QJsonValue protocol = hello.value(QLatin1String("protocol"));
    if (!protocol.isDouble() || protocol.toInt() != kProtocolVersion) {
        return QStringLiteral("paddockd speaks protocol version %1 but this client speaks version %2; "
                              "run 'paddock daemon stop' so the matching daemon starts on next use")
            .arg(protocol.isDouble() ? QString::number(protocol.toInt()) : QStringLiteral("(none)"))
            .arg(kProtocolVersion);
    }
    if (info) {
        info->protocol = protocol.toInt();
        info->name = hello.value(QLatin1String("server")).toString();
        info->version = hello.value(QLatin1String("version")).toString();
        info->pid = hello.value(QLatin1String("pid")).toInteger(-1);
    }
    return {};
}

QString checkDaemonPeer(qintptr socketDescriptor, const QString &socketPath)
{
    struct ucred credentials
    {};
    socklen_t length = sizeof(credentials);
    if (::getsockopt(int(socketDescriptor), SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0 ||
        length != sizeof(credentials))
        return QStringLiteral("cannot tell who listens on %1").arg(socketPath);
    if (credentials.uid != ::getuid())
        return QStringLiteral("refusing to talk to %1: it is served by uid %2, not by you")
            .arg(socketPath)
            .arg(credentials.uid);
    return {};
}

DaemonConnection::DaemonConnection() = default;
DaemonConnection::~DaemonConnection() = default;

bool DaemonConnection::open(const QString &socketPath, int timeoutMs, QString *error)
{
    close();
    const QDeadlineTimer deadline(timeoutMs);
    auto fail = [&](Failure failure, const QString &message) {
        m_failure = failure;
        if (error)
            *error = message;
        close();
        m_failure = failure;
        return false;
    };
    if (!QFileInfo::exists(socketPath))
        return fail(Failure::NotRunning, QStringLiteral("paddockd is not running (no socket at %1)").arg(socketPath));

    m_socket = std::make_unique<QLocalSocket>();
    m_lines = std::make_unique<LineBuffer>();
    m_socket->connectToServer(socketPath);
    if (!m_socket->waitForConnected(int(deadline.remainingTime()))) {
        const QLocalSocket::LocalSocketError socketError = m_socket->error();
        if (socketError == QLocalSocket::ConnectionRefusedError || socketError == QLocalSocket::ServerNotFoundError)
            return fail(Failure::NotRunning,
                        QStringLiteral("paddockd is not running (nothing listens on %1)").arg(socketPath));
        if (socketError == QLocalSocket::SocketAccessError)
            return fail(Failure::Refused, QStringLiteral("no permission to use %1").arg(socketPath));
        return fail(Failure::NoAnswer,
                    QStringLiteral("cannot connect to paddockd on %1: %2").arg(socketPath, m_socket->errorString()));
    }

    const QString stranger = checkDaemonPeer(m_socket->socketDescriptor(), socketPath);
    if (!stranger.isEmpty())
        return fail(Failure::Refused, stranger);
    m_socket->write(encodeHello(clientHello()));
    QString readError;
    const std::optional<Message> hello = readMessage(deadline, &readError);
    if (!hello) {
        if (m_socket->state() != QLocalSocket::ConnectedState)
            return fail(Failure::Refused,
                        QStringLiteral("paddockd on %1 closed the connection without a hello").arg(socketPath));
        return fail(Failure::NoAnswer, readError);
    }
    if (hello->kind == Message::Kind::Error)
        return fail(Failure::Refused,
                    QStringLiteral("paddockd refused the connection: %1").arg(hello->reply.errorMessage()));
    if (hello->kind != Message::Kind::Hello)
        return fail(Failure::Refused, QStringLiteral("paddockd did not start with a hello"));
    const QString mismatch = checkServerHello(hello->hello, &m_server);
    if (!mismatch.isEmpty())
        return fail(Failure::Refused, mismatch);
    m_failure = Failure::None;
    return true;
}

void DaemonConnection::close()
{
    if (m_socket) {
        m_socket->abort();
        m_socket.reset();
    }
    m_lines.reset();
    m_received.clear();
    m_events.clear();
    m_server = {};
}

bool DaemonConnection::isOpen() const
{
    return m_socket && m_socket->state() == QLocalSocket::ConnectedState;
}

bool DaemonConnection::isUsable() const
{
    if (!isOpen())
        return false;
    // QLocalSocket learns of a hang-up only by reading; a kept connection is idle between calls.
    pollfd peer{int(m_socket->socketDescriptor()), POLLIN | POLLRDHUP, 0};
    if (::poll(&peer, 1, 0) < 0)
        return false;
    return (peer.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL)) == 0;
}

std::optional<Message> DaemonConnection::readMessage(const QDeadlineTimer &deadline, QString *error)
{
    while (m_received.isEmpty()) {
        if (!m_socket || m_lines->isOversized()) {
            *error = QStringLiteral("the connection to paddockd is closed");
            return std::nullopt;
        }
        if (m_socket->bytesAvailable() == 0) {
            if (deadline.hasExpired()) {
                *error = QStringLiteral("paddockd did not answer in time");
                return std::nullopt;
            }
            if (!m_socket->waitForReadyRead(int(deadline.remainingTime()))) {
                *error = m_socket->state() == QLocalSocket::ConnectedState
                             ? QStringLiteral("paddockd did not answer in time")
                             : QStringLiteral("paddockd closed the connection");
                return std::nullopt;
            }
        }
        for (const QByteArray &line : m_lines->append(m_socket->readAll())) {
            DecodeError decodeError;
            std::optional<Message> message = decodeMessage(line, &decodeError);
            if (!message) {
                qCWarning(lcApiConnection).noquote() << "ignoring a line from paddockd:" << decodeError.message;
                continue;
            }
            m_received << *message;
        }
        if (m_lines->isOversized()) {
            m_socket->abort();
            *error = QStringLiteral("paddockd sent a line longer than %1 bytes").arg(m_lines->maxLineBytes());
            return std::nullopt;
        }
    }
    return m_received.takeFirst();
}

Reply DaemonConnection::call(const QString &method, const QJsonObject &params, int timeoutMs)
{
    return call(method, params, timeoutMs, {});
}

Reply DaemonConnection::call(const QString &method, const QJsonObject &params, int timeoutMs,
                             const std::function<void(const Event &event)> &onEvent)
{
    if (!isOpen())
        return Reply::failure(QLatin1String(errors::kDisconnected), QStringLiteral("not connected to paddockd"));
    const QDeadlineTimer deadline(timeoutMs);
    const qint64 id = m_nextId++;
    m_socket->write(encodeRequest(id, method, params));
    m_socket->flush();
    while (true) {
        QString error;
        const std::optional<Message> message = readMessage(deadline, &error);
        if (!message) {
            const bool closed = !isOpen();
            return Reply::failure(QLatin1String(closed ? errors::kDisconnected : errors::kTimeout),
                                  QStringLiteral("%1 (calling %2)").arg(error, method));
        }
        switch (message->kind) {
        case Message::Kind::Event:
            if (onEvent)
                onEvent(Event{message->event, message->data});
            else
                m_events << Event{message->event, message->data};
            break;
        case Message::Kind::Response:
            if (message->id == id)
                return message->reply;
            // An answer to an earlier call that timed out, or to a line without a usable id.
            if (!message->id)
                return message->reply;
            break;
        case Message::Kind::Error:
            m_socket->abort();
            return message->reply;
        case Message::Kind::Hello:
        case Message::Kind::Request:
            break;
        }
    }
}

std::optional<Event> DaemonConnection::waitForEvent(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (m_events.isEmpty()) {
        QString error;
        const std::optional<Message> message = readMessage(deadline, &error);
        if (!message)
            return std::nullopt;
        if (message->kind == Message::Kind::Event)
            m_events << Event{message->event, message->data};
    }
    return m_events.takeFirst();
}

} // namespace paddock::api
