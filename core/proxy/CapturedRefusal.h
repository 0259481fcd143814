// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace paddock::proxy {

/** @brief How a refused captured connection is answered. */
struct CapturedAnswer
{
    enum class Kind {
        Reset, ///< nothing the client would show: a reset, as a refused connect gets
        Text,  ///< @ref bytes, in the client's protocol, then the connection closes
        Http,  ///< an HTTP client: a 403 as the proxy gives one
        /**
         * Not yet: @ref bytes go to the client, and its next message says the rest. PostgreSQL
         * asks for TLS first, and libpq reads no error before it is told "no TLS".
         */
        Continue,
    };
    Kind kind = Kind::Reset;
    std::string bytes;
};

/**
 * Whether the protocol usually served on @p port has the server speak first (SSH, SMTP, MySQL,
 * FTP, POP3, IMAP): a refusal is answered at once. For any other port the proxy waits a moment
 * for the client's first bytes, which say what it speaks.
 */
bool serverSpeaksFirst(std::uint16_t port);

/**
 * What a refused captured connection is told, in the protocol the client speaks (known from its
 * first bytes, @p clientBytes, else from the port): so a client prints Paddock's reason and the
 * command that allows the connection, and an agent reading it stops retrying.
 *
 * - SSH (its identification line, or port 22): an identification line, then SSH_MSG_DISCONNECT
 *   ("Received disconnect ...: why").
 * - PostgreSQL (a startup request, or port 5432): an ErrorResponse, FATAL with SQLSTATE 28000 and
 *   the command as HINT; to an SSL or GSS request, first "N" (Continue) and the startup after it.
 * - HTTP (a request line): a 403, as the proxy answers one.
 * - Redis (a RESP array, or port 6379) and POP3 (110): -ERR; MySQL (3306): an ERR packet 1130,
 *   as a server refusing a host does; SMTP (25, 587, 2525): 554; FTP (21): 421; IMAP (143): BYE.
 *
 * A reset for anything else (TLS among them). @p message is one line (control characters are
 * removed); @p fix, when not empty, the command that would allow it.
 */
CapturedAnswer capturedRefusal(std::uint16_t port, std::string_view clientBytes, std::string_view message,
                               std::string_view fix);

} // namespace paddock::proxy
