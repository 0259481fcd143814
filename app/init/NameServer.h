// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NameTable.h"
#include "Refusals.h"

#include <memory>
#include <string>

namespace paddock::init {

/**
 * @brief The sandbox's resolver: UDP on 127.0.0.1:53 (and [::1]:53), the only name server its
 * /etc/resolv.conf names. Every query is answered here from the NameTable (DnsAnswer.h); no
 * query ever leaves the sandbox, and capture sends a query for any other server here too.
 */
struct NameServer
{
    int ipv4 = -1;
    int ipv6 = -1;
};

/**
 * Binds the resolver's sockets on @p port; port 53 needs CAP_NET_BIND_SERVICE over the
 * sandbox's network namespace, so this runs before paddock-init gives its capabilities up.
 * False with @p error when IPv4's cannot be bound (IPv6's is optional).
 */
bool openNameServer(unsigned short port, NameServer *server, std::string *error);

/**
 * Answers queries forever (a thread of its own); a query it cannot answer is reported. Without
 * @p names (capture failed) every host name is refused and reported: the log still shows what
 * the sandbox tried to reach.
 */
void runNameServer(NameServer server, std::shared_ptr<NameTable> names, std::shared_ptr<RefusalReporter> reporter);

} // namespace paddock::init
