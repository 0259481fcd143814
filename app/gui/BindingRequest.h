// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief What the binding dialog asks: which credentials of a kit would send a key to
 * domains not approved yet, and the approval itself, through the daemon's `binding.check`
 * and `binding.approve` (the same as `paddock binding approve --kit DIR SERVICE...`).
 *
 * Each entry of @c pending is a `binding.check` credential: service, description, required,
 * domains, newDomains, wildcard.
 */
class BindingRequest : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString kitDirectory READ kitDirectory WRITE setKitDirectory NOTIFY kitDirectoryChanged)
    Q_PROPERTY(QString kitName READ kitName WRITE setKitName NOTIFY kitNameChanged)
    Q_PROPERTY(QVariantList pending READ pending WRITE setPending NOTIFY pendingChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    explicit BindingRequest(QObject *parent = nullptr);

    QString kitDirectory() const { return m_kitDirectory; }
    void setKitDirectory(const QString &directory);
    QString kitName() const { return m_kitName; }
    void setKitName(const QString &name);
    QVariantList pending() const { return m_pending; }
    void setPending(const QVariantList &pending);
    bool busy() const { return m_busy; }

    /** Asks binding.check for the kit; @c pending becomes its credentials not approved yet. */
    Q_INVOKABLE void check();
    /** Approves @p services (every pending one when empty); emits approved() or failed(). */
    Q_INVOKABLE void approve(const QStringList &services = {});
    /** Whether @p domain is a pattern ("*.example.com") that sends the key to many hosts. */
    Q_INVOKABLE static bool isWildcard(const QString &domain);
    /** The command that approves every credential of the kit in @p kitDirectory, for later. */
    Q_INVOKABLE static QString approveCommand(const QString &kitDirectory);

Q_SIGNALS:
    void kitDirectoryChanged();
    void pendingChanged();
    void kitNameChanged();
    void busyChanged();
    void checked();
    void approved(const QStringList &services);
    void failed(const QString &message);

private:
    void setBusy(bool busy);

    QString m_kitDirectory;
    QString m_kitName;
    QVariantList m_pending;
    bool m_busy = false;
};

} // namespace paddock::gui
