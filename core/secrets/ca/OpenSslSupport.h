// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>

namespace paddock::secrets::ca {

/** @brief Frees OpenSSL objects when a std::unique_ptr or std::shared_ptr lets go. */
struct OpenSslFree
{
    void operator()(X509 *p) const { X509_free(p); }
    void operator()(EVP_PKEY *p) const { EVP_PKEY_free(p); }
};
using X509Ptr = std::unique_ptr<X509, OpenSslFree>;
using KeyPtr = std::unique_ptr<EVP_PKEY, OpenSslFree>;

/** Everything on OpenSSL's error queue for this thread, as one line; the queue is emptied. */
QString takeOpenSslErrors();

/** The first certificate in @p pem (PEM) or @p pem read as DER; null when neither. */
X509Ptr readCertificate(const QByteArray &pem);
QByteArray certificatePem(X509 *certificate);
/** SHA-256 of the DER encoding, lower-case hex without separators. */
QString fingerprintSha256(X509 *certificate);
/** The subject as a one-line RFC 2253 string. */
QString subjectName(X509 *certificate);
QDateTime notBefore(X509 *certificate);
QDateTime notAfter(X509 *certificate);

/** A new EC P-256 key. */
KeyPtr generateKey();
/** PKCS#8 PEM; the caller wipes it once stored. */
QByteArray privateKeyPem(EVP_PKEY *key);
/** Reads a PEM private key; OpenSSL's copy of the text is cleared when freed. */
KeyPtr readPrivateKey(const QByteArray &pem);

} // namespace paddock::secrets::ca
