// SPDX-License-Identifier: GPL-3.0-or-later
// Where a session binding's host key is checked: against the known hosts a person accepted on
// the host (never anything the sandbox says), and its signature over the session with OpenSSL.
#include "sshagent/HostKeys.h"

#include "sshagent/AgentWire.h"

#include <QFile>
#include <QHash>
#include <QMessageAuthenticationCode>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <memory>

namespace paddock::sshagent {

namespace {

constexpr qint64 kMaxKnownHosts = 4 * 1024 * 1024;

template<typename T, void (*Free)(T *)>
struct Deleter
{
    void operator()(T *p) const { Free(p); }
};
using PKey = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using MdContext = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using Bignum = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using ParamBuild = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using Params = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;
using EcSig = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;
using PKeyContext = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;

Bignum bignum(const QByteArray &mpint)
{
    return Bignum(BN_bin2bn(reinterpret_cast<const unsigned char *>(mpint.constData()), int(mpint.size()), nullptr));
}

/** A key made from @p build's parameters for @p type ("RSA", "EC"). */
PKey fromParams(const char *type, OSSL_PARAM_BLD *build)
{
    const Params params(OSSL_PARAM_BLD_to_param(build));
    const PKeyContext context(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
    EVP_PKEY *key = nullptr;
    if (!params || !context || EVP_PKEY_fromdata_init(context.get()) != 1 ||
        EVP_PKEY_fromdata(context.get(), &key, EVP_PKEY_PUBLIC_KEY, params.get()) != 1)
        return {};
    return PKey(key);
}

/** The public key of an SSH key blob, with the curve name for ECDSA. */
PKey publicKey(const QByteArray &blob, QByteArray *curve)
{
    WireReader reader(blob);
    const auto type = reader.string();
    if (!type)
        return {};
    if (*type == "ssh-ed25519") {
        const auto raw = reader.string();
        if (!raw || raw->size() != 32 || !reader.atEnd())
            return {};
        return PKey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                                reinterpret_cast<const unsigned char *>(raw->constData()), 32));
    }
    const ParamBuild build(OSSL_PARAM_BLD_new());
    if (*type == "ssh-rsa") {
        const auto e = reader.string();
        const auto n = reader.string();
        const Bignum eb = e ? bignum(*e) : Bignum();
        const Bignum nb = n ? bignum(*n) : Bignum();
        if (!reader.atEnd() || !eb || !nb || BN_num_bits(nb.get()) < 2048 ||
            !OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_E, eb.get()) ||
            !OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_N, nb.get()))
            return {};
        return fromParams("RSA", build.get());
    }
    static const QHash<QByteArray, QByteArray> curves{
        {"nistp256", "prime256v1"}, {"nistp384", "secp384r1"}, {"nistp521", "secp521r1"}};
    const auto name = reader.string();
    const auto point = reader.string();
    if (!point || !reader.atEnd() || !curves.contains(*name) || *type != "ecdsa-sha2-" + *name)
        return {};
    *curve = *name;
    const QByteArray group = curves.value(*name);
    if (!OSSL_PARAM_BLD_push_utf8_string(build.get(), OSSL_PKEY_PARAM_GROUP_NAME, group.constData(), 0) ||
        !OSSL_PARAM_BLD_push_octet_string(build.get(), OSSL_PKEY_PARAM_PUB_KEY, point->constData(),
                                          std::size_t(point->size())))
        return {};
    return fromParams("EC", build.get());
}

/** SSH's ECDSA signature (mpint r, mpint s) as the DER OpenSSL verifies. */
QByteArray ecdsaDer(const QByteArray &blob)
{
    WireReader reader(blob);
    const auto r = reader.string();
    const auto s = reader.string();
    if (!s || !reader.atEnd())
        return {};
    EcSig sig(ECDSA_SIG_new());
    Bignum rb = bignum(*r), sb = bignum(*s);
    if (!sig || !rb || !sb || ECDSA_SIG_set0(sig.get(), rb.get(), sb.get()) != 1)
        return {};
    rb.release();
    sb.release();
    unsigned char *der = nullptr;
    const int length = i2d_ECDSA_SIG(sig.get(), &der);
    if (length <= 0)
        return {};
    QByteArray out(reinterpret_cast<const char *>(der), length);
    OPENSSL_free(der);
    return out;
}

} // namespace

