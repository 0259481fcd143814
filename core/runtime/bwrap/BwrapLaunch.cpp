// SPDX-License-Identifier: GPL-3.0-or-later
//
// How BwrapRuntime launches a sandbox: the files and descriptors bwrap and paddock-init
// inherit, the command line under a cgroup scope, and the wait until the sandbox's first
// process runs, detached (with its log writer) or in the foreground.
#include "runtime/bwrap/BwrapRuntime.h"

#include "common/UniqueFd.h"
#include "runtime/bwrap/BwrapCommand.h"
#include "runtime/bwrap/HostSkeleton.h"
#include "runtime/bwrap/LogFiles.h"
#include "runtime/bwrap/SandboxProcess.h"
#include "runtime/bwrap/SeccompFilter.h"
#include "runtime/session/SessionClient.h"

#include <QDateTime>
#include <QFile>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcBwrap)

namespace paddock::runtime {

using bwrap::ProcessIdentity;
using bwrap::SandboxState;

namespace {

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

/** The host files bwrap copies into the sandbox, open for the launch and closed after it. */
/**
 * The host's /etc/passwd or /etc/group (@p path) as the sandbox reads it: with a line for the
 * agent's id when the host has none, since ssh, git and psql look their user up and stop when
 * it is missing. The file itself when nothing is added; -1 when it cannot be read.
 */
int accountFile(const QString &path, const bwrap::BwrapOptions &options, const QString &home)
{
    const bool users = path == QLatin1String("/etc/passwd");
    const int id = users ? options.uid : options.gid;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    QByteArray content = file.readAll();
    for (const QByteArray &line : content.split('\n')) {
        if (line.split(':').value(2) == QByteArray::number(id))
            return ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    }
    if (!content.isEmpty() && !content.endsWith('\n'))
        content += '\n';
    content += users ? QStringLiteral("agent:x:%1:%2:Paddock agent:%3:/bin/sh\n")
                           .arg(options.uid)
                           .arg(options.gid)
                           .arg(home)
                           .toUtf8()
                     : QStringLiteral("agent:x:%1:\n").arg(options.gid).toUtf8();
    const int fd = ::memfd_create("paddock-account", MFD_CLOEXEC);
    if (fd < 0 || ::write(fd, content.constData(), size_t(content.size())) != content.size() ||
        ::lseek(fd, 0, SEEK_SET) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

class CopiedFiles
{
public:
    /**
     * Opens each file that exists; the child gets them as fds @p firstFd, firstFd + 1, ...
     * None for a root made from an image, which has its own /etc.
     */
    CopiedFiles(int firstFd, const bwrap::SandboxState &state)
    {
        if (state.root.base == bwrap::RootChoice::Base::Image)
            return;
        for (const QString &path : bwrap::copiedHostFiles()) {
            const bool account = path == QLatin1String("/etc/passwd") || path == QLatin1String("/etc/group");
            const int fd = account ? accountFile(path, state.options, state.spec.sandboxHome)
                                   : ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            m_fds << fd;
            m_mapping.append({firstFd + int(m_mapping.size()), path});
        }
    }
    ~CopiedFiles()
    {
        for (int fd : m_fds)
            ::close(fd);
    }
    CopiedFiles(const CopiedFiles &) = delete;
    CopiedFiles &operator=(const CopiedFiles &) = delete;
    const QList<int> &fds() const { return m_fds; }
    const QList<QPair<int, QString>> &mapping() const { return m_mapping; }

private:
    QList<int> m_fds;
    QList<QPair<int, QString>> m_mapping;
};

int openForSandbox(const QString &path, int flags)
{
    return ::open(QFile::encodeName(path).constData(), flags | O_CLOEXEC | O_NOFOLLOW, 0600);
}

/** The last lines bwrap wrote, which say why a sandbox could not start. */
QString tailOf(const QString &path, qint64 from)
{
    const std::optional<LogPage> page = bwrap::readLogPage(path, from, 4096, nullptr);
    return page ? QString::fromUtf8(page->data).trimmed() : QString();
}

/** The sandbox's seccomp program in a memory file at offset 0, for bwrap or paddock-init to read. */
UniqueFd seccompFile(QString *error)
{
    static const QByteArray program = [] {
        QString problem;
        const QByteArray built = bwrap::sandboxSeccompProgram(&problem);
        if (built.isEmpty())
            qCWarning(lcBwrap).noquote() << problem;
        return built;
    }();
    if (program.isEmpty()) {
        *error = QStringLiteral("the sandbox's seccomp filter could not be built (is libseccomp installed?)");
        return UniqueFd();
    }
    UniqueFd fd(::memfd_create("paddock-seccomp", MFD_CLOEXEC));
    if (fd.get() < 0 || ::write(fd.get(), program.constData(), size_t(program.size())) != program.size() ||
        ::lseek(fd.get(), 0, SEEK_SET) != 0) {
        *error = QStringLiteral("cannot hand the seccomp filter to the sandbox: %1").arg(systemError());
        return UniqueFd();
    }
    return fd;
}

/** Whether the user's systemd manager answers: a sandbox then gets a cgroup scope of its own. */
bool hasUserManager()
{
    static const bool available = [] {
        const QString program = QStandardPaths::findExecutable(QStringLiteral("systemd-run"));
        if (program.isEmpty() || qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
            return false;
        QProcess probe;
        probe.start(program, {QStringLiteral("--user"), QStringLiteral("--scope"), QStringLiteral("--quiet"),
                              QStringLiteral("--collect"), QStringLiteral("true")});
        return probe.waitForFinished(5000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
    }();
    return available;
}

/**
 * The command a sandbox is launched under so its limits hold for all its processes together:
 * a transient scope of the user's systemd manager (a cgroup) with TasksMax, MemoryMax and
 * CPUQuota. Where there is no user manager, nothing: paddock-init's rlimits are what holds
 * (RLIMIT_NPROC counted per user namespace, RLIMIT_DATA per process).
 */
QStringList scopeFor(const QString &name, const SandboxLimits &limits)
{
    if (!hasUserManager())
        return {};
    QStringList command{QStandardPaths::findExecutable(QStringLiteral("systemd-run")),
                        QStringLiteral("--user"),
                        QStringLiteral("--scope"),
                        QStringLiteral("--quiet"),
                        QStringLiteral("--collect"),
                        QStringLiteral("--unit=paddock-%1-%2").arg(name).arg(QDateTime::currentMSecsSinceEpoch()),
                        QStringLiteral("-p"),
                        QStringLiteral("TasksMax=%1").arg(limits.maxProcesses)};
    if (limits.memoryBytes > 0)
        command << QStringLiteral("-p") << QStringLiteral("MemoryMax=%1").arg(limits.memoryBytes);
    if (limits.cpus > 0)
        command << QStringLiteral("-p") << QStringLiteral("CPUQuota=%1%").arg(qRound(limits.cpus * 100));
    return command << QStringLiteral("--");
}

/**
 * @brief What bwrap inherits besides its command line: its status report (fd 3), the copied
 * host files (from fd 4), and the sandbox's seccomp filter.
 */
class LaunchFiles
{
public:
    explicit LaunchFiles(const bwrap::SandboxState &state) : m_copied(kFirstCopiedFd, state) {}

    /** Opens the status report at @p statusPath and makes the seccomp filter; false with @p error. */
    bool open(const QString &name, const QString &statusPath, QString *error)
    {
        m_status = UniqueFd(openForSandbox(statusPath, O_WRONLY | O_CREAT | O_TRUNC));
        if (!m_status) {
            *error = QStringLiteral("cannot open the files of sandbox %1: %2").arg(name, systemError());
            return false;
        }
        m_filter = seccompFile(error);
        return m_filter.valid();
    }
    /** Adds the copied files to @p paths; returns the first fd after them. */
    int addTo(bwrap::LaunchPaths &paths) const
    {
        paths.copiedFiles = m_copied.mapping();
        return kFirstCopiedFd + int(m_copied.fds().size());
    }
    /** The fds bwrap inherits from 3 on: the status report, the copied files, then @p more. */
    QList<int> inherited(const QList<int> &more) const { return QList<int>{m_status.get()} + m_copied.fds() + more; }
    int filter() const { return m_filter.get(); }

private:
    static constexpr int kFirstCopiedFd = 4;
    CopiedFiles m_copied;
    UniqueFd m_status;
    UniqueFd m_filter;
};

/** @p state from now on: running since now as the first process @p initPid, with no end yet. */
void markStarted(SandboxState &state, qint64 initPid)
{
    state.init = ProcessIdentity::of(initPid).value_or(ProcessIdentity{initPid, 0});
    state.startedAt = QDateTime::currentDateTimeUtc();
    state.finishedAt = QDateTime();
    state.exitCode.reset();
}

} // namespace

bwrap::LaunchPaths BwrapRuntime::launchPaths(const SandboxState &state) const
{
    bwrap::LaunchPaths paths;
    paths.homeDir = homeOf(state);
    paths.hostsFile = sandboxDir(state.spec.name) + QStringLiteral("/hosts");
    paths.resolvConfFile = sandboxDir(state.spec.name) + QStringLiteral("/resolv.conf");
    paths.statusFd = 3;
    paths.options = state.options;
    paths.root = state.root;
    paths.rootDir = rootDir(state.spec.name);
    paths.volumes = state.volumes;
    paths.volumesDir = sandboxDir(state.spec.name) + QStringLiteral("/volumes");
    paths.fuseOverlayfs = bwrap::fuseOverlayfsProgram();
    if (state.root.base == bwrap::RootChoice::Base::Host && !state.root.fuse) {
        QString error;
        paths.skeleton = bwrap::hostSkeleton(bwrap::hostSystemDirectories(), &error);
        if (!error.isEmpty())
            qCWarning(lcBwrap).noquote() << "the host's system stays read-only inside" << state.spec.name << ":"
                                         << error;
    }
    return paths;
}

bool BwrapRuntime::awaitSandboxPid(const QString &name, const std::function<bool()> &launcherEnded, qint64 *pid) const
{
    const QString path = statusPath(name);
    // bwrap reports the pid as soon as the sandbox's namespaces exist, before the program
    // runs, so this wait is short; ten seconds covers a loaded machine.
    bwrap::waitUntil([&] { return bwrap::readBwrapStatus(path).childPid > 0 || launcherEnded(); }, 10000);
    *pid = bwrap::readBwrapStatus(path).childPid;
    if (*pid <= 0)
        return false;
    // The pid comes before the mounts: the sandbox runs once paddock-init has replaced bwrap's
    // child. Until then a signal would abort the setup and bwrap would report no status.
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(*pid));
    bwrap::waitUntil(
        [&] {
            if (!cmdline.open(QIODevice::ReadOnly))
                return true; // already gone: it ran and ended
            const QByteArray program = cmdline.readAll().split('\0').value(0);
            cmdline.close();
            return program == QFile::encodeName(bwrap::initPathInSandbox()) || launcherEnded();
        },
        10000);
    return true;
}

RuntimeResult BwrapRuntime::startDetached(SandboxState state, const StartOptions &options)
{
    const QString name = state.spec.name;
    QString error;
    LaunchFiles files(state);
    if (!files.open(name, statusPath(name), &error))
        return RuntimeResult::failure(error);
    const UniqueFd devNull(::open("/dev/null", O_RDWR | O_CLOEXEC));
    if (!devNull)
        return RuntimeResult::failure(
            QStringLiteral("cannot open the files of sandbox %1: %2").arg(name, systemError()));
    const qint64 logStart = bwrap::logEnd(logPath(name));
    std::optional<ProcessIdentity> logWriter;
    const UniqueFd log = startLogWriter(state.spec, devNull.get(), &logWriter, &error);
    if (log.get() < 0)
        return RuntimeResult::failure(error);
    // The session channel: paddock-init inherits the listening socket; only this side has the path.
    const UniqueFd sessions(session::listenSocket(sessionPath(name), &error));
    if (sessions.get() < 0)
        return RuntimeResult::failure(error);

    // After the copied files come the session socket and the seccomp filter paddock-init loads
    // into every session.
    bwrap::LaunchPaths paths = launchPaths(state);
    paths.sessionFd = files.addTo(paths);
    paths.seccompFd = paths.sessionFd + 1;
    paths.startAgent = options.startAgent;
    bwrap::ChildSetup setup;
    setup.argv = scopeFor(name, state.spec.limits) + bwrap::rootStageCommand(state.spec, paths, false) +
                 QStringList{bwrap::bwrapProgram()} + bwrap::bwrapArguments(state.spec, paths);
    setup.extraFds = files.inherited({sessions.get(), files.filter()});
    qCDebug(lcBwrap).noquote() << "launching" << setup.argv.join(QLatin1Char(' '));
    setup.in = devNull.get();
    setup.out = log.get();
    setup.err = log.get();
    const qint64 bwrapPid = bwrap::spawnDetached(setup, &error);
    if (bwrapPid <= 0)
        return RuntimeResult::failure(error);
    state.bwrap = ProcessIdentity::of(bwrapPid).value_or(ProcessIdentity{bwrapPid, 0});

    qint64 initPid = 0;
    if (!awaitSandboxPid(
            name, [&] { return !state.bwrap.isAlive(); }, &initPid)) {
        // bwrap said why on its way out: the writer has it once the pipe has ended.
        bwrap::waitUntil([&] { return !logWriter || !logWriter->isAlive(); }, 2000);
        const QString why = tailOf(logPath(name), logStart);
        return RuntimeResult::failure(QStringLiteral("sandbox %1 did not start%2")
                                          .arg(name, why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    }
    markStarted(state, initPid);
    state.logWriter = logWriter.value_or(ProcessIdentity());
    if (!bwrap::writeState(statePath(name), state, &error))
        return RuntimeResult::failure(error);
    qCInfo(lcBwrap) << "started sandbox" << name << "pid" << initPid;
    return RuntimeResult::success();
}

UniqueFd BwrapRuntime::startLogWriter(const SandboxSpec &spec, int devNull, std::optional<ProcessIdentity> *writer,
                                      QString *error) const
{
    // The sandbox writes into a pipe; paddock-init's log writer, outside the sandbox, keeps the
    // file under its limit (app/init/LogWriter.h).
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot create the log pipe of sandbox %1: %2").arg(spec.name, systemError());
        return UniqueFd();
    }
    UniqueFd readEnd(ends[0]);
    UniqueFd writeEnd(ends[1]);
    bwrap::ChildSetup setup;
    setup.argv = {spec.initPath, QStringLiteral("--write-log"), logPath(spec.name)};
    setup.in = readEnd.get();
    setup.out = devNull;
    setup.err = devNull;
    const qint64 pid = bwrap::spawnDetached(setup, error);
    if (pid <= 0)
        return UniqueFd();
    *writer = ProcessIdentity::of(pid);
    return writeEnd;
}

RuntimeResult BwrapRuntime::runForeground(SandboxState state, const ProcessIo &io)
{
    const QString name = state.spec.name;
    QString error;
    LaunchFiles files(state);
    if (!files.open(name, statusPath(name), &error))
        return RuntimeResult::failure(error);

    // After the copied files comes the seccomp filter, which bwrap loads before paddock-init
    // runs (a setup step needs nothing it refuses).
    bwrap::LaunchPaths paths = launchPaths(state);
    paths.seccompFd = files.addTo(paths);
    bwrap::ChildSetup setup;
    setup.argv = bwrap::rootStageCommand(state.spec, paths, true) + QStringList{bwrap::bwrapProgram()} +
                 bwrap::bwrapArguments(state.spec, paths);
    setup.extraFds = files.inherited({files.filter()});
    setup.in = io.in;
    setup.out = io.out;
    setup.err = io.err;
    setup.terminal = state.spec.interactive && ::isatty(io.in);
    bwrap::AttachedChild child;
    if (!child.start(setup, &error))
        return RuntimeResult::failure(error);
    state.bwrap = ProcessIdentity::of(child.pid()).value_or(ProcessIdentity{child.pid(), 0});

    qint64 initPid = 0;
    if (!awaitSandboxPid(
            name, [&] { return child.hasExited(); }, &initPid)) {
        const int code = child.wait();
        return RuntimeResult::failure(
            QStringLiteral("sandbox %1 did not start (bwrap exited with %2)").arg(name).arg(code));
    }
    markStarted(state, initPid);
    // Listed as running by other processes while it runs; a failure to record that is not a
    // reason to kill the user's program.
    if (!bwrap::writeState(statePath(name), state, &error))
        qCWarning(lcBwrap) << "sandbox" << name << "runs unrecorded:" << error;

    const int code = child.wait();
    recordFinish(state, code);
    return RuntimeResult::exited(code);
}

} // namespace paddock::runtime
