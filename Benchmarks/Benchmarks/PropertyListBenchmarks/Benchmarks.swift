import Benchmark
import Foundation
import Parley
import ParleyPropertyList

// Property-list decoding side by side with Foundation's PropertyListSerialization on the same
// generated document (about 2 MB as XML): a list of records with strings, integers, reals,
// dates, data and Booleans.

func makeRecords(_ count: Int) -> Value {
    var records: [Value] = []
    records.reserveCapacity(count)
    for i in 0..<count {
        records.append([
            "id": .integer(Int64(i)), "name": .string("user-\(i) ünïcode"), "score": .float(Double(i) * 0.25),
            "active": .bool(i % 3 == 0), "created": .date(Date(timeIntervalSinceReferenceDate: Double(i) * 60)),
            "token": .bytes((0..<16).map { UInt8(truncatingIfNeeded: $0 &* i) }),
            "tags": ["alpha", "beta", .string("t\(i % 10)")],
        ])
    }
    return ["records": .array(records)]
}

let benchmarks: @Sendable () -> Void = {
    let value = makeRecords(6_000)
    let xml = try! PropertyListFormat().encode(value, as: "application/x-plist")
    let binary = try! PropertyListFormat().encode(value, as: "application/x-bplist")
    let xmlData = Data(xml), binaryData = Data(binary)
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(4))
    print("plist inputs: XML \(xml.count) bytes, binary \(binary.count) bytes")

    Benchmark("PropertyList.decode-xml", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! PropertyListFormat().decode(xml)) }
    }
    Benchmark("PropertyList.foundation-decode-xml", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! PropertyListSerialization.propertyList(from: xmlData, options: [], format: nil))
        }
    }
    Benchmark("PropertyList.decode-binary", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! PropertyListFormat().decode(binary)) }
    }
    Benchmark("PropertyList.foundation-decode-binary", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! PropertyListSerialization.propertyList(from: binaryData, options: [], format: nil))
        }
    }
    Benchmark("PropertyList.encode-binary", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! PropertyListFormat().encode(value, as: "application/x-bplist")) }
    }
}
