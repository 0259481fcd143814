// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/HttpParser.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>

namespace paddock::proxy::http {
namespace {

bool isTokenChar(char c)
{
    const auto u = static_cast<unsigned char>(c);
    if (u >= 'a' && u <= 'z')
        return true;
    if (u >= 'A' && u <= 'Z')
        return true;
    if (u >= '0' && u <= '9')
        return true;
    return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool isToken(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), isTokenChar);
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

// Splits the head into lines; returns the size of the head or 0 when it is not complete.
std::size_t headEnd(std::string_view data)
{
    const std::size_t end = data.find("\r\n\r\n");
    return end == std::string_view::npos ? 0 : end + 4;
}

bool parseVersion(std::string_view text, int &minor)
{
    if (text == "HTTP/1.1")
        minor = 1;
    else if (text == "HTTP/1.0")
        minor = 0;
    else
        return false;
    return true;
}

// Parses the header lines of a head (everything after the first line).
bool parseHeaderLines(std::string_view lines, std::vector<Header> &headers)
{
    while (!lines.empty()) {
        const std::size_t eol = lines.find("\r\n");
        if (eol == std::string_view::npos)
            return false;
        const std::string_view line = lines.substr(0, eol);
        lines.remove_prefix(eol + 2);
        if (line.empty())
            break;
        const std::size_t colon = line.find(':');
        // No folded lines, no whitespace before the colon: both are smuggling vectors.
        if (colon == std::string_view::npos || !isToken(line.substr(0, colon)))
            return false;
        const std::string_view value = trim(line.substr(colon + 1));
        for (const char c : value) {
            const auto u = static_cast<unsigned char>(c);
            if ((u < 0x20 && c != '\t') || u == 0x7f)
                return false;
        }
        headers.push_back({std::string(line.substr(0, colon)), std::string(value)});
    }
    return true;
}

ParseStatus checkLimits(std::string_view data, std::size_t maxBytes, std::size_t &size)
{
    size = headEnd(data.substr(0, std::min(data.size(), maxBytes)));
    if (size != 0)
        return ParseStatus::Complete;
    return data.size() >= maxBytes ? ParseStatus::TooLarge : ParseStatus::Incomplete;
}

bool parseDecimal(std::string_view text, std::uint64_t &value)
{
    if (text.empty() || text.size() > 18)
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

// Lists the comma-separated tokens of the Connection field(s), lower case.
std::vector<std::string> connectionTokens(const std::vector<Header> &headers)
{
    std::vector<std::string> tokens;
    for (const Header &header : headers) {
        if (!equalsIgnoreCase(header.name, "connection"))
            continue;
        std::string_view rest = header.value;
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            std::string token(trim(rest.substr(0, comma)));
            std::transform(token.begin(), token.end(), token.begin(), lower);
            if (!token.empty())
                tokens.push_back(token);
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        }
    }
    return tokens;
}

// Fields that describe one hop, not the message: never forwarded in either direction.
bool isHopByHop(std::string_view name, const std::vector<std::string> &connectionTokens)
{
    static constexpr std::string_view fixed[] = {"connection", "keep-alive", "te",
                                                 "trailer",    "upgrade",    "proxy-connection"};
    for (const std::string_view f : fixed) {
        if (equalsIgnoreCase(name, f))
            return true;
    }
    if (name.size() >= 6 && equalsIgnoreCase(name.substr(0, 6), "proxy-"))
        return true;
    for (const std::string &token : connectionTokens) {
        // Connection cannot remove the fields that frame the body.
        if (equalsIgnoreCase(name, token) && !equalsIgnoreCase(name, "content-length") &&
            !equalsIgnoreCase(name, "transfer-encoding") && !equalsIgnoreCase(name, "host"))
            return true;
    }
    return false;
}

bool validHostName(std::string_view host)
{
    if (host.empty() || host.size() > 253)
        return false;
    return std::all_of(host.begin(), host.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    });
}

} // namespace

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

