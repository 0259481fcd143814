#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's first command: installs what is missing (Debian 12), builds Paddock in
# ./build, and starts it. Without a display, paddock says so and shows the CLI instead.
set -eu
cd "$(dirname "$0")/.."

./installer/setup-debian.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPADDOCK_BUILD_TESTS=OFF
cmake --build build --parallel "$(nproc)"

echo "build: done. The executables are in build/bin: paddock, paddock-gui, paddock-proxy, paddockd, paddock-init."
exec build/bin/paddock "$@"
