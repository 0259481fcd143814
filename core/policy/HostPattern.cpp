// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/HostPattern.h"

#include <QUrl>

namespace paddock::policy {
namespace {

constexpr qsizetype kMaxPatternLength = 300;
constexpr std::size_t kMaxNameLength = 253;
constexpr std::size_t kMaxLabelLength = 63;

bool isAsciiDigits(QStringView text)
{
    if (text.isEmpty())
        return false;
    for (const QChar c : text) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    }
    return true;
}

/** Parses a decimal number of at most six digits; -1 when it is not one. */
int smallNumber(QStringView text)
{
    if (!isAsciiDigits(text) || text.size() > 6)
        return -1;
    int value = 0;
    for (const QChar c : text)
        value = value * 10 + (c.unicode() - '0');
    return value;
}

Result<std::uint16_t> parsePort(QStringView text)
{
    const int value = smallNumber(text);
    if (value < 0 && !isAsciiDigits(text)) {
        return fail(QStringLiteral("the port \"%1\" is not a number; write a port (443), a range (80-443) or *")
                        .arg(text.toString()));
    }
    if (value <= 0 || value > 65535) {
        return fail(QStringLiteral("port %1 is out of range; ports go from 1 to 65535").arg(text.toString()));
    }
    return std::uint16_t(value);
}

Result<PortRange> parsePorts(QStringView text)
{
    if (text.isEmpty()) {
        return fail(QStringLiteral("the port is missing after ':'"));
    }
    if (text == QLatin1String("*"))
        return PortRange::all();
    const qsizetype dash = text.indexOf(QLatin1Char('-'));
    if (dash < 0) {
        const Result<std::uint16_t> port = parsePort(text);
        if (!port)
            return port.error();
        return PortRange{*port, *port};
    }
    const Result<std::uint16_t> from = parsePort(text.first(dash));
    if (!from)
        return from.error();
    const Result<std::uint16_t> to = parsePort(text.sliced(dash + 1));
    if (!to)
        return to.error();
    const std::uint16_t first = *from;
    const std::uint16_t last = *to;
    if (first > last) {
        return fail(
            QStringLiteral("the port range %1 is reversed; write %2-%3").arg(text.toString()).arg(last).arg(first));
    }
    return PortRange{first, last};
}

bool isAsciiNameChar(char16_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/**
 * Lowercases, drops one trailing dot, converts IDNA to ASCII and checks the label rules.
 * Fails, saying why, if the name is not a host name.
 */
Result<std::string> normaliseName(QStringView name)
{
    auto refuse = [](const QString &why) { return fail(why); };
    if (name.endsWith(QLatin1Char('.')))
        name.chop(1);
    if (name.isEmpty())
        return refuse(QStringLiteral("the host name is empty"));

    bool ascii = true;
    for (const QChar c : name)
        ascii = ascii && c.unicode() < 0x80;

    std::string result;
    if (ascii) {
        result.resize(std::size_t(name.size()));
        for (qsizetype i = 0; i < name.size(); ++i) {
            char16_t c = name[i].unicode();
            if (c >= 'A' && c <= 'Z')
                c = char16_t(c - 'A' + 'a');
            result[std::size_t(i)] = char(c);
        }
    } else {
        const QByteArray ace = QUrl::toAce(name.toString());
        if (ace.isEmpty())
            return refuse(QStringLiteral("\"%1\" is not a valid internationalised domain name").arg(name.toString()));
        result.assign(ace.constData(), std::size_t(ace.size()));
        if (!result.empty() && result.back() == '.')
            result.pop_back();
    }

    if (result.size() > kMaxNameLength)
        return refuse(QStringLiteral("the host name is longer than %1 characters").arg(kMaxNameLength));
    std::size_t labelStart = 0;
    for (std::size_t i = 0; i <= result.size(); ++i) {
        if (i < result.size() && result[i] != '.') {
            if (!isAsciiNameChar(char16_t(static_cast<unsigned char>(result[i]))))
                return refuse(QStringLiteral("the character '%1' cannot appear in a host name")
                                  .arg(QString::fromLatin1(&result[i], 1)));
            continue;
        }
        const std::size_t length = i - labelStart;
        if (length == 0)
            return refuse(QStringLiteral("the host name has an empty label (two dots in a row, or a leading dot)"));
        if (length > kMaxLabelLength)
            return refuse(QStringLiteral("a label of the host name is longer than %1 characters").arg(kMaxLabelLength));
        labelStart = i + 1;
    }
    return result;
}

bool hasOnlyDigits(std::string_view label)
{
    if (label.empty())
        return false;
    for (const char c : label) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

/** Why @p text cannot be a pattern at all (size, spaces, a URL); empty when it may be one. */
QString refusalOfText(QStringView text)
{
    if (text.isEmpty())
        return QStringLiteral("the pattern is empty");
    if (text.size() > kMaxPatternLength)
        return QStringLiteral("the pattern is longer than %1 characters").arg(kMaxPatternLength);
    for (const QChar c : text) {
        if (c.isSpace())
            return QStringLiteral("a pattern cannot contain spaces");
    }
    if (text.contains(QLatin1String("://")))
        return QStringLiteral("a pattern names a host, not a URL: remove the scheme (\"%1\")")
            .arg(text.first(text.indexOf(QLatin1String("://")) + 3).toString());
    return {};
}

/** A pattern's text cut into its host and its port. */
struct HostAndPort
{
    QStringView host;
    QStringView port;
    bool hasPort = false;
    bool bracketed = false;
};

/** Splits HOST from PORT. IPv6 needs brackets to carry a port, since it is full of colons. */
Result<HostAndPort> splitHostAndPort(QStringView text)
{
    HostAndPort parts{text, {}, false, false};
    if (text.front() == QLatin1Char('[')) {
        const qsizetype close = text.indexOf(QLatin1Char(']'));
        if (close < 0) {
            return fail(QStringLiteral("'[' opens an IPv6 address but no ']' closes it"));
        }
        parts.host = text.sliced(1, close - 1);
        const QStringView rest = text.sliced(close + 1);
        if (!rest.isEmpty()) {
            if (rest.front() != QLatin1Char(':')) {
                return fail(QStringLiteral("expected \":PORT\" after the ']' of an IPv6 address"));
            }
            parts.port = rest.sliced(1);
            parts.hasPort = true;
        }
        parts.bracketed = true;
    } else if (text.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        parts.host = text.first(colon);
        parts.port = text.sliced(colon + 1);
        parts.hasPort = true;
    }
    if (parts.host.isEmpty()) {
        return fail(QStringLiteral("the host is missing before the port"));
    }
    return parts;
}

/** What a pattern's host part names, before its ports are known. */
struct HostTarget
{
    HostPattern::Kind kind = HostPattern::Kind::ExactHost;
    std::string domain;
    IpNetwork network;
};

/** An address range ADDRESS/LENGTH, @p slash being the position of its '/'. */
Result<HostTarget> parseRange(QStringView hostPart, qsizetype slash, PatternContext context)
{
    const std::optional<IpAddress> address = IpAddress::parse(hostPart.first(slash));
    if (!address) {
        return fail(QStringLiteral("a pattern cannot contain a path ('/'); write only the host, "
                                   "or an address range such as 10.0.0.0/8"));
    }
    const int maxLength = address->isV4() ? 32 : 128;
    const int length = smallNumber(hostPart.sliced(slash + 1));
    if (length < 0 || length > maxLength) {
        return fail(QStringLiteral("the prefix length of %1 must be a number from 0 to %2")
                        .arg(hostPart.toString())
                        .arg(maxLength));
    }
    const int bits = address->isV4() ? length + 96 : length;
    const IpAddress base = address->masked(bits);
    if (base != *address) {
        return fail(QStringLiteral("%1 has bits set after the prefix; the range is %2/%3")
                        .arg(hostPart.toString(), base.toString())
                        .arg(length));
    }
    if (length == 0 && context == PatternContext::Allow) {
        return fail(QStringLiteral("%1 covers every address; it is accepted only in deny lists and presets")
                        .arg(hostPart.toString()));
    }
    return HostTarget{HostPattern::Kind::Network, {}, {base, bits}};
}

/** A host name, `*.domain` or `**.domain`. */
Result<HostTarget> parseDomain(QStringView hostPart)
{
    HostTarget target;
    QStringView name = hostPart;
    if (name.startsWith(QLatin1String("**."))) {
        target.kind = HostPattern::Kind::AnyDepthWildcard;
        name = name.sliced(3);
    } else if (name.startsWith(QLatin1String("*."))) {
        target.kind = HostPattern::Kind::OneLabelWildcard;
        name = name.sliced(2);
    }
    if (name.contains(QLatin1Char('*'))) {
        return fail(QStringLiteral("a wildcard can only be the whole first label, as in *.example.com "
                                   "or **.example.com"));
    }
    Result<std::string> domain = normaliseName(name);
    if (!domain)
        return domain.error();
    target.domain = std::move(domain).value();
    const std::size_t lastDot = target.domain.rfind('.');
    const std::string_view lastLabel = lastDot == std::string::npos
                                           ? std::string_view(target.domain)
                                           : std::string_view(target.domain).substr(lastDot + 1);
    if (hasOnlyDigits(lastLabel)) {
        return fail(QStringLiteral("\"%1\" is neither a host name nor a valid IPv4 address").arg(name.toString()));
    }
    if (target.kind != HostPattern::Kind::ExactHost && lastDot == std::string::npos) {
        return fail(
            QStringLiteral("%1 would cover a whole top-level domain; name a domain under it").arg(hostPart.toString()));
    }
    return target;
}

/** The host part of a pattern: a range, an address, everything, or a name. */
Result<HostTarget> parseHost(const HostAndPort &parts, bool manyColons, PatternContext context)
{
    const QStringView hostPart = parts.host;
    const qsizetype slash = hostPart.indexOf(QLatin1Char('/'));
    if (slash >= 0)
        return parseRange(hostPart, slash, context);
    if (const std::optional<IpAddress> address = IpAddress::parse(hostPart))
        return HostTarget{HostPattern::Kind::Network, {}, {*address, 128}};
    if (parts.bracketed || manyColons) {
        return fail(QStringLiteral("\"%1\" is not a valid IPv6 address (with a port, write [ADDRESS]:PORT)")
                        .arg(hostPart.toString()));
    }
    if (hostPart == QLatin1String("*") || hostPart == QLatin1String("**")) {
        if (context == PatternContext::Allow) {
            return fail(QStringLiteral("a bare %1 allows every host; it is accepted only in deny lists "
                                       "and presets (use the allow-all preset)")
                            .arg(hostPart.toString()));
        }
        return HostTarget{HostPattern::Kind::Everything, {}, {}};
    }
    return parseDomain(hostPart);
}

} // namespace

std::string normaliseHostName(QStringView host)
{
    if (host.size() >= 2 && host.front() == QLatin1Char('[') && host.back() == QLatin1Char(']'))
        host = host.sliced(1, host.size() - 2);
    if (IpAddress::parse(host))
        return host.toString().toLower().toStdString();
    return normaliseName(host).valueOr({});
}

Result<HostPattern> HostPattern::parse(QStringView text, PatternContext context)
{
    if (const QString why = refusalOfText(text); !why.isEmpty())
        return fail(why);
    const Result<HostAndPort> parts = splitHostAndPort(text);
    if (!parts)
        return parts.error();
    const bool manyColons = !parts->bracketed && text.count(QLatin1Char(':')) >= 2;
    Result<HostTarget> target = parseHost(*parts, manyColons, context);
    if (!target)
        return target.error();

    HostPattern pattern;
    pattern.m_kind = target->kind;
    pattern.m_domain = std::move(target->domain);
    pattern.m_network = target->network;
    if (parts->hasPort) {
        const Result<PortRange> ports = parsePorts(parts->port);
        if (!ports)
            return ports.error();
        pattern.m_ports = *ports;
    } else {
        pattern.m_ports = pattern.m_kind == Kind::Everything ? PortRange::all() : PortRange{};
    }
    return pattern;
}

bool HostPattern::matchesName(std::string_view host, std::uint16_t port) const
{
    if (!m_ports.contains(port))
        return false;
    const std::string_view domain = m_domain;
    switch (m_kind) {
    case Kind::ExactHost:
        return host == domain;
    case Kind::OneLabelWildcard:
    case Kind::AnyDepthWildcard: {
        if (host.size() < domain.size() + 2 || !host.ends_with(domain))
            return false;
        const std::size_t dot = host.size() - domain.size() - 1;
        if (host[dot] != '.')
            return false;
        return m_kind == Kind::AnyDepthWildcard || host.substr(0, dot).find('.') == std::string_view::npos;
    }
    case Kind::Everything:
        return true;
    case Kind::Network:
        return false;
    }
    return false;
}

bool HostPattern::matchesAddress(const IpAddress &address, std::uint16_t port) const
{
    return m_kind == Kind::Network && m_ports.contains(port) && m_network.contains(address);
}

QString HostPattern::toString() const
{
    QString host;
    switch (m_kind) {
    case Kind::ExactHost:
        host = QString::fromStdString(m_domain);
        break;
    case Kind::OneLabelWildcard:
        host = QStringLiteral("*.") + QString::fromStdString(m_domain);
        break;
    case Kind::AnyDepthWildcard:
        host = QStringLiteral("**.") + QString::fromStdString(m_domain);
        break;
    case Kind::Everything:
        host = QStringLiteral("**");
        break;
    case Kind::Network:
        host = m_network.toString();
        break;
    }
    const PortRange defaultPorts = m_kind == Kind::Everything ? PortRange::all() : PortRange{};
    if (m_ports == defaultPorts)
        return host;
    if (m_kind == Kind::Network && !m_network.base.isV4())
        host = QLatin1Char('[') + host + QLatin1Char(']');
    QString ports;
    if (m_ports.isAll())
        ports = QStringLiteral("*");
    else if (m_ports.first == m_ports.last)
        ports = QString::number(m_ports.first);
    else
        ports = QStringLiteral("%1-%2").arg(m_ports.first).arg(m_ports.last);
    return host + QLatin1Char(':') + ports;
}

} // namespace paddock::policy
