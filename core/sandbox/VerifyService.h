// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QSet>
#include <QString>

#include <memory>

namespace paddock::api {
class Server;
class PendingReply;
} // namespace paddock::api

namespace paddock::sandbox {

class AgentPermsService;
class SandboxService;

/**
 * @brief The daemon's checklist: the course's checks run against a running sandbox (see
 * runChecklist()), through the runtime SandboxService owns, so no client reaches a runtime.
 *
 * Methods (params → result; errors carry a sentence for the user):
 * - `sandbox.verify` {name, run?: TOKEN} → {sandbox, kit, passed, checks: [CHECK..]}: runs the
 *   checks in order (credential, blocked, workspace, log, key), each CHECK {id, title, status:
 *   ok|failed|skipped, message, details: [..]}. @c passed is true when no check failed. Takes
 *   seconds: the probe's refusal is awaited in the event log, and the key check asks the
 *   provider through `paddock secret test SERVICE --kit DIR` (skipped when that program is not
 *   installed beside the daemon).
 *
 * Each check, as it ends, is also an event on topic `verify`: {run, sandbox, kit, index,
 * total, check: CHECK}. @c run is the caller's TOKEN (at most 64 characters; a fresh one when
 * absent), so a client that subscribes first can tell its own run's checks from another's.
 *
 * Errors: `invalid-params` (no name, a TOKEN too long), `no-such-sandbox`, `not-running` (the
 * sandbox must run for commands to run inside it), `busy` (a checklist of that sandbox runs
 * already).
 */
class VerifyService : public QObject
{
    Q_OBJECT
public:
    static QString topic() { return QStringLiteral("verify"); }
    /** `paddock` beside the daemon's executable (installed, or in the build tree); empty when absent. */
    static QString findCliProgram();

    /** @p agentPerms (may be null) answers the agent check's question about the agent's rules. */
    VerifyService(api::Server &server, SandboxService &sandboxes, const AgentPermsService *agentPerms,
                  QObject *parent = nullptr);
    ~VerifyService() override;

    /** Registers the method and the topic. */
    void start();

private:
    void verify(const QJsonObject &params, const api::PendingReply &reply);

    api::Server &m_server;
    SandboxService &m_sandboxes;
    const AgentPermsService *m_agentPerms;
    QSet<QString> m_running;      ///< sandboxes whose checklist runs now
    std::shared_ptr<int> m_alive; ///< workers check it before reporting back
};

} // namespace paddock::sandbox
