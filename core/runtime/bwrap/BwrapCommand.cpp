// SPDX-License-Identifier: GPL-3.0-or-later
//
// The Linux launch code: how a SandboxSpec becomes a bubblewrap command line. Every mount the sandbox gets is listed here, each with the
// reason it exists; anything not listed does not exist inside.
#include "runtime/bwrap/BwrapCommand.h"

#include "runtime/TrustedFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUrl>

#include <climits>

#include <unistd.h>

namespace paddock::runtime::bwrap {
namespace {

// Where Paddock's own pieces appear inside. /run is an empty directory of the sandbox's root.
const QString kInitInside = QStringLiteral("/run/paddock/init");
/** How the daemon hands over published ports (app/init/Publish.h); given to init as options. */
const QString kPublishVariable = QStringLiteral("PADDOCK_PUBLISH");
const QString kSshAgentDirInside = QStringLiteral("/run/paddock/ssh-agent");
const QString kXauthorityInside = QStringLiteral("/run/paddock/Xauthority");
const QString kWaylandInside = QStringLiteral("/run/paddock/wayland-0");
const QString kDbusInside = QStringLiteral("/run/paddock/dbus-session.sock");
const QString kDockerInside = QStringLiteral("/var/run/docker.sock");

// The parts of /etc that ordinary programs need and that say nothing private about the host:
// user and group names (so `id`, `ls -l` and shells work), how to look names up, the trust
// store for TLS (certificates and OpenSSL's configuration), the CA bundle configuration, the
// dynamic linker's cache, and the time zone. Deliberately absent: resolv.conf (there is no
// DNS but paddock-init's, which answers where it captures, and resolv.conf is generated then),
// hosts (generated), ssl/private, ld.so.conf (only ldconfig reads it), everything else.
//
// Single files are copied in by bwrap from an fd (--file) rather than bind-mounted: a copy
// taken at start costs nothing, where every mount adds to the start time.
const char *const kCopiedEtcFiles[] = {
    "/etc/passwd",      "/etc/group",    "/etc/nsswitch.conf",        "/etc/ssl/openssl.cnf",
    "/etc/ld.so.cache", "/etc/timezone", "/etc/ca-certificates.conf",
};
// Directories are bound read-only: the certificates (links into /usr/share/ca-certificates
// plus the bundle) and the alternatives links Debian's /usr/bin points through.
const char *const kBoundEtcDirectories[] = {"/etc/ssl/certs", "/etc/alternatives"};

// Top-level directories of the host's system, outside /usr. On a merged-/usr system they are
// symlinks into /usr and are recreated as the same symlinks; on an older layout they are real
// directories and are bound read-only.
const char *const kSystemTopLevel[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

void add(QStringList &args, std::initializer_list<QString> items)
{
    for (const QString &item : items)
        args << item;
}

// The link as written (usr/lib), not resolved, so the sandbox has the host's exact layout.
QString linkText(const QString &path)
{
    char buffer[PATH_MAX];
    const ssize_t length = ::readlink(QFile::encodeName(path).constData(), buffer, sizeof buffer);
    return length > 0 ? QFile::decodeName(QByteArray(buffer, int(length))) : QFile::symLinkTarget(path);
}

/** @brief One piece of the host's system a sandbox sees: a directory bound read-only, or a link. */
struct SystemEntry
{
    bool link = false;
    QString source; ///< the directory, or the link's text
    QString path;
};

/**
 * The host's system as a sandbox sees it: the programs and libraries (/usr, read-only: the
 * sandbox can run them but not change them), the top-level links into it, the certificates and
 * alternatives of /etc, and the time zone (a link into /usr/share/zoneinfo).
 */
QList<SystemEntry> hostSystem()
{
    QList<SystemEntry> entries{{false, QStringLiteral("/usr"), QStringLiteral("/usr")}};
    for (const char *entry : kSystemTopLevel) {
        const QString path = QString::fromLatin1(entry);
        const QFileInfo info(path);
        if (info.isSymLink())
            entries.append({true, linkText(path), path});
        else if (info.isDir())
            entries.append({false, path, path});
    }
    for (const char *entry : kBoundEtcDirectories) {
        const QString path = QString::fromLatin1(entry);
        if (QFileInfo(path).isDir())
            entries.append({false, path, path});
    }
    const QFileInfo localtime(QStringLiteral("/etc/localtime"));
    if (localtime.isSymLink())
        entries.append({true, linkText(localtime.filePath()), localtime.filePath()});
    return entries;
}

void addHostSystem(QStringList &args)
{
    for (const SystemEntry &entry : hostSystem()) {
        if (entry.link)
            add(args, {QStringLiteral("--symlink"), entry.source, entry.path});
        else
            add(args, {QStringLiteral("--ro-bind"), entry.source, entry.path});
    }
}

void addGrants(QStringList &args, QMap<QString, QString> &env, const SandboxGrants &grants)
{
    // Each grant is one host socket (or file), bound read-only: connecting to a socket needs
    // no write access to the mount, and the sandbox cannot replace it.
    if (!grants.dockerSocket.isEmpty())
        add(args, {QStringLiteral("--ro-bind"), grants.dockerSocket, kDockerInside});
    // The agent's socket through its folder, which holds nothing else: a bind of the file would
    // pin the socket of the paddockd that made it, dead once another one listens there.
    if (!grants.sshAgentSocket.isEmpty()) {
        const QFileInfo socket(grants.sshAgentSocket);
        add(args, {QStringLiteral("--ro-bind"), socket.absolutePath(), kSshAgentDirInside});
        env.insert(QStringLiteral("SSH_AUTH_SOCK"), kSshAgentDirInside + QLatin1Char('/') + socket.fileName());
    }
    if (!grants.x11Display.isEmpty()) {
        QString number = grants.x11Display.mid(grants.x11Display.indexOf(QLatin1Char(':')) + 1);
        number = number.left(number.indexOf(QLatin1Char('.')) < 0 ? number.size() : number.indexOf(QLatin1Char('.')));
        const QString socket = QStringLiteral("/tmp/.X11-unix/X") + number;
        add(args, {QStringLiteral("--ro-bind"), socket, socket});
        env.insert(QStringLiteral("DISPLAY"), QLatin1Char(':') + number);
        if (!grants.xauthorityFile.isEmpty()) {
            add(args, {QStringLiteral("--ro-bind"), grants.xauthorityFile, kXauthorityInside});
            env.insert(QStringLiteral("XAUTHORITY"), kXauthorityInside);
        }
    }
    if (!grants.waylandSocket.isEmpty()) {
        add(args, {QStringLiteral("--ro-bind"), grants.waylandSocket, kWaylandInside});
        env.insert(QStringLiteral("WAYLAND_DISPLAY"), kWaylandInside);
    }
    if (!grants.dbusSessionSocket.isEmpty()) {
        add(args, {QStringLiteral("--ro-bind"), grants.dbusSessionSocket, kDbusInside});
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=") + kDbusInside);
    }
}

QString workingDirOf(const SandboxSpec &spec)
{
    return spec.workingDir.isEmpty() ? spec.workspace : spec.workingDir;
}

bool isSupervised(const LaunchPaths &paths)
{
    return paths.sessionFd >= 0;
}

/**
 * Whether paddock-init captures every connection (app/init/Capture.h): where it starts with the
 * capabilities of the sandbox's namespaces, as a supervisor does, and there is a proxy to bring
 * them to. The foreground runs of `setup.install` have neither the capabilities nor the capture.
 */
bool capturesConnections(const SandboxSpec &spec, const LaunchPaths &paths)
{
    return isSupervised(paths) && !spec.proxySocket.isEmpty();
}

/** The namespaces, the ids inside and the capabilities of a sandbox, and how it runs. */
void addNamespaces(QStringList &args, const SandboxSpec &spec, const LaunchPaths &paths)
{
    // Every namespace is new: no network but loopback (bwrap brings `lo` up), its own pids,
    // IPC, host name, cgroup view, and a user namespace so nothing inside holds a host
    // capability. --cap-drop ALL empties even the capabilities of that user namespace.
    add(args, {QStringLiteral("--unshare-all"), QStringLiteral("--cap-drop"), QStringLiteral("ALL")});
    // The one id the user namespace maps (the host user) gets the uid the launch asks for:
    // a name only, with no power outside the namespace. A supervised sandbox's paddock-init is
    // 0 there and keeps that namespace's capabilities just long enough to make the agent's
    // user namespace; every session it starts has none (app/init/Identity.h).
    const bool supervised = isSupervised(paths);
    add(args,
        {QStringLiteral("--unshare-user"), QStringLiteral("--uid"), QString::number(supervised ? 0 : paths.options.uid),
         QStringLiteral("--gid"), QString::number(supervised ? 0 : paths.options.gid)});
    if (supervised)
        add(args, {QStringLiteral("--cap-add"), QStringLiteral("ALL")});
    // paddock-init is PID 1 itself: it forwards signals and reaps, so bwrap's reaper is not
    // needed, and a SIGTERM sent to the sandbox's first process reaches paddock-init.
    args << QStringLiteral("--as-pid-1");
    // A session of its own, so nothing inside can push keystrokes into the caller's terminal
    // (TIOCSTI). An interactive sandbox gets its own terminal and session from the launcher.
    if (!spec.interactive)
        args << QStringLiteral("--new-session");
    if (spec.lifetime == SandboxSpec::Lifetime::Foreground)
        args << QStringLiteral("--die-with-parent");
    add(args, {QStringLiteral("--hostname"), spec.name});
}

/** The root, /proc, /dev, /tmp, the copied and generated files of /etc, paddock-init and the proxy socket. */
void addSystemMounts(QStringList &args, const SandboxSpec &spec, const LaunchPaths &paths)
{
    // The root: the sandbox's own, mounted by the root stage, under everything below; or a
    // tmpfs (bwrap's) holding the host's system read-only.
    if (paths.root.writable())
        add(args, {QStringLiteral("--bind"), paths.rootDir + QStringLiteral("/mnt"), QStringLiteral("/")});
    else
        addHostSystem(args);
    // A fresh /proc for the new pid namespace (the host's processes stay invisible), a minimal
    // /dev (null, zero, random, tty, pts, shm), and a private /tmp.
    add(args, {QStringLiteral("--proc"), QStringLiteral("/proc")});
    add(args, {QStringLiteral("--dev"), QStringLiteral("/dev")});
    add(args, {QStringLiteral("--tmpfs"), QStringLiteral("/tmp")});
    for (const auto &[fd, path] : paths.copiedFiles)
        add(args,
            {QStringLiteral("--perms"), QStringLiteral("0644"), QStringLiteral("--file"), QString::number(fd), path});
    // Loopback and the sandbox's own name, so `localhost` and `hostname -f` resolve without DNS.
    if (!paths.hostsFile.isEmpty())
        add(args, {QStringLiteral("--ro-bind"), paths.hostsFile, QStringLiteral("/etc/hosts")});
    // Names are answered by paddock-init where it captures connections: a supervised sandbox.
    if (capturesConnections(spec, paths) && !paths.resolvConfFile.isEmpty())
        add(args, {QStringLiteral("--ro-bind"), paths.resolvConfFile, QStringLiteral("/etc/resolv.conf")});

    // paddock-init, read-only, the program bwrap starts.
    add(args, {QStringLiteral("--ro-bind"), spec.initPath, kInitInside});
    // The proxy endpoint, the sandbox's only way out: the socket itself, not its directory,
    // so the sandbox sees no other endpoint.
    if (!spec.proxySocket.isEmpty())
        add(args, {QStringLiteral("--ro-bind"), spec.proxySocket, spec.sandboxProxySocket});
}

/** The two writable places, the home and the workspace, with what stays read-only in the workspace. */
void addWritableMounts(QStringList &args, const SandboxSpec &spec, const LaunchPaths &paths)
{
    // The private home (never the user's own) and the workspace, the two writable places.
    // After /tmp, so a workspace under /tmp is not hidden by the tmpfs.
    add(args, {QStringLiteral("--bind"), paths.homeDir, spec.sandboxHome});
    // A clone workspace is the sandbox's own copy, shown where the original is.
    if (!paths.options.workspaceSource.isEmpty())
        add(args, {QStringLiteral("--bind"), paths.options.workspaceSource, paths.options.workspaceTarget});
    else if (!spec.workspace.isEmpty())
        add(args, {QStringLiteral("--bind"), spec.workspace, spec.workspace});
    // In place, what the host runs or trusts later stays read-only: no hook or config planted
    // for the person's next git command or editor.
    if (paths.options.workspaceSource.isEmpty() && !spec.workspace.isEmpty() && spec.protectHostFiles) {
        for (const QString &relative : trusted::existingProtected(spec.workspace)) {
            const QString path = spec.workspace + QLatin1Char('/') + relative;
            add(args, {QStringLiteral("--ro-bind"), path, path});
        }
    }
}

/**
 * The kit's volumes, after the home and the workspace so that one inside the home lies over it,
 * and before anything runs, setup.install included. A tmpfs is bwrap's own, in memory and gone
 * with the sandbox; a block volume is the sandbox's folder for it, kept until it is removed.
 */
void addVolumes(QStringList &args, const LaunchPaths &paths)
{
    for (const SandboxVolume &volume : paths.volumes) {
        if (!volume.tmpfs) {
            add(args, {QStringLiteral("--bind"), paths.volumesDir + QLatin1Char('/') + volumeFolderName(volume.path),
                       volume.path});
            continue;
        }
        if (!volume.mode.isEmpty())
            add(args, {QStringLiteral("--perms"), volume.mode.rightJustified(4, QLatin1Char('0'))});
        if (!volume.size.isEmpty()) // in bytes (sandboxOptions())
            add(args, {QStringLiteral("--size"), volume.size});
        add(args, {QStringLiteral("--tmpfs"), volume.path});
    }
}

/** paddock-init's options: the proxy relay, published ports and, when supervised, the agent's sessions. */
void addInitOptions(QStringList &args, const SandboxSpec &spec, const LaunchPaths &paths)
{
    // Each client's socket goes to the proxy itself: the relay leaves the data path.
    if (!spec.proxySocket.isEmpty())
        add(args, {QStringLiteral("--relay"),
                   QStringLiteral("127.0.0.1:%1=%2").arg(spec.proxyPort).arg(spec.sandboxProxySocket),
                   QStringLiteral("--relay-hand-over")});
    if (capturesConnections(spec, paths))
        args << QStringLiteral("--capture");
    // Published ports reach paddock-init as options, as in the Docker runtime, so the
    // variable the daemon uses to pass them is not part of the sandbox's environment.
    for (const QString &publish : spec.environment.value(kPublishVariable).split(QLatin1Char(' '), Qt::SkipEmptyParts))
        add(args, {QStringLiteral("--publish"), publish});
    if (!isSupervised(paths))
        return;
    add(args, {QStringLiteral("--session-fd"), QString::number(paths.sessionFd), QStringLiteral("--agent-user"),
               QStringLiteral("%1:%2").arg(paths.options.uid).arg(paths.options.gid)});
    if (paths.startAgent)
        args << QStringLiteral("--start-agent");
    if (paths.startAgent && spec.interactive)
        args << QStringLiteral("--agent-terminal");
    if (!spec.startup.isEmpty())
        add(args, {QStringLiteral("--startup"), spec.startup});
    for (const SandboxSpec::StartupStep &step : spec.startupSteps)
        add(args, {QStringLiteral("--startup-step"), QStringLiteral("%1:%2").arg(step.uid).arg(step.script)});
    if (paths.seccompFd >= 0)
        add(args, {QStringLiteral("--seccomp-fd"), QString::number(paths.seccompFd)});
    add(args, {QStringLiteral("--max-processes"), QString::number(spec.limits.maxProcesses)});
    if (spec.limits.memoryBytes > 0)
        add(args, {QStringLiteral("--max-memory"), QString::number(spec.limits.memoryBytes)});
}

} // namespace

QString volumeFolderName(const QString &path)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(path));
}

