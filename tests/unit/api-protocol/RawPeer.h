// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QTest>

#include <optional>

/**
 * @brief A client that speaks the wire format by hand, to see exactly what the server sends.
 *
 * Its waits run the event loop, so a server in the same thread keeps working.
 */
class RawPeer
{
public:
    bool connectTo(const QString &path)
    {
        m_socket.connectToServer(path);
        return QTest::qWaitFor([this] { return m_socket.state() == QLocalSocket::ConnectedState; }, 5000);
    }

    void sendRaw(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }

    void send(const QJsonObject &object) { sendRaw(QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n'); }

    void hello(int protocol = 1)
    {
        send({{QStringLiteral("hello"), QJsonObject{{QStringLiteral("protocol"), protocol},
                                                    {QStringLiteral("client"), QStringLiteral("raw-test")}}}});
    }

    /** The next message, or nothing when the connection closed or nothing came in 5 s. */
    std::optional<QJsonObject> read()
    {
        [[maybe_unused]] const bool ready = QTest::qWaitFor(
            [this] { return m_socket.canReadLine() || m_socket.state() != QLocalSocket::ConnectedState; }, 5000);
        if (!m_socket.canReadLine())
            return std::nullopt;
        return QJsonDocument::fromJson(m_socket.readLine()).object();
    }

    /** True once the server has closed the connection (waits up to 5 s). */
    bool waitForClosed()
    {
        return QTest::qWaitFor(
            [this] {
                m_socket.readAll();
                return m_socket.state() == QLocalSocket::UnconnectedState;
            },
            5000);
    }

    QLocalSocket &socket() { return m_socket; }

private:
    QLocalSocket m_socket;
};
