# SPDX-License-Identifier: GPL-3.0-or-later
# What the shell benchmarks share (sourced by tests/bench/*/run.sh, bash): loopback ports,
# the processes they started, medians and ratios, and squid as the reference tunnel.
# The sourcing script sets WORK (its scratch folder) and PIDS=() before calling these.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_port() { # PORT [SECONDS, default 30]
    local tries=$((${2:-30} * 10))
    for _ in $(seq "$tries"); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

stop_pids() { # every process in PIDS: asked to stop, killed after 10 s
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do timeout 10 tail --pid="$pid" -f /dev/null 2>/dev/null || kill -9 "$pid" 2>/dev/null || true; done
}

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a/b; else print "n/a" }'; }

start_squid() { # [WAIT SECONDS]: squid on loopback, no cache, its files in $WORK/squid; sets SQUID_PORT
    # It resolves upstream.bench.test to loopback itself, as a company's proxy resolves names
    # the desktop cannot (the proxy benchmark's upstream hop).
    SQUID_PORT=$(free_port)
    mkdir -p "$WORK/squid"
    echo "127.0.0.1 localhost upstream.bench.test" >"$WORK/squid/hosts"
    chown proxy:proxy "$WORK/squid"
    cat >"$WORK/squid/squid.conf" <<CONF
http_port 127.0.0.1:$SQUID_PORT
http_access allow localhost
http_access deny all
cache deny all
cache_mem 8 MB
access_log none
cache_store_log none
cache_log $WORK/squid/cache.log
pid_filename $WORK/squid/squid.pid
coredump_dir $WORK/squid
hosts_file $WORK/squid/hosts
cache_effective_user proxy
max_filedescriptors 16384
shutdown_lifetime 1 seconds
CONF
    squid -N -f "$WORK/squid/squid.conf" &
    PIDS+=($!)
    wait_port "$SQUID_PORT" "${1:-30}"
}
