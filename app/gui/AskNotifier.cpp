// SPDX-License-Identifier: GPL-3.0-or-later
#include "AskNotifier.h"
#include "DesktopNotifications.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcAskNotifier, "paddock.gui.notifications.asks", QtInfoMsg)

namespace paddock::gui {
namespace {

const QString kAllowAction = QStringLiteral("allow");
const QString kDenyAction = QStringLiteral("deny");

} // namespace

AskNotifier::AskNotifier(QObject *parent) : QObject(parent) {}

void AskNotifier::setAsks(AskModel *asks)
{
    if (m_asks == asks)
        return;
    if (m_asks)
        m_asks->disconnect(this);
    m_asks = asks;
    if (m_asks) {
        connect(m_asks, &AskModel::held, this, &AskNotifier::onHeld);
        connect(m_asks, &AskModel::ended, this, &AskNotifier::onEnded);
    }
    emit asksChanged();
}

void AskNotifier::setEnabled(bool enabled)
{
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    emit enabledChanged();
}

void AskNotifier::setWindowActive(bool active)
{
    if (active == m_windowActive)
        return;
    m_windowActive = active;
    emit windowActiveChanged();
}

bool AskNotifier::listen()
{
    return desktop::listenForNotifications(this, &m_listening);
}

void AskNotifier::onHeld(const QString &id)
{
    if (!m_enabled || m_windowActive || !m_asks || !listen())
        return;
    const QVariantMap ask = m_asks->get(m_asks->rowOf(id));
    if (ask.isEmpty())
        return;
    const QString destination = QStringLiteral("%1:%2")
                                    .arg(ask.value(QStringLiteral("host")).toString())
                                    .arg(ask.value(QStringLiteral("port")).toInt());
    const int seconds = ask.value(QStringLiteral("secondsLeft")).toInt();
    const QString summary =
        tr("Sandbox %1 waits to reach %2").arg(ask.value(QStringLiteral("sandbox")).toString(), destination);
    const QString body = tr("No rule covers it. Answer within %n second(s), or it is refused.", nullptr, seconds);
    // Gone by itself when the wait is over; closed earlier when the ASK ends.
    const QDBusMessage message =
        desktop::notifyMessage(summary, body, {kAllowAction, tr("Allow once"), kDenyAction, tr("Deny")},
                               {{QStringLiteral("urgency"), QVariant::fromValue(uchar(2))}}, seconds * 1000);
    auto *watcher = new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(message), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher, id](QDBusPendingCallWatcher *) {
        watcher->deleteLater();
        const QDBusPendingReply<uint> reply = *watcher;
        if (reply.isError()) {
            qCInfo(lcAskNotifier).noquote() << "no notification shown:" << reply.error().message();
            m_ending.remove(id);
            return;
        }
        m_shown.insert(reply.value(), id);
        emit shownChanged();
        // Answered while the notification was on its way: it goes at once.
        if (m_ending.take(id))
            onEnded(id);
    });
    m_ending.insert(id, false);
}

void AskNotifier::onEnded(const QString &id)
{
    const uint notification = m_shown.key(id, 0);
    if (notification == 0) {
        if (m_ending.contains(id))
            m_ending.insert(id, true);
        return;
    }
    m_shown.remove(notification);
    m_ending.remove(id);
    emit shownChanged();
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected())
        bus.asyncCall(QDBusMessage::createMethodCall(desktop::kService, desktop::kPath, desktop::kInterface,
                                                     QStringLiteral("CloseNotification"))
                      << notification);
}

void AskNotifier::onActionInvoked(uint notification, const QString &action)
{
    const auto it = m_shown.constFind(notification);
    if (it == m_shown.cend() || (action != kAllowAction && action != kDenyAction))
        return;
    const QString id = it.value();
    if (m_asks)
        m_asks->answer(id, action);
    emit actionInvoked(id, action);
}

void AskNotifier::onClosed(uint notification, uint)
{
    if (m_shown.remove(notification) > 0)
        emit shownChanged();
}

} // namespace paddock::gui
