// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "env/EnvFile.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <QMap>

#include <functional>
#include <optional>
#include <utility>

namespace paddock::env {

/**
 * @brief What the daemon's checks of a `paddock create` say of an environment's workspace,
 * shared folders and variables (sandbox/SharedFolders.h; `sandbox.checkShares` for a client).
 */
struct ShareFindings
{
    std::optional<QString> workspace; ///< why the workspace is refused; nullopt: it is not
    /// For each of the environment's mounts, in order: why it is refused (empty: it is not),
    /// and a warning (empty: none).
    QList<std::pair<QString, QString>> mounts;
    QMap<QString, QString> variables; ///< a variable's problem, by name; absent: none
};

/** Checks an environment's places as a creation would; planEnvironment() reads what it finds. */
using ShareChecker = std::function<ShareFindings(const Environment &env)>;

/**
 * @brief What bringing an environment up would do, checked as the daemon checks a `paddock
 * create` (its shared folders and variables, through a ShareChecker), before anything is done:
 * the plan `paddock env plan` prints and `paddock env up` and the window follow.
 */
struct EnvPlan
{
    Environment env;
    KitEntry kit;         ///< the one kit Paddock runs, as the file names it, with its args
    QStringList problems; ///< refusals: nothing is brought up while there is one
    QStringList notes;    ///< what the file says that Paddock does not apply, and why
    QStringList warnings; ///< allowed, but worth reading (a program folder shared read-write)
    /** Whether the environment file is in the workspace (and so mounted read-only over itself). */
    bool fileInWorkspace = false;

    bool ok() const { return problems.isEmpty(); }
};

/** The plan of @p env, its workspace, shared folders and variables checked by @p check. */
EnvPlan planEnvironment(const Environment &env, const ShareChecker &check);

/**
 * The plan as text: the sandbox (name, backend, kit and its args), workspace, mounts,
 * variables, ports, bindings to approve, companion services and every host command verbatim,
 * then the notes, warnings and problems. @p kitDirectory is where the kit was found (may be
 * empty); @p approved says which host commands are approved already.
 */
QString planText(const EnvPlan &plan, const QString &kitDirectory,
                 const std::function<bool(const HostCommand &)> &approved);

/** The params of `sandbox.create` that make the environment's sandbox from @p kitDirectory. */
QJsonObject creationParams(const EnvPlan &plan, const QString &kitDirectory);

/** The params of `service.add` for companion @p service of sandbox @p sandbox. */
QJsonObject serviceParams(const QString &sandbox, const ServiceEntry &service);

} // namespace paddock::env
