// SPDX-License-Identifier: GPL-3.0-or-later
#include "Supervisor.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

extern char **environ;

namespace paddock::init {

using session::FrameType;

namespace {

long long now()
{
    return (long long)std::time(nullptr);
}

/** @p text on one line of at most 200 bytes: control characters become spaces. */
std::string oneLine(const std::string &text)
{
    constexpr size_t kMaxReason = 200;
    std::string line = text.substr(0, kMaxReason);
    // Not cut inside a UTF-8 sequence: continuation bytes at the cut are dropped.
    if (text.size() > kMaxReason) {
        while (!line.empty() && (static_cast<unsigned char>(line.back()) & 0xC0) == 0x80)
            line.pop_back();
        if (!line.empty() && static_cast<unsigned char>(line.back()) >= 0xC0)
            line.pop_back();
    }
    for (char &c : line) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    }
    return line;
}

int shellStatus(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/** The variables meant for paddock-init alone, never passed to a session. */
bool isPrivateVariable(const char *entry)
{
    return std::strncmp(entry, "PADDOCK_PUBLISH=", 16) == 0 || std::strncmp(entry, "PADDOCK_SESSION", 15) == 0;
}

} // namespace

Supervisor::Supervisor(SupervisorConfig config, Identity identity)
    : m_config(std::move(config)), m_identity(std::move(identity))
{}

Supervisor::~Supervisor()
{
    for (auto &[id, client] : m_clients)
        close(client->fd);
    if (m_signalFd >= 0)
        close(m_signalFd);
}

bool Supervisor::setUp(const sigset_t &handled, std::string *error)
{
    for (char **entry = environ; entry && *entry; ++entry) {
        if (!isPrivateVariable(*entry))
            m_environment.emplace_back(*entry);
    }
    char cwd[4096];
    m_workingDir = getcwd(cwd, sizeof cwd) ? cwd : "/";
    m_signalFd = signalfd(-1, &handled, SFD_NONBLOCK | SFD_CLOEXEC);
    if (m_signalFd < 0) {
        *error = std::string("cannot receive signals: ") + std::strerror(errno);
        return false;
    }
    if (m_config.listenFd >= 0) {
        fcntl(m_config.listenFd, F_SETFD, FD_CLOEXEC);
        fcntl(m_config.listenFd, F_SETFL, fcntl(m_config.listenFd, F_GETFL) | O_NONBLOCK);
        return true;
    }
    if (m_config.abstractName.empty())
        return true;
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const size_t length = std::min(m_config.abstractName.size(), sizeof addr.sun_path - 2);
    std::memcpy(addr.sun_path + 1, m_config.abstractName.data(), length);
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&addr), socklen_t(sizeof(sa_family_t) + 1 + length)) != 0 ||
        listen(fd, 16) != 0) {
        *error = std::string("cannot listen for sessions: ") + std::strerror(errno);
        if (fd >= 0)
            close(fd);
        return false;
    }
    m_config.listenFd = fd;
    return true;
}

int Supervisor::run(const sigset_t &handled)
{
    std::string error;
    if (!setUp(handled, &error)) {
        std::fprintf(stderr, "paddock-init: %s\n", error.c_str());
        return 1;
    }
    runStartup();
    if (m_config.startAgent && !m_ending) {
        SpawnRequest request;
        request.argv = m_config.agentArgv;
        request.environment = m_environment;
        request.workingDir = m_workingDir;
        request.uid = m_identity.agentUid();
        request.terminal = m_config.agentTerminal;
        SpawnFailure failure;
        if (!startSession(request, true, &failure)) {
            std::fprintf(stderr, "paddock-init: the agent did not start: %s\n", failure.message.c_str());
            agentDidNotStart(failure);
        }
    }
    while (iterate()) {
    }
    return m_agentStatus.value_or(0);
}

void Supervisor::agentDidNotStart(const SpawnFailure &failure)
{
    // 127 or 126: the program is not there or cannot run, as a shell would have said.
    if (failure.exitCode != 0) {
        m_agentStatus = failure.exitCode;
        m_agentFinished = now();
    }
    m_agentReason = oneLine(failure.message);
    notifyWatchers();
}

