// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"

#include <QDateTime>
#include <QJsonObject>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** One key in the keychain as `secret.list` describes it: never its value. */
struct StoredSecret
{
    QString service;
    QString sandbox;
    QString masked;
    bool present = false;
    QDateTime updated;
    QString source = QStringLiteral("keychain"); ///< keychain, command, reference or custom
    QString sourceText;                          ///< the command line or the reference
    QString refresh;                             ///< "55m", "on-demand"
    QString variable;                            ///< a custom secret's: what sandboxes hold its placeholder in
    QDateTime resolved;                          ///< when the source last gave a value
    QDateTime failed;                            ///< when it last failed
    QString error;                               ///< that failure's sentence

    /** One key of a `secret.list` answer. */
    static std::optional<StoredSecret> fromJson(const QJsonObject &object);
};

/**
 * @brief The provider keys in the keychain, for the Secrets page: each service with its scope
 * and its value masked (or, for a key that comes from a command or a 1Password reference, that
 * source and when it last gave a value), and whether a keychain can be reached at all.
 *
 * Everything goes through the daemon (`keychain.status`, `secret.list`, `secret.set`,
 * `secret.remove`), which holds the keychain; this model never sees a stored value. A value
 * typed in the page is handed to set() and sent once; the page clears its field.
 */
class SecretListModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool keychainKnown READ keychainKnown NOTIFY keychainChanged)
    Q_PROPERTY(bool keychainAvailable READ keychainAvailable NOTIFY keychainChanged)
    Q_PROPERTY(QString keychainMessage READ keychainMessage NOTIFY keychainChanged)
    Q_PROPERTY(QString keychainInstall READ keychainInstall NOTIFY keychainChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QVariantList neededKeys READ neededKeys NOTIFY neededKeysChanged)
    Q_PROPERTY(QString suggestedService READ suggestedService NOTIFY neededKeysChanged)

public:
    enum Role {
        ServiceRole = Qt::UserRole + 1,
        SandboxRole,
        MaskedRole,
        PresentRole,
        UpdatedRole,
        DisplayNameRole,
        SourceRole,
        SourceTextRole,
        ResolvedRole,
        VariableRole,
        HostsRole
    };
    Q_ENUM(Role)

    explicit SecretListModel(QObject *parent = nullptr);

    bool keychainKnown() const { return m_keychainKnown; }
    bool keychainAvailable() const { return m_keychainAvailable; }
    QString keychainMessage() const { return m_keychainMessage; }
    QString keychainInstall() const { return m_keychainInstall; }
    bool busy() const { return m_busy > 0; }
    /**
     * The credential services the kits Paddock knows (the library's sandbox kits) need, one
     * entry per kit and service: {kit, service, description, required, stored, text}, where
     * stored means a key for every sandbox is in the keychain and text says it in a sentence
     * ("Needed by pi: ilaas — not stored").
     */
    QVariantList neededKeys() const { return m_needed; }
    /** The service to suggest typing: the first one needed and not stored, else the first needed. */
    QString suggestedService() const;

    /** Asks keychain.status and secret.list again, and reads the kits' credentials again. */
    Q_INVOKABLE void refresh();
    /** Reads which services the library's kits need (in-process, as the wizard lists kits). */
    Q_INVOKABLE void reloadKits();
    /** Stores (or replaces) the key of @p service, global when @p sandbox is empty. */
    Q_INVOKABLE void set(const QString &service, const QString &sandbox, QString value);
    Q_INVOKABLE void remove(const QString &service, const QString &sandbox);
    /** Removes the custom secret @p name (`secret.remove` with custom): its placeholder is no longer replaced. */
    Q_INVOKABLE void removeCustom(const QString &name);
    /**
     * `secret.test`: one request with the key of @p service sent as a sandbox's would be (for
     * a command or a reference, its value as the proxy has it); the provider's answer is said
     * through actionSucceeded() or actionFailed().
     */
    Q_INVOKABLE void test(const QString &service, const QString &sandbox);
    /** Whether @p name is usable as a service or sandbox name (letters, digits, '.', '_', '-'). */
    Q_INVOKABLE static bool isValidName(const QString &name);

    // What the daemon answers, handed in as it arrives (refresh() does).
    /** A `keychain.status` answer: whether a keychain answers, and what to install when none does. */
    void applyKeychainStatus(const QJsonObject &status);
    /** A `secret.list` answer: one row per stored key, its value masked. */
    void applySecretList(const QJsonObject &result);

Q_SIGNALS:
    void keychainChanged();
    void busyChanged();
    void neededKeysChanged();
    /** An action finished; @p message is one sentence for the page. */
    void actionSucceeded(const QString &message);
    void actionFailed(const QString &message);

protected:
    void daemonConnected() override { refresh(); }
    /** Without a daemon nothing is known of the keychain. */
    void daemonDisconnected() override { setKeychain(false, false, QString(), QString()); }

private:
    void changeBusy(int delta);
    void setKeychain(bool known, bool available, const QString &message, const QString &install);
    /** Stores or removes a key: @p done is said when the daemon did it. */
    void change(const QString &method, const QJsonObject &params, const QString &done);
    /** neededKeys() again from m_kitNeeds and the keys listed. */
    void updateNeeded();

    bool m_keychainKnown = false;
    bool m_keychainAvailable = false;
    QString m_keychainMessage;
    QString m_keychainInstall;
    int m_busy = 0;
    /** {kit, service, description, required} of each credential of the library's kits. */
    QList<QVariantMap> m_kitNeeds;
    QVariantList m_needed;
    Rows<StoredSecret> m_rows{this};
};

} // namespace paddock::gui
