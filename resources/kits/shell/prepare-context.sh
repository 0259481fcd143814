#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Prepares the Docker build context of the shell kit in DIR (default: this kit's folder):
# the Dockerfile and a static busybox copied from the host. Nothing is downloaded.
#   ./prepare-context.sh [DIR] && docker build -t paddock-shell:1 DIR
set -eu
kit=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
dir=${1:-$kit}
busybox=${BUSYBOX:-/bin/busybox}
if ! "$busybox" --list >/dev/null 2>&1; then
    echo "prepare-context: no usable busybox at $busybox (install busybox-static)" >&2
    exit 1
fi
# The image has no C library: only a static busybox works in it. ldd fails on one.
linkage=$(ldd "$busybox" 2>&1 || true)
case $linkage in
*"not a dynamic executable"*|*"statically linked"*) ;;
*) echo "prepare-context: $busybox is not static; install busybox-static" >&2; exit 1 ;;
esac
mkdir -p "$dir"
[ "$dir" -ef "$kit" ] || cp "$kit/Dockerfile" "$dir/Dockerfile"
cp "$busybox" "$dir/busybox"
chmod 0755 "$dir/busybox"
echo "$dir"
