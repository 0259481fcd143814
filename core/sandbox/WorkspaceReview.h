// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace paddock::sandbox {

/** @brief One file the host runs or trusts that a session changed. */
struct ReviewedChange
{
    enum class Kind {
        Added,
        Modified,
        Removed
    };
    QString path; ///< relative to the workspace
    Kind kind = Kind::Modified;
    QString what; ///< what the host does with it: "git hook", "build file", ...
    QString diff; ///< a unified diff of the text, or a sentence (a link, a binary or large file)
    bool revertible = false;

    QJsonObject toJson() const;
};

/**
 * @brief What a session changed among the files of a workspace that the host runs or trusts
 * later (runtime/TrustedFiles.h: git hooks and config, .envrc, .vscode/, Makefile,
 * package.json, pyproject.toml, setup.py, CI workflows, pre-commit): the course's "what the
 * sandbox does not protect", made visible.
 *
 * At each start the service records those files as they are (copies under the sandbox's
 * folder, bounded: 1 MiB a file, 256 files, 16 MiB in all); review() compares the workspace
 * with that record. Links are recorded and compared as links, never followed. revert() puts a
 * recorded file back, or removes one the session added.
 */
class WorkspaceReview
{
public:
    /** @p recordDir: where the record of sandbox NAME lives (`dataDir/sandboxes/NAME/review`). */
    WorkspaceReview(QString workspace, QString recordDir);

    /** Records the workspace as it is now, replacing the previous record. */
    Result<void> snapshot();
    /** What changed since the record; an error when there is none. */
    Result<QList<ReviewedChange>> review() const;
    /** Puts @p path back as recorded (one review() lists as revertible). */
    Result<void> revert(const QString &path) const;

private:
    QString m_workspace;
    QString m_recordDir;
};

} // namespace paddock::sandbox
