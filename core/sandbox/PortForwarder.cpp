// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/PortForwarder.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLoggingCategory>
#include <QPointer>
#include <QSet>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QTimer>

#include <array>
#include <cerrno>
#include <functional>
#include <map>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcPorts, "paddock.sandbox.ports", QtInfoMsg)

namespace paddock::sandbox {
namespace {

/** How long a host client waits for paddock-init to offer a connection. */
constexpr int kClientWaitMs = 10000;
/** How long a connection from the sandbox may take to say which port it serves. */
constexpr int kGreetingWaitMs = 10000;
/** Idle connections kept per port; paddock-init keeps two, more are a sandbox misbehaving. */
constexpr qsizetype kMaxIdlePerPort = 8;
/**
 * Connections from the sandbox that have not said their port yet. paddock-init says it at
 * once; a sandbox that opens connections and says nothing is turned away beyond this, so
 * it cannot hold the daemon's descriptors, only delay its own ports.
 */
constexpr qsizetype kMaxUngreeted = 16;
/** Host clients waiting for a connection to one port; more are closed at once. */
constexpr qsizetype kMaxWaitingPerPort = 64;
constexpr qsizetype kMaxGreetingBytes = 32;
constexpr char kConnectByte = 'C';

void setNonBlocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/**
 * @brief Joins two non-blocking sockets both ways until both directions have ended, then
 * deletes itself. An end of stream is passed on as a half-close, so a client that shuts its
 * writing side still gets the answer.
 */
class Link : public QObject
{
public:
    Link(int a, int b, QObject *parent) : QObject(parent), m_fd{a, b}
    {
        for (int i = 0; i < 2; ++i) {
            m_read[i] = new QSocketNotifier(m_fd[i], QSocketNotifier::Read, this);
            m_write[i] = new QSocketNotifier(m_fd[i], QSocketNotifier::Write, this);
            connect(m_read[i], &QSocketNotifier::activated, this, &Link::pump);
            connect(m_write[i], &QSocketNotifier::activated, this, &Link::pump);
        }
        pump();
    }
    ~Link() override
    {
        for (int fd : m_fd)
            ::close(fd);
    }

private:
    struct Direction
    {
        std::array<char, 64 * 1024> data;
        size_t begin = 0;
        size_t end = 0;
        bool eof = false;
        bool pending() const { return begin < end; }
    };

    /** Moves what it can from @p from to @p to; false when the connection is broken. */
    static bool transfer(int from, int to, Direction &dir)
    {
        for (;;) {
            if (dir.pending()) {
                const ssize_t written = ::send(to, dir.data.data() + dir.begin, dir.end - dir.begin, MSG_NOSIGNAL);
                if (written < 0)
                    return errno == EAGAIN || errno == EINTR;
                dir.begin += size_t(written);
                if (dir.pending())
                    continue;
            }
            dir.begin = dir.end = 0;
            if (dir.eof)
                return true;
            const ssize_t got = ::read(from, dir.data.data(), dir.data.size());
            if (got < 0)
                return errno == EAGAIN || errno == EINTR;
            if (got == 0) {
                dir.eof = true;
                ::shutdown(to, SHUT_WR);
                return true;
            }
            dir.end = size_t(got);
        }
    }

    void pump()
    {
        if (m_finished)
            return;
        const bool ok = transfer(m_fd[0], m_fd[1], m_dir[0]) && transfer(m_fd[1], m_fd[0], m_dir[1]);
        const bool done = m_dir[0].eof && m_dir[1].eof && !m_dir[0].pending() && !m_dir[1].pending();
        if (!ok || done) {
            m_finished = true;
            for (int i = 0; i < 2; ++i) {
                m_read[i]->setEnabled(false);
                m_write[i]->setEnabled(false);
            }
            deleteLater();
            return;
        }
        // Read a side only once its previous chunk is written (that is the back-pressure);
        // wait for writability only while something is waiting to be written.
        for (int i = 0; i < 2; ++i) {
            m_read[i]->setEnabled(!m_dir[i].eof && !m_dir[i].pending());
            m_write[i]->setEnabled(m_dir[1 - i].pending());
        }
    }

