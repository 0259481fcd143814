// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NameServer.h"
#include "NameTable.h"
#include "Publish.h"
#include "Relay.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace paddock::init {

/** @brief The sandbox's ways out and in: relays to the proxy, capture, the resolver, published ports. */
struct NetworkOptions
{
    std::vector<RelaySpec> relays;
    bool handOver = false; ///< relays pass each client's socket to the proxy instead of splicing
    bool capture = false;  ///< capture every connection (Capture.h) and answer names (NameServer.h)
    std::vector<PublishSpec> publishes;
};

/**
 * @brief What capture set up while paddock-init could: null names when it is off or failed (the
 * name server, when it could bind, then refuses and reports every name).
 */
struct CapturedNetwork
{
    std::shared_ptr<NameTable> names;
    NameServer nameServer;
    int refusedDatagrams = -1;
    bool ipv6 = false;
};

/**
 * The part that needs CAP_NET_ADMIN and CAP_NET_BIND_SERVICE over the sandbox's network
 * namespace, run before paddock-init gives them up: the routes and nftables table of capture,
 * the resolver's port 53, the log of refused datagrams. When the kernel refuses it (gVisor has
 * no nftables), a line on stderr says so and the sandbox runs as without capture: nothing
 * leaves it but through the proxy, and the proxy's clients still work.
 */
CapturedNetwork prepareCapture(const NetworkOptions &options);

/** Opens the relays' listening sockets and starts every thread of the network; an exit status on failure. */
std::optional<int> startNetwork(const NetworkOptions &options, const CapturedNetwork &captured,
                                std::vector<int> *listeners);

} // namespace paddock::init
