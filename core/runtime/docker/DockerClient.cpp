// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/DockerClient.h"

#include "runtime/docker/BuildContext.h"
#include "runtime/docker/DockerClientInternal.h"
#include "runtime/docker/StreamDemuxer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QThread>
#include <QUrl>

Q_LOGGING_CATEGORY(lcDocker, "paddock.runtime.docker", QtInfoMsg)

namespace paddock::runtime::docker {

using namespace detail;

namespace {

constexpr int kExecSettleAttempts = 100;
constexpr int kHijackReadTimeoutMs = -1;

} // namespace

DockerClient::DockerClient(Endpoint endpoint) : m_transport(std::move(endpoint)) {}

Status DockerClient::ping() const
{
    HttpRequest request;
    request.path = QStringLiteral("/_ping");
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = m_transport.perform(request);
    if (!response)
        return response.error();
    return {};
}

Result<VersionInfo> DockerClient::version() const
{
    HttpRequest request;
    request.path = QStringLiteral("/version");
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = m_transport.perform(request);
    if (!response)
        return response.error();
    const QJsonObject json = jsonObject(response.value().body);
    VersionInfo info;
    info.version = json.value(QStringLiteral("Version")).toString();
    info.apiVersion = json.value(QStringLiteral("ApiVersion")).toString();
    info.minApiVersion = json.value(QStringLiteral("MinAPIVersion")).toString();
    info.os = json.value(QStringLiteral("Os")).toString();
    info.arch = json.value(QStringLiteral("Arch")).toString();
    for (const QJsonValue &component : json.value(QStringLiteral("Components")).toArray())
        info.components << component[QStringLiteral("Name")].toString();
    if (info.apiVersion.isEmpty())
        return protocolError(
            QStringLiteral("the engine at %1 did not say which API version it speaks").arg(endpoint().display()));
    return info;
}

Result<EngineShape> DockerClient::engineShape() const
{
    const Result<VersionInfo> version = this->version();
    if (!version)
        return version.error();
    EngineShape shape;
    shape.podman = version.value().components.contains(QStringLiteral("Podman Engine"));
    HttpRequest request;
    request.path = shape.podman ? QStringLiteral("/libpod/info") : QStringLiteral("/info");
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    const QJsonObject json = jsonObject(response.value().body);
    if (shape.podman) {
        shape.rootless = json.value(QStringLiteral("host"))
                             .toObject()
                             .value(QStringLiteral("security"))
                             .toObject()
                             .value(QStringLiteral("rootless"))
                             .toBool();
    } else {
        for (const QJsonValue &option : json.value(QStringLiteral("SecurityOptions")).toArray())
            shape.rootless = shape.rootless || option.toString().contains(QLatin1String("name=rootless"));
    }
    return shape;
}

Result<QString> DockerClient::apiVersion() const
{
    std::lock_guard lock(m_versionMutex);
    if (!m_apiVersion.isEmpty())
        return m_apiVersion;
    const Result<VersionInfo> info = version();
    if (!info)
        return info.error();
    const QStringList parts = info.value().apiVersion.split(QLatin1Char('.'));
    const int major = parts.value(0).toInt();
    const int minor = parts.value(1).toInt();
    if (major != 1 || minor < kMinimumApiMinor)
        return Error{Error::Kind::Unsupported, 0,
                     QStringLiteral("the Docker engine at %1 speaks API %2, older than 1.%3 which Paddock needs: "
                                    "upgrade to Docker 19.03 or newer (or Podman 3 or newer)")
                         .arg(endpoint().display(), info.value().apiVersion)
                         .arg(kMinimumApiMinor)};
    m_apiVersion = QStringLiteral("1.%1").arg(std::min(minor, kApiMinor));
    qCDebug(lcDocker) << "engine" << info.value().version << "at" << endpoint().display() << "API" << m_apiVersion;
    return m_apiVersion;
}

Result<QStringList> DockerClient::runtimes() const
{
    HttpRequest request;
    request.path = QStringLiteral("/info");
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    return jsonObject(response.value().body).value(QStringLiteral("Runtimes")).toObject().keys();
}

Result<QString> DockerClient::versionedPath(const QString &path) const
{
    const Result<QString> api = apiVersion();
    if (!api)
        return api.error();
    return QStringLiteral("/v") + api.value() + path;
}

Result<HttpResponse> DockerClient::call(HttpRequest request) const
{
    const Result<QString> path = versionedPath(request.path);
    if (!path)
        return path.error();
    request.path = path.value();
    return m_transport.perform(request);
}

// --- images ------------------------------------------------------------------------------

Result<QString> DockerClient::createContainer(const ContainerSpec &spec) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/containers/create");
    if (!spec.name.isEmpty())
        request.query = {{QStringLiteral("name"), spec.name}};
    request.contentType = "application/json";
    request.body = compactJson(spec.toJson());
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    const QJsonObject json = jsonObject(response.value().body);
    for (const QJsonValue &warning : json.value(QStringLiteral("Warnings")).toArray())
        qCInfo(lcDocker) << "container create:" << warning.toString();
    const QString id = json.value(QStringLiteral("Id")).toString();
    if (id.isEmpty())
        return protocolError(QStringLiteral("the engine created a container without an id"));
    return id;
}

