#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Proxy benchmarks, all on loopback, in one run: `paddock proxy serve` against direct access,
# squid, tinyproxy and a bare relay (bare_relay.cpp: the smallest correct CONNECT relay, no
# policy, no events: the floor), in front of a local nginx.
#
#   1. tunnel throughput: 256 MiB through CONNECT (curl --proxytunnel), MiB/s and ratios;
#   2. tunnel rate: CONNECT + small GET, 32 clients, requests/s and p50/p99, and the CPU time
#      each proxy spent per connection (its process's user + system time over the run);
#   3. memory per idle tunnel: 2,000 idle tunnels held by paddock, RSS delta per tunnel;
#   4. denial latency: refused request to its line in the --events-jsonl file, p50/p99;
#   5. upstream hop: paddock in front of squid as a company's proxy (the name resolves only
#      there), throughput and rate beside paddock alone and squid alone.
#
# Usage: run.sh PADDOCK_BIN PROXY_BENCH_BIN (bare-relay is built beside PROXY_BENCH_BIN). Environment: BENCH_RATE_COUNT (default 4000),
# BENCH_IDLE_TUNNELS (2000), BENCH_DENIALS (300), BENCH_THROUGHPUT_RUNS (3).
set -euo pipefail

PADDOCK=${1:?usage: run.sh PADDOCK_BIN PROXY_BENCH_BIN}
LOAD=${2:?usage: run.sh PADDOCK_BIN PROXY_BENCH_BIN}
BARE_RELAY=$(dirname "$(realpath "$LOAD")")/bare-relay
RATE_COUNT=${BENCH_RATE_COUNT:-4000}
IDLE_TUNNELS=${BENCH_IDLE_TUNNELS:-2000}
DENIALS=${BENCH_DENIALS:-300}
RUNS=${BENCH_THROUGHPUT_RUNS:-3}

need=()
command -v squid >/dev/null || need+=(squid)
command -v tinyproxy >/dev/null || need+=(tinyproxy)
command -v nginx >/dev/null || need+=(nginx-light)
command -v curl >/dev/null || need+=(curl)
if ((${#need[@]})); then
    echo "installing ${need[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null
fi

ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/paddock-proxy-bench.XXXXXX)
chmod 755 "$WORK"
PIDS=()
# shellcheck source=../bench-support.sh
source "$(dirname "$(realpath "$0")")/../bench-support.sh"
cleanup() {
    stop_pids
    rm -rf "$WORK"
}
trap cleanup EXIT

# ---- upstream: nginx serving a 256 MiB file and a small one --------------------------------
mkdir -p "$WORK/www" "$WORK/nginx"
truncate -s 256M "$WORK/www/big"
printf 'small\n' >"$WORK/www/small"
chmod -R a+rX "$WORK/www"
NGINX_PORT=$(free_port)
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
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    client_header_timeout 300s;
    server {
        listen 127.0.0.1:$NGINX_PORT backlog=4096;
        root $WORK/www;
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
PIDS+=($!)
wait_port "$NGINX_PORT" 20
UPSTREAM=127.0.0.1:$NGINX_PORT

# ---- the proxies ---------------------------------------------------------------------------
export XDG_CONFIG_HOME=$WORK/xdg/config XDG_STATE_HOME=$WORK/xdg/state XDG_DATA_HOME=$WORK/xdg/data XDG_RUNTIME_DIR=$WORK/xdg/run
mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
PADDOCK_PORT=$(free_port)
# The upstream is on loopback: a rule naming the address lets it through the rebinding guard.
"$PADDOCK" proxy serve --listen "127.0.0.1:$PADDOCK_PORT" --no-policy-file --allow "127.0.0.1:$NGINX_PORT" \
    --events-jsonl "$WORK/paddock-events.jsonl" --sandbox bench >"$WORK/paddock.out" 2>"$WORK/paddock.err" &
PADDOCK_PID=$!
PIDS+=($PADDOCK_PID)
wait_port "$PADDOCK_PORT" 20

start_squid 20

TINY_PORT=$(free_port)
mkdir -p "$WORK/tinyproxy"
cat >"$WORK/tinyproxy/tinyproxy.conf" <<CONF
Port $TINY_PORT
Listen 127.0.0.1
Timeout 600
MaxClients 1024
Allow 127.0.0.1
LogLevel Error
CONF
tinyproxy -d -c "$WORK/tinyproxy/tinyproxy.conf" >"$WORK/tinyproxy/output" 2>&1 &
TINY_PID=$!
PIDS+=($TINY_PID)
wait_port "$TINY_PORT" 20
SQUID_PID=${PIDS[-2]} # start_squid's (squid -N: one process)

BARE_PORT=$(free_port)
"$BARE_RELAY" "$BARE_PORT" &
BARE_PID=$!
PIDS+=($BARE_PID)
wait_port "$BARE_PORT" 20

# ---- 1. tunnel throughput ------------------------------------------------------------------
echo "== tunnel throughput: 256 MiB through CONNECT, median of $RUNS rounds (each round runs all five in turn)"
# Interleaved, so a burst of load from elsewhere on the machine hits every contender alike.
declare -A SPEEDS
for _ in $(seq "$RUNS"); do
    for who in direct bare paddock squid tinyproxy; do
        case $who in
        direct) via=() ;;
        bare) via=(-p -x "http://127.0.0.1:$BARE_PORT") ;;
        paddock) via=(-p -x "http://127.0.0.1:$PADDOCK_PORT") ;;
        squid) via=(-p -x "http://127.0.0.1:$SQUID_PORT") ;;
        tinyproxy) via=(-p -x "http://127.0.0.1:$TINY_PORT") ;;
        esac
        SPEEDS[$who]+="$(curl -s -o /dev/null --max-time 120 -w '%{speed_download}' "${via[@]}" "http://$UPSTREAM/big") "
    done
