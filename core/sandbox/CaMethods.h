// SPDX-License-Identifier: GPL-3.0-or-later
// The local certificate authority and the upstream authorities the proxy trusts, as the
// daemon keeps them: the authority it signs with is the one these methods show and rotate.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

class CredentialInjection;

/**
 * Registers (ISO: an ISO 8601 time, UTC; FINGERPRINT: SHA-256, lower-case hex):
 *
 *   ca.show    {} → {created: bool, subject, fingerprintSha256, notBefore: ISO, notAfter: ISO,
 *              path, pem}: the local authority, made first when there is none (@c created).
 *   ca.rotate  {} → {fingerprintSha256}: a new key and certificate replace the old ones; the
 *              bundles sandboxes trust hold it before the answer.
 *   ca.trust   {file: ABSOLUTE} → {subject, fingerprintSha256, notAfter: ISO}: a CA certificate
 *              (PEM or DER; basic constraints CA:TRUE) added to those the proxy verifies
 *              upstream servers against and sandboxes trust, the bundles written again.
 *   ca.trusted {} → {authorities: [{fingerprintSha256, subject, notAfter: ISO, path}]}.
 *   ca.untrust {authority: FINGERPRINT (8 hex digits at least, colons allowed) | file:
 *              ABSOLUTE} → {removed: FINGERPRINT?}: an authority added with ca.trust removed.
 *
 * The authority's private key stays in the keychain and in this process. Errors:
 * `invalid-params`, `keychain-unavailable` (the sentence says what to install), `trust-failed`.
 */
void registerCaMethods(api::Server &server, CredentialInjection &credentials);

} // namespace paddock::sandbox
