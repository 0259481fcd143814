// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock env`: a sandbox described by an environment file (sbxenv.yaml, env/EnvFile.h),
// planned (env/EnvPlan.h), brought up through the daemon as `paddock create` does, and the
// commands the file runs on this computer, each only once the person approved its exact text.
#include "BindingApproval.h"
#include "Cli.h"
#include "HostGrantCli.h"
#include "SandboxCliSupport.h"

#include "api/Protocol.h"
#include "env/EnvPlan.h"
#include "env/HostCommandApprovals.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <unistd.h>

namespace paddock::cli {
namespace {

QCommandLineOption noUserFileOption()
{
    return {QStringLiteral("no-user-file"), QStringLiteral("Do not merge ~/.sbxenv.yaml beneath FILE.")};
}

/**
 * The workspace, shared folders and variables of @p environment as the daemon checks them
 * (`sandbox.checkShares`); when it cannot be asked, each is refused with the reason.
 */
env::ShareFindings daemonShareChecks(const env::Environment &environment)
{
    QJsonArray mounts;
    for (const kit::SharedFolder &mount : environment.mounts)
        mounts.append(mount.toJson());
    QJsonObject variables;
    for (auto it = environment.env.begin(); it != environment.env.end(); ++it)
        variables.insert(it.key(), it.value());
    const api::Reply reply = daemonReply(QStringLiteral("sandbox.checkShares"),
                                         {{QStringLiteral("workspace"), environment.workspace},
                                          {QStringLiteral("mounts"), mounts},
                                          {QStringLiteral("env"), variables}},
                                         kDaemonCallTimeoutMs);
    env::ShareFindings found;
    if (reply.isError()) {
        found.workspace = QStringLiteral("cannot be checked: %1").arg(reply.errorMessage());
        return found;
    }
    if (reply.result().contains(QLatin1String("workspaceProblem")))
        found.workspace = reply.result().value(QLatin1String("workspaceProblem")).toString();
    for (const QJsonValue &value : reply.result().value(QLatin1String("mounts")).toArray())
        found.mounts.append({value.toObject().value(QLatin1String("problem")).toString(),
                             value.toObject().value(QLatin1String("warning")).toString()});
    for (const QJsonValue &value : reply.result().value(QLatin1String("env")).toArray()) {
        const QJsonObject entry = value.toObject();
        if (entry.contains(QLatin1String("problem")))
            found.variables.insert(entry.value(QLatin1String("name")).toString(),
                                   entry.value(QLatin1String("problem")).toString());
    }
    return found;
}

/** The environment of the command line's FILE (default ./sbxenv.yaml), planned; nullopt after saying why. */
std::optional<env::EnvPlan> loadPlan(const Invocation &call, const QStringList &positional)
{
    const QString file = positional.isEmpty() ? QDir::current().filePath(QStringLiteral("sbxenv.yaml"))
                                              : QFileInfo(positional.first()).absoluteFilePath();
    const QString user = call.parser.isSet(QStringLiteral("no-user-file")) ? QString() : env::userEnvironmentFile();
    std::variant<env::Environment, FileError> loaded = env::loadEnvironment(file, user);
    if (const auto *error = std::get_if<FileError>(&loaded)) {
        err() << error->toString() << '\n';
        return std::nullopt;
    }
    return env::planEnvironment(std::get<env::Environment>(loaded), daemonShareChecks);
}

QString kitDirectoryOf(const env::EnvPlan &plan)
{
    const std::optional<QString> dir = resolveKit(plan.kit.source);
    return dir.value_or(QString());
}

/**
 * Each of @p commands approved before, or approved now by the person at the terminal, who sees
 * its exact text. --yes approves none: what runs on this computer is always read first.
 */
bool approveHostCommands(const QList<env::HostCommand> &commands, const QString &verb)
{
    env::HostCommandApprovals approvals;
    for (const env::HostCommand &command : commands) {
        if (approvals.isApproved(command))
            continue;
        err() << "paddock: " << command.file << ':' << command.line << " runs this on this computer (" << command.phase
              << (command.name.isEmpty() ? QString() : QStringLiteral(", \"%1\"").arg(command.name))
              << "), new or changed since it was approved:\n"
              << command.command << (command.command.endsWith(QLatin1Char('\n')) ? "" : "\n");
        if (!::isatty(STDIN_FILENO)) {
            failure(QStringLiteral("this host command is not approved; run 'paddock env %1' on a terminal to read "
                                   "and approve it (--yes does not approve host commands)")
                        .arg(verb));
            return false;
        }
        if (!terminalAnswersYes(QStringLiteral("Run it on this computer?"))) {
            failure(QStringLiteral("not approved; nothing was done"));
            return false;
        }
        QString error;
        if (!approvals.approve(command, &error)) {
            failure(error);
            return false;
        }
    }
    return true;
}

/** Runs @p commands (approved) in their files' folders; false when one fails. */
bool runHostCommands(const QList<env::HostCommand> &commands, const QString &sandbox)
{
    const env::HostCommandApprovals approvals;
    for (const env::HostCommand &command : commands) {
        err() << "paddock: running " << command.phase
              << (command.name.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(command.name)) << '\n';
        err().flush();
        out().flush();
        QString error;
        if (!env::runApprovedCommand(command, approvals, sandbox, true, &error)) {
            failure(error);
            return false;
        }
    }
    return true;
}

std::optional<QJsonObject> existingSandbox(const QString &name)
{
    const std::optional<QJsonObject> listed = callDaemon(QStringLiteral("sandbox.list"), {});
    if (!listed)
        return std::nullopt;
    for (const QJsonValue &value : listed->value(QLatin1String("sandboxes")).toArray()) {
        if (value.toObject().value(QLatin1String("name")).toString() == name)
            return value.toObject();
    }
    return QJsonObject();
}

int runPlan(const Invocation &call)
{
    const std::optional<env::EnvPlan> plan = loadPlan(call, call.positional);
    if (!plan)
        return ExitFailed;
    const env::HostCommandApprovals approvals;
    out() << env::planText(*plan, kitDirectoryOf(*plan),
                           [&](const env::HostCommand &command) { return approvals.isApproved(command); });
    return plan->ok() ? ExitOk : ExitFailed;
}

/** The file's bindings, approved by the daemon: in force for every running sandbox when it answers. */
std::optional<int> approveBindings(const Invocation &call, const env::EnvPlan &plan)
{
    if (plan.env.bindings.isEmpty())
        return std::nullopt;
    QJsonArray bindings;
    for (const env::BindingEntry &binding : plan.env.bindings)
        bindings.append(QJsonObject{{QStringLiteral("service"), binding.service},
                                    {QStringLiteral("domains"), QJsonArray::fromStringList(binding.domains)}});
    int code = ExitFailed;
    if (!callDaemon(call, QStringLiteral("binding.approve"), {{QStringLiteral("bindings"), bindings}}, &code,
                    kDaemonCallTimeoutMs))
        return code;
    return std::nullopt;
}

/** Creates and starts the sandbox, then its companions; the exit code when it stops. */
std::optional<int> createSandbox(const Invocation &call, const QJsonObject &params, const env::EnvPlan &plan)
{
    if (const std::optional<int> stopped = checkHostGrants(call, params))
        return stopped;
    if (const std::optional<int> stopped = checkCredentials(call, params))
        return stopped;
    QJsonObject approved = params;
    if (call.parser.isSet(approveOption()))
        approved.insert(QStringLiteral("approveCredentials"), true);
    if (call.parser.isSet(approveHostGrantsOption()))
        approved.insert(QStringLiteral("approveHostGrants"), true);
    if (createDetached(approved, true) != ExitOk)
        return ExitFailed;
    for (const env::ServiceEntry &service : plan.env.services) {
        if (!callDaemon(QStringLiteral("service.add"), env::serviceParams(plan.env.name, service), 120000))
            return ExitFailed;
    }
    return std::nullopt;
}

int runUp(const Invocation &call)
{
    const std::optional<env::EnvPlan> plan = loadPlan(call, call.positional);
    if (!plan)
        return ExitFailed;
    const QString kitDir = kitDirectoryOf(*plan);
    const env::HostCommandApprovals approvals;
    out() << env::planText(*plan, kitDir, [&](const env::HostCommand &c) { return approvals.isApproved(c); });
    out().flush();
    if (!plan->ok() || kitDir.isEmpty())
        return ExitFailed;
    const std::optional<QJsonObject> existing = existingSandbox(plan->env.name);
    if (!existing)
        return ExitFailed;
    if (!existing->isEmpty()) {
        out() << "Sandbox " << plan->env.name << " exists already; 'paddock env exec' runs a command in it.\n";
        return ExitOk;
    }
    const QList<env::HostCommand> hostCommands =
        plan->env.commandsOf(QStringLiteral("initialize")) + plan->env.commandsOf(QStringLiteral("postCreate"));
    if (!approveHostCommands(hostCommands, QStringLiteral("up")))
        return ExitFailed;
    if (!call.parser.isSet(QStringLiteral("yes")) && !terminalAnswersYes(QStringLiteral("Bring it up as planned?")))
        return failure(QStringLiteral("not brought up: answer y on a terminal, or give --yes"));
    if (const std::optional<int> stopped = approveBindings(call, *plan))
        return *stopped;
    if (!runHostCommands(plan->env.commandsOf(QStringLiteral("initialize")), plan->env.name))
        return ExitFailed;
    if (const std::optional<int> stopped = createSandbox(call, env::creationParams(*plan, kitDir), *plan))
        return *stopped;
    if (!runHostCommands(plan->env.commandsOf(QStringLiteral("postCreate")), plan->env.name))
        return ExitFailed;
    out() << "Environment " << plan->env.name << " is up.\n";
    return ExitOk;
}

int runExecIn(const Invocation &call)
{
    const QStringList command = argumentsAfterDoubleDash();
    const QStringList files = call.positional.mid(0, call.positional.size() - command.size());
    if (command.isEmpty())
        return usageError(call.commandPath, QStringLiteral("no command to run after --"));
    const std::optional<env::EnvPlan> plan = loadPlan(call, files);
    if (!plan)
        return ExitFailed;
    return dispatch(rootCommand(),
                    QStringList{QStringLiteral("exec"), plan->env.name, QStringLiteral("--")} << command);
}

int runRemove(const Invocation &call)
{
    const std::optional<env::EnvPlan> plan = loadPlan(call, call.positional);
    if (!plan)
        return ExitFailed;
    const std::optional<QJsonObject> existing = existingSandbox(plan->env.name);
    if (!existing)
        return ExitFailed;
    if (existing->isEmpty())
        return failure(QStringLiteral("there is no sandbox %1").arg(plan->env.name));
    const QList<env::HostCommand> preRemove = plan->env.commandsOf(QStringLiteral("preRemove"));
    if (!approveHostCommands(preRemove, QStringLiteral("rm")) || !runHostCommands(preRemove, plan->env.name))
        return ExitFailed;
    const std::optional<QJsonObject> removed = callDaemon(
        QStringLiteral("sandbox.remove"), {{QStringLiteral("name"), plan->env.name}, {QStringLiteral("force"), true}});
    if (!removed)
        return ExitFailed;
    printNotes(*removed);
    out() << "removed " << plan->env.name << '\n';
    return ExitOk;
}

} // namespace

Command envCommand()
{
    const QString fileHelp = QStringLiteral(
        "FILE is an environment file, sbxenv.yaml as Docker Sandboxes' 'sbx env' reads it (default:\n"
        "./sbxenv.yaml), with ~/.sbxenv.yaml merged beneath it. Unknown fields are errors. Paddock's own\n"
        "parts (kit, backend, mounts, services) are under x-paddock:.");
    Command plan = leaf(QStringLiteral("plan"), QStringLiteral("Print what 'env up' would do"),
                        QStringLiteral("Prints the sandbox (name, backend, kit and its args), workspace, mounts, "
                                       "variables,\nports, bindings to approve, companion services and every command "
                                       "run on this computer,\nverbatim. Changes nothing. Exit 1 when a part is "
                                       "refused.\n\n") +
                            fileHelp,
                        runPlan);
    Command up = leaf(
        QStringLiteral("up"), QStringLiteral("Create and start the environment's sandbox"),
        QStringLiteral("Prints the plan, then creates and starts the sandbox through paddockd as 'paddock create'\n"
                       "does, adds its companion services, and runs the file's initialize and postCreate commands\n"
                       "on this computer. Each host command runs only once its exact text was approved on a\n"
                       "terminal; an approval is kept for that text in that file, and a changed command asks\n"
                       "again. --yes approves the plan, never a host command. The file is read-only inside.\n\n") +
            fileHelp,
        runUp);
    up.options = {QCommandLineOption(QStringLiteral("yes"), QStringLiteral("Approve the plan without asking.")),
                  approveOption(), approveHostGrantsOption(), noUserFileOption()};
    Command exec =
        leaf(QStringLiteral("exec"), QStringLiteral("Run a command in the environment's sandbox"),
             QStringLiteral("Runs CMD in the sandbox as 'paddock exec NAME -- CMD' does.\n\n") + fileHelp, runExecIn);
    exec.positionalSyntax = QStringLiteral("[FILE] -- CMD [ARG...]");
    exec.minPositional = 1;
    exec.optionsAfterPositionalsArePositional = true;
    Command rm = leaf(QStringLiteral("rm"), QStringLiteral("Remove the environment's sandbox and its services"),
                      QStringLiteral("Runs the file's preRemove commands on this computer (each approved, as for "
                                     "up), then\nremoves the sandbox and its companion services.\n\n") +
                          fileHelp,
                      runRemove);
    for (Command *command : {&plan, &rm}) {
        command->options << noUserFileOption();
        command->positionalSyntax = QStringLiteral("[FILE]");
        command->maxPositional = 1;
    }
    exec.options << noUserFileOption();
    up.positionalSyntax = QStringLiteral("[FILE]");
    up.maxPositional = 1;
    Command group;
    group.name = QStringLiteral("env");
    group.summary = QStringLiteral("A sandbox described by an environment file (sbxenv.yaml)");
    group.description = fileHelp;
    group.subcommands = {plan, up, exec, rm};
    return group;
}

} // namespace paddock::cli
