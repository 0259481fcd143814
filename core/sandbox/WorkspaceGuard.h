// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::sandbox {

/**
 * Why @p folder cannot be a sandbox's workspace, or nullopt when it can.
 *
 * A workspace is mounted read-write, so it must hold nothing the boundary depends on: not `/`,
 * not the home folder (its `.ssh`, its other projects), not a folder that holds Paddock's
 * configuration, data, state or sockets, or a keyring (the sandbox could rewrite its own policy,
 * credentials.yaml or sandbox state), and no folder inside those. Paths are compared after
 * every link is resolved. @p protectedFolders, when given, replaces Paddock's own list (tests).
 */
std::optional<QString> workspaceProblem(const QString &folder, const QStringList &protectedFolders = {});

/** @p path with every link resolved, for the part that exists; the rest appended as written. */
QString resolvedPath(const QString &path);
/** Whether @p path is @p folder or inside it (both clean and absolute). */
bool isPathInside(const QString &path, const QString &folder);
/** @p path for a message: under the home folder as `~/...`. */
QString shownPath(const QString &path);

/** Paddock's folders and the keyrings' that no workspace may contain or be inside of. */
QStringList protectedFolders();

} // namespace paddock::sandbox
