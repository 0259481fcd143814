// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QString>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The container engines Docker sandboxes run on, for the Sandboxes page's "Container
 * engines" section and the wizard's choice of engine: listed with `engine.list` (followed on the
 * `engines` topic), added with `engine.add` (its refusal in `addError`, for the dialog that
 * asked), removed with `engine.remove`, the one in use chosen with `engine.use`; the daemon's
 * other refusals in `error`.
 */
class EngineSettings : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    /**
     * Each engine: {name, source (a phrase), host, where (a sentence), onThisComputer, inUse,
     * dockerCurrent, removable (added in Paddock)}.
     */
    Q_PROPERTY(QVariantList engines READ engines NOTIFY enginesChanged)
    Q_PROPERTY(QString inUse READ inUse NOTIFY enginesChanged)
    Q_PROPERTY(QString problems READ problems NOTIFY enginesChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    /** Why the last add() was refused, in the daemon's words; empty once one succeeds or starts. */
    Q_PROPERTY(QString addError READ addError NOTIFY addErrorChanged)

public:
    explicit EngineSettings(QObject *parent = nullptr);

    QVariantList engines() const { return m_engines; }
    QString inUse() const { return m_inUse; }
    QString problems() const { return m_problems; }
    bool busy() const { return m_busy; }
    QString addError() const { return m_addError; }

    Q_INVOKABLE void reload();
    /** Docker sandboxes created from now on run on engine @p name. */
    Q_INVOKABLE void use(const QString &name);
    /**
     * `paddock engine add`: engine @p name at @p host, with the TLS files of a tcp:// engine (empty
     * when none) and @p remote for one that shares no folder with this computer. The daemon
     * checks it and asks the engine; added() or addError tells.
     */
    Q_INVOKABLE void add(const QString &name, const QString &host, const QString &tlsCa, const QString &tlsCert,
                         const QString &tlsKey, bool remote);
    /** `paddock engine rm`: an engine added in Paddock on which no sandbox runs. */
    Q_INVOKABLE void remove(const QString &name);
    /** The local path of a file chosen in a FileDialog. */
    Q_INVOKABLE QString pathOf(const QUrl &url) const { return url.toLocalFile(); }

Q_SIGNALS:
    void enginesChanged();
    void busyChanged();
    void addErrorChanged();
    void added(const QString &name);

protected:
    void daemonConnected() override { reload(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    void apply(const QJsonObject &listed);
    void setBusy(bool busy);
    void setAddError(const QString &error);

    QVariantList m_engines;
    QString m_inUse;
    QString m_problems;
    bool m_busy = false;
    QString m_addError;
};

} // namespace paddock::gui
