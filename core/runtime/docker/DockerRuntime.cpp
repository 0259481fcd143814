// SPDX-License-Identifier: GPL-3.0-or-later
//
// How a Docker sandbox's life maps onto the Runtime calls: made, started, stopped, removed and
// read back from the engine. The container itself is described in DockerSandboxContainer.cpp,
// with its removal and what setup.install leaves in its root; the sessions inside it in
// DockerSessions.cpp.
#include "runtime/docker/DockerRuntime.h"
#include "common/Paths.h"
#include "runtime/SandboxSpecJson.h"

#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/StreamDemuxer.h"
#include "runtime/docker/StreamRelay.h"
#include "runtime/session/RawIo.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <algorithm>
#include <optional>

#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcDockerRuntime, "paddock.runtime.docker", QtInfoMsg)

namespace paddock::runtime {

using docker::ContainerInfo;
using docker::Error;
using docker::Result;
using docker::StreamDemuxer;
namespace layout = docker::layout;

namespace {

RuntimeResult failure(const QString &message)
{
    return RuntimeResult::failure(message);
}

template<typename T>
RuntimeResult failure(const Result<T> &result)
{
    return failure(result.errorMessage());
}

SandboxSpec specFromJson(const QByteArray &json)
{
    return sandboxSpecFromJson(QJsonDocument::fromJson(json).object());
}

} // namespace

// --- construction and options ---------------------------------------------------------------

DockerRuntime::DockerRuntime() : DockerRuntime(docker::Endpoint::environmentOrDefault()) {}

DockerRuntime::DockerRuntime(const docker::Endpoint &endpoint, const QString &engineName)
    : m_client(endpoint), m_engineName(engineName), m_transport(endpoint)
{}

bool DockerRuntime::isValidName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"));
    return pattern.match(name).hasMatch();
}

QString DockerRuntime::owner()
{
    static const QString id = [] {
        const QByteArray who = QByteArray::number(qulonglong(::getuid())) + ':' + QFile::encodeName(paths::dataDir());
        return QString::fromLatin1(QCryptographicHash::hash(who, QCryptographicHash::Sha256).toHex().left(10));
    }();
    return id;
}

QString DockerRuntime::containerName(const QString &sandbox)
{
    return QStringLiteral("paddock-%1-%2").arg(owner(), sandbox);
}

QString DockerRuntime::homeVolumeName(const QString &sandbox)
{
    return containerName(sandbox) + QStringLiteral("-home");
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
    // owner fills, mounted at the sandbox home; on another computer's engine, a volume there.
    if (!options.hostHome.isEmpty() && !m_remote) {
        spec.homeDir = options.hostHome;
        if (!paths::ensurePrivateDir(options.hostHome, error))
            return false;
    }
    if (!offersIsolation(options.isolation, error))
        return false;
    const QString engineRuntime = options.isolation == QLatin1String("gvisor") ? gvisorRuntime() : QString();
    setSandboxOptions(spec.name, {options.image, options.cpus, options.memoryBytes, options.volumes, options.ports,
                                  QString(), engineRuntime});
    setImageHint(spec.name, options.imageHint);
    return true;
}

QString DockerRuntime::gvisorRuntime()
{
    const QString name = qEnvironmentVariable("PADDOCK_GVISOR_RUNTIME");
    return name.isEmpty() ? QStringLiteral("runsc") : name;
}

QString DockerRuntime::gvisorInstallHint()
{
    return QStringLiteral("install gVisor (sudo apt-get install runsc) and register it with the engine: add to "
                          "/etc/docker/daemon.json\n"
                          "  {\"runtimes\": {\"runsc\": {\"path\": \"/usr/bin/runsc\", "
                          "\"runtimeArgs\": [\"--network=none\", \"--fsgofer-host-uds\"]}}}\n"
                          "then restart the engine (sudo systemctl restart docker)");
}

bool DockerRuntime::offersIsolation(const QString &isolation, QString *why) const
{
    if (isolation == QLatin1String("gvisor"))
        return engineHasRuntime(gvisorRuntime(), why);
    return Runtime::offersIsolation(isolation, why);
}

bool DockerRuntime::engineHasRuntime(const QString &runtime, QString *error) const
{
    const Result<QStringList> runtimes = m_client.runtimes();
    if (!runtimes) {
        *error = QStringLiteral("could not ask the Docker engine for its runtimes: %1").arg(runtimes.errorMessage());
        return false;
    }
    if (runtimes.value().contains(runtime))
        return true;
    // Never a silent fallback to runc: the person asked for a kernel of the sandbox's own.
    *error = QStringLiteral("the Docker engine at %1 has no '%2' runtime, so it cannot run a gVisor sandbox "
                            "(it has: %3); %4")
                 .arg(m_client.endpoint().display(), runtime, runtimes.value().join(QStringLiteral(", ")),
                      gvisorInstallHint());
    return false;
}

