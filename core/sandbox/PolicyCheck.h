// SPDX-License-Identifier: GPL-3.0-or-later
// `policy.check`: a destination decided by the daemon's policy in force, as its proxy would.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

class SandboxService;

/**
 * Registers `policy.check` {target, sandbox?, kit?: DIR} → {allowed, host, port, rule, basis,
 * reason, fix?, note?, warnings?}: TARGET (`host`, `host:port`, `[v6]:port`; port 443 by
 * default) decided by the daemon's policy engine from SANDBOX, its kit's rules counted when it
 * runs; with `kit`, that kit's `permissions.network` instead (its pattern problems in
 * `warnings`). An allowed name is resolved as the proxy would (override, else DNS, off the
 * daemon's thread) so the rebinding guard sees the addresses; `note` says when it does not
 * resolve. A target that is no host is `invalid-params`; a kit that does not load, `invalid-kit`.
 */
void registerPolicyCheck(api::Server &server, SandboxService &sandboxes);

} // namespace paddock::sandbox
