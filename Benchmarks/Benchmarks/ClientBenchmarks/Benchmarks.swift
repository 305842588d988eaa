import Benchmark

// Placeholder until the ClientBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