Status DockerClient::createNetwork(const QString &name, bool internal, const QMap<QString, QString> &labels) const
{
    QJsonObject labelObject;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it)
        labelObject.insert(it.key(), it.value());
    HttpRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/networks/create");
    request.contentType = "application/json";
    request.body = compactJson(QJsonObject{{QStringLiteral("Name"), name},
                                           {QStringLiteral("Driver"), QStringLiteral("bridge")},
                                           {QStringLiteral("Internal"), internal},
                                           {QStringLiteral("CheckDuplicate"), true},
                                           {QStringLiteral("Labels"), labelObject}});
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response && !response.is(Error::Kind::Conflict))
        return response.error();
    return {};
}

Status DockerClient::removeNetwork(const QString &name) const
{
    HttpRequest request;
    request.method = "DELETE";
    request.path = QStringLiteral("/networks/") + QString::fromLatin1(QUrl::toPercentEncoding(name));
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response && !response.is(Error::Kind::NotFound))
        return response.error();
    return {};
}

Status DockerClient::removeVolume(const QString &name) const
{
    HttpRequest request;
    request.method = "DELETE";
    request.path = QStringLiteral("/volumes/") + QString::fromLatin1(QUrl::toPercentEncoding(name));
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response && !response.is(Error::Kind::NotFound))
        return response.error();
    return {};
}

Status DockerClient::startContainer(const QString &id) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = containerPath(id, QStringLiteral("/start"));
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request); // 304: already running, fine
    if (!response)
        return response.error();
    return {};
}

Status DockerClient::stopContainer(const QString &id, int timeoutSeconds) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = containerPath(id, QStringLiteral("/stop"));
    request.query = {{QStringLiteral("t"), QString::number(timeoutSeconds)}};
    request.timeoutSeconds = timeoutSeconds + kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request); // 304: already stopped, fine
    if (!response)
        return response.error();
    return {};
}

Status DockerClient::killContainer(const QString &id, const QString &signal) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = containerPath(id, QStringLiteral("/kill"));
    request.query = {{QStringLiteral("signal"), signal}};
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    return {};
}

Status DockerClient::removeContainer(const QString &id, bool force, bool removeVolumes) const
{
    HttpRequest request;
    request.method = "DELETE";
    request.path = containerPath(id);
    request.query = {{QStringLiteral("force"), boolParam(force)}, {QStringLiteral("v"), boolParam(removeVolumes)}};
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    return {};
}

