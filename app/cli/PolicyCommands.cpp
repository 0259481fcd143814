// SPDX-License-Identifier: GPL-3.0-or-later
// paddock policy: the group, and what its commands share.
#include "Cli.h"
#include "CliSupport.h"
#include "PolicyCli.h"

namespace paddock::cli {
namespace policycli {

QCommandLineOption sandboxOption(const QString &meaning)
{
    return QCommandLineOption(kSandbox, meaning, QStringLiteral("NAME"));
}

QString timeText(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss'Z'")) : QStringLiteral("-");
}

void printJson(const QJsonDocument &document)
{
    out() << document.toJson(QJsonDocument::Indented);
}

} // namespace policycli

namespace {

/** These commands report every problem themselves, in one sentence: the libraries stay quiet. */
void quietWhileRunning(Command &command)
{
    if (command.run) {
        command.run = [run = std::move(command.run)](const Invocation &call) {
            quietLibraryLogs(QStringLiteral("paddock.*"));
            return run(call);
        };
    }
    for (Command &sub : command.subcommands)
        quietWhileRunning(sub);
}

} // namespace

Command policyCommand()
{
    Command command;
    command.name = QStringLiteral("policy");
    command.summary = QStringLiteral("Manage the network policy and read the log of what it refused.");
    command.description =
        QStringLiteral("Every sandbox reaches the network only through Paddock's proxy, which lets through only\n"
                       "what the policy allows: the preset, global rules, per-sandbox rules and the kit's\n"
                       "permissions.network, together. Deny wins over allow; no match is deny. Rules are kept in\n"
                       "policy.yaml in the configuration directory and apply to the next connection.\n\n"
                       "Patterns: host (port 443), host:port, host:80-443, host:*, *.example.com (one label),\n"
                       "**.example.com (any depth), IP addresses and CIDR ranges.");

    command.subcommands << policyRuleCommands() << policyResolveCommand() << policyLogCommands();
    quietWhileRunning(command);
    command.subcommands << policyProposeCommand(); // LearnCommands.cpp
    command.subcommands << policyAskCommands();    // AskCommands.cpp
    return command;
}

} // namespace paddock::cli
