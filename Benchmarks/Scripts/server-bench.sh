#!/usr/bin/env bash
# Load-tests Parley inside real servers with wrk on loopback, and prints one table:
# requests/s, p50 and p99 latency, and the ratio to the case's baseline.
#
#   Benchmarks/Scripts/server-bench.sh [--seconds N] [SERVER ...]      (default: every server)
#   make server-bench [SECONDS=N]
#
# Each server is a pair of functions, so another framework joins by adding its own:
#   start_<server>   builds its example in release, starts it on 127.0.0.1 at a free port, and sets
#                    SERVER_PID and BASE_URL (stopped with `kill $SERVER_PID`, nothing else);
#   cases_<server>   prints the cases, one a line: name|method|path|accept|body-file|baseline-name
#                    (baseline-name is another case's name, or empty: the ratio is this case's
#                    requests/s over the baseline's, so > 1.0 means faster than the baseline).
# wrk runs one thread with 2 connections per core for N seconds per case (default 30); the server
# and wrk share the machine's cores, so compare ratios within one run, never absolute figures.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION=30
SERVERS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) DURATION="$2"; shift 2;;
    -h|--help) sed -n '2,17p' "$0"; exit 0;;
    *) SERVERS+=("$1"); shift;;
  esac
done
[ ${#SERVERS[@]} -gt 0 ] || SERVERS=(hummingbird vapor)
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
command -v wrk >/dev/null 2>&1 || { $SUDO apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >/dev/null; }

CORES=$(nproc)
CONNECTIONS=$((2 * CORES))
WORK=$(mktemp -d)
SERVER_PID=
BASE_URL=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits (at most 30 s) until BASE_URL answers PATH.
wait_ready() {
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "$BASE_URL$1" && return 0
    sleep 0.1
  done
  echo "server-bench: the server did not answer $BASE_URL$1" >&2; return 1
}

# --- Hummingbird: Examples/HummingbirdService ---------------------------------------------------

start_hummingbird() {
  local package=Examples/HummingbirdService
  swift build -c release --package-path "$package" --product hummingbird-service >"$WORK/build.log" 2>&1 \
    || { cat "$WORK/build.log" >&2; return 1; }
  local port; port=$(free_port)
  local bin; bin=$(swift build -c release --package-path "$package" --show-bin-path)
  LOG_LEVEL=error "$bin/hummingbird-service" "$port" >/dev/null 2>&1 &
  SERVER_PID=$!
  BASE_URL="http://127.0.0.1:$port"
  wait_ready /resource
}

# The cases both servers run; $1 names the framework whose own encoder and decoder are the baseline.
server_cases() {
  local framework=$1
  # The decoding routes' body: the small payload as JSON (about 1 KB), as the baseline writes it.
  curl -s -o "$WORK/small.json" "$BASE_URL/bench/baseline/small"
  cat <<CASES
json-1k $framework JSONEncoder|GET|/bench/baseline/small|application/json||
json-1k parley|GET|/bench/small|application/json||json-1k $framework JSONEncoder
json-100k $framework JSONEncoder|GET|/bench/baseline/large|application/json||
json-100k parley|GET|/bench/large|application/json||json-100k $framework JSONEncoder
yaml-1k parley|GET|/bench/small|application/yaml||json-1k parley
xml-1k parley|GET|/bench/small|application/xml||json-1k parley
msgpack-1k parley|GET|/bench/small|application/msgpack||json-1k parley
csv-1k parley|GET|/bench/small|text/csv||json-1k parley
yaml-100k parley|GET|/bench/large|application/yaml||json-100k parley
xml-100k parley|GET|/bench/large|application/xml||json-100k parley
msgpack-100k parley|GET|/bench/large|application/msgpack||json-100k parley
csv-100k parley|GET|/bench/large|text/csv||json-100k parley
decode-1k $framework JSONDecoder|POST|/bench/baseline/decode||$WORK/small.json|
decode-1k parley|POST|/bench/decode||$WORK/small.json|decode-1k $framework JSONDecoder
CASES
}

cases_hummingbird() { server_cases hummingbird; }

# --- Vapor: Examples/VaporService (built in the integrations' shared scratch folder) ------------

start_vapor() {
  local package=Examples/VaporService scratch=.build-integrations
  swift build -c release --package-path "$package" --scratch-path "$scratch" --product VaporService >&2
  local port; port=$(free_port)
  "$(swift build -c release --package-path "$package" --scratch-path "$scratch" --show-bin-path)/VaporService" \
    serve --env production --log error --hostname 127.0.0.1 --port "$port" >/dev/null 2>&1 &
  SERVER_PID=$!
  BASE_URL="http://127.0.0.1:$port"
  wait_ready /books
}

cases_vapor() { server_cases vapor; }

# --- the run ------------------------------------------------------------------------------------

# Runs one case; prints "requests/s|p50|p99|non-2xx".
run_case() {
  local method=$1 path=$2 accept=$3 body=$4 script="$WORK/case.lua"
  {
    echo "wrk.method = \"$method\""
    [ -n "$accept" ] && echo "wrk.headers[\"Accept\"] = \"$accept\""
    if [ -n "$body" ]; then
      echo "wrk.headers[\"Content-Type\"] = \"application/json\""
      echo "local f = io.open(\"$body\", \"rb\"); wrk.body = f:read(\"*a\"); f:close()"
    fi
  } > "$script"
  local out; out=$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -s "$script" "$BASE_URL$path")
  local rps p50 p99 bad
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx or 3xx responses:/ {print $5}' <<<"$out")
  echo "${rps:-0}|${p50:-?}|${p99:-?}|${bad:-0}"
}

printf 'server-bench: %s s per case, wrk -t1 -c%s (2 connections per core, %s cores), loopback\n\n' \
  "$DURATION" "$CONNECTIONS" "$CORES"
printf '| server | case | requests/s | p50 | p99 | ratio | vs |\n|---|---|---:|---:|---:|---:|---|\n'
failed=0
for server in "${SERVERS[@]}"; do
  "start_$server"
  declare -A RPS=()
  while IFS='|' read -r name method path accept body baseline; do
    [ -n "$name" ] || continue
    IFS='|' read -r rps p50 p99 bad <<<"$(run_case "$method" "$path" "$accept" "$body")"
    RPS[$name]=$rps
    ratio=
    if [ -n "$baseline" ] && [ -n "${RPS[$baseline]:-}" ]; then
      ratio=$(awk -v a="$rps" -v b="${RPS[$baseline]}" 'BEGIN { if (b > 0) printf "%.2f", a / b }')
    fi
    note=$([ "$bad" != 0 ] && echo " (${bad} non-2xx!)" || true)
    [ "$bad" != 0 ] && failed=1
    printf '| %s | %s | %.0f | %s | %s | %s | %s |\n' \
      "$server" "$name$note" "$rps" "$p50" "$p99" "${ratio:--}" "${baseline:--}"
  done < <("cases_$server")
  unset RPS
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
done
exit $failed