std::string Supervisor::agentNotRunning() const
{
    if (!m_agentReason.empty() && m_agentStatus)
        return "the agent exited: " + m_agentReason + " (exit " + std::to_string(*m_agentStatus) + ")";
    if (!m_agentReason.empty())
        return "the agent did not start: " + m_agentReason;
    if (m_agentStatus)
        return "the agent is not running: it exited with status " + std::to_string(*m_agentStatus);
    return "the agent has not been started";
}

void Supervisor::runStartup()
{
    m_startingUp = true;
    for (const auto &[uid, script] : m_config.startup) {
        SpawnRequest request;
        request.argv = {"sh", "-c", script, "paddock-startup"};
        request.environment = m_environment;
        request.workingDir = m_workingDir;
        request.uid = uid < 0 ? m_identity.agentUid() : uid;
        SpawnFailure failure;
        Session *startup = startSession(request, false, &failure);
        if (!startup) {
            std::fprintf(stderr, "paddock-init: setup.startup did not run: %s\n", failure.message.c_str());
            continue;
        }
        // Its output goes to the sandbox's log. Status is answered meanwhile; sessions wait for
        // the end, as a program started after its setup would.
        const int id = startup->id;
        while (m_sessions.count(id) && iterate()) {
        }
    }
    m_startingUp = false;
    std::vector<int> waiting;
    for (auto &[clientId, client] : m_clients) {
        if (client->state == Client::State::Waiting)
            waiting.push_back(clientId);
    }
    for (int clientId : waiting) {
        Client &client = *m_clients.at(clientId);
        client.state = Client::State::Hello;
        onHello(client, client.hello);
        client.hello.clear();
        takeFrames(client);
    }
}

std::vector<pollfd> Supervisor::pollSet(std::vector<std::pair<int, int>> &owners)
{
    // owners[i] says what fd i is: {0, 0} signals, {0, 1} the listener, {1, id} a client,
    // {2, id} a session's output, {3, id} its errors, {4, id} its input.
    std::vector<pollfd> fds;
    owners.clear();
    fds.push_back({m_signalFd, POLLIN, 0});
    owners.emplace_back(0, 0);
    if (m_config.listenFd >= 0 && !m_ending) {
        fds.push_back({m_config.listenFd, POLLIN, 0});
        owners.emplace_back(0, 1);
    }
    for (auto &[id, client] : m_clients) {
        short events = client->out.empty() ? 0 : POLLOUT;
        const auto session = m_sessions.find(client->session);
        const bool waitInput = session != m_sessions.end() && session->second->input.size() > kInputBacklog;
        if (client->state != Client::State::Closing && client->state != Client::State::Waiting && !waitInput)
            events |= POLLIN;
        fds.push_back({client->fd, events, 0});
        owners.emplace_back(1, id);
    }
    for (auto &[id, session] : m_sessions) {
        // A command's output waits while its one client is far behind; the agent never waits.
        bool behind = false;
        for (int clientId : session->clients) {
            const auto client = m_clients.find(clientId);
            behind =
                behind || (!session->agent && client != m_clients.end() && client->second->out.size() > kClientBacklog);
        }
        const int out = session->process.terminal >= 0 ? session->process.terminal : session->process.output;
        if (out >= 0 && !behind) {
            fds.push_back({out, POLLIN, 0});
            owners.emplace_back(2, id);
        }
        if (session->process.errors >= 0 && !behind) {
            fds.push_back({session->process.errors, POLLIN, 0});
            owners.emplace_back(3, id);
        }
        const int in = session->process.terminal >= 0 ? session->process.terminal : session->process.input;
        if (in >= 0 && (!session->input.empty() || session->inputEnd)) {
            fds.push_back({in, POLLOUT, 0});
            owners.emplace_back(4, id);
        }
    }
    return fds;
}

int Supervisor::nextTimeoutMs() const
{
    int timeout = -1;
    const auto moment = std::chrono::steady_clock::now();
    for (const auto &[id, session] : m_sessions) {
        if (!session->exited)
            continue;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(session->exitedAt + kDrain - moment).count();
        const int ms = int(std::max<long long>(0, left));
        timeout = timeout < 0 ? ms : std::min(timeout, ms);
    }
    return timeout;
}

