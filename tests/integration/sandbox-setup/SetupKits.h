// SPDX-License-Identifier: GPL-3.0-or-later
// The kits the setup tests write (kept out of the test source, whose moc run trips on raw strings).
#pragma once

namespace paddock::test::kits {

const char *const kSetupKit = R"(schemaVersion: "2"
kind: sandbox
name: setup-probe
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["true"]
setup:
  install:
    - command: echo installed >> "$HOME/installed.txt"
    - command: echo second >> "$HOME/installed.txt"
  startup:
    - command: [sh, -c, "echo started >> \"$HOME/startups.txt\""]
    - command: [sh, -c, "echo background > \"$HOME/background.txt\""]
      background: true
  files:
    - path: /home/agent/.config/tool.conf
      content: "setting=1\n"
      mode: "0600"
    - path: /etc/tool.conf
      content: "outside\n"
)";

const char *const kFailingKit = R"(schemaVersion: "2"
kind: sandbox
name: failing-install
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["true"]
setup:
  install:
    - command: echo "cannot install" >&2; exit 4
)";

} // namespace paddock::test::kits
