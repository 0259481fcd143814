#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sandbox start under bubblewrap: the runtime's own start against bare bwrap, then
# `paddock run --rm --kit shell -- true` as a user types it (CliStart.h), with the root over the
# host's system through the kernel's overlayfs and through fuse-overlayfs, beside bare bwrap:
# as the running user and, run as root, as the ordinary user paddock-tester too
# (tests/support/run-as-user.sh makes it).
#
#   run.sh PADDOCK_BIN SANDBOX_START_BENCH      (BENCH_RUNS: runs of each, default 30)
set -euo pipefail
paddock=$(readlink -f "$1")
bench=$(readlink -f "$2")
runs=${BENCH_RUNS:-30}
here=$(cd "$(dirname "$0")" && pwd)

"$bench"
echo
"$bench" --cli "$paddock" "$runs"
if [ "$(id -u)" -eq 0 ]; then
    echo
    "$here/../../support/run-as-user.sh" "$bench" --cli "$paddock" "$runs"
fi
