// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/SocketAddress.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>

namespace paddock::proxy {

bool toSockaddr(const QHostAddress &address, quint16 port, sockaddr_storage &storage, socklen_t &length)
{
    std::memset(&storage, 0, sizeof storage);
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    if (isV4) {
        auto *in = reinterpret_cast<sockaddr_in *>(&storage);
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        in->sin_addr.s_addr = htonl(v4);
        length = sizeof(sockaddr_in);
        return true;
    }
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return false;
    auto *in6 = reinterpret_cast<sockaddr_in6 *>(&storage);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    const Q_IPV6ADDR bytes = address.toIPv6Address();
    std::memcpy(&in6->sin6_addr, bytes.c, 16);
    length = sizeof(sockaddr_in6);
    return true;
}

quint16 portOf(const sockaddr_storage &address)
{
    if (address.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in *>(&address)->sin_port);
    if (address.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6 *>(&address)->sin6_port);
    return 0;
}

bool resetOnClose(int fd)
{
    const linger reset{1, 0};
    return ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset) == 0;
}

} // namespace paddock::proxy
