// SPDX-License-Identifier: GPL-3.0-or-later
// The loop's endpoints and what they allow: adding and removing them, the trusted client, the
// companion services, the interception, and rechecking open connections when a decision changes.
#include "proxy/ProxyLoopInternal.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <future>

namespace paddock::proxy {

using namespace loop;

quint64 ProxyLoop::addEndpoint(UniqueFd fd, const QString &unixPath, const EndpointIdentity &identity)
{
    auto endpoint = std::make_shared<Endpoint>();
    endpoint->id = m_nextEndpointId++;
    endpoint->identity = identity;
    endpoint->fd = std::move(fd);
    endpoint->unixPath = unixPath;
    const quint64 id = endpoint->id;
    if (!unixPath.isEmpty()) {
        const std::lock_guard lock(m_unixPathMutex);
        m_unixPaths.emplace(id, unixPath);
    }
    post([this, endpoint] {
        // A listener the loop cannot watch is closed, so clients are refused at once rather than
        // left waiting; the endpoint stays known so that removing it still cleans up.
        if (!epollControl(EPOLL_CTL_ADD, endpoint->fd.get(), EPOLLIN, tag(endpoint->id, ListenerTag))) {
            qCWarning(lcProxy) << "cannot listen for sandbox" << endpoint->identity.sandbox;
            endpoint->fd.reset();
        }
        m_endpoints.emplace(endpoint->id, endpoint);
    });
    return id;
}

bool ProxyLoop::removeEndpoint(quint64 id)
{
    if (!m_running)
        return false;
    // The socket file goes now, on the caller's thread: nobody connects to it from here on, and
    // an endpoint the caller makes again at the same path next is not unlinked later by this.
    QString unixPath;
    {
        const std::lock_guard lock(m_unixPathMutex);
        if (const auto it = m_unixPaths.find(id); it != m_unixPaths.end()) {
            unixPath = it->second;
            m_unixPaths.erase(it);
        }
    }
    if (!unixPath.isEmpty())
        ::unlink(unixPath.toLocal8Bit().constData());
    // The rest is not waited for, as with setInterception(): closing an intercepted tunnel
    // joins its thread, which may be waiting for the caller's thread.
    post([this, id] {
        const auto it = m_endpoints.find(id);
        if (it == m_endpoints.end())
            return;
        const std::shared_ptr<Endpoint> endpoint = it->second;
        m_endpoints.erase(it);
        endpoint->fd.reset();
        std::vector<Connection *> owned;
        for (auto &[connectionId, connection] : m_connections) {
            if (connection->endpoint == endpoint)
                owned.push_back(connection.get());
        }
        for (Connection *connection : owned)
            close(*connection);
    });
    return true;
}

void ProxyLoop::setTrustedClient(quint64 id, long pid)
{
    post([this, id, pid] {
        if (const auto it = m_endpoints.find(id); it != m_endpoints.end())
            it->second->trustedClient = pid;
    });
}

bool ProxyLoop::setServices(quint64 id, std::shared_ptr<const std::vector<ServiceRoute>> services)
{
    if (!m_running)
        return false;
    post([this, id, services = std::move(services)] {
        const auto it = m_endpoints.find(id);
        if (it == m_endpoints.end())
            return;
        it->second->services = services;
        std::vector<Connection *> gone;
        for (auto &[connectionId, connection] : m_connections) {
            Connection &c = *connection;
            if (c.endpoint == it->second && c.allowRule.startsWith(QLatin1String("service:")) && !serviceFor(c))
                gone.push_back(&c);
        }
        for (Connection *c : gone)
            revoke(*c, QStringLiteral("service"),
                   QStringLiteral("the service %1 of this sandbox was removed").arg(qs(c->target.host)));
    });
    return true;
}

bool ProxyLoop::setInterception(quint64 id, std::shared_ptr<const Interception> interception)
{
    if (!m_running)
        return false;
    // Not waited for: closing a stale tunnel joins its thread, which may itself be waiting for
    // the caller's thread (a key read from the keychain there); a caller waiting here would
    // hold both until the keychain gave up. Commands run in order, so whatever the caller
    // does to the loop next sees the new interception.
    post([this, id, interception = std::move(interception)] {
        const auto it = m_endpoints.find(id);
        if (it == m_endpoints.end())
            return;
        it->second->interception = interception;
        // A tunnel already intercepted goes on only while the same credentials are added the
        // same way: a binding revoked takes its key out of the tunnels open now too.
        std::vector<Connection *> stale;
        for (auto &[connectionId, connection] : m_connections) {
            const Connection &c = *connection;
            if (c.endpoint == it->second && c.phase == Phase::Intercepted &&
                !(interception && c.interceptedWith &&
                  c.interceptedWith->injectsAlike(interception.get(), c.target.host)))
                stale.push_back(connection.get());
        }
        for (Connection *c : stale)
            revoke(
                *c, QStringLiteral("credentials"),
                QStringLiteral("the credentials added to %1 changed; the tunnel was closed").arg(qs(c->target.host)));
    });
    return true;
}

void ProxyLoop::recheck()
{
    if (!m_running)
        return;
    post([this] {
        std::vector<std::pair<Connection *, Verdict>> refused;
        std::vector<Connection *> held;
        for (auto &[id, connection] : m_connections) {
            if (connection->phase == Phase::Held)
                held.push_back(connection.get());
            if (!holdsAllowedUpstream(*connection))
                continue;
            Verdict verdict = ask(*connection);
            if (!verdict.allowed)
                refused.emplace_back(connection.get(), std::move(verdict));
        }
        for (auto &[c, verdict] : refused)
            revoke(*c, verdict.rule, QStringLiteral("closed when the policy changed: %1").arg(verdict.reason));
        for (Connection *c : held) // a new rule may answer what a person was asked
            recheckHeld(*c);
    });
}

bool ProxyLoop::holdsAllowedUpstream(const Connection &c)
{
    switch (c.phase) {
    case Phase::Connecting:
    case Phase::ProxyHandshake:
    case Phase::SniPeek:
    case Phase::Tunnel:
    case Phase::HttpExchange:
    case Phase::Intercepted:
        return !c.closed;
    default:
        return false;
    }
}

void ProxyLoop::revoke(Connection &c, const QString &rule, const QString &reason)
{
    qCInfo(lcProxy).noquote() << "sandbox" << c.endpoint->identity.sandbox << reason;
    emitEvent(c, Kind::Denied, rule, reason);
    close(c);
}

} // namespace paddock::proxy
