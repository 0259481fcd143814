// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/IpAddress.h"

#include <QHostAddress>

#include <algorithm>
#include <arpa/inet.h>
#include <cstring>

namespace paddock::policy {
namespace {

constexpr std::array<std::uint8_t, 12> kMappedPrefix{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
constexpr std::array<std::uint8_t, 12> kNat64Prefix{0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
constexpr std::array<std::uint8_t, 12> kCompatiblePrefix{}; // ::a.b.c.d, deprecated (RFC 4291)

bool hasPrefix12(const std::array<std::uint8_t, 16> &bytes, const std::array<std::uint8_t, 12> &prefix)
{
    return std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

/** @brief An IPv4 range the guard refuses. */
struct V4Range
{
    std::uint32_t base;
    int prefixLength;
    const char *kind;
};

constexpr std::uint32_t v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d)
{
    return std::uint32_t(a) << 24 | std::uint32_t(b) << 16 | std::uint32_t(c) << 8 | d;
}

// Everything a host name must not lead to: the host itself, the networks it sits on, and the
// special-purpose ranges that no public service uses (RFC 6890). One list serves both the
// guard and the check of rules that reach these ranges, so they cannot disagree.
constexpr std::array<V4Range, 11> kGuardedV4{{
    {v4(168, 63, 129, 16), 32, "cloud metadata"}, // Azure's; the others are link-local or CGNAT
    {v4(0, 0, 0, 0), 8, "unspecified"},           // "this network", includes 0.0.0.0
    {v4(127, 0, 0, 0), 8, "loopback"},
    {v4(10, 0, 0, 0), 8, "private"},
    {v4(172, 16, 0, 0), 12, "private"},
    {v4(192, 168, 0, 0), 16, "private"},
    {v4(169, 254, 0, 0), 16, "link-local"}, // includes the cloud metadata service, 169.254.169.254
    {v4(100, 64, 0, 0), 10, "shared (CGNAT)"},
    {v4(192, 0, 0, 0), 24, "IETF protocol assignment"},
    {v4(198, 18, 0, 0), 15, "benchmarking"},
    {v4(240, 0, 0, 0), 4, "reserved"}, // includes the broadcast address
}};

const char *nonPublicKindV4(const std::uint8_t *bytes)
{
    const std::uint32_t address = v4(bytes[0], bytes[1], bytes[2], bytes[3]);
    for (const V4Range &range : kGuardedV4) {
        const std::uint32_t mask = ~std::uint32_t(0) << (32 - range.prefixLength);
        if ((address & mask) == range.base)
            return range.kind;
    }
    return nullptr;
}

IpNetwork networkOf(std::array<std::uint8_t, 16> bytes, int prefixLength)
{
    return {IpAddress::fromBytes(bytes).masked(prefixLength), prefixLength};
}

} // namespace

std::optional<IpAddress> IpAddress::parse(QStringView text)
{
    // inet_pton is strict (no "10.1", no octal, no zone) and does not allocate.
    char buffer[INET6_ADDRSTRLEN + 1];
    if (text.isEmpty() || text.size() > INET6_ADDRSTRLEN)
        return std::nullopt;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (c > 0x7f || c == 0)
            return std::nullopt;
        buffer[i] = char(c);
    }
    buffer[text.size()] = '\0';

    IpAddress result;
    if (::inet_pton(AF_INET, buffer, result.m_bytes.data() + 12) == 1) {
        std::memcpy(result.m_bytes.data(), kMappedPrefix.data(), kMappedPrefix.size());
        return result;
    }
    if (::inet_pton(AF_INET6, buffer, result.m_bytes.data()) == 1)
        return result;
    return std::nullopt;
}

IpAddress IpAddress::fromHostAddress(const QHostAddress &address)
{
    IpAddress result;
    // Only a true IPv4 address takes the mapped form here; toIPv4Address() would also
    // convert some IPv6 addresses (such as ::), which must keep their own identity.
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        const quint32 v4 = address.toIPv4Address();
        std::memcpy(result.m_bytes.data(), kMappedPrefix.data(), kMappedPrefix.size());
        result.m_bytes[12] = std::uint8_t(v4 >> 24);
        result.m_bytes[13] = std::uint8_t(v4 >> 16);
        result.m_bytes[14] = std::uint8_t(v4 >> 8);
        result.m_bytes[15] = std::uint8_t(v4);
        return result;
    }
    const Q_IPV6ADDR v6 = address.toIPv6Address();
    std::memcpy(result.m_bytes.data(), v6.c, 16);
    return result;
}

IpAddress IpAddress::fromBytes(const std::array<std::uint8_t, 16> &bytes)
{
    IpAddress result;
    result.m_bytes = bytes;
    return result;
}

bool IpAddress::isV4() const
{
    return hasPrefix12(m_bytes, kMappedPrefix);
}

IpAddress IpAddress::masked(int prefixLength) const
{
    IpAddress result = *this;
    for (int i = 0; i < 16; ++i) {
        const int bitsKept = prefixLength - i * 8;
        if (bitsKept >= 8)
            continue;
        result.m_bytes[i] = bitsKept <= 0 ? 0 : std::uint8_t(result.m_bytes[i] & (0xff << (8 - bitsKept)));
    }
    return result;
}

const char *IpAddress::nonPublicKind() const
{
    // Mapped and NAT64 addresses carry an IPv4 address in their last four bytes; a
    // resolver can hand out either to reach the same host.
    if (hasPrefix12(m_bytes, kMappedPrefix) || hasPrefix12(m_bytes, kNat64Prefix))
        return nonPublicKindV4(m_bytes.data() + 12);

    static constexpr std::array<std::uint8_t, 16> zero{};
    static constexpr std::array<std::uint8_t, 16> loopback{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    if (m_bytes == zero)
        return "unspecified";
    if (m_bytes == loopback)
        return "loopback";
    if (hasPrefix12(m_bytes, kCompatiblePrefix)) {
        // A system with a configured sit tunnel sends ::a.b.c.d to a.b.c.d over IPv4; no
        // public service is reached this way, so the whole range is refused.
        const char *kind = nonPublicKindV4(m_bytes.data() + 12);
        return kind ? kind : "IPv4-compatible";
    }
    if (m_bytes[0] == 0x20 && m_bytes[1] == 0x02) // 2002::/16, 6to4: the IPv4 address follows
        return nonPublicKindV4(m_bytes.data() + 2);
    if (m_bytes[0] == 0 && m_bytes[1] == 0x64 && m_bytes[2] == 0xff && m_bytes[3] == 0x9b && m_bytes[4] == 0 &&
        m_bytes[5] == 1) // 64:ff9b:1::/48 (RFC 8215)
        return "local-use NAT64";
    if (m_bytes[0] == 0xfe && (m_bytes[1] & 0xc0) == 0x80) // fe80::/10
        return "link-local";
    if (m_bytes[0] == 0xfe && (m_bytes[1] & 0xc0) == 0xc0) // fec0::/10, the former private range
        return "site-local";
    if ((m_bytes[0] & 0xfe) == 0xfc) // fc00::/7
        return "unique-local";
    if (m_bytes[0] == 0x20 && m_bytes[1] == 0x01 && m_bytes[2] == 0 && m_bytes[3] == 0x02 && m_bytes[4] == 0 &&
        m_bytes[5] == 0) // 2001:2::/48 (RFC 5180), as 198.18.0.0/15: a sandbox's resolver hands these out
        return "benchmarking";
    return nullptr;
}

QString IpAddress::toString() const
{
    char buffer[INET6_ADDRSTRLEN];
    const char *text = isV4() ? ::inet_ntop(AF_INET, m_bytes.data() + 12, buffer, sizeof buffer)
                              : ::inet_ntop(AF_INET6, m_bytes.data(), buffer, sizeof buffer);
    return text ? QString::fromLatin1(text) : QString();
}

QString IpNetwork::toString() const
{
    const bool v4 = base.isV4();
    const int fullLength = 128;
    if (prefixLength == fullLength)
        return base.toString();
    return base.toString() + QLatin1Char('/') + QString::number(v4 ? prefixLength - 96 : prefixLength);
}

const std::vector<GuardedRange> &guardedRanges()
{
    static const std::vector<GuardedRange> ranges = [] {
        std::vector<GuardedRange> result;
        auto add = [&result](std::array<std::uint8_t, 16> bytes, int prefixLength, const char *kind) {
            result.push_back({networkOf(bytes, prefixLength), kind});
        };
        for (const V4Range &range : kGuardedV4) {
            const std::array<std::uint8_t, 4> quad{std::uint8_t(range.base >> 24), std::uint8_t(range.base >> 16),
                                                   std::uint8_t(range.base >> 8), std::uint8_t(range.base)};
            for (const auto &prefix : {kMappedPrefix, kNat64Prefix, kCompatiblePrefix}) {
                std::array<std::uint8_t, 16> bytes{};
                std::memcpy(bytes.data(), prefix.data(), prefix.size());
                std::memcpy(bytes.data() + 12, quad.data(), 4);
                add(bytes, 96 + range.prefixLength, range.kind);
            }
            std::array<std::uint8_t, 16> sixToFour{0x20, 0x02};
            std::memcpy(sixToFour.data() + 2, quad.data(), 4);
            add(sixToFour, 16 + range.prefixLength, range.kind);
        }
        add({}, 128, "unspecified");
        add({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128, "loopback");
        add({}, 96, "IPv4-compatible");
        add({0, 0x64, 0xff, 0x9b, 0, 1}, 48, "local-use NAT64");
        add({0xfe, 0x80}, 10, "link-local");
        add({0xfe, 0xc0}, 10, "site-local");
        add({0xfc}, 7, "unique-local");
        // IPv6's benchmarking range: a sandbox's resolver hands its addresses out, as 198.18.0.0/15's.
        add({0x20, 0x01, 0x00, 0x02, 0x00, 0x00}, 48, "benchmarking");
        std::stable_sort(result.begin(), result.end(), [](const GuardedRange &a, const GuardedRange &b) {
            return a.network.prefixLength > b.network.prefixLength;
        });
        return result;
    }();
    return ranges;
}

} // namespace paddock::policy
