// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"
#include "kit/KitShares.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <optional>

namespace paddock::gui {

/**
 * @brief The wizard's shared folders and variables (what `--mount` and `--env` give on the
 * command line), starting from the kit's own (`paddock kit share`), each checked by the daemon
 * (`sandbox.checkShares`) as it is added, so a refused folder says why before Create.
 *
 * With rememberForKit the list becomes the kit's settings when the sandbox is created; without,
 * it is this sandbox's only and the kit's settings stay as they are. The wizard gives it its
 * daemon (followDaemonOf()).
 */
class WizardShares : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("the wizard owns it")
    /** [{host, inside, writable, text, problem, warning}] */
    Q_PROPERTY(QVariantList folders READ folders NOTIFY changed)
    /** [{name, value, problem}] */
    Q_PROPERTY(QVariantList variables READ variables NOTIFY changed)
    Q_PROPERTY(bool rememberForKit READ rememberForKit WRITE setRememberForKit NOTIFY changed)
    /** Nothing refused and nothing being checked: the wizard may go on. */
    Q_PROPERTY(bool ready READ ready NOTIFY changed)
    /** One line for the review; empty when nothing is shared. */
    Q_PROPERTY(QString summary READ summary NOTIFY changed)
    /** Why the last entry could not be added (its syntax), else empty. */
    Q_PROPERTY(QString entryError READ entryError NOTIFY changed)

public:
    explicit WizardShares(QObject *parent = nullptr);

    /** The kit and the project folder; a new kit starts again from its own shares. */
    void setContext(const QString &kitDirectory, const QString &workspace);

    QVariantList folders() const;
    QVariantList variables() const;
    bool rememberForKit() const { return m_rememberForKit; }
    void setRememberForKit(bool remember);
    bool ready() const;
    QString summary() const;
    QString entryError() const { return m_entryError; }

    /** Adds @p host (a path, `~/...`, or a file: URL) at @p inside (empty: the same path). */
    Q_INVOKABLE void addFolder(const QString &host, const QString &inside, bool readOnly);
    /** The host folder chosen in a FolderDialog, at the same path inside. */
    Q_INVOKABLE QString pathOfUrl(const QUrl &url) const;
    Q_INVOKABLE void removeFolder(int index);
    /** Where the folder chooser opens: the home folder. */
    Q_INVOKABLE QUrl homeUrl() const;
    /** Adds `NAME=VALUE`. */
    Q_INVOKABLE void addVariable(const QString &text);
    Q_INVOKABLE void removeVariable(int index);
    /** Back to nothing (a new wizard). */
    void clear();

    /** The `mounts` and `env` params of `sandbox.create`. */
    QJsonArray mountsJson() const;
    QJsonObject envJson() const;
    /** With rememberForKit, the params of `kit.shares.set` that keep the lists as the kit's settings. */
    std::optional<QJsonObject> kitSharesParams() const;

Q_SIGNALS:
    void changed();

private:
    struct Folder
    {
        kit::SharedFolder folder;
        QString problem;
        QString warning;
    };
    struct Variable
    {
        QString name;
        QString value;
        QString problem;
    };
    void check();
    void applyCheck(const api::Reply &reply);

    QString m_kitDirectory;
    QString m_workspace;
    QList<Folder> m_folders;
    QList<Variable> m_variables;
    bool m_rememberForKit = false;
    bool m_checking = false;
    quint64 m_generation = 0;
    QString m_entryError;
};

} // namespace paddock::gui
