// SPDX-License-Identifier: GPL-3.0-or-later
#include "WindowInstance.h"

#include "common/Paths.h"

#include <QDir>
#include <QLocalSocket>
#include <QPointer>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QUrl>

namespace paddock::gui {
namespace {
constexpr int kAnswerMs = 3000;
/// A path and its newline; a longer line is no request.
constexpr qint64 kMaxLine = 4096 + 1;
const QByteArray kAnswer = QByteArrayLiteral("ok\n");
} // namespace

WindowInstance::WindowInstance(QObject *parent) : QObject(parent)
{
    connect(&m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = m_server.nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readRequest(socket); });
            readRequest(socket);
        }
    });
}

QString WindowInstance::socketPath()
{
    return paths::runtimeDir() + QStringLiteral("/window.sock");
}

bool WindowInstance::forward(const QString &bundle)
{
    QLocalSocket socket;
    socket.connectToServer(socketPath());
    if (!socket.waitForConnected(kAnswerMs))
        return false;
    socket.write(bundle.toUtf8() + '\n');
    if (!socket.waitForBytesWritten(kAnswerMs))
        return false;
    while (socket.bytesAvailable() < kAnswer.size()) {
        if (!socket.waitForReadyRead(kAnswerMs))
            return false;
    }
    return socket.readAll() == kAnswer;
}

bool WindowInstance::listen()
{
    if (!paths::ensurePrivateDir(paths::runtimeDir()))
        return false;
    // forward() found no window answering: a socket left there is from one that ended.
    QLocalServer::removeServer(socketPath());
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    return m_server.listen(socketPath());
}

void WindowInstance::readRequest(QLocalSocket *socket)
{
    if (!socket->canReadLine()) {
        if (socket->bytesAvailable() >= kMaxLine)
            socket->abort();
        return;
    }
    const QByteArray line = socket->readLine(kMaxLine);
    if (!line.endsWith('\n')) {
        socket->abort();
        return;
    }
    const QString bundle = QString::fromUtf8(line.chopped(1));
    if (!bundle.isEmpty() && !QDir::isAbsolutePath(bundle)) {
        socket->abort();
        return;
    }
    socket->write(kAnswer);
    socket->flush();
    socket->disconnectFromServer();
    emit requested(bundle);
}

void raiseOnRequests(QQmlApplicationEngine &engine, WindowInstance &instance)
{
    QObject::connect(&instance, &WindowInstance::requested, &engine, [&engine](const QString &bundle) {
        if (engine.rootObjects().isEmpty())
            return;
        auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().constFirst());
        if (!window)
            return;
        if (window->visibility() == QWindow::Minimized)
            window->showNormal();
        window->raise();
        window->requestActivate();
        if (!bundle.isEmpty())
            QMetaObject::invokeMethod(window, "openBundle", Q_ARG(QVariant, QUrl::fromLocalFile(bundle)));
    });
}

} // namespace paddock::gui
