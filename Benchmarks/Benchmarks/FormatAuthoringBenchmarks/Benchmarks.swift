import Benchmark

// Placeholder until the FormatAuthoringBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
