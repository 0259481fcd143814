// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QString>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The container engines Docker sandboxes run on, for the Sandboxes page's "Container
 * engines" section: listed with `engine.list` (followed on the `engines` topic), the one in use
 * chosen with `engine.use`; the daemon's refusal in `error`.
 */
class EngineSettings : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    /** Each engine: {name, source, host, where (a sentence), inUse, dockerCurrent}. */
    Q_PROPERTY(QVariantList engines READ engines NOTIFY enginesChanged)
    Q_PROPERTY(QString inUse READ inUse NOTIFY enginesChanged)
    Q_PROPERTY(QString problems READ problems NOTIFY enginesChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    explicit EngineSettings(QObject *parent = nullptr);

    QVariantList engines() const { return m_engines; }
    QString inUse() const { return m_inUse; }
    QString problems() const { return m_problems; }
    bool busy() const { return m_busy; }

    Q_INVOKABLE void reload();
    /** Docker sandboxes created from now on run on engine @p name. */
    Q_INVOKABLE void use(const QString &name);

Q_SIGNALS:
    void enginesChanged();
    void busyChanged();

protected:
    void daemonConnected() override { reload(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    void apply(const QJsonObject &listed);
    void setBusy(bool busy);

    QVariantList m_engines;
    QString m_inUse;
    QString m_problems;
    bool m_busy = false;
};

} // namespace paddock::gui
