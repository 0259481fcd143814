// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "secrets/SecretStore.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <memory>

namespace paddock::api {
class Server;
class PendingReply;
} // namespace paddock::api

namespace paddock::sandbox {

/**
 * @brief The daemon's methods for provider keys (the OS keychain through SecretStore) and
 * for bindings (credentials.yaml through CredentialBindings), so the desktop application
 * manages both without touching the keychain itself.
 *
 * A value sent with `secret.set` comes from a client of the same uid over the 0600 socket; it
 * is handed to the keychain, wiped from this service's copy, and never logged nor sent back:
 * replies carry names and masked forms only (Masking: the first and last four characters).
 *
 * Methods (params → result; errors carry a sentence for the user):
 * - `keychain.status` {} → {available, message, install?}: whether a keychain answers;
 *   when none does, @c message says so and @c install what to install (GNOME Keyring, or
 *   KWallet with its Secret Service).
 * - `secret.list` {} → {secrets: [{service, sandbox?, present, masked, updated?, source,
 *   sourceText?, refresh?, lastResolved?, lastFailed?, lastError?}]}: every secret named in
 *   secrets.yaml; @c masked is empty when the keychain lost the value or the secret has a
 *   source; @c updated (ISO 8601, UTC) when the value was last set through the daemon;
 *   @c source is `keychain`, `command` or `reference` (SecretSources), with the command line or
 *   the reference in @c sourceText and when it last gave a value or failed. The custom secrets
 *   of `secret set-custom` follow, @c source `custom`, their hosts in @c sourceText and the
 *   sandboxes' variable in @c variable (the command line sets them), and the whole definition
 *   (secrets::CustomSecret::toJson(): no value) in @c custom; @c customError says why
 *   custom-secrets.json cannot be read (empty when it can).
 * - `secret.set` {service, sandbox?, value} → {service, sandbox?}: stores or replaces a key
 *   (and drops the secret's source, if it had one). Sources: `secret.setSource` (SecretSourceMethods.h).
 * - `secret.setCustom`: a custom secret of `secret set-custom` (CustomSecretMethods.h).
 * - `secret.remove` {service, sandbox?} → {removed: "SERVICE" or "NAME/SERVICE"}; with
 *   `custom: true`, the custom secret @c service: out of custom-secrets.json and in force for
 *   running sandboxes, then its value out of the keychain → {removed: NAME, custom: true}.
 * - `binding.list` {} → {bindings: [{service, domains}]}.
 * - `binding.approve` {kit: DIR, kitArgs?: {..}, services?: [..]} → {approved: [{service,
 *   domains}]}: approves the domains the kit injects each named credential into (every
 *   credential when @c services is absent). With {bindings: [{service, domains}]} instead of a
 *   kit (an environment file's `bindings`), approves exactly those domains for each service.
 * - `binding.revoke` {service} → {revoked: SERVICE}.
 * - `binding.check` {kit?: DIR | sandbox?: NAME, kitArgs?} → {kit, directory, ready, keychain,
 *   credentials: [{service, description, required, kind: apiKey|oauth, secret, domains,
 *   approved, newDomains, wildcard, ready}]}: what a start of this kit (or of the sandbox,
 *   through the kit it was made from) still needs. @c secret is false when the keychain
 *   cannot be asked (@c keychain false).
 *
 * Errors: `invalid-params`, `keychain-unavailable`, `not-found`, `invalid-kit`,
 * `bindings-error`, `keychain-error`.
 */
class SecretService : public QObject
{
    Q_OBJECT
public:
    explicit SecretService(api::Server &server, QObject *parent = nullptr);
    ~SecretService() override;

    /** Registers the methods on the server. */
    void start();
    /**
     * Called once a binding or a key was changed through this service, before the method
     * answers: the daemon applies the change to the running sandboxes there.
     */
    void onCredentialsChanged(std::function<void()> changed) { m_changed = std::move(changed); }

    /** Where the times of the last `secret.set` are kept: `paths::stateDir()/secret-updates.json`. */
    static QString updatesPath();

private:
    void keychainStatus(const api::PendingReply &reply);
    void listSecrets(const api::PendingReply &reply);
    void setSecret(const QJsonObject &params, const api::PendingReply &reply);
    void removeSecret(const QJsonObject &params, const api::PendingReply &reply);
    void removeCustomSecret(const QString &name, const api::PendingReply &reply);
    void checkBindings(const QJsonObject &params, const api::PendingReply &reply);

    void recordUpdate(const secrets::SecretId &id, bool present);
    QJsonObject readUpdates() const;
    /** The source fields of `secret.list` for each secret that has one, by keychain key. */
    static QHash<QString, QJsonObject> sourcesJson();

    void credentialsChanged() const
    {
        if (m_changed)
            m_changed();
    }

    api::Server &m_server;
    std::unique_ptr<secrets::SecretStore> m_store;
    std::function<void()> m_changed;
};

} // namespace paddock::sandbox
