// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/ClientProgram.h"
#include "common/UniqueFd.h"
#include "proxy/EventDispatcher.h"
#include "proxy/HttpParser.h"
#include "proxy/ProxyTypes.h"
#include "proxy/Refusal.h"
#include "proxy/Relay.h"
#include "proxy/Resolver.h"
#include "proxy/Socks5.h"
#include "proxy/TlsInterception.h"
#include "proxy/UpstreamProxy.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace paddock::proxy {

/** @brief A listening socket and whose it is. */
struct Endpoint
{
    quint64 id = 0;
    EndpointIdentity identity;
    UniqueFd fd;
    QString unixPath; ///< empty for TCP
    int clients = 0;
    int tunnels = 0;
    int held = 0; ///< connections in Phase::Held
    /** The host pid of the sandbox's paddock-init: the one peer whose preamble (common/ClientProgram.h) is believed. */
    long trustedClient = 0;
    /** Inject domains whose tunnels are intercepted (TLS terminated); null: none. */
    std::shared_ptr<const Interception> interception;
    /** The sandbox's companion services (ServiceRoute); null: none. */
    std::shared_ptr<const std::vector<ServiceRoute>> services;
};

/** @brief One client connection, from accept to close, and the upstream it leads to. */
struct Connection
{
    enum class Phase {
        Greeting,      ///< first byte not seen yet: HTTP or SOCKS5
        HttpHead,      ///< reading a request head
        SocksGreeting, ///< reading the SOCKS5 method list
        SocksRequest,  ///< reading the SOCKS5 request
        Held,          ///< waiting for a person's answer (Verdict::ask); nothing read or resolved meanwhile
        Resolving,
        Connecting,
        ProxyHandshake, ///< connected to the upstream proxy, opening the tunnel through it
        SniPeek,        ///< tunnel accepted, waiting for the ClientHello before relaying
        Tunnel,         ///< CONNECT or SOCKS5: bytes both ways
        HttpExchange,   ///< one plain-HTTP request and its response
        Closing,        ///< sending a last answer, then draining what the client still sends
        RefusalPeek,    ///< a refused captured client: its first bytes say in which protocol to tell it why
        Intercepted,    ///< a tunnel to an inject domain: both sockets belong to @ref interception
    };

    quint64 id = 0;
    std::shared_ptr<Endpoint> endpoint;
    UniqueFd client;
    UniqueFd upstream; ///< invalid until a connect is tried
    Phase phase = Phase::Greeting;
    Protocol protocol = Protocol::Http;
    std::chrono::steady_clock::time_point deadline;

    /** The client's peer process (SO_PEERCRED) on a unix endpoint; 0 on TCP. */
    long peerPid = 0;
    /** The preamble was read (or the client's first bytes showed there is none). */
    bool preambleDone = false;
    /** Who opened it inside the sandbox, as paddock-init said; unknown unless the peer was trusted. */
    ClientProgram program;
    /** The client's own socket, passed with the preamble; it replaces @ref client once the line is read. */
    UniqueFd handedOver;
    /**
     * Captured inside the sandbox: the client connected to @ref target itself (the preamble's
     * `to=`), not to a proxy. Nothing is sent before the upstream's own bytes, port 80 carries
     * origin-form HTTP requests, and a refusal speaks the port's protocol where it can.
     */
    bool captured = false;
    /** The refusal a captured connection waits to be told in its protocol (Phase::RefusalPeek). */
    std::optional<Refusal> pendingRefusal;

    std::string in;  ///< client bytes read but not consumed (a head, a greeting, a ClientHello)
    std::string out; ///< answers to the client outside the relay
    std::size_t outSent = 0;
    bool draining = false;
    std::size_t drained = 0;

    http::Authority target;
    http::ProxyRequest request;
    std::vector<QHostAddress> addresses;
    /** The upstream (corporate) proxy this connection goes through; null: straight to the target. */
    std::shared_ptr<const UpstreamProxy> via;
    /** Opening the tunnel through @ref via (Phase::ProxyHandshake), what is still to send, what came early. */
    std::unique_ptr<UpstreamHandshake> handshake;
    std::string handshakeOut;
    std::string early; ///< the target's first bytes, read with the proxy's answer
    std::size_t nextAddress = 0;
    int lastConnectError = 0;
    QString allowRule;
    bool holdsTunnel = false;
    /** A person allowed it while it was held: the policy's "ask" is taken as this answer. */
    bool answeredAllow = false;
    /** The verdict it is held with (Phase::Held): what a timeout refuses with. */
    Verdict held;
    /** A Held event went out and its HoldEnded has not yet. */
    bool holdReported = false;

