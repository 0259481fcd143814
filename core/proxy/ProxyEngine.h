// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/InterceptionConfig.h"
#include "proxy/ProxyTypes.h"
#include "proxy/Resolver.h"
#include "proxy/UpstreamProxy.h"

#include <QHostAddress>
#include <QString>

#include <chrono>
#include <memory>

namespace paddock::proxy {

class ProxyLoop;

/**
 * @brief The egress proxy: endpoints, CONNECT / plain HTTP / SOCKS5 handling and the relay.
 *
 * Everything runs on one epoll thread owned by the engine (plus a few resolver threads and
 * one thread that delivers events). Every method here is thread-safe; the Qt side only starts
 * and stops the engine, adds and removes endpoints, and receives events through the sink.
 * Each endpoint carries the sandbox and kit it serves, so nothing the client sends can change
 * whose connection it is.
 *
 * Choices a reader should know:
 * - A host name is decided before it is resolved and again with its addresses: a refused name
 *   is never looked up, so DNS cannot carry data out, and the Decider can refuse names that
 *   resolve to private ranges.
 * - A tunnel to a port in ProxyLimits::sniCheckedPorts (443) connects upstream first, so an
 *   unreachable upstream still gets a 502/504 the client can show; then the client gets its
 *   200 and its first bytes are held until the ClientHello is complete. Nothing reaches the
 *   upstream before the check. A server name other than the target is refused ("SNI
 *   mismatch"); a ClientHello without one, or bytes that are not TLS, proceed, since the
 *   target itself was allowed and there is no other name to compare; a client that sends
 *   nothing within the header timeout (the server speaks first) proceeds too. A record that
 *   starts like TLS but does not parse is refused.
 * - Plain HTTP: every request is decided, and gets its own upstream connection (told to close
 *   after the response), so a request to another host on a kept-alive client connection
 *   never reuses an upstream. Request bodies need a Content-Length (chunked uploads get 411).
 * - A connection the Decider answers with Verdict::ask is held, unread and unresolved, until
 *   answer(), a rule change that decides it (recheck()), its client leaving, or
 *   ProxyLimits::askTimeout (then 403). Held and HoldEnded events bracket the wait. A sandbox
 *   has at most ProxyLimits::maxHeldPerEndpoint connections waiting; beyond, 503 at once.
 * - A tunnel to an inject domain of the endpoint's credentials (setInterception()) is not
 *   spliced: its TLS is terminated to add the credential, on a thread of its own
 *   (TlsInterception.h). Every other tunnel stays end to end.
 */
class ProxyEngine
{
public:
    using EndpointId = quint64;

    explicit ProxyEngine(ProxyLimits limits = {});
    /** Stops the engine if it runs. */
    ~ProxyEngine();
    ProxyEngine(const ProxyEngine &) = delete;
    ProxyEngine &operator=(const ProxyEngine &) = delete;

    /** Replaces the Decider; the next connection or request uses the new one. */
    void setDecider(Decider decider);
    /**
     * Sends the connections opened from now on through @p proxy, a corporate proxy on a network
     * where only it reaches out (null: straight out). The policy decides first, as ever.
     */
    void setUpstreamProxy(std::shared_ptr<const UpstreamProxy> proxy);
    /** The upstream proxy set last (null: straight out). */
    std::shared_ptr<const UpstreamProxy> upstreamProxy() const { return m_upstream; }
    /** Sets what tells where a named program's files come from; without it every origin is unknown. */
    void setProgramClassifier(ProgramClassifier classifier);
    /**
     * Asks the Decider again about every connection open now, as the next one would be asked
     * (after a rule change): those it refuses now are closed, each with a Denied event. Returns
     * at once; the loop does it next.
     */
    void recheck();
    /**
     * Answers held connections (ProxyEvent::Kind::Held names each by its `connection`): allowed
     * ones go on as if a rule allowed them, under @p answer's rule name (an address the policy
     * refuses once resolved is still refused); refused ones get a 403 (or SOCKS refusal) with
     * its rule, reason and fix. Ids no longer held are ignored. Returns at once.
     */
    void answer(std::vector<quint64> connections, HoldAnswer answer);
    /** Sets where events go. Only before start(). */
    void setEventSink(EventSink sink);
    /** Trusted host-to-address mappings consulted before DNS; editable at any time. */
    ResolveOverrides &resolveOverrides();

    /** Starts the threads and raises the soft open-file limit to the hard one. */
    Result<void> start();
    /** Closes every endpoint and connection, delivers queued events, joins the threads. */
    void stop();
    bool isRunning() const;

    /**
     * Listens on a unix socket at @p path (mode 0600; a stale socket there is replaced).
     */
    Result<EndpointId> addUnixEndpoint(const QString &path, const EndpointIdentity &identity);
    /** Listens on TCP; @p port 0 picks a free one, reported in @p boundPort. */
    Result<EndpointId> addTcpEndpoint(const QHostAddress &address, quint16 port, const EndpointIdentity &identity,
                                      quint16 *boundPort = nullptr);
    /**
     * The endpoint's clients whose peer process (SO_PEERCRED) is @p pid, a host pid, say which
     * program inside opened each connection (common/ClientProgram.h); every other client's preamble
     * is read and ignored. The sandbox's paddock-init is that process. 0: nobody is believed.
     */
    void setTrustedClient(EndpointId id, long pid);
    /**
     * Stops listening and closes the endpoint's connections. A unix endpoint's socket file is gone
     * when this returns; the rest happens on the proxy's thread without waiting for it (closing
     * an intercepted tunnel may wait for a key being read on the caller's thread).
     */
    bool removeEndpoint(EndpointId id);

    /**
     * Terminates TLS on the endpoint's tunnels to the inject domains of @p config's rules and
     * adds their credentials to requests (see TlsInterception.h); every other tunnel stays end
     * to end. Replaces the endpoint's earlier rules; no rules turns it off. A tunnel intercepted
     * already is closed unless the new rules add the same credentials to its host the same way.
     * Takes effect on the proxy's thread without waiting for it: connections accepted after
     * the call see the new rules. An error when the config is unusable or the proxy is not
     * running.
     */
    Result<void> setInterception(EndpointId id, InterceptionConfig config);

    /**
     * The endpoint's sandbox reaches each of @p services (a companion such as a dev database) at
     * its name and port: allowed without the Decider (an Allowed event names the rule
     * `service:HOST`), dialled at its address, never through the upstream proxy. Replaces the
     * earlier list; connections to a service no longer listed are closed. False when the proxy
     * is not running.
     */
    bool setServices(EndpointId id, std::vector<ServiceRoute> services);
    /**
     * Waits until every event of what the proxy did before the call (a refusal whose 403 a
     * client already has) has reached the sink, at most @p timeout: what a reader of the event
     * log calls first. False when it timed out or the proxy is not running.
     */
    bool drainEvents(std::chrono::milliseconds timeout = std::chrono::seconds(2));
    /** Client connections open right now, across endpoints. */
    int connectionCount() const;
    /** Events dropped because the sink fell too far behind. */
    quint64 droppedEvents() const;

private:
    std::unique_ptr<ProxyLoop> m_loop;
    std::shared_ptr<const UpstreamProxy> m_upstream;
};

} // namespace paddock::proxy