Result<QList<ContainerSummary>> DockerClient::listContainers(const QStringList &labels, bool all) const
{
    HttpRequest request;
    request.path = QStringLiteral("/containers/json");
    request.query = {{QStringLiteral("all"), boolParam(all)}};
    if (!labels.isEmpty()) {
        const QJsonObject filters{{QStringLiteral("label"), QJsonArray::fromStringList(labels)}};
        request.query.append({QStringLiteral("filters"), QString::fromUtf8(compactJson(filters))});
    }
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    QList<ContainerSummary> containers;
    for (const QJsonValue &entry : QJsonDocument::fromJson(response.value().body).array())
        containers.append(ContainerSummary::fromJson(entry.toObject()));
    return containers;
}

Result<ContainerInfo> DockerClient::inspectContainer(const QString &id) const
{
    HttpRequest request;
    request.path = containerPath(id, QStringLiteral("/json"));
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    return ContainerInfo::fromJson(jsonObject(response.value().body));
}

Result<ContainerLogs> DockerClient::logs(const QString &id) const
{
    // Whether the output is multiplexed depends on the container's TTY, which only inspect tells.
    const Result<ContainerInfo> info = inspectContainer(id);
    if (!info)
        return info.error();
    HttpRequest request;
    request.path = containerPath(id, QStringLiteral("/logs"));
    request.query = {{QStringLiteral("stdout"), QStringLiteral("1")}, {QStringLiteral("stderr"), QStringLiteral("1")}};
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    ContainerLogs logs;
    if (info.value().tty) {
        logs.stdoutData = response.value().body;
        return logs;
    }
    StreamDemuxer demuxer;
    if (!demuxer.feed(response.value().body))
        return protocolError(QStringLiteral("the logs of %1 are not in the multiplexed format").arg(id));
    logs.stdoutData = demuxer.stdoutData();
    logs.stderrData = demuxer.stderrData();
    return logs;
}

Result<int> DockerClient::waitContainer(const QString &id) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = containerPath(id, QStringLiteral("/wait"));
    request.query = {{QStringLiteral("condition"), QStringLiteral("not-running")}};
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    const QJsonObject json = jsonObject(response.value().body);
    const QString error = json.value(QStringLiteral("Error")).toObject().value(QStringLiteral("Message")).toString();
    if (!error.isEmpty())
        return Error{Error::Kind::Engine, 0, error};
    if (!json.contains(QStringLiteral("StatusCode")))
        return protocolError(QStringLiteral("waiting for %1 gave no exit code").arg(id));
    return json.value(QStringLiteral("StatusCode")).toInt();
}

// --- exec and attach ---------------------------------------------------------------------

Result<QString> DockerClient::createExec(const QString &containerId, const ExecSpec &spec) const
{
    QJsonObject body{{QStringLiteral("AttachStdin"), !spec.stdinData.isEmpty()},
                     {QStringLiteral("AttachStdout"), true},
                     {QStringLiteral("AttachStderr"), true},
                     {QStringLiteral("Tty"), spec.tty},
                     {QStringLiteral("Cmd"), QJsonArray::fromStringList(spec.cmd)}};
    if (!spec.env.isEmpty())
        body.insert(QStringLiteral("Env"), envArray(spec.env));
    if (!spec.user.isEmpty())
        body.insert(QStringLiteral("User"), spec.user);
    if (!spec.workingDir.isEmpty())
        body.insert(QStringLiteral("WorkingDir"), spec.workingDir);
    HttpRequest request;
    request.method = "POST";
    request.path = containerPath(containerId, QStringLiteral("/exec"));
    request.contentType = "application/json";
    request.body = compactJson(body);
    request.timeoutSeconds = kShortTimeoutSeconds;
    const Result<HttpResponse> response = call(request);
    if (!response)
        return response.error();
    const QString id = jsonObject(response.value().body).value(QStringLiteral("Id")).toString();
    if (id.isEmpty())
        return protocolError(QStringLiteral("the engine created an exec without an id"));
    return id;
}

