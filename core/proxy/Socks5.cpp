// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/Socks5.h"

#include <arpa/inet.h>

namespace paddock::proxy::socks5 {

ParseStatus parseGreeting(std::string_view data, Greeting &greeting)
{
    if (data.size() < 2)
        return data.empty() || std::uint8_t(data[0]) == Version ? ParseStatus::Incomplete : ParseStatus::Invalid;
    if (std::uint8_t(data[0]) != Version || data[1] == 0)
        return ParseStatus::Invalid;
    const std::size_t count = std::uint8_t(data[1]);
    if (data.size() < 2 + count)
        return ParseStatus::Incomplete;
    greeting.offersNoAuthentication = data.substr(2, count).find('\0') != std::string_view::npos;
    greeting.size = 2 + count;
    return ParseStatus::Complete;
}

ParseStatus parseRequest(std::string_view data, Request &request)
{
    if (data.size() < 4)
        return ParseStatus::Incomplete;
    if (std::uint8_t(data[0]) != Version || data[2] != 0)
        return ParseStatus::Invalid;
    request.command = std::uint8_t(data[1]);
    request.addressType = std::uint8_t(data[3]);
    std::size_t addressEnd = 0;
    switch (request.addressType) {
    case AddressIpv4: {
        addressEnd = 4 + 4;
        if (data.size() < addressEnd + 2)
            return ParseStatus::Incomplete;
        char text[INET_ADDRSTRLEN] = {};
        inet_ntop(AF_INET, data.data() + 4, text, sizeof text);
        request.host = text;
        break;
    }
    case AddressIpv6: {
        addressEnd = 4 + 16;
        if (data.size() < addressEnd + 2)
            return ParseStatus::Incomplete;
        char text[INET6_ADDRSTRLEN] = {};
        inet_ntop(AF_INET6, data.data() + 4, text, sizeof text);
        request.host = text;
        break;
    }
    case AddressDomain: {
        if (data.size() < 5)
            return ParseStatus::Incomplete;
        const std::size_t length = std::uint8_t(data[4]);
        if (length == 0)
            return ParseStatus::Invalid;
        addressEnd = 5 + length;
        if (data.size() < addressEnd + 2)
            return ParseStatus::Incomplete;
        request.host.assign(data.substr(5, length));
        break;
    }
    default:
        request.size = 4;
        return ParseStatus::Complete;
    }
    request.port = std::uint16_t(std::uint8_t(data[addressEnd]) << 8 | std::uint8_t(data[addressEnd + 1]));
    request.size = addressEnd + 2;
    return ParseStatus::Complete;
}

std::string methodSelection(bool accepted)
{
    return std::string{char(Version), accepted ? char(0x00) : char(0xff)};
}

std::string reply(Reply code)
{
    return std::string{char(Version), char(code), 0, char(AddressIpv4), 0, 0, 0, 0, 0, 0};
}

} // namespace paddock::proxy::socks5
