#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A sandbox on another computer's engine against the same sandbox on the local engine: a
# 256 MiB download and the rate of short requests, each through Paddock's proxy on this
# computer; the remote one's connections go over the daemon's stream to the engine
# (RemoteRelay, paddock-init --proxy-mux). The "remote" engine is a second dockerd on TLS
# loopback (tests/integration/engine-remote/LabEngine.h), so the figures are the relay's cost,
# without a real network's.
#
#   run.sh PADDOCK_BIN REMOTE_RELAY_BENCH      (BENCH_RUNS: downloads of each, default 3;
#                                               BENCH_REQUESTS: short requests of each, default 200)
# Needs root (a second Docker engine; skipped otherwise) and the machine's Docker engine.
set -euo pipefail
bench=$(readlink -f "$2")
if [ "$(id -u)" -ne 0 ]; then
    echo "remote-relay: skipped, it needs root to start a second Docker engine"
    exit 0
fi
"$bench" "${BENCH_RUNS:-3}" "${BENCH_REQUESTS:-200}"
