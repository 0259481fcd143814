#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The window's start-up benchmark under its own Xvfb display (a real X server, as a
# desktop has), unless DISPLAY is already set, with the paddockd built beside PADDOCK_BIN
# running in a private home. Usage: run.sh PADDOCK_BIN GUI_STARTUP_BENCH_BIN.
# Environment: BENCH_GUI_RUNS (default 7), BENCH_GUI_SETTLE_MS (default 5000).
set -euo pipefail
PADDOCK_BIN=${1:?usage: run.sh PADDOCK_BIN GUI_STARTUP_BENCH_BIN}
BENCH=${2:?usage: run.sh PADDOCK_BIN GUI_STARTUP_BENCH_BIN}
BENCH_PADDOCKD=$(dirname "$PADDOCK_BIN")/paddockd
[ -x "$BENCH_PADDOCKD" ] || { echo "run.sh: no paddockd beside $PADDOCK_BIN" >&2; exit 1; }
BENCH_PADDOCK=$(realpath "$PADDOCK_BIN")
export BENCH_PADDOCKD BENCH_PADDOCK

if [ -z "${DISPLAY:-}" ]; then
    command -v Xvfb >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends xvfb >/dev/null
    display=95
    while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do
        display=$((display + 1))
    done
    Xvfb ":$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    trap 'kill "$xvfb" 2>/dev/null || true' EXIT
    for _ in $(seq 50); do
        [ -e "/tmp/.X11-unix/X$display" ] && break
        sleep 0.1
    done
    export DISPLAY=":$display"
fi
# Only the X11 platform: the figures are for a window on a display server.
unset QT_QPA_PLATFORM
"$BENCH"
