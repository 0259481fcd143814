// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/CreateRequest.h"

#include "kit/KitSettings.h"
#include "proxy/SecretGuard.h"
#include "runtime/Isolation.h"
#include "sandbox/Engines.h"
#include "sandbox/WorkspaceGuard.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace paddock::sandbox {
namespace {

QStringList stringList(const QJsonValue &value)
{
    QStringList result;
    for (const QJsonValue &item : value.toArray())
        result << item.toString();
    return result;
}

} // namespace

namespace {

/** `paths` (read-only extras) and `mounts` of @p params into @p request. */
Result<void> readFolders(const QJsonObject &params, CreateRequest &request)
{
    request.extraPaths = stringList(params.value(QLatin1String("paths")));
    for (const QString &path : std::as_const(request.extraPaths)) {
        if (!QDir::isAbsolutePath(path) || !QFileInfo::exists(path))
            return fail(QStringLiteral("%1 does not exist").arg(path));
        // Read-only, but still no way to read Paddock's files or the keyring.
        if (const std::optional<QString> problem = workspaceProblem(path))
            return fail(*problem);
    }
    for (const QJsonValue &mount : params.value(QLatin1String("mounts")).toArray()) {
        const SharedFolder folder = SharedFolder::fromJson(mount.toObject());
        if (!QDir::isAbsolutePath(folder.hostPath) || !QDir::isAbsolutePath(folder.insidePath))
            return fail(QStringLiteral("a mount is {host, inside, mode} with absolute paths"));
        request.sharedFolders.append(folder);
    }
    return {};
}

} // namespace

Result<CreateRequest> CreateRequest::parse(const QJsonObject &params)
{
    CreateRequest request;
    request.kitDirectory = params.value(QLatin1String("kit")).toString();
    request.workspace = QDir::cleanPath(params.value(QLatin1String("workspace")).toString());
    request.mixinDirectories = stringList(params.value(QLatin1String("mixins")));
    for (const QString &kit : QStringList{request.kitDirectory} + request.mixinDirectories)
        if (kit.isEmpty() || !QDir::isAbsolutePath(kit))
            return fail(QStringLiteral("the kit must be an absolute directory path"));
    if (!QDir::isAbsolutePath(request.workspace) || !QFileInfo(request.workspace).isDir())
        return fail(QStringLiteral("the workspace %1 is not a directory").arg(request.workspace));
    if (const std::optional<QString> problem = workspaceProblem(request.workspace))
        return fail(*problem);
    const QString workspaceMode = params.value(QLatin1String("workspaceMode")).toString(QStringLiteral("direct"));
    if (workspaceMode != QLatin1String("direct") && workspaceMode != QLatin1String("clone"))
        return fail(QStringLiteral("workspaceMode is 'direct' or 'clone', not '%1'").arg(workspaceMode));
    request.cloneWorkspace = workspaceMode == QLatin1String("clone");
    request.secretGuard = params.value(QLatin1String("secretGuard")).toString(QStringLiteral("refuse"));
    if (!proxy::guard::modeFromName(request.secretGuard))
        return fail(QStringLiteral("secretGuard is 'refuse', 'redact' or 'off', not '%1'").arg(request.secretGuard));
    if (const Result<void> folders = readFolders(params, request); !folders)
        return folders.error();
    request.kitShares = params.value(QLatin1String("kitShares")).toBool(true);
    const QJsonObject variables = params.value(QLatin1String("env")).toObject();
    for (auto it = variables.begin(); it != variables.end(); ++it)
        request.variables.insert(it.key(), it.value().toString());
    const QJsonObject kitArgs = params.value(QLatin1String("kitArgs")).toObject();
    for (auto it = kitArgs.begin(); it != kitArgs.end(); ++it)
        request.kitArgs.insert(it.key(), it.value().toString());
    request.name = params.value(QLatin1String("name")).toString();
    request.sshAgent = params.value(QLatin1String("sshAuthSock")).toString();
    request.sshAgentOnly = params.value(QLatin1String("sshAgentOnly")).toBool();
    request.sshKnownHosts = params.value(QLatin1String("sshKnownHosts")).toString();
    if (!request.sshKnownHosts.isEmpty() && !QDir::isAbsolutePath(request.sshKnownHosts))
        return fail(QStringLiteral("sshKnownHosts must be an absolute path, not '%1'").arg(request.sshKnownHosts));
    request.commandArgs = stringList(params.value(QLatin1String("args")));
    request.isolation = params.value(QLatin1String("isolation")).toString(runtime::kIsolationContainer);
    if (!runtime::isIsolationLevel(request.isolation))
        return fail(QStringLiteral("isolation is 'container' or 'gvisor', not '%1'").arg(request.isolation));
    // gVisor is the engine's runsc runtime: it implies the Docker backend unless one is named.
    const QString defaultBackend =
        request.isolation == runtime::kIsolationGvisor ? QStringLiteral("docker") : QStringLiteral("bwrap");
    request.engine = params.value(QLatin1String("engine")).toString();
    request.backendGiven = params.contains(QLatin1String("backend"));
    // An engine is the Docker backend's: it implies it, and no other may be named with it.
    request.backend = params.value(QLatin1String("backend"))
                          .toString(request.engine.isEmpty() ? defaultBackend : QStringLiteral("docker"));
    if (!request.engine.isEmpty() && request.backend != QLatin1String("docker"))
        return fail(QStringLiteral("an engine runs Docker sandboxes: use --backend docker with --engine, or leave "
                                   "--backend out"));
    if (!request.engine.isEmpty() && !validEngineName(request.engine))
        return fail(QStringLiteral("'%1' is not an engine's name (paddock engine ls)").arg(request.engine.left(80)));
    request.isolationGiven = params.contains(QLatin1String("isolation"));
    // The agent started with the sandbox has a terminal unless the caller has none (a script).
    request.interactive = params.value(QLatin1String("interactive")).toBool(true);
    request.protectHostFiles = params.value(QLatin1String("protectHostFiles")).toBool(true);
    request.disposable = params.value(QLatin1String("disposable")).toBool(false);
    return request;
}

