// SPDX-License-Identifier: GPL-3.0-or-later
// paddock ca show|rotate|trust|trusted|untrust: the local certificate authority and the
// upstream authorities the proxy trusts.
#include "Cli.h"
#include "CliSupport.h"
#include "SecretCliSupport.h"

#include "secrets/Masking.h"
#include "secrets/SecretStore.h"
#include "secrets/ca/LocalAuthority.h"
#include "secrets/ca/OpenSslSupport.h"
#include "secrets/ca/TrustStore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

namespace paddock::cli {

Q_LOGGING_CATEGORY(lcCaCli, "paddock.cli.ca", QtWarningMsg)

namespace {

/** "ab12..." as "AB:12:...", the form openssl and browsers show. */
QString colonFingerprint(const QString &hex)
{
    QStringList pairs;
    for (qsizetype i = 0; i + 1 < hex.size(); i += 2)
        pairs << hex.mid(i, 2).toUpper();
    return pairs.join(QLatin1Char(':'));
}

QString isoDate(const QDateTime &when)
{
    return when.toUTC().toString(Qt::ISODate);
}

/** Loads (or makes) the local authority; the exit code of the reported failure otherwise. */
int loadAuthority(secrets::SecretStore &store, secrets::ca::LocalAuthority &authority, bool rotate)
{
    // The private key lives in the keychain: say what to install rather than fail deep inside.
    const secrets::ProbeResult probe = store.probeAndWait();
    if (!probe.available)
        return failure(probe.message);
    QString error;
    const bool ok = rotate ? authority.rotateAndWait(&error) : authority.loadAndWait(&error);
    if (!ok)
        return failure(error);
    return ExitOk;
}

int runShow(const Invocation &call)
{
    secrets::disableCoreDumps();
    secrets::SecretStore store;
    secrets::ca::LocalAuthority authority(&store);
    bool created = !QFile::exists(authority.certificatePath());
    QObject::connect(&authority, &secrets::ca::LocalAuthority::authorityChanged, [&created] { created = true; });
    if (const int code = loadAuthority(store, authority, false); code != ExitOk)
        return code;
    if (created)
        err() << "paddock: made a new local certificate authority in " << authority.certificatePath() << '\n';

    const QByteArray pem = authority.certificatePem();
    if (call.parser.isSet(QStringLiteral("pem"))) {
        out() << pem;
        return ExitOk;
    }
    const secrets::ca::X509Ptr certificate = secrets::ca::readCertificate(pem);
    if (!certificate)
        return failure(QStringLiteral("the local certificate authority cannot be read back: run `paddock ca rotate`"));
    const QString subject = secrets::ca::subjectName(certificate.get());
    const QDateTime from = secrets::ca::notBefore(certificate.get());
    const QDateTime until = secrets::ca::notAfter(certificate.get());
    qCDebug(lcCaCli) << "showing" << authority.fingerprint();

    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(QJsonObject{{QStringLiteral("subject"), subject},
                                           {QStringLiteral("fingerprintSha256"), authority.fingerprint()},
                                           {QStringLiteral("notBefore"), isoDate(from)},
                                           {QStringLiteral("notAfter"), isoDate(until)},
                                           {QStringLiteral("path"), authority.certificatePath()}})
                     .toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    out() << "Subject:      " << subject << '\n'
          << "SHA-256:      " << colonFingerprint(authority.fingerprint()) << '\n'
          << "Valid from:   " << isoDate(from) << '\n'
          << "Valid until:  " << isoDate(until) << '\n'
          << "Certificate:  " << authority.certificatePath() << '\n';
    return ExitOk;
}

int runRotate(const Invocation &)
{
    secrets::disableCoreDumps();
    secrets::SecretStore store;
    secrets::ca::LocalAuthority authority(&store);
    if (const int code = loadAuthority(store, authority, true); code != ExitOk)
        return code;
    out() << "Made a new local certificate authority, SHA-256 " << colonFingerprint(authority.fingerprint()) << ".\n"
          << "Sandboxes started from now on trust it; restart running ones so they do too.\n";
    return ExitOk;
}

int runTrust(const Invocation &call)
{
    return trustAuthority(call.positional.constFirst());
}

int runTrusted(const Invocation &call)
{
    const QList<secrets::ca::TrustedAuthority> list = secrets::ca::TrustStore().trustedAuthorities();
    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const auto &authority : list)
            array.append(QJsonObject{{QStringLiteral("fingerprintSha256"), authority.fingerprint},
                                     {QStringLiteral("subject"), authority.subject},
                                     {QStringLiteral("notAfter"), isoDate(authority.notAfter)},
                                     {QStringLiteral("path"), authority.path}});
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (list.isEmpty()) {
        out() << "No upstream authorities added: the proxy trusts the system's roots only.\n";
        return ExitOk;
    }
    for (const auto &authority : list)
        out() << colonFingerprint(authority.fingerprint) << '\n'
              << "  subject:     " << authority.subject << '\n'
              << "  valid until: " << isoDate(authority.notAfter) << '\n';
    return ExitOk;
}

int runUntrust(const Invocation &call)
{
    QString which = call.positional.constFirst();
    // A file names the authority by its contents, so the PEM used with `trust` works here too.
    if (QFileInfo(which).isFile()) {
        QFile file(which);
        if (!file.open(QIODevice::ReadOnly))
            return failure(QStringLiteral("cannot read %1: %2").arg(which, file.errorString()));
        const secrets::ca::X509Ptr certificate = secrets::ca::readCertificate(file.read(1 << 20));
        if (!certificate)
            return failure(QStringLiteral("%1 does not hold a certificate (PEM or DER)").arg(which));
        which = secrets::ca::fingerprintSha256(certificate.get());
    }
    QString error;
    if (!secrets::ca::TrustStore().removeTrustedAuthority(which, &error))
        return failure(error);
    out() << "No longer trusting " << call.positional.constFirst() << ".\n";
    return ExitOk;
}

} // namespace

