import Benchmark

// Placeholder until the NegotiationBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
