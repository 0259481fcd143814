#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Connections captured inside a real bubblewrap sandbox (app/init/Capture.h) against the same
# connections made through the sandbox's proxy, and against direct access from the host, all
# in one run, rounds alternating so every contender sees the same machine load:
#
#   1. 256 MiB from a local nginx: curl inside the sandbox without the proxy (captured), curl
#      inside through CONNECT (the proxy path), curl on the host (direct); MiB/s and ratios;
#   2. connect + request rate: N small GETs, a new connection each, 32 at a time, the same three;
#   3. what naming each connection's program costs (paddock-init reads its executable's file:
#      identity, mount, digest once per file): the rate of (2), captured and through the proxy,
#      against a second sandbox told not to read program files (PADDOCK_PROGRAM_FILES=off).
#
#   tests/bench/capture/run.sh PADDOCK_BIN [BENCH_BIN]   (the second is ignored)
# Environment: BENCH_REQUESTS (default 2000), BENCH_ROUNDS (default 5).
set -euo pipefail

PADDOCK=$(realpath "${1:?usage: run.sh PADDOCK_BIN}")
REQUESTS=${BENCH_REQUESTS:-2000}
ROUNDS=${BENCH_ROUNDS:-5}

need=()
command -v nginx >/dev/null || need+=(nginx-light)
command -v curl >/dev/null || need+=(curl)
if ((${#need[@]})); then
    echo "installing ${need[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null
fi

ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/paddock-capture-bench.XXXXXX)
chmod 755 "$WORK"
PIDS=()
# shellcheck source=../bench-support.sh
source "$(dirname "$(realpath "$0")")/../bench-support.sh"
cleanup() {
    "$PADDOCK" rm --all --force >/dev/null 2>&1 || true
    "$PADDOCK" daemon stop >/dev/null 2>&1 || true
    stop_pids
    rm -rf "$WORK"
}
trap cleanup EXIT

# ---- upstream: nginx with a 256 MiB file and a small one -----------------------------------
mkdir -p "$WORK/www" "$WORK/nginx" "$WORK/workspace"
truncate -s 256M "$WORK/www/big"
printf 'small\n' >"$WORK/www/small"
chmod -R a+rX "$WORK/www"
PORT=$(free_port)
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
worker_rlimit_nofile 16384;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 8192; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 0;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$PORT backlog=4096;
        root $WORK/www;
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
PIDS+=($!)
wait_port "$PORT"

# ---- Paddock: private folders, one sandbox allowed to reach the upstream by name ----------
export XDG_CONFIG_HOME=$WORK/xdg/config XDG_STATE_HOME=$WORK/xdg/state XDG_DATA_HOME=$WORK/xdg/data XDG_RUNTIME_DIR=$WORK/xdg/run
mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" "$WORK/kit"
chmod 700 "$XDG_RUNTIME_DIR"
BIN_DIR=$(dirname "$PADDOCK")
export PADDOCKD=${PADDOCKD:-$(find "$BIN_DIR/.." -maxdepth 3 -type f -name paddockd -perm -u+x | head -n1)}
export PADDOCK_INIT=${PADDOCK_INIT:-$(find "$BIN_DIR/.." -maxdepth 3 -type f -name paddock-init -perm -u+x | head -n1)}
export DOCKER_HOST=unix://$WORK/no-docker.sock
unset JOURNAL_STREAM
printf 'schemaVersion: "2"\nkind: sandbox\nname: bench-capture\nsandbox:\n  image: debian:12\n  entrypoint: [sh, -c]\n' >"$WORK/kit/spec.yaml"
printf 'permissions:\n  network:\n    allow:\n      - capture.bench.test:%s\n' "$PORT" >>"$WORK/kit/spec.yaml"
"$PADDOCK" policy resolve set capture.bench.test 127.0.0.1 >/dev/null
"$PADDOCK" daemon stop >/dev/null 2>&1 || true
"$PADDOCK" run --detach --kit "$WORK/kit" --name bench-capture "$WORK/workspace" -- 'sleep 86400' \
    >"$WORK/run.out" 2>&1 || { cat "$WORK/run.out" >&2; exit 1; }
# The reference for what identifying programs costs: the same kit, its files never read.
mkdir -p "$WORK/kit-anon"
sed 's/^name: bench-capture/name: bench-anon/' "$WORK/kit/spec.yaml" >"$WORK/kit-anon/spec.yaml"
printf 'environment:\n  variables:\n    PADDOCK_PROGRAM_FILES: "off"\n' >>"$WORK/kit-anon/spec.yaml"
"$PADDOCK" run --detach --kit "$WORK/kit-anon" --name bench-anon "$WORK/workspace" -- 'sleep 86400' \
    >"$WORK/run.out" 2>&1 || { cat "$WORK/run.out" >&2; exit 1; }
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy no_proxy NO_PROXY

in_sandbox() { "$PADDOCK" exec bench-capture sh -c "$1"; }
in_anon() { "$PADDOCK" exec bench-anon sh -c "$1"; }
on_host() { sh -c "$1"; }
URL=http://capture.bench.test:$PORT
HOST_URL=http://127.0.0.1:$PORT
# Through the proxy inside: the variable the sandbox has, in CONNECT (-p) for the bulk file.
VIA_PROXY='-x "$http_proxy"'
big() { # CURL_OPTIONS URL -> bytes per second
    echo "curl -s $1 -o /dev/null --max-time 120 -w '%{speed_download}' '$2/big'"
}
# N GETs of the small file, each on a connection of its own (nginx closes it), 32 at a time:
# "nanoseconds ok".
gets() { # CURL_OPTIONS URL
    cat <<SH
t0=\$(date +%s%N)
ok=\$(curl -s --no-progress-meter -Z --parallel-max 32 $1 -w '%{http_code}\n' -o /dev/null '$2/small?n=[1-$REQUESTS]' | grep -c '^200\$')
t1=\$(date +%s%N)
echo "\$((t1 - t0)) \$ok"
SH
}
declare -A SPEEDS RATES OK
record_rate() { # NAME "NS OK"
    local ns ok
    read -r ns ok <<<"$2"
    RATES[$1]+="$(awk -v n="$ok" -v ns="$ns" 'BEGIN { printf "%.0f", n / (ns / 1e9) }') "
    OK[$1]=$ok
}

echo "== $ROUNDS rounds, alternating: 256 MiB each way, then $REQUESTS GETs each way"
for round in $(seq "$ROUNDS"); do
    SPEEDS[captured]+="$(in_sandbox "$(big "--noproxy '*'" "$URL")") "
    SPEEDS[proxy]+="$(in_sandbox "$(big "-p $VIA_PROXY" "$URL")") "
    SPEEDS[direct]+="$(on_host "$(big "--noproxy '*'" "$HOST_URL")") "
    # Each beside its reference, the order swapped every other round.
    if ((round % 2)); then
        record_rate captured "$(in_sandbox "$(gets "--noproxy '*'" "$URL")")"
        record_rate captured-anon "$(in_anon "$(gets "--noproxy '*'" "$URL")")"
        record_rate proxy "$(in_sandbox "$(gets "-p $VIA_PROXY" "$URL")")"
        record_rate proxy-anon "$(in_anon "$(gets "-p $VIA_PROXY" "$URL")")"
    else
        record_rate captured-anon "$(in_anon "$(gets "--noproxy '*'" "$URL")")"
        record_rate captured "$(in_sandbox "$(gets "--noproxy '*'" "$URL")")"
        record_rate proxy-anon "$(in_anon "$(gets "-p $VIA_PROXY" "$URL")")"
        record_rate proxy "$(in_sandbox "$(gets "-p $VIA_PROXY" "$URL")")"
    fi
    record_rate direct "$(on_host "$(gets "--noproxy '*'" "$HOST_URL")")"
    last() { tr ' ' '\n' <<<"${RATES[$1]}" | grep . | tail -n1; }
    echo "  round $round of $ROUNDS: GETs/s captured $(last captured), proxy $(last proxy), direct $(last direct)"
done

mib() { tr ' ' '\n' <<<"${SPEEDS[$1]}" | grep . | median | awk '{printf "%.0f", $1 / 1048576}'; }
rate() { tr ' ' '\n' <<<"${RATES[$1]}" | grep . | median; }
echo "== 256 MiB, MiB/s (median)"
for who in captured proxy direct; do printf '  %-40s %7s MiB/s\n' "$who" "$(mib "$who")"; done
echo "== connect + GET, new connection each, 32 at a time (median)"
for who in captured proxy direct captured-anon proxy-anon; do
    printf '  %-40s %7s /s  (%s/%s ok)\n' "$who" "$(rate "$who")" "${OK[$who]}" "$REQUESTS"
done

echo
echo "== summary (loopback, one run; figures depend on the machine's load)"
printf '  %-46s %10s %10s %8s %s\n' path captured reference ratio target
printf '  %-46s %10s %10s %8s %s\n' "256 MiB, MiB/s (ref direct, from the host)" "$(mib captured)" "$(mib direct)" \
    "$(ratio "$(mib captured)" "$(mib direct)")" ">= 0.85"
printf '  %-46s %10s %10s %8s\n' "256 MiB, MiB/s (ref the proxy path inside)" "$(mib captured)" "$(mib proxy)" \
    "$(ratio "$(mib captured)" "$(mib proxy)")"
printf '  %-46s %10s %10s %8s %s\n' "connect + GET /s (ref the proxy path inside)" "$(rate captured)" "$(rate proxy)" \
    "$(ratio "$(rate captured)" "$(rate proxy)")" ">= 1.0"
printf '  %-46s %10s %10s %8s\n' "connect + GET /s (ref direct, from the host)" "$(rate captured)" "$(rate direct)" \
    "$(ratio "$(rate captured)" "$(rate direct)")"
printf '  %-46s %10s %10s %8s %s\n' "captured /s, programs named (ref files not read)" "$(rate captured)" \
    "$(rate captured-anon)" "$(ratio "$(rate captured)" "$(rate captured-anon)")" ">= 0.95"
printf '  %-46s %10s %10s %8s %s\n' "proxy path /s, programs named (ref not read)" "$(rate proxy)" \
    "$(rate proxy-anon)" "$(ratio "$(rate proxy)" "$(rate proxy-anon)")" ">= 0.95"
