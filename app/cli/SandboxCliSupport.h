// SPDX-License-Identifier: GPL-3.0-or-later
// What the sandbox commands share: the daemon calls, the creation parameters, the kit's
// credentials checked before a start, and the runtime this process uses for sessions.
#pragma once

#include "CliSupport.h"
#include "Command.h"
#include "KitArgument.h"

#include "kit/Kit.h"
#include "runtime/Runtime.h"

#include <QCommandLineOption>
#include <QJsonObject>

#include <memory>
#include <optional>

namespace paddock::api {
class DaemonConnection;
}

namespace paddock::cli {

inline constexpr int kCallTimeoutMs = 60000;
/** Creating a sandbox runs its kit's setup.install, which may download and build things. */
inline constexpr int kCreateTimeoutMs = 60 * 60 * 1000;

QCommandLineOption backendOption();
QCommandLineOption engineOption();
QCommandLineOption isolationOption();
QCommandLineOption nameOption();
QCommandLineOption argOption();
QCommandLineOption approveOption();
QCommandLineOption cloneOption();
QCommandLineOption secretGuardOption();
QCommandLineOption sshAgentOption();
QCommandLineOption sshKnownHostsOption();
QCommandLineOption mountOption();
QCommandLineOption envOption();
QCommandLineOption ttyOption();
QCommandLineOption unprotectedOption();

/** The paragraphs run and create share in their --help. */
QString creationHelp();

/** Calls @p method on a fresh connection; on failure prints the daemon's sentence. */
std::optional<QJsonObject> callDaemon(const QString &method, const QJsonObject &params, int timeoutMs = kCallTimeoutMs);
/** The runtime this process uses to reach the sessions of @p sandbox (as sandbox.inspect gives it): its engine's. */
std::unique_ptr<runtime::Runtime> localRuntime(const QJsonObject &sandbox);
void printNotes(const QJsonObject &result);

/**
 * The arguments after `--` on the command line: the program to run instead of the kit's
 * command. The parser mixes them into the positional arguments, so they are counted here.
 */
QStringList argumentsAfterDoubleDash();
/** The params of sandbox.create from a run or create command line. */
std::optional<QJsonObject> creationParams(const Invocation &call, int *code);
/**
 * creationParams(), once the kit's host grants and credentials are approved or may be (see
 * checkHostGrants() and checkCredentials()), with the approvals given on the command line.
 */
std::optional<QJsonObject> approvedCreationParams(const Invocation &call, int *code);
/** The kit @p params name, loaded with its arguments; nullopt when it does not load. */
std::optional<kit::Kit> loadKitOf(const QJsonObject &params);
/** The sandbox name @p params give, or the one the daemon would choose (KIT-FOLDER). */
QString sandboxNameOf(const QJsonObject &params, const kit::Kit &kit);
/**
 * Before a sandbox is made: a required key that is not stored stops here with the command that
 * stores it, and keys the kit would send to domains not yet approved are approved (with
 * --approve-credentials, or by the person at the terminal) or stop the start, so no sandbox
 * starts only to fail with 401 later. Optional credentials only warn. The daemon checks again.
 * Returns the exit code when the start must stop.
 */
std::optional<int> checkCredentials(const Invocation &call, const QJsonObject &params);
/** sandbox.create, then sandbox.start when @p start; prints the name. */
int createDetached(const QJsonObject &params, bool start);

} // namespace paddock::cli
