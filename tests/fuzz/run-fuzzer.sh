#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run-fuzzer.sh FUZZER SEED_DIR...: runs a libFuzzer binary for PADDOCK_FUZZ_SECONDS
# (default 30) from the seed corpus. New inputs go to a temporary directory, never into
# the source tree. A crash, leak, timeout (10 s per input) or out-of-memory fails.
set -eu
fuzzer=$1
shift
if [ ! -x "$fuzzer" ]; then
    echo "run-fuzzer: $fuzzer was not built" >&2
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
exec "$fuzzer" -max_total_time="${PADDOCK_FUZZ_SECONDS:-30}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" "$@"
