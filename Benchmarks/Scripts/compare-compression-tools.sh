#!/usr/bin/env bash
# Compression throughput of ParleyCompression beside the brotli and zstd command-line tools, on the
# same bytes (the benchmarks' 1 MB API JSON, makeAPIDocument(size: 1 << 20, seed: 1)) at the same
# levels (zstd 3, Brotli quality 4), in one run:
#   1. runs CompressionBenchmarks (package-benchmark) and reads each benchmark's median wall clock;
#   2. times each tool (and gzip) on the document and on an empty file RUNS times each, interleaved,
#      writing to /dev/null: the tool's time for the bytes is the difference (of the fastest runs, and
#      of the medians), so process start-up and file opening are not counted against it;
#   3. prints MB/s (10^6 bytes of uncompressed JSON per second) side by side, fastest run and median
#      run, and ours as a share of the tool's (goal: 90% or more, the wrapper costs nothing). On a
#      loaded machine the fastest runs are the steadier reading. zstd's own in-process benchmark
#      (zstd -b3) is printed too, as a second reading of the tool.
# Usage: Benchmarks/Scripts/compare-compression-tools.sh [RUNS]   (default 30; needs brotli, zstd, python3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
for tool in brotli zstd gzip python3 swiftc; do
  command -v $tool >/dev/null || {
    echo "compare-compression-tools: $tool is missing (make setup installs brotli and zstd)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp Scripts/write-api-document.swift "$work/main.swift"
swiftc -O Shared/BenchmarkInputs/BenchmarkInputs.swift "$work/main.swift" -o "$work/write-api-document"
"$work/write-api-document" "$work/api-1mb.json"
: > "$work/empty"
brotli -q 4 -c "$work/api-1mb.json" > "$work/api-1mb.json.br"; brotli -q 4 -c "$work/empty" > "$work/empty.br"
zstd -q -3 -c "$work/api-1mb.json" > "$work/api-1mb.json.zst"; zstd -q -3 -c "$work/empty" > "$work/empty.zst"
gzip -6 -c "$work/api-1mb.json" > "$work/api-1mb.json.gz"; gzip -6 -c "$work/empty" > "$work/empty.gz"

echo "==> CompressionBenchmarks"
swift package benchmark --target CompressionBenchmarks --no-progress --format markdown | tee "$work/ours.md" \
  | grep -E "^#|wall clock" || true

echo "==> the tools ($runs runs each, and as many on an empty file)"
zstd -b3 -i3 -q "$work/api-1mb.json" 2>&1 | tail -1 | tee "$work/zstd-bench.txt"

WORK="$work" RUNS="$runs" python3 - <<'PYTHON'
import os, re, statistics, subprocess, time
work, runs = os.environ["WORK"], int(os.environ["RUNS"])
size = os.path.getsize(f"{work}/api-1mb.json")

def seconds(arguments, sink):
    start = time.perf_counter()
    subprocess.run(arguments, stdout=sink, check=True)
    return time.perf_counter() - start

def tool(command, full, empty):
    """(fastest, median) MB/s: the tool on the document less the tool on an empty file, interleaved."""
    on_full, on_empty = [], []
    with open(os.devnull, "wb") as sink:
        for _ in range(runs):
            on_full.append(seconds(command + [full], sink))
            on_empty.append(seconds(command + [empty], sink))
    return (size / (min(on_full) - min(on_empty)) / 1e6,
            size / (statistics.median(on_full) - statistics.median(on_empty)) / 1e6)

document, empty = f"{work}/api-1mb.json", f"{work}/empty"
tools = {
    "zstd-3-compress": tool(["zstd", "-q", "-3", "-c"], document, empty),
    "zstd-3-decompress": tool(["zstd", "-q", "-d", "-c"], f"{document}.zst", f"{empty}.zst"),
    "br-4-compress": tool(["brotli", "-q", "4", "-c"], document, empty),
    "br-4-decompress": tool(["brotli", "-d", "-c"], f"{document}.br", f"{empty}.br"),
    "gzip-6-compress": tool(["gzip", "-6", "-c"], document, empty),
    "gzip-6-decompress": tool(["gzip", "-d", "-c"], f"{document}.gz", f"{empty}.gz"),
}

# Ours from package-benchmark's markdown: a "Compression.<name>-api-1mb" heading, then the
# "Time (wall clock) (<unit>)" row: p0, p25, p50, ...
ours, name = {}, None
scale = {"ns": 1e-9, "us": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0}
for line in open(f"{work}/ours.md", encoding="utf-8"):
    heading = re.search(r"Compression\.([\w.-]+)-api-1mb", line)
    if heading and not line.lstrip().startswith("|"):
        name = heading.group(1)
    row = re.match(r"\|\s*Time \(wall clock\) \((\S+)\)[^|]*\|([^|]*)\|([^|]*)\|([^|]*)\|", line)
    if row and name:
        p0, p50 = (float(row.group(i).replace(",", "").strip()) * scale[row.group(1)] for i in (2, 4))
        ours[name] = (size / p0 / 1e6, size / p50 / 1e6)

print()
print(f"1 MB API JSON ({size} bytes): MB/s of uncompressed bytes; fastest run, then median run")
print("| | ParleyCompression fastest | tool fastest | ours/tool | ParleyCompression median | tool median | ours/tool |")
print("|---|---:|---:|---:|---:|---:|---:|")
for key in tools:
    (mine_fast, mine_median), (tool_fast, tool_median) = ours.get(key, (0, 0)), tools[key]
    print(f"| {key} | {mine_fast:.1f} | {tool_fast:.1f} | {mine_fast / tool_fast:.0%} "
          f"| {mine_median:.1f} | {tool_median:.1f} | {mine_median / tool_median:.0%} |")
zstd_bench = open(f'{work}/zstd-bench.txt').read().strip()
print(f"zstd -b3 (the tool's own in-process benchmark, compress and decompress): {zstd_bench}")
PYTHON
