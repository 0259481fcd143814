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

void setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
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

bool ProxyEngine::start(QString *error)
{
    return m_loop->start(error);
}

void ProxyEngine::stop()
{
    m_loop->stop();
}

bool ProxyEngine::isRunning() const
{
    return m_loop->running();
}

ProxyEngine::EndpointId ProxyEngine::addUnixEndpoint(const QString &path, const EndpointIdentity &identity,
                                                     QString *error)
{
    if (!m_loop->running()) {
        setError(error, QStringLiteral("the proxy is not running"));
        return 0;
    }
    const QByteArray native = path.toLocal8Bit();
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (native.isEmpty() || std::size_t(native.size()) >= sizeof address.sun_path) {
        setError(error, QStringLiteral("socket path too long or empty: %1").arg(path));
        return 0;
    }
    std::memcpy(address.sun_path, native.constData(), std::size_t(native.size()));
    // A socket left by a previous run is replaced; anything else at that path is not touched.
    struct stat existing
    {};
    if (::lstat(native.constData(), &existing) == 0) {
        if (!S_ISSOCK(existing.st_mode)) {
            setError(error, QStringLiteral("%1 exists and is not a socket").arg(path));
            return 0;
        }
        ::unlink(native.constData());
    }
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) {
        setError(error, systemError(QStringLiteral("cannot create a socket")));
        return 0;
    }
    // Restrict before anyone can connect: the path appears at bind, the mode is set right after,
    // and listen() comes last, so no connection is accepted while the mode is still wider.
    if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        ::chmod(native.constData(), 0600) != 0 || ::listen(fd.get(), ListenBacklog) != 0) {
        setError(error, systemError(QStringLiteral("cannot listen on %1").arg(path)));
        return 0;
    }
    return m_loop->addEndpoint(std::move(fd), path, identity);
}

ProxyEngine::EndpointId ProxyEngine::addTcpEndpoint(const QHostAddress &address, quint16 port,
                                                    const EndpointIdentity &identity, quint16 *boundPort,
                                                    QString *error)
{
    if (!m_loop->running()) {
        setError(error, QStringLiteral("the proxy is not running"));
        return 0;
    }
    sockaddr_storage storage{};
    socklen_t length = 0;
    if (!toSockaddr(address, port, storage, length)) {
        setError(error, QStringLiteral("not an IP address: %1").arg(address.toString()));
        return 0;
    }
    UniqueFd fd(::socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) {
        setError(error, systemError(QStringLiteral("cannot create a socket")));
        return 0;
    }
    const int one = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd.get(), reinterpret_cast<sockaddr *>(&storage), length) != 0 ||
        ::listen(fd.get(), ListenBacklog) != 0) {
        setError(error, systemError(QStringLiteral("cannot listen on %1 port %2").arg(address.toString()).arg(port)));
        return 0;
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

bool ProxyEngine::setInterception(EndpointId id, InterceptionConfig config, QString *error)
{
    std::shared_ptr<const Interception> interception;
    if (!config.rules.empty()) {
        interception = Interception::create(std::move(config), error);
        if (!interception)
            return false;
    }
    if (!m_loop->setInterception(id, std::move(interception))) {
        setError(error, QStringLiteral("the proxy is not running"));
        return false;
    }
    return true;
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
