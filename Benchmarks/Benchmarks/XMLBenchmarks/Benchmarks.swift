import Benchmark

// Placeholder until the XMLBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
