import Benchmark
import Foundation
import Parley
import ParleyClient
import ParleyHTTP

// Request building, side by side with what a user would otherwise write, in one run:
// - query encoding of a 50-key nested parameter set (objects, arrays, escapes) with Parley's
//   QueryEncoder (keys sorted, brackets) next to Foundation's URLComponents given the same
//   pairs already flattened (URLComponents cannot nest);
// - multipart framing of a 100 MB file part: Parley's streamed reader (256 KiB buffer) next to
//   plain read(2) of the same file with the same buffer, so the difference is the framing
//   overhead; a separate run records peak resident memory, which must stay flat (≪ 100 MB).
// Throughput in MB/s is the file size divided by the median wall-clock time.

/// 50 top-level keys: scalars, nested objects, arrays, text that needs escaping.
func makeParameters() -> Value {
    var object = Value.Object()
    for index in 0..<50 {
        let key = "key\(index)"
        switch index % 5 {
        case 0: object.append(key: key, value: .string("value \(index) & more/é?"))
        case 1: object.append(key: key, value: .integer(Int64(index * 1000)))
        case 2:
            let inner: Value = ["x": 1.5, "y": "a+b"]
            object.append(key: key, value: ["name": .string("n\(index)"), "flag": true, "inner": inner])
        case 3: object.append(key: key, value: ["a", "b c", .integer(Int64(index))])
        default: object.append(key: key, value: .bool(index % 2 == 0))
        }
    }
    return .object(object)
}

let parameters = makeParameters()
let flattenedItems: [URLQueryItem] = {
    var pairs: [URLQueryItem] = []
    let text = (try? QueryEncoder().encode(parameters)) ?? ""
    for pair in text.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        pairs.append(URLQueryItem(name: String(parts[0]).removingPercentEncoding ?? "",
                                  value: parts.count > 1 ? String(parts[1]).removingPercentEncoding : nil))
    }
    return pairs
}()

let fileSize = 100 << 20
let chunkSize = 256 << 10
let largeFile: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-100mb.bin").path
    if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) != fileSize {
        var block = [UInt8](repeating: 0, count: 1 << 20)
        for index in block.indices { block[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = FileHandle(forWritingAtPath: path)!
        for _ in 0..<(fileSize >> 20) { handle.write(Data(block)) }
        try? handle.close()
    }
    return path
}()

func makeForm() -> MultipartFormData {
    var form = MultipartFormData()
    form.append(name: "title", value: "benchmark")
    try! form.append(name: "file", fileAt: largeFile)
    return form
}

func streamForm() throws -> Int {
    let reader = makeForm().makeReader()
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    var total = 0
    while true {
        let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        if count == 0 { return total }
        total += count
    }
}

func readFilePlain() -> Int {
    let fd = open(largeFile, O_RDONLY)
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    var total = 0
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunkSize) }
        if count <= 0 { return total }
        total += count
    }
}

let benchmarks: @Sendable () -> Void = {
    let fast = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3),
                                       maxIterations: 100_000)
    let encoder = QueryEncoder()

    Benchmark("Client.query-50-keys-nested", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try encoder.encode(parameters)) }
    }
    Benchmark("Client.query-50-keys-URLComponents-flat", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            var components = URLComponents()
            components.queryItems = flattenedItems
            blackHole(components.percentEncodedQuery)
        }
    }
    Benchmark("Client.form-decode-50-keys-nested", configuration: fast) { benchmark in
        let text = try encoder.encode(parameters)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try FormDecoder().decode(text)) }
    }

    let large = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(10),
                                        maxIterations: 20)
    _ = largeFile
    Benchmark("Client.multipart-100mb-file", configuration: large) { _ in
        blackHole(try streamForm())
    }
    Benchmark("Client.multipart-100mb-file-plain-read", configuration: large) { _ in
        blackHole(readFilePlain())
    }
    let peakMemory = Benchmark.Configuration(metrics: [.peakMemoryResidentDelta, .peakMemoryResident],
                                             maxDuration: .seconds(5), maxIterations: 3)
    Benchmark("Client.multipart-100mb-file-peakMemory", configuration: peakMemory) { _ in
        blackHole(try streamForm())
    }
}
