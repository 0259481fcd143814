#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The test command itself: when a service the suite needs does not start, it fails and names
# it, and a skip nobody allowed fails it too. Here dockerd is made to fail to start (a dockerd
# first on PATH that exits at once) on a socket of this check's own, and a ctest log with a
# skip that tests/allowed-skips.txt does not list is summarised.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/paddock-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

mkdir -p "$work/bin" "$work/tmp"
printf '#!/bin/sh\necho "dockerd: made to fail for this check" >&2\nexit 1\n' >"$work/bin/dockerd"
chmod +x "$work/bin/dockerd"

# A failing engine fails the command, naming it, and the tests never run.
out=$(PATH="$work/bin:$PATH" TMPDIR="$work/tmp" DOCKER_HOST="unix://$work/engine.sock" PADDOCK_TESTS_PARTIAL=0 \
    dbus-run-session -- "$here/with-services.sh" sh -c 'echo the-tests-ran' 2>&1)
status=$?
[ "$status" -ne 0 ] || fail "with-services.sh succeeded with dockerd failing to start"
echo "$out" | grep -q "the suite needs: docker" || fail "with-services.sh did not name docker: $out"
echo "$out" | grep -q "the-tests-ran" && fail "the tests ran without the engine"

# Asked to run with what the machine has, it runs them, without the mark of a complete machine.
out=$(PATH="$work/bin:$PATH" TMPDIR="$work/tmp" DOCKER_HOST="unix://$work/engine.sock" PADDOCK_TESTS_PARTIAL=1 \
    dbus-run-session -- "$here/with-services.sh" sh -c 'echo "ran complete=${PADDOCK_TESTS_COMPLETE:-no}"' 2>&1)
echo "$out" | grep -q "ran complete=no" || fail "PADDOCK_TESTS_PARTIAL=1 did not run the command as partial: $out"

# The summary counts skips, allows the listed ones and fails on any other.
cat >"$work/LastTest.log" <<'LOG'
SKIP   : TestSandboxNetwork::noOtherWayOut(socket-dbus-system) the host has no such socket here
SKIP   : TestSomething::hidesARegression() no Docker engine
LOG
out=$(PADDOCK_TESTS_PARTIAL=0 "$here/skip-summary.sh" "$work/LastTest.log" 2>&1)
status=$?
[ "$status" -ne 0 ] || fail "skip-summary.sh accepted a skip that is not allowed"
echo "$out" | grep -q "Skipped test functions: 2" || fail "skip-summary.sh did not count: $out"
echo "$out" | grep -q "NOT ALLOWED  TestSomething::hidesARegression(): no Docker engine" \
    || fail "skip-summary.sh did not name the skip and its reason: $out"
grep -v 'hidesARegression' "$work/LastTest.log" >"$work/allowed.log"
PADDOCK_TESTS_PARTIAL=0 "$here/skip-summary.sh" "$work/allowed.log" >/dev/null 2>&1 \
    || fail "skip-summary.sh refused an allowed skip"

# What a test killed at its timeout left running is stopped after the suite, and named; a
# program of another build folder is left alone.
mkdir -p "$work/build/bin" "$work/other/bin"
cp "$(command -v sleep)" "$work/build/bin/paddockd"
cp "$(command -v sleep)" "$work/other/bin/paddockd"
HOME="$work/left-by-a-test" "$work/build/bin/paddockd" 300 &
left=$!
"$work/other/bin/paddockd" 300 &
other=$!
sleep 0.2
out=$("$here/reap-leftovers.sh" "$work/build" 2>&1)
sleep 0.2
kill -0 "$left" 2>/dev/null && fail "reap-leftovers.sh left the suite's program running"
kill -0 "$other" 2>/dev/null || fail "reap-leftovers.sh stopped a program of another build folder"
echo "$out" | grep -q "paddockd (pid $left, HOME=$work/left-by-a-test) was still running" \
    || fail "reap-leftovers.sh did not name what it stopped: $out"
kill "$other" 2>/dev/null
wait 2>/dev/null

[ "$failures" -eq 0 ] && echo "the test command fails on a missing service and on a skip not allowed, and stops what tests left"
exit "$failures"
