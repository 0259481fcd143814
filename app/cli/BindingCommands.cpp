// SPDX-License-Identifier: GPL-3.0-or-later
// paddock binding approve|revoke|ls|check: which service's key may be sent to which domains.
#include "BindingApproval.h"
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"
#include "SecretCliSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace paddock::cli {

namespace {

const QString kKitOption = QStringLiteral("kit");
const QString kArgOption = QStringLiteral("arg");

/** The kit named by --kit with its --arg values, or the exit code of the failure already reported. */
struct NamedKit
{
    std::optional<KitRequest> kit;
    QString argFlags; ///< " --arg NAME=VALUE" for each value given, quoted for the shell
    int exitCode = ExitOk;
};

NamedKit namedKit(const Invocation &call)
{
    NamedKit named;
    if (call.parser.value(kKitOption).isEmpty()) {
        named.exitCode = usageError(call.commandPath, QStringLiteral("--kit KIT is required"));
        return named;
    }
    // One --kit per kit of a composition: its credentials are every kit's.
    KitRequest kit;
    for (const QString &argument : call.parser.values(kKitOption)) {
        const std::optional<QString> directory = resolveKit(argument);
        if (!directory) {
            named.exitCode = ExitFailed;
            return named;
        }
        if (kit.directory.isEmpty())
            kit.directory = *directory;
        else
            kit.mixins << *directory;
    }
    for (const QString &assignment : call.parser.values(kArgOption)) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            named.exitCode =
                usageError(call.commandPath, QStringLiteral("--arg takes NAME=VALUE, got '%1'").arg(assignment));
            return named;
        }
        kit.args.insert(assignment.left(eq), assignment.mid(eq + 1));
        named.argFlags += QStringLiteral(" --arg ") + shellQuote(assignment);
    }
    named.kit = kit;
    return named;
}

/** The daemon's `binding.check` of @p named (its kit's name filled in), or nullopt after reporting. */
std::optional<QJsonObject> checkInDaemon(const Invocation &call, NamedKit &named, const QString &sandbox, int *code)
{
    QJsonObject params = named.kit->params();
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    std::optional<QJsonObject> checked =
        callDaemon(call, QStringLiteral("binding.check"), params, code, kDaemonCallTimeoutMs);
    if (checked)
        named.kit->name = checked->value(QLatin1String("kit")).toString();
    return checked;
}

QString approveCommand(const NamedKit &named, const QString &service)
{
    QString kits = shellQuote(named.kit->directory);
    for (const QJsonValue &mixin : named.kit->mixins)
        kits += QStringLiteral(" --kit ") + shellQuote(mixin.toString());
    return QStringLiteral("paddock binding approve --kit %1%2 %3").arg(kits, named.argFlags, shellQuote(service));
}

void warnAboutWildcards(const QStringList &domains)
{
    for (const QString &domain : domains) {
        if (isWildcardDomain(domain))
            err() << "paddock: warning: " << domain << " sends the key to every host it matches\n";
    }
}

int reportInteractive(const NamedKit &named, const ApprovalOutcome &outcome)
{
    using Status = ApprovalOutcome::Status;
    const QString pending = outcome.pending.join(QStringLiteral(", "));
    switch (outcome.status) {
    case Status::NothingToApprove:
        out() << "Nothing to approve: every credential of " << named.kit->name << " is approved already.\n";
        return ExitOk;
    case Status::Approved:
        out() << "Approved " << outcome.approved.join(QStringLiteral(", ")) << ".\n";
        return ExitOk;
    case Status::PartlyApproved:
        out() << "Approved " << outcome.approved.join(QStringLiteral(", ")) << ".\n";
        return failure(QStringLiteral("%1 not approved").arg(pending));
    case Status::Declined:
        return failure(QStringLiteral("nothing was approved; %1 still needs approval").arg(pending));
    case Status::NeedsApproval:
        return failure(QStringLiteral("%1 needs approval and stdin is not a terminal to ask on: run `paddock binding "
                                      "approve --kit %2%3 --all` to approve")
                           .arg(pending, shellQuote(named.kit->directory), named.argFlags));
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
    if (!all && !interactive && call.positional.isEmpty())
        return usageError(call.commandPath,
                          QStringLiteral("name the services to approve, or pass --all or --interactive"));
    NamedKit named = namedKit(call);
    if (!named.kit)
        return named.exitCode;
    int code = ExitFailed;
    if (interactive) {
        const std::optional<QJsonObject> checked = checkInDaemon(call, named, QString(), &code);
        if (!checked)
            return code;
        const QList<PendingApproval> pending =
            pendingApprovals(checked->value(QLatin1String("credentials")).toArray(), call.positional);
        return reportInteractive(named, approveInteractively(*named.kit, pending));
    }
    // The daemon loads the kit, refuses a service it does not have, and records the approval:
    // in force for every running sandbox when it answers.
    QJsonObject params = named.kit->params();
    if (!all)
        params.insert(QStringLiteral("services"), QJsonArray::fromStringList(call.positional));
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("binding.approve"), params, &code, kDaemonCallTimeoutMs);
    if (!answer)
        return code;
    QStringList approved;
    for (const QJsonValue &value : answer->value(QLatin1String("approved")).toArray()) {
        const QJsonObject entry = value.toObject();
        const QStringList domains = PendingApproval::fromJson(entry).domains;
        approved << entry.value(QLatin1String("service")).toString();
        warnAboutWildcards(domains);
        out() << "Approved " << approved.last() << " for " << domains.join(QStringLiteral(", ")) << ".\n";
    }
    for (const QString &service : call.positional) {
        if (!approved.contains(service))
            out() << service << ": nothing to approve, the kit sends this key to no domain.\n";
    }
    if (approved.isEmpty() && all)
        out() << "The kit " << answer->value(QLatin1String("kit")).toString()
              << " sends no key to any domain: nothing to approve.\n";
    return ExitOk;
}

