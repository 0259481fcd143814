// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::sandbox {

/**
 * @brief A sandbox's disposable git clone of the user's repository: the sandbox works on the
 * clone, and its commits come back to the user's repository as branches.
 *
 * The clone is made by the daemon at `paths::dataDir()/sandboxes/NAME/workspace` from the
 * repository holding the user's folder, checked out at that repository's HEAD; only what is
 * committed is in it (no untracked or ignored file such as `.env`). The sandbox sees the
 * clone's top level at the repository's own path, so the folder is where it always was.
 * While the sandbox exists the user's repository has a remote `paddock-NAME` pointing at the
 * clone; fetchBack() brings the clone's branches in as `paddock/NAME/<branch>`.
 *
 * Once the sandbox has run, the clone is the sandbox's writing and is read as hostile: git
 * is never run in it on the host. Fetching starts `git upload-pack` (the one part of a fetch
 * that reads the clone, and honours the clone's own repository layout: a `.git` file leading
 * elsewhere, a symlinked objects directory, `objects/info/alternates`) inside a bubblewrap
 * confinement that sees nothing of the host but its read-only system and the clone, with no
 * system or global git configuration and hooks, fsmonitor and pack-objects hooks switched
 * off on its command line. The remote's `uploadpack` is that same command, so a `git fetch
 * paddock-NAME` the user runs is confined too. The user's side of the fetch runs with the
 * user's own configuration (it is their repository) but only the file protocol, no tags,
 * no submodule recursion and a refspec limited to the `paddock/NAME/` branches.
 */
class CloneWorkspace
{
public:
    /** `paths::dataDir()/sandboxes/NAME/workspace`. */
    static QString pathFor(const QString &name);

    /**
     * Clones the repository holding @p folder for sandbox @p name and adds the remote. Fails
     * with a sentence for the user when @p folder is not in a git work tree, the repository
     * has no commit, or git fails.
     */
    static Result<CloneWorkspace> create(const QString &name, const QString &folder);
    /** The clone recorded for sandbox @p name, if it has one. */
    static std::optional<CloneWorkspace> read(const QString &name);
    /**
     * Fetches the clone of sandbox @p name, if it has one, into the user's repository; notes
     * saying which branches hold its commits, or why they could not be fetched.
     */
    static QStringList fetchBackNotes(const QString &name);

    QString name() const { return m_name; }
    /** The user's folder: the workspace the user named, and where the sandbox sees it. */
    QString folder() const { return m_folder; }
    /** The top level of the user's work tree. */
    QString repository() const { return m_repository; }
    /** The top level of the clone on the host. */
    QString path() const { return m_path; }
    /** The folder's counterpart inside the clone, on the host. */
    QString folderInClone() const;
    /** `paddock/NAME/`. */
    QString branchPrefix() const;
    /** `paddock-NAME`. */
    QString remoteName() const;

    /** {path, branchPrefix}: the `clone` member of a sandbox's INFO. */
    QJsonObject toInfoJson() const;

    /**
     * Fetches every branch of the clone into the user's repository as
     * `paddock/NAME/<branch>` (forced: they are the sandbox's). Returns the branches the
     * repository has under that prefix afterwards.
     */
    Result<QStringList> fetchBack() const;

    /**
     * Removes the remote from the user's repository (the fetched branches stay), the clone
     * and its record.
     */
    void discard() const;

private:
    /** Clones the repository into the workspace's path, standing at @p commit; removes what it made on failure. */
    Result<void> cloneAt(const QString &commit) const;
    /**
     * Adds the clone as a remote of the repository that fetches its branches under branchPrefix()
     * through @p uploadPack (the caller discards the clone on failure).
     */
    Result<void> addRemote(const QString &uploadPack) const;
    Result<void> write() const;
    static QString recordPath(const QString &name);

    QString m_name;
    QString m_folder;
    QString m_repository;
    QString m_path;
};

} // namespace paddock::sandbox
