// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include "env/EnvPlan.h"

#include <QString>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief An environment file (sbxenv.yaml) opened in the window: the plan `paddock env plan`
 * prints (env/EnvPlan.h), and bringing it up through the daemon as `paddock env up` does.
 *
 * `hostCommands` lists the commands `up` runs on this computer, each a map {phase, name,
 * command (the exact text), approved}; bringUp() runs none the person has not approved, by
 * ticking it, in this window or before.
 */
class EnvironmentPlan : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString file READ file NOTIFY planChanged)
    Q_PROPERTY(QString planText READ planText NOTIFY planChanged)
    Q_PROPERTY(bool ok READ ok NOTIFY planChanged)
    Q_PROPERTY(QVariantList hostCommands READ hostCommands NOTIFY planChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString message READ message NOTIFY messageChanged)

public:
    explicit EnvironmentPlan(QObject *parent = nullptr);

    QString file() const { return m_file; }
    QString planText() const { return m_planText; }
    bool ok() const { return m_plan && m_plan->ok() && !m_kitDirectory.isEmpty(); }
    QVariantList hostCommands() const { return m_hostCommands; }
    bool busy() const { return m_busy; }
    QString message() const { return m_message; }

    /** Reads and plans @p fileOrUrl (a path or a file: URL); false with `error` when it cannot be read. */
    Q_INVOKABLE bool open(const QString &fileOrUrl);
    /**
     * Approves the host commands at @p ticked (indexes into hostCommands), then, when every one
     * is approved and the file still says what was shown, creates and starts the sandbox with
     * its services and runs its initialize and postCreate commands.
     */
    Q_INVOKABLE void bringUp(const QVariantList &ticked);

Q_SIGNALS:
    void planChanged();
    void busyChanged();
    void messageChanged();
    void broughtUp(const QString &name);

private:
    void setBusy(bool busy);
    void setMessage(const QString &message);
    bool approveTicked(const QVariantList &ticked);
    bool runPhase(const QString &phase);
    void addServices(qsizetype next);
    void finish(const QString &problem);

    QString m_file;
    std::optional<env::EnvPlan> m_plan;
    QString m_kitDirectory;
    QString m_planText;
    QVariantList m_hostCommands;
    bool m_busy = false;
    QString m_message;
};

} // namespace paddock::gui
