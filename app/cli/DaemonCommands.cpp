// SPDX-License-Identifier: GPL-3.0-or-later
// paddock daemon status|stop
#include "Cli.h"

namespace paddock::cli {

Command daemonCommand()
{
    Command daemon;
    daemon.name = QStringLiteral("daemon");
    daemon.summary = QStringLiteral("Manage paddockd, the per-user daemon.");
    return daemon;
}

} // namespace paddock::cli
