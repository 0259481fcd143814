// SPDX-License-Identifier: GPL-3.0-or-later
#include "Spawn.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

namespace paddock::init {
namespace {

enum Stage : int {
    StageTerminal = 1,
    StageUser,
    StageDirectory,
    StageExec
};

/** What the child reports through its close-on-exec pipe when it cannot exec. */
struct ChildFailure
{
    int stage = 0;
    int error = 0;
};

void closeIfOpen(int &fd)
{
    if (fd >= 0)
        close(fd);
    fd = -1;
}

/** An entry as getdents64 returns it (the kernel's struct linux_dirent64). */
struct DirectoryEntry
{
    std::uint64_t inode;
    std::int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[1];
};

/**
 * Marks every descriptor from 3 up close-on-exec. close_range() does it in one call; a kernel
 * older than 5.11 (ENOSYS) or gVisor's (EINVAL for CLOSE_RANGE_CLOEXEC) gets the same from
 * /proc/self/fd, read with getdents64 into the stack: after fork nothing may allocate.
 * Returns 0 or an errno.
 */
int closeOnExecFrom3()
{
    if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
        return 0;
    if (errno != ENOSYS && errno != EINVAL)
        return errno;
    const int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return errno;
    alignas(8) char buffer[4096];
    int result = 0;
    for (;;) {
        const long size = syscall(SYS_getdents64, dir, buffer, sizeof buffer);
        if (size <= 0) {
            result = size < 0 ? errno : 0;
            break;
        }
        for (long at = 0; at < size;) {
            const auto *entry = reinterpret_cast<const DirectoryEntry *>(buffer + at);
            at += entry->length;
            int fd = 0;
            bool number = entry->name[0] != '\0';
            for (const char *c = entry->name; *c && number; ++c) {
                number = *c >= '0' && *c <= '9' && fd < 100000000;
                fd = fd * 10 + (*c - '0');
            }
            if (number && fd >= 3 && fd != dir && fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 && errno != EBADF)
                result = errno;
        }
    }
    close(dir);
    return result;
}

void setNonBlocking(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/** The C arrays execve wants, built before fork: after it the child may not allocate. */
struct ExecImage
{
    std::string path;
    std::vector<char *> argv;
    std::vector<char *> envp;

    ExecImage(const SpawnRequest &request, std::string program)
        : path(std::move(program)), m_args(request.argv), m_env(request.environment)
    {
        for (std::string &arg : m_args)
            argv.push_back(arg.data());
        argv.push_back(nullptr);
        for (std::string &entry : m_env)
            envp.push_back(entry.data());
        envp.push_back(nullptr);
    }

private:
    std::vector<std::string> m_args;
    std::vector<std::string> m_env;
};

[[noreturn]] void runChild(const ExecImage &image, const SpawnRequest &request, const Identity &identity, int slave,
                           const int pipes[3][2], int report)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction defaults
    {};
    defaults.sa_handler = SIG_DFL;
    for (int sig = 1; sig < 32; ++sig)
        sigaction(sig, &defaults, nullptr);

    ChildFailure failure{StageTerminal, 0};
    if (setsid() < 0)
        failure.error = errno;
    if (!failure.error && slave >= 0) {
        if (ioctl(slave, TIOCSCTTY, 0) < 0 || dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
            failure.error = errno;
    } else if (!failure.error) {
        if (dup2(pipes[0][0], 0) < 0 || dup2(pipes[1][1], 1) < 0 || dup2(pipes[2][1], 2) < 0)
            failure.error = errno;
    }
    // Nothing paddock-init holds (sockets, the namespace handle, inherited fds) reaches the session.
    if (!failure.error)
        failure.error = closeOnExecFrom3();
    if (!failure.error) {
        failure.stage = StageUser;
        failure.error = identity.becomeInChild(request.uid);
    }
    if (!failure.error) {
        failure.stage = StageDirectory;
        if (chdir(request.workingDir.c_str()) != 0)
            failure.error = errno;
    }
    if (!failure.error) {
        failure.stage = StageExec;
        execve(image.path.c_str(), image.argv.data(), image.envp.data());
        failure.error = errno;
    }
    (void)!write(report, &failure, sizeof failure);
    _exit(127);
}

std::string describe(const ChildFailure &failure, const SpawnRequest &request)
{
    const std::string reason = std::strerror(failure.error);
    switch (failure.stage) {
    case StageTerminal:
        return "cannot give the session its terminal: " + reason;
    case StageUser:
        return "cannot become uid " + std::to_string(request.uid) + ": " + reason;
    case StageDirectory:
        return "cannot enter " + request.workingDir + ": " + reason;
    default:
        return "cannot run " + request.argv.front() + ": " + reason;
    }
}

bool openTerminal(const SpawnRequest &request, int *master, int *slave, std::string *error)
{
    *master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    char name[128];
    if (*master < 0 || grantpt(*master) != 0 || unlockpt(*master) != 0 || ptsname_r(*master, name, sizeof name) != 0 ||
        (*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
        *error = std::string("cannot allocate a terminal: ") + std::strerror(errno);
        closeIfOpen(*master);
        return false;
    }
    winsize size{};
    size.ws_row = request.rows ? request.rows : 24;
    size.ws_col = request.cols ? request.cols : 80;
    ioctl(*slave, TIOCSWINSZ, &size);
    return true;
}

} // namespace

std::string findProgram(const std::string &program, const std::vector<std::string> &environment)
{
    if (program.find('/') != std::string::npos)
        return program;
    std::string path = "/usr/local/bin:/usr/bin:/bin";
    for (const std::string &entry : environment) {
        if (entry.rfind("PATH=", 0) == 0)
            path = entry.substr(5);
    }
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find(':', start);
        if (end == std::string::npos)
            end = path.size();
        const std::string dir = end > start ? path.substr(start, end - start) : std::string(".");
        const std::string candidate = dir + "/" + program;
        struct stat info
        {};
        if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return {};
}

bool spawnSession(const SpawnRequest &request, const Identity &identity, Spawned *spawned, SpawnFailure *problem)
{
    std::string *error = &problem->message;
    if (request.argv.empty()) {
        *error = "no command to run";
        return false;
    }
    const std::string program = findProgram(request.argv.front(), request.environment);
    if (program.empty()) {
        *error = request.argv.front() + ": command not found";
        problem->exitCode = 127;
        return false;
    }
    const ExecImage image(request, program);
    int master = -1, slave = -1;
    int pipes[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
    if (request.terminal) {
        if (!openTerminal(request, &master, &slave, error))
            return false;
    } else {
        for (auto &pipe : pipes) {
            if (pipe2(pipe, O_CLOEXEC) != 0) {
                *error = std::string("cannot create a pipe: ") + std::strerror(errno);
                for (auto &open : pipes) {
                    closeIfOpen(open[0]);
                    closeIfOpen(open[1]);
                }
                return false;
            }
        }
    }
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        *error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    const pid_t child = fork();
    if (child == 0)
        runChild(image, request, identity, slave, pipes, report[1]);
    close(report[1]);
    closeIfOpen(slave);
    closeIfOpen(pipes[0][0]);
    closeIfOpen(pipes[1][1]);
    closeIfOpen(pipes[2][1]);
    ChildFailure failure;
    ssize_t got = -1;
    if (child > 0) {
        do {
            got = read(report[0], &failure, sizeof failure);
        } while (got < 0 && errno == EINTR);
    }
    close(report[0]);
    if (child < 0 || got == ssize_t(sizeof failure)) {
        *error = child < 0 ? std::string("cannot fork: ") + std::strerror(errno) : describe(failure, request);
        if (child > 0 && failure.stage == StageExec)
            problem->exitCode = failure.error == ENOENT ? 127 : 126;
        if (child > 0)
            while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
            }
        closeIfOpen(master);
        closeIfOpen(pipes[0][1]);
        closeIfOpen(pipes[1][0]);
        closeIfOpen(pipes[2][0]);
        return false;
    }
    spawned->pid = child;
    spawned->terminal = master;
    spawned->input = pipes[0][1];
    spawned->output = pipes[1][0];
    spawned->errors = pipes[2][0];
    for (int fd : {master, pipes[0][1], pipes[1][0], pipes[2][0]}) {
        if (fd >= 0)
            setNonBlocking(fd);
    }
    return true;
}

} // namespace paddock::init
