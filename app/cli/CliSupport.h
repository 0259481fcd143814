// SPDX-License-Identifier: GPL-3.0-or-later
// What every command group uses: the --json option, a leaf of the command tree, and quiet
// libraries.
#pragma once

#include "Command.h"

#include <QCommandLineOption>
#include <QString>

#include <functional>

namespace paddock::cli {

/** `--json`, described as "Print WHAT as JSON." */
QCommandLineOption jsonOption(const QString &what = QStringLiteral("the result"));

/** A leaf of the command tree. */
Command leaf(const QString &name, const QString &summary, const QString &description,
             std::function<int(const Invocation &)> run);

/**
 * The libraries log their progress for the daemon's journal; a command reports its own
 * problems, so their debug and info lines stay quiet here, and so do the warnings of
 * @p warningCategories ("paddock.*" for every library). QT_LOGGING_RULES turns them back on.
 */
void quietLibraryLogs(const QString &warningCategories);

} // namespace paddock::cli