QString volumePathOfFolder(const QString &folderName)
{
    const QString path = QUrl::fromPercentEncoding(folderName.toLatin1());
    return path.startsWith(QLatin1Char('/')) && volumeFolderName(path) == folderName ? path : QString();
}

QStringList copiedHostFiles()
{
    QStringList files;
    for (const char *entry : kCopiedEtcFiles)
        files << QString::fromLatin1(entry);
    // Where /etc/localtime is a file rather than a link into /usr/share/zoneinfo, it is copied.
    const QFileInfo localtime(QStringLiteral("/etc/localtime"));
    if (localtime.exists() && !localtime.isSymLink())
        files << localtime.filePath();
    return files;
}

QStringList confinementArguments(const QString &directory, const QMap<QString, QString> &environment)
{
    QStringList args;
    // No namespace is shared and no capability kept; the process dies with its caller.
    add(args, {QStringLiteral("--unshare-all"), QStringLiteral("--cap-drop"), QStringLiteral("ALL"),
               QStringLiteral("--die-with-parent"), QStringLiteral("--new-session")});
    addHostSystem(args);
    add(args, {QStringLiteral("--proc"), QStringLiteral("/proc"), QStringLiteral("--dev"), QStringLiteral("/dev"),
               QStringLiteral("--tmpfs"), QStringLiteral("/tmp")});
    // Links inside the directory resolve in this view, where nothing of the host but the
    // read-only system exists: a link planted to another repository leads nowhere.
    add(args, {QStringLiteral("--ro-bind"), directory, directory, QStringLiteral("--remount-ro"), QStringLiteral("/")});
    args << QStringLiteral("--clearenv");
    for (auto it = environment.cbegin(); it != environment.cend(); ++it)
        add(args, {QStringLiteral("--setenv"), it.key(), it.value()});
    add(args, {QStringLiteral("--chdir"), QStringLiteral("/")});
    return args;
}

