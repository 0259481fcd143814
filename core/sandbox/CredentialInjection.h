// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/AtomicFile.h"
#include "events/NetworkEvent.h"
#include "kit/Kit.h"
#include "proxy/ProxyEngine.h"
#include "sandbox/CredentialSetup.h"
#include "secrets/CustomSecrets.h"
#include "secrets/SecretSources.h"
#include "secrets/ca/TrustStore.h"

#include <QFileSystemWatcher>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace paddock::api {
class PendingReply;
class Reply;
} // namespace paddock::api
namespace paddock::secrets {
class KeyCache;
class SecretStore;
class SourceCache;
namespace ca {
class LocalAuthority;
}
} // namespace paddock::secrets

namespace paddock::sandbox {

/**
 * @brief The daemon's side of provider keys in sandboxes: it decides whether a sandbox may
 * start with its kit's credentials, keeps the certificate bundle sandboxes trust, and gives
 * each sandbox's proxy endpoint the interception that adds the keys.
 *
 * - Each sandbox's credential declarations are kept at creation in
 *   `paths::dataDir()/sandbox-credentials/NAME.json` (no values: a kit holds none), so a
 *   daemon restarted while the sandbox runs injects the same way without the kit directory.
 * - The bundle, `paths::runtimeDir()/ca-bundle.pem` (0644, replaced atomically), holds the
 *   system roots, the authorities added with `paddock ca trust` and Paddock's local authority;
 *   it is written before every start and whenever the authority changes.
 * - The local authority (LocalAuthority, its key in the keychain) is loaded the first time a
 *   sandbox has a key to inject, before that sandbox starts, or by the first intercepted
 *   connection of a sandbox found running after a restart.
 * - A key is read from the keychain the first time a request needs it (the sandbox's own
 *   secret first, then the global one) and then held in locked memory (KeyCache), so later
 *   requests do not ask the keychain; the proxy wipes its copy after each use. The held keys
 *   are dropped when the keychain reports a change (a secret set or removed by any program,
 *   the keyring locked) and when credentials.yaml or the secret index change. A key is kept
 *   in no file, no log line and no event.
 * - Custom secrets (`custom-secrets.json`, `paddock secret set-custom`) apply to every sandbox,
 *   or to the one they name, whether or not its kit has credentials: the proxy replaces their
 *   placeholder with the value, read from the keychain and held as keys are, or from their
 *   source as below, for their hosts.
 * - A secret with a source (`secret-sources.json`: a command of the user, or a 1Password
 *   reference) is not read from the keychain: its command runs on the host when a request
 *   needs it and its value is held in locked memory for its refresh interval (SourceCache);
 *   `on-demand` runs it for every request. A failed run refuses the request (the proxy
 *   answers 503) and is reported through onSourceFailed().
 */
class CredentialInjection : public QObject
{
    Q_OBJECT
public:
    explicit CredentialInjection(QObject *parent = nullptr);
    ~CredentialInjection() override;

    /** The bundle on the host: `paths::runtimeDir()/ca-bundle.pem`. */
    static QString bundlePath();
    /** What the proxy verifies upstream servers with: `paths::runtimeDir()/upstream-ca-bundle.pem`. */
    static QString upstreamBundlePath();
    /** `paths::dataDir()/sandbox-credentials/NAME.json`. */
    static QString recordPath(const QString &sandbox);
    /** Keeps @p credentials as sandbox @p sandbox's (mode 0600, atomically). */
    static Result<void> remember(const QString &sandbox, const QList<kit::Credential> &credentials,
                                 Durability durability = Durability::Synced);
    static QList<kit::Credential> remembered(const QString &sandbox);
    static void forget(const QString &sandbox);

    /**
     * Before `sandbox.create`: loads the kit of @p params as the service
     * will, checks its credentials for the sandbox's name and, when they allow a start, makes
     * sure the authority and the bundle are ready, then calls @p proceed. Otherwise fails
     * @p reply with `credentials-required` (a required credential without a secret or without
     * approval: the message names each with the command that fixes it), `bindings-error` or
     * `trust-failed`. With `approveCredentials: true` in @p params the approvals are recorded
     * in credentials.yaml first. A kit that does not load goes on to @p proceed, which reports it.
     */
    void admit(const QJsonObject &params, const api::PendingReply &reply, std::function<void()> proceed);
    /**
     * Calls @p done with an empty string when no value of @p variables is, or holds, a key stored
     * in the keychain (a secret of this computer), else with the refusal naming the variable and
     * the secret. Reads each stored key once, compares and wipes it.
     */
    void refuseStoredKeys(const QMap<QString, QString> &variables, std::function<void(QString problem)> done);
    /** The answer to `sandbox.credentials` (see SandboxService). */
    api::Reply describe(const QJsonObject &params) const;
    /** Before `sandbox.start`: the authority and the bundle for sandbox @p sandbox's credentials. */
    void admitStart(const QString &sandbox, const api::PendingReply &reply, std::function<void()> proceed);

    /** The check of @p credentials for sandbox @p sandbox against the files as they are now. */
    Result<CredentialCheck> check(const QList<kit::Credential> &credentials, const QString &sandbox) const;

