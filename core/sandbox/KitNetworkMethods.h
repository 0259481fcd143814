// SPDX-License-Identifier: GPL-3.0-or-later
// `kit allow` and `kit deny` as the daemon carries them out: a kit's permissions.network edited
// in its spec.yaml (kit/KitEditor.h) and in force for the kit's running sandboxes on return.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

class SandboxService;

/**
 * Registers:
 *
 *   kit.network.edit {kit: ABSOLUTE FOLDER or spec.yaml, list: allow|deny, patterns: [..],
 *                    remove?: bool} → {file, changed, reports: [..], kit: NAME, deny: [..]}:
 *                    each pattern added to (or removed from) the list, all in one save that
 *                    validates the kit first, or none. @c reports says what each did, in a
 *                    sentence naming the file; @c deny is the kit's deny list afterwards.
 *                    When something changed, the running sandboxes of the kit decide with the
 *                    new lists from their next connection, before the answer, and the topic
 *                    `policy` says {changed: kit, kit}.
 *
 * Errors: `invalid-params`, `kit-failed` (the sentence says why: no such kit, a pattern refused,
 * a kit that would no longer validate, which is then left as it was).
 */
void registerKitNetworkMethods(api::Server &server, SandboxService &sandboxes);

} // namespace paddock::sandbox
