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
 * With @p portsPath (`--proxy-mux-ports`), it listens there too, where the sandbox's
 * publisher dials the daemon's ports socket (Publish.h), and opens those streams as OpenPort:
 * the daemon joins them to the sandbox's ports socket on the desktop, so a published port is
 * reached on the desktop's 127.0.0.1 and never on the engine's computer.
 *
 * Ends when standard input ends (the daemon's exec stream dropped), closing every connection
 * and the listening socket: the sandbox then has no way out until the daemon runs it again.
 */
int runProxyMux(const std::string &socketPath, const std::string &portsPath = {});

} // namespace paddock::init
