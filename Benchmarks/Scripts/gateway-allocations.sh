#!/usr/bin/env bash
# Counts parley-gateway's heap allocations per request: an exact figure, unlike CPU time on a shared
# machine, so a change to the forwarding path can be judged by one run.
#
#   Benchmarks/Scripts/gateway-allocations.sh [--requests N] [--debug]
#
# malloc-counter.c, built with gcc into the scratch folder and preloaded into the gateway
# (LD_PRELOAD), counts every malloc, calloc, realloc, memalign, aligned_alloc and posix_memalign
# call, and writes the count when the gateway gets SIGUSR2. The upstream is nginx serving the fixed
# JSON bodies of gateway-bench.sh; the gateway runs at --log-level info (its access log to a file,
# a line per request). For each case, h2load --h1 (Debian's nghttp2-client) sends 4,000 requests
# to warm up (pools, caches, the allocator's arenas), then N (default 20,000) on 4 keep-alive
# connections; the count before and after them, over N, is the figure. Cases: the 1 KB body passed
# through (Accept: application/json) and transcoded to MessagePack (Accept: application/msgpack).
# --debug uses the debug build; PARLEY_GATEWAY_BIN=PATH runs that executable instead, unbuilt.
set -euo pipefail
cd "$(dirname "$0")/../.."

REQUESTS=20000
CONFIGURATION=release
while [ $# -gt 0 ]; do
  case "$1" in
    --requests) REQUESTS="$2"; shift 2;;
    --debug) CONFIGURATION=debug; shift;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0;;
    *) echo "gateway-allocations: unknown argument '$1' (see --help)" >&2; exit 2;;
  esac
done
[[ "$REQUESTS" =~ ^[1-9][0-9]*$ ]] || { echo "gateway-allocations: '$REQUESTS' is not a count" >&2; exit 2; }

WORK=$(mktemp -d)
source Benchmarks/Scripts/gateway-common.sh
trap gw_cleanup EXIT

gw_install_tools gcc gcc
gcc -O2 -shared -fPIC -o "$WORK/malloc-counter.so" Benchmarks/Scripts/malloc-counter.c
gw_make_bodies
gw_build_gateway "$CONFIGURATION"
UPSTREAM_PORT=$(free_port)
gw_start_nginx "$UPSTREAM_PORT" ""
COUNTS="$WORK/counts"
LD_PRELOAD="$WORK/malloc-counter.so" MALLOC_COUNTER_FILE="$COUNTS" GATEWAY_LOG_LEVEL=info \
  gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"

# The number of counts written so far.
counts_written() { if [ -f "$COUNTS" ]; then wc -l < "$COUNTS"; else echo 0; fi; }

# Writes the gateway's allocation count so far, and prints it.
count_now() {
  local lines; lines=$(counts_written)
  kill -USR2 "$GATEWAY_PID"
  for _ in $(seq 1 100); do
    [ "$(counts_written)" -gt "$lines" ] && break
    sleep 0.05
  done
  tail -n1 "$COUNTS"
}

# Runs N requests with Accept $2 for $WORK/www/$1; fails unless all are answered 2xx.
load() {
  local out
  out=$(h2load --h1 -t1 -c4 -n"$2" -H "accept: $3" "$GATEWAY_URL/$1" 2>&1)
  grep -q "^status codes: $2 2xx" <<<"$out" || { echo "gateway-allocations: not every request answered 2xx" >&2
                                                 echo "$out" >&2; return 1; }
}

printf '| case | requests | allocations per request |\n|---|---:|---:|\n'
for spec in "1 KB passthrough|1k.json|application/json" "1 KB JSON->MessagePack|1k.json|application/msgpack"; do
  IFS='|' read -r name file accept <<<"$spec"
  load "$file" 4000 "$accept"
  before=$(count_now)
  load "$file" "$REQUESTS" "$accept"
  after=$(count_now)
  awk -v a="$before" -v b="$after" -v n="$REQUESTS" -v name="$name" \
    'BEGIN { printf "| %s | %d | %.1f |\n", name, n, (b - a) / n }'
done