bool lastCodingIsChunked(std::string_view transferEncoding)
{
    if (const std::size_t comma = transferEncoding.rfind(','); comma != std::string_view::npos)
        transferEncoding.remove_prefix(comma + 1);
    return equalsIgnoreCase(trim(transferEncoding), "chunked");
}

ParseStatus parseRequestHead(std::string_view data, std::size_t maxBytes, RequestHead &head)
{
    std::size_t size = 0;
    if (const ParseStatus status = checkLimits(data, maxBytes, size); status != ParseStatus::Complete)
        return status;
    const std::string_view text = data.substr(0, size);
    const std::size_t eol = text.find("\r\n");
    const std::string_view line = text.substr(0, eol);
    const std::size_t sp1 = line.find(' ');
    const std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos)
        return ParseStatus::Invalid;
    const std::string_view method = line.substr(0, sp1);
    const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    if (!isToken(method) || target.empty() || !parseVersion(line.substr(sp2 + 1), head.minorVersion))
        return ParseStatus::Invalid;
    for (const char c : target) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f)
            return ParseStatus::Invalid;
    }
    head.method = std::string(method);
    head.target = std::string(target);
    head.headers.clear();
    if (!parseHeaderLines(text.substr(eol + 2), head.headers))
        return ParseStatus::Invalid;
    head.size = size;
    return ParseStatus::Complete;
}

ParseStatus parseResponseHead(std::string_view data, std::size_t maxBytes, ResponseHead &head)
{
    std::size_t size = 0;
    if (const ParseStatus status = checkLimits(data, maxBytes, size); status != ParseStatus::Complete)
        return status;
    const std::string_view text = data.substr(0, size);
    const std::size_t eol = text.find("\r\n");
    const std::string_view line = text.substr(0, eol);
    // "HTTP/1.1 200 OK": version, three digits, optional reason.
    if (line.size() < 12 || line[8] != ' ' || !parseVersion(line.substr(0, 8), head.minorVersion))
        return ParseStatus::Invalid;
    if (line.size() > 12 && line[12] != ' ')
        return ParseStatus::Invalid;
    int status = 0;
    for (std::size_t i = 9; i < 12; ++i) {
        if (line[i] < '0' || line[i] > '9')
            return ParseStatus::Invalid;
        status = status * 10 + (line[i] - '0');
    }
    if (status < 100)
        return ParseStatus::Invalid;
    head.status = status;
    head.reason = line.size() > 13 ? std::string(line.substr(13)) : std::string();
    for (const char c : head.reason) {
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
            return ParseStatus::Invalid;
    }
    head.headers.clear();
    if (!parseHeaderLines(text.substr(eol + 2), head.headers))
        return ParseStatus::Invalid;
    head.size = size;
    return ParseStatus::Complete;
}

std::optional<Authority> parseAuthority(std::string_view text, std::uint16_t defaultPort)
{
    Authority authority;
    std::string_view host;
    std::string_view port;
    if (!text.empty() && text.front() == '[') {
        const std::size_t close = text.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        host = text.substr(1, close - 1);
        const std::string_view rest = text.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':')
                return std::nullopt;
            port = rest.substr(1);
            if (port.empty())
                return std::nullopt;
        }
        in6_addr address{};
        if (!std::string(host).empty() && inet_pton(AF_INET6, std::string(host).c_str(), &address) != 1)
            return std::nullopt;
        if (host.empty())
            return std::nullopt;
        authority.isIpLiteral = true;
    } else {
        const std::size_t colon = text.rfind(':');
        host = text.substr(0, colon);
        if (colon != std::string_view::npos) {
            port = text.substr(colon + 1);
            if (port.empty())
                return std::nullopt;
        }
        if (host.find(':') != std::string_view::npos)
            return std::nullopt; // an IPv6 literal must be bracketed
    }
    if (!port.empty()) {
        std::uint64_t value = 0;
        if (!parseDecimal(port, value) || value == 0 || value > 65535)
            return std::nullopt;
        authority.port = std::uint16_t(value);
    } else if (defaultPort != 0) {
        authority.port = defaultPort;
    } else {
        return std::nullopt;
    }
    authority.host.assign(host);
    std::transform(authority.host.begin(), authority.host.end(), authority.host.begin(), lower);
    if (!authority.isIpLiteral) {
        if (!authority.host.empty() && authority.host.back() == '.')
            authority.host.pop_back();
        if (!validHostName(authority.host))
            return std::nullopt;
        in_addr v4{};
        authority.isIpLiteral = inet_pton(AF_INET, authority.host.c_str(), &v4) == 1;
    }
    return authority;
}

