// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/ca/LocalAuthority.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"
#include "secrets/ca/OpenSslSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMutexLocker>
#include <QPointer>
#include <QSysInfo>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

Q_LOGGING_CATEGORY(lcAuthority, "paddock.secrets.ca")

namespace paddock::secrets::ca {

struct LocalAuthority::Authority
{
    KeyPtr key;
    X509Ptr certificate;
    std::shared_ptr<EVP_PKEY> leafKey;
    QByteArray pem;
    QString fingerprint;
};

namespace {

bool setRandomSerial(X509 *certificate)
{
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return false;
    bytes[0] &= 0x7f; // a serial is a positive integer
    bytes[0] |= 0x40; // and keeps all 16 bytes, so its length says nothing
    BIGNUM *number = BN_bin2bn(bytes, sizeof bytes, nullptr);
    const bool ok = number && BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nullptr;
    BN_free(number);
    return ok;
}

bool addExtension(X509 *subject, X509 *issuer, int nid, const QByteArray &value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, subject, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.constData());
    if (!extension)
        return false;
    const bool ok = X509_add_ext(subject, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return ok;
}

bool addName(X509_NAME *name, const char *field, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                      reinterpret_cast<const unsigned char *>(utf8.constData()), int(utf8.size()), -1,
                                      0) == 1;
}

/** Starts a version 3 certificate with a random serial, @p days of validity from an hour ago and @p key. */
X509Ptr startCertificate(EVP_PKEY *key, int days)
{
    X509Ptr certificate(X509_new());
    if (!certificate || X509_set_version(certificate.get(), X509_VERSION_3) != 1 || !setRandomSerial(certificate.get()))
        return nullptr;
    // An hour in the past so a sandbox whose clock lags a little still accepts it.
    if (!X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600) ||
        !X509_time_adj_ex(X509_getm_notAfter(certificate.get()), days, -3600, nullptr))
        return nullptr;
    if (X509_set_pubkey(certificate.get(), key) != 1)
        return nullptr;
    return certificate;
}

/** Lower case, no trailing dot, no brackets around an IPv6 literal; empty when not a host. */
QString normaliseHost(const QString &raw, bool *isAddress)
{
    QString host = raw.trimmed().toLower();
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (ASN1_OCTET_STRING *address = a2i_IPADDRESS(host.toLatin1().constData())) {
        ASN1_OCTET_STRING_free(address);
        *isAddress = true;
        return host;
    }
    ERR_clear_error();
    *isAddress = false;
    if (host.endsWith(QLatin1Char('.')))
        host.chop(1);
    if (host.isEmpty() || host.size() > 253)
        return QString();
    for (const QStringView label : QStringView(host).split(QLatin1Char('.'))) {
        if (label.isEmpty() || label.size() > 63 || label.startsWith(QLatin1Char('-')) ||
            label.endsWith(QLatin1Char('-')))
            return QString();
        for (const QChar c : label) {
            const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                            (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('-') ||
                            c == QLatin1Char('_');
            if (!ok)
                return QString();
        }
    }
    return host;
}

/** Runs @p start, which reports through a LocalAuthority::Callback, and waits for its report. */
bool waitFor(const std::function<void(LocalAuthority::Callback)> &start, QString *error, int timeoutMs)
{
    const SecretResult result = SecretStore::wait(
        [&start](SecretStore::Callback done) {
            start([done](bool ok, const QString &why) {
                SecretResult carried;
                if (!ok) {
                    carried.error = SecretError::Other;
                    carried.message = why;
                }
                done(carried);
            });
        },
        timeoutMs);
    if (!result.ok() && error)
        *error = result.message;
    return result.ok();
}

} // namespace

QByteArray LeafCertificate::certificatePem() const
{
    return ca::certificatePem(certificate.get());
}

LocalAuthority::LocalAuthority(SecretStore *store, QObject *parent)
    : LocalAuthority(store, defaultCertificatePath(), parent)
{}

LocalAuthority::LocalAuthority(SecretStore *store, const QString &certificatePath, QObject *parent)
    : QObject(parent), m_store(store), m_certificatePath(certificatePath)
{}

LocalAuthority::~LocalAuthority() = default;

QString LocalAuthority::defaultCertificatePath()
{
    return paths::configDir() + QStringLiteral("/ca.pem");
}

bool LocalAuthority::isReady() const
{
    QMutexLocker lock(&m_mutex);
    return m_authority != nullptr;
}

