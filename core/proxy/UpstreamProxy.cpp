// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/UpstreamProxy.h"

#include <QByteArray>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <cctype>

namespace paddock::proxy {
namespace {

std::string lower(std::string text)
{
    for (char &ch : text)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return text;
}

/** "host", "host:port", "[v6]:port", "10.0.0.0/8": an entry's host part and its port (0: any). */
std::pair<QString, std::uint16_t> splitPort(const QString &entry)
{
    if (entry.startsWith(QLatin1Char('['))) {
        const qsizetype close = entry.indexOf(QLatin1Char(']'));
        if (close < 0)
            return {entry, 0};
        const QString rest = entry.mid(close + 1);
        const std::uint16_t port = rest.startsWith(QLatin1Char(':')) ? std::uint16_t(rest.mid(1).toUShort()) : 0;
        return {entry.mid(1, close - 1), port};
    }
    // One colon is a port; more are an IPv6 address without brackets.
    if (entry.count(QLatin1Char(':')) == 1) {
        bool ok = false;
        const std::uint16_t port = std::uint16_t(entry.section(QLatin1Char(':'), 1).toUShort(&ok));
        if (ok)
            return {entry.section(QLatin1Char(':'), 0, 0), port};
    }
    return {entry, 0};
}

bool portMatches(std::uint16_t wanted, std::uint16_t port)
{
    return wanted == 0 || wanted == port;
}

} // namespace

NoProxy::NoProxy(const QString &list) : m_text(list.trimmed())
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (QString entry : list.split(separators, Qt::SkipEmptyParts)) {
        if (entry == QLatin1String("*")) {
            m_everything = true;
            continue;
        }
        const auto [host, port] = splitPort(entry);
        QString bare = host;
        const qsizetype slash = bare.indexOf(QLatin1Char('/'));
        int prefix = -1;
        if (slash >= 0) {
            prefix = bare.mid(slash + 1).toInt();
            bare = bare.left(slash);
        }
        if (const QHostAddress address(bare); !address.isNull()) {
            m_ranges.push_back({address, prefix, port});
            continue;
        }
        while (bare.startsWith(QLatin1Char('.')) || bare.startsWith(QLatin1String("*.")))
            bare = bare.mid(bare.startsWith(QLatin1Char('.')) ? 1 : 2);
        if (!bare.isEmpty())
            m_names.push_back({lower(bare.toStdString()), port});
    }
}

bool NoProxy::matches(const std::string &host, std::uint16_t port, const std::vector<QHostAddress> &addresses) const
{
    if (m_everything)
        return true;
    const std::string name = lower(host);
    for (const Name &entry : m_names) {
        if (!portMatches(entry.port, port))
            continue;
        if (name == entry.name || (name.size() > entry.name.size() && name.ends_with(entry.name) &&
                                   name[name.size() - entry.name.size() - 1] == '.'))
            return true;
    }
    std::vector<QHostAddress> candidates = addresses;
    if (const QHostAddress literal(QString::fromStdString(host)); !literal.isNull())
        candidates.push_back(literal);
    for (const Range &range : m_ranges) {
        if (!portMatches(range.port, port))
            continue;
        for (const QHostAddress &address : candidates) {
            if (range.prefix < 0 ? address.isEqual(range.address, QHostAddress::TolerantConversion)
                                 : address.isInSubnet(range.address, range.prefix))
                return true;
        }
    }
    return false;
}

QString UpstreamProxy::authority() const
{
    const QString name = QString::fromStdString(host);
    return (name.contains(QLatin1Char(':')) ? QLatin1Char('[') + name + QLatin1Char(']') : name) + QLatin1Char(':') +
           QString::number(port);
}

QString UpstreamProxy::display() const
{
    const char *scheme = kind == Kind::Http ? "http" : kind == Kind::Socks5 ? "socks5" : "socks5h";
    const QString who =
        user.empty() ? QString()
                     : QString::fromUtf8(QUrl::toPercentEncoding(QString::fromStdString(user))) + QLatin1Char('@');
    return QLatin1String(scheme) + QStringLiteral("://") + who + authority();
}

bool UpstreamProxy::carries(const std::string &target, std::uint16_t targetPort,
                            const std::vector<QHostAddress> &targetAddresses) const
{
    if (port == 0 || noProxy.matches(target, targetPort, targetAddresses))
        return false;
    // This computer and its networks are reached directly: a corporate proxy cannot reach
    // them, and the policy lets them through only on a grant the person approved.
    if (target == "localhost" || (target.size() > 10 && target.compare(target.size() - 10, 10, ".localhost") == 0))
        return false;
    if (!isLocal)
        return true;
    std::vector<QHostAddress> candidates = targetAddresses;
    if (const QHostAddress literal(QString::fromStdString(target)); !literal.isNull())
        candidates.push_back(literal);
    return std::none_of(candidates.begin(), candidates.end(), isLocal);
}

