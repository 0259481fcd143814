// SPDX-License-Identifier: GPL-3.0-or-later
// What the window's notifiers share: the desktop's notification server (org.freedesktop.
// Notifications on the session bus), its signals, and a Notify call from Paddock.
#pragma once

#include <QDBusConnection>
#include <QDBusMessage>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace paddock::gui::desktop {

inline const QString kService = QStringLiteral("org.freedesktop.Notifications");
inline const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
inline const QString kInterface = QStringLiteral("org.freedesktop.Notifications");

/**
 * Connects @p receiver's slots `onActionInvoked(uint, QString)` and `onClosed(uint, uint)` to
 * the server's signals, once (@p listening remembers it). False when there is no session bus.
 */
inline bool listenForNotifications(QObject *receiver, bool *listening)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return false;
    if (!*listening) {
        bus.connect(kService, kPath, kInterface, QStringLiteral("ActionInvoked"), receiver,
                    SLOT(onActionInvoked(uint, QString)));
        bus.connect(kService, kPath, kInterface, QStringLiteral("NotificationClosed"), receiver,
                    SLOT(onClosed(uint, uint)));
        *listening = true;
    }
    return true;
}

/** A new notification from Paddock; @p actions alternate key and label; @p timeoutMs -1: the server's. */
inline QDBusMessage notifyMessage(const QString &summary, const QString &body, const QStringList &actions,
                                  const QVariantMap &hints = {}, int timeoutMs = -1)
{
    QDBusMessage message = QDBusMessage::createMethodCall(kService, kPath, kInterface, QStringLiteral("Notify"));
    message << QStringLiteral("Paddock") << uint(0) << QStringLiteral("paddock") << summary << body << actions << hints
            << timeoutMs;
    return message;
}

} // namespace paddock::gui::desktop
