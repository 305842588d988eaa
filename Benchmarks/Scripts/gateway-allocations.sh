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
# through (Accept: application/json), transcoded to MessagePack (Accept: application/msgpack) and
# to YAML (Accept: application/yaml), and passed through a second gateway that checks responses
# against an OpenAPI document (gateway-bench's contract case: `contract: {responses: report}`).
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
gw_write_contract_config "$UPSTREAM_PORT"
# The contract gateway first (cleanup stops it as EXTRA_GATEWAY_PID), then the plain one; each
# writes its counts to a file of its own.
LD_PRELOAD="$WORK/malloc-counter.so" MALLOC_COUNTER_FILE="$WORK/contract.counts" GATEWAY_LOG_LEVEL=info \
  GATEWAY_NAME=contract GATEWAY_ARGS="--config $WORK/contract.yaml" \
  gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"
EXTRA_GATEWAY_PID=$GATEWAY_PID
CONTRACT_URL=$GATEWAY_URL
LD_PRELOAD="$WORK/malloc-counter.so" MALLOC_COUNTER_FILE="$WORK/gateway.counts" GATEWAY_LOG_LEVEL=info \
  gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"

# The number of counts written so far to file $1.
counts_written() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }

# Writes the allocation count so far of the gateway with PID $1 to file $2, and prints it.
count_now() {
  local lines; lines=$(counts_written "$2")
  kill -USR2 "$1"
  for _ in $(seq 1 100); do
    [ "$(counts_written "$2")" -gt "$lines" ] && break
    sleep 0.05
  done
  tail -n1 "$2"
}

# Runs N ($3) requests with Accept $4 for $WORK/www/$2 at gateway URL $1; fails unless all are
# answered 2xx.
load() {
  local out
  out=$(h2load --h1 -t1 -c4 -n"$3" -H "accept: $4" "$1/$2" 2>&1)
  grep -q "^status codes: $3 2xx" <<<"$out" || { echo "gateway-allocations: not every request answered 2xx" >&2
                                                 echo "$out" >&2; return 1; }
}

printf '| case | requests | allocations per request |\n|---|---:|---:|\n'
for spec in "1 KB passthrough|gateway|1k.json|application/json" \
            "1 KB JSON->MessagePack|gateway|1k.json|application/msgpack" \
            "1 KB JSON->YAML|gateway|1k.json|application/yaml" \
            "1 KB passthrough, contract report|contract|1k.json|application/json"; do
  IFS='|' read -r name gateway file accept <<<"$spec"
  if [ "$gateway" = contract ]; then pid=$EXTRA_GATEWAY_PID url=$CONTRACT_URL
  else pid=$GATEWAY_PID url=$GATEWAY_URL; fi
  load "$url" "$file" 4000 "$accept"
  before=$(count_now "$pid" "$WORK/$gateway.counts")
  load "$url" "$file" "$REQUESTS" "$accept"
  after=$(count_now "$pid" "$WORK/$gateway.counts")
  awk -v a="$before" -v b="$after" -v n="$REQUESTS" -v name="$name" \
    'BEGIN { printf "| %s | %d | %.1f |\n", name, n, (b - a) / n }'
done
