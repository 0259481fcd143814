// SPDX-License-Identifier: GPL-3.0-or-later
// paddock binding approve|revoke|ls|check: which service's key may be sent to which domains.
#include "BindingApproval.h"
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"
#include "SecretCliSupport.h"

#include "kit/KitLoader.h"
#include "secrets/CredentialBindings.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

#include <algorithm>

namespace paddock::cli {

Q_LOGGING_CATEGORY(lcBindingCli, "paddock.cli.binding", QtWarningMsg)

namespace {

const QString kKitOption = QStringLiteral("kit");
const QString kArgOption = QStringLiteral("arg");

/** The kit named by --kit with its --arg values, or the exit code of the failure already reported. */
struct LoadedKit
{
    std::optional<kit::Kit> kit;
    QString directory;
    QString argFlags; ///< " --arg NAME=VALUE" for each value given, quoted for the shell
    int exitCode = ExitOk;
};

LoadedKit loadKit(const Invocation &call)
{
    LoadedKit loaded;
    if (call.parser.value(kKitOption).isEmpty()) {
        loaded.exitCode = usageError(call.commandPath, QStringLiteral("--kit KIT is required"));
        return loaded;
    }
    const std::optional<QString> directory = resolveKit(call.parser.value(kKitOption));
    if (!directory) {
        loaded.exitCode = ExitFailed;
        return loaded;
    }
    loaded.directory = *directory;
    kit::KitLoadOptions options;
    // Domains must be real names here: an argument without a value would leave a placeholder.
    options.requireArgValues = true;
    for (const QString &assignment : call.parser.values(kArgOption)) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            loaded.exitCode =
                usageError(call.commandPath, QStringLiteral("--arg takes NAME=VALUE, got '%1'").arg(assignment));
            return loaded;
        }
        options.args.insert(assignment.left(eq), assignment.mid(eq + 1));
        loaded.argFlags += QStringLiteral(" --arg ") + shellQuote(assignment);
    }
    const kit::KitLoadResult result = kit::KitLoader::loadDirectory(loaded.directory, options);
    if (!result.ok()) {
        const auto firstError = std::find_if(result.diagnostics.cbegin(), result.diagnostics.cend(),
                                             [](const kit::Diagnostic &d) { return d.isError(); });
        loaded.exitCode = failure(
            QStringLiteral("the kit in %1 cannot be loaded (%2); `paddock kit validate %3` lists every problem")
                .arg(loaded.directory,
                     firstError != result.diagnostics.cend() ? firstError->toString() : QStringLiteral("no spec.yaml"),
                     shellQuote(loaded.directory)));
        return loaded;
    }
    loaded.kit = result.kit;
    return loaded;
}

/** credentials.yaml, read; nullopt after reporting when it is broken. */
std::optional<secrets::CredentialBindings> loadBindings()
{
    secrets::CredentialBindings bindings;
    if (const auto problem = bindings.load()) {
        failure(QStringLiteral("credentials.yaml cannot be used: %1").arg(problem->toString()));
        return std::nullopt;
    }
    return bindings;
}

QString approveCommand(const LoadedKit &loaded, const QString &service)
{
    return QStringLiteral("paddock binding approve --kit %1%2 %3")
        .arg(shellQuote(loaded.directory), loaded.argFlags, shellQuote(service));
}

void warnAboutWildcards(const QStringList &domains)
{
    for (const QString &domain : domains) {
        if (isWildcardDomain(domain))
            err() << "paddock: warning: " << domain << " sends the key to every host it matches\n";
    }
}

/** ExitOk once a running daemon applied credentials.yaml as this command left it. */
int credentialsInForce()
{
    QString error;
    if (!applyCredentialsInDaemon(&error))
        return failure(QStringLiteral("credentials.yaml was written, but paddockd could not apply it: %1").arg(error));
    return ExitOk;
}

int reportInteractive(const LoadedKit &loaded, const ApprovalOutcome &outcome)
{
    using Status = ApprovalOutcome::Status;
    const QString pending = outcome.pending.join(QStringLiteral(", "));
    switch (outcome.status) {
    case Status::NothingToApprove:
        out() << "Nothing to approve: every credential of " << loaded.kit->name << " is approved already.\n";
        return ExitOk;
    case Status::Approved:
        out() << "Approved " << outcome.approved.join(QStringLiteral(", ")) << ".\n";
        return credentialsInForce();
    case Status::PartlyApproved:
        out() << "Approved " << outcome.approved.join(QStringLiteral(", ")) << ".\n";
        return failure(QStringLiteral("%1 not approved").arg(pending));
    case Status::Declined:
        return failure(QStringLiteral("nothing was approved; %1 still needs approval").arg(pending));
    case Status::NeedsApproval:
        return failure(QStringLiteral("%1 needs approval and stdin is not a terminal to ask on: run `paddock binding "
                                      "approve --kit %2%3 --all` to approve")
                           .arg(pending, shellQuote(loaded.directory), loaded.argFlags));
    case Status::Failed:
        return failure(outcome.error);
    }
    return ExitFailed;
}

