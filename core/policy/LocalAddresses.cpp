// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/LocalAddresses.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cstring>

#include <ifaddrs.h>
#include <netinet/in.h>

Q_LOGGING_CATEGORY(lcLocalAddresses, "paddock.policy.local")

namespace paddock::policy {
namespace {

std::optional<IpAddress> addressOf(const sockaddr *address)
{
    std::array<std::uint8_t, 16> bytes{};
    if (address->sa_family == AF_INET) {
        const auto *in = reinterpret_cast<const sockaddr_in *>(address);
        bytes[10] = bytes[11] = 0xff;
        std::memcpy(bytes.data() + 12, &in->sin_addr, 4);
        return IpAddress::fromBytes(bytes);
    }
    if (address->sa_family == AF_INET6) {
        const auto *in6 = reinterpret_cast<const sockaddr_in6 *>(address);
        std::memcpy(bytes.data(), &in6->sin6_addr, 16);
        return IpAddress::fromBytes(bytes);
    }
    return std::nullopt;
}

} // namespace

std::shared_ptr<const LocalAddresses> LocalAddresses::system()
{
    static const std::shared_ptr<const LocalAddresses> instance(new LocalAddresses());
    return instance;
}

LocalAddresses::LocalAddresses(std::vector<IpAddress> fixed) : m_fixed(true), m_addresses(std::move(fixed))
{
    std::sort(m_addresses.begin(), m_addresses.end());
}

void LocalAddresses::refreshLocked() const
{
    const auto now = std::chrono::steady_clock::now();
    if (m_fixed || (m_readAt && now - *m_readAt < kRefreshInterval))
        return;
    m_readAt = now;
    ifaddrs *list = nullptr;
    if (::getifaddrs(&list) != 0) {
        // Keep the last list: an empty one would open the host's public addresses.
        qCWarning(lcLocalAddresses) << "cannot read this computer's addresses:" << std::strerror(errno);
        return;
    }
    std::vector<IpAddress> found;
    for (const ifaddrs *entry = list; entry; entry = entry->ifa_next) {
        if (!entry->ifa_addr)
            continue;
        if (const std::optional<IpAddress> address = addressOf(entry->ifa_addr))
            found.push_back(*address);
    }
    ::freeifaddrs(list);
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    if (found != m_addresses)
        qCDebug(lcLocalAddresses) << "this computer has" << found.size() << "addresses";
    m_addresses = std::move(found);
}

bool LocalAddresses::contains(const IpAddress &address) const
{
    const std::lock_guard lock(m_mutex);
    refreshLocked();
    return std::binary_search(m_addresses.cbegin(), m_addresses.cend(), address);
}

std::vector<IpAddress> LocalAddresses::addresses() const
{
    const std::lock_guard lock(m_mutex);
    refreshLocked();
    return m_addresses;
}

const char *guardedKind(const IpAddress &address, const LocalAddresses &local)
{
    if (const char *kind = address.nonPublicKind())
        return kind;
    return local.contains(address) ? "this computer's own" : nullptr;
}

} // namespace paddock::policy