    Flow up;   ///< client to upstream
    Flow down; ///< upstream to client
    std::string responseHead;
    bool responseHeadDone = false;
    bool keepClientAlive = false;

    /** A plain-HTTP request was read and its record (ProxyEvent::Kind::Request) is still to go out. */
    bool recordPending = false;
    std::chrono::steady_clock::time_point requestStarted;
    int responseStatus = 0; ///< of the current exchange's final response; 0 until it came
    /** Bytes of the exchange the proxy queued itself (heads, what came with them); the flows count the rest. */
    std::uint64_t queuedUp = 0;
    std::uint64_t queuedDown = 0;

    /** The events each socket is registered for; Detached when it is out of the epoll set. */
    static constexpr std::uint32_t Detached = 0xffffffff;
    std::uint32_t clientMask = 0;
    std::uint32_t upstreamMask = 0;

    /** Runs the intercepted tunnel on its own thread; the sockets stay owned by this connection. */
    std::unique_ptr<InterceptedConnection> interception;
    /** The endpoint's interception the tunnel started with: its credentials are the ones added. */
    std::shared_ptr<const Interception> interceptedWith;

    /** Closed: its sockets are gone and it waits for the end of the event batch to be destroyed. */
    bool closed = false;
};

/** @brief The engine's thread: epoll, endpoints, connections. Only ProxyEngine uses it. */
class ProxyLoop
{
public:
    explicit ProxyLoop(ProxyLimits limits);
    ~ProxyLoop();

    void setDecider(Decider decider);
    void setProgramClassifier(ProgramClassifier classifier);
    /** Sends every connection from the next one on through @p proxy (null: straight out). */
    void setUpstreamProxy(std::shared_ptr<const UpstreamProxy> proxy);
    void setEventSink(EventSink sink) { m_sink = std::move(sink); }
    ResolveOverrides &overrides() { return m_overrides; }

    Result<void> start();
    void stop();
    bool running() const { return m_running.load(); }

    quint64 addEndpoint(UniqueFd fd, const QString &unixPath, const EndpointIdentity &identity);
    /**
     * Removes the endpoint's socket file at once; stops listening and closes its connections on
     * the loop's next turn (not waited for). False when the loop is not running.
     */
    bool removeEndpoint(quint64 id);
    /**
     * Sets which tunnels of the endpoint are intercepted, from the loop's next turn (not waited
     * for; an endpoint removed meanwhile is left alone). Intercepted tunnels whose credentials
     * it no longer adds alike are closed. False when the loop is not running.
     */
    bool setInterception(quint64 id, std::shared_ptr<const Interception> interception);
    /** Replaces the endpoint's companion services; open connections to a removed one are closed. */
    bool setServices(quint64 id, std::shared_ptr<const std::vector<ServiceRoute>> services);
    /** Believes the preamble (common/ClientProgram.h) of the endpoint's clients whose peer is process @p pid (0: nobody). */
    void setTrustedClient(quint64 id, long pid);
    /** Decides every open connection again; those the Decider now refuses are closed. */
    void recheck();
    /** Answers the held connections among @p connections; the others are ignored (answered already). */
    void answer(std::vector<quint64> connections, HoldAnswer answer);
    int connectionCount() const { return m_connectionCount.load(); }
    quint64 droppedEvents() const { return m_events ? m_events->dropped() : 0; }
    /** Waits until the loop's current turn has ended and its events reached the sink (see ProxyEngine). */
    bool drainEvents(std::chrono::milliseconds timeout);
    const ProxyLimits &limits() const { return m_limits; }

private:
    using Clock = std::chrono::steady_clock;

    void run();
    /** Whether the caller is the loop's thread, the only one that touches connections and endpoints. */
    bool isLoopThread() const { return std::this_thread::get_id() == m_loopThread.load(); }
    void post(std::function<void()> command);
    void runCommands();
    void wake();
    void sweepDeadlines();
    /** Queues an event of this turn (loop thread only); see @ref m_turnEvents. */
    void postEvent(ProxyEvent event) { m_turnEvents.push_back(std::move(event)); }