int runApprove(const Invocation &call)
{
    const bool all = call.parser.isSet(QStringLiteral("all"));
    const bool interactive = call.parser.isSet(QStringLiteral("interactive"));
    if (all && interactive)
        return usageError(call.commandPath, QStringLiteral("--all and --interactive cannot be used together"));
    if (all && !call.positional.isEmpty())
        return usageError(call.commandPath, QStringLiteral("name services or pass --all, not both"));
    if (!all && !interactive && call.positional.isEmpty())
        return usageError(call.commandPath,
                          QStringLiteral("name the services to approve, or pass --all or --interactive"));

    const LoadedKit loaded = loadKit(call);
    if (!loaded.kit)
        return loaded.exitCode;
    for (const QString &service : call.positional) {
        const bool known = std::any_of(loaded.kit->credentials.cbegin(), loaded.kit->credentials.cend(),
                                       [&](const kit::Credential &c) { return c.service == service; });
        if (!known)
            return failure(QStringLiteral("the kit %1 has no credential named %2").arg(loaded.kit->name, service));
    }

    secrets::CredentialBindings bindings;
    if (interactive)
        return reportInteractive(loaded, approveInteractively(*loaded.kit, bindings, call.positional));

    if (const auto problem = bindings.load())
        return failure(QStringLiteral("credentials.yaml cannot be used: %1").arg(problem->toString()));
    int approved = 0;
    for (const kit::Credential &credential : loaded.kit->credentials) {
        if (!all && !call.positional.contains(credential.service))
            continue;
        const QStringList domains = injectionDomains(credential);
        if (domains.isEmpty()) {
            out() << credential.service << ": nothing to approve, the kit sends this key to no domain.\n";
            continue;
        }
        QString error;
        if (!bindings.approve(credential.service, domains, &error))
            return failure(error);
        qCDebug(lcBindingCli) << "approved" << credential.service << domains;
        warnAboutWildcards(domains);
        out() << "Approved " << credential.service << " for " << domains.join(QStringLiteral(", ")) << ".\n";
        ++approved;
    }
    if (approved == 0 && all)
        out() << "The kit " << loaded.kit->name << " sends no key to any domain: nothing to approve.\n";
    return credentialsInForce();
}

int runRevoke(const Invocation &call)
{
    std::optional<secrets::CredentialBindings> bindings = loadBindings();
    if (!bindings)
        return ExitFailed;
    const QString service = call.positional.constFirst();
    QString error;
    if (!bindings->revoke(service, &error))
        return failure(error);
    out() << "Revoked " << service << ": the proxy no longer sends its key anywhere.\n";
    return credentialsInForce();
}

int runList(const Invocation &call)
{
    const std::optional<secrets::CredentialBindings> bindings = loadBindings();
    if (!bindings)
        return ExitFailed;
    const QList<secrets::Binding> list = bindings->bindings();
    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const secrets::Binding &binding : list)
            array.append(QJsonObject{{QStringLiteral("service"), binding.service},
                                     {QStringLiteral("domains"), QJsonArray::fromStringList(binding.domains)}});
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (list.isEmpty()) {
        out() << "No bindings. Approve a kit's credentials with `paddock binding approve --kit KIT --all`.\n";
        return ExitOk;
    }
    qsizetype width = 7;
    for (const secrets::Binding &binding : list)
        width = std::max(width, binding.service.size());
    out() << QStringLiteral("SERVICE").leftJustified(width + 2) << "DOMAINS\n";
    for (const secrets::Binding &binding : list)
        out() << binding.service.leftJustified(width + 2) << binding.domains.join(QStringLiteral(", ")) << '\n';
    return ExitOk;
}

/** The state of one credential of a kit, as `check` reports it. */
struct CredentialState
{
    const kit::Credential *credential = nullptr;
    bool oauthOnly = false;
    bool secretPresent = false;
    QStringList domains;
    secrets::Coverage coverage;
    QStringList fixes;

    bool bindingOk() const { return oauthOnly || domains.isEmpty() || coverage.covered; }
    bool ready() const { return oauthOnly || (secretPresent && bindingOk()); }
};