done
speed() { tr ' ' '\n' <<<"${SPEEDS[$1]}" | grep . | median | awk '{printf "%.0f", $1/1048576}'; }
T_DIRECT=$(speed direct)
T_BARE=$(speed bare)
T_PADDOCK=$(speed paddock)
T_SQUID=$(speed squid)
T_TINY=$(speed tinyproxy)
printf '  direct     %6s MiB/s\n  bare relay %6s MiB/s\n  paddock    %6s MiB/s  (%s of direct, %s of the bare relay, %sx squid)\n  squid      %6s MiB/s\n  tinyproxy  %6s MiB/s\n' \
    "$T_DIRECT" "$T_BARE" "$T_PADDOCK" "$(ratio "$T_PADDOCK" "$T_DIRECT")" "$(ratio "$T_PADDOCK" "$T_BARE")" \
    "$(ratio "$T_PADDOCK" "$T_SQUID")" "$T_SQUID" "$T_TINY"

# ---- 2. tunnel rate ------------------------------------------------------------------------
echo "== tunnel rate: CONNECT + GET /small, 32 clients, $RATE_COUNT requests each proxy"
# CPU: the proxy process's user + system clock ticks (/proc/PID/stat), before and after.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
TICK_HZ=$(getconf CLK_TCK)
# rate PORT PID: the load generator's line, then cpu_us_per_conn= for the proxy.
rate() {
    local before line
    before=$(cpu_ticks "$2")
    line=$("$LOAD" rate --proxy "127.0.0.1:$1" --target "$UPSTREAM" --path /small --clients 32 --count "$RATE_COUNT" \
        --seconds 120 || true)
    echo "$line cpu_us_per_conn=$(awk -v t="$(($(cpu_ticks "$2") - before))" -v hz="$TICK_HZ" -v n="$RATE_COUNT" \
        'BEGIN { printf "%.0f", t * 1e6 / hz / n }')"
}
R_BARE=$(rate "$BARE_PORT" "$BARE_PID")
R_PADDOCK=$(rate "$PADDOCK_PORT" "$PADDOCK_PID")
R_SQUID=$(rate "$SQUID_PORT" "$SQUID_PID")
R_TINY=$(rate "$TINY_PORT" "$TINY_PID")
printf '  bare relay %s\n  paddock    %s\n  squid      %s\n  tinyproxy  %s\n' "$R_BARE" "$R_PADDOCK" "$R_SQUID" "$R_TINY"

# ---- 3. memory per idle tunnel -------------------------------------------------------------
echo "== idle tunnels: $IDLE_TUNNELS held open through paddock"
I_PADDOCK=$("$LOAD" idle --proxy "127.0.0.1:$PADDOCK_PORT" --target "$UPSTREAM" --count "$IDLE_TUNNELS" \
    --pid "$PADDOCK_PID" --seconds 120 || true)
echo "  paddock    $I_PADDOCK"

# ---- 4. denial latency ---------------------------------------------------------------------
echo "== denial latency: refused CONNECT to its --events-jsonl line, $DENIALS refusals"
D_PADDOCK=$("$LOAD" deny --proxy "127.0.0.1:$PADDOCK_PORT" --jsonl "$WORK/paddock-events.jsonl" --count "$DENIALS" \
    --seconds 120 || true)
echo "  paddock    $D_PADDOCK"

