// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace paddock::runtime {

/**
 * @brief The files of a workspace that the host runs or trusts later, when the person works in
 * the folder again: what an agent working in place could plant there.
 *
 * Protected ones are mounted read-only inside a sandbox working in place (unless the person
 * opted out); reviewed ones are listed by `paddock review` when they changed during a session.
 */
namespace trusted {

/** Relative paths mounted read-only in place: git hooks and config, direnv, the editor's tasks, an environment file (sbxenv.yaml: it decides what runs on the host). */
QStringList protectedPaths();
/** Relative paths or folders reviewed after a session: the protected ones and build and CI files. */
QStringList reviewedPaths();
/**
 * The protected paths that exist in @p workspace as real files or folders, each reached
 * without a link on the way (a link could point the read-only mount at anything on the host).
 */
QStringList existingProtected(const QString &workspace);

} // namespace trusted
} // namespace paddock::runtime
