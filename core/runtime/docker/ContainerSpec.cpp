// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/ContainerSpec.h"

#include <QJsonArray>

namespace paddock::runtime::docker {

namespace {

QJsonArray toArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QJsonObject toObject(const QMap<QString, QString> &map)
{
    QJsonObject object;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

QMap<QString, QString> toMap(const QJsonValue &value)
{
    QMap<QString, QString> map;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it)
        map.insert(it.key(), it.value().toString());
    return map;
}

// The engine writes "0001-01-01T00:00:00Z" for a time that never happened.
QDateTime toTime(const QJsonValue &value)
{
    const QDateTime time = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    return time.isValid() && time.date().year() > 1 ? time : QDateTime();
}

// {"8080/tcp": [{"HostIp": "127.0.0.1", "HostPort": "49153"}], ...}
QList<PortBinding> toPortBindings(const QJsonValue &value)
{
    QList<PortBinding> ports;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QStringList key = it.key().split(QLatin1Char('/'));
        for (const QJsonValue &binding : it.value().toArray()) {
            PortBinding port;
            port.containerPort = quint16(key.value(0).toUInt());
            port.protocol = key.value(1, QStringLiteral("tcp"));
            port.hostIp = binding.toObject().value(QStringLiteral("HostIp")).toString();
            port.hostPort = quint16(binding.toObject().value(QStringLiteral("HostPort")).toString().toUInt());
            ports.append(port);
        }
    }
    return ports;
}

/** The binds and volumes of @p spec as the engine's Mounts. */
QJsonArray mountsJson(const ContainerSpec &spec)
{
    // Mounts rather than Binds strings: a ':' in a path cannot be misread.
    QJsonArray mounts;
    for (const BindMount &bind : spec.binds) {
        mounts.append(QJsonObject{{QStringLiteral("Type"), QStringLiteral("bind")},
                                  {QStringLiteral("Source"), bind.hostPath},
                                  {QStringLiteral("Target"), bind.containerPath},
                                  {QStringLiteral("ReadOnly"), bind.readOnly}});
    }
    for (const VolumeMount &volume : spec.volumes) {
        mounts.append(QJsonObject{{QStringLiteral("Type"), QStringLiteral("volume")},
                                  {QStringLiteral("Source"), volume.volumeName},
                                  {QStringLiteral("Target"), volume.containerPath},
                                  {QStringLiteral("ReadOnly"), volume.readOnly}});
    }
    return mounts;
}

/** @p ports as the container's ExposedPorts (in @p config) and the host's PortBindings (in @p host). */
void addPorts(const QList<PortBinding> &ports, QJsonObject *config, QJsonObject *host)
{
    QJsonObject exposed;
    QJsonObject bindings;
    for (const PortBinding &port : ports) {
        const QString key = QStringLiteral("%1/%2").arg(port.containerPort).arg(port.protocol);
        exposed.insert(key, QJsonObject());
        QJsonArray list = bindings.value(key).toArray();
        list.append(
            QJsonObject{{QStringLiteral("HostIp"), port.hostIp},
                        {QStringLiteral("HostPort"), port.hostPort ? QString::number(port.hostPort) : QString()}});
        bindings.insert(key, list);
    }
    if (!exposed.isEmpty())
        config->insert(QStringLiteral("ExposedPorts"), exposed);
    host->insert(QStringLiteral("PortBindings"), bindings);
}

/** The limits of @p spec on processors, memory, processes and its log in @p host. */
void addLimits(const ContainerSpec &spec, QJsonObject *host)
{
    if (spec.nanoCpus > 0)
        host->insert(QStringLiteral("NanoCpus"), spec.nanoCpus);
    if (spec.memoryBytes > 0)
        host->insert(QStringLiteral("Memory"), spec.memoryBytes);
    if (spec.pidsLimit > 0)
        host->insert(QStringLiteral("PidsLimit"), spec.pidsLimit);
    if (spec.logFileBytes > 0) {
        const QJsonObject options{{QStringLiteral("max-size"), QString::number(spec.logFileBytes)},
                                  {QStringLiteral("max-file"), QString::number(spec.logFiles)}};
        host->insert(QStringLiteral("LogConfig"), QJsonObject{{QStringLiteral("Type"), QStringLiteral("json-file")},
                                                              {QStringLiteral("Config"), options}});
    }
}

} // namespace

