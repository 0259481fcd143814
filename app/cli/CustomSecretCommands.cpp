// SPDX-License-Identifier: GPL-3.0-or-later
// paddock secret set-custom: a secret sandboxes hold as a placeholder, replaced by the proxy
// for chosen hosts only.
#include "CustomSecretCli.h"

#include "CliSupport.h"
#include "SecretCliSupport.h"

#include "api/Protocol.h"
#include "policy/HostPattern.h"
#include "secrets/CustomSecrets.h"
#include "secrets/Masking.h"
#include "secrets/SecretId.h"
#include "secrets/SecretStore.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

namespace paddock::cli {
namespace {

const QString kHostOption = QStringLiteral("host");
const QString kHeaderOption = QStringLiteral("header");
const QString kAnywhereOption = QStringLiteral("anywhere");
const QString kBodyOption = QStringLiteral("body");
const QString kEnvOption = QStringLiteral("env");
const QString kSandboxOption = QStringLiteral("sandbox");

QString tr(const char *text)
{
    return QCoreApplication::translate("paddock::cli::CustomSecrets", text);
}

/** The hosts of --host (repeated or comma-separated), as patterns normalise them; error in @p problem. */
QStringList hostsOf(const QStringList &values, QString *problem)
{
    QStringList hosts;
    for (const QString &value : values) {
        for (const QString &text : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const Result<policy::HostPattern> pattern =
                policy::HostPattern::parse(text.trimmed(), policy::PatternContext::Allow);
            if (!pattern) {
                *problem = tr("--host %1: %2").arg(text, pattern.error().text());
                return {};
            }
            const policy::HostPattern::Kind kind = pattern->kind();
            const QString domain = QString::fromStdString(pattern->domain());
            const QString host = kind == policy::HostPattern::Kind::ExactHost ? domain : QStringLiteral("*.") + domain;
            if ((kind != policy::HostPattern::Kind::ExactHost && kind != policy::HostPattern::Kind::OneLabelWildcard &&
                 kind != policy::HostPattern::Kind::AnyDepthWildcard) ||
                text.contains(QLatin1Char(':')) || !secrets::CustomSecret::isHost(host)) {
                *problem = tr("--host %1: give a host name or *.domain, without a port").arg(text);
                return {};
            }
            if (!hosts.contains(host))
                hosts << host;
        }
    }
    if (hosts.isEmpty())
        *problem = tr("give the hosts the value is for with --host HOST[,HOST]");
    return hosts;
}

/** The secret the options describe, its placeholder kept from an earlier one of the same name. */
std::optional<secrets::CustomSecret> secretOf(const Invocation &call, QString *problem)
{
    secrets::CustomSecret secret;
    secret.name = call.positional.constFirst();
    if (const QString invalid = secrets::SecretId::global(secret.name).validate(); !invalid.isEmpty()) {
        *problem = invalid;
        return std::nullopt;
    }
    secret.hosts = hostsOf(call.parser.values(kHostOption), problem);
    if (secret.hosts.isEmpty())
        return std::nullopt;
    secret.anywhere = call.parser.isSet(kAnywhereOption);
    if (secret.anywhere && call.parser.isSet(kHeaderOption)) {
        *problem = tr("give --header or --anywhere, not both");
        return std::nullopt;
    }
    if (!secret.anywhere)
        secret.header =
            call.parser.isSet(kHeaderOption) ? call.parser.value(kHeaderOption) : QStringLiteral("Authorization");
    secret.body = call.parser.isSet(kBodyOption);
    secret.variable = call.parser.value(kEnvOption);
    if (secret.variable.isEmpty()) {
        *problem = tr("give the variable sandboxes hold the placeholder in with --env VAR");
        return std::nullopt;
    }
    secret.sandbox = call.parser.value(kSandboxOption);
    const std::optional<secrets::CustomSecret> earlier = secrets::CustomSecrets().find(secret.name);
    secret.placeholder = earlier ? earlier->placeholder : secrets::CustomSecret::newPlaceholder();
    if (const QString invalid = secret.validate(); !invalid.isEmpty()) {
        *problem = invalid;
        return std::nullopt;
    }
    return secret;
}

QString whereCell(const secrets::CustomSecret &secret)
{
    QString where = secret.anywhere ? tr("any header") : tr("header %1").arg(secret.header);
    return secret.body ? tr("%1 and body").arg(where) : where;
}

int runSetCustom(const Invocation &call)
{
    secrets::disableCoreDumps();
    QString problem;
    const std::optional<secrets::CustomSecret> secret = secretOf(call, &problem);
    if (!secret)
        return usageError(call.commandPath, problem);
    // Asked before the value is typed, so nobody types a key only to learn it cannot be kept.
    const api::Reply status = daemonReply(QStringLiteral("keychain.status"), {}, kDaemonCallTimeoutMs);
    if (status.isError())
        return failure(status.errorMessage());
    if (!status.result().value(QLatin1String("available")).toBool())
        return failure(status.result().value(QLatin1String("message")).toString());
    SecretReadResult input =
        isTerminal(0) ? readHiddenLine(0, tr("Value for %1 (not shown): ").arg(secret->name)) : readAllInput(0);
    if (!input.error.isEmpty() || input.value.isEmpty()) {
        secrets::wipe(input.value);
        return failure(input.error.isEmpty() ? tr("the value is empty: nothing was stored") : input.error);
    }
    // The daemon keeps the value and the description, and replaces the placeholder in the
    // running sandboxes' requests before it answers.
    QJsonObject params{{QStringLiteral("name"), secret->name},
                       {QStringLiteral("hosts"), QJsonArray::fromStringList(secret->hosts)},
                       {QStringLiteral("anywhere"), secret->anywhere},
                       {QStringLiteral("body"), secret->body},
                       {QStringLiteral("variable"), secret->variable}};
    if (!secret->anywhere)
        params.insert(QStringLiteral("header"), secret->header);
    if (!secret->sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), secret->sandbox);
    QString value = QString::fromUtf8(input.value);
    secrets::wipe(input.value);
    params.insert(QStringLiteral("value"), value);
    secrets::wipe(value);
    int code = ExitOk;
    const std::optional<QJsonObject> stored =
        callDaemon(call, QStringLiteral("secret.setCustom"), params, &code, kDaemonCallTimeoutMs);
    params = {};
    if (!stored)
        return code;
    out() << tr("Stored custom secret %1. Sandboxes %2 created from now on hold %3=%4; the proxy replaces it "
                "with the value in %5 of requests to %6.\n")
                 .arg(secret->name, secret->sandbox.isEmpty() ? tr("(all)") : tr("(only %1)").arg(secret->sandbox),
                      secret->variable, stored->value(QLatin1String("placeholder")).toString(), whereCell(*secret),
                      secret->hosts.join(QStringLiteral(", ")));
    return ExitOk;
}

} // namespace

