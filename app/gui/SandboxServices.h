// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QString>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The companion services of one sandbox for the "Services…" dialog: listed with
 * `service.list`, added and removed with `service.add` and `service.remove`, the daemon's
 * refusal (no Docker engine, an image it does not have, a wrong name) in `error`.
 */
class SandboxServices : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString name READ name WRITE setName NOTIFY nameChanged)
    /** Each service: {name, image, ports (text), env (names, text)}. */
    Q_PROPERTY(QVariantList services READ services NOTIFY servicesChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    explicit SandboxServices(QObject *parent = nullptr);

    QString name() const { return m_name; }
    void setName(const QString &name);
    QVariantList services() const { return m_services; }
    bool busy() const { return m_busy; }

    /** Reads the sandbox's services again. */
    Q_INVOKABLE void reload();
    /**
     * Asks the daemon to add service @p service from @p image, reached at @p port, with the
     * `NAME=VALUE` lines of @p envText; false (and `error`) when the form is not usable.
     */
    Q_INVOKABLE bool add(const QString &service, const QString &image, const QString &port, const QString &envText);
    /** Asks the daemon to remove service @p service (and its volumes). */
    Q_INVOKABLE void remove(const QString &service);

Q_SIGNALS:
    void nameChanged();
    void servicesChanged();
    void busyChanged();
    /** The daemon added or removed @p service. */
    void changed(const QString &service);

protected:
    void daemonConnected() override { reload(); }

private:
    void setBusy(bool busy);
    void done(const QString &service, const api::Reply &reply);

    QString m_name;
    QVariantList m_services;
    bool m_busy = false;
};

} // namespace paddock::gui