QJsonObject stateJson(const CredentialState &s)
{
    return QJsonObject{
        {QStringLiteral("service"), s.credential->service},
        {QStringLiteral("description"), s.credential->description},
        {QStringLiteral("required"), s.credential->required},
        {QStringLiteral("kind"), s.oauthOnly ? QStringLiteral("oauth") : QStringLiteral("apiKey")},
        {QStringLiteral("secret"), s.secretPresent},
        {QStringLiteral("domains"), QJsonArray::fromStringList(s.domains)},
        {QStringLiteral("approved"), s.bindingOk()},
        {QStringLiteral("unapprovedDomains"), QJsonArray::fromStringList(s.coverage.newDomains)},
        {QStringLiteral("ready"), s.ready()},
        {QStringLiteral("fixes"), QJsonArray::fromStringList(s.fixes)},
    };
}

void printState(const CredentialState &s)
{
    const kit::Credential &c = *s.credential;
    out() << c.service << (c.required ? " (required)" : " (optional)");
    if (!c.description.isEmpty())
        out() << ": " << c.description;
    out() << '\n';
    if (s.oauthOnly) {
        out() << "  sign-in: OAuth, done from inside the sandbox; nothing to set here\n";
        return;
    }
    out() << "  secret:  " << (s.secretPresent ? QStringLiteral("set") : QStringLiteral("missing")) << '\n';
    if (s.domains.isEmpty())
        out() << "  binding: not needed, the kit sends this key to no domain\n";
    else if (s.coverage.covered)
        out() << "  binding: approved for " << s.domains.join(QStringLiteral(", ")) << '\n';
    else
        out() << "  binding: " << s.coverage.explanation(c.service) << '\n';
    for (const QString &fix : s.fixes)
        out() << "  fix:     " << fix << '\n';
}

int runCheck(const Invocation &call)
{
    secrets::disableCoreDumps();
    const LoadedKit loaded = loadKit(call);
    if (!loaded.kit)
        return loaded.exitCode;
    const std::optional<secrets::CredentialBindings> bindings = loadBindings();
    if (!bindings)
        return ExitFailed;
    const QString sandbox = call.parser.value(QStringLiteral("sandbox"));
    if (!sandbox.isEmpty() && !secrets::isValidName(sandbox))
        return usageError(call.commandPath, QStringLiteral("\"%1\" is not a usable sandbox name").arg(sandbox));

    secrets::SecretStore store;
    bool keychainChecked = false;
    QList<CredentialState> states;
    for (const kit::Credential &credential : loaded.kit->credentials) {
        CredentialState state;
        state.credential = &credential;
        state.oauthOnly = !credential.apiKey.has_value();
        if (!state.oauthOnly) {
            if (!keychainChecked) {
                const secrets::ProbeResult probe = store.probeAndWait();
                if (!probe.available)
                    return failure(probe.message);
                keychainChecked = true;
            }
            // Presence is read from the keychain itself (the index could be stale); the value
            // is dropped at once.
            secrets::SecretResult read = store.resolveAndWait(sandbox, credential.service);
            secrets::wipe(read.value);
            if (!read.ok() && read.error != secrets::SecretError::NotFound)
                return failure(read.message);
            state.secretPresent = read.ok();
            state.domains = injectionDomains(credential);
            state.coverage = bindings->coverage(credential.service, state.domains);
            if (!state.secretPresent)
                state.fixes << secrets::SecretStore::setCommand(secrets::SecretId::global(credential.service));
            if (!state.bindingOk())
                state.fixes << approveCommand(loaded, credential.service);
        }
        states << state;
    }

    const auto requiredNotReady = std::count_if(
        states.cbegin(), states.cend(), [](const CredentialState &s) { return s.credential->required && !s.ready(); });

    if (call.parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const CredentialState &s : states) {
            array.append(stateJson(s));
        }
        out() << QJsonDocument(QJsonObject{{QStringLiteral("kit"), loaded.kit->name},
                                           {QStringLiteral("ready"), requiredNotReady == 0},
                                           {QStringLiteral("credentials"), array}})
                     .toJson(QJsonDocument::Indented);
        return requiredNotReady == 0 ? ExitOk : ExitFailed;
    }

    if (states.isEmpty()) {
        out() << "The kit " << loaded.kit->name << " uses no credentials.\n";
        return ExitOk;
    }
    for (const CredentialState &s : states)
        printState(s);
    out() << '\n';
    if (requiredNotReady == 0) {
        out() << "Ready: every required credential is set and approved.\n";
        return ExitOk;
    }
    out().flush();
    return failure(
        QStringLiteral("%1 required %2 not ready: run the commands after 'fix:' above")
            .arg(requiredNotReady)
            .arg(requiredNotReady == 1 ? QStringLiteral("credential is") : QStringLiteral("credentials are")));
}

