// SPDX-License-Identifier: GPL-3.0-or-later
// The kits and the image the root tests use (kept out of the test source, whose moc run trips
// on raw strings).
#pragma once

namespace paddock::test::kits {

/**
 * Installs a tool where published kits put theirs, as root, at creation. Its image is not
 * loaded and no engine answers: the host's system is the base.
 */
const char *const kToolKit = R"(schemaVersion: "2"
kind: sandbox
name: root-tool
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["kit-tool"]
setup:
  install:
    - command: printf '#!/bin/sh\necho kit-tool works\n' > /usr/local/bin/kit-tool && chmod 755 /usr/local/bin/kit-tool
)";

/**
 * Replaces one host program and removes another as root, at creation; its program shows what
 * it sees and writes into /usr/bin itself.
 */
const char *const kReplaceKit = R"(schemaVersion: "2"
kind: sandbox
name: root-replace
sandbox:
  image: debian:12
  entrypoint: [sh, -c]
  command: ["cat /usr/bin/yes; test -e /usr/bin/tac || echo tac-removed; touch /usr/bin/by-agent && echo agent-wrote"]
setup:
  install:
    - command: rm /usr/bin/yes && echo replaced > /usr/bin/yes && rm /usr/bin/tac
)";

/** A kit that names an image and nothing else: the image says what runs. */
const char *const kImageKit = R"(schemaVersion: "2"
kind: sandbox
name: root-image
sandbox:
  image: paddock-test/root-image:1
)";

/** An image from scratch: busybox, a marker, a file removed in a later layer, its own settings. */
const char *const kImageDockerfile = R"(FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
RUN echo from-the-image > /marker && mkdir -p /usr/bin /etc && echo "root:x:0:0:root:/root:/bin/sh" > /etc/passwd && rm /bin/wget
ENV IMAGE_VAR=from-image
CMD ["sh", "-c", "echo image-cmd $IMAGE_VAR"]
)";

} // namespace paddock::test::kits
