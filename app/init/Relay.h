// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NameTable.h"

#include <memory>
#include <string>
#include <vector>

namespace paddock::init {

/** @brief One relay: a loopback TCP port inside the sandbox leading to a unix socket. */
struct RelaySpec
{
    std::string host; ///< an IP literal, normally 127.0.0.1 (::1 for capture's IPv6 listener)
    int port = 0;
    std::string socketPath;
    /**
     * Pass each accepted client's socket to the proxy with its preamble (SCM_RIGHTS) and leave
     * the path, instead of splicing its bytes: one process and two copies fewer per byte. Not
     * under gVisor, whose sockets are not the host kernel's; a failed pass falls back to splicing.
     */
    bool handOver = false;
    /** Connections here were redirected by capture (Capture.h): each says where it was going. */
    bool captures = false;
};

/** Parses "HOST:PORT=UNIX_SOCKET". */
bool parseRelaySpec(const std::string &text, RelaySpec *spec, std::string *error);

/** Opens a listening, non-blocking TCP socket for @p spec; -1 with @p error on failure. */
int listenOn(const RelaySpec &spec, std::string *error);

/**
 * Accepts on @p listeners (same order as @p specs) and relays forever. With @p names (capture
 * is on, Capture.h), a connection that was going elsewhere and was redirected here tells the
 * proxy where it was going: the name its address stands for, or the address, and the port.
 */
void runRelay(const std::vector<RelaySpec> &specs, const std::vector<int> &listeners,
              std::shared_ptr<NameTable> names = nullptr);

} // namespace paddock::init