std::string UpstreamProxy::authorizationHeader() const
{
    if (user.empty())
        return {};
    const QByteArray credentials = QByteArray::fromStdString(user + ':' + password).toBase64();
    return "Proxy-Authorization: Basic " + credentials.toStdString() + "\r\n";
}

Result<UpstreamProxy> parseUpstreamProxy(const QString &text)
{
    QString spelled = text.trimmed();
    if (spelled.isEmpty())
        return fail(QStringLiteral("no proxy URL given"));
    if (!spelled.contains(QStringLiteral("://")))
        spelled.prepend(QStringLiteral("http://"));
    const QUrl url(spelled, QUrl::StrictMode);
    UpstreamProxy proxy;
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("http"))
        proxy.kind = UpstreamProxy::Kind::Http;
    else if (scheme == QLatin1String("socks5"))
        proxy.kind = UpstreamProxy::Kind::Socks5;
    else if (scheme == QLatin1String("socks5h"))
        proxy.kind = UpstreamProxy::Kind::Socks5h;
    else
        return fail(QStringLiteral("'%1': an upstream proxy is http://, socks5:// or socks5h://").arg(scheme));
    if (!url.isValid())
        return fail(QStringLiteral("'%1' is not a proxy URL: %2")
                        .arg(url.toDisplayString(QUrl::RemovePassword), url.errorString()));
    if (url.host().isEmpty())
        return fail(QStringLiteral("'%1' names no proxy host").arg(url.toDisplayString(QUrl::RemovePassword)));
    if ((!url.path().isEmpty() && url.path() != QLatin1String("/")) || url.hasQuery() || url.hasFragment())
        return fail(QStringLiteral("a proxy URL is scheme://[user@]host[:port], without a path"));
    proxy.host = url.host(QUrl::FullyDecoded).toLower().toStdString();
    proxy.port = std::uint16_t(url.port(1080));
    proxy.user = url.userName(QUrl::FullyDecoded).toStdString();
    proxy.password = url.password(QUrl::FullyDecoded).toStdString();
    if (proxy.port == 0)
        return fail(QStringLiteral("a proxy's port is between 1 and 65535"));
    return proxy;
}

UpstreamHandshake::UpstreamHandshake(const UpstreamProxy &proxy, const http::Authority &target,
                                     const std::vector<QHostAddress> &addresses)
    : m_kind(proxy.kind),
      m_proxy(proxy.authority()),
      m_user(proxy.user),
      m_password(proxy.password),
      m_authorization(proxy.authorizationHeader()),
      m_target(target),
      m_addresses(addresses)
{}

std::string UpstreamHandshake::start()
{
    if (m_kind == UpstreamProxy::Kind::Http) {
        m_step = Step::HttpResponse;
        const std::string authority = http::formatAuthority(m_target);
        return "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n" + m_authorization + "\r\n";
    }
    m_step = Step::SocksMethod;
    // No authentication, or user and password (RFC 1929) when there is a user.
    return m_user.empty() ? std::string("\x05\x01\x00", 3) : std::string("\x05\x02\x00\x02", 4);
}

UpstreamHandshake::State UpstreamHandshake::refuse(const QString &reason, socks5::Reply reply)
{
    m_reason = QStringLiteral("the upstream proxy %1 %2").arg(m_proxy, reason);
    m_socksReply = reply;
    return State::Refused;
}

UpstreamHandshake::State UpstreamHandshake::feed(std::string_view bytes, std::string *send)
{
    m_in.append(bytes);
    switch (m_step) {
    case Step::HttpResponse:
        return readHttpResponse();
    case Step::SocksMethod:
        return readSocksMethod(send);
    case Step::SocksAuthentication:
        return readSocksAuthentication(send);
    case Step::SocksReply:
        return readSocksReply();
    }
    return State::Waiting;
}

UpstreamHandshake::State UpstreamHandshake::readHttpResponse()
{
    constexpr std::size_t MaxHead = 16 * 1024;
    http::ResponseHead head;
    switch (http::parseResponseHead(m_in, MaxHead, head)) {
    case http::ParseStatus::Incomplete:
        return State::Waiting;
    case http::ParseStatus::TooLarge:
    case http::ParseStatus::Invalid:
        return refuse(QStringLiteral("answered CONNECT with something that is not HTTP"));
    case http::ParseStatus::Complete:
        break;
    }
    if (head.status < 200 || head.status >= 300) {
        const socks5::Reply reply = head.status == 403 || head.status == 407 ? socks5::Reply::NotAllowedByRuleset
                                                                             : socks5::Reply::HostUnreachable;
        return refuse(QStringLiteral("refused: %1 %2").arg(head.status).arg(QString::fromStdString(head.reason)),
                      reply);
    }
    m_leftover = m_in.substr(head.size);
    return State::Open;
}

