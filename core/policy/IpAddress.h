// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringView>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

class QHostAddress;

namespace paddock::policy {

/**
 * @brief An IPv4 or IPv6 address held as 16 bytes, IPv4 in its mapped form (::ffff:a.b.c.d).
 *
 * One representation for both families means `127.0.0.1` and `::ffff:127.0.0.1` are the
 * same value, so a mapped address can never slip past a rule written for the IPv4 form.
 * Cheap to copy and to build: evaluation converts every resolved address to this.
 */
class IpAddress
{
public:
    IpAddress() = default;

    /** Parses a literal strictly: dotted quad for IPv4, RFC 4291 text for IPv6 (no brackets, no zone). */
    static std::optional<IpAddress> parse(QStringView text);
    static IpAddress fromHostAddress(const QHostAddress &address);
    static IpAddress fromBytes(const std::array<std::uint8_t, 16> &bytes);

    /** True for ::ffff:0:0/96, i.e. an address that came from IPv4. */
    bool isV4() const;
    const std::array<std::uint8_t, 16> &bytes() const { return m_bytes; }
    /** The address with everything after the first @p prefixLength bits cleared. */
    IpAddress masked(int prefixLength) const;
    /**
     * True for addresses a sandbox must not reach through an allowed name: loopback,
     * link-local (cloud metadata), private, CGNAT, unique-local, unspecified, reserved and
     * the other special-purpose ranges of guardedRanges(), and the IPv6 spellings of the
     * IPv4 ones (mapped, NAT64, IPv4-compatible, 6to4).
     */
    bool isNonPublic() const { return nonPublicKind() != nullptr; }
    /** What kind of non-public address this is ("loopback", "private", ...), or nullptr. */
    const char *nonPublicKind() const;
    /** Dotted quad for IPv4, compressed RFC 5952 text for IPv6. */
    QString toString() const;

    friend bool operator==(const IpAddress &, const IpAddress &) = default;
    friend auto operator<=>(const IpAddress &, const IpAddress &) = default;

private:
    std::array<std::uint8_t, 16> m_bytes{};
};

/** @brief An address range in CIDR form; the prefix length counts bits of the 16-byte form. */
struct IpNetwork
{
    IpAddress base; ///< with the host bits cleared
    int prefixLength = 128;

    bool contains(const IpAddress &address) const { return address.masked(prefixLength) == base; }
    /** True when the two ranges share at least one address (one contains the other's base). */
    bool overlaps(const IpNetwork &other) const { return contains(other.base) || other.contains(base); }
    /** `10.0.0.0/8`, `fd00::/8`, or the bare address for a single host. */
    QString toString() const;
    friend bool operator==(const IpNetwork &, const IpNetwork &) = default;
};

/** @brief A range the rebinding guard refuses, with the kind of address it holds. */
struct GuardedRange
{
    IpNetwork network;
    const char *kind; ///< as IpAddress::nonPublicKind() says it
};

/**
 * Every range IpAddress::isNonPublic() refuses, each IPv4 one also in its IPv6 spellings
 * (mapped, NAT64, IPv4-compatible, 6to4), longest prefix first. For telling whether a rule's
 * range reaches any of them; classifying one address does not need the list.
 */
const std::vector<GuardedRange> &guardedRanges();

} // namespace paddock::policy