Result<ExecResult> DockerClient::startExec(const QString &execId, const ExecSpec &spec) const
{
    const QByteArray startBody =
        compactJson(QJsonObject{{QStringLiteral("Detach"), false}, {QStringLiteral("Tty"), spec.tty}});
    QByteArray output;
    if (spec.stdinData.isEmpty()) {
        HttpRequest request;
        request.method = "POST";
        request.path = QStringLiteral("/exec/%1/start").arg(execId);
        request.contentType = "application/json";
        request.body = startBody;
        request.onData = [&output](const char *data, size_t size) {
            output.append(data, qsizetype(size));
            return true;
        };
        const Result<HttpResponse> response = call(request);
        if (!response)
            return response.error();
    } else {
        // Input needs the connection both ways, which only a hijacked connection gives.
        Result<std::unique_ptr<HijackedConnection>> connection = startExecAttached(execId, spec.tty);
        if (!connection)
            return connection.error();
        HijackedConnection &stream = *connection.value();
        if (stream.isEncrypted())
            return Error{Error::Kind::Unsupported, 0,
                         QStringLiteral("input for a command cannot be sent over TLS to %1").arg(endpoint().display())};
        if (!stream.write(spec.stdinData) || !stream.closeWrite())
            return protocolError(QStringLiteral("cannot send input to exec %1").arg(execId));
        output = stream.buffered();
        if (!stream.readAll(&output, kHijackReadTimeoutMs))
            return protocolError(QStringLiteral("the output of exec %1 broke off").arg(execId));
    }

    ExecResult result;
    if (spec.tty) {
        result.stdoutData = output;
    } else {
        StreamDemuxer demuxer;
        if (!demuxer.feed(output))
            return protocolError(QStringLiteral("the output of exec %1 is not in the multiplexed format").arg(execId));
        result.stdoutData = demuxer.stdoutData();
        result.stderrData = demuxer.stderrData();
    }

    // The stream ends as the process exits; the engine records the exit code a moment later.
    for (int attempt = 0; attempt < kExecSettleAttempts; ++attempt) {
        HttpRequest request;
        request.path = QStringLiteral("/exec/%1/json").arg(execId);
        request.timeoutSeconds = kShortTimeoutSeconds;
        const Result<HttpResponse> response = call(request);
        if (!response)
            return response.error();
        const QJsonObject json = jsonObject(response.value().body);
        if (!json.value(QStringLiteral("Running")).toBool() && !json.value(QStringLiteral("ExitCode")).isNull()) {
            result.exitCode = json.value(QStringLiteral("ExitCode")).toInt();
            return result;
        }
        QThread::msleep(50);
    }
    return protocolError(QStringLiteral("exec %1 ended its output but the engine gave no exit code").arg(execId));
}

Result<ExecResult> DockerClient::exec(const QString &containerId, const ExecSpec &spec) const
{
    const Result<QString> execId = createExec(containerId, spec);
    if (!execId)
        return execId.error();
    return startExec(execId.value(), spec);
}

Result<std::unique_ptr<HijackedConnection>> DockerClient::attach(const QString &id, const AttachOptions &options) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = containerPath(id, QStringLiteral("/attach"));
    request.query = {{QStringLiteral("stream"), QStringLiteral("1")},
                     {QStringLiteral("stdin"), boolParam(options.stdinStream)},
                     {QStringLiteral("stdout"), boolParam(options.stdoutStream)},
                     {QStringLiteral("stderr"), boolParam(options.stderrStream)},
                     {QStringLiteral("logs"), boolParam(options.logs)}};
    const Result<QString> path = versionedPath(request.path);
    if (!path)
        return path.error();
    request.path = path.value();
    return m_transport.hijack(request);
}

Result<std::unique_ptr<HijackedConnection>> DockerClient::startExecAttached(const QString &execId, bool tty) const
{
    HttpRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/exec/%1/start").arg(execId);
    request.contentType = "application/json";
    request.body = compactJson(QJsonObject{{QStringLiteral("Detach"), false}, {QStringLiteral("Tty"), tty}});
    const Result<QString> path = versionedPath(request.path);
    if (!path)
        return path.error();
    request.path = path.value();
    return m_transport.hijack(request);
}

} // namespace paddock::runtime::docker