    void accept(Endpoint &endpoint);
    void onClientEvent(Connection &c, std::uint32_t events);
    void onUpstreamEvent(Connection &c, std::uint32_t events);
    void collectResolutions();

    enum class ReadResult {
        Open,
        Ended,
        Failed
    };
    ReadResult readClient(Connection &c, std::size_t limit);
    void processInput(Connection &c);
    /** recv() that also takes a socket passed with the bytes (unix endpoints, before the preamble). */
    ssize_t receiveFromUnixClient(Connection &c, char *buffer, std::size_t size);
    /** Reads paddock-init's preamble, if the connection starts with one; false while it is incomplete. */
    bool readPreamble(Connection &c);
    /** @p program with the origins of its files, as the classifier tells them for @p c's sandbox. */
    ClientProgram classified(const Connection &c, ClientProgram program) const;
    /** Makes the socket passed with the preamble the connection's client; false when it is not one. */
    bool takeHandedOverSocket(Connection &c);
    /** A captured connection's destination, from the preamble; false when the proxy cannot serve it. */
    bool takeDestination(Connection &c, const preamble::Destination &to);
    /** Records what paddock-init reports it refused inside the sandbox (a datagram, a name), then closes. */
    void recordReport(Connection &c, const preamble::Destination &to);
    /** Goes on with a captured connection once its destination is known: HTTP on port 80, else decided now. */
    void startCaptured(Connection &c);
    /**
     * A refused captured connection: told why at once where the port's protocol has the server
     * speak first, else once its first bytes (or a moment without any) say what it speaks.
     */
    void refuseCaptured(Connection &c, const Refusal &refusal, bool tunnelOpen);
    /** Tells a refused captured client why in its protocol (@ref Connection::in holds its first bytes), or resets it. */
    void answerCapturedRefusal(Connection &c);
    void processHttpHead(Connection &c);
    void processSocksGreeting(Connection &c);
    void processSocksRequest(Connection &c);

    void decide(Connection &c);
    /** After the name itself was allowed: trusted overrides, else the resolver. */
    void lookUp(Connection &c);
    Verdict ask(const Connection &c) const;
    /** The endpoint's companion service @p c dials (its host and port), or null. */
    const ServiceRoute *serviceFor(const Connection &c) const;
    /** Who asks for what: the endpoint's identity, the target, the protocol, the addresses. */
    static ConnectionQuery queryOf(const Connection &c);
    /** What @p decider answers for @p query; a refusal when there is none or it throws. */
    static Verdict consult(const std::shared_ptr<const Decider> &decider, const ConnectionQuery &query);
    /** Waits for a person's answer (Verdict::ask) until the ask timeout; reports it as Held. */
    void hold(Connection &c, const Verdict &verdict);
    /** Reports the end of a hold, once, when @p c leaves Phase::Held for whatever reason. */
    void endHold(Connection &c);
    /** Goes on with a held connection that was allowed, from where it was held. */
    void resumeHeld(Connection &c, const QString &rule);
    /** Nobody answered in time: refused (403), or let through when the policy says so. */
    void holdExpired(Connection &c);
    /** Re-decides a held connection after a policy change: a rule may now cover it. */
    void recheckHeld(Connection &c);
    void afterResolution(Connection &c);
    void connectUpstream(Connection &c);
    void tryNextAddress(Connection &c);
    void onUpstreamConnected(Connection &c);
    /** The upstream proxy @p c should go through now, if any (UpstreamProxy::carries()). */
    std::shared_ptr<const UpstreamProxy> upstreamProxyFor(const Connection &c) const;
    /** Connected to the upstream proxy: a plain-HTTP request goes as it is, anything else opens a tunnel first. */
    void startProxyHandshake(Connection &c);
    /** The upstream proxy sent or can take bytes during the handshake. */
    void onProxyHandshakeEvent(Connection &c, std::uint32_t events);
    /** Sends what the handshake still has to send; false when the socket failed. */
    bool flushHandshake(Connection &c);
    void checkClientHello(Connection &c);
    void startTunnel(Connection &c);
    bool startInterception(Connection &c);
    /** How an intercepted tunnel of @p c has each of its requests decided (method and path rules). */
    inject::RequestCheck requestCheck(const Connection &c) const;
    void startHttpExchange(Connection &c);
    void readResponseHead(Connection &c);
    /** Relays what the events on the client and upstream sockets allow; all flows by default. */
    void pumpFlows(Connection &c, std::uint32_t clientEvents = ~0u, std::uint32_t upstreamEvents = ~0u);
    void finishHttpExchange(Connection &c);
    /** Reports the record of @p c's current plain-HTTP request, once; nothing when none is pending. */
    void recordRequest(Connection &c, int status, const QString &rule, bool refused, const QString &reason);
    /** The decider as it is now, for an intercepted connection's own thread. */
    std::shared_ptr<const Decider> currentDecider() const;
    void onTimeout(Connection &c);
    /** Whether @p c holds an upstream the Decider allowed (or is connecting to one). */
    static bool holdsAllowedUpstream(const Connection &c);
    /** Ends @p c, which was allowed, with a Denied event saying @p reason. */
    void revoke(Connection &c, const QString &rule, const QString &reason);