UpstreamHandshake::State UpstreamHandshake::readSocksMethod(std::string *send)
{
    if (m_in.size() < 2)
        return State::Waiting;
    const auto method = std::uint8_t(m_in[1]);
    if (std::uint8_t(m_in[0]) != socks5::Version)
        return refuse(QStringLiteral("does not speak SOCKS5"));
    m_in.erase(0, 2);
    if (method == 0x00) {
        m_step = Step::SocksReply;
        *send = socksConnect();
        return State::Waiting;
    }
    if (method == 0x02 && !m_user.empty()) {
        m_step = Step::SocksAuthentication;
        const std::string user = m_user.substr(0, 255);
        const std::string password = m_password.substr(0, 255);
        *send = std::string(1, '\x01') + char(user.size()) + user + char(password.size()) + password;
        return State::Waiting;
    }
    return refuse(m_user.empty() ? QStringLiteral("asks for authentication and no user is set")
                                 : QStringLiteral("accepts no authentication Paddock offers"),
                  socks5::Reply::NotAllowedByRuleset);
}

UpstreamHandshake::State UpstreamHandshake::readSocksAuthentication(std::string *send)
{
    if (m_in.size() < 2)
        return State::Waiting;
    if (m_in[1] != 0)
        return refuse(QStringLiteral("refused the user name and password"), socks5::Reply::NotAllowedByRuleset);
    m_in.erase(0, 2);
    m_step = Step::SocksReply;
    *send = socksConnect();
    return State::Waiting;
}

std::string UpstreamHandshake::socksConnect() const
{
    std::string request("\x05\x01\x00", 3);
    QHostAddress address(QString::fromStdString(m_target.host));
    if (address.isNull() && m_kind == UpstreamProxy::Kind::Socks5 && !m_addresses.empty())
        address = m_addresses.front(); // socks5://: the address resolved here
    bool isV4 = false;
    const quint32 v4 = address.isNull() ? 0 : address.toIPv4Address(&isV4);
    if (isV4) {
        request += char(socks5::AddressIpv4);
        for (int shift = 24; shift >= 0; shift -= 8)
            request += char((v4 >> shift) & 0xff);
    } else if (!address.isNull()) {
        request += char(socks5::AddressIpv6);
        const Q_IPV6ADDR bytes = address.toIPv6Address();
        request.append(reinterpret_cast<const char *>(bytes.c), 16);
    } else {
        const std::string name = m_target.host.substr(0, 255);
        request += char(socks5::AddressDomain);
        request += char(name.size());
        request += name;
    }
    request += char(m_target.port >> 8);
    request += char(m_target.port & 0xff);
    return request;
}

UpstreamHandshake::State UpstreamHandshake::readSocksReply()
{
    if (m_in.size() < 5)
        return State::Waiting;
    if (std::uint8_t(m_in[0]) != socks5::Version)
        return refuse(QStringLiteral("answered the SOCKS5 request with something else"));
    const auto code = std::uint8_t(m_in[1]);
    std::size_t length = 0;
    switch (std::uint8_t(m_in[3])) {
    case socks5::AddressIpv4:
        length = 4 + 4 + 2;
        break;
    case socks5::AddressIpv6:
        length = 4 + 16 + 2;
        break;
    case socks5::AddressDomain:
        length = 4 + 1 + std::size_t(std::uint8_t(m_in[4])) + 2;
        break;
    default:
        return refuse(QStringLiteral("answered with an unknown address type"));
    }
    if (code != 0) {
        static const char *const Reasons[] = {
            "succeeded",           "general failure",       "connection not allowed by ruleset",
            "network unreachable", "host unreachable",      "connection refused",
            "TTL expired",         "command not supported", "address type not supported"};
        const QString why = code < std::size(Reasons) ? QLatin1String(Reasons[code]) : QStringLiteral("error");
        return refuse(QStringLiteral("refused: SOCKS5 reply %1 (%2)").arg(code).arg(why), socks5::Reply(code));
    }
    if (m_in.size() < length)
        return State::Waiting;
    m_leftover = m_in.substr(length);
    return State::Open;
}

} // namespace paddock::proxy
