// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/SessionBridge.h"

#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/session/RawIo.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace paddock::runtime::docker {

namespace {

/** paddock-init's complaints are a sentence or two; more is not kept. */
constexpr qsizetype kMaxErrors = 4096;
/** How long the relay exec gets to wind down once the caller left. */
constexpr int kWindDownMs = 2000;

} // namespace

std::unique_ptr<SessionBridge> SessionBridge::open(const DockerClient &client, const QString &containerId,
                                                   const QString &user, const QString &socketName, QString *error)
{
    ExecSpec spec;
    spec.cmd = QStringList{layout::kInitInside, QStringLiteral("--session-client"), socketName};
    spec.user = user;
    // The client attaches stdin when there is input to send; the input here is the caller's
    // frames, relayed by the thread, so any non-empty placeholder asks for the attachment.
    spec.stdinData = QByteArrayLiteral("-");
    const Result<QString> execId = client.createExec(containerId, spec);
    if (!execId) {
        *error = execId.errorMessage();
        return nullptr;
    }
    Result<std::unique_ptr<HijackedConnection>> stream = client.startExecAttached(execId.value(), false);
    if (!stream) {
        *error = stream.errorMessage();
        return nullptr;
    }
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        *error = QStringLiteral("cannot make a socket pair: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return nullptr;
    }
    return std::unique_ptr<SessionBridge>(new SessionBridge(std::move(stream.value()), pair[0], pair[1]));
}

SessionBridge::SessionBridge(std::unique_ptr<HijackedConnection> stream, int local, int remote)
    : m_stream(std::move(stream)), m_local(local), m_remote(remote)
{
    m_thread = std::thread([this] { run(); });
}

SessionBridge::~SessionBridge()
{
    finish();
}

int SessionBridge::takeFd()
{
    return std::exchange(m_remote, -1);
}

QString SessionBridge::finish()
{
    if (m_remote >= 0)
        ::close(std::exchange(m_remote, -1));
    if (m_thread.joinable())
        m_thread.join();
    const std::lock_guard lock(m_mutex);
    return QString::fromUtf8(m_errors).trimmed();
}

void SessionBridge::run()
{
    StreamDemuxer demuxer([this](StreamDemuxer::Stream which, const char *data, size_t size) {
        if (which == StreamDemuxer::Stream::Stdout) {
            if (!m_callerGone && !session::sendAll(m_local, data, size))
                m_callerGone = true;
            return;
        }
        const std::lock_guard lock(m_mutex);
        m_errors.append(data, std::min(qsizetype(size), std::max<qsizetype>(0, kMaxErrors - m_errors.size())));
    });
    bool streamOpen = true;
    while (!m_callerGone) {
        if (streamOpen && !pumpOutput(demuxer)) {
            streamOpen = false;
            // The caller reads the end of the channel; this side waits for it to close its end.
            ::shutdown(m_local, SHUT_WR);
        }
        if (m_callerGone)
            break;
        pollfd fds[2] = {{m_local, POLLIN, 0}, {streamOpen ? m_stream->socketDescriptor() : -1, POLLIN, 0}};
        // Over TLS the socket can be readable with nothing to decrypt yet: poll briefly instead.
        const int ready = ::poll(fds, 2, streamOpen && m_stream->isEncrypted() ? 50 : -1);
        if (ready < 0 && errno != EINTR)
            break;
        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) && !pumpInput(streamOpen))
            m_callerGone = true;
    }
    if (streamOpen)
        windDown();
    ::close(m_local);
}

bool SessionBridge::pumpOutput(StreamDemuxer &demuxer)
{
    char buffer[65536];
    for (;;) {
        const qint64 n = m_stream->read(buffer, sizeof buffer, 0);
        if (n == -2)
            return true; // nothing more for now
        if (n <= 0 || !demuxer.feed(buffer, size_t(n)))
            return false; // ended, broken off, or not the engine's multiplexed format
        if (m_callerGone)
            return true;
    }
}

bool SessionBridge::pumpInput(bool toExec)
{
    char buffer[65536];
    const ssize_t n = ::recv(m_local, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (n <= 0)
        return false;
    if (toExec)
        m_stream->write(QByteArray::fromRawData(buffer, qsizetype(n)));
    return true;
}

void SessionBridge::windDown()
{
    // The end of the exec's input is the end of the relay's connection to the server, which
    // then lets the client go (and hangs up a command left behind); the relay exits after.
    if (!m_stream->closeWrite())
        return; // TLS: closing the connection is all this side can do
    QElapsedTimer timer;
    timer.start();
    char buffer[16384];
    while (timer.elapsed() < kWindDownMs) {
        const qint64 n = m_stream->read(buffer, sizeof buffer, 100);
        if (n == 0 || n == -1)
            return;
    }
}

} // namespace paddock::runtime::docker
