// SPDX-License-Identifier: GPL-3.0-or-later
#include "DaemonStatus.h"

#include <QLoggingCategory>

// Quiet unless asked for (QT_LOGGING_RULES): a window has no business printing chatter.
Q_LOGGING_CATEGORY(lcDaemonStatus, "paddock.gui.daemonstatus", QtWarningMsg)

namespace paddock::gui {
namespace {
// Often enough that a daemon started from a terminal appears without a click, rarely
// enough to cost nothing.
constexpr int kLookAgainIntervalMs = 5000;
} // namespace

DaemonStatus::DaemonStatus(QObject *parent) : QObject(parent)
{
    connect(&m_client, &api::DaemonClient::connected, this, &DaemonStatus::onConnected);
    connect(&m_client, &api::DaemonClient::connectionFailed, this, &DaemonStatus::onConnectionFailed);
    connect(&m_client, &api::DaemonClient::disconnected, this, &DaemonStatus::onDisconnected);
    m_lookAgain.setSingleShot(true);
    m_lookAgain.setInterval(kLookAgainIntervalMs);
    connect(&m_lookAgain, &QTimer::timeout, this, [this] { connectToDaemon(false); });
    // Once the event loop runs, so that creating the singleton never waits for anything.
    QTimer::singleShot(0, this, [this] { connectToDaemon(true); });
}

void DaemonStatus::refresh()
{
    connectToDaemon(true);
}

void DaemonStatus::connectToDaemon(bool startIfNeeded)
{
    if (m_client.state() != api::DaemonClient::State::Disconnected)
        return;
    m_lookAgain.stop();
    m_client.setStartOnDemand(startIfNeeded);
    setChecking(true);
    m_client.connectToDaemon();
}

void DaemonStatus::onConnected()
{
    qCInfo(lcDaemonStatus) << "connected to" << m_client.server().name << m_client.server().version << "pid"
                           << m_client.server().pid;
    setStatus(true, m_client.server().version, QString());
    setChecking(false);
}

void DaemonStatus::onConnectionFailed(const QString &message)
{
    qCDebug(lcDaemonStatus) << "no daemon:" << message;
    setStatus(false, QString(), message);
    setChecking(false);
    m_lookAgain.start();
}

void DaemonStatus::onDisconnected()
{
    qCInfo(lcDaemonStatus) << "the daemon connection closed";
    setStatus(false, QString(), tr("The connection to paddockd closed."));
    setChecking(false);
    m_lookAgain.start();
}

void DaemonStatus::setStatus(bool connected, const QString &version, const QString &error)
{
    if (connected == m_connected && version == m_version && error == m_error)
        return;
    m_connected = connected;
    m_version = version;
    m_error = error;
    Q_EMIT statusChanged();
}

void DaemonStatus::setChecking(bool checking)
{
    if (checking == m_checking)
        return;
    m_checking = checking;
    Q_EMIT checkingChanged();
}

} // namespace paddock::gui
