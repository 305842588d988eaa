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
# to YAML (Accept: application/yaml), passed through to an h2c client (HTTP/2 by prior knowledge, 10
# streams at once on each connection), and passed through a second gateway that checks responses
# against an OpenAPI document (gateway-bench's contract case: `contract: {responses: report}`).
# --debug uses the debug build; PARLEY_GATEWAY_BIN=PATH runs that executable instead, unbuilt.
set -euo pipefail
cd "$(dirname "$0")/../.."

source Benchmarks/Scripts/gateway-common.sh
gw_count_options gateway-allocations 20000 "$@"

WORK=$(mktemp -d)
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

# Has the gateway with PID $1 write its allocation count so far to its file ($WORK/$2.counts, $2 its
# name), and prints it.
count_now() {
  local file="$WORK/$2.counts" lines
  lines=$(counts_written "$file")
  kill -USR2 "$1"
  for _ in $(seq 1 100); do
    [ "$(counts_written "$file")" -gt "$lines" ] && break
    sleep 0.05
  done
  tail -n1 "$file"
}

gw_count_cases count_now "allocations per request" 4000 "%.1f"
