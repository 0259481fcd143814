// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace paddock::runtime::docker {

/** @brief A host directory mounted into the container. */
struct BindMount
{
    QString hostPath;
    QString containerPath;
    bool readOnly = false;
};

/** @brief A tmpfs; @p options as `mount -t tmpfs` takes them, e.g. "rw,size=64m,mode=1777". */
struct TmpfsMount
{
    QString containerPath;
    QString options;
};

/** @brief A named volume (created by the engine on first use). */
struct VolumeMount
{
    QString volumeName;
    QString containerPath;
    bool readOnly = false;
};

/** @brief A container port published on the host; host port 0 lets the engine pick one. */
struct PortBinding
{
    quint16 containerPort = 0;
    QString protocol = QStringLiteral("tcp");
    QString hostIp = QStringLiteral("127.0.0.1");
    quint16 hostPort = 0;

    friend bool operator==(const PortBinding &, const PortBinding &) = default;
};

/**
 * @brief Everything POST /containers/create needs for a sandbox, with Paddock's defaults: no
 * network, every capability dropped, no-new-privileges, no init process of Docker's own.
 */
struct ContainerSpec
{
    QString image;
    QString name; ///< empty: the engine picks one
    QString hostname;
    QStringList entrypoint; ///< empty: the image's
    QStringList cmd;        ///< empty: the image's
    QMap<QString, QString> env;
    QString workingDir;
    QString user;
    QMap<QString, QString> labels;
    QList<BindMount> binds;
    QList<TmpfsMount> tmpfs;
    QList<VolumeMount> volumes;
    QString networkMode = QStringLiteral("none");
    QStringList dns; ///< the name servers /etc/resolv.conf lists (HostConfig.Dns); empty: the engine's choice
    QList<PortBinding> ports;
    qint64 nanoCpus = 0;    ///< 1e9 per CPU; 0: no limit
    qint64 memoryBytes = 0; ///< 0: no limit
    qint64 pidsLimit = 0;   ///< processes and threads of the container together; 0: no limit
    /** The container's output is kept by the engine in json-file logs of at most this size,
     *  @ref logFiles of them (the oldest dropped); 0: the engine's own logging settings. */
    qint64 logFileBytes = 0;
    int logFiles = 2;
    bool init = false;
    QStringList capDrop = {QStringLiteral("ALL")};
    QStringList capAdd;
    QStringList securityOpt = {QStringLiteral("no-new-privileges")};
    bool tty = false;
    bool openStdin = false;
    bool autoRemove = false;
    /** The engine's OCI runtime (HostConfig.Runtime), e.g. "runsc" for gVisor; empty: the engine's default. */
    QString runtime;
    /** HostConfig.UsernsMode: "keep-id" on rootless Podman (the user is the same uid inside); empty: none. */
    QString usernsMode;
    /** Soft and hard RLIMIT_NOFILE (HostConfig.Ulimits); 0: the engine's default. */
    qint64 openFilesLimit = 0;

    /** The request body of POST /containers/create (the name goes in the query). */
    QJsonObject toJson() const;
};

/** @brief The parts of GET /containers/{id}/json that Paddock reads. */
struct ContainerInfo
{
    QString id;
    QString name; ///< without the leading '/'
    QString image;
    QString imageId;
    QString status; ///< created, running, paused, restarting, removing, exited, dead
    bool running = false;
    bool oomKilled = false;
    int pid = 0;
    int exitCode = 0;
    QString error;
    QDateTime startedAt; ///< invalid when never started
    QDateTime finishedAt;
    QDateTime created; ///< when the container (and its writable layer) was made
    bool tty = false;
    QMap<QString, QString> labels;
    qint64 memoryBytes = 0;
    qint64 nanoCpus = 0;
    QString networkMode;
    QString runtime;                   ///< HostConfig.Runtime: the OCI runtime the engine runs it with
    QList<PortBinding> portBindings;   ///< as requested (HostConfig.PortBindings)
    QList<PortBinding> publishedPorts; ///< as bound by the engine (NetworkSettings.Ports)
    QJsonObject raw;

    static ContainerInfo fromJson(const QJsonObject &json);
};

/** @brief One entry of GET /containers/json. */
struct ContainerSummary
{
    QString id;
    QString name;
    QString image;
    QString command;
    QString state;
    QString status;
    QMap<QString, QString> labels;

    static ContainerSummary fromJson(const QJsonObject &json);
};

/** @brief The parts of GET /images/{name}/json that Paddock reads. */
struct ImageInfo
{
    QString id;
    QStringList repoTags;
    qint64 size = 0;
    QDateTime created;
    QMap<QString, QString> labels;
    QJsonObject raw;

    static ImageInfo fromJson(const QJsonObject &json);
};

} // namespace paddock::runtime::docker