std::string formatAuthority(const Authority &authority)
{
    const bool v6 = authority.host.find(':') != std::string::npos;
    std::string text = v6 ? "[" + authority.host + "]" : authority.host;
    return text + ":" + std::to_string(authority.port);
}

namespace {

/// The authority and the origin-form path of an absolute http:// URI.
std::optional<RequestError> parseAbsoluteUri(const std::string &uri, Authority &target, std::string &path)
{
    constexpr std::string_view scheme = "http://";
    if (uri.size() <= scheme.size() || !equalsIgnoreCase(uri.substr(0, scheme.size()), scheme)) {
        if (uri.size() > 8 && equalsIgnoreCase(uri.substr(0, 8), "https://"))
            return RequestError{400, "https URLs go through CONNECT"};
        return RequestError{400, "a proxy request needs an absolute http:// URI"};
    }
    const std::string_view rest = std::string_view(uri).substr(scheme.size());
    const std::size_t pathStart = rest.find_first_of("/?#");
    const std::string_view authorityText = rest.substr(0, pathStart);
    if (authorityText.find('@') != std::string_view::npos)
        return RequestError{400, "user information in the URI is not accepted"};
    const std::optional<Authority> parsed = parseAuthority(authorityText, 80);
    if (!parsed)
        return RequestError{400, "the URI does not name a valid host"};
    target = *parsed;
    path = pathStart == std::string_view::npos ? std::string("/") : std::string(rest.substr(pathStart));
    if (const std::size_t fragment = path.find('#'); fragment != std::string::npos)
        path.erase(fragment);
    if (path.empty() || path.front() == '?')
        path.insert(0, "/");
    return std::nullopt;
}

/// Host must match the URI; a body needs one Content-Length (no chunked request bodies).
std::optional<RequestError> checkRequestHeaders(const RequestHead &head, ProxyRequest &request)
{
    bool sawHost = false;
    bool sawLength = false;
    for (const Header &header : head.headers) {
        if (equalsIgnoreCase(header.name, "host")) {
            const std::optional<Authority> host = parseAuthority(header.value, 80);
            if (sawHost || !host || host->host != request.target.host || host->port != request.target.port)
                return RequestError{400, "the Host header does not match the URI"};
            sawHost = true;
        } else if (equalsIgnoreCase(header.name, "transfer-encoding")) {
            return RequestError{411, "request bodies must have a Content-Length"};
        } else if (equalsIgnoreCase(header.name, "content-length")) {
            std::uint64_t length = 0;
            if (!parseDecimal(header.value, length) || (sawLength && length != request.contentLength))
                return RequestError{400, "invalid Content-Length"};
            sawLength = true;
            request.contentLength = length;
        }
    }
    if (head.minorVersion == 1 && !sawHost)
        return RequestError{400, "HTTP/1.1 requests need a Host header"};
    return std::nullopt;
}

bool clientWantsKeepAlive(const RequestHead &head, const std::vector<std::string> &tokens)
{
    const auto has = [&](std::string_view token) {
        return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
    };
    if (head.minorVersion == 1 ? !has("close") : has("keep-alive"))
        return true;
    // Proxy-Connection is what HTTP/1.0 clients send to a proxy instead.
    for (const Header &header : head.headers) {
        if (equalsIgnoreCase(header.name, "proxy-connection") && equalsIgnoreCase(trim(header.value), "keep-alive"))
            return true;
    }
    return false;
}

// Each request gets its own upstream connection, so the upstream is told to close it: the
// response then ends where the connection does, and the next request is decided afresh.
std::string upstreamHead(const RequestHead &head, const Authority &target, const std::string &path,
                         const std::vector<std::string> &tokens)
{
    std::string out;
    out.reserve(head.size + 64);
    out += head.method + " " + path + " HTTP/1." + std::to_string(head.minorVersion) + "\r\n";
    out += "Host: ";
    out += (target.port == 80 ? (target.host.find(':') != std::string::npos ? "[" + target.host + "]" : target.host)
                              : formatAuthority(target));
    out += "\r\n";
    for (const Header &header : head.headers) {
        if (equalsIgnoreCase(header.name, "host") || isHopByHop(header.name, tokens))
            continue;
        out += header.name + ": " + header.value + "\r\n";
    }
    out += "Connection: close\r\n\r\n";
    return out;
}

} // namespace

