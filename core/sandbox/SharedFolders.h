// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
namespace paddock::sandbox {

/** @brief A host folder (or file) the sandbox sees at a path of its own, read-only or read-write. */
struct SharedFolder
{
    QString hostPath;   ///< absolute; canonical once checked
    QString insidePath; ///< absolute, clean
    bool writable = true;

    /**
     * Reads `HOST[:INSIDE][:ro|rw]` as `docker run -v` does: INSIDE defaults to HOST, the mode to
     * rw. A relative HOST is taken from @p baseDir; `~` at its start is the home folder. Nullopt
     * with @p error naming what is wrong.
     */
    static std::optional<SharedFolder> parse(const QString &text, const QString &baseDir, QString *error);
    /** `HOST:INSIDE:ro|rw`, the form parse() reads. */
    QString toString() const;
    QJsonObject toJson() const;
    static SharedFolder fromJson(const QJsonObject &object);

    bool operator==(const SharedFolder &) const = default;
};

QJsonArray toJson(const QList<SharedFolder> &folders);
QList<SharedFolder> sharedFoldersFromJson(const QJsonArray &array);

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

/** Whether this computer runs programs or starts services from @p hostPath (or a folder in or around it). */
bool runsPrograms(const QString &hostPath);

/**
 * The files of the read-write folders among @p mounts that this computer runs programs from,
 * whose inode changed since @p since (their ctime, which no one inside can set back), as review
 * entries (see WorkspaceReview): for `paddock review`. Links are listed, not followed; at most
 * 200 files per folder are looked at past the first 5000 entries.
 */
QList<ReviewedChange> programFolderChanges(const QList<SharedFolder> &mounts, const QDateTime &since);

/** The host folders sharedFolderProblem() refuses beside workspaceProblem()'s (for tests and docs). */
QStringList sensitiveFolders();

/** @brief `NAME=VALUE` or `NAME` read from the command line: the value, if any, as given. */
struct VariableArgument
{
    QString name;
    std::optional<QString> value;
};

/** Reads `NAME=VALUE` or `NAME`; nullopt with @p error when the name is not a variable name. */
std::optional<VariableArgument> parseVariable(const QString &text, QString *error);

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

/** The refusal of a variable whose value is a key in the keychain (secret @p service). */
QString storedKeyProblem(const QString &name, const QString &service);

} // namespace paddock::sandbox
