// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/ClientProgram.h"

#include <netinet/in.h>

namespace paddock::init {

/**
 * @brief Finds which process inside the sandbox opened a TCP connection to a relay.
 *
 * The kernel's table of this network namespace (/proc/net/tcp) gives the inode of the
 * client's socket, its end of the connection from @p client to @p server; the process holding
 * that inode among its descriptors (/proc/PID/fd) is the owner, and /proc/PID/exe and
 * /proc/PID/cmdline say what it runs. Everything here reads kernel tables: nothing the
 * process wrote about itself, except its command line (which the proxy shows as such).
 * A pid of 0 when the owner has already left or cannot be read.
 */
class ClientOwnerFinder
{
public:
    ClientProgram find(const sockaddr_in &client, const sockaddr_in &server);

private:
    /** The process that owned the last connection: checked first, since it often opens the next. */
    long m_lastOwner = 0;
};

} // namespace paddock::init
