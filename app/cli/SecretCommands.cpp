// SPDX-License-Identifier: GPL-3.0-or-later
// paddock secret set|ls|rm: provider keys in the OS keychain.
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"
#include "SecretCliSupport.h"

#include "common/Paths.h"
#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"
#include "sandbox/CredentialInjection.h"
#include "sandbox/CredentialSetup.h"
#include "secrets/CredentialBindings.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QUrl>

#include <algorithm>
#include <atomic>

namespace paddock::cli {

Q_LOGGING_CATEGORY(lcSecretCli, "paddock.cli.secret", QtWarningMsg)

namespace {

const QString kSandboxOption = QStringLiteral("sandbox");

secrets::SecretId idFrom(const Invocation &call)
{
    const QString service = call.positional.constFirst();
    const QString sandbox = call.parser.value(kSandboxOption);
    return sandbox.isEmpty() ? secrets::SecretId::global(service) : secrets::SecretId::forSandbox(sandbox, service);
}

/** Fails with the probe's sentence when no keychain can be reached; nullopt when one can. */
std::optional<int> requireKeychain(secrets::SecretStore &store)
{
    const secrets::ProbeResult probe = store.probeAndWait();
    if (probe.available)
        return std::nullopt;
    return failure(probe.message);
}

QString scopeOf(const secrets::SecretId &id)
{
    return id.isGlobal() ? QStringLiteral("global") : QStringLiteral("sandbox %1").arg(id.sandbox);
}

int runSet(const Invocation &call)
{
    // This process is about to hold a key: no core file may carry it away.
    secrets::disableCoreDumps();
    const secrets::SecretId id = idFrom(call);
    if (const QString problem = id.validate(); !problem.isEmpty())
        return usageError(call.commandPath, problem);

    secrets::SecretStore store;
    // Asked before the value is typed, so nobody types a key only to learn it cannot be kept.
    if (const auto refused = requireKeychain(store))
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

    const secrets::SecretResult result = store.setAndWait(id, std::move(input.value));
    secrets::wipe(input.value);
    if (!result.ok())
        return failure(result.message);
    out() << "Stored " << id.displayName() << " in the keychain (" << scopeOf(id) << ").\n";
    // A sandbox's next request carries the new key, not one the daemon held from before.
    if (QString error; !applyCredentialsInDaemon(&error))
        return failure(QStringLiteral("the key was stored, but paddockd could not take it up: %1").arg(error));
    return ExitOk;
}

int runList(const Invocation &call)
{
    secrets::disableCoreDumps();
    secrets::SecretStore store;
    if (const auto refused = requireKeychain(store))
        return *refused;
    QString error;
    const QList<secrets::SecretId> ids = store.list(&error);
    if (!error.isEmpty())
        return failure(error);
    qCDebug(lcSecretCli) << "masking" << ids.size() << "secrets";

    struct Row
    {
        secrets::SecretId id;
        QString masked; ///< empty when the keychain no longer has the value
    };
    QList<Row> rows;
    for (const secrets::SecretId &id : ids) {
        secrets::SecretResult read = store.getAndWait(id);
        if (!read.ok() && read.error != secrets::SecretError::NotFound) {
            secrets::wipe(read.value);
            return failure(read.message);
        }
        QString value = QString::fromUtf8(read.value);
        secrets::wipe(read.value);
        rows << Row{id, read.ok() ? secrets::mask(value) : QString()};
        secrets::wipe(value);
    }

    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const Row &row : rows) {
            QJsonObject object{
                {QStringLiteral("service"), row.id.service},
                {QStringLiteral("scope"), row.id.isGlobal() ? QStringLiteral("global") : QStringLiteral("sandbox")},
                {QStringLiteral("present"), !row.masked.isEmpty()},
                {QStringLiteral("value"), row.masked}};
            if (!row.id.isGlobal())
                object.insert(QStringLiteral("sandbox"), row.id.sandbox);
            array.append(object);
        }
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (rows.isEmpty()) {
        out() << "No secrets stored. Add one with `paddock secret set SERVICE`.\n";
        return ExitOk;
    }
    qsizetype serviceWidth = 7, scopeWidth = 5;
    for (const Row &row : rows) {
        serviceWidth = std::max(serviceWidth, row.id.service.size());
        scopeWidth = std::max(scopeWidth, scopeOf(row.id).size());
    }
    out() << QStringLiteral("SERVICE").leftJustified(serviceWidth + 2)
          << QStringLiteral("SCOPE").leftJustified(scopeWidth + 2) << "VALUE\n";
    for (const Row &row : rows) {
        out()
            << row.id.service.leftJustified(serviceWidth + 2) << scopeOf(row.id).leftJustified(scopeWidth + 2)
            << (row.masked.isEmpty()
                    ? QStringLiteral("(missing from the keychain: `%1`)").arg(secrets::SecretStore::setCommand(row.id))
                    : row.masked)
            << '\n';
    }
    return ExitOk;
}

int runRemove(const Invocation &call)
{
    const secrets::SecretId id = idFrom(call);
    if (const QString problem = id.validate(); !problem.isEmpty())
        return usageError(call.commandPath, problem);
    secrets::SecretStore store;
    if (const auto refused = requireKeychain(store))
        return *refused;
    const secrets::SecretResult result = store.removeAndWait(id);
    if (!result.ok())
        return failure(result.message);
    out() << "Removed " << id.displayName() << " from the keychain (" << scopeOf(id) << ").\n";
    // The key the daemon may hold for a sandbox goes with it before this returns.
    if (QString error; !applyCredentialsInDaemon(&error))
        return failure(QStringLiteral("the key was removed, but paddockd could not forget it: %1").arg(error));
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
                       "An empty value is refused. Exits 1 when the keychain cannot be reached.");
    set.positionalSyntax = QStringLiteral("SERVICE");
    set.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service as kits name it, e.g. anthropic.")}};
    set.minPositional = 1;
    set.maxPositional = 1;
    set.options = {sandboxOption()};
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
    secret.subcommands << setCommand() << listCommand() << removeCommand() << testCommand();
    runQuietly(secret);
    return secret;
}

} // namespace paddock::cli
