#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Injection and tunnels measured the way an agent uses them: curl inside real bubblewrap
# sandboxes made by `paddock run`, the key in a real GNOME Keyring in a private D-Bus session,
# and in the same run mitmproxy injecting the same header, squid tunnelling, and direct
# access, all against one local nginx (HTTPS for small requests, HTTP for 256 MiB).
#
#   1. in-process: the inject-bench executable (Paddock's interception against mitmproxy,
#      libcurl clients in one process, no sandbox);
#   2. injected HTTPS GETs from inside a sandbox: N small GETs with `curl -Z --parallel-max 32`
#      on kept-alive connections, then the same sequentially on one connection; mitmproxy
#      (same addon header) and direct TLS from the host beside them;
#   3. CONNECT tunnels from inside a sandbox (no injection): the same N GETs, TLS end to end;
#      squid and direct beside them;
#   4. 256 MiB through CONNECT from inside a sandbox, squid and direct beside it (the sandbox
#      and direct as a pair, one right after the other, the order swapped every round: the
#      median of the pairs' ratios is the figure least moved by the machine's other load);
#   5. the CPU the daemon and the relay inside the sandbox (paddock-init's thread joining
#      127.0.0.1:3128 to the proxy socket) spent per request: the relay's share.
#
# Every figure is the median of BENCH_ROUNDS rounds (default 3), each round running every
# contender in turn. Each line says how many requests succeeded, carried the key and how many
# connections curl opened (kept-alive: 32 for parallel, 1 for sequential).
#
# Usage: run.sh PADDOCK_BIN INJECT_BENCH_BIN (paddockd and paddock-init beside paddock, or
# $PADDOCKD and $PADDOCK_INIT). Environment: BENCH_REQUESTS (2000), BENCH_ROUNDS (3).
# Installs mitmproxy, squid, nginx-light and curl with apt-get when they are missing.
set -euo pipefail

PADDOCK=$(realpath "${1:?usage: run.sh PADDOCK_BIN INJECT_BENCH_BIN}")
INPROCESS=${2:-}
REQUESTS=${BENCH_REQUESTS:-2000}
ROUNDS=${BENCH_ROUNDS:-3}