QJsonObject ContainerSpec::toJson() const
{
    QJsonObject config;
    config.insert(QStringLiteral("Image"), image);
    if (!hostname.isEmpty())
        config.insert(QStringLiteral("Hostname"), hostname);
    if (!entrypoint.isEmpty())
        config.insert(QStringLiteral("Entrypoint"), toArray(entrypoint));
    if (!cmd.isEmpty())
        config.insert(QStringLiteral("Cmd"), toArray(cmd));
    QJsonArray envList;
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        envList.append(it.key() + QLatin1Char('=') + it.value());
    config.insert(QStringLiteral("Env"), envList);
    if (!workingDir.isEmpty())
        config.insert(QStringLiteral("WorkingDir"), workingDir);
    if (!user.isEmpty())
        config.insert(QStringLiteral("User"), user);
    config.insert(QStringLiteral("Labels"), toObject(labels));
    config.insert(QStringLiteral("Tty"), tty);
    config.insert(QStringLiteral("OpenStdin"), openStdin);
    config.insert(QStringLiteral("StdinOnce"), false);
    config.insert(QStringLiteral("AttachStdin"), openStdin);
    config.insert(QStringLiteral("AttachStdout"), true);
    config.insert(QStringLiteral("AttachStderr"), true);

    QJsonObject host;
    host.insert(QStringLiteral("Mounts"), mountsJson(*this));
    QJsonObject tmpfsMap;
    for (const TmpfsMount &mount : tmpfs)
        tmpfsMap.insert(mount.containerPath, mount.options);
    host.insert(QStringLiteral("Tmpfs"), tmpfsMap);
    host.insert(QStringLiteral("NetworkMode"), networkMode);
    if (!dns.isEmpty())
        host.insert(QStringLiteral("Dns"), toArray(dns));

    addPorts(ports, &config, &host);
    addLimits(*this, &host);
    host.insert(QStringLiteral("Init"), init);
    host.insert(QStringLiteral("CapDrop"), toArray(capDrop));
    if (!capAdd.isEmpty())
        host.insert(QStringLiteral("CapAdd"), toArray(capAdd));
    host.insert(QStringLiteral("SecurityOpt"), toArray(securityOpt));
    host.insert(QStringLiteral("AutoRemove"), autoRemove);
    if (!runtime.isEmpty())
        host.insert(QStringLiteral("Runtime"), runtime);
    if (!usernsMode.isEmpty())
        host.insert(QStringLiteral("UsernsMode"), usernsMode);
    if (openFilesLimit > 0)
        host.insert(QStringLiteral("Ulimits"),
                    QJsonArray{QJsonObject{{QStringLiteral("Name"), QStringLiteral("nofile")},
                                           {QStringLiteral("Soft"), openFilesLimit},
                                           {QStringLiteral("Hard"), openFilesLimit}}});
    config.insert(QStringLiteral("HostConfig"), host);
    return config;
}

ContainerInfo ContainerInfo::fromJson(const QJsonObject &json)
{
    ContainerInfo info;
    info.raw = json;
    info.id = json.value(QStringLiteral("Id")).toString();
    info.name = json.value(QStringLiteral("Name")).toString();
    if (info.name.startsWith(QLatin1Char('/')))
        info.name.remove(0, 1);
    info.imageId = json.value(QStringLiteral("Image")).toString();
    const QJsonObject config = json.value(QStringLiteral("Config")).toObject();
    info.image = config.value(QStringLiteral("Image")).toString();
    info.tty = config.value(QStringLiteral("Tty")).toBool();
    info.labels = toMap(config.value(QStringLiteral("Labels")));
    const QJsonObject state = json.value(QStringLiteral("State")).toObject();
    info.status = state.value(QStringLiteral("Status")).toString();
    info.running = state.value(QStringLiteral("Running")).toBool();
    info.oomKilled = state.value(QStringLiteral("OOMKilled")).toBool();
    info.pid = state.value(QStringLiteral("Pid")).toInt();
    info.exitCode = state.value(QStringLiteral("ExitCode")).toInt();
    info.error = state.value(QStringLiteral("Error")).toString();
    info.startedAt = toTime(state.value(QStringLiteral("StartedAt")));
    info.finishedAt = toTime(state.value(QStringLiteral("FinishedAt")));
    info.created = toTime(json.value(QStringLiteral("Created")));
    const QJsonObject host = json.value(QStringLiteral("HostConfig")).toObject();
    info.memoryBytes = host.value(QStringLiteral("Memory")).toInteger();
    info.nanoCpus = host.value(QStringLiteral("NanoCpus")).toInteger();
    info.networkMode = host.value(QStringLiteral("NetworkMode")).toString();
    info.runtime = host.value(QStringLiteral("Runtime")).toString();
    info.portBindings = toPortBindings(host.value(QStringLiteral("PortBindings")));
    info.publishedPorts =
        toPortBindings(json.value(QStringLiteral("NetworkSettings")).toObject().value(QStringLiteral("Ports")));
    return info;
}

ContainerSummary ContainerSummary::fromJson(const QJsonObject &json)
{
    ContainerSummary summary;
    summary.id = json.value(QStringLiteral("Id")).toString();
    const QJsonArray names = json.value(QStringLiteral("Names")).toArray();
    summary.name = names.isEmpty() ? QString() : names.first().toString();
    if (summary.name.startsWith(QLatin1Char('/')))
        summary.name.remove(0, 1);
    summary.image = json.value(QStringLiteral("Image")).toString();
    summary.command = json.value(QStringLiteral("Command")).toString();
    summary.state = json.value(QStringLiteral("State")).toString();
    summary.status = json.value(QStringLiteral("Status")).toString();
    summary.labels = toMap(json.value(QStringLiteral("Labels")));
    return summary;
}

ImageInfo ImageInfo::fromJson(const QJsonObject &json)
{
    ImageInfo info;
    info.raw = json;
    info.id = json.value(QStringLiteral("Id")).toString();
    for (const QJsonValue &tag : json.value(QStringLiteral("RepoTags")).toArray())
        info.repoTags.append(tag.toString());
    info.size = json.value(QStringLiteral("Size")).toInteger();
    info.created = toTime(json.value(QStringLiteral("Created")));
    info.labels = toMap(json.value(QStringLiteral("Config")).toObject().value(QStringLiteral("Labels")));
    return info;
}

} // namespace paddock::runtime::docker
