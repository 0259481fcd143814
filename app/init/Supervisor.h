// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "Identity.h"
#include "Spawn.h"

#include "runtime/session/SessionProtocol.h"

#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <optional>
#include <poll.h>
#include <string>
#include <vector>

namespace paddock::init {

/** @brief How the sandbox's life is set up: given on paddock-init's command line. */
struct SupervisorConfig
{
    std::vector<std::string> agentArgv; ///< the kit's program
    bool startAgent = false;            ///< start it at once, nobody attached
    bool agentTerminal = false;         ///< the agent started at once gets a terminal of its own
    /** setup.startup: shell scripts run once, in order, before anything else, each as its uid
     *  (-1: the agent's user). */
    std::vector<std::pair<int, std::string>> startup;
    int listenFd = -1;        ///< the session socket, inherited (bubblewrap)
    std::string abstractName; ///< or an abstract unix socket to listen on (containers)
    std::string token;        ///< required in every Hello when not empty
};

/**
 * @brief paddock-init's life as a sandbox's supervisor: the sandbox stays up until it is
 * stopped, whatever its agent does.
 *
 * It serves the session channel (runtime/session/SessionProtocol.h): the agent session, kept
 * in a terminal of its own with its recent output, which clients attach to and leave; other
 * sessions (a shell, a command) started on request; and the agent's state for the host. The
 * channel is reachable only from the host: under bubblewrap the socket is an inherited fd
 * whose path the sandbox cannot see; under a container engine clients must present the
 * token the host gave on the command line (wiped from memory at start). Sessions run with no
 * capability, as root or the agent's user (Identity). SIGTERM, SIGINT or SIGHUP ends every
 * process of the sandbox; paddock-init exits when they are gone, with the agent's last status.
 */
class Supervisor
{
public:
    Supervisor(SupervisorConfig config, Identity identity);
    ~Supervisor();
    /** Runs until the sandbox is told to end; returns paddock-init's exit status. */
    int run(const sigset_t &handled);

private:
    /** @brief A started program: the agent, a command, or setup.startup. */
    struct Session
    {
        int id = 0;
        bool agent = false;
        Spawned process;
        bool exited = false;
        int status = 0;
        std::chrono::steady_clock::time_point exitedAt;
        std::string ring;         ///< the agent's recent output, replayed on attach
        std::string input;        ///< bytes for its stdin or terminal, not yet written
        bool inputEnd = false;    ///< end its input once @ref input is written
        std::vector<int> clients; ///< ids of the attached clients

        bool outputOpen() const { return process.terminal >= 0 || process.output >= 0 || process.errors >= 0; }
    };
    /** @brief One connection on the session channel. */
    struct Client
    {
        enum class State {
            Hello,
            Waiting,
            Attached,
            Command,
            Watching,
            Closing
        };
        int id = 0;
        int fd = -1;
        State state = State::Hello;
        int session = 0;
        session::FrameReader reader{session::kMaxHello};
        std::string out;
        std::string hello; ///< a Hello kept while setup.startup runs (State::Waiting)
    };

    static constexpr size_t kRingBytes = 64 * 1024;           ///< the agent's output kept for attach
    static constexpr size_t kClientBacklog = 4 * 1024 * 1024; ///< a client further behind is dropped or waited for
    static constexpr size_t kInputBacklog = 1024 * 1024;      ///< a session's unwritten input before its client waits
    static constexpr size_t kMaxClients = 64;
    /** After a process ends, its output still in flight is read for this long at most. */
    static constexpr std::chrono::milliseconds kDrain{200};

    bool setUp(const sigset_t &handled, std::string *error);
    void runStartup();
    /** One pass of the event loop; false once the sandbox has ended. */
    bool iterate();
    void dispatch(std::pair<int, int> owner, const pollfd &fd);
    std::vector<pollfd> pollSet(std::vector<std::pair<int, int>> &owners);
    int nextTimeoutMs() const;

    void onSignal();
    void reap();
    void accept();
    void onClientReadable(Client &client);
    void onClientWritable(Client &client);
    void takeFrames(Client &client);
    void onFrame(Client &client, session::Frame frame);
    void onHello(Client &client, const std::string &payload);
    void onSessionOutput(Session &session, int fd, bool errors);
    void onSessionInput(Session &session);
    void finishExpired();

    void attachAgent(Client &client, const session::Fields &hello);
    void spawn(Client &client, const session::Fields &hello);
    void sendStatus(Client &client);
    void notifyWatchers();

    Session *startSession(const SpawnRequest &request, bool agent, SpawnFailure *failure);
    /** Records that the agent could not start: its status as a shell reports it, and why. */
    void agentDidNotStart(const SpawnFailure &failure);
    /** Why attaching to the agent cannot be done now: not started, or how it ended. */
    std::string agentNotRunning() const;
    SpawnRequest requestFrom(const session::Fields &hello, bool agent, std::string *error) const;
    void drainOutput(Session &session);
    void finishSession(Session &session);
    void send(Client &client, session::FrameType type, const std::string &payload);
    void fail(Client &client, const std::string &sentence);
    void detachClient(Client &client);
    void terminateEverything();

    SupervisorConfig m_config;
    Identity m_identity;
    std::vector<std::string> m_environment;
    std::string m_workingDir;
    int m_signalFd = -1;
    std::map<int, std::unique_ptr<Session>> m_sessions;
    std::map<int, std::unique_ptr<Client>> m_clients;
    int m_nextId = 1;
    int m_agentId = 0; ///< the running agent session, 0 when none
    std::optional<int> m_agentStatus;
    long long m_agentStarted = 0;
    long long m_agentFinished = 0;
    /** Why the agent could not start ("pi: command not found"): one line, bounded. */
    std::string m_agentReason;
    int m_agentPid = 0;
    bool m_ending = false;
    bool m_startingUp = false; ///< setup.startup runs: sessions wait, status answers at once
};

} // namespace paddock::init