QStringList rootStageCommand(const SandboxSpec &spec, const LaunchPaths &paths, bool foreground)
{
    if (!paths.root.writable())
        return {};
    QStringList args{spec.initPath, QStringLiteral("--mount-root")};
    if (paths.root.base == RootChoice::Base::Host) {
        // The host's system, assembled as the lower layer; the sandbox's writes go to its upper.
        add(args, {QStringLiteral("--root-host"), QStringLiteral("--root-base"),
                   paths.rootDir + QStringLiteral("/base"), QStringLiteral("--base-dir"), QStringLiteral("/etc")});
        if (paths.root.fuse)
            add(args, {QStringLiteral("--fuse-overlayfs"), paths.fuseOverlayfs});
        else
            args << QStringLiteral("--kernel-overlay");
        if (!paths.root.fuse && !paths.skeleton.isEmpty())
            add(args, {QStringLiteral("--root-skeleton"), paths.skeleton});
        for (const SystemEntry &entry : hostSystem())
            add(args, {entry.link ? QStringLiteral("--base-symlink") : QStringLiteral("--base-bind"),
                       entry.source + QLatin1Char(':') + entry.path});
    } else {
        add(args, {QStringLiteral("--root-layers"), paths.root.layersDir});
        for (const QString &layer : paths.root.layers)
            add(args, {QStringLiteral("--root-layer"), layer});
    }
    if (spec.disposable && !paths.root.fuse)
        args << QStringLiteral("--root-volatile");
    add(args, {QStringLiteral("--root-upper"), paths.rootDir + QStringLiteral("/upper"), QStringLiteral("--root-work"),
               paths.rootDir + QStringLiteral("/work"), QStringLiteral("--root-mount"),
               paths.rootDir + QStringLiteral("/mnt")});
    if (foreground)
        args << QStringLiteral("--die-with-parent");
    return args << QStringLiteral("--");
}