QJsonArray customSecretsJson()
{
    QJsonArray array;
    for (const secrets::CustomSecret &secret :
         secrets::CustomSecrets().read().value_or(QList<secrets::CustomSecret>())) {
        QJsonObject object{
            {QStringLiteral("service"), secret.name},
            {QStringLiteral("source"), QStringLiteral("custom")},
            {QStringLiteral("scope"), secret.sandbox.isEmpty() ? QStringLiteral("global") : QStringLiteral("sandbox")},
            {QStringLiteral("hosts"), QJsonArray::fromStringList(secret.hosts)},
            {QStringLiteral("anywhere"), secret.anywhere},
            {QStringLiteral("body"), secret.body},
            {QStringLiteral("variable"), secret.variable},
            {QStringLiteral("placeholder"), secret.placeholder}};
        if (!secret.anywhere)
            object.insert(QStringLiteral("header"), secret.header);
        if (!secret.sandbox.isEmpty())
            object.insert(QStringLiteral("sandbox"), secret.sandbox);
        array.append(object);
    }
    return array;
}

bool printCustomSecrets()
{
    QString error;
    const std::optional<QList<secrets::CustomSecret>> secrets = secrets::CustomSecrets().read(&error);
    if (!secrets) {
        err() << tr("Custom secrets cannot be listed: %1").arg(error) << "\n";
        return false;
    }
    if (secrets->isEmpty())
        return false;
    QList<QStringList> table;
    for (const secrets::CustomSecret &secret : *secrets)
        table << QStringList{secret.name,
                             secret.sandbox.isEmpty() ? tr("global") : tr("sandbox %1").arg(secret.sandbox),
                             secret.hosts.join(QLatin1Char(',')), whereCell(secret), secret.variable};
    out() << "\n" << tr("Custom secrets (sandboxes hold a placeholder):") << "\n";
    printTable({tr("NAME"), tr("SCOPE"), tr("HOSTS"), tr("REPLACED IN"), tr("VARIABLE")}, table);
    return true;
}

