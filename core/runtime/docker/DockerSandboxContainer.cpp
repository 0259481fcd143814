// SPDX-License-Identifier: GPL-3.0-or-later
//
// How a SandboxSpec becomes a Docker container. Every mount the container gets is listed in
// containerSpec(), each with the reason it exists; anything not listed does not come from the
// host. Also what outlives a container or goes with it: what setup.install wrote to its root
// (docker::InstalledImage), its volumes, and its removal.
#include "runtime/SandboxLog.h"
#include "runtime/SandboxSpecJson.h"
#include "runtime/TrustedFiles.h"
#include "runtime/docker/DockerRuntime.h"

#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/InstalledImage.h"
#include "runtime/docker/TarWriter.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <algorithm>
#include <cerrno>
#include <cmath>

#include <sys/random.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcDockerRuntime)

namespace paddock::runtime {

using docker::BindMount;
using docker::ContainerSpec;
namespace layout = docker::layout;

namespace {

constexpr size_t kTokenBytes = 32;

// Each grant is one host socket (or file), bound read-only: connecting to a socket needs no
// write access to the mount, and the sandbox cannot replace it.
void addGrants(ContainerSpec &container, const SandboxGrants &grants)
{
    const auto bind = [&container](const QString &host, const QString &inside) {
        container.binds.append(BindMount{host, inside, true});
    };
    if (!grants.dockerSocket.isEmpty())
        bind(grants.dockerSocket, layout::kDockerInside);
    // The agent's socket through its folder, which holds nothing else: a bind of the file would
    // pin the socket of the paddockd that made it, dead once another one listens there.
    if (!grants.sshAgentSocket.isEmpty()) {
        const QFileInfo socket(grants.sshAgentSocket);
        bind(socket.absolutePath(), layout::kSshAgentDirInside);
        container.env.insert(QStringLiteral("SSH_AUTH_SOCK"),
                             layout::kSshAgentDirInside + QLatin1Char('/') + socket.fileName());
    }
    if (!grants.x11Display.isEmpty()) {
        QString number = grants.x11Display.mid(grants.x11Display.indexOf(QLatin1Char(':')) + 1);
        number = number.left(number.indexOf(QLatin1Char('.')) < 0 ? number.size() : number.indexOf(QLatin1Char('.')));
        const QString socket = QStringLiteral("/tmp/.X11-unix/X") + number;
        bind(socket, socket);
        container.env.insert(QStringLiteral("DISPLAY"), QLatin1Char(':') + number);
        if (!grants.xauthorityFile.isEmpty()) {
            bind(grants.xauthorityFile, layout::kXauthorityInside);
            container.env.insert(QStringLiteral("XAUTHORITY"), layout::kXauthorityInside);
        }
    }
    if (!grants.waylandSocket.isEmpty()) {
        bind(grants.waylandSocket, layout::kWaylandInside);
        container.env.insert(QStringLiteral("WAYLAND_DISPLAY"), layout::kWaylandInside);
    }
    if (!grants.dbusSessionSocket.isEmpty()) {
        bind(grants.dbusSessionSocket, layout::kDbusInside);
        container.env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
                             QStringLiteral("unix:path=") + layout::kDbusInside);
    }
}

QString tmpfsOptions(const DockerVolume &volume)
{
    QStringList options{QStringLiteral("rw")};
    if (!volume.size.isEmpty())
        options << QStringLiteral("size=") + volume.size;
    if (!volume.mode.isEmpty())
        options << QStringLiteral("mode=") + volume.mode;
    return options.join(QLatin1Char(','));
}

/** 32 random bytes as hex, from the kernel's generator (the source of /dev/urandom). */
QString newSessionToken()
{
    unsigned char bytes[kTokenBytes];
    size_t filled = 0;
    while (filled < sizeof bytes) {
        const ssize_t n = ::getrandom(bytes + filled, sizeof bytes - filled, 0);
        if (n > 0)
            filled += size_t(n);
        else if (errno != EINTR)
            qFatal("no random bytes for a session token");
    }
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(bytes), sizeof bytes).toHex());
}

/**
 * paddock-init and its options, before the program: the container's entrypoint. Under runc the
 * relay hands each client's socket to the proxy; a gVisor sandbox's sockets live in its own
 * kernel and cannot leave it, so its relay splices (@p userSpaceKernel).
 */