    int m_fd[2];
    Direction m_dir[2]; ///< [0]: a -> b, [1]: b -> a
    QSocketNotifier *m_read[2];
    QSocketNotifier *m_write[2];
    bool m_finished = false;
};

/** @brief A connection from paddock-init: first its greeting, then an idle wait for a client. */
class Channel : public QObject
{
public:
    std::function<void(Channel *, quint16)> onGreeted;
    std::function<void(Channel *)> onGone;

    Channel(int fd, QObject *parent)
        : QObject(parent), m_fd(fd), m_notifier(new QSocketNotifier(fd, QSocketNotifier::Read, this))
    {
        setNonBlocking(fd);
        connect(m_notifier, &QSocketNotifier::activated, this, &Channel::readable);
        QTimer::singleShot(kGreetingWaitMs, this, [this] {
            if (!m_greeted)
                gone();
        });
    }
    ~Channel() override
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    /** Hands the socket over (to a Link) after sending the byte that starts the connection. */
    int take()
    {
        m_notifier->setEnabled(false);
        const int fd = m_fd;
        m_fd = -1;
        if (::send(fd, &kConnectByte, 1, MSG_NOSIGNAL) != 1) {
            ::close(fd);
            return -1;
        }
        return fd;
    }

private:
    void readable()
    {
        char buffer[kMaxGreetingBytes];
        const ssize_t got = ::read(m_fd, buffer, sizeof buffer);
        if (got < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        // Idle, paddock-init sends nothing more: anything now is its end (or a sandbox
        // that does not follow the protocol).
        if (got <= 0 || m_greeted)
            return gone();
        m_greeting.append(buffer, got);
        const qsizetype newline = m_greeting.indexOf('\n');
        if (newline < 0) {
            if (m_greeting.size() > kMaxGreetingBytes)
                gone();
            return;
        }
        const QList<QByteArray> words = m_greeting.left(newline).split(' ');
        bool number = false;
        const uint port = words.value(1).toUInt(&number);
        if (newline + 1 != m_greeting.size() || words.size() != 2 || words.first() != "port" || !number || port < 1 ||
            port > 65535)
            return gone();
        m_greeted = true;
        onGreeted(this, quint16(port));
    }

    void gone()
    {
        m_notifier->setEnabled(false);
        if (onGone)
            onGone(this);
        deleteLater();
    }

    int m_fd;
    QSocketNotifier *m_notifier;
    QByteArray m_greeting;
    bool m_greeted = false;
};

/** @brief A TCP listener that hands over the descriptor of each accepted connection. */
class HostListener : public QTcpServer
{
public:
    std::function<void(int)> onClient;
    using QTcpServer::QTcpServer;

protected:
    void incomingConnection(qintptr descriptor) override { onClient(int(descriptor)); }
};

/** @brief The unix listener paddock-init dials, handing over each descriptor. */
class ChannelListener : public QLocalServer
{
public:
    std::function<void(int)> onChannel;
    using QLocalServer::QLocalServer;

protected:
    void incomingConnection(quintptr descriptor) override { onChannel(int(descriptor)); }
};

} // namespace

/** @brief Everything one sandbox publishes; deleting it closes every connection. */
class PortForwarder::Published : public QObject
{
public:
    explicit Published(const QString &name, QObject *parent) : QObject(parent), m_name(name)
    {
        m_expiry.setInterval(1000);
        connect(&m_expiry, &QTimer::timeout, this, &Published::expireWaiting);
    }
    ~Published() override
    {
        for (auto &[sandboxPort, port] : m_ports) {
            for (const Waiting &waiting : std::as_const(port.waiting))
                ::close(waiting.fd);
        }
    }

    Result<void> listen(const QString &socketPath, const QList<quint16> &ports, QHash<QString, quint16> &lastHostPort)
    {
        for (const quint16 sandboxPort : ports) {
            if (m_ports.count(sandboxPort))
                continue;
            auto *listener = new HostListener(this);
            listener->onClient = [this, sandboxPort](int fd) { onClient(sandboxPort, fd); };
            const QString key = m_name + QLatin1Char('/') + QString::number(sandboxPort);
            const quint16 previous = lastHostPort.value(key);
            if (!(previous && listener->listen(QHostAddress::LocalHost, previous)) &&
                !listener->listen(QHostAddress::LocalHost, 0)) {
                return fail(QStringLiteral("cannot publish port %1 of sandbox %2 on 127.0.0.1: %3")
                                .arg(sandboxPort)
                                .arg(m_name, listener->errorString()));
            }
            lastHostPort.insert(key, listener->serverPort());
            m_ports[sandboxPort].listener = listener;
        }
        m_channels = new ChannelListener(this);
        m_channels->onChannel = [this](int fd) { onChannel(fd); };
        m_channels->setSocketOptions(QLocalServer::UserAccessOption);
        QLocalServer::removeServer(socketPath); // one left by a daemon that did not stop cleanly
        if (!m_channels->listen(socketPath))
            return fail(QStringLiteral("cannot listen on %1: %2").arg(socketPath, m_channels->errorString()));
        return {};
    }

