// SPDX-License-Identifier: GPL-3.0-or-later
// paddock ca show|rotate|trust|trusted|untrust: the local certificate authority and the
// upstream authorities the proxy trusts.
#include "Cli.h"
#include "CliSupport.h"
#include "SecretCliSupport.h"

#include "api/Protocol.h"

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

/** Calls @p method on paddockd, which holds the authority; prints the failure's sentence. */
std::optional<QJsonObject> callCa(const QString &method, const QJsonObject &params = {})
{
    const api::Reply reply = daemonReply(method, params, kDaemonCallTimeoutMs);
    if (reply.isError()) {
        failure(reply.errorMessage());
        return std::nullopt;
    }
    return reply.result();
}

int runShow(const Invocation &call)
{
    const std::optional<QJsonObject> shown = callCa(QStringLiteral("ca.show"));
    if (!shown)
        return ExitFailed;
    const QString path = shown->value(QLatin1String("path")).toString();
    if (shown->value(QLatin1String("created")).toBool())
        err() << "paddock: made a new local certificate authority in " << path << '\n';
    if (call.parser.isSet(QStringLiteral("pem"))) {
        out() << shown->value(QLatin1String("pem")).toString();
        return ExitOk;
    }
    const QString fingerprint = shown->value(QLatin1String("fingerprintSha256")).toString();
    qCDebug(lcCaCli) << "showing" << fingerprint;
    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonObject details = *shown;
        details.remove(QStringLiteral("created"));
        details.remove(QStringLiteral("pem"));
        out() << QJsonDocument(details).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    out() << "Subject:      " << shown->value(QLatin1String("subject")).toString() << '\n'
          << "SHA-256:      " << colonFingerprint(fingerprint) << '\n'
          << "Valid from:   " << shown->value(QLatin1String("notBefore")).toString() << '\n'
          << "Valid until:  " << shown->value(QLatin1String("notAfter")).toString() << '\n'
          << "Certificate:  " << path << '\n';
    return ExitOk;
}

int runRotate(const Invocation &)
{
    const std::optional<QJsonObject> rotated = callCa(QStringLiteral("ca.rotate"));
    if (!rotated)
        return ExitFailed;
    out() << "Made a new local certificate authority, SHA-256 "
          << colonFingerprint(rotated->value(QLatin1String("fingerprintSha256")).toString()) << ".\n"
          << "Sandboxes started from now on trust it; restart running ones so they do too.\n";
    return ExitOk;
}

int runTrust(const Invocation &call)
{
    return trustAuthority(call.positional.constFirst());
}

int runTrusted(const Invocation &call)
{
    const std::optional<QJsonObject> answer = callCa(QStringLiteral("ca.trusted"));
    if (!answer)
        return ExitFailed;
    const QJsonArray list = answer->value(QLatin1String("authorities")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(list).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (list.isEmpty()) {
        out() << "No upstream authorities added: the proxy trusts the system's roots only.\n";
        return ExitOk;
    }
    for (const QJsonValue &value : list) {
        const QJsonObject authority = value.toObject();
        out() << colonFingerprint(authority.value(QLatin1String("fingerprintSha256")).toString()) << '\n'
              << "  subject:     " << authority.value(QLatin1String("subject")).toString() << '\n'
              << "  valid until: " << authority.value(QLatin1String("notAfter")).toString() << '\n';
    }
    return ExitOk;
}

int runUntrust(const Invocation &call)
{
    const QString which = call.positional.constFirst();
    // A file names the authority by its contents, so the PEM used with `trust` works here too.
    const QJsonObject params = QFileInfo(which).isFile()
                                   ? QJsonObject{{QStringLiteral("file"), QFileInfo(which).absoluteFilePath()}}
                                   : QJsonObject{{QStringLiteral("authority"), which}};
    if (!callCa(QStringLiteral("ca.untrust"), params))
        return ExitFailed;
    out() << "No longer trusting " << which << ".\n";
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
    // paddockd adds it and writes the bundles the proxy and sandboxes verify with before it answers.
    const std::optional<QJsonObject> added =
        callCa(QStringLiteral("ca.trust"), {{QStringLiteral("file"), QFileInfo(file).absoluteFilePath()}});
    if (!added)
        return ExitFailed;
    out() << "Trusting " << added->value(QLatin1String("subject")).toString() << " (SHA-256 "
          << colonFingerprint(added->value(QLatin1String("fingerprintSha256")).toString()) << ") until "
          << added->value(QLatin1String("notAfter")).toString() << ".\n";
    return ExitOk;
}

} // namespace paddock::cli
