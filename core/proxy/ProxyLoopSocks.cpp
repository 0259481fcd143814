// SPDX-License-Identifier: GPL-3.0-or-later
// SOCKS5: the method negotiation and the CONNECT request.
#include "proxy/ProxyLoopInternal.h"

#include "proxy/Socks5.h"

#include <optional>

namespace paddock::proxy {

using namespace loop;

void ProxyLoop::processSocksGreeting(Connection &c)
{
    socks5::Greeting greeting;
    switch (socks5::parseGreeting(c.in, greeting)) {
    case socks5::ParseStatus::Incomplete:
        return;
    case socks5::ParseStatus::Invalid:
        return close(c);
    case socks5::ParseStatus::Complete:
        break;
    }
    c.in.erase(0, greeting.size);
    if (!greeting.offersNoAuthentication) {
        writeClient(c, socks5::methodSelection(false));
        c.phase = Phase::Closing;
        return;
    }
    writeClient(c, socks5::methodSelection(true));
    c.phase = Phase::SocksRequest;
    processSocksRequest(c);
}

void ProxyLoop::processSocksRequest(Connection &c)
{
    socks5::Request request;
    switch (socks5::parseRequest(c.in, request)) {
    case socks5::ParseStatus::Incomplete:
        return;
    case socks5::ParseStatus::Invalid:
        return close(c);
    case socks5::ParseStatus::Complete:
        break;
    }
    c.in.erase(0, request.size);
    c.target = http::Authority{request.host, request.port, request.addressType != socks5::AddressDomain};
    using socks5::Reply;
    if (request.addressType != socks5::AddressIpv4 && request.addressType != socks5::AddressIpv6 &&
        request.addressType != socks5::AddressDomain) {
        const QString reason = QStringLiteral("SOCKS address type %1 is not supported").arg(request.addressType);
        return refuse(c, Refusal::badSocksRequest(Reply::AddressTypeNotSupported, reason));
    }
    if (request.command != socks5::CommandConnect) {
        const QString reason =
            QStringLiteral("SOCKS command %1 is not supported; only CONNECT is").arg(request.command);
        return refuse(c, Refusal::badSocksRequest(Reply::CommandNotSupported, reason));
    }
    if (request.addressType == socks5::AddressDomain) {
        // A domain carrying a port or brackets would let the name say something else.
        const auto parsed = request.host.find_first_of(":[]") == std::string::npos
                                ? http::parseAuthority(request.host, request.port)
                                : std::nullopt;
        if (!parsed)
            return refuse(c, Refusal::badSocksRequest(Reply::GeneralFailure, QStringLiteral("invalid host name")));
        c.target = *parsed;
    }
    decide(c);
}

} // namespace paddock::proxy
