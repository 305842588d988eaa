#!/usr/bin/env bash
# Soaks parley-gateway at a fixed request rate on loopback and checks that it does not leak:
# resident memory after warm-up grows < 10%, and open descriptors return to their starting count
# once the load stops and the connections close.
#
#   Benchmarks/Scripts/gateway-soak.sh [--seconds N] [--rate R] [--max-growth PCT] [--debug] [--samples FILE]
#   make gateway-soak [SOAK_SECONDS=N]     (default 300: 5 minutes, RSS growth < 10%)
#   make gateway-load-check                (CI: 20 seconds against the debug build, RSS growth < 25%:
#                                           a 10-second warm-up leaves the allocator's swings in the figure)
#
# The upstream is nginx serving the same fixed JSON files as gateway-bench.sh (1 KB, 100 KB, 1 MB),
# with a 2-second keepalive_timeout so the gateway's idle upstream connections are closed soon
# after the load. The load is wrk (Debian's; wrk2 is not packaged) with 4 connections, each waiting
# 4000/R ms after every answer (wrk's Lua `delay()`), so the rate is at most R requests/s (default
# 200) and below it only when answers take longer than that wait; the table prints the rate reached.
# wrk's requests cycle through a fixed mix of 20 on its keepalive connections: 1 KB passthrough,
# JSON->YAML and JSON->MessagePack (4 of each), 100 KB the same (2 of each), one 1 MB passthrough and
# one 1 MB JSON->MessagePack. Alongside, a Python client opens a new connection for each of 10
# requests a second (1 KB, the three kinds in turn), so connections open and close all along; it
# counts answers that are not 200. Each kind of request is checked once before the load.
#
# The gateway's VmRSS (/proc/PID/status) and open descriptors (/proc/PID/fd) are sampled every 2 s
# (every second in runs under a minute; --samples FILE keeps them: seconds, VmRSS kB, descriptors).
# Warm-up: the first 30 s (the first half of runs under 2 minutes).
# With gdb installed, the heap in use (glibc's malloc_stats, live allocations only) is printed at
# the start and after the load, idle both times: informational, not checked.
# The starting descriptor count is taken after the checks, once their upstream connections closed:
# the first request creates one descriptor for good (a timerfd), which is not a leak.
# RSS growth compares the highest of the last 5 samples at the end of the load with the highest of the
# last 5 samples of the warm-up (the high-water marks: a sample can land while a 1 MB body is in
# flight). Descriptors: the starting count, and after the load once it is back there (at most 30 s).
# Exit 1 when RSS grew >= 10% (--max-growth), descriptors did not return, wrk saw a non-2xx answer or a socket
# error, a new-connection request was not answered 200, /health did not answer 200 after the load,
# or the gateway did not exit 0 on SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION=300
RATE=200
CONFIGURATION=release
SAMPLES_FILE=
MAX_GROWTH=10
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) DURATION="$2"; shift 2;;
    --rate) RATE="$2"; shift 2;;
    --debug) CONFIGURATION=debug; shift;;
    --samples) SAMPLES_FILE="$2"; shift 2;;
    --max-growth) MAX_GROWTH="$2"; shift 2;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0;;
    *) echo "gateway-soak: unknown argument '$1' (see --help)" >&2; exit 2;;
  esac
done

WORK=$(mktemp -d)
source Benchmarks/Scripts/gateway-common.sh
trap gw_cleanup EXIT

gw_install_tools
gw_make_bodies
gw_build_gateway "$CONFIGURATION"
UPSTREAM_PORT=$(free_port)
gw_start_nginx "$UPSTREAM_PORT" "" 2s
gw_start_gateway "http://127.0.0.1:$UPSTREAM_PORT" admin

CONNECTIONS=4
DELAY_MS=$(( CONNECTIONS * 1000 / RATE ))
INTERVAL=$([ "$DURATION" -lt 60 ] && echo 1 || echo 2)
WARMUP=$([ "$DURATION" -lt 120 ] && echo $(( DURATION / 2 )) || echo 30)

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$GATEWAY_PID/status"; }
fds() { ls "/proc/$GATEWAY_PID/fd" | wc -l; }
# The bytes glibc's allocator holds for live allocations (malloc_stats' total "in use bytes", which
# malloc_stats prints to the gateway's standard error when gdb calls it), or "-" without gdb. Unlike
# RSS it does not count memory the allocator keeps after frees, so a leak shows in it as a growth
# in step with the requests, where RSS also swings with how many large bodies were in flight.
heap_in_use() {
  command -v gdb >/dev/null 2>&1 || { echo -; return; }
  local before; before=$(wc -l < "$WORK/gateway.err")
  timeout 30 gdb -p "$GATEWAY_PID" -batch -ex 'call (void)malloc_stats()' >/dev/null 2>&1 || true
  tail -n +$((before + 1)) "$WORK/gateway.err" \
    | awk '/^Total \(incl\. mmap\):/ { total = 1 }
           total && /in use bytes/ { print $NF; found = 1; exit }
           END { if (!found) print "-" }'
}
BOOT_RSS=$(rss_kb)
BOOT_FDS=$(fds)

