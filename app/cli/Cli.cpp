// SPDX-License-Identifier: GPL-3.0-or-later
#include "Cli.h"

#include "paddock/Version.h"

#include <QLoggingCategory>

namespace paddock::cli {

Command rootCommand()
{
    Command root;
    root.name = QStringLiteral("paddock");
    root.description =
        QStringLiteral("Paddock runs coding agents in sandboxes whose only way out is a filtering proxy.\n"
                       "Without a command, paddock opens the desktop application.");
    root.options << QCommandLineOption(QStringLiteral("version"), QStringLiteral("Print the version and exit."));
    root.subcommands << sessionCommands() << agentCommand() << sandboxCommands() << reviewCommand();
    root.subcommands << templateCommand() << imageCommand();
    root.subcommands << learnCommand();
    root.subcommands << askModeCommand();
    root.subcommands << verifyCommand() << bundleCommand() << openCommand() << shimCommand();
    root.subcommands << agentPermsCommand() << guardCommand();
    root.subcommands << kitCommand() << policyCommand() << proxyCommand() << secretCommand() << bindingCommand()
                     << grantCommand() << caCommand() << settingsCommand() << engineCommand() << serviceCommand()
                     << envCommand() << daemonCommand();
    return root;
}

int run(const QStringList &arguments)
{
    // The libraries log their progress for the daemon's log; a command's output is its own.
    if (qEnvironmentVariableIsEmpty("PADDOCK_DEBUG"))
        QLoggingCategory::setFilterRules(QStringLiteral("paddock.*.debug=false\npaddock.*.info=false"));
    if (arguments.size() == 1 &&
        (arguments.first() == QLatin1String("--version") || arguments.first() == QLatin1String("-V"))) {
        out() << "paddock " << kVersion << '\n';
        out().flush();
        return ExitOk;
    }
    if (const std::optional<int> failed = runProxyProgram(arguments))
        return *failed;
    // `paddock FILE.paddock` is `paddock open FILE.paddock` here too, where no window opened it.
    if (const std::optional<QString> bundle = bundleToOpen(arguments);
        bundle && arguments.first() != QLatin1String("open"))
        return dispatch(rootCommand(), {QStringLiteral("open"), *bundle});
    return dispatch(rootCommand(), arguments);
}

} // namespace paddock::cli
