#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# After the suite: stops what its tests left running. A test that ctest kills at its timeout
# never reaches its fixture's clean-up, so its paddockd and its sandboxes' paddock-init (and
# with them bwrap, overlays and whatever ran inside) keep running. Each one left is named with
# the home it ran under, which names the test's folder, and the count is printed.
# Usage: tests/reap-leftovers.sh BUILD_DIR
set -u
bin=$(cd "$1/bin" 2>/dev/null && pwd -P) || exit 0
left=0
for proc in /proc/[0-9]*; do
    pid=${proc#/proc/}
    [ "$pid" = "$$" ] && continue
    exe=$(readlink "$proc/exe" 2>/dev/null) || continue
    case "$exe" in
    "$bin"/*) ;;
    *) continue ;;
    esac
    home=$(tr '\0' '\n' <"$proc/environ" 2>/dev/null | sed -n 's/^HOME=//p')
    echo "reap-leftovers: $(basename "$exe") (pid $pid, HOME=${home:-?}) was still running; stopping it" >&2
    kill -TERM "$pid" 2>/dev/null && left=$((left + 1))
done
[ "$left" -eq 0 ] && exit 0
sleep 2
for proc in /proc/[0-9]*; do
    exe=$(readlink "$proc/exe" 2>/dev/null) || continue
    case "$exe" in "$bin"/*) kill -KILL "${proc#/proc/}" 2>/dev/null ;; esac
done
echo "reap-leftovers: $left program(s) of the suite were left running (a test killed at its timeout)" >&2
