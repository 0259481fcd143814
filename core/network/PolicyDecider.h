// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/PolicyEngine.h"
#include "proxy/ProxyTypes.h"
#include "proxy/Resolver.h"

#include <QHostAddress>
#include <QMap>
#include <QString>

namespace paddock::network {

/**
 * Decides @p query with @p engine: the rule that decided, its reason, and for a refusal the
 * command that would allow it (the text of the proxy's 403 body).
 */
proxy::Verdict decide(const policy::PolicyEngine &engine, const proxy::ConnectionQuery &query);

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
