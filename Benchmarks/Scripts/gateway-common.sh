# Shared by the gateway's benchmark scripts (sourced, not run): the tools, the fixed JSON bodies, the
# nginx upstream (and anchor) and the gateway, each started on 127.0.0.1 at a free port and stopped
# by the PID the script started, nothing else; the options, cases and table of the scripts that
# count per request. Its functions that make files need WORK (a scratch folder) set.

SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
NGINX_PID=
ANCHOR_NGINX_PID=
GATEWAY_PID=

# Installs Debian's nginx, wrk and nghttp2-client (h2load) when missing, and the packages named as
# arguments (a command and its package: `gcc gcc`).
gw_install_tools() {
  local missing=()
  while [ $# -ge 2 ]; do command -v "$1" >/dev/null 2>&1 || missing+=("$2"); shift 2; done
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  [ ${#missing[@]} = 0 ] && return 0
  echo "installing ${missing[*]} (apt-get)" >&2
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Writes $WORK/www/1k.json, 100k.json and 1m.json: exactly 1,024, 102,400 and 1,048,576 bytes of
# the same deterministic records (numbers, floats, booleans, strings, nested objects and arrays),
# so transcoding does real work; a final "note" string pads each to its size.
# PerfGate's Transcode.*-gateway-* rows read the same bytes (Benchmarks/Shared/BenchmarkInputs/
# GatewayBenchBody.swift): change both together.
gw_make_bodies() {
  mkdir -p "$WORK/www"
  chmod 755 "$WORK" "$WORK/www"   # nginx's workers run as nobody when started by root
  python3 - "$WORK/www" <<'PY'
import json, sys
def record(i):
    return {"id": i, "name": f"user {i}", "email": f"user{i}@example.com", "active": i % 3 != 0,
            "score": round(i * 1.25 + 0.5, 2), "tags": ["alpha", "beta", "gamma"][: i % 3 + 1],
            "address": {"city": f"City {i % 97}", "zip": f"{i * 7919 % 100000:05d}"}}
def body(size):
    dump = lambda doc: json.dumps(doc, separators=(",", ":"))
    items, length = [], len(dump({"items": [], "note": ""}))
    while True:   # each record adds its own length and a comma (but the first)
        more = len(dump(record(len(items)))) + (1 if items else 0)
        if length + more > size: break
        items.append(record(len(items))); length += more
    text = dump({"items": items, "note": "x" * (size - length)})
    assert len(text) == size
    return text
for name, size in (("1k", 1024), ("100k", 100 * 1024), ("1m", 1024 * 1024)):
    with open(f"{sys.argv[1]}/{name}.json", "w") as f:
        f.write(body(size))
PY
}

# Writes $WORK/openapi.yaml, an OpenAPI document the bodies of gw_make_bodies conform to, and
# $WORK/contract.yaml, a gateway configuration in front of the upstream at port $1 that checks
# responses against it (`contract: {requests: off, responses: report}`).
gw_write_contract_config() {
  cat > "$WORK/openapi.yaml" <<'YAML'
openapi: 3.1.0
info: {title: gateway-bench bodies, version: "1"}
paths:
  /{name}:
    get:
      operationId: getBody
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          description: generated records
          content:
            application/json:
              schema:
                type: object
                required: [items, note]
                properties:
                  note: {type: string}
                  items:
                    type: array
                    items:
                      type: object
                      required: [id, name, email, active, score, tags, address]
                      properties:
                        id: {type: integer, minimum: 0}
                        name: {type: string}
                        email: {type: string}
                        active: {type: boolean}
                        score: {type: number}
                        tags: {type: array, items: {type: string}}
                        address:
                          type: object
                          properties: {city: {type: string}, zip: {type: string, pattern: "^[0-9]{5}$"}}
YAML
  printf 'upstream: http://127.0.0.1:%s
contract:
  openapi: %s
  requests: "off"
  responses: report
' \
  "$1" "$WORK/openapi.yaml" > "$WORK/contract.yaml"
}

# ANCHOR_ACCESS_LOG: where the anchor writes its access log (default off).
# Starts nginx (Debian's package, `daemon off`, every path in $WORK) on 127.0.0.1: the upstream at
# $1, serving $WORK/www as application/json from memory-cached static files, and, when $2 is not
# empty, the anchor at $2 in an nginx process of its own (ANCHOR_NGINX_PID), so its CPU time is the
# proxy's alone: a plain `proxy_pass` to the upstream as a tuned proxy runs it, keepalive
# connections to the upstream (HTTP/1.1, no Connection field) and no temporary files (responses
# larger than its buffers stream, as the gateway's do).
# $3: how long the upstream keeps an idle connection (default 75s, nginx's keepalive_timeout): its
# keepalive_timeout after a request and its client_header_timeout before the first, so a pooled
# connection the gateway opened but never used closes as soon as a used one does.
gw_start_nginx() {
  local upstream_port=$1 anchor_port=$2 keepalive=${3:-75s}
  gw_run_nginx upstream <<CONF
  server {
    listen 127.0.0.1:$upstream_port;
    keepalive_timeout $keepalive;
    client_header_timeout $keepalive;
    root $WORK/www;
  }
CONF
  NGINX_PID=$STARTED_NGINX_PID
  gw_wait_for "http://127.0.0.1:$upstream_port/1k.json" || { cat "$WORK/nginx-upstream/error.log" >&2; return 1; }
  [ -n "$anchor_port" ] || return 0
  {
    cat <<CONF
  upstream origin {
    server 127.0.0.1:$upstream_port;
    keepalive 32;
    keepalive_requests 1000000;
  }
CONF
    gw_nginx_proxy "$anchor_port"
    # The same proxy over h2c by prior knowledge (nginx's `listen ... http2` without TLS).
    [ -z "${H2C_ANCHOR_PORT:-}" ] || gw_nginx_proxy "$H2C_ANCHOR_PORT http2"
  } > "$WORK/anchor-servers.conf"
  gw_run_nginx anchor < "$WORK/anchor-servers.conf"
  ANCHOR_NGINX_PID=$STARTED_NGINX_PID
  gw_wait_for "http://127.0.0.1:$anchor_port/1k.json" || { cat "$WORK/nginx-anchor/error.log" >&2; return 1; }
}

# Starts an nginx named $1 (its files in $WORK/nginx-$1) with the server blocks read from standard
# input inside the settings both share; sets STARTED_NGINX_PID.
gw_run_nginx() {
  local dir="$WORK/nginx-$1"
  mkdir -p "$dir"
  {
    cat <<CONF
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/error.log error;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/client_body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  types { application/json json; }
  default_type application/json;
  sendfile on;
  tcp_nopush on;
  open_file_cache max=16;
  keepalive_requests 1000000;
CONF
    cat
    echo "}"
  } > "$dir/nginx.conf"
  local nginx; nginx=$(command -v nginx || echo /usr/sbin/nginx)
  "$nginx" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" -g 'daemon off;' &
  STARTED_NGINX_PID=$!
}

# The anchor's server block: nginx's plain proxy_pass to the upstream `origin`, listening on
# 127.0.0.1:$1 ($1 may add listen parameters, such as `http2`).
gw_nginx_proxy() {
  cat <<CONF
  server {
    listen 127.0.0.1:$1;
    access_log ${ANCHOR_ACCESS_LOG:-off};
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_max_temp_file_size 0;
    }
  }
CONF
}

# Waits (at most 30 s) until URL answers.
gw_wait_for() {
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "gateway: nothing answered $1" >&2; return 1
}

# Builds parley-gateway ($1: release or debug) in the integrations' scratch folder (.build-integrations,
# where `make integration-test` builds it in debug) and sets GATEWAY_BIN. PARLEY_GATEWAY_BIN=PATH
# in the environment runs that executable instead, unbuilt.
gw_build_gateway() {
  if [ -n "${PARLEY_GATEWAY_BIN:-}" ]; then GATEWAY_BIN=$PARLEY_GATEWAY_BIN; return 0; fi
  gw_build_product "$1" parley-gateway && GATEWAY_BIN=$BUILT_BIN
}

# Builds product $2 of the gateway's package in configuration $1 (release or debug) and sets BUILT_BIN.
# A release build links the Swift runtime and standard library statically, as the README says to
# build the gateway: its calls into them then go through no PLT stub or dynamic TLS lookup.
gw_build_product() {
  local configuration=$1 product=$2 args=(--package-path Integrations/ParleyGateway --scratch-path .build-integrations)
  [ "$configuration" = release ] && args+=(-c release --static-swift-stdlib)
  echo "building $product ($configuration)" >&2
  Scripts/swiftpm build "${args[@]}" --product "$product" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; return 1; }
  BUILT_BIN="$(Scripts/swiftpm build "${args[@]}" --show-bin-path)/$product"
}

# Starts nio-byte-relay (built by `gw_build_product CONFIG nio-byte-relay`, in BUILT_BIN) in front of
# the upstream on port $1; waits for its "listening on" line and sets RELAY_PID and RELAY_URL.
gw_start_relay() {
  "$BUILT_BIN" "$1" >"$WORK/relay.out" 2>"$WORK/relay.err" &
  RELAY_PID=$!
  gw_wait_listening "$WORK/relay" "$RELAY_PID" nio-byte-relay || return 1
  RELAY_URL=${LISTENING_LINE#listening on }
}

# Waits up to 60 s for the "listening on" line that process $2 (named $3) writes to $1.out, and sets
# LISTENING_LINE; shows $1.err when the process exits first.
gw_wait_listening() {
  local files=$1 pid=$2 name=$3
  LISTENING_LINE=
  for _ in $(seq 1 600); do
    LISTENING_LINE=$(grep -m1 '^listening on ' "$files.out" 2>/dev/null || true)
    [ -n "$LISTENING_LINE" ] && return 0
    kill -0 "$pid" 2>/dev/null || { echo "gateway: $name exited" >&2; cat "$files.err" >&2; return 1; }
    sleep 0.1
  done
  echo "gateway: no 'listening on' line from $name within 60 s" >&2
  return 1
}

# Starts the gateway in front of upstream URL $1 on a port the system picks (and an admin port when
# $2 is "admin"); waits for its "listening on" line and sets GATEWAY_PID, GATEWAY_URL (and ADMIN_URL).
# GATEWAY_LOG_LEVEL (default error) is its --log-level: info writes its access log to $WORK/gateway.err.
# GATEWAY_NAME (default gateway) names its output files ($WORK/NAME.out, NAME.err); GATEWAY_ARGS are
# further flags (a space-separated list).
gw_start_gateway() {
  local args=(--listen 127.0.0.1:0 --upstream "$1" --log-level "${GATEWAY_LOG_LEVEL:-error}")
  local name=${GATEWAY_NAME:-gateway}
  [ "${2:-}" = admin ] && args+=(--admin 127.0.0.1:0)
  # shellcheck disable=SC2206
  [ -n "${GATEWAY_ARGS:-}" ] && args+=($GATEWAY_ARGS)
  "$GATEWAY_BIN" "${args[@]}" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  GATEWAY_PID=$!
  gw_wait_listening "$WORK/$name" "$GATEWAY_PID" parley-gateway || return 1
  GATEWAY_URL=$(sed -E 's/^listening on (http:\/\/[^ ]+).*/\1/' <<<"$LISTENING_LINE")
  ADMIN_URL=$(sed -nE 's/.*\(admin on (http:\/\/[^)]+)\).*/\1/p' <<<"$LISTENING_LINE")
}

# Stops a process this script started, by its PID ($1), with SIGTERM and waits for it (at most
# 30 s, then SIGKILL); sets STOP_STATUS to its exit status. Not in $(...): wait needs the parent shell.
gw_stop() {
  local pid=$1
  STOP_STATUS=0
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { echo "gateway: PID $pid still running 30 s after SIGTERM" >&2; kill -KILL "$pid"; }
  wait "$pid" 2>/dev/null || STOP_STATUS=$?
}

gw_cleanup() {
  [ -n "$GATEWAY_PID" ] && kill "$GATEWAY_PID" 2>/dev/null
  [ -n "${EXTRA_GATEWAY_PID:-}" ] && kill "$EXTRA_GATEWAY_PID" 2>/dev/null
  [ -n "${COMPARED_GATEWAY_PID:-}" ] && kill "$COMPARED_GATEWAY_PID" 2>/dev/null
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null
  [ -n "$ANCHOR_NGINX_PID" ] && kill "$ANCHOR_NGINX_PID" 2>/dev/null
  [ -n "${RELAY_PID:-}" ] && kill "$RELAY_PID" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$WORK"
}

# Checks one request before it is timed: status 200 and a Content-Type containing $3, for Accept $2
# on URL $1; prints the body's size.
gw_check() {
  local url=$1 accept=$2 want=$3 out
  out=$(curl -s -o "$WORK/check.body" -w '%{http_code} %{content_type}' -H "Accept: $accept" "$url")
  case "$out" in
    "200 "*"$want"*) stat -c %s "$WORK/check.body";;
    *) echo "gateway: $url with Accept: $accept answered '$out' (wanted 200 $want)" >&2; return 1;;
  esac
}

# The options of the scripts that count per request (gateway-allocations.sh, gateway-instructions.sh),
# the script named $1, whose default number of requests is $2: --requests N, --debug, --help. Sets
# COUNT_NAME, REQUESTS and CONFIGURATION.
gw_count_options() {
  COUNT_NAME=$1 REQUESTS=$2 CONFIGURATION=release
  shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      --requests) REQUESTS="$2"; shift 2;;
      --debug) CONFIGURATION=debug; shift;;
      -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0;;
      *) echo "$COUNT_NAME: unknown argument '$1' (see --help)" >&2; exit 2;;
    esac
  done
  [[ "$REQUESTS" =~ ^[1-9][0-9]*$ ]] || { echo "$COUNT_NAME: '$REQUESTS' is not a count" >&2; exit 2; }
}

