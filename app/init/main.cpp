// SPDX-License-Identifier: GPL-3.0-or-later
//
// paddock-init: PID 1 inside a sandbox.
//
//   paddock-init [--relay HOST:PORT=UNIX_SOCKET]... [--publish PORT=UNIX_SOCKET]...
//                [--] PROGRAM [ARG]...
//
// - Listens on each HOST:PORT (loopback inside the sandbox) and relays every connection
//   to UNIX_SOCKET, the sandbox's own proxy endpoint bind-mounted from the host. The
//   sandbox has no other network, so this is its only way out.
// - Publishes each PORT: keeps connections open to UNIX_SOCKET, the daemon's side of the
//   published ports, and joins each one the daemon uses to a new connection to
//   127.0.0.1:PORT inside (see Publish.h). The variable PADDOCK_PUBLISH ("PORT=SOCKET ...")
//   does the same for runtimes that cannot add options; it is removed before PROGRAM starts.
// - Starts PROGRAM, forwards the usual termination and job-control signals to it, reaps
//   every child that is re-parented to it (zombies), and exits with PROGRAM's status
//   (128 + signal number when PROGRAM was killed by a signal), as a shell would report it.
//
// Static, C++ standard library and libc only: it runs in images that have neither Qt nor a
// matching libc.

#include "Publish.h"
#include "Relay.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kForwardedSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT, SIGTSTP};

void usage(FILE *to)
{
    std::fprintf(to, "Usage: paddock-init [--relay HOST:PORT=UNIX_SOCKET]... [--publish PORT=UNIX_SOCKET]...\n"
                     "                    [--] PROGRAM [ARG]...\n"
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

} // namespace

int main(int argc, char *argv[])
{
    std::vector<paddock::init::RelaySpec> relays;
    std::vector<paddock::init::PublishSpec> publishes;
    int i = 1;
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
        if (arg == "--relay" && i + 1 < argc) {
            paddock::init::RelaySpec spec;
            std::string error;
            if (!paddock::init::parseRelaySpec(argv[++i], &spec, &error)) {
                std::fprintf(stderr, "paddock-init: %s\n", error.c_str());
                return 2;
            }
            relays.push_back(spec);
            continue;
        }
        if (arg == "--publish" && i + 1 < argc) {
            paddock::init::PublishSpec spec;
            std::string error;
            if (!paddock::init::parsePublishSpec(argv[++i], &spec, &error)) {
                std::fprintf(stderr, "paddock-init: %s\n", error.c_str());
                return 2;
            }
            publishes.push_back(spec);
            continue;
        }
        if (arg.rfind("-", 0) == 0) {
            std::fprintf(stderr, "paddock-init: unknown option %s\n", arg.c_str());
            usage(stderr);
            return 2;
        }
        break;
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    if (const char *fromEnvironment = std::getenv(paddock::init::kPublishVariable)) {
        std::string error;
        if (!paddock::init::parsePublishList(fromEnvironment, &publishes, &error)) {
            std::fprintf(stderr, "paddock-init: %s: %s\n", paddock::init::kPublishVariable, error.c_str());
            return 2;
        }
        // Meant for paddock-init alone; removed before any thread starts (setenv is not thread-safe).
        unsetenv(paddock::init::kPublishVariable);
    }

    // Signals are taken synchronously by the main thread only; every other thread (the
    // relay) inherits the blocked mask, so none is delivered where it would be lost.
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    for (int sig : kForwardedSignals)
        sigaddset(&handled, sig);
    sigset_t original;
    sigprocmask(SIG_BLOCK, &handled, &original);
    std::signal(SIGPIPE, SIG_IGN);

    // Outside a PID namespace, still collect orphans of our own tree.
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    std::vector<int> listeners;
    for (const auto &spec : relays) {
        std::string error;
        const int fd = paddock::init::listenOn(spec, &error);
        if (fd < 0) {
            std::fprintf(stderr, "paddock-init: %s\n", error.c_str());
            return 1;
        }
        listeners.push_back(fd);
    }
    if (!listeners.empty())
        std::thread([relays, listeners] { paddock::init::runRelay(relays, listeners); }).detach();
    if (!publishes.empty())
        std::thread([publishes] { paddock::init::runPublisher(publishes); }).detach();

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
        execvp(argv[i], argv + i);
        std::fprintf(stderr, "paddock-init: cannot run %s: %s\n", argv[i], std::strerror(errno));
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
