import Benchmark

// Placeholder until the YAMLBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