    QString hostAddress(quint16 sandboxPort) const
    {
        const auto it = m_ports.find(sandboxPort);
        if (it == m_ports.end())
            return {};
        return QStringLiteral("127.0.0.1:%1").arg(it->second.listener->serverPort());
    }

private:
    struct Waiting
    {
        int fd = -1;
        QDeadlineTimer deadline;
    };
    struct Port
    {
        HostListener *listener = nullptr;
        QList<QPointer<Channel>> idle;
        QList<Waiting> waiting;
    };

    void onChannel(int fd)
    {
        if (m_ungreeted.size() >= kMaxUngreeted) {
            if (!m_warnedUngreeted)
                qCWarning(lcPorts) << "sandbox" << m_name << "opens connections to its ports socket and says nothing;"
                                   << "turning them away";
            m_warnedUngreeted = true;
            ::close(fd);
            return;
        }
        auto *channel = new Channel(fd, this);
        m_ungreeted.insert(channel);
        channel->onGreeted = [this](Channel *greeted, quint16 sandboxPort) {
            m_ungreeted.remove(greeted);
            offer(greeted, sandboxPort);
        };
        channel->onGone = [this](Channel *gone) {
            m_ungreeted.remove(gone);
            for (auto &[sandboxPort, port] : m_ports)
                port.idle.removeAll(gone);
        };
    }

    void offer(Channel *channel, quint16 sandboxPort)
    {
        const auto it = m_ports.find(sandboxPort);
        if (it == m_ports.end() || it->second.idle.size() >= kMaxIdlePerPort) {
            qCDebug(lcPorts) << "sandbox" << m_name << "offered port" << sandboxPort << "which is not wanted";
            channel->onGone = {};
            channel->deleteLater();
            return;
        }
        it->second.idle.append(channel);
        match(it->second);
    }

    void onClient(quint16 sandboxPort, int fd)
    {
        setNonBlocking(fd);
        Port &port = m_ports[sandboxPort];
        if (port.waiting.size() >= kMaxWaitingPerPort) {
            ::close(fd);
            return;
        }
        port.waiting.append({fd, QDeadlineTimer(kClientWaitMs)});
        match(port);
        if (!port.waiting.isEmpty() && !m_expiry.isActive())
            m_expiry.start();
    }

    /** Joins waiting clients to idle connections, oldest first, while both are there. */
    void match(Port &port)
    {
        while (!port.waiting.isEmpty() && !port.idle.isEmpty()) {
            const QPointer<Channel> channel = port.idle.takeFirst();
            if (!channel)
                continue;
            const int sandboxSide = channel->take();
            channel->onGone = {};
            channel->deleteLater();
            if (sandboxSide < 0)
                continue; // paddock-init closed it meanwhile; try the next one
            new Link(port.waiting.takeFirst().fd, sandboxSide, this);
        }
    }

    void expireWaiting()
    {
        bool any = false;
        for (auto &[sandboxPort, port] : m_ports) {
            for (qsizetype i = port.waiting.size() - 1; i >= 0; --i) {
                if (port.waiting.at(i).deadline.hasExpired()) {
                    // Nothing inside offered a connection: paddock-init is not publishing.
                    qCInfo(lcPorts) << "sandbox" << m_name << "did not take a connection to port" << sandboxPort;
                    ::close(port.waiting.takeAt(i).fd);
                }
            }
            any |= !port.waiting.isEmpty();
        }
        if (!any)
            m_expiry.stop();
    }

