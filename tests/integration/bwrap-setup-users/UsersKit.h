// SPDX-License-Identifier: GPL-3.0-or-later
// The kit the users test writes (kept out of the test source, whose moc run trips on raw strings).
#pragma once

namespace paddock::test::kits {

/**
 * Each setup command records `id -u` in the home; the root install command also writes to
 * the system, which lands in the sandbox's own root and never on the host.
 */
const char *const kUsersKit = R"(schemaVersion: "2"
kind: sandbox
name: users-probe
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["id -u"]
setup:
  install:
    - command: id -u > "$HOME/install-default.txt"
    - command: (touch /usr/paddock-root-was-here 2>/dev/null && echo wrote || echo read-only) > "$HOME/install-usr.txt"
      user: root
    - command: id -u > "$HOME/install-agent.txt"
      user: "1000"
    - command: id -u > "$HOME/install-root-again.txt"
      user: "0"
  startup:
    - command: [sh, -c, "id -u > \"$HOME/startup-default.txt\""]
    - command: [sh, -c, "id -u > \"$HOME/startup-root.txt\""]
      user: "0"
    - command: [sh, -c, "id -u > \"$HOME/startup-other.txt\""]
      user: "1234"
)";

/** A user a sandbox sharing the host's system cannot map. */
const char *const kUnknownUserKit = R"(schemaVersion: "2"
kind: sandbox
name: unknown-user
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["true"]
setup:
  install:
    - command: "true"
      user: postgres
)";

} // namespace paddock::test::kits
