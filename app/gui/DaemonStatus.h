// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "api/DaemonClient.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The window's connection to paddockd and what the status line says about it.
 *
 * A QML singleton: `DaemonStatus.connected`, `.version`, `.error`, `.checking`. It owns the
 * window's api::DaemonClient, which never blocks the GUI thread. When the window opens it
 * connects, starting paddockd if nothing answers, as every Paddock client does. After a
 * failure or a disconnection it looks again every few seconds without starting anything,
 * so a daemon started from a terminal shows up by itself; refresh() (the "Check again"
 * button) connects at once and may start the daemon.
 */
class DaemonStatus : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(bool connected READ connected NOTIFY statusChanged)
    Q_PROPERTY(QString version READ version NOTIFY statusChanged)
    Q_PROPERTY(QString error READ error NOTIFY statusChanged)
    Q_PROPERTY(bool checking READ checking NOTIFY checkingChanged)

public:
    explicit DaemonStatus(QObject *parent = nullptr);

    bool connected() const { return m_connected; }
    /** The daemon's version from its hello; empty while not connected. */
    QString version() const { return m_version; }
    /** Why the daemon is not connected, one sentence; empty when connected. */
    QString error() const { return m_error; }
    /** True while connecting (or starting the daemon). */
    bool checking() const { return m_checking; }

    /** The connection itself, for the view models that make calls and follow events. */
    api::DaemonClient *client() { return &m_client; }

    /** Connects now, starting paddockd if nothing answers. Returns at once. */
    Q_INVOKABLE void refresh();

Q_SIGNALS:
    void statusChanged();
    void checkingChanged();

private:
    void connectToDaemon(bool startIfNeeded);
    void onConnected();
    void onConnectionFailed(const QString &message);
    void onDisconnected();
    void setStatus(bool connected, const QString &version, const QString &error);
    void setChecking(bool checking);

    api::DaemonClient m_client;
    QTimer m_lookAgain;
    bool m_connected = false;
    bool m_checking = false;
    QString m_version;
    QString m_error;
};

} // namespace paddock::gui
