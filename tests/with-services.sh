#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command with the services Paddock's tests need, inside the D-Bus session that
# dbus-run-session made: GNOME Keyring (secrets component, unlocked with a throwaway
# password) and an Xvfb display. Everything started here is stopped on exit.
set -eu

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
keyring_home=$(mktemp -d "${TMPDIR:-/tmp}/paddock-keyring.XXXXXX")
eval "$(printf 'paddock-tests' | XDG_DATA_HOME="$keyring_home" gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
export GNOME_KEYRING_CONTROL 2>/dev/null || true

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

# A Docker engine for the Docker runtime's tests, unless one already answers. Paddock's
# containers run with no network, so the engine needs no bridge and no iptables rules.
if command -v dockerd >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] \
    && ! curl -sf --unix-socket /var/run/docker.sock http://localhost/_ping >/dev/null 2>&1; then
    mkdir -p "${TMPDIR:-/tmp}/paddock-tests"
    # gVisor's runsc registered as the engine's "runsc" runtime, for --isolation gvisor.
    config="${TMPDIR:-/tmp}/paddock-tests/daemon.json"
    if [ -x /usr/bin/runsc ]; then
        printf '%s\n' '{"runtimes": {"runsc": {"path": "/usr/bin/runsc", "runtimeArgs": ["--network=none", "--fsgofer-host-uds"]}}}' >"$config"
    else
        printf '{}\n' >"$config"
    fi
    dockerd --bridge=none --iptables=false --ip6tables=false --config-file "$config" \
        >"${TMPDIR:-/tmp}/paddock-tests/dockerd.log" 2>&1 &
    pids="$pids $!"
    i=0
    until curl -sf --unix-socket /var/run/docker.sock http://localhost/_ping >/dev/null 2>&1; do
        i=$((i + 1))
        if [ $i -gt 150 ]; then
            echo "with-services: dockerd did not start; see ${TMPDIR:-/tmp}/paddock-tests/dockerd.log" >&2
            break
        fi
        sleep 0.2
    done
fi

"$@"
