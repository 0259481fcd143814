// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/SandboxProcess.h"

#include <QFile>
#include <QLoggingCategory>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcSandboxProcess, "paddock.runtime.bwrap.process", QtInfoMsg)

namespace paddock::runtime::bwrap {
namespace {

/** argv as the C arrays execve wants, built before fork: the child may not allocate. */
struct ExecImage
{
    std::vector<QByteArray> storage;
    std::vector<char *> argv;
    char *envp[1] = {nullptr};
    std::vector<int> wanted;  ///< the fd each of the child's fds 0, 1, 2, 3... comes from
    std::vector<int> sources; ///< scratch space for the child

    ExecImage(const QStringList &arguments, const ChildSetup &setup)
    {
        wanted = {setup.in, setup.out, setup.err};
        for (int fd : setup.extraFds)
            wanted.push_back(fd);
        sources.resize(wanted.size());
        storage.reserve(size_t(arguments.size()));
        for (const QString &argument : arguments)
            storage.push_back(QFile::encodeName(argument));
        for (QByteArray &item : storage)
            argv.push_back(item.data());
        argv.push_back(nullptr);
    }
};

int shellStatus(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

void writeAll(int fd, const void *data, size_t size)
{
    const char *bytes = static_cast<const char *>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, bytes, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        bytes += n;
        size -= size_t(n);
    }
}

// Runs in the child, which shares the caller's memory (spawnSharingMemory()): only
// async-signal-safe calls from here on, and nothing that writes to what the caller uses.
[[noreturn]] void execChild(ExecImage &image, int slave, int errorPipe)
{
    // Every signal arrives blocked. A handler of the caller's would run here on the caller's
    // memory, so each goes back to its default before anything is unblocked.
    struct sigaction defaults
    {};
    defaults.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) {
        struct sigaction current
        {};
        if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler != SIG_DFL &&
            (current.sa_handler != SIG_IGN || sig == SIGPIPE || sig == SIGINT || sig == SIGQUIT || sig == SIGTERM ||
             sig == SIGHUP || sig == SIGCHLD))
            sigaction(sig, &defaults, nullptr);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);

    int failure = 0;
    if (::setsid() < 0)
        failure = errno;

    // Lift every source above the targets first, so wiring fd 0, 1, 2, 3... cannot overwrite
    // a source. The vectors were sized before fork: nothing is allocated here.
    int *sources = image.sources.data();
    const int count = int(image.wanted.size());
    for (int i = 0; i < count && !failure; ++i) {
        const int from = i < 3 && slave >= 0 ? slave : image.wanted[size_t(i)];
        sources[i] = -1;
        if (from >= 0 && (sources[i] = fcntl(from, F_DUPFD_CLOEXEC, 10 + count)) < 0)
            failure = errno;
    }
    if (!failure && slave >= 0 && ioctl(sources[0], TIOCSCTTY, 0) < 0)
        failure = errno;
    for (int i = 0; i < count && !failure; ++i) {
        if (sources[i] >= 0 && dup2(sources[i], i) < 0)
            failure = errno;
    }
    // Nothing else of the caller's leaks into the sandbox's launcher.
    if (!failure)
        ::close_range(unsigned(count), ~0U, CLOSE_RANGE_CLOEXEC);
    if (!failure) {
        ::execve(image.argv[0], image.argv.data(), const_cast<char **>(image.envp));
        failure = errno;
    }
    writeAll(errorPipe, &failure, sizeof failure);
    _exit(127);
}

/**
 * @brief Memory for the stacks of the children spawnSharingMemory() makes: a child that shares
 * the caller's memory cannot run on the caller's stack.
 */
class ChildStacks
{
public:
    static constexpr size_t kEach = 64 * 1024;

    ChildStacks()
        : m_base(::mmap(nullptr, 2 * kEach, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0))
    {}
    ~ChildStacks()
    {
        if (ok())
            ::munmap(m_base, 2 * kEach);
    }
    ChildStacks(const ChildStacks &) = delete;
    ChildStacks &operator=(const ChildStacks &) = delete;

    bool ok() const { return m_base != MAP_FAILED; }
    /** The top of stack @p index (0 or 1): stacks grow down. */
    char *top(int index) const { return static_cast<char *>(m_base) + kEach * size_t(index + 1); }

private:
    void *m_base;
};