# The mix: path|Accept|close (1: send Connection: close).
MIX=(1k.json\|application/json 1k.json\|application/yaml 1k.json\|application/msgpack
     1k.json\|application/json 1k.json\|application/yaml 1k.json\|application/msgpack
     100k.json\|application/json 100k.json\|application/yaml 100k.json\|application/msgpack
     1k.json\|application/json 1k.json\|application/yaml 1k.json\|application/msgpack
     1k.json\|application/json 1k.json\|application/yaml 1k.json\|application/msgpack
     100k.json\|application/json 100k.json\|application/yaml 100k.json\|application/msgpack
     1m.json\|application/json 1m.json\|application/msgpack)
{
  echo "local mix = {"
  for entry in "${MIX[@]}"; do
    IFS='|' read -r path accept <<<"$entry"
    echo "  {\"/$path\", \"$accept\"},"
  done
  cat <<LUA
}
local requests, i = {}, 0
function init(args)
  for k, m in ipairs(mix) do
    requests[k] = wrk.format("GET", m[1], { ["Accept"] = m[2] })
  end
end
function request()
  i = i % #requests + 1
  return requests[i]
end
function delay() return $DELAY_MS end
LUA
} > "$WORK/soak.lua"

# Every kind of request once, before the load (the checks close their connections).
for entry in "${MIX[@]}"; do
  IFS='|' read -r path accept <<<"$entry"
  gw_check "$GATEWAY_URL/$path" "$accept" "${accept#application/}" >/dev/null
done
sleep 3   # the upstream closes the checks' idle connections after 2 s
START_RSS=$(rss_kb)
START_HEAP=$(heap_in_use)
START_FDS=$(fds)

wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$WORK/soak.lua" "$GATEWAY_URL" > "$WORK/wrk.out" 2>&1 &
WRK_PID=$!
# The connection churner: a new connection for every request, 10 a second, for as long as wrk runs.
python3 - "$GATEWAY_URL" "$DURATION" > "$WORK/churn.out" 2>&1 <<'PY' &
import http.client, sys, time, urllib.parse
url, seconds = urllib.parse.urlsplit(sys.argv[1]), float(sys.argv[2])
kinds = ["application/json", "application/yaml", "application/msgpack"]
ok = bad = 0
start = time.monotonic()
while time.monotonic() - start < seconds:
    try:
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
        connection.request("GET", "/1k.json", headers={"Accept": kinds[(ok + bad) % 3]})
        response = connection.getresponse()
        response.read()
        ok, bad = (ok + 1, bad) if response.status == 200 else (ok, bad + 1)
        connection.close()
    except Exception as error:
        bad += 1
        print(error, file=sys.stderr)
    time.sleep(max(0.0, start + (ok + bad) * 0.1 - time.monotonic()))
print(ok, bad)
PY
CHURN_PID=$!
started=$(date +%s.%N)
while kill -0 "$WRK_PID" 2>/dev/null; do
  elapsed=$(awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }')
  echo "$elapsed $(rss_kb) $(fds)" >> "$WORK/samples"
  sleep "$INTERVAL"
done
wrk_status=0; wait "$WRK_PID" || wrk_status=$?
churn_status=0; wait "$CHURN_PID" || churn_status=$?
read -r churn_ok churn_bad < <(tail -n1 "$WORK/churn.out") || true
[ -z "$SAMPLES_FILE" ] || cp "$WORK/samples" "$SAMPLES_FILE"

