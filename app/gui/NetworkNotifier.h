// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NetworkPolicy.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief A desktop notification for each newly refused host while the window is in the
 * background, with an "Allow" button that allows it the narrowest way (that sandbox, that
 * exact host).
 *
 * Talks to org.freedesktop.Notifications on the session bus, without waiting for it. At most
 * one notification per host per minute, none while the window is active, none when switched
 * off (the page's switch, remembered in the settings).
 */
class NetworkNotifier : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::NetworkPolicy *policy READ policy WRITE setPolicy NOTIFY policyChanged)
    Q_PROPERTY(bool enabled READ enabled WRITE setEnabled NOTIFY enabledChanged)
    Q_PROPERTY(bool windowActive READ windowActive WRITE setWindowActive NOTIFY windowActiveChanged)
    Q_PROPERTY(int sentCount READ sentCount NOTIFY sent)

public:
    /** The shortest time between two notifications about the same host. */
    static constexpr qint64 kPerHostIntervalMs = 60 * 1000;

    explicit NetworkNotifier(QObject *parent = nullptr);

    NetworkPolicy *policy() const { return m_policy; }
    void setPolicy(NetworkPolicy *policy);
    bool enabled() const { return m_enabled; }
    void setEnabled(bool enabled);
    bool windowActive() const { return m_windowActive; }
    void setWindowActive(bool active);
    int sentCount() const { return m_sentCount; }

    /** Notifies about a refusal of @p host for @p sandbox if the rules above allow it. */
    void onDenied(const QString &host, const QString &sandbox, int port);
    /**
     * Notifies that a request went without its key because the command (or reference) of
     * @p service failed, with @p reason; at most once a minute per service, also while the
     * window is active (nothing on the page says it), none when switched off.
     */
    void onSecretNotSent(const QString &service, const QString &sandbox, const QString &reason);

Q_SIGNALS:
    void policyChanged();
    void enabledChanged();
    void windowActiveChanged();
    /** A notification went out about @p host. */
    void sent(const QString &host);
    /** The user pressed Allow in the notification about @p host. */
    void allowInvoked(const QString &host, const QString &sandbox);

private Q_SLOTS:
    void onActionInvoked(uint id, const QString &action);
    void onClosed(uint id, uint reason);

private:
    struct Pending
    {
        QString host;
        QString sandbox;
        int port = 0;
    };

    QPointer<NetworkPolicy> m_policy;
    bool m_enabled = true;
    bool m_windowActive = false;
    bool m_listening = false;
    int m_sentCount = 0;
    QHash<QString, QDateTime> m_lastSent; ///< host (or "secret SERVICE") → when
    QHash<uint, Pending> m_shown;         ///< notification id → what it is about
};

} // namespace paddock::gui