    /** Reports @p refusal, answers the client if it still expects an answer, then closes. */
    void refuse(Connection &c, const Refusal &refusal);
    void sendHttpError(Connection &c, const Refusal &refusal);
    void writeClient(Connection &c, std::string_view bytes);
    bool flushOut(Connection &c);
    void beginClosing(Connection &c);
    void updateInterest(Connection &c);
    /** Changes what @p fd is watched for; false (logged) when epoll refused, and the caller closes. */
    bool setMask(int fd, std::uint32_t &current, std::uint32_t wanted, quint64 tag, bool detachWhenIdle);
    /** epoll_ctl on the loop's set, logged when it fails. */
    bool epollControl(int operation, int fd, std::uint32_t events, quint64 data);
    void releaseUpstream(Connection &c);
    /** Ends @p c at once (sockets, counters, events); the object lives on until the batch ends. */
    void close(Connection &c);
    /** Destroys the connections closed during the event batch just handled. */
    void destroyClosed();
    ProxyEvent eventOf(const Connection &c, ProxyEvent::Kind kind, const QString &rule, const QString &reason) const;
    void emitEvent(const Connection &c, ProxyEvent::Kind kind, const QString &rule, const QString &reason);

    ProxyLimits m_limits;
    ResolveOverrides m_overrides;
    EventSink m_sink;
    mutable std::mutex m_deciderMutex;
    std::shared_ptr<const Decider> m_decider;
    std::shared_ptr<const ProgramClassifier> m_classifier; ///< under m_deciderMutex too
    std::shared_ptr<const UpstreamProxy> m_upstreamProxy;  ///< under m_deciderMutex too

    UniqueFd m_epoll;
    UniqueFd m_wakeFd;
    UniqueFd m_reserveFd; ///< given up when out of descriptors, to accept and close
    std::thread m_thread;
    std::atomic<std::thread::id> m_loopThread{}; ///< set by run() while it runs
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_stopRequested{false};
    std::mutex m_commandMutex;
    std::vector<std::function<void()>> m_commands;
    std::atomic<quint64> m_nextEndpointId{1};
    std::atomic<int> m_connectionCount{0};

    std::unique_ptr<EventDispatcher> m_events;
    /** Events of the loop's current turn, handed to @ref m_events together when the turn ends. */
    std::vector<ProxyEvent> m_turnEvents;
    std::unique_ptr<ResolverPool> m_resolver;
    std::unordered_map<quint64, std::shared_ptr<Endpoint>> m_endpoints;
    /** The socket files of unix endpoints, for removeEndpoint() on its caller's thread. */
    std::mutex m_unixPathMutex;
    std::unordered_map<quint64, QString> m_unixPaths;
    std::unordered_map<quint64, std::unique_ptr<Connection>> m_connections;
    /** Closed during the current event batch; destroyed once the batch is handled. */
    std::vector<std::unique_ptr<Connection>> m_closed;
    quint64 m_nextConnectionId = 1;
    Clock::time_point m_now;
    Clock::time_point m_nextSweep;
};

} // namespace paddock::proxy