# After the load: wait (at most 30 s) for the descriptors to come back to where they started.
waited=0
while [ "$(fds)" -gt "$START_FDS" ] && [ "$waited" -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
END_FDS=$(fds)
END_RSS=$(rss_kb)
END_HEAP=$(heap_in_use)
# When descriptors stayed open, what they are (sockets with their peers), printed with the checks.
LEFT_OPEN=
if [ "$END_FDS" -gt "$START_FDS" ]; then
  LEFT_OPEN=$( { ls -l "/proc/$GATEWAY_PID/fd"; ss -tanp 2>/dev/null | grep "pid=$GATEWAY_PID," || true; } 2>&1)
fi
health=$(curl -s -o /dev/null -w '%{http_code}' "$ADMIN_URL/health" || true)
gw_stop "$GATEWAY_PID"; exit_status=$STOP_STATUS; GATEWAY_PID=

# Samples: "seconds rss_kb fds" while wrk ran.
# The highest RSS of the last 5 samples (of those taken up to $1 seconds in, when given).
last_five_peak() {
  awk -v w="${1:-}" 'w == "" || $1 <= w { last[++n] = $2 }
    END { m = 0; for (k = (n > 5 ? n - 4 : 1); k <= n; k++) if (last[k] > m) m = last[k]; print m }' "$WORK/samples"
}
warm_rss=$(last_five_peak "$WARMUP")
end_rss=$(last_five_peak)
peak_rss=$(awk '$2 > m { m = $2 } END { print m }' "$WORK/samples")
peak_fds=$(awk '$3 > m { m = $3 } END { print m }' "$WORK/samples")
growth=$(awk -v a="$end_rss" -v b="$warm_rss" 'BEGIN { printf "%.1f", (b > 0 ? (a - b) * 100 / b : 999) }')
requests=$(awk '/requests in/ { print $1 }' "$WORK/wrk.out")
rate=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$WORK/wrk.out")
errors=$(awk '/Non-2xx or 3xx responses:/ { bad += $5 }
              /Socket errors:/ { gsub(",", ""); bad += $4 + $6 + $8 + $10 }
              END { print bad + 0 }' "$WORK/wrk.out")
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
mib_bytes() { [ "$1" = - ] && echo "- (no gdb)" || awk -v b="$1" 'BEGIN { printf "%.2f MiB", b / 1048576 }'; }

format='gateway-soak: %s s at <= %s requests/s (wrk -t1 -c%s, %s ms after each answer), mix of %s requests,'
printf "$format parley-gateway (%s build)\n" \
  "$DURATION" "$RATE" "$CONNECTIONS" "$DELAY_MS" "${#MIX[@]}" "$CONFIGURATION"
format='load average %s; wrk: %s requests, %s requests/s reached, %s errors (non-2xx or socket);'
printf "$format new-connection client: %s answered 200, %s not\n\n" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "${requests:-0}" "${rate:-0}" "$errors" "${churn_ok:-0}" "${churn_bad:-?}"
printf '| moment | RSS (MiB) | open descriptors |\n|---|---:|---:|\n'
printf '| started, before any request | %s | %s |\n' "$(mib "$BOOT_RSS")" "$BOOT_FDS"
printf '| start: after one request of each kind, idle | %s | %s |\n' "$(mib "$START_RSS")" "$START_FDS"
printf '| end of warm-up (%s s, highest of last 5 samples) | %s | - |\n' "$WARMUP" "$(mib "$warm_rss")"
printf '| end of load (highest of last 5 samples) | %s | - |\n' "$(mib "$end_rss")"
printf '| peak under load | %s | %s |\n' "$(mib "$peak_rss")" "$peak_fds"
printf '| after the load (connections closed, %s.%s s later) | %s | %s |\n' \
  "$((waited / 10))" "$((waited % 10))" "$(mib "$END_RSS")" "$END_FDS"
printf '\nHeap in use (glibc malloc_stats, idle): %s at the start, %s after the load\n' \
  "$(mib_bytes "$START_HEAP")" "$(mib_bytes "$END_HEAP")"
step=$(( DURATION >= 60 ? 30 : 5 ))
printf 'RSS over the run (MiB, every ~%s s): %s\n' "$step" \
  "$(awk -v step="$step" '$1 >= next_at { printf "%s%.1f", sep, $2 / 1024; sep = " "; next_at += step }' \
      "$WORK/samples")"

failed=0
check() { if [ "$1" = 1 ]; then printf 'ok:     %s\n' "$2"; else printf 'FAILED: %s\n' "$2"; failed=1; fi; }
echo
check "$(awk -v g="$growth" -v m="$MAX_GROWTH" 'BEGIN { print (g < m) }')" \
  "RSS after warm-up grew $growth% (< $MAX_GROWTH%)"
check "$([ "$END_FDS" -le "$START_FDS" ] && echo 1 || echo 0)" \
  "open descriptors back to $START_FDS after the load ($END_FDS)"
[ -z "$LEFT_OPEN" ] || printf 'descriptors still open after the load:\n%s\n' "$LEFT_OPEN"
check "$([ "$errors" = 0 ] && [ "$wrk_status" = 0 ] && [ -n "$requests" ] && echo 1 || echo 0)" \
  "no non-2xx answer or socket error in ${requests:-0} requests (wrk exit $wrk_status)"
check "$([ "${churn_bad:-1}" = 0 ] && [ "$churn_status" = 0 ] && [ "${churn_ok:-0}" -gt 0 ] && echo 1 || echo 0)" \
  "every one of ${churn_ok:-0} new-connection requests answered 200 (${churn_bad:-?} not)"
check "$([ "$health" = 200 ] && echo 1 || echo 0)" "/health answered 200 after the load ($health)"
check "$([ "$exit_status" = 0 ] && echo 1 || echo 0)" "exit status 0 on SIGTERM ($exit_status)"
exit $failed
