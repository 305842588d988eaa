import Benchmark

// Placeholder until the ImageBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
