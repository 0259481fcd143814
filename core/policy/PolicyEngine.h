// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/Decision.h"
#include "policy/PolicyData.h"
#include "policy/Snapshot.h"

#include <QHash>
#include <QStringList>

#include <memory>
#include <mutex>

namespace paddock::policy {

/** @brief Kit rules built from a kit's permissions.network lists, and the patterns refused. */
struct KitRules
{
    QList<Rule> rules;
    QStringList errors; ///< "PATTERN: why", one per refused pattern
};

/** Turns a kit's `permissions.network.allow`/`deny` into rules of scope kit:@p kit. */
KitRules kitNetworkRules(const QString &kit, const QStringList &allow, const QStringList &deny);

/**
 * @brief Answers "may sandbox S, running kit K, connect to HOST:PORT?".
 *
 * All scopes count together: the global preset and rules, the sandbox's rules and the kit's
 * permissions. Deny wins over allow; no match is deny. Decisions read an immutable snapshot;
 * a change builds a new one and swaps it in, so the next decision sees it and readers hold a
 * lock only while copying a pointer. Every method is safe to call from any thread.
 */
class PolicyEngine
{
public:
    /** @p local: this computer's addresses for the rebinding guard (LocalAddresses::system() when null). */
    explicit PolicyEngine(std::shared_ptr<const LocalAddresses> local = nullptr);

    /** Replaces the stored policy (preset, rules, overrides). */
    void setPolicy(const PolicyData &data);
    /** Sets the network permissions of kit @p kit (scope is forced to kit:@p kit). */
    void setKitRules(const QString &kit, const QList<Rule> &rules);
    void removeKitRules(const QString &kit);

    std::shared_ptr<const Snapshot> snapshot() const;
    Decision decide(const Request &request) const;
    /**
     * Explains the decision for @p target (`host`, `host:port`, `[v6]:port`; port 443 by
     * default) from @p sandbox, with the command that would change a refusal: the text of
     * the proxy's 403 body and of `paddock policy check`.
     */
    Explanation check(QStringView target, const QString &sandbox, const QString &kit = {},
                      const QList<QHostAddress> &addresses = {}) const;
    /** The decision for @p request (a connection or one HTTP request) and the command that would change a refusal. */
    Explanation explain(const Request &request) const;
    /** The trusted address configured for @p host, if any: callers use it instead of DNS. */
    std::optional<QHostAddress> resolveOverride(QStringView host) const;
    /** The addresses the guard counts as this computer's own. */
    const LocalAddresses &localAddresses() const { return *m_local; }

private:
    void rebuildLocked();

    std::shared_ptr<const LocalAddresses> m_local;
    std::mutex m_writeMutex; ///< serialises writers; readers never take it
    PolicyData m_data;
    QHash<QString, QList<Rule>> m_kitRules;

    mutable std::mutex m_snapshotMutex; ///< held only to copy or swap m_snapshot
    std::shared_ptr<const Snapshot> m_snapshot;
};

} // namespace paddock::policy
