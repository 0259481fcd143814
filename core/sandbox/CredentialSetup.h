// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Kit.h"
#include "proxy/InterceptionConfig.h"
#include "secrets/CredentialBindings.h"
#include "secrets/SecretId.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

/**
 * How a kit's credentials become what the proxy injects, and what stops a sandbox from
 * starting. Pure functions over the kit, credentials.yaml and the names in secrets.yaml (never
 * a value), so the daemon, the command line and `secret test` decide the same way.
 *
 * A credential is injected when its `apiKey` names `inject` domains: that is what `sbx` does
 * too, whatever `proxyManaged` says (the flag only decides whether the variable `apiKey.name`
 * holds the sentinel; several published kits leave it off on purpose and still rely on the
 * injection). OAuth credentials are not injected.
 */
namespace paddock::sandbox {

/** @brief A credential of a kit whose secret is not in the keychain. */
struct MissingSecret
{
    QString service;
    QString description;
    bool required = false;
    QString command; ///< the command that stores it: `paddock secret set SERVICE`
};

/** @brief A credential of a kit whose key would go to domains credentials.yaml does not approve. */
struct CredentialApproval
{
    QString service;
    QString description;
    bool required = false;
    QStringList domains;    ///< every domain the kit injects the key into, normalised, in kit order
    QStringList newDomains; ///< those of @c domains not approved yet
    bool hasSecret = false; ///< a secret is stored for the service (approving it is useful)
};

/** @brief What a start of a kit's sandbox still needs, credential by credential. */
struct CredentialCheck
{
    QList<MissingSecret> missingSecrets;
    QList<CredentialApproval> pendingApprovals;

    /** A required credential has no secret: nothing but `paddock secret set` helps. */
    bool missingRequired() const;
    /** The approvals a start must have: required credentials, and optional ones with a secret. */
    QList<CredentialApproval> approvalsToAsk() const;
    /** Whether the start must stop: a required credential without a secret or without approval. */
    bool blocksStart() const;
    /** One sentence per problem that stops the start, each with the command that fixes it. */
    QStringList blockingMessages(const QStringList &kitDirectories) const;
    /** One sentence per optional credential that will not be used, with how to use it. */
    QStringList warnings(const QStringList &kitDirectories) const;

    /**
     * {missingSecrets: [{service, description, required, command}], pendingApprovals: [{service,
     * description, required, domains, newDomains, hasSecret}]}.
     */
    QJsonObject toJson() const;
};

/** Whether the proxy injects @p credential's key anywhere (an `apiKey` with `inject` domains). */
bool isInjected(const kit::Credential &credential);

/** The domains @p credential's key is injected into: normalised, without repeats, in kit order. */
QStringList injectionDomains(const kit::Credential &credential);

/** Whether a secret for @p service reaches sandbox @p sandbox: its own, or the global one. */
bool hasSecret(const QList<secrets::SecretId> &stored, const QString &sandbox, const QString &service);

/**
 * Checks the injected credentials of @p credentials against @p bindings and the secret names
 * @p stored, for sandbox @p sandbox (empty: global secrets only). With @p services non-empty,
 * only those services are considered.
 */
CredentialCheck checkCredentials(const QList<kit::Credential> &credentials, const QString &sandbox,
                                 const secrets::CredentialBindings &bindings, const QList<secrets::SecretId> &stored,
                                 const QStringList &services = {});

/** Reads the raw secret of a service for a request; empty when it cannot be had. */
using SecretReader = std::function<QByteArray(const QString &service)>;

/**
 * The inject rules of sandbox @p sandbox: one per inject domain of each injected credential
 * that has a secret and whose binding approves that domain, with the kit's header and format.
 * The rule's secret callback calls @p reader when a request needs the key; for `scheme: basic`
 * it hands the proxy base64("username:secret"). @p skipped gets one sentence per domain left
 * out, naming the service and the reason (never a value).
 */
std::vector<proxy::InjectRule> injectRules(const QList<kit::Credential> &credentials, const QString &sandbox,
                                           const secrets::CredentialBindings &bindings,
                                           const QList<secrets::SecretId> &stored, const SecretReader &reader,
                                           QStringList *skipped = nullptr);

/** @p credentials as JSON (their declarations only: there is nothing secret in a kit). */
QJsonArray credentialsToJson(const QList<kit::Credential> &credentials);
/** The inverse of credentialsToJson(). */
QList<kit::Credential> credentialsFromJson(const QJsonArray &array);

/**
 * The URL `paddock secret test` asks when given none: `https://DOMAIN/v1/models` for the first
 * inject domain that names one host. `/v1/models` lists models at OpenAI, Mistral, Groq and the
 * other OpenAI-compatible providers and needs the key there, so a 2xx proves the key; nullopt
 * when every domain is a wildcard.
 */
std::optional<QString> defaultTestUrl(const kit::Credential &credential);

} // namespace paddock::sandbox
