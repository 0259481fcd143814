// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/CaMethods.h"

#include "api/Server.h"
#include "sandbox/CredentialInjection.h"
#include "secrets/SecretStore.h"
#include "secrets/ca/LocalAuthority.h"
#include "secrets/ca/OpenSslSupport.h"
#include "secrets/ca/TrustStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcCaMethods, "paddock.sandbox.ca", QtInfoMsg)

namespace paddock::sandbox {
namespace {

QString isoDate(const QDateTime &when)
{
    return when.toUTC().toString(Qt::ISODate);
}

api::Reply trustFailed(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kTrustFailed), message);
}

/** The bundles written again after a change of the trusted authorities; the failure otherwise. */
std::optional<api::Reply> refresh(CredentialInjection &credentials)
{
    if (const Result<void> written = credentials.refreshTrust(); !written)
        return trustFailed(written.error().text());
    return std::nullopt;
}

/**
 * Loads (or makes) the local authority, or with @p rotate replaces it, once the keychain
 * answers; @p then gets the authority ready, or @p reply the failure.
 */
void withAuthority(CredentialInjection &credentials, bool rotate, const api::PendingReply &reply,
                   std::function<void()> then)
{
    // The private key lives in the keychain: say what to install rather than fail deep inside.
    credentials.store().probe([&credentials, rotate, reply, then](const secrets::ProbeResult &probe) {
        if (!probe.available) {
            reply.fail(QLatin1String(api::errors::kKeychainUnavailable), probe.message);
            return;
        }
        auto done = [reply, then](bool ok, const QString &error) {
            if (ok)
                then();
            else
                reply.fail(QLatin1String(api::errors::kTrustFailed), error);
        };
        if (rotate)
            credentials.authority().rotate(done);
        else
            credentials.authority().load(done);
    });
}

void show(CredentialInjection &credentials, const api::PendingReply &reply)
{
    secrets::ca::LocalAuthority &authority = credentials.authority();
    // Made now when there was none, or when the one there could not be used: another fingerprint.
    QString before = authority.isReady() ? authority.fingerprint() : QString();
    if (QFile file(authority.certificatePath()); before.isEmpty() && file.open(QIODevice::ReadOnly)) {
        if (const secrets::ca::X509Ptr certificate = secrets::ca::readCertificate(file.read(1 << 20)))
            before = secrets::ca::fingerprintSha256(certificate.get());
    }
    withAuthority(credentials, false, reply, [&authority, before, reply] {
        const bool created = authority.fingerprint() != before;
        const QByteArray pem = authority.certificatePem();
        const secrets::ca::X509Ptr certificate = secrets::ca::readCertificate(pem);
        if (!certificate) {
            reply.fail(QLatin1String(api::errors::kTrustFailed),
                       QStringLiteral("the local certificate authority cannot be read back: run `paddock ca rotate`"));
            return;
        }
        if (created)
            qCInfo(lcCaMethods).noquote() << "made a new local certificate authority" << authority.fingerprint();
        reply.succeed({{QStringLiteral("created"), created},
                       {QStringLiteral("subject"), secrets::ca::subjectName(certificate.get())},
                       {QStringLiteral("fingerprintSha256"), authority.fingerprint()},
                       {QStringLiteral("notBefore"), isoDate(secrets::ca::notBefore(certificate.get()))},
                       {QStringLiteral("notAfter"), isoDate(secrets::ca::notAfter(certificate.get()))},
                       {QStringLiteral("path"), authority.certificatePath()},
                       {QStringLiteral("pem"), QString::fromLatin1(pem)}});
    });
}

void rotate(CredentialInjection &credentials, const api::PendingReply &reply)
{
    withAuthority(credentials, true, reply, [&credentials, reply] {
        qCInfo(lcCaMethods).noquote() << "rotated the local certificate authority, now"
                                      << credentials.authority().fingerprint();
        reply.succeed({{QStringLiteral("fingerprintSha256"), credentials.authority().fingerprint()}});
    });
}

