// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "AskModel.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief A desktop notification for each connection that starts waiting for an answer while
 * the window is in the background, with the buttons "Allow once" and "Deny".
 *
 * Talks to org.freedesktop.Notifications on the session bus, as NetworkNotifier does, without
 * waiting for it. The notification is closed when its ASK ends, however it was answered. None
 * while the window is active (the prompt asks there) or when `enabled` is false.
 */
class AskNotifier : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::AskModel *asks READ asks WRITE setAsks NOTIFY asksChanged)
    Q_PROPERTY(bool enabled READ enabled WRITE setEnabled NOTIFY enabledChanged)
    Q_PROPERTY(bool windowActive READ windowActive WRITE setWindowActive NOTIFY windowActiveChanged)
    Q_PROPERTY(int shownCount READ shownCount NOTIFY shownChanged)

public:
    explicit AskNotifier(QObject *parent = nullptr);

    AskModel *asks() const { return m_asks; }
    void setAsks(AskModel *asks);
    bool enabled() const { return m_enabled; }
    void setEnabled(bool enabled);
    bool windowActive() const { return m_windowActive; }
    void setWindowActive(bool active);
    /** How many notifications are on the screen now. */
    int shownCount() const { return int(m_shown.size()); }

    /** Notifies about the ASK @p id if the rules above allow it. */
    void onHeld(const QString &id);
    /** Closes the notification about @p id, if there is one. */
    void onEnded(const QString &id);

Q_SIGNALS:
    void asksChanged();
    void enabledChanged();
    void windowActiveChanged();
    /** A notification was shown or closed. */
    void shownChanged();
    /** The user pressed a button of the notification about @p id: allow or deny. */
    void actionInvoked(const QString &id, const QString &decision);

private Q_SLOTS:
    void onActionInvoked(uint notification, const QString &action);
    void onClosed(uint notification, uint reason);

private:
    bool listen();

    QPointer<AskModel> m_asks;
    bool m_enabled = true;
    bool m_windowActive = false;
    bool m_listening = false;
    QHash<uint, QString> m_shown;  ///< notification id → ASK id
    QHash<QString, bool> m_ending; ///< ASK id → it ended while its notification was on its way
};

} // namespace paddock::gui