# Runs N ($3) requests with Accept $4 for $WORK/www/$2 at gateway URL $1 (h2load --h1, 4 keep-alive
# connections; when $5 is h2c, HTTP/2 by prior knowledge on 4 connections, 10 streams at once on
# each); fails unless all are answered 2xx.
gw_load_all_2xx() {
  local out protocol=(--h1)
  [ "${5:-}" = h2c ] && protocol=(-m10)
  out=$(h2load "${protocol[@]}" -t1 -c4 -n"$3" -H "accept: $4" "$1/$2" 2>&1)
  grep -q "^status codes: $3 2xx" <<<"$out" || { echo "$COUNT_NAME: not every request answered 2xx" >&2
                                                 echo "$out" >&2; return 1; }
}

# The counting scripts' cases and table: the 1 KB body passed through, transcoded to MessagePack and
# to YAML, passed through to an h2c client (GATEWAY_PID at GATEWAY_URL), and passed through the
# gateway that checks responses against an OpenAPI document (EXTRA_GATEWAY_PID at CONTRACT_URL). For each, $3 requests to warm up, then
# REQUESTS; function $1, given the serving gateway's PID and name (gateway or contract), prints its
# count so far, before and after them. The table's last column is headed $2, the count per request
# printed with the printf format $4.
gw_count_cases() {
  local count=$1 heading=$2 warmup=$3 format=$4 spec name gateway file accept protocol pid url before after
  printf '| case | requests | %s |\n|---|---:|---:|\n' "$heading"
  for spec in "1 KB passthrough|gateway|1k.json|application/json|h1" \
              "1 KB JSON->MessagePack|gateway|1k.json|application/msgpack|h1" \
              "1 KB JSON->YAML|gateway|1k.json|application/yaml|h1" \
              "1 KB h2c passthrough|gateway|1k.json|application/json|h2c" \
              "1 KB passthrough, contract report|contract|1k.json|application/json|h1"; do
    IFS='|' read -r name gateway file accept protocol <<<"$spec"
    if [ "$gateway" = contract ]; then pid=$EXTRA_GATEWAY_PID url=$CONTRACT_URL
    else pid=$GATEWAY_PID url=$GATEWAY_URL; fi
    gw_load_all_2xx "$url" "$file" "$warmup" "$accept" "$protocol"
    before=$("$count" "$pid" "$gateway")
    gw_load_all_2xx "$url" "$file" "$REQUESTS" "$accept" "$protocol"
    after=$("$count" "$pid" "$gateway")
    awk -v a="$before" -v b="$after" -v n="$REQUESTS" -v name="$name" -v format="$format" \
      'BEGIN { printf "| %s | %d | " format " |\n", name, n, (b - a) / n }'
  done
}