QCommandLineOption argOption()
{
    return QCommandLineOption(
        kArgOption, QStringLiteral("Value of the kit argument NAME, for kits whose domains use one (repeatable)."),
        QStringLiteral("NAME=VALUE"));
}

} // namespace

Command bindingCommand()
{
    Command binding;
    binding.name = QStringLiteral("binding");
    binding.summary = QStringLiteral("Approve which domains a service's key may be sent to.");
    binding.description =
        QStringLiteral("A binding records that you approved the key of a service (stored with `paddock secret set`)\n"
                       "to be sent to some domains. A kit lists, for each credential, the domains its key is\n"
                       "injected into; the proxy injects a key only on domains its binding approves, and a\n"
                       "sandbox whose kit needs more does not start until they are approved.\n"
                       "Bindings are kept in credentials.yaml in the config directory, in the shape sbx uses.");

    Command approve;
    approve.name = QStringLiteral("approve");
    approve.summary = QStringLiteral("Approve a kit's credentials for the domains the kit sends them to.");
    approve.description =
        QStringLiteral("Records in credentials.yaml that the key of each named SERVICE (or of every credential\n"
                       "of the kit with --all) may be sent to the domains the kit injects it into. Domains\n"
                       "approved earlier are kept.\n\n"
                       "With --interactive, shows each credential still needing approval with its description\n"
                       "and domains (warning about wildcards) and asks [A]pprove all, [R]eview each or [N]o.\n"
                       "When stdin is not a terminal it asks nothing, approves nothing and exits 1.\n"
                       "Exits 1 when the kit does not load or has no credential of that name.");
    approve.positionalSyntax = QStringLiteral("[SERVICE...]");
    approve.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("A credential of the kit, e.g. anthropic.")}};
    approve.options = {
        kitOption(),
        argOption(),
        QCommandLineOption(QStringLiteral("all"), QStringLiteral("Approve every credential of the kit.")),
        QCommandLineOption(QStringLiteral("interactive"),
                           QStringLiteral("Ask at the terminal which credentials to approve.")),
    };
    approve.run = runApprove;

    Command revoke;
    revoke.name = QStringLiteral("revoke");
    revoke.summary = QStringLiteral("Remove the binding of SERVICE: its key is sent nowhere.");
    revoke.description =
        QStringLiteral("Removes the binding of SERVICE from credentials.yaml, so the proxy no longer injects its\n"
                       "key on any domain. The key itself stays in the keychain (`paddock secret rm` removes it).\n"
                       "Exits 1 when SERVICE has no binding.");
    revoke.positionalSyntax = QStringLiteral("SERVICE");
    revoke.positionalHelp = {{QStringLiteral("SERVICE"), QStringLiteral("The service whose binding is removed.")}};
    revoke.minPositional = 1;
    revoke.maxPositional = 1;
    revoke.run = runRevoke;

    Command list;
    list.name = QStringLiteral("ls");
    list.summary = QStringLiteral("List bindings: each service and the domains it is approved for.");
    list.description = QStringLiteral("Lists every binding in credentials.yaml: the service and the domains its key\n"
                                      "may be sent to.");
    list.options = {jsonOption(QStringLiteral("the bindings"))};
    list.maxPositional = 0;
    list.run = runList;

    Command check;
    check.name = QStringLiteral("check");
    check.summary = QStringLiteral("Say whether a kit's credentials are stored and approved.");
    check.description =
        QStringLiteral("For each credential of the kit: whether its key is in the keychain, whether a binding\n"
                       "approves every domain the kit sends it to, and whether the kit requires it. Prints the\n"
                       "exact command that fixes each problem.\n"
                       "Exits 1 when a required credential is missing or not approved, 0 otherwise.");
    check.options = {
        kitOption(),
        argOption(),
        QCommandLineOption(QStringLiteral("sandbox"),
                           QStringLiteral("Also count the secrets of sandbox NAME (they take precedence)."),
                           QStringLiteral("NAME")),
        jsonOption(QStringLiteral("the state of each credential")),
    };
    check.maxPositional = 0;
    check.run = runCheck;

    binding.subcommands << approve << revoke << list << check;
    runQuietly(binding);
    return binding;
}

} // namespace paddock::cli
