// SPDX-License-Identifier: GPL-3.0-or-later
// Host grants on the command line: the flag that approves them in scripts, the question asked
// on a terminal, and the check `run` and `create` make before a sandbox is made.
#pragma once

#include "Command.h"

#include "policy/HostGrant.h"

#include <QCommandLineOption>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace paddock::cli {

/** `--approve-host-grants`, for run, create and bundle import. */
QCommandLineOption approveHostGrantsOption();

/** Prints each of @p grants with what it reaches, one per line, indented, to stderr. */
void printHostGrants(const QList<policy::HostGrant> &grants);

/**
 * Asks the person at the terminal whether kit @p kitName may reach what @p pending reaches;
 * nullopt when stdin is not a terminal (nothing was asked), else the answer.
 */
std::optional<bool> askHostGrants(const QString &kitName, const QList<policy::HostGrant> &pending);

/**
 * Before `run` or `create` makes a sandbox: the kit's host grants not approved yet are approved
 * with --approve-host-grants or by the person at the terminal (recorded in host-grants.yaml),
 * or stop the start with each grant and the command that approves it. The daemon checks again.
 * Returns the exit code when the start must stop.
 */
std::optional<int> checkHostGrants(const Invocation &call, const QJsonObject &params);

} // namespace paddock::cli
