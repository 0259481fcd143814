// SPDX-License-Identifier: GPL-3.0-or-later
// ssh-agent@1 of a schemaVersion "3" kit: the sandboxes' SSH agents, each a relay to the agent
// of the person who created or started the sandbox.
#pragma once

#include "common/Result.h"
#include "events/NetworkEvent.h"
#include "kit/Kit.h"
#include "runtime/Runtime.h"
#include "runtime/SandboxSpec.h"
#include "sandbox/CreateRequest.h"
#include "sandbox/SandboxRecord.h"
#include "sshagent/AgentRelay.h"

#include <QJsonObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>

namespace paddock::sandbox {

/** The capability type that asks for it. */
inline constexpr char kSshAgentCapability[] = "com.docker.sandbox/ssh-agent@1";

/** What creation makes of a kit's ssh-agent@1 grants. */
struct SshAgentPlan
{
    std::optional<kit::SshAgentGrant> runtime; ///< the runtime grant, backed
    std::optional<kit::SshAgentGrant> install; ///< the install grant, backed: setup.install's alone
    QString backing;                           ///< the agent it relays to
    bool only = false;                         ///< CreateRequest::sshAgentOnly
    QByteArray knownHosts;                     ///< CreateRequest::sshKnownHosts's lines; empty: the person's
    std::optional<QString> refusal;            ///< a required grant Paddock cannot back
    std::optional<QString> problem;            ///< input that cannot be used: the known hosts file
};

/**
 * Decides @p kit's ssh-agent@1 grants at creation: backed by backingAgent() of @p request's agent
 * (that agent alone with CreateRequest::sshAgentOnly), the
 * runtime grant bound into @p spec; a required grant with no agent, or where a socket of this
 * computer cannot reach @p runtime's sandboxes (an engine on another computer),
 * refuses the sandbox by type name, optional ones are marked skipped in the kit's capabilities
 * with the reason in @p notes.
 */
SshAgentPlan planSshAgent(kit::Kit &kit, const CreateRequest &request, const runtime::Runtime &runtime,
                          runtime::SandboxSpec &spec, QStringList *notes);

/**
 * Keeps @p plan in @p record: the grant, its agent, and the known hosts given for it in a file of
 * Paddock's beside the record (knownHostsCopy()).
 */
Result<void> recordSshAgent(SandboxRecord &record, const SshAgentPlan &plan);
/** The agent @p record's relay uses now: its own, else (unless it is that one alone) backingAgent()'s. */
QString recordedBacking(const SandboxRecord &record);

/** What `paddock ls --json` says of @p record's ssh-agent@1 (`sshAgent`), as applied; empty without it. */
QJsonObject appliedSshAgentJson(const SandboxRecord &record);

/**
 * At start, @p caller (the starting client's SSH_AUTH_SOCK) becomes @p record's agent when the
 * sandbox has ssh-agent@1 and that agent answers; the record is written then.
 */
Result<void> adoptCallerAgent(SandboxRecord &record, const QString &caller);

/**
 * @brief The relays of the running sandboxes whose kit grants ssh-agent@1 for the runtime
 * phase, opened and closed with the sandbox's proxy endpoint, and of the sandboxes being
 * created whose setup.install it is granted to, closed once created. Each sign request relayed or
 * refused is published as a network event (protocol `ssh-agent`) and logged.
 */
class SshAgents
{
public:
    using Publish = std::function<void(events::NetworkEvent)>;
    explicit SshAgents(Publish publish) : m_publish(std::move(publish)) {}

    /**
     * `paths::runtimeDir()/ssh-agents/NAME.PHASE/agent.sock`, the socket the sandbox sees: alone
     * in its folder, which the runtime binds (SandboxGrants::sshAgentSocket), so that the socket
     * made again at the same path (the next start, a restarted paddockd) is the one reached.
     * The install phase's is bound into setup.install's runs alone; neither is in the folder of
     * the proxy endpoint, which every run of the sandbox sees.
     */
    static QString socketPath(const QString &name, const QString &phase = QStringLiteral("runtime"));
    /** Removes @p name's socket folders and known hosts, when the sandbox is removed. */
    static void removeFiles(const QString &name);
    /** Where the known hosts given at creation are kept for sandbox @p name. */
    static QString knownHostsCopy(const QString &name);
    /**
     * The agent a sandbox's relay uses: @p fromCaller (the SSH_AUTH_SOCK of the CLI or window
     * that asked), else the daemon's own SSH_AUTH_SOCK; empty when neither answers.
     */
    static QString backingAgent(const QString &fromCaller);
    /** The person's known hosts, where the keys of the servers a grant names come from. */
    static QString knownHostsPath();

    /**
     * Opens @p name's relay for @p grant's phase, relaying to @p backing, the servers' keys from
     * @p knownHosts (empty: knownHostsPath()).
     */
    Result<void> open(const QString &name, const QString &kitName, const kit::SshAgentGrant &grant,
                      const QString &backing, const QString &knownHosts = {});
    /** Closes @p name's relay for @p phase. */
    void close(const QString &name, const QString &phase = QStringLiteral("runtime"));

private:
    Publish m_publish;
    std::map<QString, std::unique_ptr<sshagent::AgentRelay>> m_relays;
};

} // namespace paddock::sandbox
