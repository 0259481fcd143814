// SPDX-License-Identifier: GPL-3.0-or-later
//
// A sandbox on a container engine of another computer: nothing of this computer is bound in.
// paddock-init and the workspace's committed files are copied into the created container
// (PUT /containers/ID/archive), and its way out is the stream RemoteRelay holds to the engine.
#include "runtime/docker/DockerRuntime.h"

#include "runtime/SandboxSpecJson.h"
#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/RemoteCommits.h"
#include "runtime/docker/RemoteRelay.h"
#include "runtime/docker/TarWriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>

namespace paddock::runtime {

namespace layout = docker::layout;
using docker::TarWriter;

namespace {

/** The committed files of a workspace copied in, at most. */
constexpr qint64 kMaxWorkspaceBytes = 512LL * 1024 * 1024;
/** A read-only file of this computer copied in, at most (a CA bundle is a few hundred KiB). */
constexpr qint64 kMaxCopiedFileBytes = 4LL * 1024 * 1024;

/**
 * The files `git archive HEAD` gives of @p workspace, added under its own path and owned by
 * @p uid:@p gid (the agent's). Regular files, folders and links only; bounded.
 */
bool addWorkspace(TarWriter &tar, const QString &workspace, qint64 uid, qint64 gid, QString *error)
{
    QProcess git;
    git.setProgram(QStringLiteral("git"));
    git.setArguments({QStringLiteral("-C"), workspace, QStringLiteral("archive"), QStringLiteral("--format=tar"),
                      QStringLiteral("HEAD")});
    git.start();
    QByteArray bytes;
    while (git.waitForReadyRead(60000) && bytes.size() <= kMaxWorkspaceBytes)
        bytes += git.readAllStandardOutput();
    git.waitForFinished(60000);
    bytes += git.readAllStandardOutput();
    if (git.exitStatus() != QProcess::NormalExit || git.exitCode() != 0 || bytes.size() > kMaxWorkspaceBytes) {
        *error = bytes.size() > kMaxWorkspaceBytes
                     ? QStringLiteral("its committed files pass %1 MiB").arg(kMaxWorkspaceBytes >> 20)
                     : QStringLiteral("it is not a git repository with a commit (git archive HEAD: %1)")
                           .arg(QString::fromLocal8Bit(git.readAllStandardError()).trimmed());
        return false;
    }
    archive *in = archive_read_new();
    archive_read_support_format_tar(in);
    archive_read_open_memory(in, bytes.constData(), size_t(bytes.size()));
    bool ok = tar.add(workspace.mid(1), AE_IFDIR, 0755, {}, uid, gid);
    archive_entry *entry = nullptr;
    while (ok && archive_read_next_header(in, &entry) == ARCHIVE_OK) {
        const QString path = QDir::cleanPath(QString::fromUtf8(archive_entry_pathname(entry)));
        if (path.startsWith(QLatin1String("..")) || QDir::isAbsolutePath(path))
            continue; // git writes neither; nothing leaves the workspace
        const mode_t type = archive_entry_filetype(entry);
        QByteArray data;
        if (type == AE_IFREG) {
            data.resize(qsizetype(archive_entry_size(entry)));
            ok = archive_read_data(in, data.data(), size_t(data.size())) == data.size();
        }
        if (ok && (type == AE_IFREG || type == AE_IFDIR || type == AE_IFLNK))
            ok = tar.add(workspace.mid(1) + QLatin1Char('/') + path, type, int(archive_entry_perm(entry)), data, uid,
                         gid, type == AE_IFLNK ? QByteArray(archive_entry_symlink(entry)) : QByteArray());
    }
    archive_read_free(in);
    if (!ok)
        *error = QStringLiteral("its committed files could not be packed");
    return ok;
}

/**
 * A file of this computer given read-only at a path of its own (the proxy's CA bundle): copied
 * in, root's and read-only, where a folder would be refused.
 */
bool copiedFile(const ReadOnlyBind &bind)
{
    const QFileInfo file(bind.hostPath);
    return !bind.sandboxPath.isEmpty() && QDir::isAbsolutePath(bind.sandboxPath) && file.isFile() &&
           file.size() <= kMaxCopiedFileBytes;
}

/** Why @p spec cannot run on an engine of another computer; empty when it can. */
QString remoteProblem(const SandboxSpec &spec)
{
    const QString endpointDir = QFileInfo(spec.sandboxProxySocket).path();
    const bool hostFiles =
        std::any_of(spec.readOnlyBinds.cbegin(), spec.readOnlyBinds.cend(),
                    [&](const ReadOnlyBind &bind) { return bind.sandboxPath != endpointDir && !copiedFile(bind); });
    if (!spec.homeDir.isEmpty())
        return QStringLiteral("a home folder of this computer (%1)").arg(spec.homeDir);
    if (!spec.sharedMounts.isEmpty() || hostFiles)
        return QStringLiteral("folders of this computer shared with it");
    if (spec.grants != SandboxGrants())
        return QStringLiteral("sockets of this computer (the display, the SSH agent, the session bus, docker)");
    return {};
}

} // namespace

RuntimeResult DockerRuntime::createRemote(const SandboxSpec &spec, const docker::ContainerSpec &container)
{
    if (const QString problem = remoteProblem(spec); !problem.isEmpty())
        return RuntimeResult::failure(
            QStringLiteral("engine %1 is on another computer, and sandbox %2 needs %3, which a container there "
                           "cannot be given")
                .arg(m_engineName, spec.name, problem));
    QFile init(spec.initPath);
    if (!init.open(QIODevice::ReadOnly))
        return RuntimeResult::failure(QStringLiteral("cannot read paddock-init at %1").arg(spec.initPath));
    const QString agent = container.labels.value(layout::kLabelAgentUser, container.user);
    const qint64 uid = agent.section(QLatin1Char(':'), 0, 0).toLongLong();
    const qint64 gid = agent.section(QLatin1Char(':'), 1, 1).toLongLong();
    // Paddock's folder is root's: the sandbox cannot put a listener where its relay looks for the proxy.
    TarWriter tar;
    QString error;
    const QString endpointDir = QFileInfo(spec.sandboxProxySocket).path().mid(1);
    bool ok = tar.add(QStringLiteral("run/paddock"), AE_IFDIR, 0755, {}, 0, 0) &&
              tar.add(layout::kInitInside.mid(1), AE_IFREG, 0755, init.readAll(), 0, 0) &&
              (endpointDir == QLatin1String("run/paddock") || tar.add(endpointDir, AE_IFDIR, 0755, {}, 0, 0));
    for (const ReadOnlyBind &bind : spec.readOnlyBinds) {
        QFile copied(bind.hostPath);
        if (ok && copiedFile(bind) && copied.open(QIODevice::ReadOnly))
            ok = tar.add(QDir::cleanPath(bind.sandboxPath).mid(1), AE_IFREG, 0644, copied.read(kMaxCopiedFileBytes), 0,
                         0);
    }
    if (ok && !spec.workspace.isEmpty() && !addWorkspace(tar, spec.workspace, uid, gid, &error))
        return RuntimeResult::failure(QStringLiteral("the workspace %1 cannot be copied to engine %2: %3")
                                          .arg(spec.workspace, m_engineName, error));
    // HEAD's commit goes in too, so that the commits made there can come back as branches.
    docker::ContainerSpec withBase = container;
    if (ok && !spec.workspace.isEmpty()) {
        const paddock::Result<QString> base = docker::RemoteCommits::addRepository(tar, spec.workspace, uid, gid);
        if (!base)
            return RuntimeResult::failure(QStringLiteral("the workspace %1 cannot be copied to engine %2: %3")
                                              .arg(spec.workspace, m_engineName, base.error().message));
        if (!base.value().isEmpty())
            withBase.labels.insert(docker::RemoteCommits::baseLabel(), base.value());
    }
    const docker::Result<QString> created = m_client.createContainer(withBase);
    if (created.is(docker::Error::Kind::Conflict))
        return RuntimeResult::failure(QStringLiteral("a sandbox named %1 exists already (container %2)")
                                          .arg(spec.name, containerName(spec.name)));
    if (!created)
        return RuntimeResult::failure(created.errorMessage());
    docker::HttpRequest request;
    request.method = "PUT";
    request.path = QStringLiteral("/containers/%1/archive").arg(created.value());
    request.query = {{QStringLiteral("path"), QStringLiteral("/")}};
    request.contentType = "application/x-tar";
    request.body = tar.finish();
    const docker::Result<docker::HttpResponse> copied = engineCall(request);
    if (!ok || !copied) {
        (void)m_client.removeContainer(created.value(), true);
        return RuntimeResult::failure(QStringLiteral("paddock-init and the workspace could not be copied into "
                                                     "sandbox %1 on engine %2: %3")
                                          .arg(spec.name, m_engineName, copied.errorMessage()));
    }
    return RuntimeResult::success();
}

void DockerRuntime::setRelayObserver(RelayObserver observer)
{
    const std::lock_guard lock(m_relayMutex);
    m_relayObserver = std::move(observer);
}

void DockerRuntime::keepWayOut(const QString &name)
{
    if (!m_remote)
        return;
    const docker::Result<docker::ContainerInfo> container = runningContainerOf(name);
    const std::lock_guard lock(m_relayMutex);
    if (!container || m_relays.count(name))
        return;
    const SandboxSpec spec = sandboxSpecFromJson(
        QJsonDocument::fromJson(container.value().labels.value(layout::kLabelSpec).toUtf8()).object());
    if (spec.proxySocket.isEmpty())
        return;
    // The observer is read when called: once cleared (the daemon stopping), nothing is told.
    const auto tell = [this, name](bool up, const QString &sentence) {
        const std::lock_guard relayLock(m_relayMutex);
        if (m_relayObserver)
            m_relayObserver(name, up, sentence);
    };
    docker::RemoteRelay::Sockets sockets{spec.sandboxProxySocket, spec.proxySocket, {}, {}};
    // Published ports ("PORT=SOCKET ..."): one socket inside, beside the proxy's; the daemon's beside its own.
    const QString publish = spec.environment.value(layout::kPublishVariable).section(QLatin1Char(' '), 0, 0);
    if (!publish.isEmpty()) {
        sockets.insidePortsPath = publish.section(QLatin1Char('='), 1);
        sockets.portsSocket =
            QFileInfo(spec.proxySocket).path() + QLatin1Char('/') + QFileInfo(sockets.insidePortsPath).fileName();
    }
    m_relays[name] =
        std::make_unique<docker::RemoteRelay>(m_client.endpoint(), container.value().id, std::move(sockets), tell);
}

void DockerRuntime::endWayOut(const QString &name)
{
    std::unique_ptr<docker::RemoteRelay> relay;
    {
        const std::lock_guard lock(m_relayMutex);
        const auto it = m_relays.find(name);
        if (it == m_relays.end())
            return;
        relay = std::move(it->second);
        m_relays.erase(it);
    }
}

} // namespace paddock::runtime
