// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "events/EventStore.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <cstdint>
#include <optional>

namespace paddock::api {
class Server;
class PendingReply;
class Reply;
} // namespace paddock::api

namespace paddock::sandbox {

class SandboxService;

/**
 * @brief The daemon's methods over the network policy and the log of refusals, for the
 * window's Network page and the `paddock policy` commands.
 *
 * Rules are kept in policy.yaml through SandboxService's PolicyStore, so a change applies to
 * the next connection; a rule promoted into a kit goes to the kit's spec.yaml through
 * KitEditor (one line changed) and the kit's sandboxes use it at once.
 *
 * Methods (params → result; errors carry a sentence for the user):
 * - `policy.get` {} → {preset, presetDescription, rules: [RULE..], resolve: {HOST: ADDRESS}}:
 *   the rules of policy.yaml, then the `permissions.network` of the kit of each running
 *   sandbox (scope `kit:KIT`, origin `kit`, `source`: that kit's spec.yaml, `readOnly`: true:
 *   they are edited there), and the resolver overrides; `fileError` (empty when none) says why
 *   policy.yaml as it is on disk cannot be used: the last good policy stays in force.
 * - `policy.check`: a destination decided as the proxy would (PolicyCheck.h).
 * - `policy.preset` {preset: deny-all|balanced|allow-all} → {preset}.
 * - `policy.add` {pattern, decision?: allow|deny (allow), scope?: global|sandbox:NAME|kit:NAME
 *   (global)} → {rule: RULE, existed: bool}.
 * - `policy.update` {id, pattern?, decision?, scope?} → {rule: RULE}: replaces the rule.
 * - `policy.remove` {id} → {removed: N}.
 * - `policy.resolve.set|remove|list`: resolver overrides (PolicyResolveMethods.h).
 * - `policy.reload` {} → {rules: N}: reads policy.yaml now rather than when the file watch
 *   says it changed, and applies it before answering (a hand edit, at once).
 * - `policy.allow` {host, port?: 443, sandbox?, where?: sandbox|kit|global (sandbox), what?:
 *   exact|wildcard|deep|hostport (exact)} → {pattern, where, scope?, kitFile?, rule?,
 *   changed: bool, message}: allows a refused destination. The pattern is made from the host:
 *   exact is the host itself, wildcard `*.PARENT`, deep `**.PARENT` (PARENT: the host without
 *   its first label, which must not be a public suffix, so a pattern never covers more than
 *   one registrable domain), hostport `host:port`; a port other than 443 is part of every
 *   pattern, so the refused request passes. `where: kit` adds it to the `permissions.network
 *   .allow` list of the spec.yaml the sandbox was made from, and the kit's sandboxes read it
 *   again at once; the others add a rule of scope `sandbox:NAME` or `global` (origin approval).
 * - `events.flush` {} → {}: every event of what the proxy did before the call is in the event
 *   log when this returns (a refusal whose 403 a client has): what a reader of the log calls
 *   first (`paddock policy log`, exports, `events.denials` itself).
 * - `events.denials` {since?: ISO time, sandbox?, limit?: 500, offset?: 0} → {denials:
 *   [DENIAL..], total}: refusals grouped by host and sandbox, most recent first, `limit` of
 *   them from `offset` (an answer must fit a protocol line: read a long list in pages; the
 *   pages after the first come from the list as it was at the first); DENIAL is {host, sandbox, kit,
 *   port, protocol, reason, rule, count, firstSeen, lastSeen} (of the most recent refusal for
 *   port, protocol, reason and rule). A dismissed group is left out until refused again, and
 *   then counts only the refusals since its dismissal.
 * - `events.log`, `events.export`, `events.requests`: the event log as readers get it
 *   (EventLogMethods.h).
 * - `events.dismiss` {host, sandbox} → {dismissed: TIME}: hides the group; kept in
 *   `paths::stateDir()/dismissed-denials.json` so it survives a restart.
 *
 * - `grant.list` {} → {grants: [{kit, patterns: [..]}], file}: the host grants approved in
 *   host-grants.yaml (HostGrantAdmission).
 * - `grant.approve` {kit: DIR, kitArgs?, patterns?: [..]} → {kit, approved: [..]}: approves the
 *   kit's host grants, or those of them named; the kit's running sandboxes use them at once.
 * - `grant.revoke` {kit: NAME, patterns?: [..]} → {kit, removed: N}: withdraws the kit's
 *   approvals (all, or those named); its running sandboxes lose them at once.
 *   `policy.allow` with `where: kit` for an address of this computer or its networks approves
 *   that grant for the kit too: the user chose it in the refusal's dialog.
 *
 * RULE: {id, scope, pattern, decision, origin, created (ISO or null), program, request?, method?,
 * path?, source?, readOnly?}.
 *
 * Topic `policy`: an event {changed: policy|kit|sandbox, kit?, sandbox?} whenever the rules
 * listed may have changed (through these methods, the CLI, a hand edit of policy.yaml, a rule
 * promoted into a kit, or a sandbox created, started, stopped or removed).
 */
class PolicyService : public QObject
{
    Q_OBJECT
public:
    /** The refusals one `events.denials` call returns unless told otherwise. */
    static constexpr int kDefaultDenialLimit = 500;

    PolicyService(api::Server &server, SandboxService &sandboxes, QObject *parent = nullptr);
    ~PolicyService() override;

    /** The topic announcing every change of the rules in force. */
    static QString policyTopic();

    /** Reads the dismissed groups and registers the methods; call after SandboxService::start(). */
    void start();

    /** `policy.add`. */
    api::Reply addRule(const QJsonObject &params);
    /** `policy.allow`. */
    void allow(const QJsonObject &params, const api::PendingReply &reply);

private:
    void registerMethods();
    QJsonObject policyJson();
    static api::Reply listGrants();                      ///< grant.list
    api::Reply approveGrants(const QJsonObject &params); ///< grant.approve
    api::Reply revokeGrants(const QJsonObject &params);  ///< grant.revoke
    void grantsChanged(const QString &kitName);
    /** `policy.allow` with `where: kit`: @p pattern added to the allowlist of @p sandbox's kit, in its spec.yaml. */
    void allowForKit(const QString &sandbox, const QString &pattern, QJsonObject result,
                     const api::PendingReply &reply);
    void denials(const QJsonObject &params, const api::PendingReply &reply);
    void dismiss(const QJsonObject &params, const api::PendingReply &reply);
    static QJsonObject denialsPage(const QList<events::BlockedEntry> &sorted, int offset, int limit);
    void loadDismissed();
    Result<void> saveDismissed() const;

    api::Server &m_server;
    SandboxService &m_sandboxes;
    /** "SANDBOX\nHOST" → when it was dismissed. */
    QHash<QString, QDateTime> m_dismissed;
    /** The last list of groups, for the pages after the first. */
    QList<events::BlockedEntry> m_paged;
    QString m_pagedFilter;
    QElapsedTimer m_pagedAt;
};

} // namespace paddock::sandbox
