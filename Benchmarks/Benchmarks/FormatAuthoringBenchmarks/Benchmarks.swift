import Benchmark
import BenchmarkInputs
import Parley
import ParleyCSV
import ParleyJSON
import ParleyMessagePack

// The formats built the way a custom format is built, measured against the JSON format on the
// same data in one run. Inputs are generated deterministically (a fixed-seed generator):
// - api-1mb: the JSON suite's API-like document (BenchmarkInputs), decoded once into the value
//   tree; MessagePack encodes that same tree, so both formats carry identical values;
// - people-100k: 100 000 CSV records of 6 fields (a header row; some fields quoted, with commas,
//   doubled quotes and line breaks), about 7 MB.
// Throughput: bytes (or records) divided by the median wall-clock time.

/// `rows` CSV records of people with a header row.
func makePeopleCSV(rows: Int, seed: UInt64) -> [UInt8] {
    var g = SeededGenerator(seed: seed)
    var out: [UInt8] = Array("id,name,email,city,balance,note\r\n".utf8)
    for id in 0..<rows {
        let note: String
        switch g.int(0..<4) {
        case 0: note = "\"\(g.pick(words)), \(g.pick(words))\""
        case 1: note = "\"said \"\"\(g.pick(words))\"\"\r\nthen left\""
        default: note = "\(g.pick(words)) \(g.pick(words))"
        }
        let record = "\(id),\(g.pick(words)) \(g.pick(words)),\(g.pick(words))@example.com,\(g.pick(cities)),"
            + "\(g.int(0..<1_000_000)).\(g.int(10..<100)),\(note)\r\n"
        out.append(contentsOf: record.utf8)
    }
    return out
}

let json = JSONFormat()
let msgpack = MessagePackFormat()
let csv = CSVFormat()

let apiJSON = makeAPIDocument(size: 1 << 20, seed: 1)
let apiValue = try! json.decode(apiJSON).resolved()
let apiMessagePack = try! msgpack.encode(apiValue)
let peopleRows = 100_000
let peopleCSV = makePeopleCSV(rows: peopleRows, seed: 2)
let peopleValue = try! csv.decode(peopleCSV, as: "text/csv;header=present")

let benchmarks: @Sendable () -> Void = {
    func configuration(_ seconds: Int, iterations: Int = 1000) -> Benchmark.Configuration {
        .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(seconds), maxIterations: iterations)
    }

    // Same values: the JSON text (1 MiB) and its MessagePack encoding.
    Benchmark("MessagePack.decode-api-1mb", configuration: configuration(4)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try msgpack.decode(apiMessagePack)) }
    }
    Benchmark("MessagePack.decode-api-1mb-JSONFormat", configuration: configuration(4)) { benchmark in
        // resolved(): JSON objects otherwise build their members on demand; MessagePack builds all.
        for _ in benchmark.scaledIterations { blackHole(try json.decode(apiJSON).resolved()) }
    }
    Benchmark("MessagePack.encode-api-1mb", configuration: configuration(4)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try msgpack.encode(apiValue)) }
    }
    Benchmark("MessagePack.encode-api-1mb-JSONFormat", configuration: configuration(4)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try json.encode(apiValue)) }
    }

    // CSV records per second: whole-body decode (header=present, objects), the streaming reader
    // in 64 KiB chunks (rows only, no value tree), and encoding the objects back.
    Benchmark("CSV.decode-people-100k-rows", configuration: configuration(6, iterations: 100)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try csv.decode(peopleCSV, as: "text/csv;header=present")) }
    }
    Benchmark("CSV.stream-people-100k-rows", configuration: configuration(6, iterations: 100)) { benchmark in
        for _ in benchmark.scaledIterations {
            var reader = try CSVRowReader()
            var count = 0
            var start = 0
            while start < peopleCSV.count {
                try reader.append(peopleCSV[start..<min(start + 65_536, peopleCSV.count)])
                while let row = try reader.nextRow() { count += row.count }
                start += 65_536
            }
            reader.finish()
            while let row = try reader.nextRow() { count += row.count }
            blackHole(count)
        }
    }
    Benchmark("CSV.encode-people-100k-rows", configuration: configuration(6, iterations: 100)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try csv.encode(peopleValue)) }
    }
}