QStringList initCommand(const SandboxSpec &spec, const QString &sessionToken, bool userSpaceKernel,
                        const QString &become)
{
    QStringList command{layout::kInitInside};
    if (!spec.proxySocket.isEmpty())
        command << QStringLiteral("--relay")
                << QStringLiteral("127.0.0.1:%1=%2").arg(spec.proxyPort).arg(spec.sandboxProxySocket);
    if (!spec.proxySocket.isEmpty() && !userSpaceKernel)
        command << QStringLiteral("--relay-hand-over");
    if (!become.isEmpty())
        command << QStringLiteral("--capture") << QStringLiteral("--become") << become;
    const QStringList publishes =
        spec.environment.value(layout::kPublishVariable).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &publish : publishes)
        command << QStringLiteral("--publish") << publish;
    // A detached sandbox's paddock-init is its supervisor. The token is on its command line,
    // which paddock-init wipes before anything else runs in the container, and in a label.
    if (!sessionToken.isEmpty()) {
        command << QStringLiteral("--session-listen") << layout::kSessionSocket << QStringLiteral("--session-token")
                << sessionToken;
        if (!spec.startup.isEmpty())
            command << QStringLiteral("--startup") << spec.startup;
    }
    command << QStringLiteral("--");
    return command;
}

/**
 * The kit's volumes: tmpfs in memory, the others named after the sandbox so they outlive a
 * restart of the container and go with the sandbox's home.
 */
void addVolumes(ContainerSpec &container, const QString &name, const DockerSandboxOptions &options)
{
    for (const DockerVolume &volume : options.volumes) {
        if (volume.tmpfs)
            container.tmpfs.append(docker::TmpfsMount{volume.path, tmpfsOptions(volume)});
        else
            container.volumes.append(
                docker::VolumeMount{DockerRuntime::volumeName(name, volume.path), volume.path, false});
    }
}

/** Every mount from the host, and the kit's volumes. */
void addMounts(ContainerSpec &container, const SandboxSpec &spec, const DockerSandboxOptions &options)
{
    // On another computer nothing of this one is bound: paddock-init and the workspace are
    // copied in (DockerRemote.cpp), the proxy is reached through RemoteRelay; only volumes remain.
    if (options.remote) {
        container.volumes.append(
            docker::VolumeMount{DockerRuntime::homeVolumeName(spec.name), spec.sandboxHome, false});
        addVolumes(container, spec.name, options);
        return;
    }
    // paddock-init, read-only, the program the container starts.
    container.binds.append(BindMount{spec.initPath, layout::kInitInside, true});
    // The proxy endpoint, the sandbox's only way out: the socket itself, not its directory,
    // so the sandbox sees no other endpoint (the daemon's own socket may live beside it);
    // unless the caller binds a directory that holds only this sandbox's sockets.
    const bool endpointDirBound =
        std::any_of(spec.readOnlyBinds.cbegin(), spec.readOnlyBinds.cend(), [&spec](const ReadOnlyBind &bind) {
            return !spec.proxySocket.isEmpty() &&
                   QFileInfo(spec.proxySocket).absolutePath() == QDir::cleanPath(bind.hostPath) &&
                   QFileInfo(spec.sandboxProxySocket).path() == QDir::cleanPath(bind.sandboxPath);
        });
    if (!spec.proxySocket.isEmpty() && !endpointDirBound)
        container.binds.append(BindMount{spec.proxySocket, spec.sandboxProxySocket, true});
    // The two writable places from outside the image: the workspace at its own path, and the
    // home (the user's chosen directory, else a volume private to this sandbox).
    if (!spec.workspace.isEmpty())
        container.binds.append(BindMount{spec.workspace, spec.workspace, false});
    // What the host runs or trusts later stays read-only in the workspace, as on bubblewrap
    // (the engine mounts a path after the folders holding it).
    if (!spec.workspace.isEmpty() && spec.protectHostFiles) {
        for (const QString &relative : trusted::existingProtected(spec.workspace)) {
            const QString path = spec.workspace + QLatin1Char('/') + relative;
            container.binds.append(BindMount{path, path, true});
        }
    }
    if (!spec.homeDir.isEmpty())
        container.binds.append(BindMount{spec.homeDir, spec.sandboxHome, false});
    else
        container.volumes.append(
            docker::VolumeMount{DockerRuntime::homeVolumeName(spec.name), spec.sandboxHome, false});
    for (const ReadOnlyBind &bind : spec.readOnlyBinds)
        container.binds.append(
            BindMount{bind.hostPath, bind.sandboxPath.isEmpty() ? bind.hostPath : bind.sandboxPath, true});
    for (const SharedMount &mount : spec.sharedMounts)
        container.binds.append(BindMount{mount.hostPath, mount.sandboxPath, !mount.writable});
    addGrants(container, spec.grants);
    addVolumes(container, spec.name, options);
}

} // namespace

