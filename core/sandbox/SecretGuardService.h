// SPDX-License-Identifier: GPL-3.0-or-later
// `sandbox.guard`: a sandbox's secret-egress guard, as `paddock guard` shows and changes it.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

/**
 * Registers `sandbox.guard {name, mode?: refuse|redact|off, allow?: {file, name}, disallow?:
 * {file, name}}` on @p server. Changes go into the sandbox's record (SandboxRecord), which its
 * intercepted connections read again before their next request. Answers `{name, mode, allowed:
 * [{file, name}], values: [{file, name}], skipped: [..], files: [..]}`: the values of the
 * workspace the guard looks for, by file and name (never a value), those it leaves out and why,
 * and the files it read. Fails with `no-such-sandbox`, or `invalid-params` for an unknown mode
 * or a value not in the workspace.
 */
void registerSecretGuard(api::Server &server);

} // namespace paddock::sandbox
