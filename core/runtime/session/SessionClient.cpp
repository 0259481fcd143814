// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/session/SessionClient.h"

#include "runtime/session/RawIo.h"
#include "runtime/session/SessionProtocol.h"

#include <QFile>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

namespace paddock::runtime::session {

namespace proto = paddock::session;

namespace {

constexpr unsigned char kCtrlP = 0x10;
constexpr unsigned char kCtrlQ = 0x11;
/** Input read ahead of what the server has taken; beyond it this side stops reading input. */
constexpr size_t kOutgoingLimit = 1024 * 1024;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

/** Signals to this process, turned into bytes on a pipe while this lives (then restored). */
class SignalPipe
{
public:
    SignalPipe()
    {
        if (::pipe2(s_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
            s_pipe[0] = s_pipe[1] = -1;
        struct sigaction action
        {};
        action.sa_handler = &SignalPipe::onSignal;
        sigemptyset(&action.sa_mask);
        for (size_t i = 0; i < std::size(kSignals); ++i)
            ::sigaction(kSignals[i], &action, &m_saved[i]);
    }
    ~SignalPipe()
    {
        for (size_t i = 0; i < std::size(kSignals); ++i)
            ::sigaction(kSignals[i], &m_saved[i], nullptr);
        for (int &fd : s_pipe) {
            if (fd >= 0)
                ::close(fd);
            fd = -1;
        }
    }
    SignalPipe(const SignalPipe &) = delete;
    SignalPipe &operator=(const SignalPipe &) = delete;
    int fd() const { return s_pipe[0]; }

private:
    static void onSignal(int sig)
    {
        const int saved = errno;
        const unsigned char byte = (unsigned char)sig;
        if (s_pipe[1] >= 0)
            (void)!::write(s_pipe[1], &byte, 1);
        errno = saved;
    }
    static inline int s_pipe[2] = {-1, -1};
    std::array<struct sigaction, std::size(kSignals)> m_saved{};
};

proto::Fields helloFor(const SessionRequest &request, bool terminal, int inFd)
{
    proto::Fields hello;
    hello.add("version", std::to_string(proto::kProtocolVersion));
    if (!request.token.isEmpty())
        hello.add("token", request.token.toStdString());
    hello.add("op", request.kind == SessionRequest::Kind::Attach ? "attach" : "spawn");
    for (const QString &arg : request.argv)
        hello.add("arg", arg.toStdString());
    for (auto it = request.environment.cbegin(); it != request.environment.cend(); ++it)
        hello.add("env", (it.key() + QLatin1Char('=') + it.value()).toStdString());
    if (!request.workingDir.isEmpty())
        hello.add("cwd", request.workingDir.toStdString());
    if (!request.user.isEmpty())
        hello.add("user", request.user.toStdString());
    hello.add("tty", terminal ? "1" : "0");
    if (request.agent)
        hello.add("agent", "1");
    if (request.startAgent)
        hello.add("start", "1");
    if (request.replay)
        hello.add("replay", "1");
    winsize size{};
    if (terminal && ::ioctl(inFd, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) {
        hello.add("rows", std::to_string(size.ws_row));
        hello.add("cols", std::to_string(size.ws_col));
    }
    return hello;
}

/** @brief One session's relay between the caller's streams and the channel. */
class Relay
{
public:
    Relay(int fd, const SessionRequest &request, const ProcessIo &io, bool terminal)
        : m_fd(fd), m_request(request), m_io(io), m_terminal(terminal)
    {
        ::ioctl(io.in, TIOCGWINSZ, &m_size);
    }

    SessionOutcome run(const proto::Fields &hello)
    {
        queue(proto::FrameType::Hello, hello.encode());
        std::optional<SignalPipe> caught;
        if (m_request.forwardSignals)
            caught.emplace();
        while (!m_outcome) {
            pollfd fds[3] = {{m_fd, short(POLLIN | (m_outgoing.empty() ? 0 : POLLOUT)), 0},
                             {m_inputOpen && m_outgoing.size() < kOutgoingLimit ? m_io.in : -1, POLLIN, 0},
                             {caught ? caught->fd() : -1, POLLIN, 0}};
            const int ready = ::poll(fds, 3, m_terminal ? 200 : -1);
            if (ready < 0 && errno != EINTR)
                return failed(QStringLiteral("cannot wait for the session: %1").arg(systemError()));
            if (m_terminal)
                followWindow();
            if (caught && (fds[2].revents & POLLIN))
                onSignals(caught->fd());
            if (fds[0].revents & POLLOUT)
                flush();
            if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
                onInput();
            if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
                onChannel();
        }
        return *m_outcome;
    }

private:
    SessionOutcome failed(const QString &error) { return {SessionOutcome::Kind::Failed, 0, error}; }

    void queue(proto::FrameType type, const std::string &payload) { m_outgoing += proto::encodeFrame(type, payload); }

    void flush()
    {
        if (m_sendClosed) {
            m_outgoing.clear();
            return;
        }
        const ssize_t n = ::send(m_fd, m_outgoing.data(), m_outgoing.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            m_outgoing.erase(0, size_t(n));
        } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
            // The server stopped reading (it refused, or the session ended): what it said last
            // is still to be read, so only sending stops.
            m_sendClosed = true;
            m_outgoing.clear();
        }
    }

    void followWindow()
    {
        winsize size{};
        if (::ioctl(m_io.in, TIOCGWINSZ, &size) != 0 || (size.ws_row == m_size.ws_row && size.ws_col == m_size.ws_col))
            return;
        m_size = size;
        queue(proto::FrameType::Window, std::to_string(size.ws_row) + ' ' + std::to_string(size.ws_col));
    }

    void onSignals(int fd)
    {
        unsigned char sig = 0;
        while (::read(fd, &sig, 1) == 1) {
            // A closed terminal (SIGHUP) leaves an attached agent running, as Ctrl-P Ctrl-Q does.
            if (m_request.kind == SessionRequest::Kind::Attach && sig == SIGHUP) {
                m_outcome = SessionOutcome{SessionOutcome::Kind::Detached, 0, {}};
                return;
            }
            queue(proto::FrameType::Signal, std::to_string(sig));
        }
    }

    void onInput()
    {
        char buffer[16384];
        const ssize_t n = ::read(m_io.in, buffer, sizeof buffer);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            return;
        if (n <= 0) {
            // The terminal hung up (its window was closed): the SIGHUP that says so may come
            // later, or never when a shell stands between. An attached agent stays running
            // and is not sent an end-of-file character. (A raw terminal has no end of input;
            // a hung-up one answers no more questions.)
            termios mode{};
            const bool hungUp = m_terminal && (n < 0 || m_raw.has_value() || ::tcgetattr(m_io.in, &mode) != 0);
            if (m_request.kind == SessionRequest::Kind::Attach && hungUp) {
                m_outcome = SessionOutcome{SessionOutcome::Kind::Detached, 0, {}};
                return;
            }
            m_inputOpen = false;
            queue(proto::FrameType::InputEnd, {});
            return;
        }
        std::string bytes;
        for (ssize_t i = 0; i < n; ++i) {
            const unsigned char c = (unsigned char)buffer[i];
            if (!m_request.detachKeys) {
                bytes.push_back(char(c));
            } else if (m_heldCtrlP && c == kCtrlQ) {
                m_outcome = SessionOutcome{SessionOutcome::Kind::Detached, 0, {}};
                break;
            } else if (m_heldCtrlP) {
                bytes.push_back(char(kCtrlP));
                m_heldCtrlP = c == kCtrlP;
                if (!m_heldCtrlP)
                    bytes.push_back(char(c));
            } else if (c == kCtrlP) {
                m_heldCtrlP = true;
            } else {
                bytes.push_back(char(c));
            }
        }
        if (!bytes.empty())
            queue(proto::FrameType::Input, bytes);
        flush();
    }

    void onChannel()
    {
        char buffer[65536];
        const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            return;
        if (n <= 0) {
            m_outcome = failed(QStringLiteral("the sandbox ended the session (it may have been stopped)"));
            return;
        }
        m_reader.feed(buffer, size_t(n));
        while (!m_outcome) {
            std::optional<proto::Frame> frame = m_reader.next();
            if (!frame)
                break;
            onFrame(*frame);
        }
        if (m_reader.failed() && !m_outcome)
            m_outcome = failed(QStringLiteral("the sandbox's session server sent a malformed frame"));
    }

    void onFrame(const proto::Frame &frame)
    {
        switch (frame.type) {
        case proto::FrameType::Output:
            writeAll(m_io.out, frame.payload.data(), frame.payload.size());
            break;
        case proto::FrameType::ErrorOutput:
            writeAll(m_io.err, frame.payload.data(), frame.payload.size());
            break;
        case proto::FrameType::Exit:
            m_outcome = SessionOutcome{SessionOutcome::Kind::Exited, std::atoi(frame.payload.c_str()), {}};
            break;
        case proto::FrameType::Failure:
            m_outcome = failed(QString::fromStdString(frame.payload));
            break;
        case proto::FrameType::Ready: {
            // The caller's terminal goes raw only when the session has a terminal too: keys
            // then reach it one by one. A session without one reads lines, as a pipe would.
            proto::Fields ready;
            if (m_terminal && !m_raw && proto::Fields::decode(frame.payload, &ready) && ready.flag("tty"))
                m_raw.emplace(m_io.in);
            break;
        }
        default:
            break; // frames a newer server may add
        }
    }

    int m_fd;
    const SessionRequest &m_request;
    ProcessIo m_io;
    bool m_terminal;
    winsize m_size{};
    std::string m_outgoing;
    proto::FrameReader m_reader;
    bool m_inputOpen = true;
    bool m_heldCtrlP = false;
    bool m_sendClosed = false;
    std::optional<RawTerminal> m_raw;
    std::optional<SessionOutcome> m_outcome;
};

QDateTime fromEpoch(const proto::Fields &fields, const char *key)
{
    const long long seconds = fields.number(key, 0);
    return seconds > 0 ? QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC) : QDateTime();
}

} // namespace

SessionRequest spawnRequest(const ExecRequest &request)
{
    SessionRequest spawn;
    spawn.kind = SessionRequest::Kind::Spawn;
    spawn.argv = request.argv;
    spawn.environment = request.environment;
    spawn.workingDir = request.workingDir;
    spawn.user = request.user;
    spawn.terminal = request.interactive;
    spawn.agent = request.asAgent;
    spawn.forwardSignals = request.forwardSignals;
    // Leaving a session is for the agent's; a command's caller waits for its end.
    spawn.detachKeys = request.asAgent;
    return spawn;
}

SessionRequest attachRequest(const AttachOptions &options)
{
    SessionRequest request;
    request.kind = SessionRequest::Kind::Attach;
    request.terminal = true;
    request.startAgent = options.startAgent;
    request.replay = options.replay;
    request.detachKeys = options.detachKeys;
    return request;
}

RuntimeResult resultOf(const SessionOutcome &outcome, const QString &relayErrors)
{
    switch (outcome.kind) {
    case SessionOutcome::Kind::Exited:
        return RuntimeResult::exited(outcome.exitCode);
    case SessionOutcome::Kind::Detached:
        return RuntimeResult::success();
    case SessionOutcome::Kind::Failed:
        break;
    }
    return RuntimeResult::failure(relayErrors.isEmpty() ? outcome.error : relayErrors);
}

/**
 * @brief A unix socket address for @p path. A path longer than sun_path is reached through its
 * directory opened here, as /proc/self/fd/N/NAME, which the kernel resolves like the path.
 */
class SocketAddress
{
public:
    explicit SocketAddress(const QString &path)
    {
        QByteArray encoded = QFile::encodeName(path);
        if (size_t(encoded.size()) >= sizeof m_addr.sun_path) {
            const qsizetype slash = encoded.lastIndexOf('/');
            m_dir = ::open(encoded.left(std::max<qsizetype>(slash, 1)).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
            encoded = "/proc/self/fd/" + QByteArray::number(m_dir) + encoded.mid(slash);
        }
        m_valid =
            (m_dir >= 0 || !encoded.startsWith("/proc/self/fd/")) && size_t(encoded.size()) < sizeof m_addr.sun_path;
        m_addr.sun_family = AF_UNIX;
        if (m_valid)
            std::memcpy(m_addr.sun_path, encoded.constData(), size_t(encoded.size()));
    }
    ~SocketAddress()
    {
        if (m_dir >= 0)
            ::close(m_dir);
    }
    SocketAddress(const SocketAddress &) = delete;
    SocketAddress &operator=(const SocketAddress &) = delete;
    bool valid() const { return m_valid; }
    const sockaddr *get() const { return reinterpret_cast<const sockaddr *>(&m_addr); }

private:
    sockaddr_un m_addr{};
    int m_dir = -1;
    bool m_valid = false;
};

int connectSocket(const QString &path, QString *error)
{
    const SocketAddress address(path);
    const int fd = address.valid() ? ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
    if (fd < 0 || ::connect(fd, address.get(), sizeof(sockaddr_un)) != 0) {
        *error = QStringLiteral("the sandbox's supervisor does not answer at %1: %2").arg(path, systemError());
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

int listenSocket(const QString &path, QString *error)
{
    QFile::remove(path);
    const SocketAddress address(path);
    const int fd = address.valid() ? ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
    // The directory it is made in is the owner's alone (0700); the socket is narrowed too.
    const bool bound = fd >= 0 && ::bind(fd, address.get(), sizeof(sockaddr_un)) == 0;
    if (bound)
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (!bound || ::listen(fd, 16) != 0) {
        *error = QStringLiteral("cannot make the session socket %1: %2").arg(path, systemError());
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

SessionOutcome runSession(int fd, const SessionRequest &request, const ProcessIo &io)
{
    const bool terminal = request.terminal && ::isatty(io.in);
    Relay relay(fd, request, io, terminal);
    const SessionOutcome outcome = relay.run(helloFor(request, terminal, io.in));
    ::close(fd);
    return outcome;
}

namespace {

/** Sends @p hello over @p fd (which it closes) and returns the server's first frame, if any. */
std::optional<proto::Frame> exchange(int fd, const proto::Fields &hello)
{
    const std::string bytes = proto::encodeFrame(proto::FrameType::Hello, hello.encode());
    proto::FrameReader reader;
    std::optional<proto::Frame> frame;
    if (::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == ssize_t(bytes.size())) {
        char buffer[4096];
        while (!frame && !reader.failed()) {
            pollfd wait{fd, POLLIN, 0};
            if (::poll(&wait, 1, 5000) <= 0)
                break;
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n <= 0)
                break;
            reader.feed(buffer, size_t(n));
            frame = reader.next();
        }
    }
    ::close(fd);
    return frame;
}

proto::Fields helloOf(const char *op, const QString &token)
{
    proto::Fields hello;
    hello.add("version", std::to_string(proto::kProtocolVersion));
    hello.add("op", op);
    if (!token.isEmpty())
        hello.add("token", token.toStdString());
    return hello;
}

} // namespace

std::optional<AgentInfo> queryAgent(int fd, const QString &token, QString *error)
{
    const std::optional<proto::Frame> frame = exchange(fd, helloOf("status", token));
    proto::Fields fields;
    if (!frame || frame->type != proto::FrameType::Status || !proto::Fields::decode(frame->payload, &fields)) {
        if (error)
            *error = frame && frame->type == proto::FrameType::Failure
                         ? QString::fromStdString(frame->payload)
                         : QStringLiteral("the sandbox's supervisor gave no status");
        return std::nullopt;
    }
    AgentInfo info;
    const std::string state = fields.get("agent");
    info.state = state == "running" ? AgentState::Running : state == "exited" ? AgentState::Exited : AgentState::None;
    info.pid = fields.number("pid", 0);
    if (fields.has("status"))
        info.exitCode = int(fields.number("status", 0));
    info.startedAt = fromEpoch(fields, "started");
    info.finishedAt = fromEpoch(fields, "finished");
    info.attached = int(fields.number("attached", 0));
    info.sessions = int(fields.number("sessions", 0));
    // Said inside the sandbox: one line of printable characters, bounded, whatever arrives.
    QString reason = QString::fromUtf8(fields.get("reason")).left(200);
    for (QChar &c : reason) {
        if (!c.isPrint())
            c = QLatin1Char(' ');
    }
    info.reason = reason.trimmed();
    return info;
}

bool startAgent(int fd, const QString &token, bool terminal, QString *error)
{
    proto::Fields hello = helloOf("spawn", token);
    hello.add("agent", "1");
    hello.add("tty", terminal ? "1" : "0");
    const std::optional<proto::Frame> frame = exchange(fd, hello);
    if (frame && frame->type == proto::FrameType::Ready)
        return true;
    *error = frame && frame->type == proto::FrameType::Failure
                 ? QString::fromStdString(frame->payload)
                 : QStringLiteral("the sandbox's supervisor gave no answer");
    return false;
}

} // namespace paddock::runtime::session
