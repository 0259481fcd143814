// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/ProxyEngine.h"

#include "proxy/ProxyLoop.h"
#include "proxy/SocketAddress.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace paddock::proxy {
namespace {

constexpr int ListenBacklog = 1024;

QString systemError(const QString &what)
{
    return QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(strerror(errno)));
}

} // namespace

ProxyEngine::ProxyEngine(ProxyLimits limits) : m_loop(std::make_unique<ProxyLoop>(std::move(limits))) {}

ProxyEngine::~ProxyEngine()
{
    stop();
}

void ProxyEngine::setDecider(Decider decider)
{
    m_loop->setDecider(std::move(decider));
}

void ProxyEngine::setUpstreamProxy(std::shared_ptr<const UpstreamProxy> proxy)
{
    m_upstream = proxy;
    m_loop->setUpstreamProxy(std::move(proxy));
}

void ProxyEngine::setProgramClassifier(ProgramClassifier classifier)
{
    m_loop->setProgramClassifier(std::move(classifier));
}

void ProxyEngine::setEventSink(EventSink sink)
{
    m_loop->setEventSink(std::move(sink));
}

ResolveOverrides &ProxyEngine::resolveOverrides()
{
    return m_loop->overrides();
}

Result<void> ProxyEngine::start()
{
    return m_loop->start();
}

void ProxyEngine::stop()
{
    m_loop->stop();
}

bool ProxyEngine::isRunning() const
{
    return m_loop->running();
}

Result<ProxyEngine::EndpointId> ProxyEngine::addUnixEndpoint(const QString &path, const EndpointIdentity &identity)
{
    if (!m_loop->running())
        return fail(QStringLiteral("the proxy is not running"));
    const QByteArray native = path.toLocal8Bit();
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (native.isEmpty() || std::size_t(native.size()) >= sizeof address.sun_path)
        return fail(QStringLiteral("socket path too long or empty: %1").arg(path));
    std::memcpy(address.sun_path, native.constData(), std::size_t(native.size()));
    // A socket left by a previous run is replaced; anything else at that path is not touched.
    struct stat existing
    {};
    if (::lstat(native.constData(), &existing) == 0) {
        if (!S_ISSOCK(existing.st_mode))
            return fail(QStringLiteral("%1 exists and is not a socket").arg(path));
        ::unlink(native.constData());
    }
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd)
        return fail(systemError(QStringLiteral("cannot create a socket")));
    // Restrict before anyone can connect: the path appears at bind, the mode is set right after,
    // and listen() comes last, so no connection is accepted while the mode is still wider.
    if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::chmod(native.constData(), 0600) != 0 || ::listen(fd.get(), ListenBacklog) != 0) {
        return fail(systemError(QStringLiteral("cannot listen on %1").arg(path)));
    }
    return m_loop->addEndpoint(std::move(fd), path, identity);
}

Result<ProxyEngine::EndpointId> ProxyEngine::addTcpEndpoint(const QHostAddress &address, quint16 port,
                                                            const EndpointIdentity &identity, quint16 *boundPort)
{
    if (!m_loop->running())
        return fail(QStringLiteral("the proxy is not running"));
    sockaddr_storage storage{};
    socklen_t length = 0;
    if (!toSockaddr(address, port, storage, length))
        return fail(QStringLiteral("not an IP address: %1").arg(address.toString()));
    UniqueFd fd(::socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd)
        return fail(systemError(QStringLiteral("cannot create a socket")));
    const int one = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&storage), length) != 0 ||
        ::listen(fd.get(), ListenBacklog) != 0) {
        return fail(systemError(QStringLiteral("cannot listen on %1 port %2").arg(address.toString()).arg(port)));
    }
    if (boundPort) {
        sockaddr_storage bound{};
        socklen_t boundLength = sizeof bound;
        ::getsockname(fd.get(), reinterpret_cast<sockaddr *>(&bound), &boundLength);
        *boundPort = portOf(bound);
    }
    return m_loop->addEndpoint(std::move(fd), {}, identity);
}

void ProxyEngine::setTrustedClient(EndpointId id, long pid)
{
    m_loop->setTrustedClient(id, pid);
}

bool ProxyEngine::removeEndpoint(EndpointId id)
{
    return m_loop->removeEndpoint(id);
}

Result<void> ProxyEngine::setInterception(EndpointId id, InterceptionConfig config)
{
    std::shared_ptr<const Interception> interception;
    if (!config.rules.empty()) {
        Result<std::shared_ptr<const Interception>> made = Interception::create(std::move(config));
        if (!made)
            return made.error();
        interception = std::move(made).value();
    }
    if (!m_loop->setInterception(id, std::move(interception)))
        return fail(QStringLiteral("the proxy is not running"));
    return {};
}

bool ProxyEngine::setServices(EndpointId id, std::vector<ServiceRoute> services)
{
    return m_loop->setServices(
        id, services.empty() ? nullptr : std::make_shared<const std::vector<ServiceRoute>>(std::move(services)));
}

bool ProxyEngine::drainEvents(std::chrono::milliseconds timeout)
{
    return m_loop->drainEvents(timeout);
}

void ProxyEngine::recheck()
{
    m_loop->recheck();
}

void ProxyEngine::answer(std::vector<quint64> connections, HoldAnswer answer)
{
    m_loop->answer(std::move(connections), std::move(answer));
}

int ProxyEngine::connectionCount() const
{
    return m_loop->connectionCount();
}

quint64 ProxyEngine::droppedEvents() const
{
    return m_loop->droppedEvents();
}

} // namespace paddock::proxy
