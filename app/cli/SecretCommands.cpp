// SPDX-License-Identifier: GPL-3.0-or-later
// paddock secret set|ls|rm: provider keys in the OS keychain.
#include "Cli.h"
#include "CliSupport.h"
#include "CustomSecretCli.h"
#include "KitArgument.h"
#include "SecretCliSupport.h"

#include "api/Protocol.h"
#include "common/Paths.h"
#include "kit/KitLibrary.h"
#include "secrets/Masking.h"
#include "secrets/SecretId.h"
#include "secrets/SecretSources.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>
#include <atomic>

namespace paddock::cli {

namespace {

const QString kSandboxOption = QStringLiteral("sandbox");

secrets::SecretId idFrom(const Invocation &call)
{
    const QString service = call.positional.constFirst();
    const QString sandbox = call.parser.value(kSandboxOption);
    return sandbox.isEmpty() ? secrets::SecretId::global(service) : secrets::SecretId::forSandbox(sandbox, service);
}

/**
 * Fails with the daemon's sentence when no keychain can be reached (what to install, asked
 * before a value is typed); nullopt when one can.
 */
std::optional<int> requireKeychain()
{
    const api::Reply status = daemonReply(QStringLiteral("keychain.status"), {}, kDaemonCallTimeoutMs);
    if (status.isError())
        return failure(status.errorMessage());
    if (!status.result().value(QLatin1String("available")).toBool())
        return failure(status.result().value(QLatin1String("message")).toString());
    return std::nullopt;
}

QString scopeOf(const secrets::SecretId &id)
{
    return id.isGlobal() ? QStringLiteral("global") : QStringLiteral("sandbox %1").arg(id.sandbox);
}

const QString kCommandOption = QStringLiteral("command");
const QString kShellOption = QStringLiteral("shell");
const QString kRefOption = QStringLiteral("ref");
const QString kRefreshOption = QStringLiteral("refresh");

/** `secret set --command|--ref`: the source is kept in the user's configuration, no value anywhere. */
int runSetSource(const Invocation &call, const secrets::SecretId &id)
{
    const bool command = call.parser.isSet(kCommandOption);
    if (command && call.parser.isSet(kRefOption))
        return usageError(call.commandPath, QStringLiteral("give --command or --ref, not both"));
    if (!command && call.parser.isSet(kShellOption))
        return usageError(call.commandPath, QStringLiteral("--shell goes with --command"));
    secrets::SecretSource source;
    source.kind = command ? secrets::SecretSource::Kind::Command : secrets::SecretSource::Kind::Reference;
    (command ? source.command : source.reference) = call.parser.value(command ? kCommandOption : kRefOption);
    source.shell = call.parser.isSet(kShellOption);
    if (call.parser.isSet(kRefreshOption)) {
        bool ok = false;
        source.refreshSeconds = secrets::parseRefresh(call.parser.value(kRefreshOption), &ok);
        if (!ok)
            return usageError(call.commandPath,
                              QStringLiteral("--refresh takes a duration such as 30s, 10m or 2h, or on-demand"));
    }
    if (const QString problem = source.validate(); !problem.isEmpty())
        return usageError(call.commandPath, problem);
    if (!command && QStandardPaths::findExecutable(QStringLiteral("op")).isEmpty())
        err() << "Warning: the 1Password CLI `op` is not on PATH; requests that need " << id.displayName()
              << " are refused until it is.\n";
    // paddockd writes the source and takes it up before it answers.
    QJsonObject params{{QStringLiteral("service"), id.service}, {QStringLiteral("source"), source.toJson()}};
    if (!id.isGlobal())
        params.insert(QStringLiteral("sandbox"), id.sandbox);
    int code = ExitOk;
    if (!callDaemon(call, QStringLiteral("secret.setSource"), params, &code, kDaemonCallTimeoutMs))
        return code;
    out() << id.displayName() << " (" << scopeOf(id) << ") now comes from "
          << (command ? QStringLiteral("the command `%1`") : QStringLiteral("`op read %1`")).arg(source.describe())
          << ", run by paddockd "
          << (source.refreshSeconds ? QStringLiteral("every %1").arg(source.refreshText())
                                    : QStringLiteral("for every request"))
          << ".\n";
    return ExitOk;
}

int runSet(const Invocation &call)
{
    // This process is about to hold a key: no core file may carry it away.
    secrets::disableCoreDumps();
    const secrets::SecretId id = idFrom(call);
    if (const QString problem = id.validate(); !problem.isEmpty())
        return usageError(call.commandPath, problem);
    if (call.parser.isSet(kCommandOption) || call.parser.isSet(kRefOption))
        return runSetSource(call, id);
    if (call.parser.isSet(kShellOption) || call.parser.isSet(kRefreshOption))
        return usageError(call.commandPath, QStringLiteral("--shell and --refresh go with --command or --ref"));

    // Asked before the value is typed, so nobody types a key only to learn it cannot be kept.
    if (const auto refused = requireKeychain())
        return *refused;

    SecretReadResult input = isTerminal(0)
                                 ? readHiddenLine(0, QStringLiteral("Value for %1 (not shown): ").arg(id.displayName()))
                                 : readAllInput(0);
    if (!input.error.isEmpty()) {
        secrets::wipe(input.value);
        return failure(input.error);
    }
    if (input.value.isEmpty())
        return failure(QStringLiteral("the value is empty: nothing was stored"));

    // The daemon stores it (over the owner-only socket, never a command line) and its sandboxes'
    // next request carries the new key before it answers; it drops a command or a reference
    // given before.
    QJsonObject params{{QStringLiteral("service"), id.service}};
    if (!id.isGlobal())
        params.insert(QStringLiteral("sandbox"), id.sandbox);
    QString value = QString::fromUtf8(input.value);
    secrets::wipe(input.value);
    params.insert(QStringLiteral("value"), value);
    secrets::wipe(value);
    int code = ExitOk;
    const bool stored = callDaemon(call, QStringLiteral("secret.set"), params, &code, kDaemonCallTimeoutMs).has_value();
    params = {};
    if (!stored)
        return code;
    out() << "Stored " << id.displayName() << " in the keychain (" << scopeOf(id) << ").\n";
    return ExitOk;
}

/** One line of `secret ls`, from a row of the daemon's secret.list. */
struct Row
{
    secrets::SecretId id;
    bool present = false;
    QString masked; ///< empty when the keychain no longer has the value, or it has a source
    QString source; ///< keychain, command or reference
    QString sourceText;
    QString refresh;
    QDateTime resolved;
    QDateTime failed;
    QString error;

