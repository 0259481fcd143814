// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

/** Reading the server name from the first bytes of a TLS connection, without decrypting anything. */
namespace paddock::proxy::tls {

/** @brief What the first bytes of a tunnel say. */
struct ClientHelloInfo
{
    enum class Status {
        Incomplete, ///< looks like TLS; more bytes are needed
        NotTls,     ///< the first byte is not a TLS handshake record
        NoSni,      ///< a complete ClientHello without a server_name
        Sni,        ///< a complete ClientHello naming @ref serverName
        Malformed,  ///< starts like TLS but does not parse
    };
    Status status = Status::Incomplete;
    std::string serverName; ///< lower case, no trailing dot
};

/** Upper bound on the ClientHello the proxy waits for (handshake messages can span records). */
inline constexpr std::size_t MaxClientHelloBytes = 64 * 1024;

/** Parses the TLS records at the start of @p data up to the end of the ClientHello. */
ClientHelloInfo parseClientHello(std::string_view data);

} // namespace paddock::proxy::tls
