// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHostAddress>

#include <sys/socket.h>

namespace paddock::proxy {

/**
 * @p address and @p port as the socket calls take them, in @p storage (@p length filled in);
 * false when @p address is not an IPv4 or IPv6 address.
 */
bool toSockaddr(const QHostAddress &address, quint16 port, sockaddr_storage &storage, socklen_t &length);

/** The port of an IPv4 or IPv6 @p address, in host order; 0 for any other family. */
quint16 portOf(const sockaddr_storage &address);

/** Makes closing @p fd reset the connection (SO_LINGER 0) instead of ending it cleanly; false if not. */
bool resetOnClose(int fd);

} // namespace paddock::proxy