Result<void> CreateRequest::meetKitMinimum()
{
    QString unreadable;
    const std::optional<QString> minimum = kit::KitSettings::minimumIsolation(kitDirectory, &unreadable);
    if (!unreadable.isEmpty()) {
        // A setting that cannot be read may be one that asks for more: stop rather than guess.
        return fail(QStringLiteral("the kits' settings cannot be read: %1").arg(unreadable));
    }
    if (!minimum || isolation == *minimum)
        return {};
    if (isolationGiven)
        return fail(QStringLiteral("the kit %1 asks for %2 isolation at least: run it with --isolation %2, or lower "
                                   "the kit's setting with 'paddock kit isolation %1 container'")
                        .arg(kitDirectory, *minimum));
    if (backendGiven && backend != QLatin1String("docker"))
        return fail(QStringLiteral("the kit %1 asks for %2 isolation, which runs through the Docker engine: use "
                                   "--backend docker (or leave --backend out)")
                        .arg(kitDirectory, *minimum));
    isolation = *minimum;
    backend = QStringLiteral("docker");
    return {};
}

Result<void> CreateRequest::addKitShares()
{
    if (!kitShares)
        return {};
    QString unreadable;
    const kit::KitShares shares = kit::KitSettings::shares(kitDirectory, &unreadable);
    if (!unreadable.isEmpty())
        return fail(QStringLiteral("the kits' settings cannot be read: %1").arg(unreadable));
    for (const QString &text : shares.mounts) {
        QString error;
        const std::optional<SharedFolder> folder = SharedFolder::parse(text, QDir::homePath(), &error);
        if (!folder)
            return fail(QStringLiteral("the settings of kit %1: %2").arg(kitDirectory, error));
        const bool overridden = std::any_of(sharedFolders.cbegin(), sharedFolders.cend(),
                                            [&](const SharedFolder &f) { return f.insidePath == folder->insidePath; });
        if (!overridden)
            sharedFolders.append(*folder);
    }
    for (auto it = shares.variables.cbegin(); it != shares.variables.cend(); ++it) {
        if (!variables.contains(it.key()))
            variables.insert(it.key(), it.value());
    }
    return {};
}

kit::KitLoadOptions CreateRequest::kitLoadOptions() const
{
    kit::KitLoadOptions options;
    options.requireArgValues = true;
    options.args = kitArgs;
    return options;
}

} // namespace paddock::sandbox
