// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "kit/KitLoader.h"
#include "sandbox/SharedFolders.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::sandbox {

/**
 * @brief The params of `sandbox.create` (see SandboxService), checked
 * for their shape and read into values before anything is done with them.
 *
 * `approveCredentials` is not here: CredentialInjection::admit() reads it before the request
 * gets this far.
 */
struct CreateRequest
{
    QString kitDirectory;           ///< `kit`: absolute
    QStringList mixinDirectories;   ///< `mixins`: absolute; kits composed with `kit` (schemaVersion 3)
    QMap<QString, QString> kitArgs; ///< `kitArgs`: values of the kit's `args`, by name
    QString workspace;              ///< `workspace`: absolute, cleaned, an existing directory
    QString name;                   ///< `name`; empty: the kit's default name for the workspace
    QStringList extraPaths;         ///< `paths`: absolute and existing, shown read-only
    QStringList commandArgs;        ///< `args`: replace the kit's command when not empty
    /** `mounts` ([{host, inside, mode}]), then the kit's settings' for other inside paths. */
    QList<SharedFolder> sharedFolders;
    /** `env` ({NAME: VALUE}), over the kit's settings' variables. Checked by the creation. */
    QMap<QString, QString> variables;
    QString backend;              ///< `backend`: "bwrap" when absent, "docker" for gVisor
    QString isolation;            ///< `isolation`: "container" (the default) or "gvisor"
    QString engine;               ///< `engine`: a Docker engine by name (EngineList); empty: the one in use
    bool backendGiven = false;    ///< whether `backend` was in the params
    bool isolationGiven = false;  ///< whether `isolation` was in the params
    bool protectHostFiles = true; ///< see runtime::SandboxSpec::protectHostFiles
    bool disposable = false;      ///< `disposable`: see runtime::SandboxSpec::disposable
    bool interactive = false;     ///< `interactive`
    bool cloneWorkspace = false;  ///< `workspaceMode` "clone" (else "direct", the default)
    bool kitShares = true;        ///< `kitShares`: false when the caller sent the kit's shares itself
    QString sshAgent;             ///< `sshAuthSock`: the caller's SSH_AUTH_SOCK, for a kit's ssh-agent@1
    bool sshAgentOnly = false;    ///< `sshAgentOnly`: that agent or none, never paddockd's nor a later caller's
    QString sshKnownHosts;        ///< `sshKnownHosts`: the servers' keys for ssh-agent@1; empty: the person's
    QString secretGuard = QStringLiteral("refuse"); ///< `secretGuard`: "refuse" (the default), "redact" or "off"

    /** Reads @p params; an error (a sentence for the user) when they are not usable. */
    static Result<CreateRequest> parse(const QJsonObject &params);
    /**
     * Raises @ref isolation to the least the kit's setting asks for (kit::KitSettings), with
     * the Docker backend gVisor needs when none was named. An error when the request named a
     * lower level, or a backend that cannot give it.
     */
    Result<void> meetKitMinimum();
    /**
     * Adds the shared folders and variables of the kit's settings (kit::KitSettings) that the
     * request does not set itself. An error when the settings cannot be read or hold one that is
     * not well formed.
     */
    Result<void> addKitShares();
    /** How the kit is loaded for the request: with @ref kitArgs, every required argument given. */
    kit::KitLoadOptions kitLoadOptions() const;
};

} // namespace paddock::sandbox
