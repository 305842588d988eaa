import Benchmark

// Placeholder until the FixturesBenchmarks suite lands.
let benchmarks: @Sendable () -> Void = {}