    /**
     * Gives endpoint @p endpoint the interception for sandbox @p sandbox's remembered
     * credentials: bound ones with a secret; none turns it off. Called again when
     * credentialsChanged(), it closes the intercepted tunnels whose key was taken away.
     * Nothing happens for a sandbox that remembers no credential.
     */
    void applyTo(proxy::ProxyEngine &proxy, proxy::ProxyEngine::EndpointId endpoint, const QString &sandbox);
    /**
     * Reads credentials.yaml and the secret index now rather than when the file watch settles,
     * and, when they changed, forgets the cached keys and emits credentialsChanged() (applied
     * to every endpoint before this returns): a revoked binding is out of force at once.
     */
    void reloadNow();

    /**
     * The key of @p service for sandbox @p sandbox (its own, else the global one) from @p store,
     * for a proxy thread: the read runs on @p store's thread, whose event loop must be running,
     * and this waits for it. Empty when there is none or the keychain does not answer.
     */
    static QByteArray readSecretFrom(secrets::SecretStore *store, const QString &sandbox, const QString &service);

    /**
     * For `secret.test`: readies the authority and the bundles, then calls @p done with the
     * interception an endpoint of sandbox @p sandbox gets for @p credential alone (its bound
     * domains, the key read as a request needs it), or with the reason it cannot.
     */
    void interceptionFor(const kit::Credential &credential, const QString &sandbox,
                         std::function<void(std::optional<proxy::InterceptionConfig>, QString problem)> done);
    /**
     * Called on a proxy thread whenever a secret's command or reference fails, with the event
     * that tells of it (its host the first domain the sandbox's kit injects that key into,
     * outcome upstream-failed, rule "secret SERVICE", its reason the command's sentence); the
     * request itself is refused.
     */
    using SourceFailure = std::function<void(events::NetworkEvent)>;
    void onSourceFailed(SourceFailure report) { m_sourceFailed = std::move(report); }
    /** The kit of `sandbox.create` params and the sandbox's name (@p sandbox); nullopt when it does not load. */
    static std::optional<kit::Kit> kitOf(const QJsonObject &params, QString *sandbox);

    /** The local authority sandboxes trust and its keychain: `ca show`, `ca rotate` (CaMethods.h). */
    secrets::ca::LocalAuthority &authority() { return *m_authority; }
    secrets::SecretStore &store() { return *m_store; }
    /** The certificate bundles written again now: an upstream authority trusted or no longer. */
    Result<void> refreshTrust() { return writeBundles(); }

Q_SIGNALS:
    /** credentials.yaml or the secret index changed: the interceptions are to be made again. */
    void credentialsChanged();

private:
    /** Watches credentials.yaml and the secret index; whether either changed since last time. */
    bool watchFiles();
    void prepareTrust(bool needAuthority, const std::function<void(const QString &error)> &done);
    Result<void> writeBundles();
    bool needsAuthority(const QList<kit::Credential> &credentials, const QString &sandbox) const;
    /** Called from the proxy's connection threads. */
    QByteArray readSecret(const QString &sandbox, const QString &service);
    /** The source of the secret a request of @p sandbox uses for @p service, if it has one. */
    std::optional<std::pair<secrets::SecretId, secrets::SecretSource>> sourceFor(const QString &sandbox,
                                                                                 const QString &service) const;
    void reportSourceFailure(const QString &sandbox, const QString &service, const QString &error);
    /** The rules of the custom secrets sandbox @p sandbox gets (CustomSecretRules.cpp). */
    std::vector<proxy::InjectRule> customRules(const QString &sandbox);
    /** Called from the proxy's connection threads: the value of @p custom for sandbox @p sandbox. */
    QByteArray readCustom(const secrets::CustomSecret &custom, const QString &sandbox);
    /**
     * What the guard of sandbox @p sandbox looks for among the keys (GuardedSecrets.cpp): @p rules'
     * and every other secret of the keychain, custom ones too, but none from a command or reference.
     */
    std::vector<proxy::InjectRule> guardedSecrets(const QString &sandbox, const std::vector<proxy::InjectRule> &rules);
    /** Whether custom secret @p name's value comes from a command or a reference. */
    bool customHasSource(const QString &name) const;
    void reportCustomSourceFailure(const secrets::CustomSecret &custom, const QString &sandbox, const QString &error);
    /** Called from the proxy's connection threads. */
    Result<proxy::TlsLeaf> leafFor(const QString &host);

    std::unique_ptr<secrets::SecretStore> m_store;
    std::unique_ptr<secrets::KeyCache> m_keys;
    std::unique_ptr<secrets::SourceCache> m_sourceValues;
    SourceFailure m_sourceFailed;
    /** The secret index and the sources as last read by watchFiles(), for the proxy's threads. */
    struct SourceSnapshot
    {
        QList<secrets::SecretId> stored;
        QList<std::pair<secrets::SecretId, secrets::SecretSource>> sources;
        QList<secrets::CustomSecret> custom;
    };
    mutable std::mutex m_snapshotMutex;
    std::shared_ptr<const SourceSnapshot> m_snapshot;
    std::unique_ptr<secrets::ca::LocalAuthority> m_authority;
    secrets::ca::TrustStore m_trust;
    QByteArray m_bundlesStamp; ///< what the bundles were last written from (TrustStore::writeBundles)
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QByteArray m_credentialFiles; ///< their contents when last looked at
};

} // namespace paddock::sandbox
