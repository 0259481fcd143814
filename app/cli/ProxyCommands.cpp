// SPDX-License-Identifier: GPL-3.0-or-later
// paddock proxy serve: the proxy on its own is the program paddock-proxy (app/proxy), which
// this command execs, so the command line links no proxy, event log or keychain of its own.
#include "Cli.h"
#include "SiblingProgram.h"

namespace paddock::cli {

namespace {

const QString kProxyProgram = QStringLiteral("paddock-proxy");

int runServe(const QStringList &arguments)
{
    QString error;
    execSibling(kProxyProgram, arguments, &error);
    err() << error << '\n';
    return ExitFailed;
}

} // namespace

std::optional<int> runProxyProgram(const QStringList &arguments)
{
    if (arguments.size() < 2 || arguments.at(0) != QLatin1String("proxy") || arguments.at(1) != QLatin1String("serve"))
        return std::nullopt;
    return runServe(arguments.mid(2));
}

Command proxyCommand()
{
    Command command;
    command.name = QStringLiteral("proxy");
    command.summary = QStringLiteral("Run Paddock's filtering proxy on its own.");
    command.description =
        QStringLiteral("The same egress proxy the sandboxes use, for use in front of any container or program.");

    Command serve;
    serve.name = QStringLiteral("serve");
    serve.summary = QStringLiteral("Run the proxy in the foreground until interrupted.");
    // Reached only through runProxyProgram(), which hands the whole line to paddock-proxy.
    serve.run = [](const Invocation &call) { return runServe(call.positional); };
    command.subcommands << serve;
    return command;
}

} // namespace paddock::cli
