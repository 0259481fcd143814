// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

/** SOCKS5 (RFC 1928) as the proxy speaks it: no authentication, CONNECT only. */
namespace paddock::proxy::socks5 {

inline constexpr std::uint8_t Version = 0x05;

/** @brief Reply codes of RFC 1928 section 6. */
enum class Reply : std::uint8_t {
    Succeeded = 0x00,
    GeneralFailure = 0x01,
    NotAllowedByRuleset = 0x02,
    NetworkUnreachable = 0x03,
    HostUnreachable = 0x04,
    ConnectionRefused = 0x05,
    TtlExpired = 0x06,
    CommandNotSupported = 0x07,
    AddressTypeNotSupported = 0x08,
};

enum class ParseStatus {
    Incomplete,
    Complete,
    Invalid
};

/** @brief The client's first message: which authentication methods it offers. */
struct Greeting
{
    bool offersNoAuthentication = false;
    std::size_t size = 0;
};

ParseStatus parseGreeting(std::string_view data, Greeting &greeting);

/** @brief The client's request. A non-CONNECT command or unknown address type still parses. */
struct Request
{
    std::uint8_t command = 0;
    std::uint8_t addressType = 0;
    std::string host; ///< domain name as sent, or the address in text form
    std::uint16_t port = 0;
    std::size_t size = 0;
};

inline constexpr std::uint8_t CommandConnect = 0x01;
inline constexpr std::uint8_t AddressIpv4 = 0x01;
inline constexpr std::uint8_t AddressDomain = 0x03;
inline constexpr std::uint8_t AddressIpv6 = 0x04;

/**
 * Parses a request. An unknown address type is Complete with that type (the caller answers
 * 0x08), since its length cannot be known.
 */
ParseStatus parseRequest(std::string_view data, Request &request);

/** The method-selection answer: no authentication, or "no acceptable methods". */
std::string methodSelection(bool accepted);
/** A reply with a zero IPv4 bound address (clients ignore it for CONNECT). */
std::string reply(Reply code);

} // namespace paddock::proxy::socks5
