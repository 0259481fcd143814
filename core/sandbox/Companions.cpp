// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/Companions.h"

#include "runtime/docker/ContainerSpec.h"
#include "runtime/docker/DockerClient.h"

#include <QLoggingCategory>
#include <QRegularExpression>
#include <QThread>

Q_LOGGING_CATEGORY(lcCompanions, "paddock.sandbox.companions", QtInfoMsg)

namespace paddock::sandbox {
namespace {

using runtime::docker::Error;

const QString kSandboxLabel = QStringLiteral("paddock.sandbox");
const QString kCompanionLabel = QStringLiteral("paddock.companion");

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

runtime::docker::ContainerSpec containerSpec(const QString &sandbox, const Companion &companion)
{
    runtime::docker::ContainerSpec spec;
    spec.image = companion.image;
    spec.name = CompanionRunner::containerName(sandbox, companion.name);
    spec.hostname = companion.name;
    spec.env = companion.env;
    spec.cmd = companion.command;
    spec.labels = {{kSandboxLabel, sandbox}, {kCompanionLabel, companion.name}};
    spec.networkMode = CompanionRunner::networkName(sandbox);
    // A service image as `docker run` would start it (a database switches users as it starts),
    // on a network with no route out, reached only at its ports through the sandbox's proxy.
    spec.capDrop.clear();
    spec.pidsLimit = 4096;
    for (int i = 0; i < companion.volumes.size(); ++i)
        spec.volumes.append({CompanionRunner::volumeName(sandbox, companion.name, i), companion.volumes.at(i), false});
    return spec;
}

/** Cleaning up goes on past a failure, which the daemon's log keeps. */
void bestEffort(const runtime::docker::Status &status, const QString &what)
{
    if (!status)
        qCWarning(lcCompanions).noquote() << what << "failed:" << status.errorMessage();
}

/** The companion's address on the sandbox's network, once the engine gave it one. */
QString addressOf(const runtime::docker::DockerClient &client, const QString &container, const QString &network)
{
    for (int attempt = 0; attempt < 50; ++attempt) {
        const auto info = client.inspectContainer(container);
        if (!info)
            return {};
        const QString address = info.value()
                                    .raw.value(QLatin1String("NetworkSettings"))
                                    .toObject()
                                    .value(QLatin1String("Networks"))
                                    .toObject()
                                    .value(network)
                                    .toObject()
                                    .value(QLatin1String("IPAddress"))
                                    .toString();
        if (!address.isEmpty() || !info.value().running)
            return address;
        QThread::msleep(100);
    }
    return {};
}

} // namespace

QJsonObject Companion::toJson() const
{
    QJsonObject environment;
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        environment.insert(it.key(), it.value());
    QJsonArray portList;
    for (const quint16 port : ports)
        portList.append(int(port));
    return {{QStringLiteral("name"), name},
            {QStringLiteral("image"), image},
            {QStringLiteral("env"), environment},
            {QStringLiteral("ports"), portList},
            {QStringLiteral("volumes"), QJsonArray::fromStringList(volumes)},
            {QStringLiteral("command"), QJsonArray::fromStringList(command)}};
}

Result<Companion> Companion::fromJson(const QJsonObject &object)
{
    static const QRegularExpression validName(QStringLiteral("\\A[a-z][a-z0-9-]{0,31}\\z"));
    static const QRegularExpression variableName(QStringLiteral("\\A[A-Za-z_][A-Za-z0-9_]*\\z"));
    Companion companion;
    companion.name = object.value(QLatin1String("name")).toString();
    companion.image = object.value(QLatin1String("image")).toString().trimmed();
    if (!validName.match(companion.name).hasMatch())
        return fail(QStringLiteral("a service's name is lower-case letters, digits and '-', starting with a letter, "
                                   "at most 32 (not '%1')")
                        .arg(companion.name));
    if (companion.image.isEmpty() || companion.image.contains(QLatin1Char(' ')))
        return fail(QStringLiteral("service %1 needs an image (--image postgres:15)").arg(companion.name));
    const QJsonObject env = object.value(QLatin1String("env")).toObject();
    for (auto it = env.begin(); it != env.end(); ++it) {
        if (!variableName.match(it.key()).hasMatch())
            return fail(QStringLiteral("'%1' is not a variable name").arg(it.key()));
        companion.env.insert(it.key(), it.value().toString());
    }
    for (const QJsonValue &port : object.value(QLatin1String("ports")).toArray()) {
        const int number = port.toInt(-1);
        if (number < 1 || number > 65535)
            return fail(QStringLiteral("service %1: a port is a number from 1 to 65535").arg(companion.name));
        if (!companion.ports.contains(quint16(number)))
            companion.ports.append(quint16(number));
    }
    companion.volumes = strings(object.value(QLatin1String("volumes")));
    for (const QString &path : std::as_const(companion.volumes)) {
        if (!path.startsWith(QLatin1Char('/')) || path.contains(QLatin1String("..")))
            return fail(QStringLiteral("service %1: a volume is an absolute path inside it, not '%2'")
                            .arg(companion.name, path));
    }
    companion.command = strings(object.value(QLatin1String("command")));
    return companion;
}

QJsonArray toJson(const QList<Companion> &companions)
{
    QJsonArray array;
    for (const Companion &companion : companions)
        array.append(companion.toJson());
    return array;
}

QList<Companion> companionsFromJson(const QJsonArray &array)
{
    QList<Companion> companions;
    for (const QJsonValue &value : array) {
        if (const Result<Companion> companion = Companion::fromJson(value.toObject()); companion.ok())
            companions.append(*companion);
    }
    return companions;
}

CompanionRunner::CompanionRunner(const runtime::docker::DockerClient &client) : m_client(client) {}

QString CompanionRunner::networkName(const QString &sandbox)
{
    return QStringLiteral("paddock-svc-") + sandbox;
}

QString CompanionRunner::containerName(const QString &sandbox, const QString &companion)
{
    return QStringLiteral("paddock-svc-%1-%2").arg(sandbox, companion);
}

QString CompanionRunner::volumeName(const QString &sandbox, const QString &companion, int index)
{
    return QStringLiteral("paddock-svc-%1-%2-%3").arg(sandbox, companion).arg(index);
}

Result<std::vector<proxy::ServiceRoute>> CompanionRunner::start(const QString &sandbox,
                                                                const QList<Companion> &companions) const
{
    std::vector<proxy::ServiceRoute> routes;
    if (companions.isEmpty())
        return routes;
    const QString network = networkName(sandbox);
    if (const auto made = m_client.createNetwork(network, true, {{kSandboxLabel, sandbox}}); !made)
        return fail(QStringLiteral("the network of sandbox %1's services: %2").arg(sandbox, made.errorMessage()));
    for (const Companion &companion : companions) {
        const QString container = containerName(sandbox, companion.name);
        if (m_client.inspectContainer(container).is(Error::Kind::NotFound)) {
            const auto created = m_client.createContainer(containerSpec(sandbox, companion));
            if (created.is(Error::Kind::NotFound))
                return fail(QStringLiteral("service %1: the image %2 is not in the Docker engine")
                                .arg(companion.name, companion.image),
                            QStringLiteral("load or build it first (docker load -i FILE, or docker build -t %1 .)")
                                .arg(companion.image));
            if (!created)
                return fail(QStringLiteral("service %1: %2").arg(companion.name, created.errorMessage()));
        }
        if (const auto started = m_client.startContainer(container); !started)
            return fail(QStringLiteral("service %1 did not start: %2").arg(companion.name, started.errorMessage()));
        const QString address = addressOf(m_client, container, network);
        if (address.isEmpty()) {
            return fail(QStringLiteral("service %1 stopped as it started; 'docker logs %2' says why")
                            .arg(companion.name, container));
        }
        for (const quint16 port : companion.ports)
            routes.push_back({companion.name.toStdString(), port, QHostAddress(address)});
    }
    return routes;
}

void CompanionRunner::stop(const QString &sandbox) const
{
    const auto listed = m_client.listContainers({kSandboxLabel + QLatin1Char('=') + sandbox, kCompanionLabel}, false);
    for (const auto &container : listed ? listed.value() : decltype(listed.value()){})
        bestEffort(m_client.stopContainer(container.id, 10), QStringLiteral("stopping ") + container.name);
}

void CompanionRunner::remove(const QString &sandbox, const Companion &companion, bool volumes) const
{
    bestEffort(m_client.removeContainer(containerName(sandbox, companion.name), true, false),
               QStringLiteral("removing service ") + companion.name);
    for (int i = 0; volumes && i < companion.volumes.size(); ++i)
        bestEffort(m_client.removeVolume(volumeName(sandbox, companion.name, i)), QStringLiteral("removing a volume"));
}

void CompanionRunner::removeAll(const QString &sandbox, const QList<Companion> &companions) const
{
    const auto listed = m_client.listContainers({kSandboxLabel + QLatin1Char('=') + sandbox, kCompanionLabel}, true);
    for (const auto &container : listed ? listed.value() : decltype(listed.value()){})
        bestEffort(m_client.removeContainer(container.id, true, false), QStringLiteral("removing ") + container.name);
    for (const Companion &companion : companions) {
        for (int i = 0; i < companion.volumes.size(); ++i)
            bestEffort(m_client.removeVolume(volumeName(sandbox, companion.name, i)),
                       QStringLiteral("removing a volume"));
    }
    bestEffort(m_client.removeNetwork(networkName(sandbox)), QStringLiteral("removing the services' network"));
}

} // namespace paddock::sandbox
