// SPDX-License-Identifier: GPL-3.0-or-later
//
// How a SandboxSpec becomes a Docker container, and how the container's life maps onto the
// Runtime calls. Every mount the container gets is listed in containerSpec(), each with the
// reason it exists; anything not listed does not come from the host.
#include "runtime/docker/DockerRuntime.h"
#include "common/Paths.h"
#include "runtime/SandboxSpecJson.h"

#include "runtime/docker/StreamDemuxer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <optional>

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcDockerRuntime, "paddock.runtime.docker", QtInfoMsg)

namespace paddock::runtime {

using docker::BindMount;
using docker::ContainerInfo;
using docker::ContainerSpec;
using docker::DockerClient;
using docker::Error;
using docker::HijackedConnection;
using docker::Result;
using docker::StreamDemuxer;

namespace {

// Where Paddock's own pieces appear inside, as in the bubblewrap runtime.
const QString kInitInside = QStringLiteral("/run/paddock/init");
const QString kSshAgentInside = QStringLiteral("/run/paddock/ssh-agent.sock");
const QString kXauthorityInside = QStringLiteral("/run/paddock/Xauthority");
const QString kWaylandInside = QStringLiteral("/run/paddock/wayland-0");
const QString kDbusInside = QStringLiteral("/run/paddock/dbus-session.sock");
const QString kDockerInside = QStringLiteral("/var/run/docker.sock");
/** paddock-init's variable for published ports (app/init/Publish.h), given as options here. */
const QString kPublishVariable = QStringLiteral("PADDOCK_PUBLISH");

const QString kLabelSandbox = QStringLiteral("paddock.sandbox");
const QString kLabelKit = QStringLiteral("paddock.kit");
const QString kLabelWorkspace = QStringLiteral("paddock.workspace");
const QString kLabelRuntime = QStringLiteral("paddock.runtime");
const QString kLabelSpec = QStringLiteral("paddock.spec");

constexpr int kExecSettleAttempts = 100;

RuntimeResult failure(const QString &message)
{
    return RuntimeResult::failure(message);
}

template <typename T> RuntimeResult failure(const Result<T> &result)
{
    return failure(result.errorMessage());
}

// --- the spec, kept in a label so a restarted daemon knows what each sandbox was ----------

QByteArray specToJson(const SandboxSpec &spec)
{
    return QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact);
}

SandboxSpec specFromJson(const QByteArray &json)
{
    return sandboxSpecFromJson(QJsonDocument::fromJson(json).object());
}

// --- mounts ---------------------------------------------------------------------------------

// Each grant is one host socket (or file), bound read-only: connecting to a socket needs no
// write access to the mount, and the sandbox cannot replace it.
void addGrants(ContainerSpec &container, const SandboxGrants &grants)
{
    const auto bind = [&container](const QString &host, const QString &inside) {
        container.binds.append(BindMount{host, inside, true});
    };
    if (!grants.dockerSocket.isEmpty())
        bind(grants.dockerSocket, kDockerInside);
    if (!grants.sshAgentSocket.isEmpty()) {
        bind(grants.sshAgentSocket, kSshAgentInside);
        container.env.insert(QStringLiteral("SSH_AUTH_SOCK"), kSshAgentInside);
    }
    if (!grants.x11Display.isEmpty()) {
        QString number = grants.x11Display.mid(grants.x11Display.indexOf(QLatin1Char(':')) + 1);
        number = number.left(number.indexOf(QLatin1Char('.')) < 0 ? number.size() : number.indexOf(QLatin1Char('.')));
        const QString socket = QStringLiteral("/tmp/.X11-unix/X") + number;
        bind(socket, socket);
        container.env.insert(QStringLiteral("DISPLAY"), QLatin1Char(':') + number);
        if (!grants.xauthorityFile.isEmpty()) {
            bind(grants.xauthorityFile, kXauthorityInside);
            container.env.insert(QStringLiteral("XAUTHORITY"), kXauthorityInside);
        }
    }
    if (!grants.waylandSocket.isEmpty()) {
        bind(grants.waylandSocket, kWaylandInside);
        container.env.insert(QStringLiteral("WAYLAND_DISPLAY"), kWaylandInside);
    }
    if (!grants.dbusSessionSocket.isEmpty()) {
        bind(grants.dbusSessionSocket, kDbusInside);
        container.env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=") + kDbusInside);
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

// --- relaying a caller's fds to an attached stream -----------------------------------------

bool writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

/** Puts a terminal in raw mode while it lives, so keys reach the container's own terminal. */
class RawTerminal
{
public:
    explicit RawTerminal(int fd) : m_fd(fd)
    {
        if (::isatty(fd) && ::tcgetattr(fd, &m_saved) == 0) {
            termios raw = m_saved;
            ::cfmakeraw(&raw);
            m_active = ::tcsetattr(fd, TCSANOW, &raw) == 0;
        }
    }
    ~RawTerminal()
    {
        if (m_active)
            ::tcsetattr(m_fd, TCSANOW, &m_saved);
    }
    RawTerminal(const RawTerminal &) = delete;
    RawTerminal &operator=(const RawTerminal &) = delete;

private:
    int m_fd;
    termios m_saved{};
    bool m_active = false;
};

/**
 * Copies the caller's input to @p stream and the output back to the caller's fds (split by
 * stream unless @p tty) until the engine ends the stream, which it does once the process has
 * exited and its output is drained. At the end of the input the stream is half-closed only
 * when @p endInput: the engine ends a container attach's output too when its input ends.
 */
bool relay(HijackedConnection &stream, const ProcessIo &io, bool forwardInput, bool endInput, bool tty, QString *error)
{
    StreamDemuxer demuxer([&io](StreamDemuxer::Stream which, const char *data, size_t size) {
        writeAll(which == StreamDemuxer::Stream::Stderr ? io.err : io.out, data, size);
    });
    bool inputOpen = forwardInput;
    char buffer[16384];
    for (;;) {
        const qint64 n = stream.read(buffer, sizeof buffer, 0);
        if (n == 0)
            return true;
        if (n == -1) {
            *error = QStringLiteral("the connection to the engine broke off");
            return false;
        }
        if (n > 0) {
            if (tty)
                writeAll(io.out, buffer, size_t(n));
            else if (!demuxer.feed(buffer, size_t(n))) {
                *error = QStringLiteral("the engine's output is not in the multiplexed format");
                return false;
            }
            continue;
        }
        pollfd fds[2] = {{stream.socketDescriptor(), POLLIN, 0}, {io.in, POLLIN, 0}};
        // Over TLS the socket can be readable with nothing to decrypt yet: poll briefly instead.
        const int ready = ::poll(fds, inputOpen ? 2 : 1, stream.isEncrypted() ? 50 : -1);
        if (ready < 0 && errno != EINTR) {
            *error = QStringLiteral("cannot wait for the container's output");
            return false;
        }
        if (inputOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t got = ::read(io.in, buffer, sizeof buffer);
            if (got > 0) {
                stream.write(QByteArray(buffer, qsizetype(got)));
            } else if (got == 0 || errno != EINTR) {
                inputOpen = false;
                if (endInput && !stream.isEncrypted())
                    stream.closeWrite();
            }
        }
    }
}

} // namespace

// --- construction and options ---------------------------------------------------------------

namespace {
docker::Endpoint environmentEndpoint()
{
    const Result<docker::Endpoint> endpoint = docker::Endpoint::fromEnvironment();
    return endpoint ? endpoint.value() : docker::Endpoint();
}
} // namespace

DockerRuntime::DockerRuntime() : DockerRuntime(environmentEndpoint()) {}

DockerRuntime::DockerRuntime(const docker::Endpoint &endpoint) : m_client(endpoint), m_transport(endpoint) {}

bool DockerRuntime::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"));
    return pattern.match(name).hasMatch();
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
    return QStringLiteral("paddock-%1-%2").arg(sandbox, slug.isEmpty() ? QStringLiteral("root") : slug);
}

void DockerRuntime::setDefaultOptions(const DockerSandboxOptions &options)
{
    const std::lock_guard lock(m_optionsMutex);
    m_defaults = options;
}

void DockerRuntime::setSandboxOptions(const QString &name, const DockerSandboxOptions &options)
{
    const std::lock_guard lock(m_optionsMutex);
    m_options.insert(name, options);
}

void DockerRuntime::setImageHint(const QString &name, const QString &hint)
{
    const std::lock_guard lock(m_optionsMutex);
    m_imageHints.insert(name, hint);
}

bool DockerRuntime::prepareSandbox(SandboxSpec &spec, const SandboxOptions &options, QString *error)
{
    // A container gets the same kind of home as a bubblewrap sandbox: a host directory its
    // owner fills, mounted at the sandbox home.
    if (!options.hostHome.isEmpty()) {
        spec.homeDir = options.hostHome;
        if (!paths::ensurePrivateDir(options.hostHome, error))
            return false;
    }
    setSandboxOptions(spec.name,
                      {options.image, options.cpus, options.memoryBytes, options.volumes, options.ports, QString()});
    setImageHint(spec.name, options.imageHint);
    return true;
}

DockerSandboxOptions DockerRuntime::optionsFor(const QString &name) const
{
    const std::lock_guard lock(m_optionsMutex);
    return m_options.value(name, m_defaults);
}

bool DockerRuntime::isAvailable(QString *why) const
{
    const docker::Status ping = m_client.ping();
    if (!ping) {
        if (why)
            *why = ping.errorMessage();
        return false;
    }
    const Result<QString> api = m_client.apiVersion();
    if (!api) {
        if (why)
            *why = api.errorMessage();
        return false;
    }
    return true;
}

// --- the container ------------------------------------------------------------------------

ContainerSpec DockerRuntime::containerSpec(const SandboxSpec &spec, const DockerSandboxOptions &options)
{
    ContainerSpec container;
    container.image = options.image;
    container.name = containerName(spec.name);
    container.hostname = spec.name;
    container.user = options.user;

    // paddock-init is PID 1: it relays the loopback port to the proxy socket, forwards the
    // engine's SIGTERM to the program and reaps. Docker's own init is not needed.
    container.entrypoint = QStringList{kInitInside};
    if (!spec.proxySocket.isEmpty())
        container.entrypoint << QStringLiteral("--relay")
                             << QStringLiteral("127.0.0.1:%1=%2").arg(spec.proxyPort).arg(spec.sandboxProxySocket);
    for (const QString &publish : spec.environment.value(kPublishVariable).split(QLatin1Char(' '), Qt::SkipEmptyParts))
        container.entrypoint << QStringLiteral("--publish") << publish;
    container.entrypoint << QStringLiteral("--");
    container.cmd = spec.argv;
    container.init = false;

    // Exactly the spec's environment (and the grants' variables): nothing from the caller.
    container.env = spec.environment;
    container.env.remove(kPublishVariable);
    container.workingDir = !spec.workingDir.isEmpty()  ? spec.workingDir
                           : !spec.workspace.isEmpty() ? spec.workspace
                                                       : spec.sandboxHome;

    container.labels = {{kLabelSandbox, spec.name},
                        {kLabelKit, spec.kitName},
                        {kLabelWorkspace, spec.workspace},
                        {kLabelRuntime, QStringLiteral("docker")},
                        {kLabelSpec, QString::fromUtf8(specToJson(spec))}};

    // paddock-init, read-only, the program the container starts.
    container.binds.append(BindMount{spec.initPath, kInitInside, true});
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
    if (!spec.homeDir.isEmpty())
        container.binds.append(BindMount{spec.homeDir, spec.sandboxHome, false});
    else
        container.volumes.append(docker::VolumeMount{homeVolumeName(spec.name), spec.sandboxHome, false});
    for (const ReadOnlyBind &bind : spec.readOnlyBinds)
        container.binds.append(
            BindMount{bind.hostPath, bind.sandboxPath.isEmpty() ? bind.hostPath : bind.sandboxPath, true});
    addGrants(container, spec.grants);

    // The kit's volumes: tmpfs in memory, the others named after the sandbox so they outlive
    // a restart of the container and go with the sandbox's home.
    for (const DockerVolume &volume : options.volumes) {
        if (volume.tmpfs)
            container.tmpfs.append(docker::TmpfsMount{volume.path, tmpfsOptions(volume)});
        else
            container.volumes.append(docker::VolumeMount{volumeName(spec.name, volume.path), volume.path, false});
    }

    // No network but loopback; the relay above is the way out. Capabilities and privilege
    // gains are the ContainerSpec defaults: all dropped, no-new-privileges.
    container.networkMode = QStringLiteral("none");
    for (const DockerPort &port : options.ports)
        container.ports.append(docker::PortBinding{port.containerPort, port.protocol, QStringLiteral("127.0.0.1"), 0});
    container.nanoCpus = qint64(std::llround(options.cpus * 1e9));
    container.memoryBytes = options.memoryBytes;

    container.tty = spec.interactive;
    // Input reaches only an interactive foreground sandbox, through its attach: the engine
    // cannot pass on the end of the input (it ends the attach instead), which a terminal does
    // not need (^D is a key its line discipline turns into end of file) but a pipe would.
    container.openStdin = spec.interactive && spec.lifetime == SandboxSpec::Lifetime::Foreground;
    return container;
}

Result<ContainerInfo> DockerRuntime::containerOf(const QString &name) const
{
    const Error missing{Error::Kind::NotFound, 404, QStringLiteral("no sandbox named %1").arg(name)};
    if (!isValidName(name))
        return missing;
    // By its name, one request; the labels confirm it is the sandbox and not a stranger's
    // container that happens to be called the same.
    const Result<ContainerInfo> container = m_client.inspectContainer(containerName(name));
    if (container.is(Error::Kind::NotFound))
        return missing;
    if (container && (container.value().labels.value(kLabelSandbox) != name ||
                      container.value().labels.value(kLabelRuntime) != QLatin1String("docker")))
        return missing;
    return container;
}

SandboxInfo DockerRuntime::infoOf(const ContainerInfo &container) const
{
    SandboxInfo info;
    info.name = container.labels.value(kLabelSandbox);
    info.kitName = container.labels.value(kLabelKit);
    info.runtime = id();
    info.workspace = container.labels.value(kLabelWorkspace);
    info.spec = specFromJson(container.labels.value(kLabelSpec).toUtf8());
    info.startedAt = container.startedAt;
    info.finishedAt = container.finishedAt;
    if (container.running || container.status == QLatin1String("paused") ||
        container.status == QLatin1String("restarting")) {
        info.status = SandboxStatus::Running;
        info.pid = container.pid;
    } else if (!container.startedAt.isValid() || container.status == QLatin1String("created")) {
        info.status = SandboxStatus::Created;
    } else {
        info.status = SandboxStatus::Stopped;
        // The engine reports a program killed by a signal as 128 + signal, as a shell does.
        info.exitCode = container.exitCode;
    }
    return info;
}

RuntimeResult DockerRuntime::create(const SandboxSpec &spec)
{
    if (!isValidName(spec.name))
        return failure(
            QStringLiteral("'%1' is not a valid sandbox name (lower-case letters, digits and '-')").arg(spec.name));
    if (spec.argv.isEmpty())
        return failure(QStringLiteral("no program to run in sandbox %1").arg(spec.name));
    if (!QFileInfo(spec.initPath).isExecutable())
        return failure(QStringLiteral("paddock-init not found at '%1'").arg(spec.initPath));
    if (!spec.workspace.isEmpty() && (!QDir::isAbsolutePath(spec.workspace) || !QFileInfo(spec.workspace).isDir()))
        return failure(QStringLiteral("the workspace %1 is not a directory").arg(spec.workspace));
    if (!QDir::isAbsolutePath(spec.sandboxHome))
        return failure(QStringLiteral("the sandbox home %1 is not absolute").arg(spec.sandboxHome));
    if (!spec.homeDir.isEmpty() && !QFileInfo(spec.homeDir).isDir())
        return failure(QStringLiteral("the home directory %1 does not exist").arg(spec.homeDir));
    if (!spec.proxySocket.isEmpty() && !QFileInfo::exists(spec.proxySocket))
        return failure(QStringLiteral("the proxy socket %1 does not exist").arg(spec.proxySocket));

    const DockerSandboxOptions options = optionsFor(spec.name);
    if (options.image.isEmpty())
        return failure(QStringLiteral("no image chosen for sandbox %1").arg(spec.name));
    const Result<bool> present = m_client.imageExists(options.image);
    if (!present)
        return failure(present);
    if (!present.value()) {
        QString hint;
        {
            const std::lock_guard lock(m_optionsMutex);
            hint = m_imageHints.value(spec.name);
        }
        if (hint.isEmpty())
            hint = QStringLiteral("build it with `paddock template build --kit KIT_DIR --tag %1` or load it with "
                                  "`paddock template load FILE`")
                       .arg(options.image);
        return failure(QStringLiteral("image %1 is not present: %2").arg(options.image, hint));
    }

    const Result<QString> created = m_client.createContainer(containerSpec(spec, options));
    // The container's name is the sandbox's: the engine refuses a second one.
    if (created.is(Error::Kind::Conflict))
        return failure(QStringLiteral("a sandbox named %1 exists already (container %2)")
                           .arg(spec.name, containerName(spec.name)));
    if (!created)
        return failure(created);
    qCInfo(lcDockerRuntime) << "created sandbox" << spec.name << "as container" << created.value().left(12);
    return RuntimeResult::success();
}

// --- running ------------------------------------------------------------------------------

RuntimeResult DockerRuntime::start(const QString &name, const ProcessIo &io, const StartOptions &)
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container)
        return failure(container);
    if (container.value().running)
        return failure(QStringLiteral("sandbox %1 is already running").arg(name));
    const SandboxSpec spec = specFromJson(container.value().labels.value(kLabelSpec).toUtf8());
    if (spec.lifetime == SandboxSpec::Lifetime::Foreground)
        return runForeground(container.value(), io);
    const docker::Status started = m_client.startContainer(container.value().id);
    if (!started)
        return failure(QStringLiteral("sandbox %1 did not start: %2").arg(name, started.errorMessage()));
    qCInfo(lcDockerRuntime) << "started sandbox" << name;
    return RuntimeResult::success();
}