    static Row fromJson(const QJsonObject &entry)
    {
        Row row;
        const QString service = entry.value(QLatin1String("service")).toString();
        const QString sandbox = entry.value(QLatin1String("sandbox")).toString();
        row.id =
            sandbox.isEmpty() ? secrets::SecretId::global(service) : secrets::SecretId::forSandbox(sandbox, service);
        row.present = entry.value(QLatin1String("present")).toBool();
        row.masked = entry.value(QLatin1String("masked")).toString();
        row.source = entry.value(QLatin1String("source")).toString();
        row.sourceText = entry.value(QLatin1String("sourceText")).toString();
        row.refresh = entry.value(QLatin1String("refresh")).toString();
        row.resolved = QDateTime::fromString(entry.value(QLatin1String("lastResolved")).toString(), Qt::ISODate);
        row.failed = QDateTime::fromString(entry.value(QLatin1String("lastFailed")).toString(), Qt::ISODate);
        row.error = entry.value(QLatin1String("lastError")).toString();
        return row;
    }
    bool sourced() const { return source != QLatin1String("keychain"); }

    QString sourceCell() const
    {
        if (!sourced())
            return QStringLiteral("keychain");
        return QStringLiteral("%1: %2 (%3)").arg(source, sourceText, refresh);
    }
    QString valueCell() const
    {
        if (sourced()) {
            const QString format = QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'");
            const QString done = resolved.isValid()
                                     ? QStringLiteral("resolved %1").arg(resolved.toUTC().toString(format))
                                     : QStringLiteral("not resolved yet");
            if (failed.isValid() && (!resolved.isValid() || failed > resolved))
                return QStringLiteral("%1; failed %2: %3").arg(done, failed.toUTC().toString(format), error);
            return done;
        }
        return masked.isEmpty() ? QStringLiteral("(missing from the keychain: `%1`)").arg(id.setCommand()) : masked;
    }
    QJsonObject toJson() const
    {
        QJsonObject object{
            {QStringLiteral("service"), id.service},
            {QStringLiteral("scope"), id.isGlobal() ? QStringLiteral("global") : QStringLiteral("sandbox")},
            {QStringLiteral("present"), present},
            {QStringLiteral("value"), masked},
            {QStringLiteral("source"), source}};
        if (!id.isGlobal())
            object.insert(QStringLiteral("sandbox"), id.sandbox);
        if (sourced()) {
            object.insert(source == QLatin1String("command") ? QStringLiteral("command") : QStringLiteral("reference"),
                          sourceText);
            object.insert(QStringLiteral("refresh"), refresh);
            if (resolved.isValid())
                object.insert(QStringLiteral("lastResolved"), resolved.toUTC().toString(Qt::ISODate));
            if (failed.isValid()) {
                object.insert(QStringLiteral("lastFailed"), failed.toUTC().toString(Qt::ISODate));
                object.insert(QStringLiteral("lastError"), error);
            }
        }
        return object;
    }
};

/**
 * The keychain's secrets as paddockd reads and masks them: the values stay in the daemon, which
 * holds them anyway, and never enter this process. Custom secrets are listed after them.
 */
int runList(const Invocation &call)
{
    // A missing keychain is said here as every secret command says it, with what to install.
    if (const auto refused = requireKeychain())
        return *refused;
    int code = ExitFailed;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("secret.list"), {}, &code, kDaemonCallTimeoutMs);
    if (!answer)
        return code;
    QList<Row> rows;
    for (const QJsonValue &value : answer->value(QLatin1String("secrets")).toArray()) {
        if (value.toObject().value(QLatin1String("source")).toString() != QLatin1String("custom"))
            rows << Row::fromJson(value.toObject());
    }
    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const Row &row : std::as_const(rows))
            array.append(row.toJson());
        for (const QJsonValue &custom : customSecretsJson(*answer))
            array.append(custom);
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (rows.isEmpty()) {
        if (!printCustomSecrets(*answer))
            out() << "No secrets stored. Add one with `paddock secret set SERVICE`.\n";
        return ExitOk;
    }
    QList<QStringList> table;
    for (const Row &row : std::as_const(rows))
        table << QStringList{row.id.service, scopeOf(row.id), row.sourceCell(), row.valueCell()};
    printTable({QStringLiteral("SERVICE"), QStringLiteral("SCOPE"), QStringLiteral("SOURCE"), QStringLiteral("VALUE")},
               table);
    printCustomSecrets(*answer);
    return ExitOk;
}