    QString m_name;
    ChannelListener *m_channels = nullptr;
    QSet<Channel *> m_ungreeted;
    bool m_warnedUngreeted = false;
    std::map<quint16, Port> m_ports;
    QTimer m_expiry;
};

QStringList PortForwarder::publishInto(runtime::SandboxSpec &spec, const QList<kit::Port> &ports)
{
    QStringList notes;
    QStringList entries;
    const QString socket = QFileInfo(spec.sandboxProxySocket).path() + QLatin1Char('/') + socketName();
    QList<int> seen;
    for (const kit::Port &port : ports) {
        if (port.protocol == QLatin1String("udp")) {
            notes << QStringLiteral("port %1/udp is not published: only TCP ports can be").arg(port.container);
            continue;
        }
        if (seen.contains(port.container))
            continue;
        seen << port.container;
        entries << QStringLiteral("%1=%2").arg(port.container).arg(socket);
    }
    if (entries.isEmpty())
        spec.environment.remove(variableName());
    else
        spec.environment.insert(variableName(), entries.join(QLatin1Char(' ')));
    return notes;
}

QList<quint16> PortForwarder::portsOf(const runtime::SandboxSpec &spec)
{
    QList<quint16> ports;
    for (const QString &entry : spec.environment.value(variableName()).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const uint port = entry.section(QLatin1Char('='), 0, 0).toUInt();
        if (port >= 1 && port <= 65535)
            ports << quint16(port);
    }
    return ports;
}

PortForwarder::PortForwarder(QObject *parent) : QObject(parent) {}

PortForwarder::~PortForwarder()
{
    closeAll();
}

void PortForwarder::loadHostPorts()
{
    if (m_hostPortsLoaded)
        return;
    m_hostPortsLoaded = true;
    QFile file(paths::runtimeDir() + QStringLiteral("/ports.json"));
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QJsonObject saved = QJsonDocument::fromJson(file.readAll()).object();
    for (auto it = saved.begin(); it != saved.end(); ++it) {
        const int port = it.value().toInt();
        if (port > 0 && port <= 65535)
            m_lastHostPort.insert(it.key(), quint16(port));
    }
}

void PortForwarder::saveHostPorts()
{
    QJsonObject saved;
    for (auto it = m_lastHostPort.cbegin(); it != m_lastHostPort.cend(); ++it)
        saved.insert(it.key(), int(it.value()));
    QString error;
    if (!paths::ensurePrivateDir(paths::runtimeDir(), &error) ||
        !writeFileAtomically(paths::runtimeDir() + QStringLiteral("/ports.json"),
                             QJsonDocument(saved).toJson(QJsonDocument::Indented), &error, 0600))
        qCWarning(lcPorts).noquote() << "the host ports cannot be kept for next time:" << error;
}

Result<void> PortForwarder::open(const QString &name, const QString &socketPath, const QList<quint16> &ports)
{
    if (ports.isEmpty() || m_open.contains(name))
        return {};
    loadHostPorts();
    auto *published = new Published(name, this);
    const QHash<QString, quint16> before = m_lastHostPort;
    const Result<void> listening = published->listen(socketPath, ports, m_lastHostPort);
    if (m_lastHostPort != before)
        saveHostPorts();
    if (!listening) {
        delete published;
        return listening;
    }
    m_open.insert(name, published);
    for (const quint16 port : ports)
        qCInfo(lcPorts).noquote() << QStringLiteral("sandbox %1 port %2 published on %3")
                                         .arg(name)
                                         .arg(port)
                                         .arg(published->hostAddress(port));
    return {};
}

void PortForwarder::close(const QString &name)
{
    delete m_open.take(name); // the listener removes its socket as it closes
}

void PortForwarder::forget(const QString &name)
{
    close(name);
    loadHostPorts();
    const QString prefix = name + QLatin1Char('/');
    const qsizetype before = m_lastHostPort.size();
    m_lastHostPort.removeIf(
        [&prefix](const QHash<QString, quint16>::iterator it) { return it.key().startsWith(prefix); });
    if (m_lastHostPort.size() != before)
        saveHostPorts();
}

void PortForwarder::closeAll()
{
    qDeleteAll(m_open);
    m_open.clear();
}

bool PortForwarder::isOpen(const QString &name) const
{
    return m_open.contains(name);
}

QList<PublishedPort> PortForwarder::ports(const QString &name, const QList<quint16> &declared) const
{
    QList<PublishedPort> result;
    const Published *published = m_open.value(name);
    for (const quint16 port : declared)
        result.append({port, published ? published->hostAddress(port) : QString()});
    return result;
}

} // namespace paddock::sandbox
