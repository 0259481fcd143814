// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLocalServer>
#include <QObject>
#include <QString>

class QQmlApplicationEngine;

namespace paddock::gui {

/**
 * @brief One window per session: a second `paddock open FILE` (or `paddock`) hands its request
 * to the window already running, which comes to the front with the bundle's preview, and exits.
 *
 * The running window listens on `window.sock` in Paddock's private runtime folder
 * (paths::runtimeDir(), mode 0700). A request is one line: an absolute path, or nothing for the
 * window alone; the window answers "ok". Lines are bounded and anything else is ignored: the
 * path then goes through the Classroom page's own checks of a bundle, as a chosen file does.
 */
class WindowInstance : public QObject
{
    Q_OBJECT

public:
    explicit WindowInstance(QObject *parent = nullptr);

    /** The socket's path. */
    static QString socketPath();
    /**
     * Hands @p bundle (empty: none) to the window running in this session; false when none
     * answered, and this process should open the window itself.
     */
    static bool forward(const QString &bundle);

    /** Listens for requests; false when the socket cannot be made (the window opens anyway). */
    bool listen();

Q_SIGNALS:
    /** Another `paddock` asked for the window, with @p bundle to preview (empty: none). */
    void requested(const QString &bundle);

private:
    void readRequest(class QLocalSocket *socket);

    QLocalServer m_server;
};

/**
 * Brings the window of @p engine to the front on each of @p instance's requests, with the
 * requested bundle's preview on the Classroom page (Main.qml's openBundle()).
 */
void raiseOnRequests(QQmlApplicationEngine &engine, WindowInstance &instance);

} // namespace paddock::gui