bool Supervisor::iterate()
{
    if (m_ending && m_sessions.empty()) {
        // Every session is done; whatever else runs in the sandbox ends with it.
        if (getpid() == 1)
            kill(-1, SIGKILL);
        reap();
        return false;
    }
    std::vector<std::pair<int, int>> owners;
    std::vector<pollfd> fds = pollSet(owners);
    const int ready = poll(fds.data(), nfds_t(fds.size()), nextTimeoutMs());
    if (ready < 0 && errno != EINTR)
        return false;
    for (size_t i = 0; ready > 0 && i < fds.size(); ++i) {
        if (fds[i].revents)
            dispatch(owners[i], fds[i]);
    }
    finishExpired();
    std::vector<int> closing;
    for (auto &[id, client] : m_clients) {
        if (client->state == Client::State::Closing && client->out.empty())
            closing.push_back(id);
    }
    for (int id : closing) {
        close(m_clients.at(id)->fd);
        m_clients.erase(id);
    }
    return true;
}

void Supervisor::dispatch(std::pair<int, int> owner, const pollfd &fd)
{
    const auto [kind, id] = owner;
    if (kind == 0) {
        id == 0 ? onSignal() : accept();
        return;
    }
    if (kind == 1) {
        if (m_clients.count(id) && (fd.revents & POLLOUT))
            onClientWritable(*m_clients.at(id));
        if (m_clients.count(id) && (fd.revents & (POLLIN | POLLHUP | POLLERR)))
            onClientReadable(*m_clients.at(id));
        return;
    }
    const auto session = m_sessions.find(id);
    if (session == m_sessions.end())
        return;
    if (kind == 4)
        onSessionInput(*session->second);
    else
        onSessionOutput(*session->second, fd.fd, kind == 3);
}

void Supervisor::onSignal()
{
    signalfd_siginfo info{};
    while (read(m_signalFd, &info, sizeof info) == ssize_t(sizeof info)) {
        if (info.ssi_signo == SIGCHLD) {
            reap();
            continue;
        }
        // A signal from a process of the sandbox itself names its sender (ssi_pid > 0); one from
        // the host, whose pid this namespace cannot see, names none. Only the host may end the
        // sandbox or signal its agent this way.
        if (info.ssi_pid != 0 && getpid() == 1)
            continue;
        if (info.ssi_signo == SIGTERM || info.ssi_signo == SIGINT || info.ssi_signo == SIGHUP ||
            info.ssi_signo == SIGQUIT) {
            terminateEverything();
            continue;
        }
        // Anything else the host sends the sandbox goes to the agent, as a container's would.
        if (m_agentId)
            kill(-m_sessions.at(m_agentId)->process.pid, int(info.ssi_signo));
    }
}

void Supervisor::terminateEverything()
{
    if (m_ending)
        return;
    m_ending = true;
    // As PID 1 of its own namespace, every other process of the sandbox; otherwise each session.
    if (getpid() == 1)
        kill(-1, SIGTERM);
    else
        for (auto &[id, session] : m_sessions)
            kill(-session->process.pid, SIGTERM);
    if (m_config.listenFd >= 0) {
        close(m_config.listenFd);
        m_config.listenFd = -1;
    }
}

void Supervisor::reap()
{
    for (;;) {
        int status = 0;
        const pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0)
            return;
        for (auto &[id, session] : m_sessions) {
            if (session->process.pid != pid)
                continue;
            session->exited = true;
            session->status = shellStatus(status);
            session->exitedAt = std::chrono::steady_clock::now();
            if (session->agent) {
                m_agentStatus = session->status;
                m_agentFinished = now();
            }
        }
        // Others are orphans re-parented to PID 1: collected and forgotten.
    }
}

