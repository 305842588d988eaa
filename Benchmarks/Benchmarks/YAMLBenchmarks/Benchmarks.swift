import Benchmark
import BenchmarkInputs
import CBaselineYAML
import Parley
import ParleyYAML
import PerfWorkloads

// YAML decoding, side by side with libyaml's own event loop in C (what a program calling libyaml
// directly gets: every scalar's bytes read, nothing built); issue #19's target is 70% of its speed.
// The input is generated deterministically: about 3 MB of block-style API records (nested
// mappings, sequences, strings, integers, floats, Booleans, nulls), like a large config or export.

let benchmarks: @Sendable () -> Void = {
    let document = makeYAMLRecords(targetBytes: 3 << 20)
    let megabytes = Double(document.count) / 1_000_000
    let format = YAMLFormat()
    let decoded = try! format.decode(document)
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                                maxDuration: .seconds(10), maxIterations: 40)
    print("YAML benchmark input: \(document.count) bytes (\(megabytes) MB)")

    Benchmark("YAML.decode-records-3MB", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try format.decode(document))
        }
    }

    Benchmark("YAML.libyaml-event-loop-records-3MB", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            document.withUnsafeBufferPointer { buffer in
                var scalarBytes = 0
                blackHole(baseline_yaml_event_loop(buffer.baseAddress, buffer.count, &scalarBytes))
                blackHole(scalarBytes)
            }
        }
    }

    Benchmark("YAML.encode-records-3MB", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try format.encode(decoded))
        }
    }
}
