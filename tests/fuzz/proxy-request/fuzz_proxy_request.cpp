// SPDX-License-Identifier: GPL-3.0-or-later
// Everything a sandbox can send before the relay starts goes through these parsers: an HTTP
// request head (and its proxy interpretation), a SOCKS5 greeting and request, and the first
// TLS records of a tunnel. Upstream response heads share the header parser, and whatever an
// upstream sends on an intercepted connection goes through the credential mask.
#include "proxy/ClientHello.h"
#include "proxy/HttpParser.h"
#include "proxy/ResponseStream.h"
#include "proxy/Socks5.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace paddock::proxy;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);

    http::RequestHead head;
    if (http::parseRequestHead(input, 16 * 1024, head) == http::ParseStatus::Complete) {
        if (head.size > size || head.size > 16 * 1024)
            __builtin_trap();
        http::ProxyRequest request;
        if (!http::interpretRequest(head, request) && request.kind == http::ProxyRequest::Kind::Forward) {
            // What goes upstream must itself be one well-formed head, ending where it says.
            http::RequestHead forwarded;
            if (http::parseRequestHead(request.upstreamHead, request.upstreamHead.size() + 1, forwarded) !=
                    http::ParseStatus::Complete ||
                forwarded.size != request.upstreamHead.size())
                __builtin_trap();
            http::ResponseHead response;
            if (http::parseResponseHead(input, 64 * 1024, response) == http::ParseStatus::Complete)
                http::rewriteResponseHead(response, request);
        }
    }
    http::ResponseHead response;
    if (http::parseResponseHead(input, 64 * 1024, response) == http::ParseStatus::Complete) {
        const http::ResponseRewrite rewrite = http::rewriteResponseHead(response, http::ProxyRequest());
        http::ResponseHead again;
        if (http::parseResponseHead(rewrite.head, rewrite.head.size() + 1, again) != http::ParseStatus::Complete)
            __builtin_trap();
    }
    http::parseAuthority(input, 0);

    socks5::Greeting greeting;
    if (socks5::parseGreeting(input, greeting) == socks5::ParseStatus::Complete) {
        socks5::Request request;
        if (socks5::parseRequest(input.substr(greeting.size), request) == socks5::ParseStatus::Complete &&
            request.size > size - greeting.size)
            __builtin_trap();
    }

    // The mask changes no length, and what comes out does not depend on how the bytes were read.
    std::string whole;
    std::string trickled;
    inject::ResponseStream once(64 * 1024);
    inject::ResponseStream inPieces(64 * 1024);
    for (inject::ResponseStream *stream : {&once, &inPieces}) {
        stream->addSecret("sk-fuzz", "proxy-managed");
        stream->expectResponseTo("GET");
        stream->expectResponseTo("HEAD");
    }
    once.feed(input, whole);
    once.finish(whole);
    for (std::size_t at = 0; at < size; at += 3)
        inPieces.feed(input.substr(at, 3), trickled);
    inPieces.finish(trickled);
    if (whole.size() != size || whole != trickled)
        __builtin_trap();

    const tls::ClientHelloInfo hello = tls::parseClientHello(input);
    if (hello.status == tls::ClientHelloInfo::Status::Sni && hello.serverName.empty())
        __builtin_trap();
    return 0;
}
