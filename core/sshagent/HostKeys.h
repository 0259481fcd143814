// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace paddock::sshagent {

/**
 * @brief The host keys a person accepted, read from an OpenSSH known_hosts file on the host:
 * plain and hashed (`|1|salt|hmac`) names, `[host]:port` entries (a grant names no port, so any
 * port counts), negated patterns; `@revoked` keys are never a host's key, `@cert-authority`
 * lines are not host keys. Wildcard patterns are not matched: a grant names literal hosts.
 */
class KnownHosts
{
public:
    /** Reads @p path (at most 4 MiB); a missing or unreadable file knows no host. */
    static KnownHosts read(const QString &path);
    static KnownHosts parse(const QByteArray &text);

    /** The key blobs known for @p host (a lowercase DNS name). */
    QList<QByteArray> keysOf(const QString &host) const;
    bool isKeyOf(const QString &host, const QByteArray &keyBlob) const;

private:
    struct Entry
    {
        QList<QByteArray> patterns; ///< the comma-separated host patterns, as written
        QByteArray key;
    };
    static bool matches(const Entry &entry, const QString &host);
    QList<Entry> m_entries;
    QList<QByteArray> m_revoked;
};

/**
 * True when @p signature (SSH encoding: string algorithm, string blob) is @p hostKey's valid
 * signature over @p data: ssh-ed25519, ecdsa-sha2-nistp256/384/521, rsa-sha2-256/512.
 */
bool verifySignature(const QByteArray &hostKey, const QByteArray &data, const QByteArray &signature);

} // namespace paddock::sshagent