/**
 * Starts @p entry in a child that shares this process's memory and waits until it has exec'd or
 * exited (CLONE_VM | CLONE_VFORK, as posix_spawn does). fork() would copy the daemon's page tables
 * for each start only for exec to throw them away, milliseconds of its CPU every time. Every
 * signal is blocked meanwhile: the child unblocks them once its handlers are the defaults.
 * Returns the child's pid, or -1 with errno set.
 */
pid_t spawnSharingMemory(int (*entry)(void *), void *argument, char *stackTop)
{
    sigset_t all;
    sigset_t before;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &before);
    const pid_t child = ::clone(entry, stackTop, CLONE_VM | CLONE_VFORK | SIGCHLD, argument);
    const int failure = errno;
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    errno = failure;
    return child;
}

/** What the children of spawnDetached() and AttachedChild::start() are given. */
struct Launch
{
    ExecImage *image;
    int report;                 ///< the pipe's write end: the child's pid, then its exec error
    int slave = -1;             ///< the terminal, if it has one
    char *grandchild = nullptr; ///< the stack of the detached launcher's own child
};

int launchAttached(void *argument)
{
    Launch *launch = static_cast<Launch *>(argument);
    execChild(*launch->image, launch->slave, launch->report);
}

int launchDetachedGrandchild(void *argument)
{
    Launch *launch = static_cast<Launch *>(argument);
    const qint64 self = ::getpid();
    writeAll(launch->report, &self, sizeof self);
    execChild(*launch->image, -1, launch->report);
}

// The launcher's parent exits at once, so the sandbox is re-parented to the system's reaper and
// nobody here has to wait for it. It runs with every signal blocked and returns only by _exit.
int launchDetachedMiddle(void *argument)
{
    Launch *launch = static_cast<Launch *>(argument);
    const pid_t child = spawnSharingMemory(launchDetachedGrandchild, argument, launch->grandchild);
    _exit(child < 0 ? 1 : 0);
}

/** Reads what a CLOEXEC pipe says about exec: EOF means it succeeded. */
int execError(int readEnd)
{
    int failure = 0;
    ssize_t n;
    do {
        n = ::read(readEnd, &failure, sizeof failure);
    } while (n < 0 && errno == EINTR);
    return n == ssize_t(sizeof failure) ? failure : 0;
}

QString describeExecError(const ChildSetup &setup, int failure)
{
    return QStringLiteral("cannot run %1: %2").arg(setup.argv.value(0), QString::fromLocal8Bit(std::strerror(failure)));
}

} // namespace

qint64 spawnDetached(const ChildSetup &setup, QString *error)
{
    ExecImage image(setup.argv, setup);
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot create a pipe: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return 0;
    }
    const ChildStacks stacks;
    Launch launch{&image, report[1], -1, stacks.top(1)};
    const pid_t middle = stacks.ok() ? spawnSharingMemory(launchDetachedMiddle, &launch, stacks.top(0)) : -1;
    if (middle < 0) {
        *error = QStringLiteral("cannot start a process: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        ::close(report[0]);
        ::close(report[1]);
        return 0;
    }
    ::close(report[1]);
    int status = 0;
    while (::waitpid(middle, &status, 0) < 0 && errno == EINTR) {
    }
    qint64 pid = 0;
    if (::read(report[0], &pid, sizeof pid) != ssize_t(sizeof pid)) {
        ::close(report[0]);
        *error = QStringLiteral("cannot start %1").arg(setup.argv.value(0));
        return 0;
    }
    const int failure = execError(report[0]);
    ::close(report[0]);
    if (failure) {
        *error = describeExecError(setup, failure);
        return 0;
    }
    return pid;
}

AttachedChild::~AttachedChild()
{
    if (m_master >= 0)
        ::close(m_master);
}

