// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/IpAddress.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace paddock::policy {

/**
 * @brief The addresses of this computer's own network interfaces, which a sandbox must not
 * reach through the proxy any more than loopback: a service bound to every interface answers
 * on a public address of the host too.
 *
 * The system list is read with getifaddrs(3) and read again when a question comes more than
 * kRefreshInterval after the last reading, so an address gained by joining a network counts
 * within seconds. Thread-safe: the proxy asks from its connection threads.
 */
class LocalAddresses
{
public:
    static constexpr std::chrono::milliseconds kRefreshInterval{2000};

    /** This computer's interfaces, shared by everything in the process. */
    static std::shared_ptr<const LocalAddresses> system();
    /** A fixed list, for tests and for a caller that knows the addresses already. */
    explicit LocalAddresses(std::vector<IpAddress> fixed);

    bool contains(const IpAddress &address) const;
    /** The addresses as of now (refreshed first when stale), sorted. */
    std::vector<IpAddress> addresses() const;

private:
    LocalAddresses() = default;
    void refreshLocked() const;

    bool m_fixed = false;
    mutable std::mutex m_mutex;
    mutable std::vector<IpAddress> m_addresses; ///< sorted
    mutable std::optional<std::chrono::steady_clock::time_point> m_readAt;
};

/**
 * The kind of address @p address is for the rebinding guard: IpAddress::nonPublicKind(), or
 * "this computer's own" for an address of one of @p local's interfaces; nullptr for a public
 * address of another host.
 */
const char *guardedKind(const IpAddress &address, const LocalAddresses &local);

} // namespace paddock::policy
