// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/BwrapRuntime.h"

#include "common/AtomicFile.h"
#include "common/FileTree.h"
#include "common/Paths.h"
#include "runtime/bwrap/BwrapCommand.h"
#include "runtime/bwrap/HostRootMount.h"
#include "runtime/bwrap/LogFiles.h"
#include "runtime/bwrap/SandboxProcess.h"
#include "runtime/bwrap/UserNamespaces.h"
#include "runtime/session/SessionClient.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QProcess>
#include <QRegularExpression>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcBwrap, "paddock.runtime.bwrap", QtInfoMsg)

namespace paddock::runtime {

using bwrap::ProcessIdentity;
using bwrap::SandboxState;

BwrapRuntime::BwrapRuntime() : BwrapRuntime(paths::dataDir() + QStringLiteral("/sandboxes")) {}

BwrapRuntime::BwrapRuntime(const QString &sandboxesDir) : m_root(sandboxesDir) {}

bool BwrapRuntime::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"));
    return pattern.match(name).hasMatch();
}

QString BwrapRuntime::sandboxDir(const QString &name) const
{
    return m_root + QLatin1Char('/') + name;
}
QString BwrapRuntime::privateHome(const QString &name) const
{
    return sandboxDir(name) + QStringLiteral("/home");
}
QString BwrapRuntime::statePath(const QString &name) const
{
    return sandboxDir(name) + QStringLiteral("/state.json");
}
QString BwrapRuntime::logPath(const QString &name) const
{
    return sandboxDir(name) + QStringLiteral("/log");
}
QString BwrapRuntime::statusPath(const QString &name) const
{
    return sandboxDir(name) + QStringLiteral("/bwrap-status.json");
}
QString BwrapRuntime::sessionPath(const QString &name) const
{
    return sandboxDir(name) + QStringLiteral("/session.sock");
}

QString BwrapRuntime::rootDir(const QString &name) const
{
    return sandboxDir(name) + QStringLiteral("/root");
}

QString BwrapRuntime::volumesDir(const QString &name) const
{
    return sandboxDir(name) + QStringLiteral("/volumes");
}

QString BwrapRuntime::trashDir() const
{
    return m_root + QStringLiteral("/.removing"); // not a valid name: never listed as a sandbox
}

void BwrapRuntime::emptyTrash() const
{
    filetree::emptyTrashLater(trashDir());
}

QString BwrapRuntime::homeOf(const SandboxState &state) const
{
    return state.spec.homeDir.isEmpty() ? privateHome(state.spec.name) : state.spec.homeDir;
}