QStringList DockerRuntime::volumesToClaim(const QString &name, const DockerSandboxOptions &options) const
{
    // Volumes new to this sandbox become its agent's; a root run of setup.install may come first
    // and leave them for the agent's first container.
    {
        const std::lock_guard lock(m_optionsMutex);
        if (m_unclaimedVolumes.contains(name))
            return m_unclaimedVolumes.value(name);
    }
    QStringList unclaimed;
    const QStringList kept = keptVolumes(name);
    for (const DockerVolume &volume : options.volumes) {
        if (!volume.tmpfs && !kept.contains(volumeName(name, volume.path)))
            unclaimed << volume.path;
    }
    return unclaimed;
}

docker::Status DockerRuntime::claimVolumes(const QString &id, const ContainerSpec &container,
                                           const DockerSandboxOptions &options, const QStringList &paths) const
{
    // A new named volume is root's 0755 unless the image has a folder at its path, which the agent
    // (the user's ids) then cannot write. A folder entry at the path, extracted into the created
    // container, becomes the volume's own folder: the agent's, with the kit's mode, as bubblewrap
    // makes it. A volume kept from before keeps whatever it has now.
    const QString agent = container.labels.value(layout::kLabelAgentUser, container.user);
    docker::TarWriter tar;
    bool any = false;
    for (const DockerVolume &volume : options.volumes) {
        if (volume.tmpfs || !paths.contains(volume.path))
            continue;
        bool ok = false;
        const int mode = volume.mode.isEmpty() ? 0755 : int(volume.mode.toUInt(&ok, 8));
        if (!tar.add(QDir::cleanPath(volume.path).mid(1), AE_IFDIR, ok || volume.mode.isEmpty() ? mode : 0755, {},
                     agent.section(QLatin1Char(':'), 0, 0).toLongLong(),
                     agent.section(QLatin1Char(':'), 1, 1).toLongLong()))
            return docker::Error{docker::Error::Kind::Local, 0, QStringLiteral("cannot write a tar")};
        any = true;
    }
    return any ? m_client.putArchive(id, QStringLiteral("/"), tar.finish()) : docker::Status();
}

