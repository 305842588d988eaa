import Benchmark
import BenchmarkInputs
import CBaselineYAML
import Parley
import ParleyYAML

// YAML decoding, side by side with libyaml's own event loop in C (what a program calling libyaml
// directly gets, building nothing): ParleyYAML should reach at least half its throughput.
// The input is generated deterministically: about 3 MB of block-style API records (nested
// mappings, sequences, strings, integers, floats, Booleans, nulls), like a large config or export.

/// About `targetBytes` of YAML: a top-level mapping holding a list of records.
func makeRecordsDocument(targetBytes: Int) -> [UInt8] {
    var generator = SeededGenerator(seed: 42)
    var text = "kind: export\nversion: 3\nrecords:\n"
    var id = 0
    while text.utf8.count < targetBytes {
        id += 1
        text += """
              - id: \(id)
                name: \(generator.word()) \(generator.word())
                email: \(generator.word())\(id)@example.com
                active: \(generator.next() % 2 == 0 ? "true" : "false")
                score: \(Double(generator.next() % 100_000) / 100)
                manager: \(generator.next() % 5 == 0 ? "null" : "\(generator.next() % 1000)")
                tags: [\(generator.word()), \(generator.word()), \(generator.word())]
                address:
                  street: "\(generator.next() % 999) \(generator.word()) street"
                  city: \(generator.word())
                  zip: '\(10_000 + generator.next() % 89_999)'
                history:
                  - {at: \(1_700_000_000 + generator.next() % 10_000_000), event: \(generator.word())}
                  - {at: \(1_700_000_000 + generator.next() % 10_000_000), event: \(generator.word())}
                note: >
                  \(generator.word()) \(generator.word()) \(generator.word()) \(generator.word())
                  \(generator.word()) \(generator.word())

            """
    }
    return Array(text.utf8)
}

let benchmarks: @Sendable () -> Void = {
    let document = makeRecordsDocument(targetBytes: 3 << 20)
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
