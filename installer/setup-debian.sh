#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs every Debian 12 package Paddock needs to build, run and test.
# Idempotent: packages already present are left alone, and nothing is
# downloaded when the list is complete.
set -eu

BUILD="cmake ninja-build g++ pkg-config git ccache
qt6-base-dev qt6-declarative-dev qt6-tools-dev qt6-l10n-tools qt6-tools-dev-tools
qt6-declarative-dev-tools qt6-declarative-private-dev qtkeychain-qt6-dev libyaml-cpp-dev libcurl4-openssl-dev
libssl-dev libsqlite3-dev libseccomp-dev libarchive-dev librsvg2-bin"
RUNTIME="qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-layouts
qml6-module-qtquick-window qml6-module-qtquick-templates qml6-module-qtqml-workerscript
qml6-module-qtquick-dialogs qml6-module-qt-labs-platform qml6-module-qt-labs-folderlistmodel
libqt6sql6-sqlite shared-mime-info
bubblewrap fuse-overlayfs gnome-keyring dbus dbus-x11 libsecret-tools publicsuffix"
TEST="qml6-module-qttest docker.io busybox-static xvfb xauth imagemagick clang zstd xz-utils
curl wget procps iproute2 psmisc python3 git openssl util-linux
dpkg-dev mmdebstrap appstream desktop-file-utils systemd xdg-utils libglib2.0-bin apparmor
xterm xdotool x11-utils runsc clang-format universal-ctags
openssh-server openssh-client postgresql postgresql-client python3-pip
squid mitmproxy podman uidmap rootlesskit slirp4netns
python3-pyatspi at-spi2-core
docker-registry skopeo apache2-utils"

missing=""
for p in $BUILD $RUNTIME $TEST; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

# npm fetches Node 22, Pi and pi-permission-system for the agent-permission tests
# (tests/support/install-pi.sh). Any npm will do, so one already there (a Node.js
# distribution bundles its own) is kept rather than replaced by Debian's.
if ! command -v npm >/dev/null 2>&1; then
    missing="$missing npm"
fi

if [ -z "$missing" ]; then
    echo "setup: every package Paddock needs is installed."
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=sudo
    else
        echo "setup: these packages are missing and installing them needs root:$missing" >&2
        exit 1
    fi
fi

echo "setup: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
