// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/RequestTarget.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace paddock {
namespace {

constexpr qsizetype kMaxCanonicalPath = 8192;

bool isUnreserved(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/** The origin-form part of @p target: an absolute URI loses its scheme and authority. */
std::string_view originForm(std::string_view target)
{
    const std::size_t scheme = target.find("://");
    if (scheme != std::string_view::npos && scheme < target.find('/')) {
        target.remove_prefix(scheme + 3);
        const std::size_t slash = target.find_first_of("/?#");
        return slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
    }
    return target;
}

/** Escapes of unreserved characters decoded, the rest kept (upper case hex). */
std::string decodeUnreserved(std::string_view path)
{
    std::string out;
    out.reserve(path.size());
    for (std::size_t i = 0; i < path.size(); ++i) {
        const char c = path[i];
        if (c == '%' && i + 2 < path.size() && hexValue(path[i + 1]) >= 0 && hexValue(path[i + 2]) >= 0) {
            const char decoded = char(hexValue(path[i + 1]) * 16 + hexValue(path[i + 2]));
            if (isUnreserved(decoded)) {
                out += decoded;
            } else {
                out += '%';
                out += char(std::toupper(static_cast<unsigned char>(path[i + 1])));
                out += char(std::toupper(static_cast<unsigned char>(path[i + 2])));
            }
            i += 2;
            continue;
        }
        out += c;
    }
    return out;
}

} // namespace

QString canonicalPath(std::string_view target)
{
    std::string_view path = originForm(target);
    path = path.substr(0, path.find_first_of("?#"));
    if (path.empty() || path.front() != '/' || qsizetype(path.size()) > kMaxCanonicalPath)
        return {};
    const std::string decoded = decodeUnreserved(path);
    std::vector<std::string_view> segments;
    std::string_view rest(decoded);
    rest.remove_prefix(1);
    bool trailingSlash = false;
    while (true) {
        const std::size_t slash = rest.find('/');
        const std::string_view segment = rest.substr(0, slash);
        trailingSlash = segment.empty() || segment == "." || segment == "..";
        if (segment == "..") {
            if (!segments.empty())
                segments.pop_back();
        } else if (!segment.empty() && segment != ".") {
            segments.push_back(segment);
        }
        if (slash == std::string_view::npos)
            break;
        rest.remove_prefix(slash + 1);
    }
    std::string out;
    for (const std::string_view segment : segments) {
        out += '/';
        out += segment;
    }
    if (out.empty() || (trailingSlash && !segments.empty()))
        out += '/';
    return QString::fromLatin1(out.data(), qsizetype(out.size()));
}

QString redactedTarget(std::string_view target)
{
    std::string_view path = originForm(target);
    const std::size_t query = path.find('?');
    const bool hasQuery = query != std::string_view::npos;
    path = path.substr(0, std::min(query, path.find('#')));
    QString text;
    for (const char c : path.substr(0, std::size_t(kMaxRecordedPath))) {
        const auto u = static_cast<unsigned char>(c);
        text += (u <= 0x20 || u >= 0x7f) ? QLatin1Char('?') : QLatin1Char(c);
    }
    if (path.size() > std::size_t(kMaxRecordedPath))
        text += QChar(0x2026);
    if (hasQuery)
        text += QStringLiteral("?") + QChar(0x2026);
    return text;
}

} // namespace paddock
