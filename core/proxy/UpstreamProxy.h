// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "proxy/HttpParser.h"
#include "proxy/Socks5.h"

#include <QHostAddress>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace paddock::proxy {

/**
 * @brief Hosts that go straight out although an upstream proxy is set: NO_PROXY as curl reads
 * it. Comma- or space-separated entries; `*` alone matches everything; a name matches itself
 * and every name under it (a leading dot changes nothing); an IP address matches itself, and
 * an address with a prefix (`10.0.0.0/8`, `fd00::/8`) the addresses in it. An entry may name a
 * port (`git.corp:8080`), and then matches only that port.
 */
class NoProxy
{
public:
    NoProxy() = default;
    explicit NoProxy(const QString &list);

    bool matches(const std::string &host, std::uint16_t port, const std::vector<QHostAddress> &addresses) const;
    bool isEmpty() const { return m_names.empty() && m_ranges.empty() && !m_everything; }
    /** The entries as they were given, for a person to read. */
    const QString &text() const { return m_text; }

private:
    struct Name
    {
        std::string name;
        std::uint16_t port = 0; ///< 0: any port
    };
    struct Range
    {
        QHostAddress address;
        int prefix = -1; ///< -1: the address alone
        std::uint16_t port = 0;
    };
    QString m_text;
    bool m_everything = false;
    std::vector<Name> m_names;
    std::vector<Range> m_ranges;
};

/**
 * @brief The proxy every connection Paddock makes out goes through, on a network where only it
 * reaches the internet (a corporate proxy): HTTP (CONNECT for tunnels, absolute-form requests
 * for plain HTTP) or SOCKS5, with basic (or SOCKS5 user/password) authentication.
 *
 * The password is held here in memory only; display() and everything logged leave it out.
 */
struct UpstreamProxy
{
    enum class Kind {
        Http,
        Socks5,  ///< socks5://: the address is resolved here and sent
        Socks5h, ///< socks5h://: the name is sent and the proxy resolves it
    };
    Kind kind = Kind::Http;
    std::string host;
    std::uint16_t port = 0;
    std::string user;
    std::string password;
    NoProxy noProxy;
    /** The proxy's own addresses, resolved by whoever sets it (the daemon), not by the proxy loop. */
    std::vector<QHostAddress> addresses;
    /** When the proxy's name could not be resolved: why, for every connection that needs it. */
    QString unresolved;
    /** Where the setting came from: "the settings", "HTTPS_PROXY", "GNOME's proxy settings". */
    QString source;
    /**
     * Whether an address is this computer's or on its networks, which a company's proxy cannot
     * reach: set by whoever builds it (network::chooseUpstream asks the rebinding guard's list,
     * policy::IpAddress::isNonPublic). Unset, no address is.
     */
    std::function<bool(const QHostAddress &)> isLocal;

    /** "http://user@proxy.corp:3128": the URL without its password. */
    QString display() const;
    /** "proxy.corp:3128", for reasons. */
    QString authority() const;
    /** Whether a connection to @p host:@p port (resolved to @p addresses, maybe none) goes through it. */
    bool carries(const std::string &host, std::uint16_t port, const std::vector<QHostAddress> &addresses) const;
    /** `Proxy-Authorization: Basic …\r\n`, or empty without a user. */
    std::string authorizationHeader() const;
};

/**
 * Reads `http://[user[:password]@]host[:port]`, `socks5://…` or `socks5h://…`; a URL without a
 * scheme is HTTP and one without a port uses 1080, as curl reads them. User and password are
 * percent-decoded. An error for anything else (https:// proxies, a path).
 */
Result<UpstreamProxy> parseUpstreamProxy(const QString &url);

/**
 * @brief Opens a tunnel through an upstream proxy on a connected socket: the client side of
 * HTTP CONNECT and of SOCKS5 (RFC 1928, with RFC 1929 user/password). Feed it what the proxy
 * sends; it says what to send next and when the tunnel is open. No socket of its own.
 */
class UpstreamHandshake
{
public:
    enum class State {
        Waiting, ///< more bytes from the proxy are needed
        Open,    ///< the tunnel is open; @ref leftover holds bytes that came after the answer
        Refused, ///< the proxy refused or answered nonsense; @ref reason says which
    };

    UpstreamHandshake(const UpstreamProxy &proxy, const http::Authority &target,
                      const std::vector<QHostAddress> &addresses);

    /** What to send first. */
    std::string start();
    /** Takes the proxy's bytes; @p send receives what to send next, if anything. */
    State feed(std::string_view bytes, std::string *send);

    const QString &reason() const { return m_reason; }
    /** The SOCKS reply code that stands for the refusal, for a SOCKS client of Paddock's. */
    socks5::Reply socksReply() const { return m_socksReply; }
    const std::string &leftover() const { return m_leftover; }

private:
    enum class Step {
        HttpResponse,
        SocksMethod,
        SocksAuthentication,
        SocksReply,
    };
    State refuse(const QString &reason, socks5::Reply reply = socks5::Reply::GeneralFailure);
    State readHttpResponse();
    State readSocksMethod(std::string *send);
    State readSocksAuthentication(std::string *send);
    State readSocksReply();
    std::string socksConnect() const;

    UpstreamProxy::Kind m_kind;
    QString m_proxy; ///< host:port, for reasons
    std::string m_user;
    std::string m_password;
    std::string m_authorization;
    http::Authority m_target;
    std::vector<QHostAddress> m_addresses;
    Step m_step = Step::HttpResponse;
    std::string m_in;
    std::string m_leftover;
    QString m_reason;
    socks5::Reply m_socksReply = socks5::Reply::GeneralFailure;
};

} // namespace paddock::proxy
