#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command with the services Paddock's tests need, inside the D-Bus session that
# dbus-run-session made: GNOME Keyring (secrets component, unlocked with a throwaway
# password), an Xvfb display and, run as root, a Docker engine. Everything started here is
# stopped on exit.
#
# The suite needs all of them: when one does not start, this says which and fails, and when
# all are there it sets PADDOCK_TESTS_COMPLETE=1, under which a test whose need is missing
# fails rather than skips (tests/support/Needs.h). PADDOCK_TESTS_PARTIAL=1 runs with what
# the machine has instead: a missing service is a warning, and the tests that need it skip.
set -eu

missing=""
need() { # NAME PROBLEM
    echo "with-services: $2" >&2
    missing="$missing $1"
}

pids=""
cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    if [ -n "${keyring_home:-}" ]; then rm -rf "$keyring_home"; fi
}
trap cleanup EXIT INT TERM

# The keyring prints its environment (GNOME_KEYRING_CONTROL); the Secret Service is
# reached through the session bus, which is all QtKeychain needs.
# The keyring lives in a directory of its own, made for this run: a login keyring the user
# already has (locked with another password) would refuse every write.
# Its start has once printed nothing on a loaded machine: one more try before giving up.
keyring_home=$(mktemp -d "${TMPDIR:-/tmp}/paddock-keyring.XXXXXX")
for attempt in 1 2; do
    eval "$(printf 'paddock-tests' | XDG_DATA_HOME="$keyring_home" gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
    if [ -n "${GNOME_KEYRING_CONTROL:-}" ] || [ "$attempt" = 2 ]; then break; fi
    sleep 1
done
export GNOME_KEYRING_CONTROL 2>/dev/null || true
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
    need dbus "no D-Bus session bus: run this under dbus-run-session, as tests/run-all.sh does"
elif [ -z "${GNOME_KEYRING_CONTROL:-}" ]; then
    need keyring "GNOME Keyring did not start (package gnome-keyring)"
fi

# First free display number from :90 up.
display=90
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do
    display=$((display + 1))
done
Xvfb ":$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
pids="$pids $!"
export DISPLAY=":$display"
i=0
while [ ! -e "/tmp/.X11-unix/X$display" ] && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
[ -e "/tmp/.X11-unix/X$display" ] || need display "Xvfb did not start on :$display (package xvfb)"

# A Docker engine for the Docker runtime's tests, unless one already answers where DOCKER_HOST
# says (a unix socket) or on /var/run/docker.sock. Paddock's containers run with no network,
# so the engine needs no bridge and no iptables rules.
case "${DOCKER_HOST:-}" in
unix://*) socket=${DOCKER_HOST#unix://} ;;
"") socket=/var/run/docker.sock ;;
*) socket="" ;; # tcp:// and the like: the engine is someone else's to start
esac
answers() { curl -sf --max-time 5 --unix-socket "$socket" http://localhost/_ping >/dev/null 2>&1; }
if [ -n "$socket" ] && ! answers && command -v dockerd >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    mkdir -p "${TMPDIR:-/tmp}/paddock-tests"
    # gVisor's runsc registered as the engine's "runsc" runtime, for --isolation gvisor.
    config="${TMPDIR:-/tmp}/paddock-tests/daemon.json"
    if [ -x /usr/bin/runsc ]; then
        printf '%s\n' '{"runtimes": {"runsc": {"path": "/usr/bin/runsc", "runtimeArgs": ["--network=none", "--fsgofer-host-uds"]}}}' >"$config"
    else
        printf '{}\n' >"$config"
    fi
    log="${TMPDIR:-/tmp}/paddock-tests/dockerd.log"
    dockerd --host "unix://$socket" --bridge=none --iptables=false --ip6tables=false --config-file "$config" \
        >"$log" 2>&1 &
    dockerd_pid=$!
    pids="$pids $dockerd_pid"
    i=0
    until answers; do
        i=$((i + 1))
        if ! kill -0 "$dockerd_pid" 2>/dev/null || [ $i -gt 150 ]; then
            need docker "dockerd did not start: $(tail -n 1 "$log" 2>/dev/null) (all of it in $log)"
            break
        fi
        sleep 0.2
    done
elif [ -n "$socket" ] && ! answers; then
    need docker "no Docker engine answers on $socket (install docker.io; run as root, this starts one)"
fi

if [ -n "$missing" ]; then
    if [ "${PADDOCK_TESTS_PARTIAL:-0}" != 1 ]; then
        echo "with-services: the suite needs:$missing. (PADDOCK_TESTS_PARTIAL=1 runs without, skipping what needs them.)" >&2
        exit 1
    fi
    echo "with-services: running without:$missing; the tests that need them skip." >&2
    unset PADDOCK_TESTS_COMPLETE
else
    export PADDOCK_TESTS_COMPLETE=1
fi

"$@"
