#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Makes the Docker image the tests of captured connections run their clients in, and the tests
# of companion services run their database from: a minimal Debian 12 with curl, ssh, psql,
# the PostgreSQL server and python3, built once per build tree with mmdebstrap from
# the mirror this machine's apt uses (no registry can be reached) and imported into the engine.
#
#   debian-clients-image.sh TAG TARBALL
#
# Run as root (a ctest fixture before the tests that use it); the tarball is kept, so a later
# run only imports it again when the engine lost the image. Exits 1 with a sentence on failure.
set -eu

if [ "$#" -ne 2 ]; then
    echo "usage: debian-clients-image.sh TAG TARBALL" >&2
    exit 2
fi
tag=$1
tarball=$2

if ! command -v docker >/dev/null 2>&1 || ! docker version >/dev/null 2>&1; then
    echo "debian-clients-image: no Docker engine answers" >&2
    exit 1
fi
if docker image inspect "$tag" >/dev/null 2>&1; then
    exit 0
fi
if [ ! -s "$tarball" ]; then
    mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
    [ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*\/debian\) bookworm .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n1)
    [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
    # mmdebstrap picks the format from the name's ending: the part being written ends in .tar too.
    part="${tarball%.tar}.part.tar"
    if ! mmdebstrap --quiet --variant=minbase \
            --include=curl,openssh-client,postgresql-client,postgresql,python3,ca-certificates,iproute2 \
            bookworm "$part" "$mirror" >&2; then
        rm -rf "$part"
        echo "debian-clients-image: mmdebstrap could not make the image from $mirror" >&2
        exit 1
    fi
    mv "$part" "$tarball"
fi
docker import "$tarball" "$tag" >/dev/null