std::optional<int> removeCustomSecret(const Invocation &call)
{
    const QString name = call.positional.constFirst();
    if (!call.parser.value(kSandboxOption).isEmpty() || !secrets::CustomSecrets().find(name))
        return std::nullopt;
    QString error;
    bool removed = false;
    if (!secrets::CustomSecrets().remove(name, &removed, &error))
        return failure(error);
    // The daemon stops replacing before this returns; the value goes from the keychain after.
    if (!applyCredentialsInDaemon(&error))
        return failure(tr("the custom secret was removed, but paddockd could not forget it: %1").arg(error));
    secrets::SecretStore store;
    const secrets::SecretResult result = secrets::SecretStore::wait([&](secrets::SecretStore::Callback done) {
        store.removeKeyMaterial(QStringLiteral("custom-") + name, std::move(done));
    });
    if (!result.ok() && result.error != secrets::SecretError::NotFound)
        return failure(result.message);
    out() << tr("Removed custom secret %1; its placeholder is no longer replaced.").arg(name) << "\n";
    return ExitOk;
}

Command setCustomCommand()
{
    Command set;
    set.name = QStringLiteral("set-custom");
    set.summary = tr("Store a secret sandboxes hold only as a placeholder, replaced by the proxy for chosen hosts.");
    set.description =
        tr("Stores the value of NAME in the OS keychain (read from stdin, or typed without echo) and gives\n"
           "sandboxes created from now on the variable --env VAR holding a placeholder, paddock-ph- and 32\n"
           "random hex digits, the same for as long as NAME exists. Paddock's proxy terminates TLS for the\n"
           "--host names only and replaces the placeholder with the value there: in the header --header\n"
           "(Authorization by default), or in any header with --anywhere, and with --body also in bodies\n"
           "whose Content-Type is text, JSON or a form. A request to any other host carries the\n"
           "placeholder unchanged, and when the proxy reads it the event log says so. Responses from the\n"
           "hosts are masked for the value. Every sandbox gets NAME unless --sandbox limits it to one.\n\n"
           "  paddock secret set-custom jira --host jira.example.com --env JIRA_TOKEN\n"
           "  paddock secret set-custom hook --host hooks.example.com --anywhere --body --env HOOK_KEY");
    set.positionalSyntax = QStringLiteral("NAME");
    set.positionalHelp = {{QStringLiteral("NAME"), tr("The secret's name (letters, digits, '.', '_', '-').")}};
    set.minPositional = 1;
    set.maxPositional = 1;
    set.options = {
        QCommandLineOption(kHostOption,
                           tr("A host (or *.domain) the placeholder is replaced for; repeat or "
                              "separate with commas."),
                           QStringLiteral("HOST")),
        QCommandLineOption(kHeaderOption, tr("The header the placeholder is replaced in (default Authorization)."),
                           QStringLiteral("HEADER")),
        QCommandLineOption(kAnywhereOption, tr("Replace the placeholder in any header.")),
        QCommandLineOption(kBodyOption, tr("Also replace it in text, JSON and form bodies.")),
        QCommandLineOption(kEnvOption, tr("The variable sandboxes hold the placeholder in."), QStringLiteral("VAR")),
        QCommandLineOption(kSandboxOption, tr("Only sandbox NAME gets the secret."), QStringLiteral("NAME"))};
    set.run = runSetCustom;
    return set;
}

} // namespace paddock::cli
