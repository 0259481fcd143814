// SPDX-License-Identifier: GPL-3.0-or-later
// The name a sandbox of a kit gets when the person gives none: what the daemon names it, and
// what the command line, which does not link the daemon's areas, reaches it by.
#pragma once

#include <QString>

namespace paddock::kit {

/**
 * The name a sandbox gets when the user gives none, as `sbx` names them:
 * `<kit>-<workspace folder name>`, lower-cased, every character outside `[a-z0-9-]` turned
 * into `-`, runs of `-` folded and the ends trimmed, at most 63 characters.
 */
QString defaultSandboxName(const QString &kitName, const QString &workspace);

} // namespace paddock::kit
