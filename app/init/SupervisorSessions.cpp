// SPDX-License-Identifier: GPL-3.0-or-later
// The sessions of the Supervisor: starting them, carrying their input and output, ending them.
#include "Supervisor.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace paddock::init {

using session::FrameType;

namespace {

void writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        data += n;
        size -= size_t(n);
    }
}

void closeFd(int &fd)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
}

} // namespace

SpawnRequest Supervisor::requestFrom(const session::Fields &hello, bool agent, std::string *error) const
{
    SpawnRequest request;
    request.argv = hello.all("arg");
    if (request.argv.empty() && agent)
        request.argv = m_config.agentArgv;
    if (request.argv.empty())
        *error = "no command to run";
    request.environment = m_environment;
    for (const std::string &entry : hello.all("env")) {
        const size_t equals = entry.find('=');
        if (equals == 0 || equals == std::string::npos) {
            *error = "an environment entry must be NAME=VALUE, not '" + entry + "'";
            continue;
        }
        const std::string prefix = entry.substr(0, equals + 1);
        request.environment.erase(std::remove_if(request.environment.begin(), request.environment.end(),
                                                 [&](const std::string &e) { return e.rfind(prefix, 0) == 0; }),
                                  request.environment.end());
        request.environment.push_back(entry);
    }
    request.workingDir = hello.get("cwd", m_workingDir);
    std::string userError;
    request.uid = m_identity.resolve(hello.get("user"), &userError);
    if (request.uid < 0)
        *error = userError;
    request.terminal = hello.flag("tty");
    request.rows = (unsigned short)std::clamp<long long>(hello.number("rows", 24), 1, 1000);
    request.cols = (unsigned short)std::clamp<long long>(hello.number("cols", 80), 1, 1000);
    return request;
}

Supervisor::Session *Supervisor::startSession(const SpawnRequest &request, bool agent, SpawnFailure *failure)
{
    Spawned process;
    if (!m_identity.ensureUser(request.uid, &failure->message) || !spawnSession(request, m_identity, &process, failure))
        return nullptr;
    auto session = std::make_unique<Session>();
    session->id = m_nextId++;
    session->agent = agent;
    session->process = process;
    Session *started = session.get();
    m_sessions.emplace(session->id, std::move(session));
    if (agent) {
        m_agentId = started->id;
        m_agentPid = process.pid;
        m_agentStarted = (long long)std::time(nullptr);
        m_agentFinished = 0;
        m_agentStatus.reset();
        m_agentReason.clear();
        notifyWatchers();
    }
    return started;
}

void Supervisor::attachAgent(Client &client, const session::Fields &hello)
{
    if (!m_agentId) {
        if (!hello.flag("start"))
            return fail(client, agentNotRunning());
        session::Fields start = hello;
        start.add("tty", "1");
        SpawnFailure failure;
        const SpawnRequest request = requestFrom(start, true, &failure.message);
        if (!failure.message.empty() || !startSession(request, true, &failure)) {
            agentDidNotStart(failure);
            return fail(client, agentNotRunning());
        }
    }
    Session &agent = *m_sessions.at(m_agentId);
    client.state = Client::State::Attached;
    client.session = agent.id;
    agent.clients.push_back(client.id);
    session::Fields ready;
    ready.add("pid", std::to_string(agent.process.pid));
    ready.add("session", "agent");
    ready.add("tty", agent.process.terminal >= 0 ? "1" : "0");
    send(client, FrameType::Ready, ready.encode());
    if (hello.flag("replay") && !agent.ring.empty())
        send(client, FrameType::Output, agent.ring);
    if (agent.process.terminal < 0 || !hello.has("rows"))
        return;
    // The client's size; a program drawing the whole screen redraws on SIGWINCH, which the
    // kernel sends only when the size changes, so an unchanged size gets the signal by hand.
    winsize current{};
    ioctl(agent.process.terminal, TIOCGWINSZ, &current);
    winsize wanted = current;
    wanted.ws_row = (unsigned short)std::clamp<long long>(hello.number("rows", 24), 1, 1000);
    wanted.ws_col = (unsigned short)std::clamp<long long>(hello.number("cols", 80), 1, 1000);
    if (wanted.ws_row != current.ws_row || wanted.ws_col != current.ws_col)
        ioctl(agent.process.terminal, TIOCSWINSZ, &wanted);
    else if (const pid_t group = tcgetpgrp(agent.process.terminal); group > 0)
        kill(-group, SIGWINCH);
}

