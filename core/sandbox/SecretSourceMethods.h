// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's write of a key's dynamic source (`paddock secret set NAME --command|--ref`): the
// source into secret-sources.json and the name into the secret index, here only, applied to the
// running sandboxes before the caller hears back.
#pragma once

#include <functional>

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

/**
 * Registers; @p changed applies the change to running sandboxes:
 *
 *   secret.setSource {service, sandbox?, source: SOURCE} → {service, sandbox?, source: SOURCE}:
 *                     the key's value comes from SOURCE (SecretSource::toJson(): a command, run
 *                     by the daemon on the host, or an `op` reference) instead of the keychain.
 *                     A pasted value is left in the keychain, unused, as before.
 *
 * Errors: `invalid-params`, `keychain-error` (the files could not be written).
 */
void registerSecretSourceMethods(api::Server &server, std::function<void()> changed);

} // namespace paddock::sandbox