bool BwrapRuntime::isAvailable(QString *why) const
{
    const QString program = bwrap::bwrapProgram();
    if (program.isEmpty()) {
        if (why)
            *why = QStringLiteral("bubblewrap is not installed (the package is called bubblewrap)");
        return false;
    }
    // Installed is not enough: user namespaces may be disabled on this kernel. A yes holds for
    // a minute: asking costs a bwrap run (tens of milliseconds) on every create.
    constexpr qint64 kAvailableForMs = 60000;
    static std::mutex mutex;
    static QElapsedTimer lastYes;
    {
        const std::lock_guard lock(mutex);
        if (lastYes.isValid() && !lastYes.hasExpired(kAvailableForMs))
            return true;
    }
    QProcess probe;
    probe.start(program, {QStringLiteral("--unshare-all"), QStringLiteral("--ro-bind"), QStringLiteral("/"),
                          QStringLiteral("/"), QStringLiteral("true")});
    if (!probe.waitForFinished(10000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0) {
        if (why)
            *why = bwrap::userNamespaceProblem(QString::fromLocal8Bit(probe.readAllStandardError()));
        return false;
    }
    const std::lock_guard lock(mutex);
    lastYes.start();
    return true;
}

void BwrapRuntime::setSandboxOptions(const QString &name, const bwrap::BwrapOptions &options)
{
    const std::lock_guard lock(m_optionsMutex);
    m_options.insert(name, options);
}

void BwrapRuntime::setLaunchOptions(const QString &name, const LaunchOptions &launch)
{
    bwrap::BwrapOptions options;
    options.uid = launch.uid.value_or(bwrap::BwrapOptions::kRegularUid);
    options.gid = launch.uid.value_or(bwrap::BwrapOptions::kRegularGid);
    options.workspaceSource = launch.workspaceSource;
    options.workspaceTarget = launch.workspaceTarget;
    setSandboxOptions(name, options);
}

bwrap::BwrapOptions BwrapRuntime::optionsFor(const QString &name) const
{
    const std::lock_guard lock(m_optionsMutex);
    return m_options.value(name);
}

void BwrapRuntime::setRoot(const QString &name, const bwrap::RootChoice &root)
{
    const std::lock_guard lock(m_optionsMutex);
    m_roots.insert(name, root);
}

bwrap::RootChoice BwrapRuntime::rootFor(const QString &name) const
{
    const std::lock_guard lock(m_optionsMutex);
    return m_roots.value(name);
}

bool BwrapRuntime::prepareSandbox(SandboxSpec &spec, const SandboxOptions &options, QString *)
{
    bwrap::RootChoice root;
    if (options.writableRoot && !options.imageLayers.isEmpty()) {
        root.base = bwrap::RootChoice::Base::Image;
        root.image = options.image;
        root.imageId = options.imageId;
        root.layersDir = options.imageLayersDir;
        root.layers = options.imageLayers;
    } else if (options.writableRoot) {
        const bwrap::HostRootMount mount = bwrap::hostRootMount(spec.initPath);
        if (mount != bwrap::HostRootMount::None) {
            root.base = bwrap::RootChoice::Base::Host;
            root.fuse = mount == bwrap::HostRootMount::Fuse;
        }
    }
    setRoot(spec.name, root);
    const std::lock_guard lock(m_optionsMutex);
    m_volumes.insert(spec.name, options.volumes);
    return true;
}

QString BwrapRuntime::hostRootProblem(const QString &initPath)
{
    QString problem;
    bwrap::hostRootMount(initPath, &problem);
    return problem;
}

QSet<QString> BwrapRuntime::layersInUse() const
{
    QSet<QString> layers;
    for (const QString &name : QDir(m_root).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (const auto state = isValidName(name) ? bwrap::readState(statePath(name)) : std::nullopt) {
            for (const QString &layer : state->root.layers)
                layers.insert(state->root.layersDir + QLatin1Char('/') + layer);
        }
    }
    return layers;
}

qint64 BwrapRuntime::upperBytes(const QString &name) const
{
    // Listings come every few seconds; a large layer takes a while to walk.
    constexpr qint64 kFreshMs = 15000;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    {
        const std::lock_guard lock(m_optionsMutex);
        const auto it = m_measures.constFind(name);
        if (it != m_measures.cend() && now - it->at < kFreshMs)
            return it->bytes;
    }
    const qint64 bytes = filetree::diskUsage(rootDir(name) + QStringLiteral("/upper"));
    const std::lock_guard lock(m_optionsMutex);
    m_measures.insert(name, {bytes, now});
    return bytes;
}

RuntimeResult BwrapRuntime::create(const SandboxSpec &spec)
{
    if (!isValidName(spec.name))
        return RuntimeResult::failure(
            QStringLiteral("'%1' is not a valid sandbox name (lower-case letters, digits and '-')").arg(spec.name));
    if (spec.argv.isEmpty())
        return RuntimeResult::failure(QStringLiteral("no program to run in sandbox %1").arg(spec.name));
    if (!QFileInfo(spec.initPath).isExecutable())
        return RuntimeResult::failure(QStringLiteral("paddock-init not found at '%1'").arg(spec.initPath));
    if (!spec.workspace.isEmpty() && (!QDir::isAbsolutePath(spec.workspace) || !QFileInfo(spec.workspace).isDir()))
        return RuntimeResult::failure(QStringLiteral("the workspace %1 is not a directory").arg(spec.workspace));
    if (!QDir::isAbsolutePath(spec.sandboxHome))
        return RuntimeResult::failure(QStringLiteral("the sandbox home %1 is not absolute").arg(spec.sandboxHome));
    if (QFileInfo::exists(statePath(spec.name)))
        return RuntimeResult::failure(QStringLiteral("a sandbox named %1 exists already").arg(spec.name));

    QString error;
    if (!paths::ensurePrivateDir(sandboxDir(spec.name), &error))
        return RuntimeResult::failure(error);
    SandboxState state;
    state.spec = spec;
    state.options = optionsFor(spec.name);
    if (!state.options.workspaceSource.isEmpty() &&
        (!QDir::isAbsolutePath(state.options.workspaceTarget) || !QFileInfo(state.options.workspaceSource).isDir()))
        return RuntimeResult::failure(
            QStringLiteral("the workspace %1 is not a directory").arg(state.options.workspaceSource));
    state.root = rootFor(spec.name);
    {
        const std::lock_guard lock(m_optionsMutex);
        state.volumes = m_volumes.value(spec.name);
    }
    state.createdAt = QDateTime::currentDateTimeUtc();
    if (!prepareLaunch(state, &error) || !bwrap::writeState(statePath(spec.name), state, &error))
        return RuntimeResult::failure(error);
    qCInfo(lcBwrap) << "created sandbox" << spec.name;
    return RuntimeResult::success();
}

bool BwrapRuntime::prepareLaunch(const SandboxState &state, QString *error) const
{
    // The root's folders: its upper layer (kept from an earlier launch), overlayfs' work folder,
    // and the empty folders its layers and the host's base are mounted on.
    if (state.root.writable()) {
        const QString root = rootDir(state.spec.name);
        for (const char *dir : {"", "/upper", "/work", "/mnt", "/base"}) {
            if (!paths::ensurePrivateDir(root + QLatin1String(dir), error))
                return false;
        }
    }
    if (!prepareVolumes(state, error))
        return false;
    const QString home = homeOf(state);
    if (state.spec.homeDir.isEmpty()) {
        if (!paths::ensurePrivateDir(home, error))
            return false;
    } else if (!QFileInfo(home).isDir()) {
        *error = QStringLiteral("the home directory %1 does not exist").arg(home);
        return false;
    }
    const QByteArray hosts =
        QStringLiteral("127.0.0.1\tlocalhost\n127.0.1.1\t%1\n::1\tlocalhost ip6-localhost ip6-loopback\n")
            .arg(state.spec.name)
            .toUtf8();
    // The one name server a sandbox has is its own paddock-init (app/init/NameServer.h).
    const Durability durability = state.spec.disposable ? Durability::Unsynced : Durability::Synced;
    // Rewritten only when they change: an fsync on every start would cost milliseconds.
    return writeFileIfChanged(sandboxDir(state.spec.name) + QStringLiteral("/hosts"), hosts, error, 0644, durability) &&
           writeFileIfChanged(sandboxDir(state.spec.name) + QStringLiteral("/resolv.conf"), bwrap::kResolvConf, error,
                              0644, durability);
}

bool BwrapRuntime::prepareVolumes(const SandboxState &state, QString *error) const
{
    const QString dir = volumesDir(state.spec.name);
    for (const SandboxVolume &volume : state.volumes) {
        if (volume.tmpfs)
            continue;
        if (!paths::ensurePrivateDir(dir, error))
            return false;
        // Fresh storage is empty and gets the kit's mode; storage kept from before keeps its
        // contents and whatever permissions it has now.
        const QString folder = dir + QLatin1Char('/') + bwrap::volumeFolderName(volume.path);
        if (QFileInfo(folder).isDir())
            continue;
        bool ok = false;
        const uint mode = volume.mode.isEmpty() ? 0755 : volume.mode.toUInt(&ok, 8);
        if ((!volume.mode.isEmpty() && !ok) || !QDir().mkdir(folder) ||
            ::chmod(QFile::encodeName(folder).constData(), mode_t(mode)) != 0) {
            *error = QStringLiteral("the volume %1 of sandbox %2 could not be made at %3")
                         .arg(volume.path, state.spec.name, folder);
            return false;
        }
    }
    return true;
}

bool BwrapRuntime::isRunning(const SandboxState &state) const
{
    return state.init.pid > 0 && state.init.isAlive();
}

SandboxInfo BwrapRuntime::infoOf(const SandboxState &state) const
{
    SandboxInfo info;
    info.name = state.spec.name;
    info.kitName = state.spec.kitName;
    info.runtime = id();
    info.workspace = state.spec.workspace;
    info.spec = state.spec;
    info.startedAt = state.startedAt;
    info.finishedAt = state.finishedAt;
    switch (state.root.base) {
    case bwrap::RootChoice::Base::ReadOnlyHost:
        info.rootBase = QStringLiteral("read-only");
        break;
    case bwrap::RootChoice::Base::Host:
        info.rootBase = QStringLiteral("host");
        break;
    case bwrap::RootChoice::Base::Image:
        info.rootBase = QStringLiteral("image");
        info.rootImage = state.root.image;
        break;
    }
    if (state.root.writable()) {
        info.rootMount = state.root.fuse ? QStringLiteral("fuse-overlayfs") : QStringLiteral("kernel overlay");
        info.rootBytes = upperBytes(state.spec.name);
        info.rootUpper = rootDir(state.spec.name) + QStringLiteral("/upper");
        if (!state.root.fuse && state.root.base == bwrap::RootChoice::Base::Host)
            info.rootParts = bwrap::hostSystemDirectories();
    }
    info.createdAt = state.createdAt;
    if (!state.startedAt.isValid()) {
        info.status = SandboxStatus::Created;
    } else if (isRunning(state)) {
        info.status = SandboxStatus::Running;
        info.pid = state.init.pid;
    } else {
        // It may have ended on its own since the state was written: bwrap recorded how.
        info.status = SandboxStatus::Stopped;
        info.exitCode = state.exitCode ? state.exitCode : bwrap::readBwrapStatus(statusPath(state.spec.name)).exitCode;
    }
    return info;
}

RuntimeResult BwrapRuntime::start(const QString &name, const ProcessIo &io, const StartOptions &options)
{
    QString error;
    auto state = isValidName(name) ? bwrap::readState(statePath(name), &error) : std::nullopt;
    if (!state)
        return RuntimeResult::failure(QStringLiteral("no sandbox named %1").arg(name));
    if (isRunning(*state))
        return RuntimeResult::failure(QStringLiteral("sandbox %1 is already running").arg(name));
    if (bwrap::bwrapProgram().isEmpty())
        return RuntimeResult::failure(QStringLiteral("bubblewrap is not installed (the package is called bubblewrap)"));
    if (!prepareLaunch(*state, &error))
        return RuntimeResult::failure(error);
    if (state->spec.lifetime == SandboxSpec::Lifetime::Foreground)
        return runForeground(*state, io);
    return startDetached(*state, options);
}

void BwrapRuntime::recordFinish(SandboxState &state, std::optional<int> exitCode) const
{
    state.finishedAt = QDateTime::currentDateTimeUtc();
    state.exitCode = exitCode;
    QString error;
    if (!bwrap::writeState(statePath(state.spec.name), state, &error))
        qCWarning(lcBwrap) << "cannot record the end of sandbox" << state.spec.name << error;
}

int BwrapRuntime::connectSession(const QString &name, QString *error) const
{
    const auto state = isValidName(name) ? bwrap::readState(statePath(name)) : std::nullopt;
    if (!state) {
        *error = QStringLiteral("no sandbox named %1").arg(name);
        return -1;
    }
    if (!isRunning(*state)) {
        *error = QStringLiteral("sandbox %1 is not running; start it with 'paddock start %1'").arg(name);
        return -1;
    }
    return session::connectSocket(sessionPath(name), error);
}

RuntimeResult BwrapRuntime::exec(const QString &name, const ExecRequest &request, const ProcessIo &io)
{
    if (request.argv.isEmpty() && !request.asAgent)
        return RuntimeResult::failure(QStringLiteral("no command to run"));
    QString error;
    const int fd = connectSession(name, &error);
    if (fd < 0)
        return RuntimeResult::failure(error);
    return session::resultOf(session::runSession(fd, session::spawnRequest(request), io));
}

RuntimeResult BwrapRuntime::attach(const QString &name, const AttachOptions &options, const ProcessIo &io)
{
    QString error;
    const int fd = connectSession(name, &error);
    if (fd < 0)
        return RuntimeResult::failure(error);
    return session::resultOf(session::runSession(fd, session::attachRequest(options), io));
}

std::optional<AgentInfo> BwrapRuntime::agent(const QString &name, QString *error) const
{
    QString problem;
    const int fd = connectSession(name, &problem);
    if (fd < 0) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    return session::queryAgent(fd, {}, error);
}

RuntimeResult BwrapRuntime::stop(const QString &name, std::chrono::milliseconds grace)
{
    auto state = isValidName(name) ? bwrap::readState(statePath(name)) : std::nullopt;
    if (!state)
        return RuntimeResult::failure(QStringLiteral("no sandbox named %1").arg(name));
    if (!state->startedAt.isValid() || state->finishedAt.isValid())
        return RuntimeResult::success();

    // SIGTERM to paddock-init, which passes it on to the program; the pid is checked against
    // its start time first so a reused pid is never signalled.
    if (isRunning(*state)) {
        ::kill(pid_t(state->init.pid), SIGTERM);
        if (!bwrap::waitUntil([&] { return !state->init.isAlive(); }, int(grace.count()))) {
            qCInfo(lcBwrap) << "sandbox" << name << "ignored SIGTERM; killing it";
            // PID 1 of the sandbox's pid namespace: everything inside dies with it.
            if (state->init.isAlive())
                ::kill(pid_t(state->init.pid), SIGKILL);
            if (!bwrap::waitUntil([&] { return !state->init.isAlive(); }, 10000))
                return RuntimeResult::failure(QStringLiteral("sandbox %1 does not die").arg(name));
        }
    }
    // bwrap writes the exit status once it has collected its child, right after.
    const QString status = statusPath(name);
    bwrap::waitUntil([&] { return bwrap::readBwrapStatus(status).exitCode || !state->bwrap.isAlive(); }, 2000);
    recordFinish(*state, bwrap::readBwrapStatus(status).exitCode);
    // The log is complete once its writer has read the pipe to the end.
    bwrap::waitUntil([&] { return !state->logWriter.isAlive(); }, 2000);
    qCInfo(lcBwrap) << "stopped sandbox" << name;
    return RuntimeResult::success();
}

RuntimeResult BwrapRuntime::remove(const QString &name, bool removeHome)
{
    auto state = isValidName(name) ? bwrap::readState(statePath(name)) : std::nullopt;
    if (!state)
        return RuntimeResult::failure(QStringLiteral("no sandbox named %1").arg(name));
    if (isRunning(*state))
        return RuntimeResult::failure(QStringLiteral("sandbox %1 is running; stop it first").arg(name));
    const QString dir = sandboxDir(name);
    // The root and the volumes go with the home: a setup run between two launches keeps them.
    // First, so that a root that cannot go leaves the sandbox listed.
    // Each tree is renamed away at once and removed in the background: the name is free
    // again as soon as this returns, and `run --rm` does not wait for a root's many folders.
    if (removeHome) {
        QString error;
        if (!filetree::removeTreeLater(rootDir(name), trashDir(), &error))
            return RuntimeResult::failure(
                QStringLiteral("the root of sandbox %1 was not removed: %2").arg(name, error));
        if (!filetree::removeTreeLater(volumesDir(name), trashDir(), &error))
            return RuntimeResult::failure(
                QStringLiteral("the volumes of sandbox %1 were not removed: %2").arg(name, error));
        const std::lock_guard lock(m_optionsMutex);
        m_measures.remove(name);
    }
    for (const char *file : {"/state.json", "/bwrap-status.json", "/hosts", "/resolv.conf", "/session.sock"})
        QFile::remove(dir + QLatin1String(file));
    bwrap::removeLog(logPath(name));
    // Only the private home is ever deleted; a home the user chose stays theirs.
    if (removeHome && state->spec.homeDir.isEmpty())
        (void)filetree::removeTreeLater(privateHome(name), trashDir());
    QDir().rmdir(dir); // fails, harmlessly, while a kept home is in it
    qCInfo(lcBwrap) << "removed sandbox" << name << (removeHome ? "and its home" : "");
    return RuntimeResult::success();
}

RuntimeResult BwrapRuntime::removeKeepingVolumes(const QString &name)
{
    const auto state = isValidName(name) ? bwrap::readState(statePath(name)) : std::nullopt;
    if (!state)
        return RuntimeResult::failure(QStringLiteral("no sandbox named %1").arg(name));
    if (isRunning(*state))
        return RuntimeResult::failure(QStringLiteral("sandbox %1 is running; stop it first").arg(name));
    QString error;
    if (!filetree::removeTreeLater(rootDir(name), trashDir(), &error))
        return RuntimeResult::failure(QStringLiteral("the root of sandbox %1 was not removed: %2").arg(name, error));
    {
        const std::lock_guard lock(m_optionsMutex);
        m_measures.remove(name);
    }
    if (state->spec.homeDir.isEmpty())
        (void)filetree::removeTreeLater(privateHome(name), trashDir());
    return remove(name, false);
}

RuntimeResult BwrapRuntime::removeLeftovers(const QString &name)
{
    if (!isValidName(name) || QFileInfo::exists(statePath(name)))
        return RuntimeResult::failure(QStringLiteral("sandbox %1 exists: it is removed as a whole").arg(name));
    QString error;
    for (const QString &tree : {volumesDir(name), rootDir(name)}) {
        if (!filetree::removeTree(tree, &error))
            return RuntimeResult::failure(
                QStringLiteral("what sandbox %1 left behind was not removed: %2").arg(name, error));
    }
    QDir(privateHome(name)).removeRecursively();
    QDir().rmdir(sandboxDir(name)); // once empty
    return RuntimeResult::success();
}

QStringList BwrapRuntime::volumePaths(const QString &name) const
{
    QStringList paths;
    if (!isValidName(name))
        return paths;
    for (const QString &folder : QDir(volumesDir(name)).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (const QString path = bwrap::volumePathOfFolder(folder); !path.isEmpty())
            paths << path;
    }
    paths.sort();
    return paths;
}

QList<SandboxInfo> BwrapRuntime::list() const
{
    QList<SandboxInfo> result;
    const QStringList names = QDir(m_root).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &name : names) {
        if (!isValidName(name) || !QFileInfo::exists(statePath(name)))
            continue;
        QString error;
        if (const auto state = bwrap::readState(statePath(name), &error))
            result.append(infoOf(*state));
        else
            qCWarning(lcBwrap) << "skipping" << error;
    }
    return result;
}

std::optional<SandboxInfo> BwrapRuntime::inspect(const QString &name) const
{
    const auto state = isValidName(name) ? bwrap::readState(statePath(name)) : std::nullopt;
    if (!state)
        return std::nullopt;
    return infoOf(*state);
}

std::optional<LogPage> BwrapRuntime::logs(const QString &name, qint64 offset, qint64 maxBytes, QString *error) const
{
    if (!isValidName(name) || !QFileInfo::exists(statePath(name))) {
        if (error)
            *error = QStringLiteral("no sandbox named %1").arg(name);
        return std::nullopt;
    }
    return bwrap::readLogPage(logPath(name), offset, maxBytes, error);
}

} // namespace paddock::runtime
