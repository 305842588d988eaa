#!/usr/bin/env bash
# Load-tests parley-gateway with wrk on loopback against nginx as the anchor, in the same run, and
# prints one table: requests/s, p50 and p99 latency, and ratios, then the goals of issues #33 and #35.
#
#   Benchmarks/Scripts/gateway-bench.sh [--seconds N] [--rounds R] [--sizes LIST] [--quick] [--debug] [--fail-on-goals]
#                                       [--paced-seconds N] [--slow-reader-seconds N] [--compare EXECUTABLE]
#   make gateway-bench [SECONDS=N] [COMPARE=EXECUTABLE]
#
# The upstream is nginx serving three fixed JSON files (exactly 1 KB, 100 KB and 1 MB of the same
# generated records) as static files: the fastest upstream at hand, and C, so it is not what limits
# a case. A second nginx, started beside it, is the anchor: a plain `proxy_pass` to that
# upstream with keepalive connections (an `upstream` block with `keepalive 32`, HTTP/1.1, no
# Connection field) and no temporary files. parley-gateway (release build) forwards to the same
# upstream. Cases, for each size in turn (nginx and the gateway interleave, so a change in the
# machine's load hits both): nginx passthrough, the NIO byte relay (below), gateway passthrough (all
# three `Accept: application/json`), gateway JSON->YAML (`Accept: application/yaml`) and
# JSON->MessagePack (`Accept: application/msgpack`).
# Each answer is checked once before it is timed (status, type; passthrough bodies byte for byte).
# Both proxies write an access-log line per request (nginx's anchor to a file, the gateway at
# --log-level info to its standard error, a file). The gateway's CPU time per request is its
# process's user + system time over a case divided by the requests wrk completed; the anchor runs in
# an nginx of its own, apart from the upstream, so its rows give nginx's proxy CPU per request the
# same way (master and workers). The table gives the user-space share of it in brackets: the rest is
# the kernel's (socket calls, about as many per request in every proxy here, and scheduling).
# The floor: nio-byte-relay (built from the gateway's package) joins each client connection to an
# upstream connection of its own, byte for byte, on SwiftNIO's event loops as the gateway runs:
# no HTTP parsing, no pool, no log. Its passthrough rows give what SwiftNIO and the kernel's
# loopback TCP cost per request on the machine at hand; the gateway's CPU above it is its own work.
# For the 1 KB body a second gateway process checks responses against an OpenAPI document describing
# the bodies (`contract: {requests: off, responses: report}`): its passthrough row against the first
# gateway's gives the contract check's CPU per request.
#
# --compare EXECUTABLE runs another parley-gateway build beside this one, in front of the same
# upstream: its passthrough, JSON->YAML, JSON->MessagePack and h2c rows ("compared build ...") run
# right after this build's, in every round, and a last table gives both builds' CPU per request case
# by case. Before and after a change in one run: separate runs on a shared machine differ by more
# than a small change does. Its "vs gateway passthrough" is against its own passthrough.
#
# h2c: the 1 KB passthrough again over HTTP/2 by prior knowledge, with h2load (Debian's nghttp2-client),
# against the same nginx proxy listening with `http2` (nginx 1.22 serves h2c by prior knowledge there)
# and the gateway's main port: h2load -t1, the same connections, 10 streams at once on each. h2load
# reports no percentiles: the p50 column shows its mean time per request, p99 "-".
#
# wrk runs one thread with 2 connections per core for N seconds per case (default 30); wrk, nginx and
# the gateway share the machine's cores, so compare ratios within one run, never absolute figures.
# --rounds R runs every case R times (interleaved) and reports the run with the median requests/s.
# --quick: 3 seconds per case, one round. --debug uses the debug build (`make integration-test`
# leaves it in .build-integrations) instead of building in release: figures are then not the product's.
# --sizes LIST runs only those body sizes (comma-separated, of 1k, 100k and 1m; default all three):
# `--sizes 1k` times the per-request cost alone, and a goal whose size did not run is not judged.
# Added latency at half of saturation (when 1k runs): the gateway's saturation is its 1 KB passthrough
# requests/s above (wrk, 2 connections per core); h2load --h1 (Debian's nghttp2-client; wrk has no fixed
# rate) then sends half that rate, paced (--rps per connection, the same connections), for
# --paced-seconds N (default: --seconds) to the upstream directly, then through the gateway.
# Each request's time comes from h2load's --log-file; the row has both p50/p99 and the added p99
# (the gateway's minus the direct one). Each connection has one request in flight (HTTP/1.1), so a
# request due while the last is unanswered waits: the rate reached shows a target falling behind.
# With --rounds R the pair runs R times, interleaved, and the round with the median added p99 is
# reported.
# Slow reader: a fresh gateway process (nothing else through it) forwards a 100 MB passthrough body
# (100m.json, generated for this row) to one client reading it at 64 KB/s (a 64 KB receive buffer,
# paced reads) for --slow-reader-seconds N (default 60; 0 skips the row), while the gateway's VmRSS is
# sampled every second. The whole body would take 26 minutes at that rate: the row measures the
# first N seconds (about N x 64 KB read), which is what shows whether the gateway buffers what the
# client has not taken: with backpressure (the upstream is read only while the client's side takes
# writes) its RSS stays flat however long the client keeps reading.
# Goals (issues #33 and #35): 1 KB passthrough >= 0.6 of nginx's requests/s and <= 35 µs of gateway
# CPU per request; 100 KB and 1 MB passthrough >= 1.0 of nginx's; transcoding a 1 KB body >= 0.8 of
# the gateway's own 1 KB passthrough; a 100 KB JSON body transcoded at >= 300 MB/s of input per
# second of gateway CPU to MessagePack and >= 150 MB/s to YAML; checking a 1 KB response against
# the contract (report) costs <= 15 µs of gateway CPU per request more than passing it through;
# at half of saturation the gateway adds <= 1 ms to the p99 latency; the slow reader's gateway stays
# under 64 MiB of RSS throughout.
# Every figure depends on the machine's load (its load average is printed with the rows): on a shared
# machine compare ratios within one run; for absolute figures run `make gateway-bench` on a quiet one.
# Exit 1 when a request failed (non-2xx, socket error, a failed check); with --fail-on-goals also
# exit 2 when a goal is not met.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION=30
ROUNDS=1
CONFIGURATION=release
FAIL_ON_GOALS=0
SIZES=(1k 100k 1m)
PACED_SECONDS=
SLOW_READER_SECONDS=60
COMPARE_BIN=
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) DURATION="$2"; shift 2;;
    --rounds) ROUNDS="$2"; shift 2;;
    --sizes) IFS=',' read -r -a SIZES <<<"$2"; shift 2;;
    --quick) DURATION=3; ROUNDS=1; SLOW_READER_SECONDS=10; shift;;
    --paced-seconds) PACED_SECONDS="$2"; shift 2;;
    --slow-reader-seconds) SLOW_READER_SECONDS="$2"; shift 2;;
    --compare) COMPARE_BIN="$2"; shift 2;;
    --debug) CONFIGURATION=debug; shift;;
    --fail-on-goals) FAIL_ON_GOALS=1; shift;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0;;
    *) echo "gateway-bench: unknown argument '$1' (see --help)" >&2; exit 2;;
  esac
