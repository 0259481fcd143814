// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace paddock::init::netlink {

/**
 * @brief One netlink message being built: its header, the fixed header of its family, then
 * attributes, nested ones included. Values go in as given; byte order is the caller's (routes
 * take host order, nftables big-endian).
 */
class Message
{
public:
    Message(std::uint16_t type, std::uint16_t flags, const void *familyHeader, std::size_t familySize);

    void put(std::uint16_t type, const void *data, std::size_t size);
    void putString(std::uint16_t type, std::string_view text); ///< with its terminating NUL
    void putBe32(std::uint16_t type, std::uint32_t value);
    void putBe16(std::uint16_t type, std::uint16_t value);
    void putU32(std::uint16_t type, std::uint32_t value); ///< host order
    /** Opens a nested attribute; close it with end(), innermost first. */
    std::size_t begin(std::uint16_t type);
    void end(std::size_t nest);

    /** The finished message, its length and @p sequence set. */
    std::string finish(std::uint32_t sequence);

private:
    std::vector<char> m_bytes;
};

/** @brief A netlink socket of one protocol (NETLINK_ROUTE, NETLINK_NETFILTER, NETLINK_SOCK_DIAG). */
class Socket
{
public:
    explicit Socket(int protocol);
    ~Socket();
    Socket(const Socket &) = delete;
    Socket &operator=(const Socket &) = delete;

    bool valid() const { return m_fd >= 0; }
    int fd() const { return m_fd; }
    /** Gives the descriptor to the caller, who closes it. */
    int release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }
    /**
     * Sends @p messages in one datagram (an nftables batch is one) and reads the kernel's
     * answers until each message asking for an ack (@p acks of them) was acknowledged; false
     * with @p error naming the first refusal.
     */
    bool transact(const std::string &messages, int acks, std::string *error);
    /** Sends @p request and reads one answer into @p answer; false when nothing came. */
    bool query(const std::string &request, std::string *answer);

private:
    int m_fd = -1;
};

/** The attributes of a message or of a nested attribute, as (type, payload) pairs. */
std::vector<std::pair<std::uint16_t, std::string_view>> attributes(std::string_view bytes);

} // namespace paddock::init::netlink
