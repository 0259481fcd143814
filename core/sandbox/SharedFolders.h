// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Kit.h"
#include "kit/KitShares.h"
#include "runtime/SandboxSpec.h"
#include "sandbox/WorkspaceReview.h"

#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

/**
 * Shared folders and variables a person gives a sandbox beyond its kit (`--mount`, `--env`, the
 * kit's settings, the wizard): how they are written, and which ones are refused. One place
 * decides, the daemon, for every caller.
 */
namespace paddock::env {
struct Environment;
struct ShareFindings;
} // namespace paddock::env

namespace paddock::sandbox {

using kit::parseVariable;
using kit::SharedFolder;
using kit::sharedFoldersFromJson;
using kit::toJson;
using kit::VariableArgument;

/**
 * Why @p folder cannot be shared with a sandbox, or nullopt; its host path is made canonical
 * (every link resolved) first, so what was checked is what gets mounted. Refused: `/`, the home
 * folder or a folder holding it, `~/.ssh`, `~/.gnupg`, the keyrings, other credential stores
 * (`~/.docker`, `~/.aws`, `~/.kube`, `~/.netrc`, ...), Paddock's configuration, data, state and
 * sockets, the session's runtime folder, the Docker socket, and `/proc`, `/sys`, `/dev`; each also
 * inside or around those. An inside path over what the sandbox itself needs (`/`, `/proc`,
 * `/run/paddock`, the home, the workspace) is refused too. A read-write folder the host runs
 * programs or starts services from (`~/.local/bin`, `~/.dotnet/tools`, a folder on PATH, ...) is
 * allowed with @p warning. @p workspace and @p sandboxHome are the sandbox's own places.
 */
std::optional<QString> sharedFolderProblem(SharedFolder *folder, const QString &workspace, const QString &sandboxHome,
                                           QString *warning);

/**
 * Why a kit's volume cannot be mounted at @p path in a sandbox with @p workspace and
 * @p sandboxHome, or nullopt: kit::volumePathProblem(), then, as for a share's inside path, not
 * the home itself and not in the workspace.
 */
std::optional<QString> volumeInsideProblem(const QString &path, const QString &workspace, const QString &sandboxHome);

/**
 * Why a sandbox made with @p spec may not start with its shared folders as they are now, or
 * nullopt: each is checked again (sharedFolderProblem()), and one whose path now leads elsewhere
 * (a link put in place of a folder, by a sandbox that could write where it lies) is refused
 * rather than followed.
 */
std::optional<QString> sharedMountsProblem(const runtime::SandboxSpec &spec);

/** Whether this computer runs programs or starts services from @p hostPath (or a folder in or around it). */
bool runsPrograms(const QString &hostPath);

/**
 * The files of the read-write folders among @p mounts that this computer runs programs from,
 * whose inode changed since the sandbox started at @p startedAt (their ctime, which no one
 * inside can set back; from a second before it, since the kernel's file clock lags a tick), as
 * review entries (see WorkspaceReview): for `paddock review`. Links are listed, not followed; at
 * most 200 files per folder are looked at past the first 5000 entries.
 */
QList<ReviewedChange> programFolderChanges(const QList<SharedFolder> &mounts, const QDateTime &startedAt);

/** The host folders sharedFolderProblem() refuses beside workspaceProblem()'s (for tests and docs). */
QStringList sensitiveFolders();

/**
 * Why variable @p name with @p value cannot be set in a sandbox, or nullopt. Refused: a name that
 * is not `[A-Za-z_][A-Za-z0-9_]*`; the variables Paddock sets itself (HOME, the proxy and trust
 * variables, PADDOCK_*); one of @p credentialVariables (where a kit's key's placeholder lives);
 * and a value that looks like a provider key (a known key format), each with the command that
 * stores it as a secret instead. Values equal to a stored key are refused by the daemon, which
 * can read the keychain (see CredentialInjection).
 */
std::optional<QString> variableProblem(const QString &name, const QString &value,
                                       const QStringList &credentialVariables);

/** The variables @p kit's credentials keep their placeholders in (variableProblem()'s @p credentialVariables). */
QStringList credentialVariables(const kit::Kit &kit);

/** The refusal of a variable whose value is a key in the keychain (secret @p service). */
QString storedKeyProblem(const QString &name, const QString &service);

/**
 * An environment file's workspace, shared folders and variables checked here, as a creation
 * checks them (env::ShareChecker for env::planEnvironment() where the daemon's areas are
 * linked; the command line asks `sandbox.checkShares` instead).
 */
env::ShareFindings checkEnvironmentShares(const env::Environment &environment);

} // namespace paddock::sandbox
