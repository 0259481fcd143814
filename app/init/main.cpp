// SPDX-License-Identifier: GPL-3.0-or-later
//
// paddock-init: PID 1 inside a sandbox.
//
//   paddock-init [--relay HOST:PORT=UNIX_SOCKET]... [--] PROGRAM [ARG]...
//
// - Listens on each HOST:PORT (loopback inside the sandbox) and relays every connection
//   to UNIX_SOCKET, the sandbox's own proxy endpoint bind-mounted from the host. The
//   sandbox has no other network, so this is its only way out.
// - Starts PROGRAM, forwards the usual termination and job-control signals to it, reaps
//   every child that is re-parented to it (zombies), and exits with PROGRAM's status
//   (128 + signal number when PROGRAM was killed by a signal), as a shell would report it.
//
// Static, C++ standard library and libc only: it runs in images that have neither Qt nor a
// matching libc.

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
    std::fprintf(to, "Usage: paddock-init [--relay HOST:PORT=UNIX_SOCKET]... [--] PROGRAM [ARG]...\n"
                     "Runs PROGRAM as the child of a minimal init: relays loopback ports to the\n"
                     "proxy socket, forwards signals, reaps zombies, exits with PROGRAM's status.\n");
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
