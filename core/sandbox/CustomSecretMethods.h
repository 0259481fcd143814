// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's writes of custom secrets (`paddock secret set-custom`): the value into the
// keychain and the description into custom-secrets.json, here only, applied to the running
// sandboxes before the caller hears back.
#pragma once

#include <functional>

namespace paddock::api {
class Server;
}

namespace paddock::secrets {
class SecretStore;
}

namespace paddock::sandbox {

/**
 * Registers, on the daemon's @p store; @p changed applies the change to running sandboxes:
 *
 *   secret.setCustom {name, hosts: [..], header? | anywhere: true, body?, variable, sandbox?,
 *                     value} → {name, hosts, header?, anywhere, body, variable, placeholder,
 *                     sandbox?}: stores or replaces the secret; a secret of the same name keeps
 *                     its placeholder, a new one gets a fresh one. The value comes from a client
 *                     of the same uid over the owner-only socket; it is never logged nor sent back.
 *                     With @c source (SecretSource::toJson()) instead of @c value, the value comes
 *                     from that command or reference, run by the daemon; no value is stored.
 *
 * Errors: `invalid-params`, `keychain-unavailable`, `keychain-error`.
 */
void registerCustomSecretMethods(api::Server &server, secrets::SecretStore &store, std::function<void()> changed);

} // namespace paddock::sandbox
