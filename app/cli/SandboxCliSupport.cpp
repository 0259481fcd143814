// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxCliSupport.h"

#include "BindingApproval.h"
#include "HostGrantCli.h"

#include "api/Protocol.h"
#include "kit/KitComposition.h"
#include "kit/KitLoader.h"
#include "kit/KitShares.h"
#include "kit/SandboxName.h"
#include "runtime/bwrap/BwrapRuntime.h"
#include "runtime/docker/DockerRuntime.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <unistd.h>

namespace paddock::cli {

QString creationHelp()
{
    return QStringLiteral(
        "The sandbox sees PATH (default: the current directory) read-write at the same path, further\n"
        "PATHs read-only, a private home filled from the kit, the folders and variables given with\n"
        "--mount and --env (and those of 'paddock kit share KIT'), and the network only through its\n"
        "own endpoint of paddockd's proxy, which applies the policy and the kit's network permissions.\n"
        "Arguments after '--' replace the kit's command (the entrypoint stays).\n\n"
        "--kit may be given more than once for loaded schemaVersion 3 kits: one workload and the\n"
        "mixins composed onto it, resolved as 'paddock kit resolve' does; the mixins' layers land\n"
        "on the workload's root (on Docker, in an image the engine builds once for the same kits)\n"
        "and their declarations join its own.\n\n"
        "Provider keys stay in the keychain: the proxy adds them to requests for the domains the kit\n"
        "names, once approved. A required key that is not stored stops the start with the command\n"
        "that stores it; keys going to domains not yet approved are asked about on a terminal,\n"
        "approved with --approve-credentials, and otherwise stop the start (exit 1).\n\n"
        "Kit rules that reach this computer or its networks (127.0.0.1:*, 10.0.0.0/8,\n"
        "169.254.169.254:80: host grants, see 'paddock grant') are asked about on a terminal,\n"
        "approved with --approve-host-grants, and otherwise stop the start (exit 1).");
}

QCommandLineOption backendOption()
{
    return {QStringLiteral("backend"),
            QStringLiteral("The runtime: bwrap (the default) or docker (the default with --isolation gvisor)."),
            QStringLiteral("NAME")};
}
QCommandLineOption engineOption()
{
    return {QStringLiteral("engine"),
            QStringLiteral("The container engine a Docker sandbox runs on (paddock engine ls; default: the one in "
                           "use). Implies --backend docker."),
            QStringLiteral("NAME")};
}
QCommandLineOption isolationOption()
{
    return {QStringLiteral("isolation"),
            QStringLiteral("container (the default: namespaces over this computer's kernel) or gvisor (a kernel "
                           "of its own in user space, through the Docker engine's runsc runtime)."),
            QStringLiteral("LEVEL")};
}
QCommandLineOption nameOption()
{
    return {QStringLiteral("name"), QStringLiteral("The sandbox's name (default: KIT-FOLDER)."),
            QStringLiteral("NAME")};
}
QCommandLineOption argOption()
{
    return {QStringLiteral("arg"), QStringLiteral("A value for the kit's argument NAME (repeatable)."),
            QStringLiteral("NAME=VALUE")};
}
QCommandLineOption approveOption()
{
    return {QStringLiteral("approve-credentials"),
            QStringLiteral("Approve the kit's credentials for the domains it names, without asking.")};
}

QCommandLineOption ttyOption()
{
    return {{QStringLiteral("t"), QStringLiteral("tty")},
            QStringLiteral("Give the agent a terminal of its own (the default when standard input is one).")};
}

QCommandLineOption unprotectedOption()
{
    return {
        QStringLiteral("unprotected"),
        QStringLiteral(
            "Let the sandbox change .git/hooks, .git/config, .envrc, .vscode/ and sbxenv.yaml of a workspace used in "
            "place (read-only otherwise); 'paddock review NAME' lists what it changed.")};
}

QCommandLineOption mountOption()
{
    return {QStringLiteral("mount"),
            QStringLiteral("Share a host folder or file (repeatable): INSIDE defaults to the same path, the mode to "
                           "rw. The home folder, ~/.ssh, ~/.gnupg, keyrings, Paddock's folders and the Docker "
                           "socket are refused."),
            QStringLiteral("HOST[:INSIDE][:ro|rw]")};
}

QCommandLineOption envOption()
{
    return {QStringLiteral("env"),
            QStringLiteral("Set a variable inside (repeatable); NAME alone takes this shell's value. A provider "
                           "key is refused: store it with 'paddock secret set'."),
            QStringLiteral("NAME=VALUE|NAME")};
}

/** `--mount` and `--env` as the `mounts` and `env` params; nullopt after printing what is wrong. */
std::optional<std::pair<QJsonArray, QJsonObject>> sharesJson(const Invocation &call, int *code)
{
    QJsonArray mounts;
    QString error;
    for (const QString &text : call.parser.values(QStringLiteral("mount"))) {
        const std::optional<kit::SharedFolder> folder = kit::SharedFolder::parse(text, QDir::currentPath(), &error);
        if (!folder) {
            *code = usageError(call.commandPath, QStringLiteral("--mount %1").arg(error));
            return std::nullopt;
        }
        mounts.append(folder->toJson());
    }
    QJsonObject env;
    for (const QString &text : call.parser.values(QStringLiteral("env"))) {
        const std::optional<kit::VariableArgument> variable = kit::parseVariable(text, &error);
        if (!variable) {
            *code = usageError(call.commandPath, QStringLiteral("--env %1").arg(error));
            return std::nullopt;
        }
        // NAME alone: this shell's value, as docker run -e NAME does; left out when it has none.
        if (!variable->value && !qEnvironmentVariableIsSet(qPrintable(variable->name))) {
            err() << "paddock: note: --env " << variable->name << ": not set here, so not set in the sandbox\n";
            continue;
        }
        env.insert(variable->name, variable->value.value_or(qEnvironmentVariable(qPrintable(variable->name))));
    }
    return std::make_pair(mounts, env);
}

QCommandLineOption cloneOption()
{
    return {QStringLiteral("clone"),
            QStringLiteral("Work on a disposable clone of PATH's git repository; its commits come back as branches "
                           "paddock/NAME/<branch>.")};
}

QCommandLineOption secretGuardOption()
{
    return {QStringLiteral("secret-guard"),
            QCoreApplication::translate("SandboxCli",
                                        "What requests to the model provider that carry a value of the workspace's "
                                        ".env or key files get: refuse (the default), redact or off."),
            QStringLiteral("MODE")};
}

QCommandLineOption sshAgentOption()
{
    return {QStringLiteral("ssh-agent"),
            QCoreApplication::translate("SandboxCli",
                                        "The SSH agent a kit's ssh-agent@1 relays to, and no other (neither "
                                        "SSH_AUTH_SOCK nor paddockd's, now or at a later start); none for none."),
            QStringLiteral("SOCKET")};
}

QCommandLineOption sshKnownHostsOption()
{
    return {QStringLiteral("ssh-known-hosts"),
            QCoreApplication::translate("SandboxCli",
                                        "The known_hosts file whose keys the servers a kit's ssh-agent@1 may log in "
                                        "to are checked against, instead of ~/.ssh/known_hosts (read at creation)."),
            QStringLiteral("FILE")};
}

std::optional<kit::Kit> loadKitOf(const QJsonObject &params)
{
    kit::KitLoadOptions options;
    options.requireArgValues = true;
    const QJsonObject kitArgs = params.value(QLatin1String("kitArgs")).toObject();
    for (auto it = kitArgs.begin(); it != kitArgs.end(); ++it)
        options.args.insert(it.key(), it.value().toString());
    if (params.contains(QLatin1String("mixins"))) {
        // A composition: the kit the daemon applies is the merged one, named after every kit.
        QStringList kits{params.value(QLatin1String("kit")).toString()};
        for (const QJsonValue &mixin : params.value(QLatin1String("mixins")).toArray())
            kits << mixin.toString();
        const Result<kit::Composition> composed = kit::loadComposition(kits, options);
        return composed ? std::optional(composed->kit) : std::nullopt;
    }
    const kit::KitLoadResult loaded =
        kit::KitLoader::loadDirectory(params.value(QLatin1String("kit")).toString(), options);
    if (!loaded.ok() || !loaded.kit)
        return std::nullopt;
    return *loaded.kit;
}

QString sandboxNameOf(const QJsonObject &params, const kit::Kit &kit)
{
    const QString name = params.value(QLatin1String("name")).toString();
    return name.isEmpty() ? kit::defaultSandboxName(kit.name, params.value(QLatin1String("workspace")).toString())
                          : name;
}

std::optional<QJsonObject> callDaemon(const QString &method, const QJsonObject &params, int timeoutMs)
{
    const api::Reply reply = daemonReply(method, params, timeoutMs);
    if (reply.isError()) {
        failure(reply.errorMessage());
        return std::nullopt;
    }
    return reply.result();
}

std::unique_ptr<runtime::Runtime> localRuntime(const QJsonObject &sandbox)
{
    if (sandbox.value(QLatin1String("backend")).toString() != QLatin1String("docker"))
        return std::make_unique<runtime::BwrapRuntime>();
    // The engine as the user's own settings and docker contexts name it: where the daemon reaches it.
    const QString engine = sandbox.value(QLatin1String("engine")).toString();
    if (engine.isEmpty() || engine == QLatin1String("local"))
        return std::make_unique<runtime::DockerRuntime>();
    const api::Reply engines = daemonReply(QStringLiteral("engine.list"), {}, kCallTimeoutMs);
    for (const QJsonValue &value : engines.result().value(QLatin1String("engines")).toArray()) {
        const QJsonObject found = value.toObject();
        if (found.value(QLatin1String("name")).toString() == engine && found.contains(QLatin1String("endpoint")))
            return std::make_unique<runtime::DockerRuntime>(
                runtime::docker::Endpoint::fromJson(found.value(QLatin1String("endpoint")).toObject()), engine);
    }
    return std::make_unique<runtime::DockerRuntime>();
}

void printNotes(const QJsonObject &result)
{
    for (const QJsonValue &note : result.value(QLatin1String("notes")).toArray())
        err() << "paddock: note: " << note.toString() << '\n';
    err().flush();
}

QStringList argumentsAfterDoubleDash()
{
    const QStringList all = QCoreApplication::arguments();
    const qsizetype at = all.indexOf(QStringLiteral("--"));
    return at < 0 ? QStringList() : all.mid(at + 1);
}

namespace {

/**
 * The folders of the kits given with --kit, the workload first when several compose (the
 * daemon resolves the set and says what is wrong with it); nullopt when one is not found.
 */
std::optional<QStringList> composedKits(const QStringList &arguments)
{
    QStringList folders;
    for (const QString &argument : arguments) {
        const std::optional<QString> folder = resolveKit(argument);
        if (!folder)
            return std::nullopt;
        folders << *folder;
    }
    for (qsizetype i = 1; i < folders.size(); ++i) {
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(folders.at(i));
        if (loaded.kit && loaded.kit->isSandbox()) {
            folders.move(i, 0);
            break;
        }
    }
    return folders;
}

} // namespace

std::optional<QJsonObject> creationParams(const Invocation &call, int *code)
{
    if (call.parser.value(QStringLiteral("kit")).isEmpty()) {
        *code = usageError(call.commandPath, QStringLiteral("--kit KIT is required"));
        return std::nullopt;
    }
    const std::optional<QStringList> kits = composedKits(call.parser.values(QStringLiteral("kit")));
    if (!kits) {
        *code = ExitFailed;
        return std::nullopt;
    }
    const QStringList command = argumentsAfterDoubleDash();
    QStringList paths = call.positional.mid(0, call.positional.size() - command.size());
    if (paths.isEmpty())
        paths << QDir::currentPath();
    QJsonArray extra;
    for (qsizetype i = 1; i < paths.size(); ++i)
        extra.append(QFileInfo(paths.at(i)).absoluteFilePath());
    const std::optional<QJsonObject> kitArgs = kitArgsJson(call, code);
    if (!kitArgs)
        return std::nullopt;
    const std::optional<std::pair<QJsonArray, QJsonObject>> shares = sharesJson(call, code);
    if (!shares)
        return std::nullopt;
    QJsonObject params{
        {QStringLiteral("mounts"), shares->first},
        {QStringLiteral("env"), shares->second},
        {QStringLiteral("kit"), kits->constFirst()},
        {QStringLiteral("workspace"), QFileInfo(paths.first()).absoluteFilePath()},
        {QStringLiteral("paths"), extra},
        {QStringLiteral("args"), QJsonArray::fromStringList(command)},
        {QStringLiteral("kitArgs"), *kitArgs},
        // The agent gets a terminal when the person starting it has one.
        {QStringLiteral("interactive"), ::isatty(STDIN_FILENO) || call.parser.isSet(QStringLiteral("tty"))},
        {QStringLiteral("protectHostFiles"), !call.parser.isSet(QStringLiteral("unprotected"))},
        // A kit's ssh-agent@1 relays to the agent of the person creating the sandbox.
        {QStringLiteral("sshAuthSock"), qEnvironmentVariable("SSH_AUTH_SOCK")}};
    if (kits->size() > 1)
        params.insert(QStringLiteral("mixins"), QJsonArray::fromStringList(kits->mid(1)));
    if (call.parser.isSet(QStringLiteral("name")))
        params.insert(QStringLiteral("name"), call.parser.value(QStringLiteral("name")));
    // The daemon picks the backend when none is named: bwrap, or docker for gVisor.
    if (call.parser.isSet(QStringLiteral("backend")))
        params.insert(QStringLiteral("backend"), call.parser.value(QStringLiteral("backend")));
    if (call.parser.isSet(QStringLiteral("engine")))
        params.insert(QStringLiteral("engine"), call.parser.value(QStringLiteral("engine")));
    if (call.parser.isSet(QStringLiteral("isolation")))
        params.insert(QStringLiteral("isolation"), call.parser.value(QStringLiteral("isolation")));
    if (call.parser.isSet(QStringLiteral("clone")))
        params.insert(QStringLiteral("workspaceMode"), QStringLiteral("clone"));
    if (call.parser.isSet(QStringLiteral("secret-guard")))
        params.insert(QStringLiteral("secretGuard"), call.parser.value(QStringLiteral("secret-guard")));
    if (call.parser.isSet(QStringLiteral("ssh-agent"))) {
        const QString agent = call.parser.value(QStringLiteral("ssh-agent"));
        params.insert(QStringLiteral("sshAuthSock"),
                      agent == QLatin1String("none") ? QString() : QFileInfo(agent).absoluteFilePath());
        params.insert(QStringLiteral("sshAgentOnly"), true);
    }
    if (call.parser.isSet(QStringLiteral("ssh-known-hosts")))
        params.insert(QStringLiteral("sshKnownHosts"),
                      QFileInfo(call.parser.value(QStringLiteral("ssh-known-hosts"))).absoluteFilePath());
    return params;
}

std::optional<QJsonObject> approvedCreationParams(const Invocation &call, int *code)
{
    std::optional<QJsonObject> params = creationParams(call, code);
    if (!params)
        return std::nullopt;
    if (const std::optional<int> stopped = checkHostGrants(call, *params)) {
        *code = *stopped;
        return std::nullopt;
    }
    if (const std::optional<int> stopped = checkCredentials(call, *params)) {
        *code = *stopped;
        return std::nullopt;
    }
    if (call.parser.isSet(approveOption()))
        params->insert(QStringLiteral("approveCredentials"), true);
    if (call.parser.isSet(approveHostGrantsOption()))
        params->insert(QStringLiteral("approveHostGrants"), true);
    return params;
}

namespace {

KitRequest kitRequestOf(const QJsonObject &params, const QString &name)
{
    return KitRequest{name, params.value(QLatin1String("kit")).toString(),
                      params.value(QLatin1String("kitArgs")).toObject(),
                      params.value(QLatin1String("mixins")).toArray()};
}

/** Prints the daemon's reasons a start is blocked; ExitFailed when there are any. */
std::optional<int> reportBlocked(const QJsonObject &check)
{
    if (!check.value(QLatin1String("blocked")).toBool())
        return std::nullopt;
    for (const QJsonValue &message : check.value(QLatin1String("messages")).toArray())
        err() << "paddock: " << message.toString() << '\n';
    err().flush();
    return ExitFailed;
}

} // namespace

std::optional<int> checkCredentials(const Invocation &call, const QJsonObject &params)
{
    // The daemon loads the kit and reads credentials.yaml and the keychain; it decides again at
    // create, so this only asks the person early, on this terminal.
    const api::Reply described = daemonReply(QStringLiteral("sandbox.credentials"), params, kCallTimeoutMs);
    if (described.isError()) {
        if (described.errorCode() == QLatin1String(api::errors::kInvalidKit))
            return std::nullopt; // sandbox.create says what is wrong with the kit
        return failure(described.errorMessage());
    }
    QJsonObject check = described.result();
    bool missingRequired = false;
    for (const QJsonValue &missing : check.value(QLatin1String("missingSecrets")).toArray())
        missingRequired = missingRequired || missing[QLatin1String("required")].toBool();
    if (missingRequired)
        return reportBlocked(check);

    QList<PendingApproval> toAsk;
    for (const QJsonValue &value : check.value(QLatin1String("pendingApprovals")).toArray()) {
        if (value[QLatin1String("required")].toBool() || value[QLatin1String("hasSecret")].toBool())
            toAsk << PendingApproval::fromJson(value.toObject());
    }
    const KitRequest kit = kitRequestOf(params, check.value(QLatin1String("kit")).toString());
    if (!toAsk.isEmpty() && !call.parser.isSet(approveOption().names().first())) {
        const ApprovalOutcome outcome = approveInteractively(kit, toAsk);
        if (outcome.status == ApprovalOutcome::Status::Failed)
            return failure(outcome.error);
        const api::Reply again = daemonReply(QStringLiteral("sandbox.credentials"), params, kCallTimeoutMs);
        if (again.isError())
            return failure(again.errorMessage());
        check = again.result();
    } else if (!toAsk.isEmpty()) {
        return std::nullopt; // --approve-credentials: sandbox.create approves them
    }
    if (const std::optional<int> blocked = reportBlocked(check))
        return blocked;
    for (const QJsonValue &warning : check.value(QLatin1String("warnings")).toArray())
        err() << "paddock: warning: " << warning.toString() << '\n';
    err().flush();
    return std::nullopt;
}

int createDetached(const QJsonObject &params, bool start)
{
    const api::Reply reply = daemonReply(QStringLiteral("sandbox.create"), params, kCreateTimeoutMs);
    // A kit requiring what Paddock cannot give here is refused, as by policy.
    if (reply.isError()) {
        failure(reply.errorMessage());
        return reply.errorCode() == QLatin1String(api::errors::kCapabilityRefused) ? ExitRefused : ExitFailed;
    }
    const std::optional<QJsonObject> created = reply.result();
    printNotes(*created);
    const QString name = created->value(QLatin1String("sandbox")).toObject().value(QLatin1String("name")).toString();
    if (start) {
        const std::optional<QJsonObject> started = callDaemon(
            QStringLiteral("sandbox.start"),
            {{QStringLiteral("name"), name}, {QStringLiteral("sshAuthSock"), qEnvironmentVariable("SSH_AUTH_SOCK")}});
        if (!started)
            return ExitFailed;
        printNotes(*started);
    }
    out() << name << '\n';
    return ExitOk;
}

} // namespace paddock::cli
