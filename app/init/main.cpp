// SPDX-License-Identifier: GPL-3.0-or-later
//
// paddock-init: PID 1 inside a sandbox.
//
//   paddock-init [--relay HOST:PORT=UNIX_SOCKET]... [--capture] [--publish PORT=UNIX_SOCKET]...
//                [--become UID:GID]
//                [--session-fd FD | --session-listen NAME --session-token TOKEN]
//                [--agent-user UID:GID] [--start-agent [--agent-terminal]]
//                [--startup SCRIPT] [--startup-step UID:SCRIPT]...
//                [--seccomp-fd FD] [--max-processes N] [--max-memory BYTES]
//                [--] PROGRAM [ARG]...
//   paddock-init --session-client NAME
//   paddock-init --proxy-mux UNIX_SOCKET [--proxy-mux-ports UNIX_SOCKET]   (a sandbox on another
//                computer: its way out, and its published ports; ProxyMux.h)
//   paddock-init --write-log PATH [--log-limit BYTES]
//   paddock-init --drop-capabilities -- PROGRAM [ARG]...   (an Engine exec as another user)
//   paddock-init --mount-root OPTIONS -- BWRAP [ARG]...   (on the host: see RootStage.h)
//
// - Listens on each HOST:PORT (loopback inside the sandbox) and relays every connection
//   to UNIX_SOCKET, the sandbox's own proxy endpoint bind-mounted from the host. The
//   sandbox has no other network, so this is its only way out.
// - With --capture, every TCP connection of the sandbox to any address comes to the first
//   relay too, and says where it was going; names are answered inside (SandboxNetwork.h).
// - With --become (a container started as root for capture), it becomes UID:GID and gives up
//   every capability before anything of the sandbox runs.
// - Publishes each PORT: keeps connections open to UNIX_SOCKET, the daemon's side of the
//   published ports, and joins each one the daemon uses to a new connection to
//   127.0.0.1:PORT inside (see Publish.h). The variable PADDOCK_PUBLISH ("PORT=SOCKET ...")
//   does the same for runtimes that cannot add options; it is removed before PROGRAM starts.
// - With --session-fd (a listening unix socket it inherits) or --session-listen (an abstract
//   socket, with a token every client must present), it is the sandbox's supervisor: the
//   sandbox lives until it is stopped, PROGRAM is the agent session that terminals attach to
//   and leave, and other sessions start on request (Supervisor.h).
// - With --write-log, it is no init at all but the host's side of a detached sandbox's log:
//   it copies standard input to PATH, rotated at BYTES (LogWriter.h).
// - Otherwise it starts PROGRAM, forwards the usual termination and job-control signals to it,
//   reaps every child that is re-parented to it (zombies), and exits with PROGRAM's status
//   (128 + signal number when PROGRAM was killed by a signal), as a shell would report it.
//
// Static, C++ standard library and libc only: it runs in images that have neither Qt nor a
// matching libc.

#include "ChannelRelay.h"
#include "Identity.h"
#include "LogWriter.h"
#include "ProxyMux.h"
#include "Publish.h"
#include "Relay.h"
#include "RootStage.h"
#include "SandboxNetwork.h"
#include "Supervisor.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kForwardedSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT, SIGTSTP};

void usage(FILE *to)
{
    std::fprintf(to, "Usage: paddock-init [--relay HOST:PORT=UNIX_SOCKET]... [--relay-hand-over] [--capture]\n"
                     "                    [--publish PORT=UNIX_SOCKET]... [--become UID:GID]\n"
                     "                    [--session-fd FD | --session-listen NAME --session-token TOKEN]\n"
                     "                    [--agent-user UID:GID] [--start-agent [--agent-terminal]]\n"
                     "                    [--startup SCRIPT] [--startup-step UID:SCRIPT]... [--seccomp-fd FD]\n"
                     "                    [--max-processes N] [--max-memory BYTES]\n"
                     "                    [--] PROGRAM [ARG]...\n"
                     "       paddock-init --session-client NAME\n"
                     "       paddock-init --proxy-mux UNIX_SOCKET [--proxy-mux-ports UNIX_SOCKET]\n"
                     "       paddock-init --write-log PATH [--log-limit BYTES]\n"
                     "Runs PROGRAM as the child of a minimal init: relays loopback ports to the\n"
                     "proxy socket, publishes ports through the daemon's socket, forwards signals,\n"
                     "reaps zombies, exits with PROGRAM's status.\n");
}

