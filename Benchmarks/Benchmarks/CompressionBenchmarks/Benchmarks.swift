import Benchmark
import BenchmarkInputs
import Foundation
import ParleyCompression

// Content codings on the 1 MB API JSON document JSONBenchmarks decodes (makeAPIDocument(size: 1 << 20,
// seed: 1)), at the levels Compressor uses by default: zstd 3, Brotli quality 4, zlib 6 for gzip.
// Scripts/compare-compression-tools.sh runs this suite and times the brotli and zstd tools on the
// same bytes at the same levels, and prints them side by side (goal: the wrapper at 90% or more
// of the tool's throughput). Throughput in MB/s is 1 MiB divided by the median wall-clock time.
//
// With PARLEY_BENCHMARK_GATE set (`make bench-gate`), only malloc counts are measured: the same on
// every run and at every percentile, they are gated against Thresholds/CompressionBenchmarks.*
// with no tolerance (one more allocation per call fails the gate).

let api1MB = makeAPIDocument(size: 1 << 20, seed: 1)
let gate = ProcessInfo.processInfo.environment["PARLEY_BENCHMARK_GATE"] != nil
let metrics: [BenchmarkMetric] = gate ? [.mallocCountTotal] : [.wallClock, .mallocCountTotal]

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(gate ? 1 : 4),
                                                maxIterations: gate ? 20 : 1000,
                                                thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])])
    let compressor = Compressor()
    for (name, coding) in [("zstd-3", ContentCoding.zstd), ("br-4", .brotli), ("gzip-6", .gzip)] {
        let coded = compressor.compress(api1MB, coding: coding)
        let decompressor = Decompressor(maximumBytes: 16 << 20)
        Benchmark("Compression.\(name)-compress-api-1mb", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(compressor.compress(api1MB, coding: coding))
            }
        }
        Benchmark("Compression.\(name)-decompress-api-1mb", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decompressor.decompress(coded, coding: coding))
            }
        }
    }
}