QByteArray LocalAuthority::certificatePem() const
{
    QMutexLocker lock(&m_mutex);
    return m_authority ? m_authority->pem : QByteArray();
}

QString LocalAuthority::fingerprint() const
{
    QMutexLocker lock(&m_mutex);
    return m_authority ? m_authority->fingerprint : QString();
}

void LocalAuthority::load(Callback done)
{
    QPointer<LocalAuthority> self(this);
    m_store->getKeyMaterial(kKeyName, [self, done](SecretResult stored) {
        if (!self)
            return;
        if (stored.error == SecretError::NotFound)
            return self->generateAndStore(QStringLiteral("none was stored"), done);
        if (!stored.ok())
            return done(false,
                        QStringLiteral("cannot read the local certificate authority's key: %1").arg(stored.message));

        auto authority = std::make_unique<Authority>();
        authority->key = readPrivateKey(stored.value);
        wipe(stored.value);
        QFile file(self->m_certificatePath);
        if (file.open(QIODevice::ReadOnly))
            authority->certificate = readCertificate(file.readAll());
        QString problem;
        if (!authority->key)
            problem = QStringLiteral("the stored key cannot be read");
        else if (!authority->certificate)
            problem = QStringLiteral("%1 is missing or unreadable").arg(self->m_certificatePath);
        else if (X509_check_private_key(authority->certificate.get(), authority->key.get()) != 1)
            problem = QStringLiteral("%1 does not match the stored key").arg(self->m_certificatePath);
        else if (notAfter(authority->certificate.get()) < QDateTime::currentDateTimeUtc().addDays(kLeafValidityDays))
            problem = QStringLiteral("the certificate expires within %1 days").arg(kLeafValidityDays);
        ERR_clear_error();
        if (!problem.isEmpty())
            return self->generateAndStore(problem, done);
        self->adopt(std::move(authority));
        done(true, QString());
    });
}

void LocalAuthority::rotate(Callback done)
{
    generateAndStore(QStringLiteral("rotation was asked for"), done);
}

void LocalAuthority::generateAndStore(const QString &why, Callback done)
{
    auto authority = std::make_shared<Authority>();
    authority->key = generateKey();
    if (authority->key)
        authority->certificate = startCertificate(authority->key.get(), kAuthorityValidityDays);
    X509 *certificate = authority->certificate.get();
    bool ok = certificate != nullptr;
    if (ok) {
        X509_NAME *name = X509_get_subject_name(certificate);
        const QString host = QSysInfo::machineHostName();
        ok = addName(name, "O", QStringLiteral("Paddock")) &&
             addName(name, "OU",
                     QStringLiteral("created %1").arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate))) &&
             addName(name, "CN",
                     host.isEmpty() ? QStringLiteral("Paddock local CA")
                                    : QStringLiteral("Paddock local CA on %1").arg(host.left(40))) &&
             X509_set_issuer_name(certificate, name) == 1 &&
             addExtension(certificate, certificate, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
             addExtension(certificate, certificate, NID_key_usage, "critical,keyCertSign,cRLSign") &&
             addExtension(certificate, certificate, NID_subject_key_identifier, "hash") &&
             addExtension(certificate, certificate, NID_authority_key_identifier, "keyid:always") &&
             X509_sign(certificate, authority->key.get(), EVP_sha256()) > 0;
    }
    if (!ok) {
        const QString error = takeOpenSslErrors();
        QMetaObject::invokeMethod(
            this,
            [done, error]() { done(false, QStringLiteral("cannot make a certificate authority: %1").arg(error)); },
            Qt::QueuedConnection);
        return;
    }
    qCInfo(lcAuthority).noquote() << "making a new local certificate authority:" << why;

    // The key goes to the keychain first: a certificate on disk without its key is replaced
    // at the next start, while a key without the certificate would be useless.
    QByteArray pem = privateKeyPem(authority->key.get());
    QPointer<LocalAuthority> self(this);
    m_store->setKeyMaterial(kKeyName, pem, [self, authority, done](SecretResult stored) {
        if (!self)
            return;
        if (!stored.ok())
            return done(false, QStringLiteral("cannot store the local certificate authority's key in the keychain: %1")
                                   .arg(stored.message));
        const QByteArray certificatePem = ca::certificatePem(authority->certificate.get());
        QString error;
        if (!QDir().mkpath(QFileInfo(self->m_certificatePath).absolutePath()) ||
            !writeFileAtomically(self->m_certificatePath, certificatePem, &error, 0644)) {
            return done(false, QStringLiteral("cannot write %1: %2").arg(self->m_certificatePath, error));
        }
        // An existing file keeps its mode through writeFileAtomically; the certificate is public.
        QFile::setPermissions(self->m_certificatePath, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                           QFileDevice::ReadGroup | QFileDevice::ReadOther);
        auto adopted = std::make_unique<Authority>();
        adopted->key = std::move(authority->key);
        adopted->certificate = std::move(authority->certificate);
        self->adopt(std::move(adopted));
        emit self->authorityChanged();
        done(true, QString());
    });
    wipe(pem);
}

