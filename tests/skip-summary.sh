#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Ends the test command: prints how many test functions skipped and why, from ctest's log.
#
#   skip-summary.sh LASTTEST_LOG
#
# Under the test command the machine has everything the suite needs (tests/with-services.sh),
# so a skip is allowed only when tests/allowed-skips.txt lists it with its reason: any other
# fails this script. With PADDOCK_TESTS_PARTIAL=1 every skip is only reported.
set -eu
log=$1
allowed="$(dirname "$0")/allowed-skips.txt"
[ -f "$log" ] || { echo "skip-summary: no ctest log at $log" >&2; exit 1; }

skips=$(grep -a '^SKIP   : ' "$log" | sed 's/^SKIP   : //' | sort -u || true)
count=0
unexpected=0
if [ -n "$skips" ]; then
    count=$(printf '%s\n' "$skips" | wc -l)
fi
echo "Skipped test functions: $count"
if [ "$count" -gt 0 ]; then
    printf '%s\n' "$skips" | while IFS= read -r line; do
        name=${line%% *}
        reason=${line#"$name"}
        if grep -v '^#' "$allowed" | cut -d' ' -f1 | grep -Fxq -- "$name"; then
            echo "  allowed  $name:$reason"
        else
            echo "  NOT ALLOWED  $name:$reason"
        fi
    done
    unexpected=$(printf '%s\n' "$skips" | while IFS= read -r line; do
        name=${line%% *}
        grep -v '^#' "$allowed" | cut -d' ' -f1 | grep -Fxq -- "$name" || echo "$name"
    done | wc -l)
fi
if [ "$unexpected" -gt 0 ] && [ "${PADDOCK_TESTS_PARTIAL:-0}" != 1 ]; then
    echo "skip-summary: $unexpected skip(s) not in tests/allowed-skips.txt: a test that skips here hides what it checks." >&2
    exit 1
fi
