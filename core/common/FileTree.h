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

} // namespace paddock::filetree
