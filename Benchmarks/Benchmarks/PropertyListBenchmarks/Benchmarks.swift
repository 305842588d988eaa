import Benchmark
import Foundation
import Parley
import ParleyPropertyList
import PerfWorkloads

// Property-list decoding side by side with Foundation's PropertyListSerialization on the same
// generated document (about 2 MB as XML): a list of records with strings, integers, reals,
// dates, data and Booleans.

let benchmarks: @Sendable () -> Void = {
    let value = makePropertyListRecords(6_000)
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
        for _ in benchmark.scaledIterations {
            blackHole(try! PropertyListFormat().encode(value, as: "application/x-bplist"))
        }
    }
}
