// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's writes of Paddock's own settings of kits (kit-settings.yaml): the folders and
// variables a kit's sandboxes share and their least isolation. One writer, and one place that
// checks a share, as it checks `--mount` and `--env` at a create.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

/**
 * Registers (KIT: the kit's folder, absolute):
 *
 *   kit.settings      {kit} → {kit, file, isolation (null when none), mounts: ["HOST:INSIDE:MODE"],
 *                     env: {NAME: VALUE}}
 *   kit.shares.set    {kit, mounts: ["HOST[:INSIDE][:ro|rw]"], env: {NAME: VALUE}} → {kit, file,
 *                     mounts, env, changed, warnings: [..]}: replaces the kit's shares whole.
 *                     HOST must be absolute (or start with ~). Each folder and variable is checked
 *                     as a create checks them (SharedFolders.h); one refused refuses the call
 *                     (`kit-failed`, naming it), and nothing is written. Host paths are kept
 *                     canonical. Sandboxes created after the answer get them.
 *   kit.isolation.set {kit, isolation: container|gvisor} → {kit, file, isolation}: the least
 *                     isolation of the kit's sandboxes (container clears it).
 */
void registerKitSettingsMethods(api::Server &server);

} // namespace paddock::sandbox