ContainerSpec DockerRuntime::containerSpec(const SandboxSpec &spec, const DockerSandboxOptions &options)
{
    ContainerSpec container;
    container.image = options.image;
    container.name = containerName(spec.name);
    container.hostname = spec.name;
    // The invoking user's ids: the workspace, the home and the proxy socket (in a directory
    // only that user may enter) are that user's, and the sandbox reaches them as their owner.
    container.user = !options.user.isEmpty() ? options.user : QStringLiteral("%1:%2").arg(::getuid()).arg(::getgid());

    // paddock-init is PID 1: it relays the loopback port to the proxy socket and reaps; a
    // detached sandbox's supervises its sessions (the agent's among them) until it is stopped,
    // a foreground one's runs the program to its end. Docker's own init is not needed.
    const bool supervised = spec.lifetime == SandboxSpec::Lifetime::Detached;
    const QString token = supervised ? newSessionToken() : QString();
    // A supervised sandbox's paddock-init captures every connection (app/init/Capture.h): it
    // starts as root with the few capabilities that takes, sets capture up, then becomes the
    // agent's user and gives them all up before anything of the sandbox runs.
    const QString agentUser = supervised && !spec.proxySocket.isEmpty() ? container.user : QString();
    if (!agentUser.isEmpty()) {
        container.user = QStringLiteral("0:0");
        container.capAdd = layout::kCaptureCapabilities;
        container.dns = QStringList{QStringLiteral("127.0.0.1")}; // paddock-init answers names
    }
    // No socket can be handed over the stream a remote engine's sandbox gets out through.
    container.entrypoint = initCommand(spec, token, !options.engineRuntime.isEmpty() || options.remote, agentUser);
    container.cmd = spec.argv;
    container.init = false;

    // Exactly the spec's environment (and the grants' variables): nothing from the caller.
    container.env = spec.environment;
    container.env.remove(layout::kPublishVariable);
    container.workingDir = !spec.workingDir.isEmpty()  ? spec.workingDir
                           : !spec.workspace.isEmpty() ? spec.workspace
                                                       : spec.sandboxHome;

    container.labels = {
        {layout::kLabelSandbox, spec.name},
        {layout::kLabelKit, spec.kitName},
        {layout::kLabelWorkspace, spec.workspace},
        {layout::kLabelRuntime, QStringLiteral("docker")},
        {layout::kLabelOwner, DockerRuntime::owner()},
        {layout::kLabelSpec, QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact))}};
    if (supervised)
        container.labels.insert(layout::kLabelSessionToken, token);
    if (!agentUser.isEmpty())
        container.labels.insert(layout::kLabelAgentUser, agentUser);
    // gVisor: the engine's runsc runtime gives the container a user-space kernel of its own.
    container.runtime = options.engineRuntime;
    if (!options.engineRuntime.isEmpty())
        container.labels.insert(layout::kLabelIsolation, QStringLiteral("gvisor"));
    addMounts(container, spec, options);

    // No network but loopback; the relay is the way out. Capabilities and privilege gains are
    // the ContainerSpec defaults, all dropped and no-new-privileges, but for those capture
    // lends paddock-init above.
    container.networkMode = QStringLiteral("none");
    // On another computer's engine nothing is published there: ports come back over the relay.
    for (const DockerPort &port : options.remote ? QList<DockerPort>() : options.ports)
        container.ports.append(docker::PortBinding{port.containerPort, port.protocol, QStringLiteral("127.0.0.1"), 0});
    container.nanoCpus = qint64(std::llround(options.cpus * 1e9));
    container.memoryBytes = options.memoryBytes;
    // A fork bomb stops at the sandbox's limit, as under bubblewrap (PidsLimit needs the pids cgroup).
    container.pidsLimit = spec.limits.maxProcesses;
    // Its output is bounded as under bubblewrap: the engine rotates it (runtime/SandboxLog.h).
    container.logFileBytes = sandboxlog::kFileLimit;

    // A supervised sandbox gives each session a terminal of its own; its own output is its log.
    // Input reaches only an interactive foreground sandbox, through its attach: the engine
    // cannot pass on the end of the input (it ends the attach instead), which a terminal does
    // not need (^D is a key its line discipline turns into end of file) but a pipe would.
    container.tty = spec.interactive && !supervised;
    container.openStdin = spec.interactive && !supervised;
    return container;
}

QString DockerRuntime::volumeName(const QString &sandbox, const QString &path)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_.-]+"));
    QString slug = path;
    slug.replace(unsafe, QStringLiteral("-"));
    while (slug.startsWith(QLatin1Char('-')))
        slug.remove(0, 1);
    while (slug.endsWith(QLatin1Char('-')))
        slug.chop(1);
    return containerName(sandbox) + QStringLiteral("-v-") + (slug.isEmpty() ? QStringLiteral("root") : slug);
}

QStringList DockerRuntime::keptVolumes(const QString &sandbox) const
{
    // Every volume named after the sandbox, mounted on its container or retained from a kit that
    // no longer declares it; the engine's filter matches part of a name, so each is checked.
    const QString prefix = containerName(sandbox) + QStringLiteral("-v-");
    docker::HttpRequest request;
    request.path = QStringLiteral("/volumes");
    request.query = {{QStringLiteral("filters"), QStringLiteral(R"({"name":["%1"]})").arg(prefix)}};
    const docker::Result<docker::HttpResponse> listed = engineCall(request);
    QStringList names;
    if (!listed)
        return names;
    const QJsonArray volumes =
        QJsonDocument::fromJson(listed.value().body).object().value(QLatin1String("Volumes")).toArray();
    for (const QJsonValue &volume : volumes) {
        const QString name = volume.toObject().value(QLatin1String("Name")).toString();
        if (name.startsWith(prefix))
            names << name;
    }
    return names;
}

