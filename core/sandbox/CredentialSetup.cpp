// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/CredentialSetup.h"

#include "sandbox/KitApplication.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcCredentialSetup, "paddock.sandbox.credentials")

namespace paddock::sandbox {
namespace {

/** `paddock binding approve --kit DIR SERVICE`, one --kit per kit of a composition. */
QString approveCommand(const QStringList &kitDirectories, const QString &service)
{
    QString command = QStringLiteral("paddock binding approve");
    for (const QString &directory : kitDirectories.isEmpty() ? QStringList{QString()} : kitDirectories)
        command += QStringLiteral(" --kit ") + shellQuote(directory.isEmpty() ? QStringLiteral("DIR") : directory);
    return command + QLatin1Char(' ') + shellQuote(service);
}

QJsonObject injectionToJson(const kit::Injection &injection)
{
    return {{QStringLiteral("domain"), injection.domain},
            {QStringLiteral("header"), injection.header},
            {QStringLiteral("format"), injection.format},
            {QStringLiteral("username"), injection.username},
            {QStringLiteral("scheme"), injection.scheme},
            {QStringLiteral("basic"), injection.encoding == kit::Injection::Encoding::BasicAuth}};
}

kit::Injection injectionFromJson(const QJsonObject &object)
{
    kit::Injection injection;
    injection.domain = object.value(QLatin1String("domain")).toString();
    injection.header = object.value(QLatin1String("header")).toString();
    injection.format = object.value(QLatin1String("format")).toString();
    injection.username = object.value(QLatin1String("username")).toString();
    injection.scheme = object.value(QLatin1String("scheme")).toString();
    injection.encoding = object.value(QLatin1String("basic")).toBool() ? kit::Injection::Encoding::BasicAuth
                                                                       : kit::Injection::Encoding::Plain;
    return injection;
}

/** The secret callback of one rule: the raw key, or base64("username:key") for HTTP Basic. */
std::function<QByteArray()> secretFor(const SecretReader &reader, const QString &service,
                                      const kit::Injection &injection)
{
    if (injection.encoding != kit::Injection::Encoding::BasicAuth)
        return [reader, service] { return reader(service); };
    const QByteArray user = injection.username.toUtf8();
    return [reader, service, user] {
        QByteArray key = reader(service);
        if (key.isEmpty())
            return QByteArray();
        QByteArray pair = user + ':' + key;
        secrets::wipe(key);
        QByteArray encoded = pair.toBase64();
        secrets::wipe(pair);
        return encoded;
    };
}

} // namespace

bool CredentialCheck::missingRequired() const
{
    for (const MissingSecret &missing : missingSecrets) {
        if (missing.required)
            return true;
    }
    return false;
}

QList<CredentialApproval> CredentialCheck::approvalsToAsk() const
{
    QList<CredentialApproval> result;
    for (const CredentialApproval &pending : pendingApprovals) {
        if (pending.required || pending.hasSecret)
            result << pending;
    }
    return result;
}

bool CredentialCheck::blocksStart() const
{
    if (missingRequired())
        return true;
    for (const CredentialApproval &pending : pendingApprovals) {
        if (pending.required)
            return true;
    }
    return false;
}

QStringList CredentialCheck::blockingMessages(const QStringList &kitDirectories) const
{
    QStringList messages;
    for (const MissingSecret &missing : missingSecrets) {
        if (missing.required)
            messages << QStringLiteral("the kit needs the %1 key, and none is stored; store it with `%2`")
                            .arg(missing.service, missing.command);
    }
    for (const CredentialApproval &pending : pendingApprovals) {
        if (!pending.required)
            continue;
        messages << QStringLiteral("the kit sends the %1 key to %2, which you have not approved; approve it with `%3`, "
                                   "or run again with --approve-credentials")
                        .arg(pending.service, pending.newDomains.join(QStringLiteral(", ")),
                             approveCommand(kitDirectories, pending.service));
    }
    return messages;
}

QStringList CredentialCheck::warnings(const QStringList &kitDirectories) const
{
    QStringList messages;
    QStringList optional;
    QString command;
    for (const MissingSecret &missing : missingSecrets) {
        if (!missing.required) {
            optional << missing.service;
            command = missing.command;
        }
    }
    // Kits that offer many providers list them all as optional: one line, not one per provider.
    if (optional.size() == 1)
        messages << QStringLiteral("the optional %1 key is not stored, so the proxy adds none; `%2` stores it")
                        .arg(optional.first(), command);
    else if (optional.size() > 1)
        messages << QStringLiteral("the optional keys %1 are not stored, so the proxy adds none of them; `paddock "
                                   "secret set SERVICE` stores one")
                        .arg(optional.join(QStringLiteral(", ")));
    for (const CredentialApproval &pending : pendingApprovals) {
        if (!pending.required && pending.hasSecret)
            messages << QStringLiteral("the optional %1 key is not sent to %2 until you approve it: `%3`")
                            .arg(pending.service, pending.newDomains.join(QStringLiteral(", ")),
                                 approveCommand(kitDirectories, pending.service));
    }
    return messages;
}

QJsonObject CredentialCheck::toJson() const
{
    QJsonArray missing;
    for (const MissingSecret &m : missingSecrets)
        missing.append(QJsonObject{{QStringLiteral("service"), m.service},
                                   {QStringLiteral("description"), m.description},
                                   {QStringLiteral("required"), m.required},
                                   {QStringLiteral("command"), m.command}});
    QJsonArray pending;
    for (const CredentialApproval &p : pendingApprovals)
        pending.append(QJsonObject{{QStringLiteral("service"), p.service},
                                   {QStringLiteral("description"), p.description},
                                   {QStringLiteral("required"), p.required},
                                   {QStringLiteral("domains"), QJsonArray::fromStringList(p.domains)},
                                   {QStringLiteral("newDomains"), QJsonArray::fromStringList(p.newDomains)},
                                   {QStringLiteral("hasSecret"), p.hasSecret}});
    return {{QStringLiteral("missingSecrets"), missing}, {QStringLiteral("pendingApprovals"), pending}};
}

bool isInjected(const kit::Credential &credential)
{
    return credential.apiKey && !credential.apiKey->inject.isEmpty();
}

QStringList injectionDomains(const kit::Credential &credential)
{
    QStringList domains;
    if (!credential.apiKey)
        return domains;
    for (const kit::Injection &injection : credential.apiKey->inject) {
        const QString domain = secrets::CredentialBindings::normaliseDomain(injection.domain);
        if (!domain.isEmpty() && !domains.contains(domain))
            domains << domain;
    }
    return domains;
}

bool hasSecret(const QList<secrets::SecretId> &stored, const QString &sandbox, const QString &service)
{
    return stored.contains(secrets::SecretId::global(service)) ||
           (!sandbox.isEmpty() && stored.contains(secrets::SecretId::forSandbox(sandbox, service)));
}

CredentialCheck checkCredentials(const QList<kit::Credential> &credentials, const QString &sandbox,
                                 const secrets::CredentialBindings &bindings, const QList<secrets::SecretId> &stored,
                                 const QStringList &services)
{
    CredentialCheck check;
    for (const kit::Credential &credential : credentials) {
        if (!isInjected(credential) || (!services.isEmpty() && !services.contains(credential.service)))
            continue;
        const bool present = hasSecret(stored, sandbox, credential.service);
        if (!present)
            check.missingSecrets << MissingSecret{
                credential.service, credential.description, credential.required,
                secrets::SecretStore::setCommand(secrets::SecretId::global(credential.service))};
        const QStringList domains = injectionDomains(credential);
        const secrets::Coverage coverage = bindings.coverage(credential.service, domains);
        if (!coverage.covered)
            check.pendingApprovals << CredentialApproval{
                credential.service, credential.description, credential.required, domains, coverage.newDomains, present};
    }
    return check;
}

std::vector<proxy::InjectRule> injectRules(const QList<kit::Credential> &credentials, const QString &sandbox,
                                           const secrets::CredentialBindings &bindings,
                                           const QList<secrets::SecretId> &stored, const SecretReader &reader,
                                           QStringList *skipped)
{
    std::vector<proxy::InjectRule> rules;
    for (const kit::Credential &credential : credentials) {
        if (!isInjected(credential))
            continue;
        if (!hasSecret(stored, sandbox, credential.service)) {
            if (skipped)
                skipped->append(QStringLiteral("%1: no secret is stored").arg(credential.service));
            continue;
        }
        for (const kit::Injection &injection : credential.apiKey->inject) {
            const QString domain = secrets::CredentialBindings::normaliseDomain(injection.domain);
            if (domain.isEmpty())
                continue;
            // Each domain on its own: a binding that approves only some of them sends the key
            // only there.
            if (!bindings.coverage(credential.service, {domain}).covered) {
                if (skipped)
                    skipped->append(QStringLiteral("%1: %2 is not approved").arg(credential.service, domain));
                continue;
            }
            proxy::InjectRule rule;
            rule.domain = domain;
            rule.header = injection.header;
            rule.format = injection.format.isEmpty() ? QStringLiteral("%s") : injection.format;
            rule.secret = secretFor(reader, credential.service, injection);
            rule.credential = credential.service;
            rules.push_back(std::move(rule));
            qCDebug(lcCredentialSetup) << "inject" << credential.service << "into" << domain << "as"
                                       << injection.header;
        }
    }
    return rules;
}

QJsonArray credentialsToJson(const QList<kit::Credential> &credentials)
{
    QJsonArray array;
    for (const kit::Credential &credential : credentials) {
        QJsonObject object{{QStringLiteral("service"), credential.service},
                           {QStringLiteral("description"), credential.description},
                           {QStringLiteral("required"), credential.required}};
        if (credential.apiKey) {
            QJsonArray inject;
            for (const kit::Injection &injection : credential.apiKey->inject)
                inject.append(injectionToJson(injection));
            object.insert(QStringLiteral("apiKey"),
                          QJsonObject{{QStringLiteral("name"), credential.apiKey->name},
                                      {QStringLiteral("proxyManaged"), credential.apiKey->proxyManaged},
                                      {QStringLiteral("inject"), inject}});
        }
        array.append(object);
    }
    return array;
}

QList<kit::Credential> credentialsFromJson(const QJsonArray &array)
{
    QList<kit::Credential> credentials;
    for (const QJsonValue &value : array) {
        const QJsonObject object = value.toObject();
        kit::Credential credential;
        credential.service = object.value(QLatin1String("service")).toString();
        credential.description = object.value(QLatin1String("description")).toString();
        credential.required = object.value(QLatin1String("required")).toBool();
        if (object.contains(QLatin1String("apiKey"))) {
            const QJsonObject apiKey = object.value(QLatin1String("apiKey")).toObject();
            kit::ApiKey key;
            key.name = apiKey.value(QLatin1String("name")).toString();
            key.proxyManaged = apiKey.value(QLatin1String("proxyManaged")).toBool();
            for (const QJsonValue &injection : apiKey.value(QLatin1String("inject")).toArray())
                key.inject << injectionFromJson(injection.toObject());
            credential.apiKey = key;
        }
        if (!credential.service.isEmpty())
            credentials << credential;
    }
    return credentials;
}

std::optional<QString> defaultTestUrl(const kit::Credential &credential)
{
    for (const QString &domain : injectionDomains(credential)) {
        if (!domain.contains(QLatin1Char('*')))
            return QStringLiteral("https://%1/v1/models").arg(domain);
    }
    return std::nullopt;
}

} // namespace paddock::sandbox
