// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/RemoteRelay.h"

#include "proxy/MuxFrame.h"
#include "runtime/docker/DockerClient.h"
#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/HijackedConnection.h"
#include "runtime/docker/StreamDemuxer.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcRemoteRelay, "paddock.docker.relay")

namespace paddock::runtime::docker {
namespace mux = proxy::mux;
namespace {

/** How long a dropped stream waits before the exec is run again. */
constexpr int kRetryMs = 2000;
/** paddock-init's complaints are a sentence or two; more is not kept. */
constexpr std::size_t kMaxErrors = 2048;

int connectTo(const QString &path)
{
    const QByteArray bytes = path.toLocal8Bit();
    sockaddr_un addr{};
    if (bytes.size() >= qsizetype(sizeof addr.sun_path))
        return -1;
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, bytes.constData(), size_t(bytes.size()) + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

/** One connection of the sandbox, joined to the proxy socket. */
struct Joined
{
    int fd = -1;
    std::size_t sendCredit = mux::Window; ///< bytes the container may still be sent
    std::string toProxy;                  ///< from the container, not yet written to the proxy
    bool closing = false;
};

/** The streams of one exec: frames from the container in, the proxy's bytes out. */
class Carrier
{
public:
    Carrier(HijackedConnection &stream, QString proxySocket, QString portsSocket, int wake)
        : m_stream(stream), m_proxySocket(std::move(proxySocket)), m_portsSocket(std::move(portsSocket)), m_wake(wake)
    {}
    ~Carrier()
    {
        for (const auto &[id, joined] : m_joined)
            ::close(joined.fd);
    }

    QString run();

private:
    bool readContainer(QString *why);
    bool take(const mux::Frame &frame);
    void serve(std::uint32_t id, short revents);
    void drop(std::uint32_t id, bool tellContainer);

    HijackedConnection &m_stream;
    QString m_proxySocket;
    QString m_portsSocket; ///< empty: the sandbox publishes no port
    int m_wake;
    StreamDemuxer m_demuxer{[this](StreamDemuxer::Stream which, const char *data, size_t size) {
        if (which == StreamDemuxer::Stream::Stdout)
            m_frames.feed(data, size);
        else
            m_errors.append(data, std::min(size, kMaxErrors - std::min(kMaxErrors, m_errors.size())));
    }};
    mux::Reader m_frames;
    std::string m_errors;
    std::string m_out;
    std::map<std::uint32_t, Joined> m_joined;
    std::uint32_t m_lastId = 0;
};

QString Carrier::run()
{
    QString why;
    for (;;) {
        std::vector<pollfd> fds{{m_wake, POLLIN, 0}, {m_stream.socketDescriptor(), POLLIN, 0}};
        std::vector<std::uint32_t> ids;
        for (const auto &[id, joined] : m_joined) {
            short events = 0;
            if (!joined.closing && joined.sendCredit > 0)
                events |= POLLIN;
            if (!joined.toProxy.empty())
                events |= POLLOUT;
            fds.push_back({joined.fd, events, 0});
            ids.push_back(id);
        }
        // Over TLS the socket can be readable with nothing to decrypt yet, or hold decrypted
        // bytes with nothing left to read on it: poll briefly instead.
        if (::poll(fds.data(), fds.size(), m_stream.isEncrypted() ? 50 : -1) < 0 && errno != EINTR)
            return QStringLiteral("poll failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        if (fds[0].revents)
            return {};
        if ((fds[1].revents || m_stream.isEncrypted()) && !readContainer(&why))
            return why;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if (fds[i + 2].revents && m_joined.count(ids[i]))
                serve(ids[i], fds[i + 2].revents);
        }
        if (!m_out.empty()) {
            if (!m_stream.write(QByteArray::fromStdString(m_out)))
                return QStringLiteral("the engine's stream stopped taking bytes");
            m_out.clear();
        }
    }
}

bool Carrier::readContainer(QString *why)
{
    char buffer[65536];
    for (;;) {
        const qint64 n = m_stream.read(buffer, sizeof buffer, 0);
        if (n == -2)
            return true;
        if (n <= 0) {
            *why = m_errors.empty() ? QStringLiteral("the engine ended the stream")
                                    : QString::fromUtf8(m_errors.data(), qsizetype(m_errors.size())).trimmed();
            return false;
        }
        if (!m_demuxer.feed(buffer, size_t(n))) {
            *why = QStringLiteral("the engine's stream is not in its own format");
            return false;
        }
        mux::Frame frame;
        for (;;) {
            const mux::Reader::Next next = m_frames.next(&frame);
            if (next == mux::Reader::Next::NeedMore)
                break;
            if (next == mux::Reader::Next::Broken || !take(frame)) {
                *why = QStringLiteral("the sandbox broke the rules of its stream");
                return false;
            }
        }
    }
}

bool Carrier::take(const mux::Frame &frame)
{
    if (frame.type == mux::Type::Open || frame.type == mux::Type::OpenPort) {
        // Ids only grow, and no more than MaxStreams are open at once.
        if (frame.id <= m_lastId || m_joined.size() >= mux::MaxStreams)
            return false;
        m_lastId = frame.id;
        const QString &socket = frame.type == mux::Type::Open ? m_proxySocket : m_portsSocket;
        const int fd = socket.isEmpty() ? -1 : connectTo(socket);
        if (fd < 0)
            mux::append(m_out, mux::Type::Close, frame.id);
        else
            m_joined[frame.id].fd = fd;
        return true;
    }
    if (frame.id == 0 || frame.id > m_lastId)
        return false;
    const auto it = m_joined.find(frame.id);
    if (it == m_joined.end())
        return true; // closed here while the frame was on its way
    Joined &joined = it->second;
    std::uint32_t credit = 0;
    switch (frame.type) {
    case mux::Type::Data:
        if (joined.toProxy.size() + frame.payload.size() > mux::Window)
            return false;
        joined.toProxy.append(frame.payload);
        return true;
    case mux::Type::Close:
        joined.closing = true;
        if (joined.toProxy.empty())
            drop(frame.id, false);
        return true;
    case mux::Type::Credit:
        if (!mux::creditOf(frame, &credit) || joined.sendCredit + credit > mux::Window)
            return false;
        joined.sendCredit += credit;
        return true;
    case mux::Type::Open:
    case mux::Type::OpenPort:
        break;
    }
    return false;
}

void Carrier::serve(std::uint32_t id, short revents)
{
    Joined &joined = m_joined.at(id);
    if ((revents & POLLOUT) && !joined.toProxy.empty()) {
        const ssize_t n = ::send(joined.fd, joined.toProxy.data(), joined.toProxy.size(), MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return drop(id, true);
        if (n > 0) {
            joined.toProxy.erase(0, size_t(n));
            mux::appendCredit(m_out, id, std::uint32_t(n));
        }
        if (joined.closing && joined.toProxy.empty())
            return drop(id, false);
    }
    if ((revents & (POLLIN | POLLHUP | POLLERR)) && !joined.closing && joined.sendCredit > 0) {
        char buffer[mux::MaxPayload];
        const ssize_t n = ::recv(joined.fd, buffer, std::min(sizeof buffer, joined.sendCredit), 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        if (n <= 0)
            return drop(id, true);
        joined.sendCredit -= size_t(n);
        mux::append(m_out, mux::Type::Data, id, std::string_view(buffer, size_t(n)));
    }
}

void Carrier::drop(std::uint32_t id, bool tellContainer)
{
    const auto it = m_joined.find(id);
    ::close(it->second.fd);
    m_joined.erase(it);
    if (tellContainer)
        mux::append(m_out, mux::Type::Close, id);
}

} // namespace

RemoteRelay::RemoteRelay(Endpoint endpoint, QString containerId, Sockets sockets, Observer onChange)
    : m_endpoint(std::move(endpoint)),
      m_containerId(std::move(containerId)),
      m_sockets(std::move(sockets)),
      m_onChange(std::move(onChange))
{
    if (::pipe2(m_wake, O_CLOEXEC) != 0)
        qFatal("no pipe for the remote relay");
    m_thread = std::thread([this] { run(); });
}

RemoteRelay::~RemoteRelay()
{
    m_stopping = true;
    const char byte = 1;
    (void)!::write(m_wake[1], &byte, 1);
    if (m_thread.joinable())
        m_thread.join();
    ::close(m_wake[0]);
    ::close(m_wake[1]);
}

bool RemoteRelay::pause(int ms)
{
    pollfd fd{m_wake[0], POLLIN, 0};
    ::poll(&fd, 1, ms);
    return !m_stopping;
}

void RemoteRelay::run()
{
    const DockerClient client(m_endpoint);
    ExecSpec spec;
    // As root without a capability: the socket's folder is root's, so the sandbox cannot
    // put a listener of its own where its relay looks for the proxy.
    spec.cmd = QStringList{layout::kInitInside, layout::kDropCapabilities,     QStringLiteral("--"),
                           layout::kInitInside, QStringLiteral("--proxy-mux"), m_sockets.insidePath};
    if (!m_sockets.insidePortsPath.isEmpty())
        spec.cmd << QStringLiteral("--proxy-mux-ports") << m_sockets.insidePortsPath;
    spec.user = QStringLiteral("0:0");
    spec.stdinData = QByteArrayLiteral("-"); // asks for stdin attached; the frames follow
    QString lastProblem;
    while (!m_stopping) {
        const Result<QString> execId = client.createExec(m_containerId, spec);
        Result<std::unique_ptr<HijackedConnection>> stream =
            execId ? client.startExecAttached(execId.value(), false)
                   : Result<std::unique_ptr<HijackedConnection>>(execId.error());
        if (!stream) {
            if (stream.errorMessage() != lastProblem)
                m_onChange(false, stream.errorMessage());
            lastProblem = stream.errorMessage();
            if (!pause(kRetryMs))
                return;
            continue;
        }
        lastProblem.clear();
        m_onChange(true, {});
        const QString why = Carrier(*stream.value(), m_sockets.proxySocket, m_sockets.portsSocket, m_wake[0]).run();
        if (m_stopping)
            return;
        qCWarning(lcRemoteRelay).noquote() << "the stream of container" << m_containerId.left(12) << "ended:" << why;
        lastProblem = why;
        m_onChange(false, why);
        if (!pause(kRetryMs))
            return;
    }
}

} // namespace paddock::runtime::docker