RuntimeResult DockerRuntime::keepLaunchedRoot(const QString &name)
{
    const docker::Result<docker::ContainerInfo> container = containerOf(name);
    if (!container)
        return RuntimeResult::failure(container.errorMessage());
    // The next container of the sandbox, the next run's or its own, is made from this image.
    DockerSandboxOptions options = optionsFor(name);
    const docker::Result<QString> image =
        docker::InstalledImage(m_client, owner(), name).commit(container.value(), options.image, options.volumes);
    if (!image)
        return RuntimeResult::failure(
            QStringLiteral("what setup.install wrote to the system of sandbox %1 could not be kept: %2")
                .arg(name, image.errorMessage()));
    options.image = image.value();
    setSandboxOptions(name, options);
    qCInfo(lcDockerRuntime) << "kept what setup.install wrote to sandbox" << name << "as image" << image.value();
    return RuntimeResult::success();
}

RuntimeResult DockerRuntime::remove(const QString &name, bool removeHome)
{
    const docker::InstalledImage installed(m_client, owner(), name);
    const docker::Result<docker::ContainerInfo> container = containerOf(name);
    if (!container) {
        // A run of setup.install that failed has removed its container already; the image an
        // earlier run left goes all the same.
        if (removeHome && isValidName(name))
            (void)installed.remove();
        return RuntimeResult::failure(container.errorMessage());
    }
    if (container.value().running)
        return RuntimeResult::failure(QStringLiteral("sandbox %1 is running; stop it first").arg(name));
    const docker::Status removed = m_client.removeContainer(container.value().id);
    if (!removed)
        return RuntimeResult::failure(removed.errorMessage());
    if (removeHome) {
        // Only volumes this sandbox owns; a home directory the user chose stays theirs.
        const QStringList volumes = QStringList{homeVolumeName(name)} + keptVolumes(name);
        for (const QString &volume : std::as_const(volumes)) {
            docker::HttpRequest request;
            request.method = "DELETE";
            request.path = QStringLiteral("/volumes/%1").arg(volume);
            const docker::Result<docker::HttpResponse> deleted = engineCall(request);
            if (!deleted && !deleted.is(docker::Error::Kind::NotFound))
                return RuntimeResult::failure(QStringLiteral("sandbox %1 is removed but not its volume %2: %3")
                                                  .arg(name, volume, deleted.errorMessage()));
        }
        if (const docker::Status images = installed.remove(); !images)
            return RuntimeResult::failure(QStringLiteral("sandbox %1 is removed: %2").arg(name, images.errorMessage()));
    }
    qCInfo(lcDockerRuntime) << "removed sandbox" << name << (removeHome ? "and its home" : "");
    return RuntimeResult::success();
}

RuntimeResult DockerRuntime::removeKeepingVolumes(const QString &name)
{
    const RuntimeResult removed = remove(name, false);
    // What setup.install wrote to the root goes too: a recreation installs again on the kit's
    // image. After a failed run of it there is no container left, but maybe an earlier run's image.
    const docker::Status images = docker::InstalledImage(m_client, owner(), name).remove();
    if (!removed.ok)
        return removed;
    if (!images)
        return RuntimeResult::failure(images.errorMessage());
    // The container's home volume goes with the container; the kit's volumes stay, named after
    // the sandbox, for the next container of the same name.
    docker::HttpRequest request;
    request.method = "DELETE";
    request.path = QStringLiteral("/volumes/%1").arg(homeVolumeName(name));
    const docker::Result<docker::HttpResponse> deleted = engineCall(request);
    if (!deleted && !deleted.is(docker::Error::Kind::NotFound))
        return RuntimeResult::failure(
            QStringLiteral("the home volume of sandbox %1 was not removed: %2").arg(name, deleted.errorMessage()));
    return RuntimeResult::success();
}

} // namespace paddock::runtime
