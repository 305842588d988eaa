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
# to MessagePack and to YAML, and passed through a second gateway that checks responses against an
# OpenAPI document). --debug uses the debug build; PARLEY_GATEWAY_BIN=PATH runs that executable
# instead, unbuilt. Under callgrind a request takes some 50 times as long: the run takes a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."

REQUESTS=2000
CONFIGURATION=release
while [ $# -gt 0 ]; do
  case "$1" in
    --requests) REQUESTS="$2"; shift 2;;
    --debug) CONFIGURATION=debug; shift;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0;;
    *) echo "gateway-instructions: unknown argument '$1' (see --help)" >&2; exit 2;;
  esac
done
[[ "$REQUESTS" =~ ^[1-9][0-9]*$ ]] || { echo "gateway-instructions: '$REQUESTS' is not a count" >&2; exit 2; }

WORK=$(mktemp -d)
source Benchmarks/Scripts/gateway-common.sh
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
# PID the script started is the wrapper's, which exec made valgrind's).
instructions_now() {
  callgrind_control -e "$1" 2>/dev/null | awk '/^ *Th *[0-9]+ / { gsub(",", "", $NF); total += $NF } END { print total }'
}

# Runs N ($3) requests with Accept $4 for $WORK/www/$2 at gateway URL $1; fails unless all are
# answered 2xx.
load() {
  local out
  out=$(h2load --h1 -t1 -c4 -n"$3" -H "accept: $4" "$1/$2" 2>&1)
  grep -q "^status codes: $3 2xx" <<<"$out" || { echo "gateway-instructions: not every request answered 2xx" >&2
                                                 echo "$out" >&2; return 1; }
}

printf '| case | requests | instructions per request |\n|---|---:|---:|\n'
for spec in "1 KB passthrough|gateway|1k.json|application/json" \
            "1 KB JSON->MessagePack|gateway|1k.json|application/msgpack" \
            "1 KB JSON->YAML|gateway|1k.json|application/yaml" \
            "1 KB passthrough, contract report|contract|1k.json|application/json"; do
  IFS='|' read -r name gateway file accept <<<"$spec"
  if [ "$gateway" = contract ]; then pid=$EXTRA_GATEWAY_PID url=$CONTRACT_URL
  else pid=$GATEWAY_PID url=$GATEWAY_URL; fi
  load "$url" "$file" 500 "$accept"
  before=$(instructions_now "$pid")
  load "$url" "$file" "$REQUESTS" "$accept"
  after=$(instructions_now "$pid")
  awk -v a="$before" -v b="$after" -v n="$REQUESTS" -v name="$name" \
    'BEGIN { printf "| %s | %d | %d |\n", name, n, (b - a) / n }'
done
