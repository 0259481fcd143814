// SPDX-License-Identifier: GPL-3.0-or-later
// Host grants on the command line: the flag that approves them in scripts, the question asked
// on a terminal, and the check `run` and `create` make before a sandbox is made.
#pragma once

#include "Command.h"

#include <QCommandLineOption>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace paddock::cli {

/** `--approve-host-grants`, for run, create and bundle import. */
QCommandLineOption approveHostGrantsOption();

/**
 * Before `run` or `create` makes a sandbox: asks the daemon which of the kit's host grants are
 * not approved yet; the person at the terminal approves them (through the daemon), or the start
 * stops with each grant and the command that approves it. With --approve-host-grants nothing is
 * asked: sandbox.create approves them. The daemon decides again at create.
 * Returns the exit code when the start must stop.
 */
std::optional<int> checkHostGrants(const Invocation &call, const QJsonObject &params);

} // namespace paddock::cli
