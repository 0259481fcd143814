// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ProgramFiles.h"
#include "common/ClientProgram.h"

#include <netinet/in.h>
#include <sys/socket.h>

namespace paddock::init {

/**
 * @brief Finds which process inside the sandbox opened a connection to a relay, or sent a
 * datagram capture refused.
 *
 * The kernel gives the inode of the client's socket, its end of the connection from @p client
 * to @p server (for a captured connection, the address it was going to, not the relay): asked
 * for that one socket through NETLINK_SOCK_DIAG, or where that is missing (gVisor) found in
 * this network namespace's /proc/net/tcp, tcp6, udp or udp6. The process holding that inode
 * among its descriptors (/proc/PID/fd) is the owner, and /proc/PID/exe and /proc/PID/cmdline
 * say what it runs, and ProgramFiles what those files are. Everything here reads kernel tables: nothing the process wrote about
 * itself, except its command line (which the proxy shows as such). A pid of 0 when the owner
 * has already left or cannot be read.
 */
class ClientOwnerFinder
{
public:
    /**
     * @p protocol is IPPROTO_TCP or IPPROTO_UDP; the addresses are AF_INET or AF_INET6 alike.
     * With @p redirected (a captured connection, @p server being where it was going), a client
     * whose source port NAT changed is found by that destination instead.
     */
    ClientProgram find(const sockaddr_storage &client, const sockaddr_storage &server, int protocol = IPPROTO_TCP,
                       bool redirected = false);

private:
    /** The process that owned the last connection: checked first, since it often opens the next. */
    long m_lastOwner = 0;
    /** What the owner's executable and script are (and their digests, read once each). */
    ProgramFiles m_files;
};

} // namespace paddock::init
