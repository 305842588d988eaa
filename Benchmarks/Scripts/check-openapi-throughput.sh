#!/usr/bin/env bash
# `parley check --openapi` throughput against plain `parley check` on the generated corpus (issue
# #35: with a matching document it keeps at least 70% of the throughput without --openapi).
#
#   Benchmarks/Scripts/check-openapi-throughput.sh [--megabytes 1000] [--files 10000] [--runs 3] [--keep DIR]
#
# Generates the corpus and the OpenAPI document it matches with make-recorded-corpus.py (fixed
# seed; into a temporary folder, or DIR with --keep, reused when it is already there), then runs
# `parley check CORPUS --report json --output /dev/null` without and with `--openapi`, the two
# interleaved, --runs times each, and reports each run's wall and CPU (user + system) time, the
# median's throughput in MB/s and the ratio; a third run per round checks against the document
# with its component schemas emptied, which separates the body's schema validation from the rest.
# The release `parley` comes from PARLEY_BIN, else the Benchmarks package builds it (sharing the
# suites' release objects). Exit 2 when the ratio of median wall times is below 0.70.
set -euo pipefail
cd "$(dirname "$0")/../.."

MEGABYTES=1000
FILES=10000
RUNS=3
KEEP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --megabytes) MEGABYTES="$2"; shift 2;;
    --files) FILES="$2"; shift 2;;
    --runs) RUNS="$2"; shift 2;;
    --keep) KEEP="$2"; shift 2;;
    *) echo "usage: $0 [--megabytes N] [--files N] [--runs N] [--keep DIR]" >&2; exit 2;;
  esac
done

if [ -z "${PARLEY_BIN:-}" ]; then
  (cd Benchmarks && swift build -c release --product parley >/dev/null)
  PARLEY_BIN="$(cd Benchmarks && swift build -c release --show-bin-path)/parley"
fi

if [ -n "$KEEP" ]; then
  WORK="$KEEP"
  mkdir -p "$WORK"
else
  WORK="$(mktemp -d /tmp/parley-openapi-throughput.XXXXXX)"
  trap 'rm -rf "$WORK"' EXIT
fi
CORPUS="$WORK/corpus-$MEGABYTES-$FILES"
DOCUMENT="$CORPUS.openapi.json"
if [ ! -f "$DOCUMENT" ]; then
  python3 Benchmarks/Scripts/make-recorded-corpus.py "$CORPUS" --files "$FILES" --megabytes "$MEGABYTES" \
    --openapi "$DOCUMENT"
fi
BYTES=$(du -sb "$CORPUS" | cut -f1)
# The same document with every component schema emptied ({}): what --openapi costs besides the
# body's schema validation (matching, parameters, the check's plumbing), to tell the two apart.
OPEN_DOCUMENT="$CORPUS.open-schemas.openapi.json"
if [ ! -f "$OPEN_DOCUMENT" ]; then
  python3 - "$DOCUMENT" "$OPEN_DOCUMENT" <<'PY'
import json, sys
document = json.load(open(sys.argv[1]))
document["components"]["schemas"] = {name: {} for name in document["components"]["schemas"]}
json.dump(document, open(sys.argv[2], "w"))
PY
fi

# The findings with --openapi, once: every exchange with a request matches an operation and conforms.
"$PARLEY_BIN" check "$CORPUS" --openapi "$DOCUMENT" --report json --output "$WORK/findings.jsonl" || true
python3 - "$WORK/findings.jsonl" <<'PY'
import collections, json, sys
kinds = collections.Counter()
for line in open(sys.argv[1]):
    record = json.loads(line)
    if record.get("type") != "exchange":
        continue
    for finding in record["findings"]:
        kinds[finding.get("kind")] += 1
print("contract findings:", dict(kinds) or "none")
bad = {k: n for k, n in kinds.items() if k.startswith("contract-") and k != "contract-no-operation"}
if bad:
    sys.exit(f"the generated corpus does not conform to its document: {bad}")
PY

# One run: wall seconds and CPU seconds (user + system) of the process (the last line time writes:
# a run with error findings exits 1, which time notes on a line before).
run() {
  /usr/bin/time -f "%e %U %S" -o "$WORK/time" "$PARLEY_BIN" check "$CORPUS" "$@" --report json --output /dev/null \
    >/dev/null 2>&1 || true
  tail -n 1 "$WORK/time" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
}
PLAIN=()
CONTRACT=()
OPEN=()
for i in $(seq "$RUNS"); do
  PLAIN+=("$(run)")
  CONTRACT+=("$(run --openapi "$DOCUMENT")")
  OPEN+=("$(run --openapi "$OPEN_DOCUMENT")")
  echo "run $i: without --openapi ${PLAIN[-1]% *} s wall (${PLAIN[-1]#* } s CPU);" \
       "with --openapi ${CONTRACT[-1]% *} s wall (${CONTRACT[-1]#* } s CPU);" \
       "schemas emptied ${OPEN[-1]% *} s wall (${OPEN[-1]#* } s CPU)"
done
python3 - "$BYTES" "${PLAIN[*]}" "${CONTRACT[*]}" "${OPEN[*]}" <<'PY'
import statistics, sys
size = int(sys.argv[1])
def pairs(text):
    values = [float(v) for v in text.split()]
    return values[0::2], values[1::2]
plain_wall, plain_cpu = pairs(sys.argv[2])
contract_wall, contract_cpu = pairs(sys.argv[3])
open_wall, open_cpu = pairs(sys.argv[4])
pw, cw, ow = statistics.median(plain_wall), statistics.median(contract_wall), statistics.median(open_wall)
pc, cc, oc = statistics.median(plain_cpu), statistics.median(contract_cpu), statistics.median(open_cpu)
print(f"corpus: {size / 1e6:.0f} MB")
print(f"parley check:           {size / 1e6 / pw:7.1f} MB/s wall, {size / 1e6 / pc:7.1f} MB/s of CPU (median)")
print(f"parley check --openapi: {size / 1e6 / cw:7.1f} MB/s wall, {size / 1e6 / cc:7.1f} MB/s of CPU (median)")
print(f"  its schemas emptied:  {size / 1e6 / ow:7.1f} MB/s wall, {size / 1e6 / oc:7.1f} MB/s of CPU (median; "
      f"body validation's share of what --openapi adds: {(cc - oc) / max(cc - pc, 1e-9):.0%} of CPU)")
ratio = pw / cw
print(f"throughput kept with --openapi: {ratio:.0%} wall, {pc / cc:.0%} CPU (target >= 70%)")
sys.exit(0 if ratio >= 0.70 else 2)
PY
