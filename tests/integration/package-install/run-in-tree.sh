#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command as root inside a Debian tree, the way it would run on an installed system:
#   run-in-tree.sh ROOT PACKAGE_DIR APT_ARCHIVES [NAME=VALUE...] COMMAND [ARG...]
# PACKAGE_DIR appears read-only as /mnt/package, APT_ARCHIVES as apt's download cache (so
# packages fetched once are not fetched again). The mounts live in a mount namespace of their
# own and every process started inside is in a PID namespace of its own: when COMMAND ends,
# everything it left running is killed and nothing stays mounted on the host.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 ROOT PACKAGE_DIR APT_ARCHIVES [NAME=VALUE...] COMMAND [ARG...]" >&2; exit 2; }

exec unshare --mount --pid --fork --propagation private -- sh -eu -c '
root=$1 package=$2 archives=$3
shift 3
# The tree becomes the root of the mount namespace (pivot_root, not chroot): the kernel lets
# no chrooted process create a user namespace, and bubblewrap sandboxes need one.
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mkdir -p "$root/mnt/package" "$root/var/cache/apt/archives" "$root/.host"
mount --bind "$package" "$root/mnt/package"
mount -o remount,bind,ro "$root/mnt/package"
mount --bind "$archives" "$root/var/cache/apt/archives"
# The host resolver, for apt to reach the mirror.
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cd "$root"
# The host stays mounted on /.host inside this namespace only; nothing in the tree looks there.
pivot_root . .host
exec /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
' run-in-tree "$@"