done
PACED_SECONDS=${PACED_SECONDS:-$DURATION}
for value in "$DURATION" "$ROUNDS" "$PACED_SECONDS" "$SLOW_READER_SECONDS"; do
  [[ "$value" =~ ^[0-9]+$ ]] || { echo "gateway-bench: '$value' is not a whole number" >&2; exit 2; }
done
if [ -n "$COMPARE_BIN" ] && [ ! -x "$COMPARE_BIN" ]; then
  echo "gateway-bench: --compare needs an executable, not '$COMPARE_BIN'" >&2; exit 2
fi
for size in "${SIZES[@]}"; do
  case "$size" in 1k|100k|1m) ;; *) echo "gateway-bench: --sizes takes 1k, 100k and 1m, not '$size'" >&2; exit 2;; esac
done

WORK=$(mktemp -d)
source Benchmarks/Scripts/gateway-common.sh
trap gw_cleanup EXIT

gw_install_tools
gw_make_bodies
gw_build_gateway "$CONFIGURATION"
gw_build_product "$CONFIGURATION" nio-byte-relay
UPSTREAM_PORT=$(free_port)
ANCHOR_PORT=$(free_port)
H2C_ANCHOR_PORT=$(free_port)
H2C_ANCHOR_PORT=$H2C_ANCHOR_PORT ANCHOR_ACCESS_LOG="$WORK/anchor-access.log" \
  gw_start_nginx "$UPSTREAM_PORT" "$ANCHOR_PORT"
