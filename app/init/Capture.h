// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

#include <sys/socket.h>

namespace paddock::init {

/**
 * @brief How every connection in the sandbox's network namespace is brought to paddock-init.
 *
 * The namespace has loopback only. Capture gives it a default route through loopback (IPv4
 * and IPv6, source 127.0.0.1 and ::1) and an nftables table of its own, `inet paddock`:
 *
 * - nat/output: TCP to any address outside loopback is redirected to @ref capturePort on
 *   loopback, where the relay reads where it was going (SO_ORIGINAL_DST); UDP to port 53 of
 *   any address goes to the sandbox's resolver on @ref dnsPort.
 * - raw/output: TCP within loopback, but to or from @ref capturePort, is not tracked (the
 *   proxy's own clients on 3128 and the sandbox's own services), so NAT never changes its
 *   source port and the relay finds each client's socket by its address.
 * - filter/output: every other packet to an address outside loopback (UDP, ICMP, anything
 *   else) is refused at once (the sender gets EPERM or port unreachable); UDP is first copied
 *   to the NFLOG group @ref logGroup so the refusal can be reported.
 *
 * Set up by paddock-init while it still holds CAP_NET_ADMIN over the namespace (root of the
 * sandbox's user namespace under bubblewrap, the container's root under Docker), before it
 * gives every capability up; nothing inside can change the table afterwards. Capture only
 * adds a way in to the proxy: without it, nothing leaves the namespace at all.
 */
struct CaptureSettings
{
    std::uint16_t capturePort = 3129;
    std::uint16_t dnsPort = 53;
    std::uint16_t logGroup = 7;
};

/** Routes and the nftables table; false with @p error when the kernel refused either. */
bool captureConnections(const CaptureSettings &settings, std::string *error);

/** Whether the namespace has IPv6 on loopback (::1); Docker may switch it off. */
bool hasIpv6Loopback();

/** A socket that receives the UDP datagrams capture refused (NFLOG); -1 with @p error. */
int openRefusedDatagrams(std::uint16_t group, std::string *error);

/** @brief One refused datagram: who sent it, where to. */
struct RefusedDatagram
{
    sockaddr_storage source{};
    sockaddr_storage destination{};
};

/** Waits for the next refused datagram on @p fd; false when the socket failed. */
bool readRefusedDatagram(int fd, RefusedDatagram *datagram);

/** Where a captured TCP connection was going (SO_ORIGINAL_DST); false when it was not redirected. */
bool originalDestination(int client, sockaddr_storage *destination);

} // namespace paddock::init