int exitStatusOf(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/** @brief paddock-init's command line. */
struct Options
{
    paddock::init::NetworkOptions network;
    paddock::init::SupervisorConfig supervisor;
    std::string become; ///< UID:GID to become once capture is set up (a container started as root)
    std::string agentUser;
    std::string sessionClient;
    std::string proxyMux;
    std::string proxyMuxPorts;
    std::string logPath;
    long long logLimit = 0;
    int seccompFd = -1;
    int maxProcesses = 0;
    long long maxMemory = 0;
    char **program = nullptr;
};

bool parseNumber(const char *text, int *value)
{
    char *end = nullptr;
    const long number = std::strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || number < 0 || number > 1 << 20)
        return false;
    *value = int(number);
    return true;
}

/** Options that take a number; false when @p arg is none of them. */
bool parseNumericOption(const std::string &arg, const char *value, Options *options, std::string *error)
{
    char *end = nullptr;
    if (arg == "--session-fd") {
        if (!parseNumber(value, &options->supervisor.listenFd) || options->supervisor.listenFd < 3)
            *error = "--session-fd expects a file descriptor number from 3";
    } else if (arg == "--log-limit") {
        options->logLimit = std::strtoll(value, &end, 10);
        if (*end != '\0' || options->logLimit < 4096)
            *error = "--log-limit expects a number of bytes from 4096";
    } else if (arg == "--seccomp-fd") {
        if (!parseNumber(value, &options->seccompFd) || options->seccompFd < 3)
            *error = "--seccomp-fd expects a file descriptor number from 3";
    } else if (arg == "--max-processes") {
        if (!parseNumber(value, &options->maxProcesses) || options->maxProcesses < 16)
            *error = "--max-processes expects a number from 16";
    } else if (arg == "--max-memory") {
        options->maxMemory = std::strtoll(value, &end, 10);
        if (*end != '\0' || options->maxMemory < (1LL << 24))
            *error = "--max-memory expects a number of bytes from 16 MiB";
    } else {
        return false;
    }
    return true;
}

/** Options that take a value (@p value); false when @p arg is none of them. */
bool parseValueOption(const std::string &arg, char *value, Options *options, std::string *error)
{
    if (arg == "--relay") {
        paddock::init::RelaySpec spec;
        if (paddock::init::parseRelaySpec(value, &spec, error))
            options->network.relays.push_back(spec);
    } else if (arg == "--publish") {
        paddock::init::PublishSpec spec;
        if (paddock::init::parsePublishSpec(value, &spec, error))
            options->network.publishes.push_back(spec);
    } else if (arg == "--become") {
        options->become = value;
    } else if (arg == "--session-listen") {
        options->supervisor.abstractName = value;
    } else if (arg == "--session-token") {
        options->supervisor.token = value;
        // Wiped from the command line others can read in /proc before anything else runs.
        std::memset(value, 0, std::strlen(value));
    } else if (arg == "--session-client") {
        options->sessionClient = value;
    } else if (arg == "--proxy-mux") {
        options->proxyMux = value;
    } else if (arg == "--proxy-mux-ports") {
        options->proxyMuxPorts = value;
    } else if (arg == "--write-log") {
        options->logPath = value;
    } else if (arg == "--agent-user") {
        options->agentUser = value;
    } else if (arg == "--startup") {
        options->supervisor.startup.emplace_back(-1, value);
    } else if (arg == "--startup-step") {
        const std::string step = value;
        int uid = -1;
        const size_t colon = step.find(':');
        if (colon == std::string::npos || !parseNumber(step.substr(0, colon).c_str(), &uid) || uid > 65534)
            *error = "--startup-step expects UID:SCRIPT";
        else
            options->supervisor.startup.emplace_back(uid, step.substr(colon + 1));
    } else {
        return parseNumericOption(arg, value, options, error);
    }
    return true;
}

/** PROGRAM from argv[@p first] on, and the ports of PADDOCK_PUBLISH; an exit status on failure. */
std::optional<int> takeProgram(int argc, char *argv[], int first, Options *options)
{
    if (!options->sessionClient.empty() || !options->proxyMux.empty() || !options->logPath.empty())
        return std::nullopt;
    if (first >= argc) {
        usage(stderr);
        return 2;
    }
    options->program = argv + first;
    for (int k = first; k < argc; ++k)
        options->supervisor.agentArgv.emplace_back(argv[k]);
    if (const char *fromEnvironment = std::getenv(paddock::init::kPublishVariable)) {
        std::string error;
        if (!paddock::init::parsePublishList(fromEnvironment, &options->network.publishes, &error)) {
            std::fprintf(stderr, "paddock-init: %s: %s\n", paddock::init::kPublishVariable, error.c_str());
            return 2;
        }
        // Meant for paddock-init alone; removed before any thread starts (setenv is not thread-safe).
        unsetenv(paddock::init::kPublishVariable);
    }
    return std::nullopt;
}

