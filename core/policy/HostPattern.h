// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "policy/IpAddress.h"

#include <QString>
#include <QStringView>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace paddock::policy {

/** @brief An inclusive range of TCP ports; a single port is a range of one. */
struct PortRange
{
    std::uint16_t first = 443;
    std::uint16_t last = 443;

    static constexpr PortRange all() { return {1, 65535}; }
    bool contains(std::uint16_t port) const { return port >= first && port <= last; }
    bool isAll() const { return first == 1 && last == 65535; }
    friend bool operator==(const PortRange &, const PortRange &) = default;
};

/** Where a pattern is written; decides whether a bare `*` or `**` is accepted. */
enum class PatternContext {
    Allow,  ///< a user or kit allow list: "everything" is refused
    Deny,   ///< a deny list: "everything" is a reasonable thing to deny
    Preset, ///< a preset shipped with Paddock (allow-all is `**`)
};

/**
 * @brief One network destination pattern: a host, a wildcard over a domain, an address or a
 * range, with the ports it covers.
 *
 * Grammar: `host` (port 443), `host:port`, `host:80-443`, `host:*`, `*.example.com` (exactly
 * one more label), `**.example.com` (any depth), bare `*`/`**` (every host, every port unless
 * one is given; only in deny lists and presets), IPv4 and IPv6 literals (`[::1]:8080` with a
 * port) and CIDR ranges (`10.0.0.0/8`, `fd00::/8`, `[fd00::/8]:443`).
 * Names are stored normalised: lowercase ASCII (IDNA), no trailing dot.
 */
class HostPattern
{
public:
    enum class Kind {
        ExactHost,        ///< example.com
        OneLabelWildcard, ///< *.example.com: a.example.com, not example.com or a.b.example.com
        AnyDepthWildcard, ///< **.example.com: a.example.com, a.b.example.com, not example.com
        Everything,       ///< * or **
        Network,          ///< an address or a CIDR range
    };

    /** The pattern @p text names, or one sentence saying what is wrong with it. */
    static Result<HostPattern> parse(QStringView text, PatternContext context);

    Kind kind() const { return m_kind; }
    bool isNetwork() const { return m_kind == Kind::Network; }
    /** The normalised host, or for wildcards the domain after `*.`/`**.`; empty otherwise. */
    const std::string &domain() const { return m_domain; }
    const IpNetwork &network() const { return m_network; }
    PortRange ports() const { return m_ports; }

    /** True when the pattern covers the normalised host name @p host on @p port. */
    bool matchesName(std::string_view host, std::uint16_t port) const;
    /** True when the pattern is a network containing @p address and covers @p port. */
    bool matchesAddress(const IpAddress &address, std::uint16_t port) const;

    /** Canonical text: parse(toString()) gives the same pattern. */
    QString toString() const;
    friend bool operator==(const HostPattern &, const HostPattern &) = default;

private:
    Kind m_kind = Kind::ExactHost;
    std::string m_domain;
    IpNetwork m_network;
    PortRange m_ports;
};

/**
 * Normalises a host name as patterns store it: lowercase, trailing dot removed, IDNA to
 * ASCII; an IPv6 literal loses its brackets. Returns an empty string when @p host cannot be a
 * host name. Plain ASCII names take a fast path that allocates only the result.
 */
std::string normaliseHostName(QStringView host);

} // namespace paddock::policy
