// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QJsonObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The Network page's "Upstream proxy" section: the company proxy every connection out
 * goes through, where it comes from (Paddock's settings, the environment, the desktop), the
 * hosts that go around it, and whether a password is set, as the daemon's `settings.get`
 * says; saving goes through `settings.set` and is in force when it answers. The password is
 * sent to the daemon, which keeps it in the keychain; it is never read back.
 */
class UpstreamProxySettings : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool loaded READ loaded NOTIFY settingsChanged)
    Q_PROPERTY(QString url READ url NOTIFY settingsChanged)
    Q_PROPERTY(QString source READ source NOTIFY settingsChanged)
    Q_PROPERTY(QString noProxy READ noProxy NOTIFY settingsChanged)
    Q_PROPERTY(bool passwordSet READ passwordSet NOTIFY settingsChanged)
    Q_PROPERTY(QString problem READ problem NOTIFY settingsChanged)
    Q_PROPERTY(QString fileUrl READ fileUrl NOTIFY settingsChanged)
    Q_PROPERTY(QString fileNoProxy READ fileNoProxy NOTIFY settingsChanged)
    Q_PROPERTY(QString summary READ summary NOTIFY settingsChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    explicit UpstreamProxySettings(QObject *parent = nullptr);

    bool loaded() const { return m_loaded; }
    QString url() const { return m_url; }
    QString source() const { return m_source; }
    QString noProxy() const { return m_noProxy; }
    bool passwordSet() const { return m_passwordSet; }
    QString problem() const { return m_problem; }
    QString fileUrl() const { return m_fileUrl; }
    QString fileNoProxy() const { return m_fileNoProxy; }
    /** One sentence for the section: what is in force and where it comes from. */
    QString summary() const;
    bool busy() const { return m_busy; }

    /**
     * Saves the proxy URL and the hosts that go around it (empty: removes the setting), and
     * the password when @p password is not empty; answers through saved(ok, message).
     */
    Q_INVOKABLE void save(const QString &url, const QString &noProxy, const QString &password);
    /** Removes the password from the keychain. */
    Q_INVOKABLE void forgetPassword();

Q_SIGNALS:
    void settingsChanged();
    void busyChanged();
    void saved(bool ok, const QString &message);

protected:
    void daemonConnected() override { load(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    void load();
    void apply(const QJsonObject &settings);
    /** Runs the calls in @p steps one after the other, stopping at the first refusal. */
    void runSteps(QList<QPair<QString, QJsonObject>> steps, const QString &doneMessage);
    void setBusy(bool busy);

    bool m_loaded = false;
    QString m_url;
    QString m_source;
    QString m_noProxy;
    bool m_passwordSet = false;
    QString m_problem;
    QString m_fileUrl;
    QString m_fileNoProxy;
    bool m_busy = false;
};

} // namespace paddock::gui
