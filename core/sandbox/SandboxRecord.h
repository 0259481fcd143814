// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "kit/AgentVerbs.h"
#include "kit/Kit.h"
#include "runtime/Runtime.h"
#include "sandbox/Companions.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::sandbox {

/**
 * @brief What the daemon keeps about a sandbox besides the runtime's own state: the kit it
 * was made from and the parts of that kit needed again after a restart (its network
 * permissions, its setup files), so neither depends on the kit directory still being there.
 *
 * Stored as `paths::dataDir()/sandbox-kits/NAME.json` (mode 0600).
 */
struct SandboxRecord
{
    QString name;
    QString kitName;
    QString kitDirectory;
    QString backend; ///< "bwrap", ...
    QString engine;  ///< the Docker engine it runs on, by name (EngineList); empty for bwrap
    QStringList networkAllow;
    QStringList networkDeny;
    QList<kit::SetupFile> setupFiles;
    QList<Companion> services; ///< companion services (`paddock service add`)
    /** The secret-egress guard: "refuse", "redact" or "off" (a record from before it: "off"). */
    QString secretGuard = QStringLiteral("off");
    QString workspace; ///< the host folder the guard reads (empty in records from before it)
    /** Workspace values the guard lets through for this sandbox: "FILE\tNAME" (allowedValueKey()). */
    QStringList allowedValues;
    QStringList skippedCapabilities; ///< a v3 kit's optional capability types not carried out here
    /** A composition's kits (kit::ComposedKit: name, kind, reference, digest), the workload first; else empty. */
    QJsonArray composition;
    kit::AgentVerbs agentVerbs; ///< how `paddock agent` drives its agent (empty in records from before it)
    /**
     * The `sandbox.create` params it was made with (the person's choices: kit, workspace, name,
     * shares, variables, backend, engine, ...), for `paddock recreate`; empty in older records.
     */
    QJsonObject createParams;
    /**
     * Every volume its kits asked for, as last asked at each path (size in bytes), declared now
     * or not: what a recreation's kit must match at the same path.
     */
    QList<runtime::SandboxVolume> volumes;
    /** ssh-agent@1 for the runtime phase, when granted and backed at creation. */
    std::optional<kit::SshAgentGrant> sshAgent;
    /** The agent it relays to: the socket of the person's agent, as last given (not a secret). */
    QString sshAgentBacking;
    bool sshAgentOnly = false; ///< that agent alone: CreateRequest::sshAgentOnly
    QString sshKnownHosts;     ///< the known hosts given at creation (SshAgents::knownHostsCopy()); empty: the person's

    /** The folder of its kit, or of each kit of its composition, the workload first. */
    QStringList kitDirectories() const;

    QJsonObject toJson() const;
    static std::optional<SandboxRecord> fromJson(const QJsonObject &object);

    /** The directory holding every record. */
    static QString directory();
    static QString pathFor(const QString &name);
    static std::optional<SandboxRecord> read(const QString &name);
    /** Every record that reads, by name: the sandboxes made here, on every engine, answering or not. */
    static QList<SandboxRecord> all();
    Result<void> write() const;
    static void remove(const QString &name);
};

} // namespace paddock::sandbox
