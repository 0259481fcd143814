// SPDX-License-Identifier: GPL-3.0-or-later
// What the policy commands share: the rule, resolve and log commands are in their own files.
#pragma once

#include "Command.h"

#include <QCommandLineOption>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace paddock::cli {

QList<Command> policyRuleCommands(); // PolicyRuleCommands.cpp: init, ls, allow, deny, rm, edit, check
Command policyResolveCommand();      // PolicyResolveCommands.cpp: resolve set, rm, ls
QList<Command> policyLogCommands();  // PolicyLogCommands.cpp: log, denials, dismiss, export

namespace policycli {

inline const QString kJson = QStringLiteral("json");
inline const QString kSandbox = QStringLiteral("sandbox");

/** --sandbox NAME, described as @p meaning. */
QCommandLineOption sandboxOption(const QString &meaning);
/** A time as the tables show it (UTC), or "-". */
QString timeText(const QDateTime &time);
void printJson(const QJsonDocument &document);
/**
 * `policy log --requests [SANDBOX]`: the request records (RequestLogCommands.cpp), newest
 * first, at most @p limit (the default when 0); `--json` and `--follow` as for the log.
 */
int runRequestLog(const Invocation &call, const QString &sandbox, const QDateTime &since, int limit);
/**
 * How long a policy command waits for paddockd, which acts at once where it must (a kit edited
 * under running sandboxes) or holds the state (dismissed refusals).
 */
inline constexpr int kPolicyCallTimeoutMs = 30000;

} // namespace policycli
} // namespace paddock::cli
