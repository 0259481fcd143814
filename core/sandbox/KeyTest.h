// SPDX-License-Identifier: GPL-3.0-or-later
// `secret.test`: one request to a provider with a stored key, sent the way a sandbox's request
// is sent (its interception, the key read as the proxy needs it, the upstream proxy), so the
// person learns whether the key works before an agent finds out.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

class SandboxService;

/**
 * Registers `secret.test {service, sandbox?, kit?, kitArgs?, url?}` on @p server. The credential
 * comes from the kit directory `kit` (its arguments in `kitArgs`), else from the record of
 * `sandbox`, else from any sandbox's record; `url` defaults to the kit's test URL. Answers
 * `{service, url, host, status, statusLine, accepted}` once the provider answered; fails with
 * the reason when no key is stored, the host is not one its binding approves, or no answer came.
 */
void registerKeyTest(api::Server &server, SandboxService &sandboxes);

} // namespace paddock::sandbox
