// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Command.h"

namespace paddock::cli {

/**
 * `paddock proxy serve`, the whole of `paddock-proxy`: the egress proxy on its own, deciding
 * with the rules of its command line and the watched policy.yaml, until SIGINT or SIGTERM.
 */
Command serveCommand();

} // namespace paddock::cli
