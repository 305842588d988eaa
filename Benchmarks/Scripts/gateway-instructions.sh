#!/usr/bin/env bash
# Counts parley-gateway's user-space instructions per request: like its allocations, a figure that
# a shared machine's noise does not move, and the closest such figure to its CPU time per request.
#
#   Benchmarks/Scripts/gateway-instructions.sh [--requests N] [--debug]
#
# The gateway runs under valgrind's callgrind (valgrind 3.19 cannot read the debug information of
# the release build, which links the Swift runtime in: it runs a copy stripped of it with
# `strip -g`, the code unchanged). The upstream is nginx serving the fixed JSON bodies of
# gateway-bench.sh; the gateway runs at --log-level info (its access log to a file, a line per
# request, its writer thread counted too). For each case, h2load --h1 (Debian's nghttp2-client)
# sends 500 requests to warm up, then N (default 2,000) on 4 keep-alive connections; the
# instructions of all the gateway's threads before and after them (`callgrind_control -e`), over N,
# are the figure. Cases: those of gateway-allocations.sh (the 1 KB body passed through, transcoded
# to MessagePack and to YAML, passed through to an h2c client, and passed through a second gateway
# that checks responses against an OpenAPI document). --debug uses the debug build; PARLEY_GATEWAY_BIN=PATH runs that executable
# instead, unbuilt. Under callgrind a request takes some 50 times as long: the run takes a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."

source Benchmarks/Scripts/gateway-common.sh
gw_count_options gateway-instructions 2000 "$@"

WORK=$(mktemp -d)
trap gw_cleanup EXIT

gw_install_tools valgrind valgrind
gw_make_bodies
gw_build_gateway "$CONFIGURATION"
strip -g -o "$WORK/parley-gateway" "$GATEWAY_BIN"
# gw_start_gateway runs GATEWAY_BIN with its arguments: here, callgrind running the stripped copy.
cat > "$WORK/under-callgrind" <<SH
#!/usr/bin/env bash
exec valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.%p" "$WORK/parley-gateway" "\$@"
SH
chmod +x "$WORK/under-callgrind"
GATEWAY_BIN="$WORK/under-callgrind"
UPSTREAM_PORT=$(free_port)
gw_start_nginx "$UPSTREAM_PORT" ""
gw_write_contract_config "$UPSTREAM_PORT"
GATEWAY_LOG_LEVEL=info GATEWAY_NAME=contract GATEWAY_ARGS="--config $WORK/contract.yaml" \
  gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"
EXTRA_GATEWAY_PID=$GATEWAY_PID
CONTRACT_URL=$GATEWAY_URL
GATEWAY_LOG_LEVEL=info gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"

# The instructions run so far by every thread of the process under callgrind whose PID is $1 (the
# PID the script started is the wrapper's, which exec made valgrind's); $2, its name, is not needed.
instructions_now() {
  callgrind_control -e "$1" 2>/dev/null | awk '/^ *Th *[0-9]+ / { gsub(",", "", $NF); total += $NF } END { print total }'
}

gw_count_cases instructions_now "instructions per request" 500 "%d"