int runRemove(const Invocation &call)
{
    const secrets::SecretId id = idFrom(call);
    if (const QString problem = id.validate(); !problem.isEmpty())
        return usageError(call.commandPath, problem);
    if (const auto refused = requireKeychain())
        return *refused;
    if (const std::optional<int> custom = removeCustomSecret(call))
        return *custom;
    // paddockd removes the key (and its source) and forgets it for running sandboxes before it answers.
    QJsonObject params{{QStringLiteral("service"), id.service}};
    if (!id.isGlobal())
        params.insert(QStringLiteral("sandbox"), id.sandbox);
    int code = ExitOk;
    if (!callDaemon(call, QStringLiteral("secret.remove"), params, &code, kDaemonCallTimeoutMs))
        return code;
    out() << "Removed " << id.displayName() << " from the keychain (" << scopeOf(id) << ").\n";
    return ExitOk;
}

/** What the provider's answer says about the key. */
int reportTestResponse(const QJsonObject &answer)
{
    const QString service = answer.value(QLatin1String("service")).toString();
    const QString url = answer.value(QLatin1String("url")).toString();
    const QString statusLine = answer.value(QLatin1String("statusLine")).toString();
    const int status = answer.value(QLatin1String("status")).toInt();
    if (answer.value(QLatin1String("accepted")).toBool()) {
        out() << "The provider accepted the " << service << " key: " << url << " answered " << statusLine << "\n";
        return ExitOk;
    }
    if (status == 401 || status == 403)
        return failure(QStringLiteral("the provider refused the %1 key: %2 answered %3").arg(service, url, statusLine));
    return failure(QStringLiteral("cannot tell whether the %1 key works: %2 answered %3; give a URL that needs the key "
                                  "with --url")
                       .arg(service, url, statusLine));
}

