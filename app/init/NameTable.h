// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

#include <netinet/in.h>
#include <sys/socket.h>

namespace paddock::init {

/**
 * @brief The names a sandbox looked up, each standing for an address of a reserved range.
 *
 * The sandbox's resolver answers every name with an address of its own from the benchmarking
 * ranges, 198.18.0.0/15 and 2001:2::/48 (RFC 2544, RFC 5180): no real host there is ever
 * reached from a sandbox, and a connection to one comes back to paddock-init as the name it
 * stands for. The proxy then decides on the name and resolves it on the host; no DNS query
 * leaves the sandbox.
 *
 * Bounded: at most @ref kCapacity names at once. A name unused for twice the answers' TTL may
 * give its place to a new one; its address is handed out again only after every other address
 * of the range was, so an answer a client still holds keeps meaning its name. Thread-safe.
 */
class NameTable
{
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::uint32_t kCapacity = 16384;
    /** Indexes 1 .. kAddresses, the host part of 198.18.0.0/15 without its first and last address. */
    static constexpr std::uint32_t kAddresses = (1u << 17) - 2;
    static constexpr std::chrono::seconds kTtl{60};

    /** The index standing for @p name (lower case, no trailing dot); a new one if it has none; 0 when full. */
    std::uint32_t indexFor(const std::string &name, Clock::time_point now = Clock::now());
    /** The name behind @p address when it stands for one; empty otherwise (marks it as used). */
    std::string nameOf(const sockaddr_storage &address, Clock::time_point now = Clock::now());
    std::size_t size() const;

    static in_addr ipv4Of(std::uint32_t index);
    static in6_addr ipv6Of(std::uint32_t index);
    /** The index an address of the reserved ranges has; 0 for any other address. */
    static std::uint32_t indexOf(const sockaddr_storage &address);

private:
    struct Entry
    {
        std::string name;
        Clock::time_point used;
        std::list<std::uint32_t>::iterator recent;
    };

    /** Frees the least recently used entry when it is old enough; false when none is. */
    bool evictOne(Clock::time_point now);
    std::uint32_t freshIndex();

    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::uint32_t> m_byName;
    std::unordered_map<std::uint32_t, Entry> m_byIndex;
    std::list<std::uint32_t> m_recent; ///< most recently used first
    std::deque<std::uint32_t> m_freed; ///< handed out again oldest first, once the range is used up
    std::uint32_t m_next = 1;
};

/**
 * How a captured destination is named to the proxy: the name @p address stands for when it is
 * one of @p names' addresses, else the address itself as text.
 */
std::string hostOf(const sockaddr_storage &address, NameTable &names);

} // namespace paddock::init
