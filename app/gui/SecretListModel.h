// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonStatus.h"

#include <QAbstractListModel>
#include <QDateTime>
#include <QJsonObject>
#include <QPointer>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The provider keys in the keychain, for the Secrets page: each service with its scope
 * and its value masked, and whether a keychain can be reached at all.
 *
 * Everything goes through the daemon (`keychain.status`, `secret.list`, `secret.set`,
 * `secret.remove`), which holds the keychain; this model never sees a stored value. A value
 * typed in the page is handed to set() and sent once; the page clears its field.
 */
class SecretListModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::DaemonStatus *daemon READ daemon WRITE setDaemon NOTIFY daemonChanged)
    Q_PROPERTY(bool keychainKnown READ keychainKnown NOTIFY keychainChanged)
    Q_PROPERTY(bool keychainAvailable READ keychainAvailable NOTIFY keychainChanged)
    Q_PROPERTY(QString keychainMessage READ keychainMessage NOTIFY keychainChanged)
    Q_PROPERTY(QString keychainInstall READ keychainInstall NOTIFY keychainChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY loadedChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    enum Role {
        ServiceRole = Qt::UserRole + 1,
        SandboxRole,
        MaskedRole,
        PresentRole,
        UpdatedRole,
        DisplayNameRole
    };
    Q_ENUM(Role)

    explicit SecretListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    DaemonStatus *daemon() const { return m_daemon; }
    void setDaemon(DaemonStatus *daemon);
    bool keychainKnown() const { return m_keychainKnown; }
    bool keychainAvailable() const { return m_keychainAvailable; }
    QString keychainMessage() const { return m_keychainMessage; }
    QString keychainInstall() const { return m_keychainInstall; }
    bool busy() const { return m_busy > 0; }
    bool loaded() const { return m_loaded; }
    QString error() const { return m_error; }
    int count() const { return int(m_rows.size()); }

    /** Asks keychain.status and secret.list again. */
    Q_INVOKABLE void refresh();
    /** Stores (or replaces) the key of @p service, global when @p sandbox is empty. */
    Q_INVOKABLE void set(const QString &service, const QString &sandbox, QString value);
    Q_INVOKABLE void remove(const QString &service, const QString &sandbox);
    /** Whether @p name is usable as a service or sandbox name (letters, digits, '.', '_', '-'). */
    Q_INVOKABLE static bool isValidName(const QString &name);

    // What the daemon answers, handed in as it arrives (refresh() does).
    /** A `keychain.status` answer: whether a keychain answers, and what to install when none does. */
    void applyKeychainStatus(const QJsonObject &status);
    /** A `secret.list` answer: one row per stored key, its value masked. */
    void applySecretList(const QJsonObject &result);

Q_SIGNALS:
    void daemonChanged();
    void keychainChanged();
    void busyChanged();
    void loadedChanged();
    void errorChanged();
    void countChanged();
    /** An action finished; @p message is one sentence for the page. */
    void actionSucceeded(const QString &message);
    void actionFailed(const QString &message);

private:
    struct Row
    {
        QString service;
        QString sandbox;
        QString masked;
        bool present = false;
        QDateTime updated;
    };

    void onStatusChanged();
    void setError(const QString &error);
    void changeBusy(int delta);
    void setKeychain(bool known, bool available, const QString &message, const QString &install);

    QPointer<DaemonStatus> m_daemon;
    QList<Row> m_rows;
    bool m_keychainKnown = false;
    bool m_keychainAvailable = false;
    QString m_keychainMessage;
    QString m_keychainInstall;
    int m_busy = 0;
    bool m_loaded = false;
    bool m_wasConnected = false;
    QString m_error;
};

} // namespace paddock::gui
