// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/ca/TrustStore.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "secrets/ca/OpenSslSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include <algorithm>

#include <sys/stat.h>

Q_LOGGING_CATEGORY(lcTrust, "paddock.secrets.trust")

namespace paddock::secrets::ca {
namespace {

bool fail(QString *error, const QString &why)
{
    if (error)
        *error = why;
    return false;
}

QByteArray withFinalNewline(QByteArray text)
{
    if (!text.isEmpty() && !text.endsWith('\n'))
        text.append('\n');
    return text;
}

/** What the file system says of @p path: enough to tell a replaced or rewritten file. */
QByteArray fileStamp(const QString &path)
{
    struct stat status = {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return QByteArrayLiteral("-\n");
    return QByteArray::number(qulonglong(status.st_ino)) + ' ' + QByteArray::number(qlonglong(status.st_size)) + ' ' +
           QByteArray::number(qlonglong(status.st_mtim.tv_sec)) + '.' +
           QByteArray::number(qlonglong(status.st_mtim.tv_nsec)) + ' ' +
           QByteArray::number(qlonglong(status.st_ctim.tv_sec)) + '.' +
           QByteArray::number(qlonglong(status.st_ctim.tv_nsec)) + '\n';
}

} // namespace

TrustStore::TrustStore() : TrustStore(defaultTrustedDirectory(), defaultSystemRoots()) {}

TrustStore::TrustStore(const QString &trustedDirectory, const QString &systemRoots)
    : m_trustedDirectory(trustedDirectory), m_systemRoots(systemRoots)
{}

QString TrustStore::defaultTrustedDirectory()
{
    return paths::configDir() + QStringLiteral("/trusted-cas");
}
QString TrustStore::defaultSystemRoots()
{
    return QStringLiteral("/etc/ssl/certs/ca-certificates.crt");
}
QString TrustStore::defaultSandboxBundlePath()
{
    return paths::runtimeDir() + QStringLiteral("/ca-bundle.pem");
}

std::optional<TrustedAuthority> TrustStore::addTrustedAuthority(const QString &file, QString *error)
{
    QFile input(file);
    if (!input.open(QIODevice::ReadOnly)) {
        fail(error, QStringLiteral("cannot read %1: %2").arg(file, input.errorString()));
        return std::nullopt;
    }
    const X509Ptr certificate = readCertificate(input.read(1 << 20));
    if (!certificate) {
        fail(error, QStringLiteral("%1 does not hold a certificate (PEM or DER)").arg(file));
        return std::nullopt;
    }
    // X509_check_ca is 1 for CA:TRUE in basic constraints (and for old v1 self-signed roots).
    if (X509_check_ca(certificate.get()) != 1) {
        ERR_clear_error();
        fail(error,
             QStringLiteral("%1 is not a certificate authority (its basic constraints do not say CA:TRUE)").arg(file));
        return std::nullopt;
    }
    TrustedAuthority authority;
    authority.fingerprint = fingerprintSha256(certificate.get());
    authority.subject = subjectName(certificate.get());
    authority.notAfter = notAfter(certificate.get());
    if (authority.notAfter.isValid() && authority.notAfter < QDateTime::currentDateTimeUtc()) {
        fail(error, QStringLiteral("%1 expired on %2").arg(file, authority.notAfter.toString(Qt::ISODate)));
        return std::nullopt;
    }
    QString problem;
    if (!paths::ensurePrivateDir(m_trustedDirectory, &problem)) {
        fail(error, problem);
        return std::nullopt;
    }
    authority.path = m_trustedDirectory + QLatin1Char('/') + authority.fingerprint + QStringLiteral(".pem");
    if (!writeFileAtomically(authority.path, certificatePem(certificate.get()), &problem, 0644)) {
        fail(error, problem);
        return std::nullopt;
    }
    qCInfo(lcTrust).noquote() << "trusting" << authority.subject << authority.fingerprint;
    return authority;
}

bool TrustStore::removeTrustedAuthority(const QString &fingerprint, QString *error)
{
    const QString prefix = fingerprint.toLower().remove(QLatin1Char(':'));
    if (prefix.size() < 8)
        return fail(error, QStringLiteral("give at least 8 hex digits of the fingerprint"));
    QList<TrustedAuthority> matches;
    for (const TrustedAuthority &authority : trustedAuthorities())
        if (authority.fingerprint.startsWith(prefix))
            matches << authority;
    if (matches.isEmpty())
        return fail(error, QStringLiteral("no trusted authority has the fingerprint %1").arg(fingerprint));
    if (matches.size() > 1)
        return fail(error, QStringLiteral("%1 matches %2 authorities: give more of the fingerprint")
                               .arg(fingerprint)
                               .arg(matches.size()));
    if (!QFile::remove(matches.first().path))
        return fail(error, QStringLiteral("cannot remove %1").arg(matches.first().path));
    return true;
}

QList<TrustedAuthority> TrustStore::trustedAuthorities() const
{
    QList<TrustedAuthority> result;
    const QDir dir(m_trustedDirectory);
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.pem")}, QDir::Files, QDir::Name)) {
        QFile file(info.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const X509Ptr certificate = readCertificate(file.read(1 << 20));
        if (!certificate) {
            qCWarning(lcTrust) << "ignoring" << info.absoluteFilePath() << ": not a certificate";
            continue;
        }
        result.append({fingerprintSha256(certificate.get()), subjectName(certificate.get()),
                       notAfter(certificate.get()), info.absoluteFilePath()});
    }
    return result;
}

QByteArray TrustStore::upstreamBundle(QString *error) const
{
    QFile roots(m_systemRoots);
    if (!roots.open(QIODevice::ReadOnly)) {
        fail(error, QStringLiteral("cannot read the system's root certificates %1: %2 (install ca-certificates)")
                        .arg(m_systemRoots, roots.errorString()));
        return QByteArray();
    }
    QByteArray bundle = withFinalNewline(roots.readAll());
    for (const TrustedAuthority &authority : trustedAuthorities()) {
        QFile file(authority.path);
        if (file.open(QIODevice::ReadOnly))
            bundle += QByteArrayLiteral("# ") + authority.subject.toUtf8() + '\n' + withFinalNewline(file.readAll());
    }
    return bundle;
}

QByteArray TrustStore::sandboxBundle(const QByteArray &localAuthorityPem, QString *error) const
{
    if (localAuthorityPem.isEmpty()) {
        fail(error, QStringLiteral("the local certificate authority is not loaded"));
        return QByteArray();
    }
    QByteArray bundle = upstreamBundle(error);
    if (bundle.isEmpty())
        return bundle;
    return bundle + QByteArrayLiteral("# Paddock local CA\n") + withFinalNewline(localAuthorityPem);
}

bool TrustStore::writeSandboxBundle(const QByteArray &localAuthorityPem, QString *error, const QString &path) const
{
    const QByteArray bundle = sandboxBundle(localAuthorityPem, error);
    if (bundle.isEmpty())
        return false;
    const QString target = path.isEmpty() ? defaultSandboxBundlePath() : path;
    if (path.isEmpty()) {
        QString problem;
        if (!paths::ensurePrivateDir(paths::runtimeDir(), &problem))
            return fail(error, problem);
    }
    return writeFileIfChanged(target, bundle, error, 0644);
}

bool TrustStore::writeBundles(const QByteArray &localAuthorityPem, const QString &upstreamPath,
                              const QString &sandboxPath, QByteArray *stamp, QString *error) const
{
    // Taken before reading: a source changed meanwhile makes the next call write again.
    QByteArray sources = QFile::encodeName(m_systemRoots) + ' ' + fileStamp(m_systemRoots);
    const QDir trusted(m_trustedDirectory);
    for (const QString &name : trusted.entryList({QStringLiteral("*.pem")}, QDir::Files, QDir::Name))
        sources += QFile::encodeName(name) + ' ' + fileStamp(trusted.filePath(name));
    sources += QCryptographicHash::hash(localAuthorityPem, QCryptographicHash::Sha256).toHex() + '\n';
    const auto withBundles = [&] {
        return sources + QFile::encodeName(upstreamPath) + ' ' + fileStamp(upstreamPath) +
               QFile::encodeName(sandboxPath) + ' ' + fileStamp(sandboxPath);
    };
    if (!stamp->isEmpty() && *stamp == withBundles())
        return true;
    const QByteArray upstream = upstreamBundle(error);
    if (upstream.isEmpty() || !writeFileIfChanged(upstreamPath, upstream, error, 0644))
        return false;
    const bool written = localAuthorityPem.isEmpty() ? writeFileIfChanged(sandboxPath, upstream, error, 0644)
                                                     : writeSandboxBundle(localAuthorityPem, error, sandboxPath);
    *stamp = written ? withBundles() : QByteArray();
    return written;
}

} // namespace paddock::secrets::ca
