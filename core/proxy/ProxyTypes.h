// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/ClientProgram.h"

#include <QDateTime>
#include <QHostAddress>
#include <QString>

#include <string>

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace paddock::proxy {

/** @brief How a sandbox asked for a connection. */
enum class Protocol {
    Connect,
    Http,
    Socks,
    Tcp, ///< a connection captured inside the sandbox, to any port (app/init/Capture.h)
    Udp, ///< a datagram capture refused: reported, never forwarded
    Dns, ///< a captured connection to a name server (port 53 or 853), or a name the sandbox's resolver refused
};

/** "connect", "http", "socks", "tcp", "udp" or "dns": the names events and the policy log use. */
QString protocolName(Protocol protocol);

/** @brief Who an endpoint belongs to. Set by whoever creates the endpoint, never by the client. */
struct EndpointIdentity
{
    QString sandbox;
    QString kit;
};

/**
 * @brief A companion service of one sandbox (a dev database beside it): its name and port as the
 * sandbox dials them, and the address the proxy reaches it at. Allowed for that sandbox only,
 * without asking the policy, and reached directly (never through an upstream proxy).
 */
struct ServiceRoute
{
    std::string host; ///< lower case, as the sandbox names it: "postgres"
    quint16 port = 0;
    QHostAddress address;
};

/**
 * @brief One connection the proxy is about to make on behalf of a sandbox.
 *
 * The proxy asks twice for a host name: first with no addresses (so a refused name is never
 * even looked up, and a lookup cannot leak data through DNS), then with the addresses it
 * resolved to. An IP literal is asked about once, with itself as the only address.
 */
struct ConnectionQuery
{
    QString sandbox;
    QString kit;
    QString host; ///< lower case, no trailing dot; an IP literal without brackets
    quint16 port = 0;
    Protocol protocol = Protocol::Connect;
    std::vector<QHostAddress> addresses; ///< empty while not resolved yet
    /** The program inside that opened the connection, when paddock-init said so (common/ClientProgram.h). */
    ClientProgram program;
    /**
     * For one HTTP request the proxy sees (plain HTTP, or inside a tunnel whose TLS it
     * terminates): its method and target as sent. Empty when asking about a connection.
     */
    QString method;
    QString target;
    /** For a connection: each of its requests will be seen and asked about (see method). */
    bool seesRequests = false;
};

/** @brief The answer to a ConnectionQuery. */
struct Verdict
{
    bool allowed = false;
    QString rule;   ///< the rule that decided, or the default ("default deny")
    QString reason; ///< one sentence a person understands
    QString fix;    ///< the exact command that would allow it; empty when allowed
    /**
     * No rule covers the destination and its sandbox asks rather than refuses: the proxy holds
     * the connection (reporting it as Held) until ProxyEngine::answer() or the ask timeout.
     * Only with allowed false; @ref rule and @ref reason then say what the timeout refuses with.
     */
    bool ask = false;
    std::chrono::milliseconds askFor{0}; ///< ask: how long to hold; 0: ProxyLimits::askTimeout
    bool allowUnanswered = false;        ///< ask: let it through when nobody answers in time (else 403)
};

/**
 * @brief Decides one connection. Called on the proxy's thread for every connection and every
 * plain-HTTP request, never cached: it must be synchronous, cheap and thread-safe.
 */
using Decider = std::function<Verdict(const ConnectionQuery &)>;

/**
 * @brief Tells where the files of a program that paddock-init named come from (the origins of
 * ClientProgram), for the sandbox of an endpoint. Called on the proxy's thread once for each
 * connection whose program is believed; it must be cheap and thread-safe.
 */
using ProgramClassifier = std::function<void(const EndpointIdentity &, ClientProgram &)>;

/** @brief Something the proxy did that the event log and the live view want to know. */
struct ProxyEvent
{
    enum class Kind {
        Allowed,        ///< a connection or request was allowed and the upstream answered
        Denied,         ///< refused by the Decider, by the SNI check, or by a limit
        UpstreamFailed, ///< allowed, but the name did not resolve or the upstream did not answer
        Closed,         ///< an allowed connection ended; carries the byte counts
        Held,           ///< waiting for a person's answer (Verdict::ask) until @ref deadline
        HoldEnded,      ///< a Held connection was answered, timed out, or its client left
        /**
         * One HTTP request the proxy saw (plain HTTP, or TLS it terminates) and what came of it:
         * @ref method, @ref path, @ref status, the bytes of this exchange, @ref duration.
         */
        Request,
    };

    QDateTime time; ///< UTC
    QString sandbox;
    QString kit;
    QString host;
    quint16 port = 0;
    Protocol protocol = Protocol::Connect;
    Kind kind = Kind::Allowed;
    QString rule;
    QString reason;
    quint64 bytesUp = 0;    ///< sandbox to upstream
    quint64 bytesDown = 0;  ///< upstream to sandbox
    quint64 connection = 0; ///< the proxy's id of the client connection: what ProxyEngine::answer() names
    QDateTime deadline;     ///< Held: when the proxy stops waiting and refuses
    ClientProgram program;  ///< who opened the connection inside the sandbox; pid 0 when not known

    // Request only. Never a header value: the path keeps no query (policy::redactedTarget()).
    QString method;
    QString path;
    int status = 0;                        ///< the response's, or the proxy's own answer; 0: none came
    std::chrono::milliseconds duration{0}; ///< from the request head to the end of the response
    bool refused = false;                  ///< the proxy answered it itself (policy, limit, protocol)
};

/** @brief A person's answer to a held connection (ProxyEngine::answer()). */
struct HoldAnswer
{
    bool allow = false;
    QString rule;   ///< what the events name as the deciding rule
    QString reason; ///< for a refusal: the sentence the 403 and the event carry
    QString fix;    ///< for a refusal: the command that would allow it
};

/** "allowed", "denied", "upstream-failed", "closed", "held" or "hold-ended". */
QString eventKindName(ProxyEvent::Kind kind);

/**
 * @brief Receives events on the proxy's event thread, in order. It may block briefly (a
 * database insert); the relay does not wait for it.
 */
using EventSink = std::function<void(const ProxyEvent &)>;

/** @brief Every bound the proxy enforces; all configurable. */
struct ProxyLimits
{
    std::size_t maxRequestHeaderBytes = 16 * 1024;    ///< larger request heads get 431
    std::size_t maxResponseHeaderBytes = 64 * 1024;   ///< larger upstream heads get 502
    std::chrono::milliseconds headerTimeout{10'000};  ///< to receive a request head (and a ClientHello)
    std::chrono::milliseconds connectTimeout{10'000}; ///< name resolution plus TCP connect, then 504
    std::chrono::milliseconds idleTimeout{300'000};   ///< no bytes either way on a tunnel or keep-alive
    std::chrono::milliseconds askTimeout{30'000};     ///< a held connection (Verdict::ask) waits this long, then 403
    int maxTunnelsPerEndpoint = 2048;                 ///< upstream connections at once; beyond, 503
    int maxClientsPerEndpoint = 4096;                 ///< client connections at once; beyond, closed at accept
    int maxHeldPerEndpoint = 256; ///< connections waiting for an answer (Verdict::ask) at once; beyond, 503
    int pipeSize = 64 * 1024;     ///< splice pipe capacity per direction (a bulk flow moves to a buffer, see Flow)
    int resolverThreads = 8;
    int lookupsPerEndpoint = 2;                ///< name lookups of one sandbox running at once
    std::size_t queuedLookupsPerEndpoint = 64; ///< waiting beyond those; more get 503
    /** Tunnels to these ports must start with a TLS ClientHello whose SNI (if any) is the target. */
    std::vector<quint16> sniCheckedPorts{443};
    /** Captured connections to these ports carry plain HTTP: each request is decided and recorded. */
    std::vector<quint16> plainHttpPorts{80};
};

} // namespace paddock::proxy
