// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/ClientHello.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace paddock::proxy::tls {
namespace {

using Status = ClientHelloInfo::Status;

constexpr std::uint8_t HandshakeRecord = 22;
constexpr std::uint8_t ClientHelloType = 1;
constexpr std::uint16_t ServerNameExtension = 0;

/** @brief Bounds-checked big-endian reader; every read fails once out of bytes. */
class Reader
{
public:
    explicit Reader(std::string_view data) : m_data(data) {}

    std::optional<std::size_t> number(std::size_t bytes)
    {
        if (m_data.size() < bytes)
            return std::nullopt;
        std::size_t value = 0;
        for (std::size_t i = 0; i < bytes; ++i)
            value = value << 8 | std::uint8_t(m_data[i]);
        m_data.remove_prefix(bytes);
        return value;
    }
    std::optional<std::string_view> bytes(std::size_t count)
    {
        if (m_data.size() < count)
            return std::nullopt;
        const std::string_view out = m_data.substr(0, count);
        m_data.remove_prefix(count);
        return out;
    }
    /** A vector with a length prefix of @p lengthBytes. */
    std::optional<Reader> vector(std::size_t lengthBytes)
    {
        const std::optional<std::size_t> length = number(lengthBytes);
        if (!length)
            return std::nullopt;
        const std::optional<std::string_view> body = bytes(*length);
        if (!body)
            return std::nullopt;
        return Reader(*body);
    }
    bool empty() const { return m_data.empty(); }
    std::string_view rest() const { return m_data; }

private:
    std::string_view m_data;
};

ClientHelloInfo serverNameFrom(std::string_view hello)
{
    ClientHelloInfo info;
    info.status = Status::Malformed;
    Reader reader(hello);
    if (!reader.bytes(2 + 32) || !reader.vector(1) || !reader.vector(2) || !reader.vector(1))
        return info;
    if (reader.empty()) { // no extensions at all (TLS 1.0 era clients)
        info.status = Status::NoSni;
        return info;
    }
    std::optional<Reader> extensions = reader.vector(2);
    if (!extensions || !reader.empty())
        return info;
    bool found = false;
    while (!extensions->empty()) {
        const std::optional<std::size_t> type = extensions->number(2);
        std::optional<Reader> body = extensions->vector(2);
        if (!type || !body)
            return info;
        if (*type != ServerNameExtension)
            continue;
        if (found) // two server_name extensions: refuse rather than guess which one counts
            return info;
        found = true;
        std::optional<Reader> names = body->vector(2);
        if (!names || !body->empty())
            return info;
        while (!names->empty()) {
            const std::optional<std::size_t> nameType = names->number(1);
            std::optional<Reader> name = names->vector(2);
            if (!nameType || !name)
                return info;
            if (*nameType != 0 || !info.serverName.empty())
                continue;
            std::string value(name->rest());
            if (value.empty())
                return info;
            for (char &c : value) {
                if (c >= 'A' && c <= 'Z')
                    c = char(c - 'A' + 'a');
                if (std::uint8_t(c) <= 0x20 || std::uint8_t(c) >= 0x7f)
                    return info;
            }
            if (value.back() == '.')
                value.pop_back();
            info.serverName = value;
        }
    }
    info.status = info.serverName.empty() ? Status::NoSni : Status::Sni;
    return info;
}

} // namespace

ClientHelloInfo parseClientHello(std::string_view data)
{
    ClientHelloInfo info;
    if (data.empty())
        return info;
    if (std::uint8_t(data[0]) != HandshakeRecord) {
        info.status = Status::NotTls;
        return info;
    }
    // Gather handshake bytes from consecutive records until the ClientHello is complete.
    std::string handshake;
    std::size_t offset = 0;
    while (true) {
        if (data.size() - offset < 5) {
            info.status = offset >= MaxClientHelloBytes ? Status::Malformed : Status::Incomplete;
            return info;
        }
        const auto type = std::uint8_t(data[offset]);
        const auto major = std::uint8_t(data[offset + 1]);
        const std::size_t length = std::size_t(std::uint8_t(data[offset + 3])) << 8 | std::uint8_t(data[offset + 4]);
        if (type != HandshakeRecord || major != 3 || length == 0 || length > 16384 + 2048) {
            info.status = offset == 0 && major != 3 ? Status::NotTls : Status::Malformed;
            return info;
        }
        if (data.size() - offset - 5 < length) {
            info.status = Status::Incomplete;
            return info;
        }
        handshake.append(data.substr(offset + 5, length));
        offset += 5 + length;
        if (handshake.size() >= 4) {
            if (std::uint8_t(handshake[0]) != ClientHelloType) {
                info.status = Status::Malformed;
                return info;
            }
            const std::size_t helloLength = std::size_t(std::uint8_t(handshake[1])) << 16 |
                                            std::size_t(std::uint8_t(handshake[2])) << 8 | std::uint8_t(handshake[3]);
            if (helloLength > MaxClientHelloBytes) {
                info.status = Status::Malformed;
                return info;
            }
            if (handshake.size() >= 4 + helloLength)
                return serverNameFrom(std::string_view(handshake).substr(4, helloLength));
        }
        if (offset >= MaxClientHelloBytes) {
            info.status = Status::Malformed;
            return info;
        }
    }
}

} // namespace paddock::proxy::tls
