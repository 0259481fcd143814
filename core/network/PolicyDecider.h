// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/PolicyEngine.h"
#include "proxy/ProxyTypes.h"
#include "proxy/Resolver.h"

#include <QHostAddress>
#include <QMap>
#include <QSet>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

namespace paddock::network {

/**
 * Decides @p query with @p engine: the rule that decided, its reason, and for a refusal the
 * command that would allow it (the text of the proxy's 403 body).
 */
proxy::Verdict decide(const policy::PolicyEngine &engine, const proxy::ConnectionQuery &query);

/**
 * @brief What each sandbox does with a connection that no rule covers, when not just refuse.
 *
 * - **Learning**: let it through and record it as learned, so a policy can be proposed from
 *   what the agent needed.
 * - **Asking**: hold it while a person decides (proxy::Verdict::ask); asking wins over learning.
 *
 * Both widen only the default: a host an explicit rule denies stays refused, and so does an
 * address on the host's own or the local network (loopback, private, link-local) that no
 * trusted resolver override leads to. Safe to use from any thread.
 */
class SandboxModes
{
public:
    void setLearning(const QString &sandbox, bool enabled);
    bool isLearning(const QString &sandbox) const;
    void setAsking(const QString &sandbox, bool enabled);
    bool isAsking(const QString &sandbox) const;
    /** Forgets @p sandbox (removed). */
    void forget(const QString &sandbox);

private:
    mutable std::mutex m_mutex;
    QSet<QString> m_learning;
    QSet<QString> m_asking;
};

/** The rule name events and 403s give a connection ask mode decided (held, then timed out or answered). */
inline constexpr QLatin1String kAskRule{"ask"};

/**
 * @brief What a learned connection would have been refused by. The proxy carries the label of
 * the rule that let a connection through to its event; for a learned one that label holds
 * this, and toNetworkEvent() turns it back into a `learned` event with this rule and reason.
 */
struct LearnedRefusal
{
    QString rule;
    QString reason;

    QString toLabel() const;
    static std::optional<LearnedRefusal> fromLabel(const QString &label);
};

/**
 * Decides @p query with @p engine; for a connection that only the default refuses, asks
 * (Verdict::ask) or lets it through as learned when @p learning says so for the sandbox
 * (see SandboxModes).
 */
proxy::Verdict decide(const policy::PolicyEngine &engine, const SandboxModes &learning,
                      const proxy::ConnectionQuery &query);

/**
 * @brief A proxy Decider backed by @p engine and @p learning, which it keeps alive. The engine
 * must outlive the proxy that uses the Decider.
 */
proxy::Decider policyDecider(const policy::PolicyEngine &engine, std::shared_ptr<const SandboxModes> learning);

/**
 * @brief A proxy Decider backed by @p engine. The engine must outlive the proxy that uses the
 * Decider; rule changes made to it apply to the next connection.
 */
proxy::Decider policyDecider(const policy::PolicyEngine &engine);

/**
 * Makes the proxy's resolver follow the policy's trusted overrides (every port): entries in
 * @p previous but not in @p next are removed, the others set. Returns @p next, to be passed
 * as @p previous next time.
 */
QMap<QString, QHostAddress> syncResolveOverrides(proxy::ResolveOverrides &resolver,
                                                 const QMap<QString, QHostAddress> &previous,
                                                 const QMap<QString, QHostAddress> &next);

} // namespace paddock::network