/** Parses argv into @p options; returns an exit status when paddock-init must stop there. */
std::optional<int> parseOptions(int argc, char *argv[], Options *options)
{
    int i = 1;
    std::string error;
    for (; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg == "-h" || arg == "--help") {
            usage(stdout);
            return 0;
        }
        if (arg == "--start-agent")
            options->supervisor.startAgent = true;
        else if (arg == "--agent-terminal")
            options->supervisor.agentTerminal = true;
        else if (arg == "--relay-hand-over")
            options->network.handOver = true;
        else if (arg == "--capture")
            options->network.capture = true;
        else if (i + 1 < argc && parseValueOption(arg, argv[i + 1], options, &error))
            ++i;
        else if (arg.rfind("-", 0) == 0)
            error = "unknown option " + arg;
        else
            break;
        if (!error.empty())
            break;
    }
    if (!error.empty()) {
        std::fprintf(stderr, "paddock-init: %s\n", error.c_str());
        return 2;
    }
    return takeProgram(argc, argv, i, options);
}

/**
 * Gives @p uid a line in the image's /etc/passwd (and @p gid one in /etc/group) when it has none:
 * ssh, git and psql look their user up and stop without one. The files are root's, and this
 * runs as root before becoming the user; an image whose /etc cannot be written keeps its own.
 */
void ensureAccount(int uid, int gid)
{
    const auto hasId = [](const char *path, int id) {
        FILE *file = std::fopen(path, "re");
        if (!file)
            return true; // nothing to add to
        char line[1024];
        bool found = false;
        while (!found && std::fgets(line, sizeof line, file)) {
            const char *third = std::strchr(line, ':');
            third = third ? std::strchr(third + 1, ':') : nullptr;
            found = third && std::atoi(third + 1) == id && third[1] >= '0' && third[1] <= '9';
        }
        std::fclose(file);
        return found;
    };
    const char *home = std::getenv("HOME");
    if (!hasId("/etc/passwd", uid)) {
        if (FILE *passwd = std::fopen("/etc/passwd", "ae")) {
            std::fprintf(passwd, "agent:x:%d:%d:Paddock agent:%s:/bin/sh\n", uid, gid, home ? home : "/");
            std::fclose(passwd);
        }
    }
    if (!hasId("/etc/group", gid)) {
        if (FILE *group = std::fopen("/etc/group", "ae")) {
            std::fprintf(group, "agent:x:%d:\n", gid);
            std::fclose(group);
        }
    }
}

/**
 * Becomes @p user ("UID:GID") for good: a container started as root so that capture could be set
 * up gives every capability up, the bounding set first (no program started later regains one).
 */
bool become(const std::string &user)
{
    int uid = -1;
    int gid = -1;
    const std::size_t colon = user.find(':');
    if (colon == std::string::npos || !parseNumber(user.substr(0, colon).c_str(), &uid) ||
        !parseNumber(user.substr(colon + 1).c_str(), &gid)) {
        std::fprintf(stderr, "paddock-init: --become expects UID:GID, got '%s'\n", user.c_str());
        return false;
    }
    ensureAccount(uid, gid);
    for (int cap = 0; cap <= 63; ++cap) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1)
            prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    }
    if (setgroups(0, nullptr) != 0 || setresgid(gid_t(gid), gid_t(gid), gid_t(gid)) != 0 ||
        setresuid(uid_t(uid), uid_t(uid), uid_t(uid)) != 0) {
        std::fprintf(stderr, "paddock-init: cannot become %s: %s\n", user.c_str(), std::strerror(errno));
        return false;
    }
    return true;
}

/** Capture while it can, then who it runs as: a status when it must stop. */
std::optional<int> setUpPrivileged(const Options &options, paddock::init::CapturedNetwork *captured)
{
    *captured = paddock::init::prepareCapture(options.network);
    if (!options.become.empty() && !become(options.become))
        return 1;
    // A change of user makes a process dumpable again: nothing inside may trace paddock-init.
    prctl(PR_SET_DUMPABLE, 0);
    return std::nullopt;
}

