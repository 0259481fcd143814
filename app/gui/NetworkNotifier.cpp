// SPDX-License-Identifier: GPL-3.0-or-later
#include "NetworkNotifier.h"

#include "DesktopNotifications.h"
#include "NetworkPolicy.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QLoggingCategory>
#include <QSettings>

Q_LOGGING_CATEGORY(lcNotifier, "paddock.gui.notifications", QtInfoMsg)

namespace paddock::gui {
namespace {

const QString kAllowAction = QStringLiteral("allow");
const QString kSettingsKey = QStringLiteral("network/notifications");

} // namespace

NetworkNotifier::NetworkNotifier(QObject *parent) : QObject(parent)
{
    m_enabled = QSettings().value(kSettingsKey, true).toBool();
}

void NetworkNotifier::setPolicy(NetworkPolicy *policy)
{
    if (m_policy == policy)
        return;
    if (m_policy)
        m_policy->denials()->disconnect(this);
    m_policy = policy;
    if (m_policy)
        connect(m_policy->denials(), &DenialsModel::denied, this,
                [this](const QString &host, const QString &sandbox, int port, bool) { onDenied(host, sandbox, port); });
    if (m_policy)
        connect(m_policy->denials(), &DenialsModel::secretNotSent, this, &NetworkNotifier::onSecretNotSent);
    emit policyChanged();
}

void NetworkNotifier::setEnabled(bool enabled)
{
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    QSettings().setValue(kSettingsKey, enabled);
    emit enabledChanged();
}

void NetworkNotifier::setWindowActive(bool active)
{
    if (active == m_windowActive)
        return;
    m_windowActive = active;
    emit windowActiveChanged();
}

void NetworkNotifier::onDenied(const QString &host, const QString &sandbox, int port)
{
    if (!m_enabled || m_windowActive)
        return;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto last = m_lastSent.constFind(host);
    if (last != m_lastSent.cend() && last.value().msecsTo(now) < kPerHostIntervalMs)
        return;
    if (!desktop::listenForNotifications(this, &m_listening))
        return;
    m_lastSent.insert(host, now);

    const QString summary = tr("Paddock refused %1").arg(host);
    const QString body = sandbox.isEmpty() ? tr("A connection to %1 was refused.").arg(host)
                                           : tr("Sandbox %1 tried to reach %2.").arg(sandbox, host);
    const QDBusMessage message = desktop::notifyMessage(summary, body, {kAllowAction, tr("Allow")});
    auto *watcher = new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(message), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, watcher, host, sandbox, port](QDBusPendingCallWatcher *) {
                watcher->deleteLater();
                const QDBusPendingReply<uint> reply = *watcher;
                if (reply.isError()) {
                    qCInfo(lcNotifier).noquote() << "no notification shown:" << reply.error().message();
                    return;
                }
                m_shown.insert(reply.value(), {host, sandbox, port});
                ++m_sentCount;
                emit sent(host);
            });
}

void NetworkNotifier::onSecretNotSent(const QString &service, const QString &sandbox, const QString &reason)
{
    const QString key = QStringLiteral("secret ") + service;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto last = m_lastSent.constFind(key);
    if (!m_enabled || (last != m_lastSent.cend() && last.value().msecsTo(now) < kPerHostIntervalMs))
        return;
    m_lastSent.insert(key, now);
    // The reason reads "the SERVICE key was not sent: COMMAND failed: …": the command's part leads.
    const qsizetype colon = reason.indexOf(QLatin1String(": "));
    const QString summary = colon > 0 ? reason.mid(colon + 2).left(200) : tr("The %1 key was not sent").arg(service);
    const QString body = tr("Sandbox %1's request went without its %2 key and was refused.").arg(sandbox, service);
    const QDBusMessage message = desktop::notifyMessage(summary, body, {});
    auto *watcher = new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(message), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher, key](QDBusPendingCallWatcher *) {
        watcher->deleteLater();
        const QDBusPendingReply<uint> reply = *watcher;
        if (reply.isError()) {
            qCInfo(lcNotifier).noquote() << "no notification shown:" << reply.error().message();
            return;
        }
        ++m_sentCount;
        emit sent(key);
    });
}

void NetworkNotifier::onActionInvoked(uint id, const QString &action)
{
    const auto it = m_shown.constFind(id);
    if (it == m_shown.cend() || action != kAllowAction)
        return;
    const Pending pending = it.value();
    m_shown.erase(it);
    // The narrowest choice, as the page's Allow popup proposes first.
    if (m_policy)
        m_policy->allow(pending.host, pending.port, pending.sandbox, QStringLiteral("sandbox"),
                        QStringLiteral("exact"));
    emit allowInvoked(pending.host, pending.sandbox);
}

void NetworkNotifier::onClosed(uint id, uint)
{
    m_shown.remove(id);
}

} // namespace paddock::gui
