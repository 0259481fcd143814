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

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QStandardPaths>

namespace paddock::cli {
namespace {

const QString kHostOption = QStringLiteral("host");
const QString kHeaderOption = QStringLiteral("header");
const QString kAnywhereOption = QStringLiteral("anywhere");
const QString kBodyOption = QStringLiteral("body");
const QString kEnvOption = QStringLiteral("env");
const QString kSandboxOption = QStringLiteral("sandbox");
const QString kCommandOption = QStringLiteral("command");
const QString kShellOption = QStringLiteral("shell");
const QString kRefOption = QStringLiteral("ref");
const QString kRefreshOption = QStringLiteral("refresh");

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

/**
 * The source of --command/--ref (with --shell, --refresh): nullopt without one, with @p problem
 * set when the options do not make one.
 */
std::optional<secrets::SecretSource> sourceOf(const Invocation &call, QString *problem)
{
    const bool command = call.parser.isSet(kCommandOption);
    if (!command && !call.parser.isSet(kRefOption)) {
        if (call.parser.isSet(kShellOption) || call.parser.isSet(kRefreshOption))
            *problem = tr("--shell and --refresh go with --command or --ref");
        return std::nullopt;
    }
    if (command && call.parser.isSet(kRefOption)) {
        *problem = tr("give --command or --ref, not both");
        return std::nullopt;
    }
    if (!command && call.parser.isSet(kShellOption)) {
        *problem = tr("--shell goes with --command");
        return std::nullopt;
    }
    secrets::SecretSource source;
    source.kind = command ? secrets::SecretSource::Kind::Command : secrets::SecretSource::Kind::Reference;
    (command ? source.command : source.reference) = call.parser.value(command ? kCommandOption : kRefOption);
    source.shell = call.parser.isSet(kShellOption);
    if (call.parser.isSet(kRefreshOption)) {
        bool ok = false;
        source.refreshSeconds = secrets::parseRefresh(call.parser.value(kRefreshOption), &ok);
        if (!ok) {
            *problem = tr("--refresh takes a duration such as 30s, 10m or 2h, or on-demand");
            return std::nullopt;
        }
    }
    if (const QString invalid = source.validate(); !invalid.isEmpty()) {
        *problem = invalid;
        return std::nullopt;
    }
    return source;
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
    secret.source = sourceOf(call, problem);
    if (!problem->isEmpty())
        return std::nullopt;
    // Checked here as the daemon checks it; the daemon keeps the placeholder of an earlier one.
    secret.placeholder = secrets::CustomSecret::newPlaceholder();
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

/** Where the value is: "the keychain", or the source and how often it runs. */
QString valueCell(const secrets::CustomSecret &secret)
{
    if (!secret.source)
        return tr("the keychain");
    const secrets::SecretSource &source = *secret.source;
    const QString what = source.kind == secrets::SecretSource::Kind::Command
                             ? tr("the command `%1`").arg(source.describe())
                             : tr("`op read %1`").arg(source.describe());
    return source.refreshSeconds ? tr("%1, run by paddockd every %2").arg(what, source.refreshText())
                                 : tr("%1, run by paddockd for every request").arg(what);
}

/** What `secret.setCustom` is told of @p secret, its value or source left to the caller. */
QJsonObject setCustomParams(const secrets::CustomSecret &secret)
{
    QJsonObject params{{QStringLiteral("name"), secret.name},
                       {QStringLiteral("hosts"), QJsonArray::fromStringList(secret.hosts)},
                       {QStringLiteral("anywhere"), secret.anywhere},
                       {QStringLiteral("body"), secret.body},
                       {QStringLiteral("variable"), secret.variable}};
    if (!secret.anywhere)
        params.insert(QStringLiteral("header"), secret.header);
    if (!secret.sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), secret.sandbox);
    return params;
}

/** A custom secret whose value comes from a command or a reference: paddockd writes it. The exit code. */
int storeSourced(const Invocation &call, const secrets::CustomSecret &secret)
{
    if (secret.source->kind == secrets::SecretSource::Kind::Reference &&
        QStandardPaths::findExecutable(QStringLiteral("op")).isEmpty())
        err() << tr("Warning: the 1Password CLI `op` is not on PATH; requests that need %1 are refused until it is.")
                     .arg(secret.name)
              << "\n";
    QJsonObject params = setCustomParams(secret);
    params.insert(QStringLiteral("source"), secret.source->toJson());
    int code = ExitOk;
    const std::optional<QJsonObject> stored =
        callDaemon(call, QStringLiteral("secret.setCustom"), params, &code, kDaemonCallTimeoutMs);
    if (!stored)
        return code;
    out() << tr("Stored custom secret %1, its value from %2. Sandboxes %3 created from now on hold %4=%5; the proxy "
                "replaces it with the value in %6 of requests to %7.\n")
                 .arg(secret.name, valueCell(secret),
                      secret.sandbox.isEmpty() ? tr("(all)") : tr("(only %1)").arg(secret.sandbox), secret.variable,
                      stored->value(QLatin1String("placeholder")).toString(), whereCell(secret),
                      secret.hosts.join(QStringLiteral(", ")));
    return ExitOk;
}

/** A pasted custom secret: the value, typed or from stdin, handed to paddockd, which keeps it. The exit code. */
int storePasted(const Invocation &call, const secrets::CustomSecret &secret)
{
    // Asked before the value is typed, so nobody types a key only to learn it cannot be kept.
    const api::Reply status = daemonReply(QStringLiteral("keychain.status"), {}, kDaemonCallTimeoutMs);
    if (status.isError())
        return failure(status.errorMessage());
    if (!status.result().value(QLatin1String("available")).toBool())
        return failure(status.result().value(QLatin1String("message")).toString());
    SecretReadResult input =
        isTerminal(0) ? readHiddenLine(0, tr("Value for %1 (not shown): ").arg(secret.name)) : readAllInput(0);
    if (!input.error.isEmpty() || input.value.isEmpty()) {
        secrets::wipe(input.value);
        return failure(input.error.isEmpty() ? tr("the value is empty: nothing was stored") : input.error);
    }
    // The daemon keeps the value and the description, and replaces the placeholder in the
    // running sandboxes' requests before it answers.
    QJsonObject params = setCustomParams(secret);
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
                 .arg(secret.name, secret.sandbox.isEmpty() ? tr("(all)") : tr("(only %1)").arg(secret.sandbox),
                      secret.variable, stored->value(QLatin1String("placeholder")).toString(), whereCell(secret),
                      secret.hosts.join(QStringLiteral(", ")));
    return ExitOk;
}

int runSetCustom(const Invocation &call)
{
    secrets::disableCoreDumps();
    QString problem;
    const std::optional<secrets::CustomSecret> secret = secretOf(call, &problem);
    if (!secret)
        return usageError(call.commandPath, problem);
    return secret->source ? storeSourced(call, *secret) : storePasted(call, *secret);
}

} // namespace

namespace {

/** The custom secrets of the daemon's `secret.list` answer @p list, in their definitions. */
QList<secrets::CustomSecret> customSecretsOf(const QJsonObject &list)
{
    QList<secrets::CustomSecret> found;
    for (const QJsonValue &value : list.value(QLatin1String("secrets")).toArray()) {
        const QJsonObject row = value.toObject();
        if (row.value(QLatin1String("source")).toString() != QLatin1String("custom"))
            continue;
        QString problem;
        found << secrets::CustomSecret::fromJson(row.value(QLatin1String("custom")).toObject(), &problem);
    }
    return found;
}

} // namespace

QJsonArray customSecretsJson(const QJsonObject &list)
{
    QJsonArray array;
    for (const secrets::CustomSecret &secret : customSecretsOf(list)) {
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
        if (secret.source) {
            const secrets::SecretSource &source = *secret.source;
            object.insert(source.kind == secrets::SecretSource::Kind::Command ? QStringLiteral("command")
                                                                              : QStringLiteral("reference"),
                          source.describe());
            object.insert(QStringLiteral("refresh"), source.refreshText());
        }
        array.append(object);
    }
    return array;
}

bool printCustomSecrets(const QJsonObject &list)
{
    if (const QString error = list.value(QLatin1String("customError")).toString(); !error.isEmpty()) {
        err() << tr("Custom secrets cannot be listed: %1").arg(error) << "\n";
        return false;
    }
    const QList<secrets::CustomSecret> secrets = customSecretsOf(list);
    if (secrets.isEmpty())
        return false;
    QList<QStringList> table;
    for (const secrets::CustomSecret &secret : secrets)
        table << QStringList{secret.name,
                             secret.sandbox.isEmpty() ? tr("global") : tr("sandbox %1").arg(secret.sandbox),
                             secret.hosts.join(QLatin1Char(',')),
                             whereCell(secret),
                             secret.variable,
                             secret.source ? tr("%1: %2 (%3)")
                                                 .arg(secret.source->kindToken(), secret.source->describe(),
                                                      secret.source->refreshText())
                                           : tr("keychain")};
    out() << "\n" << tr("Custom secrets (sandboxes hold a placeholder):") << "\n";
    printTable({tr("NAME"), tr("SCOPE"), tr("HOSTS"), tr("REPLACED IN"), tr("VARIABLE"), tr("SOURCE")}, table);
    return true;
}

std::optional<int> removeCustomSecret(const Invocation &call)
{
    const QString name = call.positional.constFirst();
    if (!call.parser.value(kSandboxOption).isEmpty())
        return std::nullopt;
    // paddockd takes it out of custom-secrets.json, stops replacing it, then deletes the value;
    // it says not-found when NAME is no custom secret, and the keychain's secret is meant.
    const api::Reply reply = daemonReply(QStringLiteral("secret.remove"),
                                         {{QStringLiteral("service"), name}, {QStringLiteral("custom"), true}}, 60000);
    if (reply.isError() && (reply.errorCode() == QLatin1String(api::errors::kNotFound) ||
                            reply.errorCode() == QLatin1String(api::errors::kInvalidParams)))
        return std::nullopt;
    if (reply.isError())
        return failure(reply.errorMessage());
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
           "hosts are masked for the value. Every sandbox gets NAME unless --sandbox limits it to one.\n"
           "With --command or --ref nothing is read or stored: paddockd runs the command (or `op read REF`)\n"
           "on this computer when a request needs the value, as for `secret set --command`, and uses it for\n"
           "--refresh (55m by default; on-demand: every request). When the command fails the request is\n"
           "refused and the event log says why; the placeholder is never replaced by an empty value.\n\n"
           "  paddock secret set-custom jira --host jira.example.com --env JIRA_TOKEN\n"
           "  paddock secret set-custom hook --host hooks.example.com --anywhere --body --env HOOK_KEY\n"
           "  paddock secret set-custom gh --host api.github.com --env GH_TOKEN --command 'gh auth token'");
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
        QCommandLineOption(kSandboxOption, tr("Only sandbox NAME gets the secret."), QStringLiteral("NAME")),
        QCommandLineOption(kCommandOption, tr("The value is what this command prints, run by paddockd."),
                           QStringLiteral("CMD")),
        QCommandLineOption(kShellOption, tr("Run --command through /bin/sh -c.")),
        QCommandLineOption(kRefOption, tr("The value is `op read REF` (a 1Password reference)."),
                           QStringLiteral("REF")),
        QCommandLineOption(kRefreshOption,
                           tr("How long a value from --command or --ref is used: 30s, 10m, 2h or "
                              "on-demand (default 55m)."),
                           QStringLiteral("DURATION"))};
    set.run = runSetCustom;
    return set;
}

} // namespace paddock::cli