void Supervisor::spawn(Client &client, const session::Fields &hello)
{
    // With an agent already running, a second one runs beside it as a command session: two
    // terminals starting the agent at once (shims) both get one.
    const bool agent = hello.flag("agent") && !m_agentId;
    std::string error;
    const SpawnRequest request = requestFrom(hello, agent, &error);
    if (!error.empty())
        return fail(client, error);
    SpawnFailure failure;
    Session *started = startSession(request, agent, &failure);
    if (!started && failure.exitCode) {
        // The program itself could not run: reported as a shell would, with its status.
        session::Fields ready;
        ready.add("session", "command");
        send(client, FrameType::Ready, ready.encode());
        send(client, FrameType::ErrorOutput, "paddock-init: " + failure.message + "\n");
        send(client, FrameType::Exit, std::to_string(failure.exitCode));
        client.state = Client::State::Closing;
        return;
    }
    if (!started)
        return fail(client, failure.message);
    client.state = agent ? Client::State::Attached : Client::State::Command;
    client.session = started->id;
    started->clients.push_back(client.id);
    session::Fields ready;
    ready.add("pid", std::to_string(started->process.pid));
    ready.add("session", agent ? "agent" : "command");
    ready.add("tty", request.terminal ? "1" : "0");
    send(client, FrameType::Ready, ready.encode());
}

void Supervisor::sendStatus(Client &client)
{
    session::Fields status;
    if (m_agentId) {
        status.add("agent", "running");
        status.add("pid", std::to_string(m_agentPid));
        status.add("attached", std::to_string(m_sessions.at(m_agentId)->clients.size()));
    } else {
        status.add("agent", m_agentStatus ? "exited" : "none");
    }
    if (m_agentStatus)
        status.add("status", std::to_string(*m_agentStatus));
    if (m_agentStarted)
        status.add("started", std::to_string(m_agentStarted));
    if (m_agentFinished)
        status.add("finished", std::to_string(m_agentFinished));
    if (!m_agentId && !m_agentReason.empty())
        status.add("reason", m_agentReason);
    status.add("sessions", std::to_string(m_sessions.size() - (m_agentId ? 1 : 0)));
    send(client, FrameType::Status, status.encode());
}

void Supervisor::notifyWatchers()
{
    for (auto &[id, client] : m_clients) {
        if (client->state == Client::State::Watching)
            sendStatus(*client);
    }
}

void Supervisor::onSessionOutput(Session &session, int fd, bool errors)
{
    char buffer[65536];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (n <= 0) {
        // End of file, or EIO once no process holds the terminal any more.
        if (fd == session.process.terminal)
            closeFd(session.process.terminal);
        else if (fd == session.process.output)
            closeFd(session.process.output);
        else
            closeFd(session.process.errors);
        return;
    }
    const std::string_view bytes(buffer, size_t(n));
    if (session.agent) {
        session.ring.append(bytes);
        if (session.ring.size() > kRingBytes)
            session.ring.erase(0, session.ring.size() - kRingBytes);
    }
    // The agent's output, and that of commands nobody watches (setup.startup), go to the log.
    if (session.agent || session.clients.empty())
        writeAll(errors ? STDERR_FILENO : STDOUT_FILENO, buffer, size_t(n));
    const std::vector<int> clients = session.clients;
    for (int id : clients) {
        const auto found = m_clients.find(id);
        if (found == m_clients.end())
            continue;
        Client &client = *found->second;
        if (session.agent && client.out.size() > kClientBacklog) {
            // The agent never waits for a terminal that stopped reading: that one is let go.
            detachClient(client);
            client.out.clear();
            client.state = Client::State::Closing;
            continue;
        }
        send(client, errors ? FrameType::ErrorOutput : FrameType::Output, std::string(bytes));
    }
}

