// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QString>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief What a sandbox changed among the workspace files the host runs or trusts (hooks,
 * `.git/config`, `Makefile`, CI files...), for the row's Review dialog: `sandbox.review`, as
 * `paddock review NAME` shows it, and `sandbox.revert` to put one back.
 *
 * Each change is a map {path, change: added|modified|removed, what, diff, revertible}.
 */
class SandboxReview : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString name READ name WRITE setName NOTIFY nameChanged)
    Q_PROPERTY(QVariantList changes READ changes NOTIFY changesChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY changesChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString message READ message NOTIFY messageChanged)

public:
    explicit SandboxReview(QObject *parent = nullptr);

    QString name() const { return m_name; }
    void setName(const QString &name);
    QVariantList changes() const { return m_changes; }
    bool loaded() const { return m_loaded; }
    bool busy() const { return m_busy; }
    QString message() const { return m_message; }

    /** Asks the daemon again what changed. */
    Q_INVOKABLE void refresh();
    /** Puts @p path back as it was when the sandbox started, then refreshes. */
    Q_INVOKABLE void revert(const QString &path);

Q_SIGNALS:
    void nameChanged();
    void changesChanged();
    void busyChanged();
    void messageChanged();

private:
    void setBusy(bool busy);
    void setMessage(const QString &message);

    QString m_name;
    QVariantList m_changes;
    bool m_loaded = false;
    bool m_busy = false;
    QString m_message;
    quint64 m_generation = 0; ///< answers for an earlier name or refresh are dropped
};

} // namespace paddock::gui