# A private D-Bus session with a throwaway, unlocked keyring: this script again inside it.
if [ -z "${PADDOCK_BENCH_PRIVATE_KEYRING:-}" ]; then
    need=()
    command -v mitmdump >/dev/null || need+=(mitmproxy)
    command -v squid >/dev/null || need+=(squid)
    command -v nginx >/dev/null || need+=(nginx-light)
    command -v curl >/dev/null || need+=(curl)
    command -v gnome-keyring-daemon >/dev/null || need+=(gnome-keyring)
    command -v dbus-run-session >/dev/null || need+=(dbus)
    if ((${#need[@]})); then
        echo "installing ${need[*]}" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null
    fi
    export PADDOCK_BENCH_PRIVATE_KEYRING=1
    exec dbus-run-session -- "$0" "$@"
fi

ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/paddock-inject-bench.XXXXXX)
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

mkdir -p "$WORK/keyring"
printf 'paddock-bench' | XDG_DATA_HOME="$WORK/keyring" gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1


KEY="sk-bench-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

# ---- certificates: an upstream authority and one certificate for every name used -----------
CERTS=$WORK/certs
mkdir -p "$CERTS"
(
    cd "$CERTS"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout upstream-ca.key \
        -out upstream-ca.pem -days 2 -subj '/CN=Paddock Bench Upstream CA' 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout upstream.key -out upstream.csr \
        -subj '/CN=inject.bench.test' 2>/dev/null
    printf 'subjectAltName=DNS:inject.bench.test,DNS:tunnel.bench.test,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >upstream.ext
    openssl x509 -req -in upstream.csr -CA upstream-ca.pem -CAkey upstream-ca.key -CAcreateserial \
        -out upstream.pem -days 2 -extfile upstream.ext 2>/dev/null
)

# ---- upstream: nginx, HTTPS answering whether the key came, HTTP serving 256 MiB ------------
mkdir -p "$WORK/www" "$WORK/nginx"
truncate -s 256M "$WORK/www/big"
chmod -R a+rX "$WORK/www" "$CERTS"
HTTPS_PORT=$(free_port)
HTTP_PORT=$(free_port)
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
    keepalive_requests 1000000;
    keepalive_timeout 300s;
    map \$http_authorization \$keyed {
        "Bearer $KEY" "key-present\n";
        default "key-missing\n";
    }
    server {
        listen 127.0.0.1:$HTTPS_PORT ssl backlog=4096;
        ssl_certificate $CERTS/upstream.pem;
        ssl_certificate_key $CERTS/upstream.key;
        location /small { default_type text/plain; return 200 \$keyed; }
    }
    server {
        listen 127.0.0.1:$HTTP_PORT backlog=4096;
        root $WORK/www;
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
PIDS+=($!)
wait_port "$HTTPS_PORT"
wait_port "$HTTP_PORT"

# ---- Paddock: private folders, the key, the trust, the names, two sandboxes ----------------
export XDG_CONFIG_HOME=$WORK/xdg/config XDG_STATE_HOME=$WORK/xdg/state XDG_DATA_HOME=$WORK/xdg/data XDG_RUNTIME_DIR=$WORK/xdg/run
mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" "$WORK/workspace"
chmod 700 "$XDG_RUNTIME_DIR"
BIN_DIR=$(dirname "$PADDOCK")
export PADDOCKD=${PADDOCKD:-$(find "$BIN_DIR/.." -maxdepth 3 -type f -name paddockd -perm -u+x | head -n1)}
export PADDOCK_INIT=${PADDOCK_INIT:-$(find "$BIN_DIR/.." -maxdepth 3 -type f -name paddock-init -perm -u+x | head -n1)}
export DOCKER_HOST=unix://$WORK/no-docker.sock
unset JOURNAL_STREAM
# A kit injecting the key into inject.bench.test, and one with no key reaching tunnel.bench.test;
# both names lead to the nginx on loopback through the policy's resolver overrides.
write_kit() { # NAME CREDENTIALS ALLOW...
    local name=$1 credentials=$2
    shift 2
    mkdir -p "$WORK/kits/$name"
    {
        printf 'schemaVersion: "2"\nkind: sandbox\nname: %s\n' "$name"
        printf 'sandbox:\n  image: debian:12\n  entrypoint: [sh, -c]\n  command: ["sleep 86400"]\n'
        printf '%s' "$credentials"
        printf 'permissions:\n  network:\n    allow:\n'
        for host in "$@"; do printf '      - %s\n' "$host"; done
    } >"$WORK/kits/$name/spec.yaml"
}
write_kit bench-inject "credentials:
  - service: benchllm
    required: true
    apiKey:
      name: LLM_API_KEY
      proxyManaged: true
      inject:
        - domain: inject.bench.test
          scheme: bearer
" "inject.bench.test:$HTTPS_PORT"
write_kit bench-tunnel "" "tunnel.bench.test:$HTTPS_PORT" "tunnel.bench.test:$HTTP_PORT"
"$PADDOCK" policy resolve set inject.bench.test 127.0.0.1 >/dev/null
"$PADDOCK" policy resolve set tunnel.bench.test 127.0.0.1 >/dev/null
"$PADDOCK" ca trust "$CERTS/upstream-ca.pem" >/dev/null
printf '%s' "$KEY" | "$PADDOCK" secret set benchllm >/dev/null
# The daemon reads policy.yaml when it starts: it starts now, with the names in place.
"$PADDOCK" daemon stop >/dev/null 2>&1 || true
for kit in bench-inject bench-tunnel; do
    "$PADDOCK" run --detach --approve-credentials --kit "$WORK/kits/$kit" --name "$kit" "$WORK/workspace" \
        -- 'sleep 86400' >"$WORK/$kit.out" 2>&1 || { cat "$WORK/$kit.out" >&2; exit 1; }
done
# This run's daemon (others may run under the same user): the one using this run's folders.
PADDOCKD_PID=$(for pid in $(pgrep -u "$(id -u)" -x paddockd); do
    grep -qaz "^XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR\$" "/proc/$pid/environ" 2>/dev/null && echo "$pid"; done | tail -n1 || true)
# curl reads its CA file for every connection it opens. The sandbox's bundle holds the system's
# authorities too (about 40 ms of curl's CPU each time), the host's contenders one certificate:
# inside, curl gets the one authority it needs as well, Paddock's or the upstream's.
cp "$CERTS/upstream-ca.pem" "$WORK/workspace/upstream-ca.pem"
cp "$XDG_CONFIG_HOME/paddock/ca.pem" "$WORK/workspace/paddock-ca.pem"
chmod 644 "$WORK/workspace/upstream-ca.pem" "$WORK/workspace/paddock-ca.pem"
IN_INJECT="--cacert $WORK/workspace/paddock-ca.pem"
IN_TUNNEL="--cacert $WORK/workspace/upstream-ca.pem"

# ---- mitmproxy and squid on loopback -------------------------------------------------------
MITM_PORT=$(free_port)
cat >"$WORK/inject.py" <<PY
def request(flow):
    if flow.request.pretty_host == "localhost":
        flow.request.headers["Authorization"] = "Bearer $KEY"
PY
HOME=$WORK mitmdump -q --listen-host 127.0.0.1 --listen-port "$MITM_PORT" --set "confdir=$WORK/mitm" \
    --set "ssl_verify_upstream_trusted_ca=$CERTS/upstream-ca.pem" -s "$WORK/inject.py" >"$WORK/mitm.log" 2>&1 &
PIDS+=($!)
wait_port "$MITM_PORT"
for _ in $(seq 100); do [ -f "$WORK/mitm/mitmproxy-ca-cert.pem" ] && break; sleep 0.1; done

start_squid

# ---- 1. in-process -------------------------------------------------------------------------
if [ -n "$INPROCESS" ] && [ -x "$INPROCESS" ]; then
    echo "== in-process interception (no sandbox): inject-bench"
    "$INPROCESS" | sed 's/^/  /' || true
fi

# ---- measurements --------------------------------------------------------------------------
# One shell snippet, run inside a sandbox (paddock exec) or on the host: N GETs, timed inside,
# printing "nanoseconds ok keyed connections".
gets() { # CURL_OPTIONS URL
    cat <<SH
t0=\$(date +%s%N)
r=\$(curl -s --no-progress-meter --http1.1 $1 -w '\n%{http_code} %{num_connects}\n' '$2?n=[1-$REQUESTS]' |
    awk '/^key-present\$/ {k++} /^[0-9]+ [0-9]+\$/ {if (\$1 == 200) ok++; c += \$2} END {print ok+0, k+0, c+0}')
t1=\$(date +%s%N)
echo "\$((t1 - t0)) \$r"
SH
}
PARALLEL="-Z --parallel-max 32"
INJECT_URL=https://inject.bench.test:$HTTPS_PORT/small
TUNNEL_URL=https://tunnel.bench.test:$HTTPS_PORT/small
LOCAL_URL=https://localhost:$HTTPS_PORT/small
MITM="-x http://127.0.0.1:$MITM_PORT --cacert $WORK/mitm/mitmproxy-ca-cert.pem"
SQUID="-x http://127.0.0.1:$SQUID_PORT --cacert $CERTS/upstream-ca.pem"
DIRECT="--noproxy '*' --cacert $CERTS/upstream-ca.pem"
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy no_proxy NO_PROXY

declare -A RATES SPEEDS DETAIL CPU
# CPU time (clock ticks) of the daemon and of the sandboxes' paddock-init (whose relay thread
# joins 127.0.0.1:3128 inside to the proxy socket): each one's share of a contender's run.
HZ=$(getconf CLK_TCK)
# This run's sandboxes (their inits are not the daemon's children): those mounting this run's folder.
INIT_PIDS=$(for dir in /proc/[0-9]*; do
    grep -qa -- --relay "$dir/cmdline" 2>/dev/null && grep -qF "$WORK" "$dir/mountinfo" 2>/dev/null && echo "${dir#/proc/}"
done | tr '\n' ' ' || true)
echo "== CPU counted for the daemon ($PADDOCKD_PID) and $(wc -w <<<"$INIT_PIDS") sandbox relays ($INIT_PIDS)"
ticks() { # PID...: user and system time, summed
    for pid in "$@"; do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true; done | awk '{t += $1} END {print t + 0}'
}
measured() { # NAME COMMAND...: runs it, keeping the CPU the daemon and the relay spent
    local name=$1 daemon relay
    shift
    daemon=$(ticks $PADDOCKD_PID)
    relay=$(ticks $INIT_PIDS)
    "$@"
    CPU[$name]+="$(($(ticks $PADDOCKD_PID) - daemon)):$(($(ticks $INIT_PIDS) - relay)) "
}
record() { # NAME SNIPPET_OUTPUT
    local ns ok keyed connects
    read -r ns ok keyed connects <<<"$2"
    RATES[$1]+="$(awk -v n="$ok" -v ns="$ns" 'BEGIN { printf "%.0f", n / (ns / 1e9) }') "
    DETAIL[$1]="$ok/$REQUESTS ok, $keyed with the key, $connects connections"
}
in_sandbox() { "$PADDOCK" exec "$1" sh -c "$2"; }
on_host() { sh -c "$1"; }
big() { # CURL_OPTIONS URL -> bytes per second
    echo "curl -s $1 -o /dev/null --max-time 120 -w '%{speed_download}' '$2'"
}
# CPU per request of the daemon and the relay over every round, in microseconds.
cpu_share() { # NAME REQUESTS_PER_ROUND
    tr ' ' '\n' <<<"${CPU[$1]}" | grep . | awk -F: -v hz="$HZ" -v n="$2" -v r="$ROUNDS" \
        '{d += $1; i += $2} END {printf "daemon %.0f us, relay %.0f us", d / hz / (n * r) * 1e6, i / hz / (n * r) * 1e6}'
}

# With BENCH_PROFILE=1 or sequential (and perf installed: apt-get install linux-perf), the daemon
# is profiled during the first round's sequential injected GETs; with BENCH_PROFILE=parallel,
# during its parallel ones (call graphs by DWARF: the build has no frame pointers). Its busiest
# functions are printed, and perf.data is kept as $BENCH_PROFILE_OUT when that is set.
PROFILE_PID=
profile() { # start|stop PHASE
    local phase=${BENCH_PROFILE:-}
    [ "$phase" = 1 ] && phase=sequential
    [ "$phase" = "$2" ] && command -v perf >/dev/null && [ -n "$PADDOCKD_PID" ] || return 0
    if [ "$1" = start ] && [ ! -f "$WORK/perf.data" ]; then
        local graph=-g
        [ "$phase" = parallel ] && graph="--call-graph dwarf,8192 -F 999"
        # shellcheck disable=SC2086 # the options are words
        perf record -q $graph -o "$WORK/perf.data" -p "$PADDOCKD_PID" 2>/dev/null &
        PROFILE_PID=$!
        sleep 1 # attached before the GETs start
    elif [ "$1" = stop ] && [ -n "$PROFILE_PID" ]; then
        kill -INT "$PROFILE_PID"
        wait "$PROFILE_PID" || true
        PROFILE_PID=
    fi
}
print_profile() {
    [ -f "$WORK/perf.data" ] || return 0
    [ -z "${BENCH_PROFILE_OUT:-}" ] || cp "$WORK/perf.data" "$BENCH_PROFILE_OUT"
    echo "== the daemon during ${BENCH_PROFILE/#1/sequential} injected GETs (perf, first round): busiest functions"
    { perf report -q -i "$WORK/perf.data" --no-children --sort dso,sym --stdio -g none 2>/dev/null || true; } |
        grep . | head -20 | sed 's/^/  /' || true
}

# 256 MiB from inside a sandbox and direct from the host, one right after the other, the order
# swapped every round: each pair's ratio sees the same moment's load.
big_pair() { # ROUND
    local out direct
    if (($1 % 2)); then
        measured big-paddock eval 'out=$(in_sandbox bench-tunnel "$(big "-p" "http://tunnel.bench.test:$HTTP_PORT/big")")'
        direct=$(on_host "$(big "--noproxy '*'" "http://127.0.0.1:$HTTP_PORT/big")")
    else
        direct=$(on_host "$(big "--noproxy '*'" "http://127.0.0.1:$HTTP_PORT/big")")
        measured big-paddock eval 'out=$(in_sandbox bench-tunnel "$(big "-p" "http://tunnel.bench.test:$HTTP_PORT/big")")'
    fi
    SPEEDS[big-paddock]+="$out "
    SPEEDS[big-direct]+="$direct "
    PAIRS+="$(ratio "$out" "$direct") "
    echo "    256 MiB: paddock $(awk -v b="$out" 'BEGIN { printf "%.0f", b / 1048576 }') MiB/s, direct" \
        "$(awk -v b="$direct" 'BEGIN { printf "%.0f", b / 1048576 }') MiB/s"
}
PAIRS=""

run_round() {
    local out
    profile start parallel
    measured inject-par-paddock eval 'out=$(in_sandbox bench-inject "$(gets "$PARALLEL $IN_INJECT" "$INJECT_URL")")'
    profile stop parallel
    record inject-par-paddock "$out"
    record inject-par-mitm "$(on_host "$(gets "$PARALLEL $MITM" "$LOCAL_URL")")"
    record par-direct "$(on_host "$(gets "$PARALLEL $DIRECT" "$LOCAL_URL")")"
    profile start sequential
    measured inject-seq-paddock eval 'out=$(in_sandbox bench-inject "$(gets "$IN_INJECT" "$INJECT_URL")")'
    profile stop sequential
    record inject-seq-paddock "$out"
    record inject-seq-mitm "$(on_host "$(gets "$MITM" "$LOCAL_URL")")"
    record seq-direct "$(on_host "$(gets "$DIRECT" "$LOCAL_URL")")"
    measured tunnel-par-paddock eval 'out=$(in_sandbox bench-tunnel "$(gets "$PARALLEL $IN_TUNNEL" "$TUNNEL_URL")")'
    record tunnel-par-paddock "$out"
    record tunnel-par-squid "$(on_host "$(gets "$PARALLEL $SQUID" "$LOCAL_URL")")"
    big_pair "$1"
    SPEEDS[big-squid]+="$(on_host "$(big "-p -x http://127.0.0.1:$SQUID_PORT" "http://127.0.0.1:$HTTP_PORT/big")") "
}

echo "== $REQUESTS small HTTPS GETs per line, curl $PARALLEL (or sequential), median of $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
    echo "  round $round of $ROUNDS"
    run_round "$round"
done
rate() { tr ' ' '\n' <<<"${RATES[$1]}" | grep . | median; }
mib() { tr ' ' '\n' <<<"${SPEEDS[$1]}" | grep . | median | awk '{printf "%.0f", $1 / 1048576}'; }
line() { # LABEL NAME
    printf '  %-46s %7s/s  (%s)\n' "$1" "$(rate "$2")" "${DETAIL[$2]}"
}
echo "== injected HTTPS GETs (Authorization added by the proxy)"
line "paddock, curl inside a sandbox, parallel" inject-par-paddock
line "mitmproxy + addon, host curl, parallel" inject-par-mitm
line "direct TLS, host curl, parallel" par-direct
line "paddock, curl inside a sandbox, sequential" inject-seq-paddock
line "mitmproxy + addon, host curl, sequential" inject-seq-mitm
line "direct TLS, host curl, sequential" seq-direct
echo "== CONNECT tunnels, no injection (TLS end to end)"
line "paddock, curl inside a sandbox, parallel" tunnel-par-paddock
line "squid, host curl, parallel" tunnel-par-squid
line "direct TLS, host curl, parallel" par-direct
echo "== 256 MiB through CONNECT (plain HTTP inside the tunnel)"
for who in paddock squid direct; do printf '  %-46s %7s MiB/s\n' "$who" "$(mib "big-$who")"; done

echo "== CPU per request (per MiB for 256 MiB), all rounds: Paddock's daemon and the relay inside the sandbox"
printf '  %-46s %s\n' "injected, parallel" "$(cpu_share inject-par-paddock "$REQUESTS")"
printf '  %-46s %s\n' "injected, sequential" "$(cpu_share inject-seq-paddock "$REQUESTS")"
printf '  %-46s %s\n' "tunnel, parallel" "$(cpu_share tunnel-par-paddock "$REQUESTS")"
printf '  %-46s %s\n' "256 MiB through CONNECT" "$(cpu_share big-paddock 256)"

print_profile

echo
echo "== summary (loopback, one run; figures depend on the machine's load)"
printf '  %-44s %10s %10s %8s %s\n' path paddock reference ratio target
printf '  %-44s %10s %10s %8s %s\n' "injected GETs, parallel (ref mitmproxy)" "$(rate inject-par-paddock)" \
    "$(rate inject-par-mitm)" "$(ratio "$(rate inject-par-paddock)" "$(rate inject-par-mitm)")" ">= 10"
printf '  %-44s %10s %10s %8s %s\n' "injected GETs, parallel (ref direct TLS)" "$(rate inject-par-paddock)" \
    "$(rate par-direct)" "$(ratio "$(rate inject-par-paddock)" "$(rate par-direct)")" ">= 0.60"
printf '  %-44s %10s %10s %8s\n' "injected GETs, sequential (ref mitmproxy)" "$(rate inject-seq-paddock)" \
    "$(rate inject-seq-mitm)" "$(ratio "$(rate inject-seq-paddock)" "$(rate inject-seq-mitm)")"
printf '  %-44s %10s %10s %8s %s\n' "tunnel GETs, parallel (ref direct TLS)" "$(rate tunnel-par-paddock)" \
    "$(rate par-direct)" "$(ratio "$(rate tunnel-par-paddock)" "$(rate par-direct)")" ">= 0.60"
printf '  %-44s %10s %10s %8s\n' "tunnel GETs, parallel (ref squid)" "$(rate tunnel-par-paddock)" \
    "$(rate tunnel-par-squid)" "$(ratio "$(rate tunnel-par-paddock)" "$(rate tunnel-par-squid)")"
printf '  %-44s %10s %10s %8s %s\n' "256 MiB CONNECT, MiB/s (ref direct)" "$(mib big-paddock)" "$(mib big-direct)" \
    "$(ratio "$(mib big-paddock)" "$(mib big-direct)")" ">= 0.85"
printf '  %-44s %10s %10s %8s %s\n' "256 MiB CONNECT, median of the pairs' ratios" "" "" \
    "$(tr ' ' '\n' <<<"$PAIRS" | grep . | median)" ">= 0.85"
printf '  %-44s %10s %10s %8s %s\n' "256 MiB CONNECT, MiB/s (ref squid)" "$(mib big-paddock)" "$(mib big-squid)" \
    "$(ratio "$(mib big-paddock)" "$(mib big-squid)")" ">= 1.5"
