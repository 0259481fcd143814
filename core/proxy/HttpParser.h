// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * Parsing and rewriting of HTTP/1.x message heads as a forward proxy needs them. Pure functions
 * over bytes, so the fuzzer and the unit tests exercise exactly what the relay runs.
 */
namespace paddock::proxy::http {

struct Header
{
    std::string name;
    std::string value; ///< without surrounding whitespace
};

/** @brief A request line and its header fields, as received. */
struct RequestHead
{
    std::string method;
    std::string target;
    int minorVersion = 1; ///< HTTP/1.0 or HTTP/1.1
    std::vector<Header> headers;
    std::size_t size = 0; ///< bytes of the head, including the empty line
};

/** @brief A status line and its header fields, as received from an upstream. */
struct ResponseHead
{
    int minorVersion = 1;
    int status = 0;
    std::string reason;
    std::vector<Header> headers;
    std::size_t size = 0;
};

enum class ParseStatus {
    Incomplete, ///< no empty line yet, and still under the size limit
    Complete,
    Invalid,
    TooLarge, ///< no complete head within the limit
};

/** Parses a request head from the start of @p data. Strict: CRLF line ends, no folding. */
ParseStatus parseRequestHead(std::string_view data, std::size_t maxBytes, RequestHead &head);
/** Parses a response head from the start of @p data. */
ParseStatus parseResponseHead(std::string_view data, std::size_t maxBytes, ResponseHead &head);

/** @brief A host and port; the host lower case, without brackets or trailing dot. */
struct Authority
{
    std::string host;
    std::uint16_t port = 0;
    bool isIpLiteral = false;
};

/**
 * Parses `host[:port]`, `[v6]:port` or an IP literal. With @p defaultPort 0 the port is required.
 * Host names are limited to letters, digits, '-', '_' and '.', as they appear on the wire
 * (IDNA names arrive as punycode).
 */
std::optional<Authority> parseAuthority(std::string_view text, std::uint16_t defaultPort);

/** `host:port`, with brackets around an IPv6 literal. */
std::string formatAuthority(const Authority &authority);

/** @brief What a proxy client asked for, once its head is understood. */
struct ProxyRequest
{
    enum class Kind {
        Connect,
        Forward
    };
    Kind kind = Kind::Connect;
    Authority target;
    std::string method;
    /** For Forward: the origin-form target as sent (path and query), for rules and records. */
    std::string path;
    /** For Forward: the head to send upstream (origin-form, hop-by-hop and Proxy-* removed). */
    std::string upstreamHead;
    std::uint64_t contentLength = 0;
    bool clientKeepAlive = false; ///< the client expects the connection to stay open after this
    bool headRequest = false;
    int minorVersion = 1;
};

/** @brief Why a request head cannot be served: the status to answer and a reason. */
struct RequestError
{
    int status = 400;
    std::string reason;
};

/**
 * Interprets a parsed head as a proxy request: CONNECT authority-form or absolute-form http://.
 * The Host header must agree with the URI. Returns the error to answer otherwise.
 */
std::optional<RequestError> interpretRequest(const RequestHead &head, ProxyRequest &request);

/** @brief How a response head is passed on to the client. */
struct ResponseRewrite
{
    std::string head;
    bool keepAlive = false; ///< the client connection can carry another request afterwards
};

/**
 * Rewrites an upstream response head for the client: hop-by-hop fields go, and the connection
 * stays open only when the client wants it and the body has a length the client can see.
 */
ResponseRewrite rewriteResponseHead(const ResponseHead &head, const ProxyRequest &request);

/** ASCII case-insensitive comparison, as header names and tokens compare. */
bool equalsIgnoreCase(std::string_view a, std::string_view b);

/** Whether the last coding of a Transfer-Encoding value is chunked (which then frames the body). */
bool lastCodingIsChunked(std::string_view transferEncoding);

/** Reason phrase for the statuses the proxy produces itself. */
std::string_view statusText(int status);

/** Removes CR, LF and other control characters so @p text can be a header value. */
std::string headerSafe(std::string_view text);

} // namespace paddock::proxy::http
