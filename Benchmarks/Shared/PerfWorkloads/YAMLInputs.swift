import BenchmarkInputs

/// About `targetBytes` of YAML: a top-level mapping holding a list of block-style API records
/// (nested mappings, sequences, strings, integers, floats, Booleans, nulls, folded text), like a
/// large config or export. YAMLBenchmarks times it, PerfGate counts it.
public func makeYAMLRecords(targetBytes: Int) -> [UInt8] {
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
