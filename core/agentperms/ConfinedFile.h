// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/UniqueFd.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace paddock::agentperms {

/**
 * Files under a folder a sandbox can write (its home, a direct workspace), reached without
 * ever following a link: the folder is opened once, then each component of @p relative with
 * `openat(…, O_NOFOLLOW)`, so a link planted anywhere on the way (or as the file itself)
 * makes the call fail instead of leading outside. Only regular files are read.
 */

/** Opens the directory holding @p relative, component by component; @p create makes missing ones (0755). */
UniqueFd openConfinedParent(const QString &root, const QString &relative, bool create, QString *error);

/**
 * Reads @p root/@p relative, at most @p maxBytes (more is an error). @p missing is set when
 * the file (or a folder on the way) does not exist, which is not an error for a config.
 */
std::optional<QByteArray> readConfined(const QString &root, const QString &relative, qint64 maxBytes, bool *missing,
                                       QString *error);

/**
 * Replaces @p root/@p relative atomically (a temporary file beside it, fsync, rename, fsync
 * of the folder), creating the missing folders; an existing file keeps its mode.
 */
bool writeConfined(const QString &root, const QString &relative, const QByteArray &contents, QString *error);

} // namespace paddock::agentperms
