// SPDX-License-Identifier: GPL-3.0-or-later
// paddock kit allow|deny: edits through the minimal-diff writer.
#include "Cli.h"

namespace paddock::cli {

QList<Command> kitEditCommands()
{
    return {};
}

} // namespace paddock::cli