RuntimeResult DockerRuntime::runForeground(const ContainerInfo &container, const ProcessIo &io)
{
    const QString name = container.labels.value(kLabelSandbox);
    const bool forwardInput =
        container.raw.value(QStringLiteral("Config")).toObject().value(QStringLiteral("OpenStdin")).toBool();
    // Attached before it starts, so not a byte of its output is missed.
    docker::AttachOptions attach;
    attach.stdinStream = forwardInput;
    auto stream = m_client.attach(container.id, attach);
    if (!stream)
        return failure(stream);
    const docker::Status started = m_client.startContainer(container.id);
    if (!started)
        return failure(QStringLiteral("sandbox %1 did not start: %2").arg(name, started.errorMessage()));
    qCInfo(lcDockerRuntime) << "started sandbox" << name << "in the foreground";

    QString error;
    bool relayed = false;
    {
        std::optional<RawTerminal> raw;
        if (container.tty) {
            raw.emplace(io.in);
            winsize size{};
            if (::ioctl(io.in, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) {
                docker::HttpRequest resize;
                resize.method = "POST";
                resize.path = QStringLiteral("/containers/%1/resize").arg(container.id);
                resize.query = {{QStringLiteral("h"), QString::number(size.ws_row)},
                                {QStringLiteral("w"), QString::number(size.ws_col)}};
                (void)engineCall(resize);
            }
        }
        relayed = relay(*stream.value(), io, forwardInput, false, container.tty, &error);
    }
    const Result<int> code = m_client.waitContainer(container.id);
    if (!code)
        return failure(code);
    if (!relayed)
        qCWarning(lcDockerRuntime) << "sandbox" << name << "output lost:" << error;
    return RuntimeResult::exited(code.value());
}

RuntimeResult DockerRuntime::exec(const QString &name, const ExecRequest &request, const ProcessIo &io)
{
    if (request.argv.isEmpty())
        return failure(QStringLiteral("no command to run"));
    const Result<ContainerInfo> container = containerOf(name);
    if (!container)
        return failure(container);
    if (!container.value().running)
        return failure(QStringLiteral("sandbox %1 is not running").arg(name));

    docker::ExecSpec spec;
    spec.cmd = request.argv;
    // Added to the container's environment by the engine, overriding what it names.
    spec.env = request.environment;
    spec.workingDir = request.workingDir;
    spec.user =
        container.value().raw.value(QStringLiteral("Config")).toObject().value(QStringLiteral("User")).toString();
    if (request.interactive)
        return execInteractive(container.value().id, spec, io);

    const Result<docker::ExecResult> result = m_client.exec(container.value().id, spec);
    if (!result)
        return failure(result);
    writeAll(io.out, result.value().stdoutData.constData(), size_t(result.value().stdoutData.size()));
    writeAll(io.err, result.value().stderrData.constData(), size_t(result.value().stderrData.size()));
    return RuntimeResult::exited(result.value().exitCode);
}

RuntimeResult DockerRuntime::execInteractive(const QString &containerId, const docker::ExecSpec &base,
                                             const ProcessIo &io)
{
    docker::ExecSpec spec = base;
    spec.tty = ::isatty(io.in);
    // The client attaches stdin when there is input to send; the input here is the caller's
    // fd, relayed below, so any non-empty placeholder asks for the attachment.
    spec.stdinData = QByteArrayLiteral("-");
    const Result<QString> execId = m_client.createExec(containerId, spec);
    if (!execId)
        return failure(execId);
    auto stream = m_client.startExecAttached(execId.value(), spec.tty);
    if (!stream)
        return failure(stream);
    QString error;
    bool relayed = false;
    {
        std::optional<RawTerminal> raw;
        if (spec.tty) {
            raw.emplace(io.in);
            winsize size{};
            if (::ioctl(io.in, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) {
                docker::HttpRequest resize;
                resize.method = "POST";
                resize.path = QStringLiteral("/exec/%1/resize").arg(execId.value());
                resize.query = {{QStringLiteral("h"), QString::number(size.ws_row)},
                                {QStringLiteral("w"), QString::number(size.ws_col)}};
                (void)engineCall(resize);
            }
        }
        relayed = relay(*stream.value(), io, true, true, spec.tty, &error);
    }
    if (!relayed)
        return failure(error);
    // The stream ends as the process exits; the engine records the exit code a moment later.
    for (int attempt = 0; attempt < kExecSettleAttempts; ++attempt) {
        docker::HttpRequest inspect;
        inspect.path = QStringLiteral("/exec/%1/json").arg(execId.value());
        const Result<docker::HttpResponse> response = engineCall(inspect);
        if (!response)
            return failure(response);
        const QJsonObject json = QJsonDocument::fromJson(response.value().body).object();
        if (!json.value(QStringLiteral("Running")).toBool() && !json.value(QStringLiteral("ExitCode")).isNull())
            return RuntimeResult::exited(json.value(QStringLiteral("ExitCode")).toInt());
        QThread::msleep(50);
    }
    return failure(QStringLiteral("the command ended but the engine gave no exit code"));
}

RuntimeResult DockerRuntime::attach(const QString &name, const AttachOptions &, const ProcessIo &)
{
    return failure(QStringLiteral("attaching to sandbox %1 is not supported by the docker backend yet").arg(name));
}

std::optional<AgentInfo> DockerRuntime::agent(const QString &name, QString *error) const
{
    if (error)
        *error = QStringLiteral("the docker backend does not report the agent of %1 yet").arg(name);
    return std::nullopt;
}

RuntimeResult DockerRuntime::stop(const QString &name, std::chrono::milliseconds grace)
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container)
        return failure(container);
    if (!container.value().running)
        return RuntimeResult::success();
    // The engine counts whole seconds; rounding up never cuts a grace period short.
    const int seconds = int((grace.count() + 999) / 1000);
    const docker::Status stopped = m_client.stopContainer(container.value().id, seconds);
    if (!stopped)
        return failure(stopped);
    qCInfo(lcDockerRuntime) << "stopped sandbox" << name;
    return RuntimeResult::success();
}