int runRevoke(const Invocation &call)
{
    const QString service = call.positional.constFirst();
    int code = ExitFailed;
    if (!callDaemon(call, QStringLiteral("binding.revoke"), {{QStringLiteral("service"), service}}, &code,
                    kDaemonCallTimeoutMs))
        return code;
    out() << "Revoked " << service << ": the proxy no longer sends its key anywhere.\n";
    return ExitOk;
}

int runList(const Invocation &call)
{
    int code = ExitFailed;
    const std::optional<QJsonObject> answer =
        callDaemon(call, QStringLiteral("binding.list"), {}, &code, kDaemonCallTimeoutMs);
    if (!answer)
        return code;
    const QJsonArray list = answer->value(QLatin1String("bindings")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(list).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (list.isEmpty()) {
        out() << "No bindings. Approve a kit's credentials with `paddock binding approve --kit KIT --all`.\n";
        return ExitOk;
    }
    qsizetype width = 7;
    for (const QJsonValue &binding : list)
        width = std::max(width, binding[QLatin1String("service")].toString().size());
    out() << QStringLiteral("SERVICE").leftJustified(width + 2) << "DOMAINS\n";
    for (const QJsonValue &binding : list)
        out() << binding[QLatin1String("service")].toString().leftJustified(width + 2)
              << PendingApproval::fromJson(binding.toObject()).domains.join(QStringLiteral(", ")) << '\n';
    return ExitOk;
}

/** The fixes of one `binding.check` row: the commands that make it ready. */
QStringList fixesOf(const QJsonObject &row, const NamedKit &named)
{
    QStringList fixes;
    if (row.value(QLatin1String("kind")).toString() != QLatin1String("apiKey"))
        return fixes;
    const QString service = row.value(QLatin1String("service")).toString();
    if (!row.value(QLatin1String("secret")).toBool())
        fixes << QStringLiteral("paddock secret set %1").arg(service);
    if (!row.value(QLatin1String("approved")).toBool())
        fixes << approveCommand(named, service);
    return fixes;
}

void printRow(const QJsonObject &row, const QStringList &fixes)
{
    const QString service = row.value(QLatin1String("service")).toString();
    const QString description = row.value(QLatin1String("description")).toString();
    out() << service << (row.value(QLatin1String("required")).toBool() ? " (required)" : " (optional)");
    if (!description.isEmpty())
        out() << ": " << description;
    out() << '\n';
    if (row.value(QLatin1String("kind")).toString() != QLatin1String("apiKey")) {
        out() << "  sign-in: OAuth, done from inside the sandbox; nothing to set here\n";
        return;
    }
    const QStringList domains = PendingApproval::fromJson(row).domains;
    out() << "  secret:  " << (row.value(QLatin1String("secret")).toBool() ? "set" : "missing") << '\n';
    if (domains.isEmpty())
        out() << "  binding: not needed, the kit sends this key to no domain\n";
    else if (row.value(QLatin1String("approved")).toBool())
        out() << "  binding: approved for " << domains.join(QStringLiteral(", ")) << '\n';
    else
        out() << "  binding: " << row.value(QLatin1String("explanation")).toString() << '\n';
    for (const QString &fix : fixes)
        out() << "  fix:     " << fix << '\n';
}

int printCheck(const QJsonObject &checked, const NamedKit &named, bool json)
{
    const QJsonArray rows = checked.value(QLatin1String("credentials")).toArray();
    int requiredNotReady = 0;
    QJsonArray array;
    for (const QJsonValue &value : rows) {
        QJsonObject row = value.toObject();
        if (row.value(QLatin1String("required")).toBool() && !row.value(QLatin1String("ready")).toBool())
            ++requiredNotReady;
        const QStringList fixes = fixesOf(row, named);
        if (!json) {
            printRow(row, fixes);
            continue;
        }
        row.insert(QStringLiteral("unapprovedDomains"), row.value(QLatin1String("newDomains")));
        row.insert(QStringLiteral("fixes"), QJsonArray::fromStringList(fixes));
        array.append(row);
    }
    if (json) {
        out() << QJsonDocument(QJsonObject{{QStringLiteral("kit"), named.kit->name},
                                           {QStringLiteral("ready"), requiredNotReady == 0},
                                           {QStringLiteral("credentials"), array}})
                     .toJson(QJsonDocument::Indented);
        return requiredNotReady == 0 ? ExitOk : ExitFailed;
    }
    if (rows.isEmpty()) {
        out() << "The kit " << named.kit->name << " uses no credentials.\n";
        return ExitOk;
    }
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

int runCheck(const Invocation &call)
{
    NamedKit named = namedKit(call);
    if (!named.kit)
        return named.exitCode;
    const QString sandbox = call.parser.value(QStringLiteral("sandbox"));
    int code = ExitFailed;
    // The daemon reads the kit, credentials.yaml and the keychain (presence only, the value
    // dropped at once), as a start would.
    const std::optional<QJsonObject> checked = checkInDaemon(call, named, sandbox, &code);
    if (!checked)
        return code;
    if (!checked->value(QLatin1String("keychain")).toBool(true))
        return failure(QStringLiteral("the keychain does not answer: %1")
                           .arg(checked->value(QLatin1String("keychainMessage")).toString()));
    return printCheck(*checked, named, call.parser.isSet(QStringLiteral("json")));
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
