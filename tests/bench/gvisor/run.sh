#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# gVisor (runsc) against runc, both through the machine's Docker engine, on what a sandbox
# costs an agent: the start of a container to its command's end, and `git status` on a tree
# of 10,000 files, a workload made of system calls (stat and open of every file) that gVisor
# answers in user space. Runs alternate so both runtimes see the same machine load.
#
#   tests/bench/gvisor/run.sh [PADDOCK_BIN BENCH_BIN]   (both ignored: the docker CLI drives it)
# Environment: PADDOCK_BENCH_RUNS (default 10).
set -euo pipefail
runs=${PADDOCK_BENCH_RUNS:-10}

if ! docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; then
    echo "gvisor: skipped, the engine has no runsc runtime (see tests/with-services.sh)"
    exit 0
fi

work=$(mktemp -d)
image="paddock-bench/gvisor:$$"
trap 'docker rmi -f "$image" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# An image FROM scratch: busybox and the host's git with the libraries it loads.
root="$work/context/rootfs"
mkdir -p "$root/bin"
cp /bin/busybox "$root/bin/busybox"
for applet in sh true; do ln -s busybox "$root/bin/$applet"; done
for file in /usr/bin/git $(ldd /usr/bin/git | grep -o '/[^ ]*'); do
    mkdir -p "$root$(dirname "$file")"
    cp -L "$file" "$root$file"
done
printf 'FROM scratch\nCOPY rootfs/ /\n' >"$work/context/Dockerfile"
docker build -q -t "$image" "$work/context" >/dev/null

# 10,000 committed files in 100 folders; git status then stats every one of them.
tree="$work/tree"
mkdir -p "$tree"
for d in $(seq 1 100); do
    mkdir "$tree/d$d"
    for f in $(seq 1 100); do echo "$d $f" >"$tree/d$d/f$f.txt"; done
done
git -C "$tree" init -q
git -C "$tree" add -A
git -C "$tree" -c user.name=bench -c user.email=bench@localhost commit -q -m tree

ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A start status
for runtime in runc runsc; do start[$runtime]=""; status[$runtime]=""; done
for _ in $(seq 1 "$runs"); do
    for runtime in runc runsc; do
        t0=$(date +%s%N)
        docker run --rm --network none --runtime "$runtime" "$image" true
        t1=$(date +%s%N)
        docker run --rm --network none --runtime "$runtime" -v "$tree:/w" -w /w "$image" \
            git -c safe.directory='*' status --porcelain >/dev/null
        t2=$(date +%s%N)
        start[$runtime]+="$(ms "$t0" "$t1")"$'\n'
        status[$runtime]+="$(ms "$t1" "$t2")"$'\n'
    done
done

runc_start=$(printf '%s' "${start[runc]}" | median)
runsc_start=$(printf '%s' "${start[runsc]}" | median)
runc_status=$(printf '%s' "${status[runc]}" | median)
runsc_status=$(printf '%s' "${status[runsc]}" | median)
# git status alone: the container's start taken out.
runc_git=$((runc_status - runc_start))
runsc_git=$((runsc_status - runsc_start))
echo "gvisor: medians of $runs runs each, alternating runtimes"
printf '  %-34s %8s %8s %8s\n' "" runc runsc ratio
printf '  %-34s %6d ms %6d ms %7sx\n' "start to end of 'true'" "$runc_start" "$runsc_start" \
    "$(awk -v a="$runsc_start" -v b="$runc_start" 'BEGIN {printf "%.1f", a / (b ? b : 1)}')"
printf '  %-34s %6d ms %6d ms %7sx\n' "git status, 10,000 files (alone)" "$runc_git" "$runsc_git" \
    "$(awk -v a="$runsc_git" -v b="$runc_git" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}')"
