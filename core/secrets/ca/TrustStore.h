// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace paddock::secrets::ca {

/** @brief An upstream authority the user chose to trust, as kept in trusted-cas/. */
struct TrustedAuthority
{
    QString fingerprint; ///< SHA-256 of the certificate, lower-case hex
    QString subject;
    QDateTime notAfter;
    QString path;
};

/**
 * @brief The certificates sandboxes and the proxy trust.
 *
 * Sandboxes get one PEM bundle: the system roots, the upstream authorities the user added
 * and Paddock's local authority (whose certificates the proxy presents when it injects a
 * credential). The proxy verifies upstream servers against the system roots plus the
 * user's authorities (a company's TLS-inspecting proxy, a self-hosted model server).
 *
 * The user's authorities are PEM files in `paths::configDir()/trusted-cas/`, one per
 * certificate, named by fingerprint; only CA certificates are accepted.
 */
class TrustStore
{
public:
    /** `paths::configDir()/trusted-cas` and the system bundle. */
    TrustStore();
    TrustStore(const QString &trustedDirectory, const QString &systemRoots);

    static QString defaultTrustedDirectory();
    /** Debian's bundle of the system's roots, `/etc/ssl/certs/ca-certificates.crt`. */
    static QString defaultSystemRoots();
    /** `paths::runtimeDir()/ca-bundle.pem`, mounted into sandboxes. */
    static QString defaultSandboxBundlePath();

    /** Checks that @p file holds one CA certificate (PEM or DER) and adds it. */
    std::optional<TrustedAuthority> addTrustedAuthority(const QString &file, QString *error = nullptr);
    /** Removes the authority whose fingerprint starts with @p fingerprint (at least 8 hex digits). */
    bool removeTrustedAuthority(const QString &fingerprint, QString *error = nullptr);
    QList<TrustedAuthority> trustedAuthorities() const;

    /** System roots and the user's authorities, for verifying upstream servers. */
    QByteArray upstreamBundle(QString *error = nullptr) const;
    /** upstreamBundle() followed by @p localAuthorityPem. */
    QByteArray sandboxBundle(const QByteArray &localAuthorityPem, QString *error = nullptr) const;
    /** Writes sandboxBundle() to @p path (default: defaultSandboxBundlePath(), mode 0644). */
    bool writeSandboxBundle(const QByteArray &localAuthorityPem, QString *error = nullptr,
                            const QString &path = QString()) const;
    /**
     * Writes upstreamBundle() to @p upstreamPath and, to @p sandboxPath, sandboxBundle() (the
     * upstream bundle while there is no local authority), each only when its contents change.
     * @p stamp is the caller's memory of the last call: while the system's roots, the trusted
     * authorities' files (paths, sizes, times, inodes), @p localAuthorityPem and both bundles as
     * written are as they were, nothing is read again.
     */
    bool writeBundles(const QByteArray &localAuthorityPem, const QString &upstreamPath, const QString &sandboxPath,
                      QByteArray *stamp, QString *error = nullptr) const;

private:
    QString m_trustedDirectory;
    QString m_systemRoots;
};

} // namespace paddock::secrets::ca