void DockerRuntime::setLaunchOptions(const QString &name, const LaunchOptions &launch)
{
    const std::lock_guard lock(m_optionsMutex);
    DockerSandboxOptions options = m_options.value(name, m_defaults);
    options.user = launch.uid ? QStringLiteral("%1:%1").arg(*launch.uid) : QString();
    m_options.insert(name, options);
}

docker::ContainerSpec DockerRuntime::engineContainerSpec(const SandboxSpec &spec, DockerSandboxOptions options) const
{
    const Result<docker::EngineShape> shape = m_client.engineShape();
    const bool rootless = shape && shape.value().rootless;
    // Rootless Docker maps uid 0 inside to the user and every other uid to a subordinate one
    // the user's files and the proxy socket refuse: the agent is uid 0 there, without a single
    // capability (they are all dropped, as for any agent), and so the user on the host.
    if (rootless && !shape.value().podman)
        options.user = QStringLiteral("0:0");
    options.remote = m_remote;
    docker::ContainerSpec container = containerSpec(spec, options);
    if (!rootless)
        return container;
    // A rootless engine is an ordinary user's: the user stays the same uid inside on Podman,
    // and no limit may pass the user's own.
    if (shape.value().podman)
        container.usernsMode = QStringLiteral("keep-id");
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_max != RLIM_INFINITY)
        container.openFilesLimit = qint64(std::min<rlim_t>(files.rlim_max, 1048576));
    return container;
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
    if (container && (container.value().labels.value(layout::kLabelSandbox) != name ||
                      container.value().labels.value(layout::kLabelRuntime) != QLatin1String("docker") ||
                      container.value().labels.value(layout::kLabelOwner) != owner()))
        return missing;
    return container;
}

Result<ContainerInfo> DockerRuntime::runningContainerOf(const QString &name) const
{
    const Result<ContainerInfo> container = containerOf(name);
    if (container && !container.value().running)
        return Error{Error::Kind::Conflict, 409,
                     QStringLiteral("sandbox %1 is not running; start it with 'paddock start %1'").arg(name)};
    return container;
}

SandboxInfo DockerRuntime::infoOf(const ContainerInfo &container) const
{
    SandboxInfo info;
    info.name = container.labels.value(layout::kLabelSandbox);
    info.kitName = container.labels.value(layout::kLabelKit);
    info.runtime = id();
    info.engine = m_engineName;
    info.workspace = container.labels.value(layout::kLabelWorkspace);
    info.spec = specFromJson(container.labels.value(layout::kLabelSpec).toUtf8());
    if (container.labels.value(layout::kLabelIsolation) == QLatin1String("gvisor"))
        info.isolation = QStringLiteral("gvisor");
    info.startedAt = container.startedAt;
    info.finishedAt = container.finishedAt;
    info.createdAt = container.created;
    if (container.running || container.status == QLatin1String("paused") ||
        container.status == QLatin1String("restarting")) {
        info.status = SandboxStatus::Running;
        info.pid = m_remote ? 0 : container.pid; // another computer's process ids mean nothing here
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

    const docker::ContainerSpec container = engineContainerSpec(spec, options);
    if (m_remote)
        return createRemote(spec, container);
    const QStringList unclaimed = volumesToClaim(spec.name, options);
    const Result<QString> created = m_client.createContainer(container);
    // The container's name is the sandbox's: the engine refuses a second one.
    if (created.is(Error::Kind::Conflict))
        return failure(QStringLiteral("a sandbox named %1 exists already (container %2)")
                           .arg(spec.name, containerName(spec.name)));
    if (!created)
        return failure(created);
    const bool agents = options.user.isEmpty(); // not a run of setup.install as another user
    if (const docker::Status claimed =
            agents ? claimVolumes(created.value(), container, options, unclaimed) : docker::Status();
        !claimed) {
        (void)m_client.removeContainer(created.value(), true);
        return failure(QStringLiteral("the volumes of sandbox %1 could not be made its agent's: %2")
                           .arg(spec.name, claimed.errorMessage()));
    }
    {
        const std::lock_guard lock(m_optionsMutex);
        if (agents || unclaimed.isEmpty())
            m_unclaimedVolumes.remove(spec.name);
        else
            m_unclaimedVolumes.insert(spec.name, unclaimed);
    }
    qCInfo(lcDockerRuntime) << "created sandbox" << spec.name << "as container" << created.value().left(12);
    return RuntimeResult::success();
}

// --- running ------------------------------------------------------------------------------

RuntimeResult DockerRuntime::start(const QString &name, const ProcessIo &io, const StartOptions &options)
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container)
        return failure(container);
    if (container.value().running)
        return failure(QStringLiteral("sandbox %1 is already running").arg(name));
    const SandboxSpec spec = specFromJson(container.value().labels.value(layout::kLabelSpec).toUtf8());
    if (spec.lifetime == SandboxSpec::Lifetime::Foreground)
        return runForeground(container.value(), io);
    forgetAgent(name);
    const docker::Status started = m_client.startContainer(container.value().id);
    if (!started)
        return failure(QStringLiteral("sandbox %1 did not start: %2").arg(name, started.errorMessage()));
    qCInfo(lcDockerRuntime) << "started sandbox" << name;
    keepWayOut(name);
    return awaitSupervisor(container.value(), options);
}

