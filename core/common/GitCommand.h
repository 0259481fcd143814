// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"

#include <QString>
#include <QStringList>

namespace paddock::git {

/**
 * Runs the host's git with @p arguments in @p workingDirectory (the daemon's own when empty):
 * without the caller's GIT_* variables (GIT_DIR, GIT_CONFIG_*, ...), never prompting, its
 * standard input empty. Returns its standard output, trimmed; or git's own message when it
 * fails, is missing or runs past @p timeoutMs.
 */
Result<QString> run(const QStringList &arguments, const QString &workingDirectory = {}, int timeoutMs = 10 * 60 * 1000);

} // namespace paddock::git