api::Reply trust(CredentialInjection &credentials, const QJsonObject &params)
{
    const QString file = params.value(QLatin1String("file")).toString();
    if (!QDir::isAbsolutePath(file))
        return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                   QStringLiteral("the certificate must be named by an absolute path"));
    QString error;
    const std::optional<secrets::ca::TrustedAuthority> added =
        secrets::ca::TrustStore().addTrustedAuthority(file, &error);
    if (!added)
        return trustFailed(error);
    if (const std::optional<api::Reply> failed = refresh(credentials))
        return *failed;
    qCInfo(lcCaMethods).noquote() << "trusting the upstream authority" << added->subject << added->fingerprint;
    return api::Reply::success({{QStringLiteral("subject"), added->subject},
                                {QStringLiteral("fingerprintSha256"), added->fingerprint},
                                {QStringLiteral("notAfter"), isoDate(added->notAfter)}});
}

api::Reply trusted()
{
    QJsonArray list;
    for (const secrets::ca::TrustedAuthority &authority : secrets::ca::TrustStore().trustedAuthorities())
        list.append(QJsonObject{{QStringLiteral("fingerprintSha256"), authority.fingerprint},
                                {QStringLiteral("subject"), authority.subject},
                                {QStringLiteral("notAfter"), isoDate(authority.notAfter)},
                                {QStringLiteral("path"), authority.path}});
    return api::Reply::success({{QStringLiteral("authorities"), list}});
}

api::Reply untrust(CredentialInjection &credentials, const QJsonObject &params)
{
    QString which = params.value(QLatin1String("authority")).toString();
    const QString file = params.value(QLatin1String("file")).toString();
    // A file names the authority by its contents, so the PEM used with `trust` works here too.
    if (!file.isEmpty()) {
        if (!QDir::isAbsolutePath(file))
            return api::Reply::failure(QLatin1String(api::errors::kInvalidParams),
                                       QStringLiteral("the certificate must be named by an absolute path"));
        QFile read(file);
        if (!read.open(QIODevice::ReadOnly))
            return trustFailed(QStringLiteral("cannot read %1: %2").arg(file, read.errorString()));
        const secrets::ca::X509Ptr certificate = secrets::ca::readCertificate(read.read(1 << 20));
        if (!certificate)
            return trustFailed(QStringLiteral("%1 does not hold a certificate (PEM or DER)").arg(file));
        which = secrets::ca::fingerprintSha256(certificate.get());
    }
    QString error;
    if (!secrets::ca::TrustStore().removeTrustedAuthority(which, &error))
        return trustFailed(error);
    if (const std::optional<api::Reply> failed = refresh(credentials))
        return *failed;
    qCInfo(lcCaMethods).noquote() << "no longer trusting the upstream authority" << which;
    return api::Reply::success({{QStringLiteral("removed"), which}});
}

} // namespace

void registerCaMethods(api::Server &server, CredentialInjection &credentials)
{
    CredentialInjection *owner = &credentials;
    server.registerAsyncMethod(QStringLiteral("ca.show"),
                               [owner](const QJsonObject &, const api::CallContext &, const api::PendingReply &reply) {
                                   show(*owner, reply);
                               });
    server.registerAsyncMethod(QStringLiteral("ca.rotate"),
                               [owner](const QJsonObject &, const api::CallContext &, const api::PendingReply &reply) {
                                   rotate(*owner, reply);
                               });
    server.registerMethod(QStringLiteral("ca.trust"), [owner](const QJsonObject &params, const api::CallContext &) {
        return trust(*owner, params);
    });
    server.registerMethod(QStringLiteral("ca.trusted"),
                          [](const QJsonObject &, const api::CallContext &) { return trusted(); });
    server.registerMethod(QStringLiteral("ca.untrust"), [owner](const QJsonObject &params, const api::CallContext &) {
        return untrust(*owner, params);
    });
}

} // namespace paddock::sandbox
