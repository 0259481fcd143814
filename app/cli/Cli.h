// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Command.h"

#include <optional>

namespace paddock::cli {

// Each command group lives in its own file and contributes one subtree.
Command kitCommand();               // KitCommands.cpp: validate, show, ls, add, forget, new
QList<Command> kitEditCommands();   // KitEditCommands.cpp: allow, deny
Command kitShareCommand();          // KitShareCommands.cpp: share
Command kitResolveCommand();        // KitResolveCommands.cpp: resolve
Command daemonCommand();            // DaemonCommands.cpp
Command policyCommand();            // PolicyCommands.cpp
Command proxyCommand();             // ProxyCommands.cpp: serve, which is paddock-proxy
Command secretCommand();            // SecretCommands.cpp: set, ls, rm
Command bindingCommand();           // BindingCommands.cpp: approve, revoke, ls, check
Command grantCommand();             // GrantCommands.cpp: check, approve, ls, revoke
Command caCommand();                // CaCommands.cpp: show, rotate, trust, trusted, untrust
Command settingsCommand();          // SettingsCommands.cpp: ls, set, unset
Command engineCommand();            // EngineCommands.cpp: ls, add, rm, use
Command serviceCommand();           // ServiceCommands.cpp: add, ls, rm
Command guardCommand();             // GuardCommands.cpp: show, set, allow, disallow
Command envCommand();               // EnvCommands.cpp: plan, up, exec, rm
QList<Command> sessionCommands();   // SessionCommands.cpp: run, attach, exec
Command agentCommand();             // AgentCommands.cpp: agent NAME (the kit's agent verbs)
QList<Command> sandboxCommands();   // SandboxCommands.cpp: create, start, ls, stop, rm, logs
Command reviewCommand();            // ReviewCommands.cpp: review NAME
Command templateCommand();          // TemplateCommands.cpp: build, load, ls
Command imageCommand();             // TemplateCommands.cpp: pull
Command learnCommand();             // LearnCommands.cpp: learn NAME on|off
Command policyProposeCommand();     // LearnCommands.cpp: policy propose
Command askModeCommand();           // AskCommands.cpp: ask NAME on|off
QList<Command> policyAskCommands(); // AskCommands.cpp: policy ask, policy answer
Command bundleCommand();            // BundleCommands.cpp: export, import
Command verifyCommand();            // VerifyCommands.cpp: verify NAME
Command shimCommand();              // ShimCommands.cpp: install, ls, rm
Command agentPermsCommand();        // AgentPermsCommands.cpp: show, check, set, rm, move, test, refusals, allow
Command openCommand();              // OpenCommands.cpp: open FILE (the window)

/**
 * OpenCommands.cpp: the bundle @p arguments (without the program name) ask the window to open,
 * as an absolute path: `open FILE`, or a lone path to an existing `*.paddock` file; an empty
 * path for `open` alone (the window as it is). Nothing else is a request for the window, so
 * every other command line stays the command line's.
 */
std::optional<QString> bundleToOpen(const QStringList &arguments);

/** CaCommands.cpp: trusts the CA in @p file upstream and in sandboxes (`ca trust`, `settings set upstream-ca`). */
int trustAuthority(const QString &file);

/**
 * ProxyCommands.cpp: for `proxy serve ARGS`, replaces this process with paddock-proxy ARGS and
 * returns only the exit code of a failure to; nullopt for every other command line.
 */
std::optional<int> runProxyProgram(const QStringList &arguments);

/** The whole command tree, rooted at "paddock". */
Command rootCommand();

/**
 * Runs the command line @p arguments (without the program name). Needs a
 * QCoreApplication. Returns the process exit code.
 */
int run(const QStringList &arguments);

} // namespace paddock::cli
