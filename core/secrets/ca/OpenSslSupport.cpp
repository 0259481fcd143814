// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/ca/OpenSslSupport.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include <ctime>

namespace paddock::secrets::ca {
namespace {

struct BioFree
{
    void operator()(BIO *p) const { BIO_free(p); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;

QByteArray drain(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return size > 0 ? QByteArray(data, qsizetype(size)) : QByteArray();
}

QDateTime fromAsn1(const ASN1_TIME *time)
{
    struct tm parts
    {};
    if (!time || ASN1_TIME_to_tm(time, &parts) != 1)
        return QDateTime();
    return QDateTime(QDate(parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday),
                     QTime(parts.tm_hour, parts.tm_min, parts.tm_sec), Qt::UTC);
}

} // namespace

QString takeOpenSslErrors()
{
    QStringList messages;
    while (const unsigned long code = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        messages << QString::fromLatin1(buffer);
    }
    return messages.isEmpty() ? QStringLiteral("unknown OpenSSL error") : messages.join(QStringLiteral("; "));
}

X509Ptr readCertificate(const QByteArray &pem)
{
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    X509Ptr certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (!certificate) {
        ERR_clear_error();
        const auto *der = reinterpret_cast<const unsigned char *>(pem.constData());
        certificate.reset(d2i_X509(nullptr, &der, long(pem.size())));
        ERR_clear_error();
    }
    return certificate;
}

QByteArray certificatePem(X509 *certificate)
{
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!certificate || PEM_write_bio_X509(bio.get(), certificate) != 1)
        return QByteArray();
    return drain(bio.get());
}

QString fingerprintSha256(X509 *certificate)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!certificate || X509_digest(certificate, EVP_sha256(), digest, &length) != 1)
        return QString();
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex());
}

QString subjectName(X509 *certificate)
{
    BioPtr bio(BIO_new(BIO_s_mem()));
    X509_NAME_print_ex(bio.get(), X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
    return QString::fromUtf8(drain(bio.get()));
}

QDateTime notBefore(X509 *certificate)
{
    return fromAsn1(X509_get0_notBefore(certificate));
}
QDateTime notAfter(X509 *certificate)
{
    return fromAsn1(X509_get0_notAfter(certificate));
}

KeyPtr generateKey()
{
    return KeyPtr(EVP_EC_gen("P-256"));
}

QByteArray privateKeyPem(EVP_PKEY *key)
{
    // A memory BIO clears its buffer when freed, so only the returned copy remains.
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return QByteArray();
    return drain(bio.get());
}

KeyPtr readPrivateKey(const QByteArray &pem)
{
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return KeyPtr(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

} // namespace paddock::secrets::ca