RuntimeResult DockerRuntime::runForeground(const ContainerInfo &container, const ProcessIo &io)
{
    const QString name = container.labels.value(layout::kLabelSandbox);
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
    keepWayOut(name);

    QString error;
    bool relayed = false;
    {
        std::optional<session::RawTerminal> raw;
        if (container.tty) {
            raw.emplace(io.in);
            resizeLike(QStringLiteral("/containers/") + container.id, io.in);
        }
        relayed = docker::relayStream(*stream.value(), io, forwardInput, false, container.tty, &error);
    }
    const Result<int> code = m_client.waitContainer(container.id);
    endWayOut(name);
    if (!code)
        return failure(code);
    if (!relayed)
        qCWarning(lcDockerRuntime) << "sandbox" << name << "output lost:" << error;
    return RuntimeResult::exited(code.value());
}

RuntimeResult DockerRuntime::stop(const QString &name, std::chrono::milliseconds grace)
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container)
        return failure(container);
    endWayOut(name);
    if (!container.value().running)
        return RuntimeResult::success();
    forgetAgent(name);
    // The engine counts whole seconds; rounding up never cuts a grace period short.
    const int seconds = int((grace.count() + 999) / 1000);
    const docker::Status stopped = m_client.stopContainer(container.value().id, seconds);
    if (!stopped)
        return failure(stopped);
    qCInfo(lcDockerRuntime) << "stopped sandbox" << name;
    return RuntimeResult::success();
}

// --- reading ------------------------------------------------------------------------------

QList<SandboxInfo> DockerRuntime::list() const
{
    QList<SandboxInfo> sandboxes;
    const auto found =
        m_client.listContainers({layout::kLabelSandbox, layout::kLabelRuntime + QStringLiteral("=docker"),
                                 layout::kLabelOwner + QLatin1Char('=') + owner()});
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

std::optional<LogPage> DockerRuntime::logs(const QString &name, qint64 offset, qint64 maxBytes, QString *error) const
{
    const Result<ContainerInfo> container = containerOf(name);
    if (!container) {
        if (error)
            *error = container.errorMessage();
        return std::nullopt;
    }
    // Read here rather than with DockerClient::logs, which splits the streams: one buffer in
    // the engine's order reads like a terminal did (nearly: it copies the streams apart). The
    // engine keeps at most two files of SandboxLog.h's size, so this read is bounded too; its
    // offsets count from the oldest byte the engine still has.
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
    if (container.value().tty) {
        output = response.value().body;
    } else {
        StreamDemuxer demuxer(
            [&output](StreamDemuxer::Stream, const char *data, size_t size) { output.append(data, qsizetype(size)); });
        if (!demuxer.feed(response.value().body)) {
            if (error)
                *error = QStringLiteral("the logs of sandbox %1 are not in the multiplexed format").arg(name);
            return std::nullopt;
        }
    }
    LogPage page;
    page.end = output.size();
    page.offset = std::clamp<qint64>(offset, 0, page.end);
    page.data = output.mid(page.offset, std::max<qint64>(0, maxBytes));
    return page;
}

QList<docker::PortBinding> DockerRuntime::publishedPorts(const QString &name) const
{
    const Result<ContainerInfo> container = containerOf(name);
    return container ? container.value().publishedPorts : QList<docker::PortBinding>();
}

void DockerRuntime::resizeLike(const QString &path, int fd) const
{
    winsize size{};
    if (::ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0)
        return;
    docker::HttpRequest resize;
    resize.method = "POST";
    resize.path = path + QStringLiteral("/resize");
    resize.query = {{QStringLiteral("h"), QString::number(size.ws_row)},
                    {QStringLiteral("w"), QString::number(size.ws_col)}};
    (void)engineCall(resize);
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