RuntimeResult DockerRuntime::remove(const QString &name, bool removeHome)
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container)
        return failure(container);
    if (container.value().running)
        return failure(QStringLiteral("sandbox %1 is running; stop it first").arg(name));
    const docker::Status removed = m_client.removeContainer(container.value().id);
    if (!removed)
        return failure(removed);
    if (removeHome) {
        // Only volumes this sandbox owns; a home directory the user chose stays theirs.
        QStringList volumes{homeVolumeName(name)};
        for (const QJsonValue &mount : container.value().raw.value(QStringLiteral("Mounts")).toArray()) {
            const QString volume = mount[QStringLiteral("Name")].toString();
            if (mount[QStringLiteral("Type")].toString() == QLatin1String("volume") &&
                volume.startsWith(QStringLiteral("paddock-%1-").arg(name)) && !volumes.contains(volume))
                volumes.append(volume);
        }
        for (const QString &volume : std::as_const(volumes)) {
            docker::HttpRequest request;
            request.method = "DELETE";
            request.path = QStringLiteral("/volumes/%1").arg(volume);
            const Result<docker::HttpResponse> deleted = engineCall(request);
            if (!deleted && !deleted.is(Error::Kind::NotFound))
                return failure(QStringLiteral("sandbox %1 is removed but not its volume %2: %3")
                                   .arg(name, volume, deleted.errorMessage()));
        }
    }
    qCInfo(lcDockerRuntime) << "removed sandbox" << name << (removeHome ? "and its home" : "");
    return RuntimeResult::success();
}

