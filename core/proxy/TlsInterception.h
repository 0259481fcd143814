// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/UniqueFd.h"
#include "proxy/InjectStream.h"
#include "proxy/InterceptionConfig.h"
#include "proxy/ProxyTypes.h"

#include <openssl/ssl.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace paddock::proxy {

/**
 * @brief An endpoint's interception settings made ready for use: the rules, and the two TLS
 * contexts (towards the sandbox, towards the real upstream) built once and shared by every
 * intercepted connection of the endpoint.
 */
class Interception
{
public:
    /** Checks @p config (formats, bundle) and builds the contexts. */
    static Result<std::shared_ptr<const Interception>> create(InterceptionConfig config);
    ~Interception();
    Interception(const Interception &) = delete;
    Interception &operator=(const Interception &) = delete;

    /** Whether TLS to @p host is terminated: it is an inject domain of some rule. */
    bool intercepts(const std::string &host) const;
    /**
     * Whether @p other adds the same credentials to requests for @p host, in the same headers
     * and formats: a tunnel intercepted with this one may go on under @p other.
     */
    bool injectsAlike(const Interception *other, const std::string &host) const;
    const InterceptionConfig &config() const { return m_config; }
    SSL_CTX *serverContext() const { return m_server; }
    SSL_CTX *clientContext() const { return m_client; }

private:
    Interception() = default;
    InterceptionConfig m_config;
    SSL_CTX *m_server = nullptr;
    SSL_CTX *m_client = nullptr;
};

/** @brief Everything an intercepted connection needs from the loop that accepted it. */
struct InterceptedSetup
{
    std::shared_ptr<const Interception> interception;
    int client = -1;   ///< connected, non-blocking; owned by the loop, not closed here
    int upstream = -1; ///< connected, non-blocking; owned by the loop, not closed here
    std::string host;  ///< the CONNECT host: the leaf's name and the upstream's expected name
    bool hostIsAddress = false;
    std::string greeting; ///< sent in clear before TLS ("200 Connection established")
    ProxyLimits limits;
    /** A template for events: identity, host, port, protocol and the policy rule filled in. */
    ProxyEvent eventTemplate;
    /** Called on the connection's thread; must be thread-safe. */
    std::function<void(ProxyEvent)> report;
    /** Decides each request (method and path rules); empty: every request goes as the tunnel did. */
    inject::RequestCheck checkRequest;
    /** Called on the connection's thread as its last act. */
    std::function<void()> finished;
};

/**
 * @brief One CONNECT whose TLS Paddock terminates to add a credential: TLS server towards the
 * sandbox with a leaf for the CONNECT host, TLS client towards the real host, and header
 * injection on each request in between. Responses are relayed as they are read, with every
 * credential that went upstream masked (inject::ResponseStream).
 *
 * Each runs on a thread of its own rather than in the epoll loop: issuing a leaf and fetching a
 * secret may block (a keychain), handshakes cost CPU, and the code reads top to bottom as the
 * protocol goes. Intercepted connections are few (API calls of bound credentials), so a thread
 * each is cheap. Inside, the sockets stay non-blocking and one poll() waits on both sockets and
 * a stop descriptor, so both directions stream at once and stop() is prompt.
 */
class InterceptedConnection
{
public:
    explicit InterceptedConnection(InterceptedSetup setup);
    /** Stops and joins the thread. */
    ~InterceptedConnection();
    InterceptedConnection(const InterceptedConnection &) = delete;
    InterceptedConnection &operator=(const InterceptedConnection &) = delete;

    /** Ends the connection and waits for its thread; not from the thread itself. */
    void stop();
    quint64 bytesUp() const { return m_bytesUp.load(); }
    quint64 bytesDown() const { return m_bytesDown.load(); }

private:
    struct Session;
    void run();

    InterceptedSetup m_setup;
    UniqueFd m_stopFd;
    std::atomic<quint64> m_bytesUp{0};
    std::atomic<quint64> m_bytesDown{0};
    std::thread m_thread;
};

} // namespace paddock::proxy