/** The sandbox's supervisor: it lives until it is stopped. */
int runSupervised(Options &options, const sigset_t &handled)
{
    // Nothing in the sandbox may trace paddock-init or read its memory, environment or fds.
    prctl(PR_SET_DUMPABLE, 0);
    paddock::init::CapturedNetwork captured;
    if (const std::optional<int> failed = setUpPrivileged(options, &captured))
        return *failed;
    paddock::init::Identity identity;
    std::string error;
    // Every process of the sandbox counts against one limit: set before the agent's namespace is
    // made, whose processes are then held to it too (RLIMIT_NPROC counts per user namespace).
    if (options.maxProcesses > 0) {
        const rlimit limit{rlim_t(options.maxProcesses), rlim_t(options.maxProcesses)};
        setrlimit(RLIMIT_NPROC, &limit);
    }
    identity.setMemoryLimit(options.maxMemory);
    // The agent's namespace is made before any thread exists, and no capability is kept after.
    if (!identity.configure(options.agentUser, &error) || !identity.prepare(&error) ||
        (options.seccompFd >= 0 && !identity.readFilter(options.seccompFd, &error))) {
        std::fprintf(stderr, "paddock-init: %s\n", error.c_str());
        return 1;
    }
    paddock::init::Identity::dropOwnCapabilities();
    std::vector<int> listeners;
    if (const std::optional<int> failed = paddock::init::startNetwork(options.network, captured, &listeners))
        return *failed;
    paddock::init::Supervisor supervisor(std::move(options.supervisor), identity);
    const int status = supervisor.run(handled);
    std::fflush(nullptr);
    return status;
}

/** A program run to its end: paddock-init exits with its status. */
int runProgram(const Options &options, const sigset_t &original, const sigset_t &handled)
{
    paddock::init::CapturedNetwork captured;
    if (const std::optional<int> failed = setUpPrivileged(options, &captured))
        return *failed;
    std::vector<int> listeners;
    if (const std::optional<int> failed = paddock::init::startNetwork(options.network, captured, &listeners))
        return *failed;
    const pid_t child = fork();
    if (child < 0) {
        std::fprintf(stderr, "paddock-init: cannot fork: %s\n", std::strerror(errno));
        return 1;
    }
    if (child == 0) {
        sigprocmask(SIG_SETMASK, &original, nullptr);
        std::signal(SIGPIPE, SIG_DFL);
        for (int fd : listeners)
            close(fd);
        execvp(options.program[0], options.program);
        std::fprintf(stderr, "paddock-init: cannot run %s: %s\n", options.program[0], std::strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    for (;;) {
        siginfo_t info{};
        const int sig = sigwaitinfo(&handled, &info);
        if (sig < 0)
            continue; // EINTR
        if (sig != SIGCHLD) {
            kill(child, sig);
            continue;
        }
        for (;;) {
            int status = 0;
            const pid_t reaped = waitpid(-1, &status, WNOHANG);
            if (reaped <= 0)
                break;
            if (reaped == child) {
                // The program is done: whatever it left behind goes down with the sandbox.
                std::fflush(nullptr);
                return exitStatusOf(status);
            }
        }
    }
}

/**
 * Gives up every capability, for good, then runs PROGRAM: an Engine exec in a container that
 * started as root for capture gets that container's capabilities, which no command of the
 * sandbox may hold (DockerSandboxLayout.h).
 */
int dropCapabilitiesAndRun(int argc, char *argv[])
{
    if (argc < 4 || std::strcmp(argv[2], "--") != 0) {
        usage(stderr);
        return 2;
    }
    for (int cap = 0; cap <= 63; ++cap) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1)
            prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    }
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (!paddock::init::Identity::dropAllCapabilities()) {
        std::fprintf(stderr, "paddock-init: cannot give up capabilities: %s\n", std::strerror(errno));
        return 126;
    }
    execvp(argv[3], argv + 3);
    std::fprintf(stderr, "paddock-init: cannot run %s: %s\n", argv[3], std::strerror(errno));
    return errno == ENOENT ? 127 : 126;
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc > 1 && std::strcmp(argv[1], "--mount-root") == 0)
        return paddock::init::runRootStage(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "--drop-capabilities") == 0)
        return dropCapabilitiesAndRun(argc, argv);
    Options options;
    if (const std::optional<int> stop = parseOptions(argc, argv, &options))
        return *stop;
    std::signal(SIGPIPE, SIG_IGN);
    if (!options.logPath.empty())
        return paddock::init::writeLog(options.logPath, options.logLimit);
    if (!options.sessionClient.empty()) {
        // The host's Hello, token and all, passes through this process: it runs as the agent's
        // user, whose other processes must not trace it or read its memory.
        prctl(PR_SET_DUMPABLE, 0);
        return paddock::init::relayChannel(options.sessionClient);
    }
    if (!options.proxyMux.empty())
        return paddock::init::runProxyMux(options.proxyMux, options.proxyMuxPorts);

    // Signals are taken synchronously by the main thread only; every other thread (the
    // relay) inherits the blocked mask, so none is delivered where it would be lost.
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    for (int sig : kForwardedSignals)
        sigaddset(&handled, sig);
    sigset_t original;
    sigprocmask(SIG_BLOCK, &handled, &original);

    // Outside a PID namespace, still collect orphans of our own tree.
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const bool supervised = options.supervisor.listenFd >= 0 || !options.supervisor.abstractName.empty();
    return supervised ? runSupervised(options, handled) : runProgram(options, original, handled);
}
