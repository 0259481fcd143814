#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's second command: runs every Paddock test.
#
#  1. installs what is missing (installer/setup-debian.sh),
#  2. builds the fuzz targets with clang and libFuzzer in build-fuzz/,
#  3. builds everything with -Werror in build-tests/,
#  4. starts what the tests need — a private D-Bus session with GNOME Keyring unlocked,
#     an Xvfb display and a Docker engine — and runs ctest there (the fuzzers run briefly as
#     ctest tests); a service that does not start fails the command, naming it,
#  5. stops what a test killed at its timeout left running (tests/reap-leftovers.sh),
#  6. prints how many test functions skipped and why (tests/skip-summary.sh): a skip that
#     tests/allowed-skips.txt does not list fails the command.
#
# Environment: PADDOCK_TEST_JOBS (ctest parallelism, default 2), PADDOCK_FUZZ_SECONDS
# (time per fuzzer, default 30), extra arguments are passed to ctest (e.g. -R kit).
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)

./installer/setup-debian.sh

jobs=$(nproc)
if command -v clang++ >/dev/null 2>&1; then
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DPADDOCK_BUILD_FUZZERS=ON -DPADDOCK_BUILD_GUI=OFF >build-fuzz.log 2>&1 \
        || { cat build-fuzz.log; exit 1; }
    cmake --build build-fuzz --parallel "$jobs" --target paddock_fuzzers
    fuzz_dir="$ROOT/build-fuzz"
else
    echo "run-all: clang is missing, the fuzzers will only replay their corpus." >&2
    fuzz_dir=""
fi

cmake -S . -B build-tests -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPADDOCK_WERROR=ON \
    -DPADDOCK_FUZZER_BUILD_DIR="$fuzz_dir"
cmake --build build-tests --parallel "$jobs"

status=0
dbus-run-session -- "$ROOT/tests/with-services.sh" \
    ctest --test-dir "$ROOT/build-tests" --output-on-failure \
    --parallel "${PADDOCK_TEST_JOBS:-2}" "$@" || status=$?
# What a test killed at its timeout left running (its daemon, its sandboxes) is stopped.
"$ROOT/tests/reap-leftovers.sh" "$ROOT/build-tests"
# How many test functions skipped and why; a skip not listed as allowed fails the command.
"$ROOT/tests/skip-summary.sh" "$ROOT/build-tests/Testing/Temporary/LastTest.log" || [ "$status" -ne 0 ] || status=1
exit "$status"
