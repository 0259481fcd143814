// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QObject>
#include <QString>

#include <openssl/types.h>

#include <functional>
#include <memory>
#include <optional>

namespace paddock::secrets {
class SecretStore;
}

namespace paddock::secrets::ca {

/** @brief A server certificate for one host, signed by the local authority, with its key. */
struct LeafCertificate
{
    QString host;
    std::shared_ptr<X509> certificate;
    std::shared_ptr<EVP_PKEY> key; ///< shared by every leaf of the same authority
    QDateTime notBefore;
    QDateTime notAfter;

    QByteArray certificatePem() const;
};

/**
 * @brief Paddock's own certificate authority, which signs the certificates the proxy
 * presents when it intercepts TLS to inject a credential.
 *
 * Made on first use: an EC P-256 key (small, fast to sign with, accepted by every TLS
 * stack in use) and a self-signed certificate valid for five years (CA:TRUE, pathlen 0,
 * keyCertSign and cRLSign). The private key lives only in the keychain, through
 * SecretStore ("internal/ca-private-key"); the certificate is `paths::configDir()/ca.pem`
 * (0644), which sandboxes trust. If either half is missing or they do not match, or the
 * certificate has less than kLeafValidityDays left, a new authority is made.
 *
 * Leaf certificates are made per SNI host on demand and kept in memory until a day before
 * they expire. They carry the host as a dNSName (or iPAddress for an IP literal) subject
 * alternative name, subject and authority key identifiers, CA:FALSE, digitalSignature and
 * serverAuth, a random 128-bit serial and kLeafValidityDays of validity starting an hour in
 * the past to allow for clock skew. All leaves of one authority share one EC P-256 key made
 * in memory when the authority is loaded: the key protects nothing beyond the sandbox's
 * connection to the local proxy, and sharing it makes a new host cost one signature.
 *
 * leafFor() may be called from any thread.
 */
class LocalAuthority : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(bool ok, QString error)>;

    static constexpr int kAuthorityValidityDays = 5 * 365;
    static constexpr int kLeafValidityDays = 90;
    static constexpr int kMaxCachedLeaves = 4096;
    static inline const QString kKeyName = QStringLiteral("ca-private-key");

    /** @p store holds the private key and must outlive this object. */
    explicit LocalAuthority(SecretStore *store, QObject *parent = nullptr);
    LocalAuthority(SecretStore *store, const QString &certificatePath, QObject *parent);
    ~LocalAuthority() override;

    /** `paths::configDir()/ca.pem`. */
    static QString defaultCertificatePath();
    QString certificatePath() const { return m_certificatePath; }

    /** Uses the stored authority, or makes one when there is none usable. */
    void load(Callback done);
    /** Replaces the authority with a new one; sandboxes must be given the new ca.pem. */
    void rotate(Callback done);
    bool loadAndWait(QString *error = nullptr, int timeoutMs = 20000);
    bool rotateAndWait(QString *error = nullptr, int timeoutMs = 20000);

    bool isReady() const;
    QByteArray certificatePem() const;
    /** SHA-256 of the authority's certificate, hex; empty before load(). */
    QString fingerprint() const;

    /** A certificate for @p host (a DNS name or an IP literal), from the cache or new. */
    std::optional<LeafCertificate> leafFor(const QString &host, QString *error = nullptr);

signals:
    /** A new authority replaced the previous one (rotate(), or a broken one at load()). */
    void authorityChanged();

private:
    struct Authority;
    void generateAndStore(const QString &why, Callback done);
    void adopt(std::unique_ptr<Authority> authority);
    std::optional<LeafCertificate> issue(const QString &host, bool isAddress, QString *error);

    SecretStore *m_store;
    QString m_certificatePath;
    mutable QMutex m_mutex; ///< guards m_authority and m_cache against leafFor() from other threads
    std::shared_ptr<Authority> m_authority;
    QHash<QString, LeafCertificate> m_cache;
};

} // namespace paddock::secrets::ca
