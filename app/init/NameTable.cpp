// SPDX-License-Identifier: GPL-3.0-or-later
#include "NameTable.h"

#include <cstring>

#include <arpa/inet.h>

namespace paddock::init {
namespace {

constexpr std::uint32_t kIpv4Base = 0xC6120000;                               // 198.18.0.0
constexpr std::uint8_t kIpv6Prefix[6] = {0x20, 0x01, 0x00, 0x02, 0x00, 0x00}; // 2001:2::/48

} // namespace

std::uint32_t NameTable::indexFor(const std::string &name, Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    if (const auto it = m_byName.find(name); it != m_byName.end()) {
        Entry &entry = m_byIndex.at(it->second);
        entry.used = now;
        m_recent.splice(m_recent.begin(), m_recent, entry.recent);
        return it->second;
    }
    if (m_byIndex.size() >= kCapacity && !evictOne(now))
        return 0;
    const std::uint32_t index = freshIndex();
    if (index == 0)
        return 0;
    m_recent.push_front(index);
    m_byIndex.emplace(index, Entry{name, now, m_recent.begin()});
    m_byName.emplace(name, index);
    return index;
}

std::string NameTable::nameOf(const sockaddr_storage &address, Clock::time_point now)
{
    const std::uint32_t index = indexOf(address);
    if (index == 0)
        return {};
    const std::lock_guard lock(m_mutex);
    const auto it = m_byIndex.find(index);
    if (it == m_byIndex.end())
        return {};
    it->second.used = now;
    m_recent.splice(m_recent.begin(), m_recent, it->second.recent);
    return it->second.name;
}

std::size_t NameTable::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_byIndex.size();
}

bool NameTable::evictOne(Clock::time_point now)
{
    if (m_recent.empty())
        return false;
    const std::uint32_t oldest = m_recent.back();
    Entry &entry = m_byIndex.at(oldest);
    // A client may hold an answer for its TTL and connect a little later: such a name stays.
    if (now - entry.used < 2 * kTtl)
        return false;
    m_byName.erase(entry.name);
    m_recent.pop_back();
    m_byIndex.erase(oldest);
    m_freed.push_back(oldest);
    return true;
}

std::uint32_t NameTable::freshIndex()
{
    if (m_next <= kAddresses)
        return m_next++;
    if (m_freed.empty())
        return 0;
    const std::uint32_t index = m_freed.front();
    m_freed.pop_front();
    return index;
}

in_addr NameTable::ipv4Of(std::uint32_t index)
{
    return in_addr{htonl(kIpv4Base + index)};
}

in6_addr NameTable::ipv6Of(std::uint32_t index)
{
    in6_addr address{};
    std::memcpy(address.s6_addr, kIpv6Prefix, sizeof kIpv6Prefix);
    const std::uint32_t be = htonl(index);
    std::memcpy(address.s6_addr + 12, &be, sizeof be);
    return address;
}

std::uint32_t NameTable::indexOf(const sockaddr_storage &address)
{
    std::uint32_t index = 0;
    if (address.ss_family == AF_INET) {
        const std::uint32_t host = ntohl(reinterpret_cast<const sockaddr_in &>(address).sin_addr.s_addr);
        if ((host & 0xFFFE0000) == kIpv4Base)
            index = host - kIpv4Base;
    } else if (address.ss_family == AF_INET6) {
        const in6_addr &ip = reinterpret_cast<const sockaddr_in6 &>(address).sin6_addr;
        static const std::uint8_t zeros[6] = {};
        if (std::memcmp(ip.s6_addr, kIpv6Prefix, 6) == 0 && std::memcmp(ip.s6_addr + 6, zeros, 6) == 0) {
            std::uint32_t be = 0;
            std::memcpy(&be, ip.s6_addr + 12, sizeof be);
            index = ntohl(be);
        }
    }
    return index >= 1 && index <= kAddresses ? index : 0;
}

std::string hostOf(const sockaddr_storage &address, NameTable &names)
{
    std::string name = names.nameOf(address);
    if (!name.empty())
        return name;
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in &>(address).sin_addr, text, sizeof text);
    else
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6 &>(address).sin6_addr, text, sizeof text);
    return text;
}

} // namespace paddock::init