bool verifySignature(const QByteArray &hostKey, const QByteArray &data, const QByteArray &signature)
{
    WireReader reader(signature);
    const auto algorithm = reader.string();
    auto blob = reader.string();
    if (!blob || !reader.atEnd())
        return false;
    QByteArray curve;
    const PKey key = publicKey(hostKey, &curve);
    if (!key)
        return false;
    const QByteArray keyType = WireReader(hostKey).string().value_or(QByteArray());
    const EVP_MD *digest = nullptr;
    if (*algorithm == "ssh-ed25519" && keyType == "ssh-ed25519") {
        digest = nullptr;
    } else if (keyType == "ssh-rsa" && *algorithm == "rsa-sha2-256") {
        digest = EVP_sha256();
    } else if (keyType == "ssh-rsa" && *algorithm == "rsa-sha2-512") {
        digest = EVP_sha512();
    } else if (!curve.isEmpty() && *algorithm == keyType) {
        digest = curve == "nistp256" ? EVP_sha256() : curve == "nistp384" ? EVP_sha384() : EVP_sha512();
        *blob = ecdsaDer(*blob);
        if (blob->isEmpty())
            return false;
    } else {
        return false;
    }
    const MdContext context(EVP_MD_CTX_new());
    return context && EVP_DigestVerifyInit(context.get(), nullptr, digest, nullptr, key.get()) == 1 &&
           EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char *>(blob->constData()),
                            std::size_t(blob->size()), reinterpret_cast<const unsigned char *>(data.constData()),
                            std::size_t(data.size())) == 1;
}

KnownHosts KnownHosts::read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return parse(file.read(kMaxKnownHosts));
}

KnownHosts KnownHosts::parse(const QByteArray &text)
{
    KnownHosts known;
    for (const QByteArray &raw : text.split('\n')) {
        QList<QByteArray> fields = raw.simplified().split(' ');
        if (fields.isEmpty() || fields.first().isEmpty() || fields.first().startsWith('#'))
            continue;
        QByteArray marker;
        if (fields.first().startsWith('@'))
            marker = fields.takeFirst();
        if (fields.size() < 3)
            continue;
        const QByteArray decoded = QByteArray::fromBase64(fields.at(2), QByteArray::AbortOnBase64DecodingErrors);
        const QByteArray type = WireReader(decoded).string().value_or(QByteArray());
        if (decoded.isEmpty() || type != fields.at(1))
            continue;
        if (marker == "@revoked")
            known.m_revoked << decoded;
        else if (marker.isEmpty())
            known.m_entries << Entry{fields.at(0).split(','), decoded};
    }
    return known;
}

bool KnownHosts::matches(const Entry &entry, const QString &host)
{
    const QByteArray name = host.toUtf8();
    bool matched = false;
    for (const QByteArray &pattern : entry.patterns) {
        const bool negated = pattern.startsWith('!');
        const QByteArray body = negated ? pattern.mid(1) : pattern;
        bool hit = false;
        if (body.startsWith("|1|")) {
            const QList<QByteArray> parts = body.mid(3).split('|');
            hit = parts.size() == 2 &&
                  QMessageAuthenticationCode::hash(name, QByteArray::fromBase64(parts.at(0)),
                                                   QCryptographicHash::Sha1) == QByteArray::fromBase64(parts.at(1));
        } else if (body.startsWith('[')) {
            const qsizetype close = body.indexOf("]:");
            hit = close > 1 && body.mid(1, close - 1).toLower() == name;
        } else {
            hit = body.toLower() == name;
        }
        if (hit && negated)
            return false;
        matched |= hit;
    }
    return matched;
}

QList<QByteArray> KnownHosts::keysOf(const QString &host) const
{
    QList<QByteArray> keys;
    for (const Entry &entry : m_entries)
        if (!m_revoked.contains(entry.key) && matches(entry, host))
            keys << entry.key;
    return keys;
}

bool KnownHosts::isKeyOf(const QString &host, const QByteArray &keyBlob) const
{
    return keysOf(host).contains(keyBlob);
}

} // namespace paddock::sshagent