void LocalAuthority::adopt(std::unique_ptr<Authority> authority)
{
    authority->pem = ca::certificatePem(authority->certificate.get());
    authority->fingerprint = fingerprintSha256(authority->certificate.get());
    authority->leafKey = std::shared_ptr<EVP_PKEY>(generateKey().release(), OpenSslFree());
    QMutexLocker lock(&m_mutex);
    m_authority = std::move(authority);
    m_cache.clear();
}

bool LocalAuthority::loadAndWait(QString *error, int timeoutMs)
{
    return waitFor([this](Callback done) { load(std::move(done)); }, error, timeoutMs);
}

bool LocalAuthority::rotateAndWait(QString *error, int timeoutMs)
{
    return waitFor([this](Callback done) { rotate(std::move(done)); }, error, timeoutMs);
}

std::optional<LeafCertificate> LocalAuthority::leafFor(const QString &host, QString *error)
{
    bool isAddress = false;
    const QString name = normaliseHost(host, &isAddress);
    if (name.isEmpty()) {
        if (error)
            *error = QStringLiteral("\"%1\" is not a host name or an IP address").arg(host);
        return std::nullopt;
    }
    QMutexLocker lock(&m_mutex);
    if (!m_authority) {
        if (error)
            *error = QStringLiteral("the local certificate authority is not loaded");
        return std::nullopt;
    }
    const auto cached = m_cache.constFind(name);
    if (cached != m_cache.cend() && cached->notAfter > QDateTime::currentDateTimeUtc().addDays(1))
        return *cached;
    std::optional<LeafCertificate> leaf = issue(name, isAddress, error);
    if (leaf) {
        // A bound on memory for a sandbox that visits very many hosts: start over.
        if (m_cache.size() >= kMaxCachedLeaves)
            m_cache.clear();
        m_cache.insert(name, *leaf);
    }
    return leaf;
}

std::optional<LeafCertificate> LocalAuthority::issue(const QString &host, bool isAddress, QString *error)
{
    const Authority &authority = *m_authority;
    X509Ptr certificate = startCertificate(authority.leafKey.get(), kLeafValidityDays);
    bool ok = certificate != nullptr;
    if (ok) {
        X509 *leaf = certificate.get();
        X509_NAME *name = X509_get_subject_name(leaf);
        if (host.size() <= 64)
            ok = addName(name, "CN", host);
        const QByteArray san = (isAddress ? QByteArrayLiteral("IP:") : QByteArrayLiteral("DNS:")) + host.toLatin1();
        ok = ok && X509_set_issuer_name(leaf, X509_get_subject_name(authority.certificate.get())) == 1 &&
             addExtension(leaf, authority.certificate.get(), NID_basic_constraints, "critical,CA:FALSE") &&
             addExtension(leaf, authority.certificate.get(), NID_key_usage, "critical,digitalSignature") &&
             addExtension(leaf, authority.certificate.get(), NID_ext_key_usage, "serverAuth") &&
             addExtension(leaf, authority.certificate.get(), NID_subject_alt_name, san) &&
             addExtension(leaf, authority.certificate.get(), NID_subject_key_identifier, "hash") &&
             addExtension(leaf, authority.certificate.get(), NID_authority_key_identifier, "keyid:always") &&
             X509_sign(leaf, authority.key.get(), EVP_sha256()) > 0;
    }
    if (!ok) {
        if (error)
            *error = QStringLiteral("cannot make a certificate for %1: %2").arg(host, takeOpenSslErrors());
        return std::nullopt;
    }
    LeafCertificate result;
    result.host = host;
    result.notBefore = notBefore(certificate.get());
    result.notAfter = notAfter(certificate.get());
    result.certificate = std::shared_ptr<X509>(certificate.release(), OpenSslFree());
    result.key = authority.leafKey;
    qCDebug(lcAuthority) << "issued a certificate for" << host;
    return result;
}

} // namespace paddock::secrets::ca
