#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds what the benchmarks need (if it is not built yet) and runs every benchmark under
# tests/bench/, printing their figures. Not part of ctest: figures are not pass/fail.
#
# A folder tests/bench/NAME/ is run as NAME/run.sh PADDOCK_BIN NAME-bench when it has a
# run.sh, else as the NAME-bench executable alone. `inject` runs real sandboxes (bubblewrap, a
# private D-Bus session with GNOME Keyring) beside mitmproxy, squid and direct access;
# `secret-guard` is the secret guard on large request bodies, beside the same interception without it.
#
# Environment: PADDOCK_BENCH_BUILD_DIR (default build-bench, RelWithDebInfo),
# PADDOCK_BENCH_JOBS (default 2). Arguments: names of benchmarks to run (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${PADDOCK_BENCH_BUILD_DIR:-$ROOT/build-bench}
JOBS=${PADDOCK_BENCH_JOBS:-2}

names=()
if (($#)); then
    names=("$@")
else
    for dir in tests/bench/*/; do
        [ -f "$dir/CMakeLists.txt" ] && names+=("$(basename "$dir")")
    done
fi

if [ ! -f "$BUILD/build.ninja" ]; then
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPADDOCK_BUILD_GUI=OFF
fi
# The window's start-up (gui-startup) and the Network page's scrolling (denials-scroll) need
# the GUI, which the benchmark build leaves out.
for name in "${names[@]}"; do
    if [ "$name" = gui-startup ] || [ "$name" = denials-scroll ]; then
        cmake -S . -B "$BUILD" -DPADDOCK_BUILD_GUI=ON >/dev/null
    fi
done
# The daemon and the sandbox's init: the benchmarks that run sandboxes start them.
targets=(paddock paddockd paddock-init)
for name in "${names[@]}"; do targets+=("$name-bench"); done
ninja -C "$BUILD" -j "$JOBS" "${targets[@]}"

paddock_bin=$(find "$BUILD" -maxdepth 3 -type f -name paddock -perm -u+x | head -n1)
status=0
for name in "${names[@]}"; do
    bench=$(find "$BUILD/tests/bench/$name" -maxdepth 1 -type f -name "$name-bench" -perm -u+x | head -n1)
    echo "######## $name"
    if [ -x "tests/bench/$name/run.sh" ]; then
        "tests/bench/$name/run.sh" "$paddock_bin" "$bench" || status=1
    else
        "$bench" || status=1
    fi
    echo
done
exit $status
