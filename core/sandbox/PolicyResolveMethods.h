// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's resolver overrides: policy.yaml's `resolve` map, written here only, so the
// proxy resolves as set before the caller hears back.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::policy {
class PolicyStore;
}

namespace paddock::sandbox {

/**
 * Registers, on @p store (the daemon's, whose change signal applies overrides to the proxy):
 *
 *   policy.resolve.set    {host, address}  → {host, address}: HOST (lower-cased) now resolves
 *                                            to ADDRESS (an IPv4 or IPv6 address)
 *   policy.resolve.remove {host}           → {removed: N}; no override for HOST is the error
 *                                            `no-such-rule`
 *   policy.resolve.list   {}               → {overrides: [{host, address}]}, sorted by host
 */
void registerPolicyResolveMethods(api::Server &server, policy::PolicyStore &store);

} // namespace paddock::sandbox