bool AttachedChild::start(const ChildSetup &setup, QString *error)
{
    m_setup = setup;
    ExecImage image(setup.argv, setup);
    int slave = -1;
    if (setup.terminal) {
        m_master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (m_master < 0 || ::grantpt(m_master) != 0 || ::unlockpt(m_master) != 0) {
            *error = QStringLiteral("cannot allocate a terminal: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
        char name[128];
        if (::ptsname_r(m_master, name, sizeof name) != 0 ||
            (slave = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
            *error = QStringLiteral("cannot open the terminal: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
        // The sandbox's terminal starts with the caller's settings and size.
        struct termios mode
        {};
        if (::tcgetattr(setup.in, &mode) == 0)
            ::tcsetattr(slave, TCSANOW, &mode);
        struct winsize size
        {};
        if (::ioctl(setup.in, TIOCGWINSZ, &size) == 0 || ::ioctl(setup.out, TIOCGWINSZ, &size) == 0)
            ::ioctl(slave, TIOCSWINSZ, &size);
    }
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot create a pipe: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        if (slave >= 0)
            ::close(slave);
        return false;
    }
    const ChildStacks stacks;
    Launch launch{&image, report[1], slave};
    const pid_t child = stacks.ok() ? spawnSharingMemory(launchAttached, &launch, stacks.top(0)) : -1;
    ::close(report[1]);
    if (slave >= 0)
        ::close(slave);
    if (child < 0) {
        ::close(report[0]);
        *error = QStringLiteral("cannot start a process: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_pid = child;
    const int failure = execError(report[0]);
    ::close(report[0]);
    if (failure) {
        wait();
        *error = describeExecError(setup, failure);
        return false;
    }
    return true;
}

bool AttachedChild::hasExited()
{
    if (m_exited)
        return true;
    int status = 0;
    if (::waitpid(pid_t(m_pid), &status, WNOHANG) == pid_t(m_pid)) {
        m_exited = true;
        m_status = shellStatus(status);
    }
    return m_exited;
}

int AttachedChild::wait()
{
    if (m_master >= 0)
        relayTerminal();
    while (!m_exited) {
        int status = 0;
        const pid_t done = ::waitpid(pid_t(m_pid), &status, 0);
        if (done == pid_t(m_pid)) {
            m_exited = true;
            m_status = shellStatus(status);
        } else if (done < 0 && errno != EINTR) {
            qCWarning(lcSandboxProcess) << "lost track of process" << m_pid << std::strerror(errno);
            m_exited = true;
            m_status = 1;
        }
    }
    return m_status;
}

void AttachedChild::relayTerminal()
{
    // Raw mode on the caller's terminal: every key (Ctrl-C included) goes to the sandbox's
    // own terminal, whose line discipline turns it into a signal for the sandbox only.
    struct termios saved
    {};
    const bool restore = ::isatty(m_setup.in) && ::tcgetattr(m_setup.in, &saved) == 0;
    if (restore) {
        struct termios raw = saved;
        ::cfmakeraw(&raw);
        ::tcsetattr(m_setup.in, TCSANOW, &raw);
    }
    struct winsize lastSize
    {};
    ::ioctl(m_master, TIOCGWINSZ, &lastSize);
    bool inputOpen = true;
    char buffer[16384];
    for (;;) {
        pollfd fds[2] = {{m_master, POLLIN, 0}, {inputOpen ? m_setup.in : -1, POLLIN, 0}};
        const int ready = ::poll(fds, 2, 200);
        if (ready < 0 && errno != EINTR)
            break;
        // Follow the caller's window size; checked on every wake-up rather than with a
        // SIGWINCH handler, which a library has no business installing.
        struct winsize size
        {};
        if (::ioctl(m_setup.in, TIOCGWINSZ, &size) == 0 &&
            (size.ws_row != lastSize.ws_row || size.ws_col != lastSize.ws_col)) {
            ::ioctl(m_master, TIOCSWINSZ, &size);
            lastSize = size;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::read(m_master, buffer, sizeof buffer);
            if (n <= 0 && !(n < 0 && errno == EINTR))
                break; // EIO: every process holding the terminal has gone
            if (n > 0)
                writeAll(m_setup.out, buffer, size_t(n));
        }
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::read(m_setup.in, buffer, sizeof buffer);
            if (n > 0) {
                writeAll(m_master, buffer, size_t(n));
            } else if (n == 0 || errno != EINTR) {
                // End of input becomes the terminal's end-of-file character.
                inputOpen = false;
                struct termios mode
                {};
                const char eof = ::tcgetattr(m_master, &mode) == 0 ? char(mode.c_cc[VEOF]) : char(4);
                writeAll(m_master, &eof, 1);
            }
        }
        if (ready == 0 && hasExited())
            break;
    }
    if (restore)
        ::tcsetattr(m_setup.in, TCSANOW, &saved);
}

} // namespace paddock::runtime::bwrap