// --- reading ------------------------------------------------------------------------------

QList<SandboxInfo> DockerRuntime::list() const
{
    QList<SandboxInfo> sandboxes;
    const auto found = m_client.listContainers({kLabelSandbox, kLabelRuntime + QStringLiteral("=docker")});
    if (!found) {
        qCWarning(lcDockerRuntime) << "cannot list sandboxes:" << found.errorMessage();
        return sandboxes;
    }
    for (const docker::ContainerSummary &summary : found.value()) {
        // One may be removed between the listing and the inspection: it is simply gone.
        const Result<ContainerInfo> container = m_client.inspectContainer(summary.id);
        if (container)
            sandboxes.append(infoOf(container.value()));
    }
    std::sort(sandboxes.begin(), sandboxes.end(),
              [](const SandboxInfo &a, const SandboxInfo &b) { return a.name < b.name; });
    return sandboxes;
}

std::optional<SandboxInfo> DockerRuntime::inspect(const QString &name) const
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container)
        return std::nullopt;
    return infoOf(container.value());
}

std::optional<QByteArray> DockerRuntime::logs(const QString &name, QString *error) const
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container) {
        if (error)
            *error = container.errorMessage();
        return std::nullopt;
    }
    // Read here rather than with DockerClient::logs, which splits the streams: one buffer in
    // the engine's order reads like a terminal did (nearly: it copies the streams apart).
    QByteArray output;
    docker::HttpRequest request;
    request.path = QStringLiteral("/containers/%1/logs").arg(container.value().id);
    request.query = {{QStringLiteral("stdout"), QStringLiteral("1")}, {QStringLiteral("stderr"), QStringLiteral("1")}};
    request.timeoutSeconds = 60;
    const Result<docker::HttpResponse> response = engineCall(request);
    if (!response) {
        if (error)
            *error = response.errorMessage();
        return std::nullopt;
    }
    if (container.value().tty)
        return response.value().body;
    StreamDemuxer demuxer(
        [&output](StreamDemuxer::Stream, const char *data, size_t size) { output.append(data, qsizetype(size)); });
    if (!demuxer.feed(response.value().body)) {
        if (error)
            *error = QStringLiteral("the logs of sandbox %1 are not in the multiplexed format").arg(name);
        return std::nullopt;
    }
    return output;
}

QList<docker::PortBinding> DockerRuntime::publishedPorts(const QString &name) const
{
    const Result<ContainerInfo> container = containerOf(name);
    return container ? container.value().publishedPorts : QList<docker::PortBinding>();
}

Result<docker::HttpResponse> DockerRuntime::engineCall(docker::HttpRequest request) const
{
    const Result<QString> api = m_client.apiVersion();
    if (!api)
        return api.error();
    request.path = QStringLiteral("/v") + api.value() + request.path;
    if (request.timeoutSeconds == 0)
        request.timeoutSeconds = 30;
    return m_transport.perform(request);
}

} // namespace paddock::runtime