void Supervisor::onSessionInput(Session &session)
{
    const bool terminal = session.process.terminal >= 0;
    int &fd = terminal ? session.process.terminal : session.process.input;
    if (!session.input.empty()) {
        const ssize_t n = write(fd, session.input.data(), session.input.size());
        if (n > 0)
            session.input.erase(0, size_t(n));
        else if (n < 0 && errno != EAGAIN && errno != EINTR) {
            session.input.clear();
            if (!terminal)
                closeFd(fd);
        }
        return;
    }
    if (!session.inputEnd)
        return;
    session.inputEnd = false;
    if (!terminal) {
        closeFd(fd);
        return;
    }
    // A terminal has no end of input: its end-of-file character is what a program sees.
    termios mode{};
    const char eof = tcgetattr(fd, &mode) == 0 ? char(mode.c_cc[VEOF]) : char(4);
    (void)!write(fd, &eof, 1);
}

void Supervisor::finishExpired()
{
    const auto moment = std::chrono::steady_clock::now();
    std::vector<int> done;
    for (auto &[id, session] : m_sessions) {
        if (session->exited && (!session->outputOpen() || moment - session->exitedAt >= kDrain))
            done.push_back(id);
    }
    for (int id : done)
        finishSession(*m_sessions.at(id));
}

void Supervisor::drainOutput(Session &session)
{
    // What the process wrote before it ended is read to the last byte available now (bounded:
    // a process it left behind may still be writing).
    for (int pass = 0; pass < 64; ++pass) {
        bool readable = false;
        for (int *fd : {&session.process.terminal, &session.process.output, &session.process.errors}) {
            pollfd check{*fd, POLLIN, 0};
            if (*fd >= 0 && poll(&check, 1, 0) > 0 && (check.revents & (POLLIN | POLLHUP | POLLERR))) {
                onSessionOutput(session, *fd, fd == &session.process.errors);
                readable = true;
            }
        }
        if (!readable)
            return;
    }
}

void Supervisor::finishSession(Session &session)
{
    drainOutput(session);
    const std::string status = std::to_string(session.status);
    for (int id : session.clients) {
        const auto found = m_clients.find(id);
        if (found == m_clients.end())
            continue;
        send(*found->second, FrameType::Exit, status);
        found->second->state = Client::State::Closing;
        found->second->session = 0;
    }
    closeFd(session.process.terminal);
    closeFd(session.process.input);
    closeFd(session.process.output);
    closeFd(session.process.errors);
    const bool agent = session.agent;
    m_sessions.erase(session.id);
    if (agent) {
        m_agentId = 0;
        notifyWatchers();
    }
}

void Supervisor::send(Client &client, FrameType type, const std::string &payload)
{
    if (client.state == Client::State::Closing)
        return;
    client.out += session::encodeFrame(type, payload);
}

void Supervisor::fail(Client &client, const std::string &sentence)
{
    send(client, FrameType::Failure, sentence);
    detachClient(client);
    client.state = Client::State::Closing;
}

void Supervisor::detachClient(Client &client)
{
    const auto found = m_sessions.find(client.session);
    client.session = 0;
    if (found == m_sessions.end())
        return;
    Session &session = *found->second;
    session.clients.erase(std::remove(session.clients.begin(), session.clients.end(), client.id),
                          session.clients.end());
    // A command whose caller went away is hung up, as a closed terminal would; the agent stays.
    if (!session.agent && session.clients.empty() && !session.exited) {
        kill(-session.process.pid, SIGHUP);
        kill(-session.process.pid, SIGCONT);
    }
}

} // namespace paddock::init
