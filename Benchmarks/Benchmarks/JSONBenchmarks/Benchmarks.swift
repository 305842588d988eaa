import Benchmark

// Placeholder until the JSONBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
