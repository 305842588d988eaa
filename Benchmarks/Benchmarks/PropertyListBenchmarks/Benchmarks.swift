import Benchmark

// Placeholder until the PropertyListBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
