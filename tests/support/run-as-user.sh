#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs a test as an ordinary desktop user, the way Paddock's users run it: not root, with a
# D-Bus session and an unlocked GNOME Keyring of its own, the display the suite started, and
# Docker through the `docker` group.
#
#   run-as-user.sh TEST [ARG...]
#
# Run by root (as CI is), it makes the user `paddock-tester` (uid 1500, deliberately not 1000,
# in the group `docker` when there is one) and runs TEST as that user with runuser. Run by
# anyone else, it runs TEST directly: that user is the ordinary user.
#
# What it changes on the machine, and says so on stderr:
# - Subordinate ids (/etc/subuid, /etc/subgid) for the user when it has none, as useradd gives
#   a desktop account: rootless Podman needs them.
# - XDG_RUNTIME_DIR: the user gets a private one under /tmp (mode 0700). /run/user/UID would
#   need logind, and on machines where /run is mode 0700 the user could not reach it at all.
# - /run mode 0700 (Debian's default is 0755) keeps an ordinary user from /run/docker.sock:
#   then /run is set to 0755, as on a stock Debian.
# - /dev/fuse mode 0600 (no udev rule, as in some containers and VMs; Debian's makes it 0666)
#   keeps an ordinary user from fuse-overlayfs: then it is set to 0666, as on a stock Debian.
# - /dev/net/tun mode 0600 likewise keeps rootless Docker's network (slirp4netns makes a tap
#   device in the user's namespace) from starting: then it is set to 0666, as on a stock Debian.
# - The test binaries and sources must be reachable: each directory above the build tree that
#   the user cannot enter gets o+x (enter, not list).
#
# PADDOCK_TEST_OUTPUT names a folder for what the test leaves to look at (screenshots): the
# user writes into a folder of its own, copied there afterwards, so nothing in the build tree
# has to become the user's.
set -eu

if [ "$#" -eq 0 ]; then
    echo "usage: run-as-user.sh TEST [ARG...]" >&2
    exit 2
fi

if [ "$(id -u)" -ne 0 ]; then
    exec "$@"
fi

user=paddock-tester
uid=1500
if ! id "$user" >/dev/null 2>&1; then
    useradd --uid "$uid" --user-group --create-home --shell /bin/sh "$user" 2>/dev/null \
        || useradd --user-group --create-home --shell /bin/sh "$user"
    echo "run-as-user: made the ordinary user $user (uid $(id -u "$user"))" >&2
fi
# Rootless Podman maps the user's ids through subordinate ranges, as a desktop account has them.
if ! grep -q "^$user:" /etc/subuid 2>/dev/null; then
    touch /etc/subuid /etc/subgid
    if usermod --add-subuids 100000-165535 --add-subgids 100000-165535 "$user" 2>/dev/null; then
        echo "run-as-user: gave $user subordinate ids (for rootless Podman)" >&2
    fi
fi
if getent group docker >/dev/null 2>&1 && ! id -nG "$user" | tr ' ' '\n' | grep -qx docker; then
    usermod -aG docker "$user"
    echo "run-as-user: added $user to the group docker" >&2
fi

if [ "$(stat -c %a /run)" = "700" ]; then
    chmod 0755 /run
    echo "run-as-user: /run was mode 0700; set it to 0755 (Debian's default) so $user reaches /run/docker.sock" >&2
fi

if [ -c /dev/fuse ] && [ "$(stat -c %a /dev/fuse)" != "666" ]; then
    chmod 0666 /dev/fuse
    echo "run-as-user: /dev/fuse was not usable by $user; set it to 0666 (Debian's default)" >&2
fi
if [ -c /dev/net/tun ] && [ "$(stat -c %a /dev/net/tun)" != "666" ]; then
    chmod 0666 /dev/net/tun
    echo "run-as-user: /dev/net/tun was not usable by $user; set it to 0666 (Debian's default)" >&2
fi

# Every directory from / to the test program must be enterable by the user.
program=$(readlink -f "$(command -v "$1")")
dir=$(dirname "$program")
while [ "$dir" != "/" ]; do
    if ! runuser -u "$user" -- test -x "$dir" 2>/dev/null; then
        chmod o+x "$dir"
        echo "run-as-user: allowed $user to enter $dir (o+x)" >&2
    fi
    dir=$(dirname "$dir")
done

runtime_dir=$(mktemp -d /tmp/paddock-tester-run.XXXXXX)
chown "$user:" "$runtime_dir"
chmod 0700 "$runtime_dir"
output_dir=""
if [ -n "${PADDOCK_TEST_OUTPUT:-}" ]; then
    output_dir=$(mktemp -d /tmp/paddock-tester-output.XXXXXX)
    chown "$user:" "$output_dir"
fi
trap 'rm -rf "$runtime_dir" ${output_dir:+"$output_dir"}' EXIT INT TERM

home=$(getent passwd "$user" | cut -d: -f6)
# The user's own session bus and keyring (the one the suite started belongs to root), the
# suite's display, the engine DOCKER_HOST names, and nothing else of root's environment.
set -- env -i HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/sh PATH=/usr/local/bin:/usr/bin:/bin \
    LANG="${LANG:-C.UTF-8}" XDG_RUNTIME_DIR="$runtime_dir" PADDOCK_TEST_AS_USER=1 \
    ${DISPLAY:+DISPLAY="$DISPLAY"} ${QT_QPA_PLATFORM:+QT_QPA_PLATFORM="$QT_QPA_PLATFORM"} \
    ${PADDOCK_TEST_KEEP:+PADDOCK_TEST_KEEP="$PADDOCK_TEST_KEEP"} ${PADDOCK_TESTS_COMPLETE:+PADDOCK_TESTS_COMPLETE="$PADDOCK_TESTS_COMPLETE"} ${DOCKER_HOST:+DOCKER_HOST="$DOCKER_HOST"} \
    ${output_dir:+PADDOCK_TEST_OUTPUT="$output_dir"} \
    dbus-run-session -- sh -c '
        keyring_home=$(mktemp -d "$XDG_RUNTIME_DIR/keyring.XXXXXX")
        eval "$(printf paddock-tests | XDG_DATA_HOME="$keyring_home" gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)"
        export GNOME_KEYRING_CONTROL 2>/dev/null || true
        exec "$@"' run-as-user "$@"
cd /
status=0
runuser -u "$user" -- "$@" || status=$?
if [ -n "$output_dir" ]; then
    mkdir -p "$PADDOCK_TEST_OUTPUT"
    cp -R "$output_dir/." "$PADDOCK_TEST_OUTPUT/"
fi
exit "$status"