int runTest(const Invocation &call)
{
    // The daemon sends the request as a sandbox's would be sent: its interception, the key read
    // from the keychain as the proxy needs it, the upstream proxy. The key never comes here.
    QJsonObject params{{QStringLiteral("service"), call.positional.constFirst()},
                       {QStringLiteral("sandbox"), call.parser.value(kSandboxOption)}};
    if (call.parser.isSet(QStringLiteral("url")))
        params.insert(QStringLiteral("url"), call.parser.value(QStringLiteral("url")));
    if (!call.parser.value(QStringLiteral("kit")).isEmpty()) {
        QString error;
        const std::optional<QString> kitDir =
            kit::KitLibrary().resolve(call.parser.value(QStringLiteral("kit")), &error);
        if (!kitDir)
            return failure(error);
        QJsonObject args;
        for (const QString &pair : call.parser.values(QStringLiteral("arg"))) {
            const qsizetype equals = pair.indexOf(QLatin1Char('='));
            if (equals > 0)
                args.insert(pair.left(equals), pair.mid(equals + 1));
        }
        params.insert(QStringLiteral("kit"), *kitDir);
        params.insert(QStringLiteral("kitArgs"), args);
    }
    int code = ExitOk;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("secret.test"), params, &code, kDaemonCallTimeoutMs * 2);
    if (!answer)
        return code;
    return reportTestResponse(*answer);
}

QCommandLineOption sandboxOption()
{
    return QCommandLineOption(kSandboxOption,
                              QStringLiteral("The secret belongs to sandbox NAME only, instead of every sandbox."),
                              QStringLiteral("NAME"));
}

Command setCommand()
{
    Command set;
    set.name = QStringLiteral("set");
    set.summary = QStringLiteral("Store the key of SERVICE, read from stdin or typed without echo.");
    set.description =
        QStringLiteral("Stores the key of SERVICE in the OS keychain, replacing any earlier value.\n\n"
                       "The value is never taken as an argument, where other users and the shell history could\n"
                       "see it. When stdin is a terminal, it is typed at a prompt that does not echo; otherwise it\n"
                       "is read from stdin, one trailing newline removed:\n\n"
                       "  paddock secret set anthropic\n"
                       "  pass show anthropic | paddock secret set anthropic\n\n"
                       "An empty value is refused. Exits 1 when the keychain cannot be reached.\n\n"
                       "With --command or --ref nothing is read: paddockd runs the command (or `op read REF`) on\n"
                       "this computer, as you, when a request needs the key, and uses what it prints (trimmed)\n"
                       "for --refresh (default 55m; 30s, 10m, 2h; on-demand: for every request). The command\n"
                       "is split into words without a shell unless --shell is given, and is stopped after 20 s.\n"
                       "The value stays in paddockd's memory; a failing command refuses the request and is\n"
                       "recorded in the event log:\n\n"
                       "  paddock secret set github --command 'gh auth token'\n"
                       "  paddock secret set openai --ref op://Private/OpenAI/credential --refresh 10m");
    set.positionalSyntax = QStringLiteral("SERVICE");
    set.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service as kits name it, e.g. anthropic.")}};
    set.minPositional = 1;
    set.maxPositional = 1;
    set.options = {
        sandboxOption(),
        QCommandLineOption(kCommandOption,
                           QStringLiteral("Take the value from what COMMAND prints, run by paddockd on this computer."),
                           QStringLiteral("COMMAND")),
        QCommandLineOption(kShellOption, QStringLiteral("Run the --command through /bin/sh -c.")),
        QCommandLineOption(kRefOption, QStringLiteral("Take the value from `op read REF` (1Password CLI)."),
                           QStringLiteral("REF")),
        QCommandLineOption(kRefreshOption,
                           QStringLiteral("How long a value from --command or --ref is used (default 55m), or "
                                          "on-demand."),
                           QStringLiteral("DURATION"))};
    set.run = runSet;
    return set;
}

