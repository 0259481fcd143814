// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

/**
 * @brief Whole trees a sandbox or an image wrote: measured and removed without ever following a
 * link out of them, whatever their modes.
 */
namespace paddock::filetree {

/** The disk space the tree at @p path takes (allocated blocks, a file with several links once); 0 when absent. */
qint64 diskUsage(const QString &path);

/**
 * Removes the tree at @p path (a file, a link or a directory). Folders a sandbox made
 * unwritable or unreadable (mode 0555, overlayfs' work folder at 0000) are opened up first;
 * a link is removed, never followed. True when nothing is left; false with @p error otherwise.
 */
bool removeTree(const QString &path, QString *error = nullptr);

/**
 * Takes the tree at @p path out of its place at once and removes it in the background: it is
 * renamed into @p trash (a folder on the same file system, made when missing), and removeTree()
 * runs on the global thread pool, which the application waits for before it exits. Where the
 * rename cannot be made, the tree is removed before this returns. True when @p path is gone.
 */
bool removeTreeLater(const QString &path, const QString &trash, QString *error = nullptr);

/** Removes, in the background, whatever an earlier removeTreeLater() into @p trash left there. */
void emptyTrashLater(const QString &trash);

} // namespace paddock::filetree