std::optional<RequestError> interpretRequest(const RequestHead &head, ProxyRequest &request)
{
    request.method = head.method;
    request.minorVersion = head.minorVersion;
    if (head.method == "CONNECT") {
        const std::optional<Authority> target = parseAuthority(head.target, 0);
        if (!target)
            return RequestError{400, "CONNECT needs host:port"};
        request.kind = ProxyRequest::Kind::Connect;
        request.target = *target;
        return std::nullopt;
    }

    std::string path;
    if (std::optional<RequestError> error = parseAbsoluteUri(head.target, request.target, path))
        return error;
    request.kind = ProxyRequest::Kind::Forward;
    request.path = path;
    request.headRequest = head.method == "HEAD";
    if (std::optional<RequestError> error = checkRequestHeaders(head, request))
        return error;

    const std::vector<std::string> tokens = connectionTokens(head.headers);
    request.clientKeepAlive = clientWantsKeepAlive(head, tokens);
    request.upstreamHead = upstreamHead(head, request.target, path, tokens);
    return std::nullopt;
}

ResponseRewrite rewriteResponseHead(const ResponseHead &head, const ProxyRequest &request)
{
    const std::vector<std::string> tokens = connectionTokens(head.headers);
    bool delimited = request.headRequest || head.status < 200 || head.status == 204 || head.status == 304;
    for (const Header &header : head.headers) {
        if (equalsIgnoreCase(header.name, "content-length"))
            delimited = true;
        if (equalsIgnoreCase(header.name, "transfer-encoding") && equalsIgnoreCase(header.value, "chunked"))
            delimited = true;
    }
    ResponseRewrite rewrite;
    // 101 turns the connection into something else: it ends with the upstream.
    rewrite.keepAlive = request.clientKeepAlive && delimited && head.status != 101;
    std::string &out = rewrite.head;
    out.reserve(head.size + 32);
    out += "HTTP/1." + std::to_string(head.minorVersion) + " " + std::to_string(head.status);
    if (!head.reason.empty())
        out += " " + head.reason;
    out += "\r\n";
    for (const Header &header : head.headers) {
        if (isHopByHop(header.name, tokens) && !(head.status == 101 && equalsIgnoreCase(header.name, "upgrade")))
            continue;
        out += header.name + ": " + header.value + "\r\n";
    }
    if (head.status == 101)
        out += "Connection: upgrade\r\n";
    else if (head.status >= 200)
        out += rewrite.keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    out += "\r\n";
    return rewrite;
}

std::string_view statusText(int status)
{
    switch (status) {
    case 200:
        return "Connection established";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 411:
        return "Length Required";
    case 431:
        return "Request Header Fields Too Large";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Error";
    }
}

std::string headerSafe(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        out += (u < 0x20 || u == 0x7f) ? ' ' : c;
    }
    return out;
}

} // namespace paddock::proxy::http