void Supervisor::accept()
{
    for (;;) {
        const int fd = accept4(m_config.listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        if (m_clients.size() >= kMaxClients) {
            const std::string refusal = session::encodeFrame(FrameType::Failure, "too many sessions are open");
            (void)!write(fd, refusal.data(), refusal.size());
            close(fd);
            continue;
        }
        auto client = std::make_unique<Client>();
        client->id = m_nextId++;
        client->fd = fd;
        m_clients.emplace(client->id, std::move(client));
    }
}

void Supervisor::onClientReadable(Client &client)
{
    char buffer[65536];
    const ssize_t n = read(client.fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        detachClient(client);
        close(client.fd);
        m_clients.erase(client.id);
        return;
    }
    client.reader.feed(buffer, size_t(n));
    takeFrames(client);
}

void Supervisor::takeFrames(Client &client)
{
    // A waiting client's frames stay queued until its Hello is acted on.
    while (client.state != Client::State::Closing && client.state != Client::State::Waiting) {
        std::optional<session::Frame> frame = client.reader.next();
        if (!frame)
            break;
        onFrame(client, std::move(*frame));
    }
    if (client.reader.failed())
        fail(client, "the session channel received a frame larger than allowed");
}

void Supervisor::onClientWritable(Client &client)
{
    const ssize_t n = write(client.fd, client.out.data(), client.out.size());
    if (n > 0)
        client.out.erase(0, size_t(n));
    else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        client.out.clear();
        detachClient(client);
        client.state = Client::State::Closing;
    }
}

void Supervisor::onFrame(Client &client, session::Frame frame)
{
    if (client.state == Client::State::Hello) {
        if (frame.type != FrameType::Hello)
            return fail(client, "the first frame must be a hello");
        client.reader.setLimit(session::kMaxPayload);
        return onHello(client, frame.payload);
    }
    const auto found = m_sessions.find(client.session);
    if (found == m_sessions.end())
        return;
    Session &session = *found->second;
    switch (frame.type) {
    case FrameType::Input:
        session.input += frame.payload;
        break;
    case FrameType::InputEnd:
        session.inputEnd = true;
        break;
    case FrameType::Window: {
        unsigned rows = 0, cols = 0;
        if (session.process.terminal >= 0 && std::sscanf(frame.payload.c_str(), "%u %u", &rows, &cols) == 2) {
            winsize size{};
            size.ws_row = (unsigned short)rows;
            size.ws_col = (unsigned short)cols;
            ioctl(session.process.terminal, TIOCSWINSZ, &size);
        }
        break;
    }
    case FrameType::Signal: {
        const int sig = std::atoi(frame.payload.c_str());
        if (sig > 0 && sig < 65 && !session.exited)
            kill(-session.process.pid, sig);
        break;
    }
    default:
        fail(client, "unexpected frame");
    }
}

void Supervisor::onHello(Client &client, const std::string &payload)
{
    session::Fields hello;
    if (!session::Fields::decode(payload, &hello))
        return fail(client, "the hello is malformed");
    if (!m_config.token.empty()) {
        // Compared in full whatever the input, so timing says nothing about the token.
        const std::string given = hello.get("token");
        unsigned char differs = given.size() != m_config.token.size();
        for (size_t i = 0; i < m_config.token.size(); ++i)
            differs |= (unsigned char)(m_config.token[i] ^ (i < given.size() ? given[i] : 0));
        if (differs)
            return fail(client, "this session channel needs the sandbox's token");
    }
    if (hello.number("version", 0) != session::kProtocolVersion)
        return fail(client, "paddock-init speaks session protocol version " +
                                std::to_string(session::kProtocolVersion) + "; update paddock or the sandbox");
    const std::string op = hello.get("op");
    if (m_startingUp && (op == "attach" || op == "spawn")) {
        client.state = Client::State::Waiting;
        client.hello = payload;
        return;
    }
    if (op == "attach")
        return attachAgent(client, hello);
    if (op == "spawn")
        return spawn(client, hello);
    if (op == "status") {
        sendStatus(client);
        client.state = Client::State::Closing;
        return;
    }
    if (op == "watch") {
        client.state = Client::State::Watching;
        return sendStatus(client);
    }
    fail(client, "unknown operation '" + op + "'");
}

} // namespace paddock::init
