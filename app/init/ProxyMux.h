// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace paddock::init {

/**
 * `paddock-init --proxy-mux PATH`: the way out of a sandbox on a container engine of another
 * computer, where the desktop's proxy socket cannot be bound in.
 *
 * Listens on the unix socket PATH (where the relay's proxy socket is, `--relay`'s target) and
 * carries every connection accepted there over standard input and output, framed as
 * proxy/MuxFrame.h says. The daemon on the desktop runs it as an Engine exec and joins each
 * stream to the sandbox's proxy socket: policy, injection and the event log stay there.
 *
 * Ends when standard input ends (the daemon's exec stream dropped), closing every connection
 * and the listening socket: the sandbox then has no way out until the daemon runs it again.
 */
int runProxyMux(const std::string &socketPath);

} // namespace paddock::init
