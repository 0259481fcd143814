// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace paddock::cli {

/**
 * Replaces this process with @p program from the folder of this program's own file (not
 * argv[0], which a shell may have found on PATH or a caller made up), given @p arguments.
 * Returns only on failure, with what went wrong in @p error.
 */
void execSibling(const QString &program, const QStringList &arguments, QString *error);

} // namespace paddock::cli