# ---- 5. upstream hop ------------------------------------------------------------------------
echo "== upstream hop: paddock going out through squid (HTTPS_PROXY), as behind a company's proxy"
HOP_PORT=$(free_port)
HTTPS_PROXY="http://127.0.0.1:$SQUID_PORT" "$PADDOCK" proxy serve --listen "127.0.0.1:$HOP_PORT" --no-policy-file \
    --allow "upstream.bench.test:$NGINX_PORT" --no-event-log --sandbox bench-hop >"$WORK/hop.out" 2>"$WORK/hop.err" &
PIDS+=($!)
wait_port "$HOP_PORT" 20
HOP_TARGET=upstream.bench.test:$NGINX_PORT
declare -A HOPS
for _ in $(seq "$RUNS"); do
    for who in paddock hop squid; do
        case $who in
        paddock) via=(-x "http://127.0.0.1:$PADDOCK_PORT" "http://$UPSTREAM/big") ;;
        hop) via=(-x "http://127.0.0.1:$HOP_PORT" "http://$HOP_TARGET/big") ;;
        squid) via=(-x "http://127.0.0.1:$SQUID_PORT" "http://$HOP_TARGET/big") ;;
        esac
        HOPS[$who]+="$(curl -s -p -o /dev/null --max-time 120 -w '%{speed_download}' "${via[@]}") "
    done
done
hop_speed() { tr ' ' '\n' <<<"${HOPS[$1]}" | grep . | median | awk '{printf "%.0f", $1/1048576}'; }
H_PADDOCK=$(hop_speed paddock)
H_HOP=$(hop_speed hop)
H_SQUID=$(hop_speed squid)
R_HOP=$("$LOAD" rate --proxy "127.0.0.1:$HOP_PORT" --target "$HOP_TARGET" --path /small --clients 32 \
    --count "$RATE_COUNT" --seconds 120 || true)
printf '  throughput: paddock %s, paddock+squid %s, squid %s MiB/s (hop %s of paddock alone, %s of squid alone)\n' \
    "$H_PADDOCK" "$H_HOP" "$H_SQUID" "$(ratio "$H_HOP" "$H_PADDOCK")" "$(ratio "$H_HOP" "$H_SQUID")"
printf '  rate:       paddock+squid %s\n' "$R_HOP"

# ---- summary -------------------------------------------------------------------------------
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"; }
echo
echo "== summary (loopback; figures depend on the machine's load)"
printf '  %-34s %12s %12s %12s %12s %12s\n' "" direct "bare relay" paddock squid tinyproxy
printf '  %-34s %12s %12s %12s %12s %12s\n' "tunnel throughput (MiB/s)" "$T_DIRECT" "$T_BARE" "$T_PADDOCK" "$T_SQUID" "$T_TINY"
row() { # LABEL FIELD: the field of each rate line
    printf '  %-34s %12s %12s %12s %12s %12s\n' "$1" - "$(field "$2" "$R_BARE")" "$(field "$2" "$R_PADDOCK")" \
        "$(field "$2" "$R_SQUID")" "$(field "$2" "$R_TINY")"
}
row "tunnel rate (req/s, 32 clients)" rps
row "tunnel latency p50 (ms)" p50_ms
row "tunnel latency p99 (ms)" p99_ms
row "CPU per connection (us)" cpu_us_per_conn
printf '  %-34s %12s %12s %12s\n' "idle tunnel (KiB each, target 64)" - - "$(field kib_per_tunnel "$I_PADDOCK")"
printf '  %-34s %12s %12s %12s\n' "idle tunnels held (of $IDLE_TUNNELS)" - - "$(field still_open "$I_PADDOCK")"
printf '  %-34s %12s %12s %12s\n' "denial to JSONL p50 (ms)" - - "$(field p50_ms "$D_PADDOCK")"
printf '  %-34s %12s %12s %12s\n' "denial to JSONL p99 (ms, target 20)" - - "$(field p99_ms "$D_PADDOCK")"
printf '  %-34s %12s %12s %12s %12s\n' "behind squid: throughput (MiB/s)" - - "$H_HOP" "$H_SQUID"
printf '  %-34s %12s %12s %12s %12s\n' "behind squid: rate (req/s)" - - "$(field rps "$R_HOP")" "$(field rps "$R_SQUID")"
printf '  paddock as a fraction of the bare relay: throughput %s, rate %s, CPU per connection %sx\n' \
    "$(ratio "$T_PADDOCK" "$T_BARE")" "$(ratio "$(field rps "$R_PADDOCK")" "$(field rps "$R_BARE")")" \
    "$(ratio "$(field cpu_us_per_conn "$R_PADDOCK")" "$(field cpu_us_per_conn "$R_BARE")")"
printf '  targets: paddock >= 85%% of direct (%s), >= 1.5x squid (%s)\n' "$(ratio "$T_PADDOCK" "$T_DIRECT")" "$(ratio "$T_PADDOCK" "$T_SQUID")"