Command listCommand()
{
    Command list;
    list.name = QStringLiteral("ls");
    list.summary = QStringLiteral("List stored secrets with their scope and a masked value.");
    list.description =
        QStringLiteral("Lists every stored secret: its service, its scope (global or the sandbox it belongs to)\n"
                       "and its value masked to the first and last four characters (values shorter than 16\n"
                       "characters are hidden entirely). Reading the values to mask them needs the keychain.");
    list.options = {jsonOption(QStringLiteral("the list"))};
    list.maxPositional = 0;
    list.run = runList;
    return list;
}

Command removeCommand()
{
    Command remove;
    remove.name = QStringLiteral("rm");
    remove.summary = QStringLiteral("Remove the key of SERVICE from the keychain.");
    remove.description =
        QStringLiteral("Removes the key of SERVICE (global, or the one of sandbox NAME with --sandbox) from the\n"
                       "keychain. Bindings are kept: `paddock binding revoke SERVICE` removes those.\n"
                       "Exits 1 when there is no such secret.");
    remove.positionalSyntax = QStringLiteral("SERVICE");
    remove.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service whose key is removed.")}};
    remove.minPositional = 1;
    remove.maxPositional = 1;
    remove.options = {sandboxOption()};
    remove.run = runRemove;
    return remove;
}

Command testCommand()
{
    Command test;
    test.name = QStringLiteral("test");
    test.summary =
        QStringLiteral("Send one request with the key of SERVICE and report whether the provider accepts it.");
    test.description =
        QStringLiteral("Sends one GET request through Paddock's proxy exactly as a sandbox's would go: the proxy\n"
                       "adds the key from the keychain with the header and format the kit names, for a domain the\n"
                       "binding approves. Prints the status line; exits 0 when the provider answers 2xx, 1 when it\n"
                       "answers 401 or 403, or anything else that does not prove the key.\n\n"
                       "The kit is --kit KIT, or else the kit of a sandbox that uses SERVICE. The URL is --url, or\n"
                       "https://DOMAIN/v1/models for the first inject domain of SERVICE: the model list of OpenAI\n"
                       "and the providers compatible with it, which needs the key. Name mappings of\n"
                       "`paddock policy resolve` apply.");
    test.positionalSyntax = QStringLiteral("SERVICE");
    test.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service whose key is tried.")}};
    test.minPositional = 1;
    test.maxPositional = 1;
    test.options = {
        sandboxOption(), kitOption(QStringLiteral("The kit that injects the key.")),
        QCommandLineOption(QStringLiteral("arg"), QStringLiteral("A value for the kit's argument NAME."),
                           QStringLiteral("NAME=VALUE")),
        QCommandLineOption(QStringLiteral("url"), QStringLiteral("The https:// URL to ask."), QStringLiteral("URL"))};
    test.run = runTest;
    return test;
}

} // namespace

Command secretCommand()
{
    Command secret;
    secret.name = QStringLiteral("secret");
    secret.summary = QStringLiteral("Store, list and remove provider keys in the OS keychain.");
    secret.description =
        QStringLiteral("Provider keys (an Anthropic or OpenAI API key, a GitHub token) live only in the OS keychain\n"
                       "(GNOME Keyring or KWallet through the Secret Service). Sandboxes never see them: the proxy\n"
                       "adds them to requests for the domains a binding approves (see `paddock binding`).\n"
                       "A secret is global, or belongs to one sandbox with --sandbox; a sandbox's own secret takes\n"
                       "precedence over the global one of the same service.\n"
                       "Without a reachable keychain every secret command fails and says what to install.");
    secret.subcommands << setCommand() << setCustomCommand() << listCommand() << removeCommand() << testCommand();
    runQuietly(secret);
    return secret;
}

} // namespace paddock::cli