NGINX_URL="http://127.0.0.1:$ANCHOR_PORT"
NGINX_H2C_URL="http://127.0.0.1:$H2C_ANCHOR_PORT"
gw_start_relay "$UPSTREAM_PORT"
# The contract gateway first (cleanup stops it as EXTRA_GATEWAY_PID), then the plain one.
gw_write_contract_config "$UPSTREAM_PORT"
GATEWAY_NAME=contract GATEWAY_ARGS="--config $WORK/contract.yaml" GATEWAY_LOG_LEVEL=info \
  gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"
EXTRA_GATEWAY_PID=$GATEWAY_PID
CONTRACT_URL=$GATEWAY_URL
COMPARED_URL=
if [ -n "$COMPARE_BIN" ]; then
  GATEWAY_BIN=$COMPARE_BIN GATEWAY_NAME=compared GATEWAY_LOG_LEVEL=info \
    gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"
  COMPARED_GATEWAY_PID=$GATEWAY_PID
  COMPARED_URL=$GATEWAY_URL
fi
GATEWAY_LOG_LEVEL=info gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"
CLOCK_TICKS=$(getconf CLK_TCK)

CORES=$(nproc)
CONNECTIONS=$((2 * CORES))
declare -A LABEL=([1k]="1 KB" [100k]="100 KB" [1m]="1 MB")
# name|base URL|Accept|Content-Type the answer must have
CASES=("nginx passthrough|$NGINX_URL|application/json|application/json"
       "NIO byte relay (floor)|$RELAY_URL|application/json|application/json")
# kind|Accept|Content-Type the answer must have: the cases the gateway and a compared build both run.
GATEWAY_KINDS=("passthrough|application/json|application/json" "JSON->YAML|application/yaml|yaml"
               "JSON->MessagePack|application/msgpack|msgpack")
# The gateway's cases, each followed by the compared build's when there is one.
for spec in "${GATEWAY_KINDS[@]}"; do
  IFS='|' read -r kind accept want <<<"$spec"
  CASES+=("gateway $kind|$GATEWAY_URL|$accept|$want")
  [ -z "$COMPARED_URL" ] || CASES+=("compared build $kind|$COMPARED_URL|$accept|$want")
done
CASES+=("gateway passthrough, responses: report|$CONTRACT_URL|application/json|application/json")
CONTRACT_CASE="gateway passthrough, responses: report"
# Whether case $2 runs for size $1 (the contract case: 1 KB only).
runs_for() { [ "$2" != "$CONTRACT_CASE" ] || [ "$1" = 1k ]; }

# name|base URL: the h2c cases (1 KB passthrough only).
H2C_CASES=("nginx h2c passthrough|$NGINX_H2C_URL" "gateway h2c passthrough|$GATEWAY_URL")
[ -z "$COMPARED_URL" ] || H2C_CASES+=("compared build h2c passthrough|$COMPARED_URL")
H2C_STREAMS=10

# Every answer once, before any timing.
declare -A BYTES=()
failed=0
for size in "${SIZES[@]}"; do
  for spec in "${CASES[@]}"; do
    IFS='|' read -r name url accept want <<<"$spec"
    runs_for "$size" "$name" || continue
    BYTES[$size/$name]=$(gw_check "$url/$size.json" "$accept" "$want") || { failed=1; continue; }
    if [ "$accept" = application/json ] && ! cmp -s "$WORK/check.body" "$WORK/www/$size.json"; then
      echo "gateway-bench: $name of $size.json is not the upstream's body byte for byte" >&2; failed=1
    fi
  done
done
for spec in "${H2C_CASES[@]}"; do
  IFS='|' read -r name url <<<"$spec"
  out=$(h2load -n1 -c1 -H 'accept: application/json' "$url/1k.json" 2>&1)
  if ! grep -q '^Application protocol: h2c' <<<"$out" || ! grep -q '^status codes: 1 2xx' <<<"$out"; then
    echo "gateway-bench: $name did not answer 1k.json over h2c" >&2; echo "$out" >&2; failed=1
  fi
  BYTES[1k/$name]=${BYTES[1k/gateway passthrough]:-?}
done
[ $failed = 0 ] || exit 1

