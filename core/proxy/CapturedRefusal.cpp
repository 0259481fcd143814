// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/CapturedRefusal.h"

#include <algorithm>

namespace paddock::proxy {
namespace {

/** @p text on one line: control characters become spaces, and it stays short enough for any client. */
std::string oneLine(std::string_view text)
{
    std::string line;
    for (const char c : text.substr(0, 900))
        line += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
    return line;
}

void appendBe32(std::string &out, std::uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out += char((value >> shift) & 0xff);
}

/** An identification line, then SSH_MSG_DISCONNECT in the clear, as before any key exchange. */
std::string sshDisconnect(const std::string &text)
{
    constexpr std::uint32_t HostNotAllowed = 1;
    std::string payload(1, char(1)); // SSH_MSG_DISCONNECT
    appendBe32(payload, HostNotAllowed);
    appendBe32(payload, std::uint32_t(text.size()));
    payload += text;
    appendBe32(payload, 0); // language tag
    // packet_length, padding_length, payload, padding: a multiple of 8, at least 4 bytes of padding.
    std::size_t padding = 8 - (4 + 1 + payload.size()) % 8;
    if (padding < 4)
        padding += 8;
    std::string packet;
    appendBe32(packet, std::uint32_t(1 + payload.size() + padding));
    packet += char(padding);
    packet += payload;
    packet.append(padding, '\0');
    return "SSH-2.0-Paddock\r\n" + packet;
}

/** A PostgreSQL ErrorResponse, read by libpq whether it asked for SSL first or not. */
std::string postgresError(const std::string &message, const std::string &hint)
{
    std::string fields;
    auto field = [&fields](char code, const std::string &value) {
        fields += code;
        fields += value;
        fields += '\0';
    };
    field('S', "FATAL");
    field('V', "FATAL");
    field('C', "28000");
    field('M', message);
    if (!hint.empty())
        field('H', hint);
    fields += '\0';
    std::string out(1, 'E');
    appendBe32(out, std::uint32_t(4 + fields.size()));
    return out + fields;
}

/** A MySQL ERR packet in place of the server's greeting. */
std::string mysqlError(const std::string &text)
{
    constexpr std::uint16_t HostNotPrivileged = 1130;
    std::string payload(1, char(0xff));
    payload += char(HostNotPrivileged & 0xff);
    payload += char(HostNotPrivileged >> 8);
    payload += text;
    std::string out;
    out += char(payload.size() & 0xff);
    out += char((payload.size() >> 8) & 0xff);
    out += char((payload.size() >> 16) & 0xff);
    out += char(0); // sequence id
    return out + payload;
}

std::uint32_t readBe32(std::string_view bytes, std::size_t at)
{
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i)
        value = value << 8 | std::uint8_t(bytes[at + i]);
    return value;
}

/** @brief The protocols a refusal can be told in. */
enum class Spoken {
    Unknown,
    Ssh,
    Postgres,
    Http,
    Redis,
    Mysql,
    Smtp,
    Ftp,
    Pop3,
    Imap,
};

/** What the client speaks, from its first bytes. */
Spoken fromClient(std::string_view bytes)
{
    if (bytes.substr(0, 4) == "SSH-")
        return Spoken::Ssh;
    // PostgreSQL's first message: its length (8, or a startup packet's), then SSLRequest,
    // GSSENCRequest or protocol 3.0.
    if (bytes.size() >= 8) {
        const std::uint32_t code = readBe32(bytes, 4);
        if (code == 80877103 || code == 80877104 || code == 196608)
            return Spoken::Postgres;
    }
    if (bytes.size() >= 2 && bytes[0] == '*' && bytes[1] >= '0' && bytes[1] <= '9')
        return Spoken::Redis;
    const std::size_t space = bytes.find(' ');
    if (space != std::string_view::npos && space > 0 && space < 16 && space + 1 < bytes.size()) {
        const std::string_view method = bytes.substr(0, space);
        const bool token = std::all_of(method.begin(), method.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
        if (token && (bytes[space + 1] == '/' || bytes.substr(space + 1, 4) == "http"))
            return Spoken::Http;
    }
    return Spoken::Unknown;
}

/** What the protocol usually served on @p port is. */
Spoken fromPort(std::uint16_t port)
{
    switch (port) {
    case 22:
        return Spoken::Ssh;
    case 5432:
        return Spoken::Postgres;
    case 3306:
        return Spoken::Mysql;
    case 25:
    case 587:
    case 2525:
        return Spoken::Smtp;
    case 21:
        return Spoken::Ftp;
    case 110:
        return Spoken::Pop3;
    case 143:
        return Spoken::Imap;
    case 6379:
        return Spoken::Redis;
    default:
        return Spoken::Unknown;
    }
}

std::string told(Spoken spoken, const std::string &text, const std::string &hint)
{
    const std::string both = hint.empty() ? text : text + " " + hint;
    switch (spoken) {
    case Spoken::Ssh:
        return sshDisconnect(both);
    case Spoken::Postgres:
        return postgresError(text, hint);
    case Spoken::Mysql:
        return mysqlError(both);
    case Spoken::Smtp:
        return "554 5.7.1 " + both + "\r\n";
    case Spoken::Ftp:
        return "421 " + both + "\r\n";
    case Spoken::Redis:
    case Spoken::Pop3:
        return "-ERR " + both + "\r\n";
    case Spoken::Imap:
        return "* BYE " + both + "\r\n";
    case Spoken::Http:
    case Spoken::Unknown:
        break;
    }
    return {};
}

} // namespace

bool serverSpeaksFirst(std::uint16_t port)
{
    switch (fromPort(port)) {
    case Spoken::Ssh:
    case Spoken::Mysql:
    case Spoken::Smtp:
    case Spoken::Ftp:
    case Spoken::Pop3:
    case Spoken::Imap:
        return true;
    default:
        return false;
    }
}

CapturedAnswer capturedRefusal(std::uint16_t port, std::string_view clientBytes, std::string_view message,
                               std::string_view fix)
{
    // The client's own bytes say more than the port: ssh to a port of its own is still ssh.
    const Spoken spoken = clientBytes.empty() ? fromPort(port) : fromClient(clientBytes);
    if (spoken == Spoken::Http)
        return {CapturedAnswer::Kind::Http, {}};
    // An SSL or GSS encryption request alone: "no", and the startup message comes next.
    if (spoken == Spoken::Postgres && clientBytes.size() == 8 && readBe32(clientBytes, 4) != 196608)
        return {CapturedAnswer::Kind::Continue, std::string("N")};
    const std::string hint = fix.empty() ? std::string() : "To allow it: " + oneLine(fix);
    std::string bytes = told(spoken, oneLine(message), hint);
    if (bytes.empty())
        return {};
    return {CapturedAnswer::Kind::Text, std::move(bytes)};
}

} // namespace paddock::proxy
