// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit validate|show|allow|deny
#include "Cli.h"

namespace paddock::cli {

Command kitCommand()
{
    Command kit;
    kit.name = QStringLiteral("kit");
    kit.summary = QStringLiteral("Validate, show and edit kits (spec.yaml directories).");
    kit.subcommands << kitEditCommands();
    return kit;
}

} // namespace paddock::cli