Command caCommand()
{
    Command ca;
    ca.name = QStringLiteral("ca");
    ca.summary = QStringLiteral("Show the local certificate authority and manage trusted upstream authorities.");
    ca.description =
        QStringLiteral("To add a key to a request the proxy must see inside its TLS connection, so for the domains\n"
                       "a binding approves it presents a certificate signed by Paddock's own local authority,\n"
                       "which sandboxes trust. Its private key is kept in the keychain; its certificate is ca.pem\n"
                       "in the config directory. Upstream servers are verified against the system's roots plus\n"
                       "the authorities added with `paddock ca trust` (a company's TLS-inspecting proxy, a\n"
                       "self-hosted model server).");

    Command show;
    show.name = QStringLiteral("show");
    show.summary = QStringLiteral("Show the local authority (made on first use).");
    show.description =
        QStringLiteral("Prints the local authority's subject, SHA-256 fingerprint, validity and the path of\n"
                       "ca.pem, making the authority first when there is none. Needs the keychain.");
    show.options = {
        QCommandLineOption(QStringLiteral("pem"), QStringLiteral("Print the certificate in PEM form only.")),
        jsonOption(QStringLiteral("the details")),
    };
    show.maxPositional = 0;
    show.run = runShow;

    Command rotate;
    rotate.name = QStringLiteral("rotate");
    rotate.summary = QStringLiteral("Replace the local authority with a new one.");
    rotate.description =
        QStringLiteral("Makes a new key and certificate for the local authority, replacing the old ones (for\n"
                       "instance after ca.pem was copied somewhere it should not be). Running sandboxes keep\n"
                       "trusting the old one until they are restarted. Needs the keychain.");
    rotate.maxPositional = 0;
    rotate.run = runRotate;

    Command trust;
    trust.name = QStringLiteral("trust");
    trust.summary = QStringLiteral("Trust an upstream certificate authority (a PEM or DER file).");
    trust.description =
        QStringLiteral("Adds the certificate authority in FILE to those the proxy verifies upstream servers\n"
                       "against, and that sandboxes trust. Only a CA certificate (basic constraints CA:TRUE) is\n"
                       "accepted: a server's own certificate is refused.");
    trust.positionalSyntax = QStringLiteral("FILE");
    trust.positionalHelp = {{QStringLiteral("FILE"), QStringLiteral("A CA certificate, PEM or DER.")}};
    trust.minPositional = 1;
    trust.maxPositional = 1;
    trust.run = runTrust;

    Command trusted;
    trusted.name = QStringLiteral("trusted");
    trusted.summary = QStringLiteral("List the upstream authorities added with `paddock ca trust`.");
    trusted.description = QStringLiteral("Lists the upstream authorities added with `paddock ca trust`: fingerprint,\n"
                                         "subject and end of validity. The system's roots are not listed.");
    trusted.options = {jsonOption(QStringLiteral("the list"))};
    trusted.maxPositional = 0;
    trusted.run = runTrusted;

    Command untrust;
    untrust.name = QStringLiteral("untrust");
    untrust.summary = QStringLiteral("Stop trusting an upstream authority.");
    untrust.description =
        QStringLiteral("Removes an authority added with `paddock ca trust`, named by its SHA-256 fingerprint (at\n"
                       "least 8 hex digits, colons allowed) or by the certificate file itself.");
    untrust.positionalSyntax = QStringLiteral("FINGERPRINT|FILE");
    untrust.positionalHelp = {{QStringLiteral("FINGERPRINT"), QStringLiteral("As `paddock ca trusted` prints it.")},
                              {QStringLiteral("FILE"), QStringLiteral("The certificate that was trusted.")}};
    untrust.minPositional = 1;
    untrust.maxPositional = 1;
    untrust.run = runUntrust;

    ca.subcommands << show << rotate << trust << trusted << untrust;
    runQuietly(ca);
    return ca;
}

int trustAuthority(const QString &file)
{
    QString error;
    const auto added = secrets::ca::TrustStore().addTrustedAuthority(file, &error);
    if (!added)
        return failure(error);
    out() << "Trusting " << added->subject << " (SHA-256 " << colonFingerprint(added->fingerprint) << ") until "
          << isoDate(added->notAfter) << ".\n";
    return ExitOk;
}

} // namespace paddock::cli
