// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/IpAddress.h"

#include <QHostAddress>

#include <arpa/inet.h>
#include <cstring>

namespace paddock::policy {
namespace {

constexpr std::array<std::uint8_t, 12> kMappedPrefix{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
constexpr std::array<std::uint8_t, 12> kNat64Prefix{0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};

bool hasPrefix12(const std::array<std::uint8_t, 16> &bytes, const std::array<std::uint8_t, 12> &prefix)
{
    return std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

const char *nonPublicKindV4(std::uint8_t a, std::uint8_t b)
{
    if (a == 0)
        return "unspecified"; // "this network", includes 0.0.0.0
    if (a == 127)
        return "loopback";
    if (a == 10 || (a == 172 && (b & 0xf0) == 16) || (a == 192 && b == 168))
        return "private";
    if (a == 169 && b == 254)
        return "link-local"; // includes the cloud metadata service, 169.254.169.254
    if (a == 100 && (b & 0xc0) == 64)
        return "shared (CGNAT)";
    return nullptr;
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
        return nonPublicKindV4(m_bytes[12], m_bytes[13]);

    static constexpr std::array<std::uint8_t, 16> zero{};
    static constexpr std::array<std::uint8_t, 16> loopback{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    if (m_bytes == zero)
        return "unspecified";
    if (m_bytes == loopback)
        return "loopback";
    if (m_bytes[0] == 0xfe && (m_bytes[1] & 0xc0) == 0x80) // fe80::/10
        return "link-local";
    if ((m_bytes[0] & 0xfe) == 0xfc) // fc00::/7
        return "unique-local";
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

} // namespace paddock::policy