# The CPU time so far, in clock ticks, of the proxy serving URL $1 (the anchor's nginx, its master
# and workers; the relay; the contract gateway; the compared build; or the gateway): "user+system user".
proxy_ticks() {
  local pids=$GATEWAY_PID pid
  case "$1" in
    "$CONTRACT_URL"/*) pids=$EXTRA_GATEWAY_PID;;
    "${COMPARED_URL:-none}"/*) pids=$COMPARED_GATEWAY_PID;;
    "$RELAY_URL"/*) pids=$RELAY_PID;;
    "$NGINX_URL"/*|"$NGINX_H2C_URL"/*) pids="$ANCHOR_NGINX_PID $(pgrep -P "$ANCHOR_NGINX_PID")";;
  esac
  for pid in $pids; do awk '{ print $14, $15 }' "/proc/$pid/stat"; done |
    awk '{ user += $1; sys += $2 } END { print user + sys, user + 0 }'
}

# Runs one case; prints "requests/s|p50|p99|errors|proxy CPU µs per request|of it, user-space µs"
# (errors: non-2xx answers and socket errors).
run_case() {
  local url=$1 accept=$2 out before before_user after after_user
  read -r before before_user <<<"$(proxy_ticks "$url")"
  out=$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -H "Accept: $accept" "$url")
  read -r after after_user <<<"$(proxy_ticks "$url")"
  awk -v ticks=$((after - before)) -v user=$((after_user - before_user)) -v hz="$CLOCK_TICKS" '
       / requests in / { requests = $1 }
       /^Requests\/sec:/ { rps = $2 }
       $1 == "50%" { p50 = $2 }
       $1 == "99%" { p99 = $2 }
       /Non-2xx or 3xx responses:/ { bad += $5 }
       /Socket errors:/ { gsub(",", ""); bad += $4 + $6 + $8 + $10 }
       END { cpu = requests > 0 ? ticks / hz * 1e6 / requests : 0
             own = requests > 0 ? user / hz * 1e6 / requests : 0
             printf "%s|%s|%s|%d|%.0f|%.0f\n", rps ? rps : 0, p50 ? p50 : "?", p99 ? p99 : "?", bad, cpu, own
           }' <<<"$out"
}

# Runs one h2c case with h2load; prints the same fields as run_case (the mean time per request as p50).
run_h2c_case() {
  local url=$1 out before before_user after after_user
  read -r before before_user <<<"$(proxy_ticks "$url")"
  out=$(h2load -t1 -c"$CONNECTIONS" -m"$H2C_STREAMS" -D "$DURATION" -H 'accept: application/json' "$url" 2>&1)
  read -r after after_user <<<"$(proxy_ticks "$url")"
  awk -v ticks=$((after - before)) -v user=$((after_user - before_user)) -v hz="$CLOCK_TICKS" '
       /^finished in/ { rps = $4 }
       /^requests:/ { requests = $8; bad += $10 }   # failed: errored and timed out included
       /^status codes:/ { bad += $5 + $7 + $9 }     # 3xx, 4xx, 5xx
       /^time for request:/ { mean = $6 }
       END { cpu = requests > 0 ? ticks / hz * 1e6 / requests : 0
             own = requests > 0 ? user / hz * 1e6 / requests : 0
             printf "%s|%s|-|%d|%.0f|%.0f\n", rps ? rps : 0, mean ? mean : "?", bad, cpu, own }' <<<"$out"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq 1 "$ROUNDS"); do
  for size in "${SIZES[@]}"; do
    for spec in "${CASES[@]}"; do
      IFS='|' read -r name url accept _ <<<"$spec"
      runs_for "$size" "$name" || continue
      echo "$size|$name|$(run_case "$url/$size.json" "$accept")" >> "$WORK/runs"
      printf '.' >&2
    done
  done
  for spec in "${H2C_CASES[@]}"; do
    IFS='|' read -r name url <<<"$spec"
    echo "1k|$name|$(run_h2c_case "$url/1k.json")" >> "$WORK/runs"
    printf '.' >&2
  done
done
echo >&2
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
# The bodies conform to the document: a finding means the contract case did something else.
if grep -m1 'contract ' "$WORK/contract.err" >&2; then
  echo "gateway-bench: the contract gateway reported findings on conforming bodies" >&2; failed=1
fi

# The run with the median requests/s of each case; errors summed over its rounds.
declare -A RPS=() P50=() P99=() ERRORS=() CPU=() USER=()
for size in "${SIZES[@]}"; do
  specs=("${CASES[@]}"); [ "$size" = 1k ] && specs+=("${H2C_CASES[@]}")
  for spec in "${specs[@]}"; do
    IFS='|' read -r name _ <<<"$spec"
    runs_for "$size" "$name" || continue
    runs=$(awk -F'|' -v s="$size" -v n="$name" '$1 == s && $2 == n' "$WORK/runs" | sort -t'|' -k3,3g)
    count=$(wc -l <<<"$runs")
    IFS='|' read -r _ _ rps p50 p99 _ cpu user <<<"$(sed -n "$(( (count + 1) / 2 ))p" <<<"$runs")"
    RPS[$size/$name]=$rps; P50[$size/$name]=$p50; P99[$size/$name]=$p99; CPU[$size/$name]=$cpu
    USER[$size/$name]=$user
    ERRORS[$size/$name]=$(awk -F'|' '{ n += $6 } END { print n + 0 }' <<<"$runs")
  done
done

# h2load --h1 at $2 requests/s in all (spread over the connections, each paced with --rps) to URL $1
# for PACED_SECONDS; prints "p50 ms|p99 ms|requests/s reached|errors" from its per-request log
# (nearest-rank percentiles of the 2xx answers; errors: failed streams and other statuses).
paced_case() {
  local url=$1 rate=$2 log="$WORK/paced.log" per reached bad
  per=$(awk -v r="$rate" -v c="$CONNECTIONS" 'BEGIN { printf "%.1f", r / c }')
  rm -f "$log"
  h2load --h1 -t1 -c"$CONNECTIONS" --rps="$per" -D "$PACED_SECONDS" --log-file="$log" \
    -H 'accept: application/json' "$url" > "$WORK/paced.out" 2>&1 || true
  reached=$(awk '/^finished in/ { print $4 }' "$WORK/paced.out")
  touch "$log"
  awk -F'\t' '$2 >= 200 && $2 < 300 { print $3 }' "$log" | sort -n > "$WORK/paced.sorted"
  bad=$(awk -F'\t' '!($2 >= 200 && $2 < 300)' "$log" | wc -l)
  awk -v reached="${reached:-0}" -v bad="$bad" '
    function at(q,  k) { k = int(q * NR); if (k < q * NR) k++; if (k < 1) k = 1; return v[k] }
    { v[NR] = $1 }
    END { if (NR == 0) { printf "?|?|%s|%d\n", reached, bad + 1; exit }
          printf "%.3f|%.3f|%s|%d\n", at(0.5) / 1000, at(0.99) / 1000, reached, bad }' "$WORK/paced.sorted"
}

# The added latency at half of saturation (when the 1 KB rows ran), the pair interleaved per round.
HALF=
if [ -n "${RPS[1k/gateway passthrough]:-}" ] && [ "$PACED_SECONDS" -gt 0 ]; then
  SATURATION=$(printf '%.0f' "${RPS[1k/gateway passthrough]}")
  HALF=$(( SATURATION / 2 ))
  PACED_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
  for round in $(seq 1 "$ROUNDS"); do
    IFS='|' read -r dp50 dp99 drate dbad \
      <<<"$(paced_case "http://127.0.0.1:$UPSTREAM_PORT/1k.json" "$HALF")"
    IFS='|' read -r gp50 gp99 grate gbad <<<"$(paced_case "$GATEWAY_URL/1k.json" "$HALF")"
    added=$(awk -v g="$gp99" -v d="$dp99" \
      'BEGIN { if (g == "?" || d == "?") print "?"; else printf "%.3f", g - d }')
    echo "$added|$dp50|$dp99|$drate|$gp50|$gp99|$grate|$((dbad + gbad))" >> "$WORK/paced"
    printf '.' >&2
  done
  runs=$(sort -t'|' -k1,1g "$WORK/paced")
  IFS='|' read -r ADDED DP50 DP99 DRATE GP50 GP99 GRATE _ \
    <<<"$(sed -n "$(( (ROUNDS + 1) / 2 ))p" <<<"$runs")"
  PACED_ERRORS=$(awk -F'|' '{ n += $8 } END { print n + 0 }' <<<"$runs")
  PACED_LOAD="$PACED_LOAD before, $(cut -d' ' -f1-3 /proc/loadavg) after"
fi

# The slow reader: a fresh gateway (the others are stopped) and one client reading 100m.json at
# 64 KB/s; prints "status|Content-Length|bytes read|seconds|idle RSS kB|peak RSS kB|samples|closed early".
SLOW=
if [ "$SLOW_READER_SECONDS" -gt 0 ]; then
  python3 - "$WORK/www/100m.json" <<'PY'
import sys
size, prefix, suffix = 100 * 1024 * 1024, b'{"items":[],"note":"', b'"}'
with open(sys.argv[1], "wb") as f:
    f.write(prefix)
    left = size - len(prefix) - len(suffix)
    while left > 0:
        f.write(b"x" * min(left, 1 << 20)); left -= min(left, 1 << 20)
    f.write(suffix)
PY
  gw_stop "$GATEWAY_PID"; GATEWAY_PID=
  gw_stop "$EXTRA_GATEWAY_PID"; EXTRA_GATEWAY_PID=
  GATEWAY_NAME=slow GATEWAY_LOG_LEVEL=info gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT"
  SLOW_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
  SLOW=$(python3 - "$GATEWAY_URL" "$GATEWAY_PID" "$SLOW_READER_SECONDS" <<'PY'
import socket, sys, time, urllib.parse
url, pid, seconds = urllib.parse.urlsplit(sys.argv[1]), sys.argv[2], float(sys.argv[3])
rate = 64 * 1024   # bytes a second

def rss():   # the gateway's VmRSS in kB, -1 once it is gone
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return -1

idle = peak = rss()
connection = socket.socket()
connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
connection.connect((url.hostname, url.port))
connection.sendall(b"GET /100m.json HTTP/1.1\r\nHost: gateway\r\nAccept: application/json\r\n\r\n")
start = next_sample = time.monotonic()
received, head, samples, closed, gone = 0, b"", 0, 0, False
while True:
    now = time.monotonic()
    if now >= next_sample:   # every second, on time whatever the reads do
        value = rss()
        gone = gone or value < 0
        peak, samples, next_sample = max(peak, value), samples + 1, next_sample + 1.0
    if now - start >= seconds or gone:
        break
    budget = int(rate * (now - start)) - received
    wait = max(min(next_sample, start + seconds) - now, 0.001)
    if budget <= 0:
        time.sleep(min(wait, 0.05))
        continue
    connection.settimeout(wait)
    try:
        data = connection.recv(min(budget, 65536))
    except socket.timeout:
        continue
    if not data:
        closed = 1
        break
    if b"\r\n\r\n" not in head:
        head += data[:4096]
    received += len(data)
connection.close()
lines = head.split(b"\r\n\r\n")[0].split(b"\r\n")
status = lines[0].split()[1].decode() if len(lines[0].split()) > 1 else "?"
fields = dict(line.split(b":", 1) for line in lines[1:] if b":" in line)
length = next((v.strip().decode() for k, v in fields.items() if k.lower() == b"content-length"), "?")
elapsed = time.monotonic() - start
print(f"{status}|{length}|{received}|{elapsed:.1f}|{idle}|{peak}|{samples}|{int(closed or gone)}")
PY
)
  printf '.' >&2
fi
[ -z "$HALF$SLOW" ] || echo >&2

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

printf 'gateway-bench: %s s per case, %s round(s) (median), wrk -t1 -c%s (2 connections per core, %s cores), loopback\n' \
  "$DURATION" "$ROUNDS" "$CONNECTIONS" "$CORES"
printf 'parley-gateway (%s build) and %s, both in front of nginx serving static JSON; load average %s before, %s after\n\n' \
  "$CONFIGURATION" "$(nginx -v 2>&1 | sed 's/^nginx version: //')" "$LOAD_BEFORE" "$LOAD_AFTER"
printf '| body | case | bytes out | requests/s | p50 | p99 | proxy CPU/request (user) | vs nginx | vs gateway passthrough |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
for size in "${SIZES[@]}"; do
  specs=("${CASES[@]}"); [ "$size" = 1k ] && specs+=("${H2C_CASES[@]}")
  for spec in "${specs[@]}"; do
    IFS='|' read -r name _ <<<"$spec"
    runs_for "$size" "$name" || continue
    key=$size/$name
    note=
    if [ "${ERRORS[$key]}" != 0 ]; then note=" (${ERRORS[$key]} errors!)"; failed=1; fi
    anchor="nginx passthrough"; case "$name" in *h2c*) anchor="nginx h2c passthrough";; esac
    vs_nginx=$(ratio "${RPS[$key]}" "${RPS[$size/$anchor]}")
    vs_gateway=-
    own="gateway passthrough"; case "$name" in "compared build"*) own="compared build passthrough";; esac
    case "$name" in
      *JSON-\>*|*" h2c passthrough"|"$CONTRACT_CASE")
        [ "$name" = "nginx h2c passthrough" ] || vs_gateway=$(ratio "${RPS[$key]}" "${RPS[$size/$own]}");;
    esac
    cpu="${CPU[$key]} µs (${USER[$key]})"
    printf '| %s | %s%s | %s | %.0f | %s | %s | %s | %s | %s |\n' "${LABEL[$size]}" "$name" "$note" "${BYTES[$key]}" \
      "${RPS[$key]}" "${P50[$key]}" "${P99[$key]}" "$cpu" "$vs_nginx" "$vs_gateway"
  done
done

# "met" when every figure given is at least $1; "not run" when none is given
at_least() {
  local floor=$1; shift
  [ $# -gt 0 ] || { echo "not run"; return; }
  awk -v floor="$floor" 'BEGIN { ok = 1 } { for (i = 1; i <= NF; i++) if ($i + 0 < floor) ok = 0 }
       END { print ok ? "met" : "NOT met" }' <<<"$*"
}
ran() { [ -n "${RPS[$1/gateway passthrough]:-}" ]; }
# MB (10^6 bytes) of the $1 body read per second of gateway CPU in case $2
input_rate() {
  awk -v b="${BYTES[$1/gateway passthrough]}" -v us="${CPU[$1/$2]}" \
    'BEGIN { if (us > 0) printf "%.0f", b / us; else printf "-" }'
}
small=-; large=(); shown=()
for size in 1k 100k 1m; do
  if ran "$size"; then
    r=$(ratio "${RPS[$size/gateway passthrough]}" "${RPS[$size/nginx passthrough]}")
    if [ "$size" = 1k ]; then small=$r; else large+=("$r"); fi
    shown+=("${LABEL[$size]} $r")
  else
    shown+=("${LABEL[$size]} not run")
  fi
done
goal1=$(at_least 0.6 ${small/-/})
goal2=$(at_least 1.0 "${large[@]}")
yaml=-; msgpack=-; goal3="not run"; cpu=-; goal4="not run"; contract=-; goal5="not run"
if ran 1k; then
  yaml=$(ratio "${RPS[1k/gateway JSON->YAML]}" "${RPS[1k/gateway passthrough]}")
  msgpack=$(ratio "${RPS[1k/gateway JSON->MessagePack]}" "${RPS[1k/gateway passthrough]}")
  goal3=$(at_least 0.8 "$yaml" "$msgpack")
  cpu=${CPU[1k/gateway passthrough]}
  goal4=$(awk -v c="$cpu" 'BEGIN { print c <= 35 ? "met" : "NOT met" }')
  contract=$(awk -v a="${CPU[1k/$CONTRACT_CASE]}" -v b="$cpu" 'BEGIN { printf "%.0f", a - b }')
  goal5=$(awk -v d="$contract" 'BEGIN { print d <= 15 ? "met" : "NOT met" }')
fi
rate_msgpack=-; rate_yaml=-; goal6="not run"
if ran 100k; then
  rate_msgpack=$(input_rate 100k "gateway JSON->MessagePack")
  rate_yaml=$(input_rate 100k "gateway JSON->YAML")
  goal6=$(awk -v m="$rate_msgpack" -v y="$rate_yaml" \
    'BEGIN { print (m >= 300 && y >= 150) ? "met" : "NOT met" }')
fi

# The rows of latency under a paced load and of memory under a slow reader.
goal7="not run"; goal8="not run"
if [ -n "$HALF$SLOW" ]; then
  printf '\n| row | load | figure | goal | load average |\n|---|---|---|---|---|\n'
fi
if [ -n "$HALF" ]; then
  [ "$PACED_ERRORS" = 0 ] || failed=1
  goal7=$(awk -v a="$ADDED" 'BEGIN { print (a != "?" && a <= 1) ? "met" : "NOT met" }')
  format='| 1 KB passthrough, added latency at half of saturation%s '
  format+='| h2load --h1 -t1 -c%s, %s requests/s paced (half of %s), %s s; reached: direct %s, gateway %s '
  format+='| direct p50 %s ms, p99 %s ms; gateway p50 %s ms, p99 %s ms; **added p99 %s ms** | <= 1 ms: %s | %s |\n'
  printf "$format" \
    "$([ "$PACED_ERRORS" = 0 ] || echo " ($PACED_ERRORS errors!)")" "$CONNECTIONS" "$HALF" "$SATURATION" \
    "$PACED_SECONDS" "$DRATE" "$GRATE" "$DP50" "$DP99" "$GP50" "$GP99" "$ADDED" "$goal7" "$PACED_LOAD"
fi
if [ -n "$SLOW" ]; then
  IFS='|' read -r slow_status slow_length slow_read slow_seconds slow_idle slow_peak slow_samples slow_cut <<<"$SLOW"
  slow_note=
  if [ "$slow_status" != 200 ] || [ "$slow_cut" != 0 ]; then
    slow_note=" (status $slow_status, cut early!)"; failed=1
  fi
  goal8=$(awk -v p="$slow_peak" -v c="$slow_cut" 'BEGIN { print (c == 0 && p > 0 && p < 65536) ? "met" : "NOT met" }')
  format='| 100 MB passthrough (Content-Length %s) read at 64 KB/s%s '
  format+='| one client, %s s of its 26 minutes, %s bytes read; RSS sampled every second (%s samples) '
  format+='| gateway RSS idle %s MiB, **peak %s MiB** | < 64 MiB throughout: %s | %s |\n'
  printf "$format" \
    "$slow_length" "$slow_note" "$slow_seconds" "$slow_read" "$slow_samples" \
    "$(awk -v k="$slow_idle" 'BEGIN { printf "%.1f", k / 1024 }')" \
    "$(awk -v k="$slow_peak" 'BEGIN { printf "%.1f", k / 1024 }')" "$goal8" "$SLOW_LOAD"
fi

printf '\ngoal 1, 1 KB passthrough >= 0.6 of nginx'"'"'s requests/s: %s: %s\n' "${shown[0]}" "$goal1"
printf 'goal 2, 100 KB and 1 MB passthrough >= 1.0 of nginx'"'"'s: %s, %s: %s\n' "${shown[1]}" "${shown[2]}" "$goal2"
printf 'goal 3, transcoding a 1 KB body >= 0.8 of the gateway'"'"'s passthrough: YAML %s, MessagePack %s: %s\n' \
  "$yaml" "$msgpack" "$goal3"
format='goal 4, 1 KB passthrough <= 35 µs of gateway CPU per request: %s µs, user %s (nginx'"'"'s proxy: %s µs, '
format+='user %s; NIO byte relay: %s µs, user %s): %s\n'
printf "$format" "$cpu" "${USER[1k/gateway passthrough]:-}" "${CPU[1k/nginx passthrough]:-}" \
  "${USER[1k/nginx passthrough]:-}" "${CPU[1k/NIO byte relay (floor)]:-}" "${USER[1k/NIO byte relay (floor)]:-}" "$goal4"
printf 'goal 5, responses: report on a 1 KB body <= 15 µs more gateway CPU per request: %s µs: %s\n' \
  "$contract" "$goal5"
printf 'goal 6, 100 KB JSON read per second of gateway CPU, to MessagePack >= 300 MB/s, to YAML >= 150: %s, %s: %s\n' \
  "$rate_msgpack" "$rate_yaml" "$goal6"
printf 'goal 7, added p99 latency at half of saturation <= 1 ms: %s ms: %s\n' "${ADDED:--}" "$goal7"
printf 'goal 8, a 100 MB passthrough body read at 64 KB/s: gateway RSS < 64 MiB: peak %s MiB: %s\n' \
  "$([ -n "$SLOW" ] && awk -v k="$slow_peak" 'BEGIN { printf "%.1f", k / 1024 }' || echo -)" "$goal8"

if [ -n "$COMPARED_URL" ]; then
  printf '\nCompared build %s: proxy CPU per request, this build against it, case by case (same rounds)\n\n' \
    "$COMPARE_BIN"
  printf '| body | case | this build | compared build | difference |\n|---|---|---:|---:|---:|\n'
  for size in "${SIZES[@]}"; do
    kinds=("${GATEWAY_KINDS[@]%%|*}"); [ "$size" = 1k ] && kinds+=("h2c passthrough")
    for kind in "${kinds[@]}"; do
      this=${CPU[$size/gateway $kind]}; other=${CPU[$size/compared build $kind]}
      printf '| %s | %s | %s µs | %s µs | %+d µs |\n' "${LABEL[$size]}" "$kind" "$this" "$other" $((this - other))
    done
  done
fi

[ $failed = 0 ] || exit 1
[ $FAIL_ON_GOALS = 1 ] && [[ "$goal1 $goal2 $goal3 $goal4 $goal5 $goal6 $goal7 $goal8" == *"NOT met"* ]] && exit 2
exit 0