QStringList hostSystemDirectories()
{
    QStringList directories;
    for (const SystemEntry &entry : hostSystem()) {
        if (!entry.link)
            directories << entry.source;
    }
    return directories;
}

QString initPathInSandbox()
{
    return kInitInside;
}

QString bwrapProgram()
{
    // /usr/bin/../libexec/paddock/bwrap for the package; resources/apparmor/paddock-bwrap names it.
    if (QCoreApplication::instance()) {
        const QFileInfo own(
            QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../libexec/paddock/bwrap")));
        if (own.isFile() && own.isExecutable())
            return own.filePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("bwrap"));
}

QString fuseOverlayfsProgram()
{
    return QStandardPaths::findExecutable(QStringLiteral("fuse-overlayfs"));
}

QStringList bwrapArguments(const SandboxSpec &spec, const LaunchPaths &paths)
{
    QStringList args;
    addNamespaces(args, spec, paths);
    QMap<QString, QString> env = spec.environment;
    env.remove(kPublishVariable);
    addSystemMounts(args, spec, paths);
    addWritableMounts(args, spec, paths);
    addVolumes(args, paths);
    for (const ReadOnlyBind &bind : spec.readOnlyBinds)
        add(args, {QStringLiteral("--ro-bind"), bind.hostPath,
                   bind.sandboxPath.isEmpty() ? bind.hostPath : bind.sandboxPath});
    for (const SharedMount &mount : spec.sharedMounts)
        add(args, {mount.writable ? QStringLiteral("--bind") : QStringLiteral("--ro-bind"), mount.hostPath,
                   mount.sandboxPath});
    addGrants(args, env, spec.grants);

    // A tmpfs root (holding the mount points) becomes read-only last: only the binds above are
    // writable. A root of its own stays writable: its writes land in its upper layer.
    if (!paths.root.writable())
        add(args, {QStringLiteral("--remount-ro"), QStringLiteral("/")});

    // Exactly the spec's environment (and the grants' variables): nothing from the caller.
    args << QStringLiteral("--clearenv");
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        add(args, {QStringLiteral("--setenv"), it.key(), it.value()});
    add(args, {QStringLiteral("--chdir"), workingDirOf(spec)});
    if (paths.statusFd >= 0)
        add(args, {QStringLiteral("--json-status-fd"), QString::number(paths.statusFd)});
    if (paths.seccompFd >= 0 && !isSupervised(paths))
        add(args, {QStringLiteral("--seccomp"), QString::number(paths.seccompFd)});

    args << QStringLiteral("--") << kInitInside;
    addInitOptions(args, spec, paths);
    args << QStringLiteral("--") << spec.argv;
    return args;
}

} // namespace paddock::runtime::bwrap
