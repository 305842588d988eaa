import Benchmark
import BenchmarkInputs
import CBaselineSimdjson
import Foundation
import Parley
import ParleyJSON
import PerfWorkloads

// JSON decode and encode, Parley side by side with Foundation on the same bytes in one run.
// Inputs are generated deterministically (a fixed-seed generator), never committed:
// - api-1mb / api-20mb: an API-like array of nested user records (strings with escapes and
//   non-ASCII text, integers, decimals, Booleans, nested objects and arrays);
// - geojson-2mb: a number-heavy GeoJSON FeatureCollection of polygons (6-decimal coordinates).
// Throughput in MB/s is the input size divided by the median wall-clock time.
// JSON.decode-* validates the whole text and returns a tree whose objects build their members on
// demand; JSON.decodeAndWalk-* then visits every value, so it pays for building all of them, as a
// caller reading the whole document does (JSONSerialization builds everything up front).
// JSON.decodeAndWalk-*-simdjson is simdjson's DOM parse plus the same walk in C++, and
// JSON.decodeAndWalk-*-JSONSerialization is JSONSerialization plus the same walk over its objects.

let api1MB = makeAPIDocument(size: 1 << 20, seed: 1)
let api20MB = makeAPIDocument(size: 20 << 20, seed: 2)
let geoJSON = makeGeoJSON(size: 2 << 20, seed: 3)

let benchmarks: @Sendable () -> Void = {
    let json = JSONFormat()
    func configuration(_ seconds: Int, iterations: Int = 1000) -> Benchmark.Configuration {
        .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(seconds), maxIterations: iterations)
    }

    for (name, input, seconds) in [("api-1mb", api1MB, 4), ("api-20mb", api20MB, 12), ("geojson-2mb", geoJSON, 4)] {
        let data = Data(input)
        Benchmark("JSON.decode-\(name)", configuration: configuration(seconds)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try json.decode(input))
            }
        }
        Benchmark("JSON.decode-\(name)-JSONSerialization", configuration: configuration(seconds)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
            }
        }
    }

    // Decoding and then reading every value, the whole cost for a caller who uses all of it.
    for (name, input) in [("api-1mb", api1MB), ("api-20mb", api20MB), ("geojson-2mb", geoJSON)] {
        let seconds = name == "api-20mb" ? 12 : 4
        let data = Data(input)
        // The three walks see the same document: same count, or the comparison is not like for like.
        let expected = walk(try! json.decode(input))
        let simdjsonCount = input.withUnsafeBufferPointer { simdjson_parse_and_walk($0.baseAddress, $0.count) }
        let foundationCount = walkFoundation(
            try! JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        precondition(simdjsonCount == expected && foundationCount == expected,
                     "\(name): walks differ: Parley \(expected), simdjson \(simdjsonCount), "
                     + "JSONSerialization \(foundationCount)")
        Benchmark("JSON.decodeAndWalk-\(name)", configuration: configuration(seconds)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(walk(try json.decode(input)))
            }
        }
        Benchmark("JSON.decodeAndWalk-\(name)-simdjson", configuration: configuration(seconds)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(input.withUnsafeBufferPointer { simdjson_parse_and_walk($0.baseAddress, $0.count) })
            }
        }
        Benchmark("JSON.decodeAndWalk-\(name)-JSONSerialization", configuration: configuration(seconds)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(walkFoundation(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])))
            }
        }
    }

    // Resident-memory peak while decoding the 20 MB document. The delta undercounts: pages freed
    // earlier in the process (input generation) are reused. The figure quoted in reports comes
    // from BenchReport (`make bench-report`): a child process per measurement reads the document
    // from a file and compares VmHWM with VmRSS before decoding.
    let peakMemory = Benchmark.Configuration(metrics: [.peakMemoryResidentDelta, .peakMemoryResident],
                                             maxDuration: .seconds(5), maxIterations: 3)
    Benchmark("JSON.decode-api-20mb-peakMemory", configuration: peakMemory) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try json.decode(api20MB))
        }
    }

    let api1MBData = Data(api1MB)
    let geoJSONData = Data(geoJSON)
    Benchmark("JSON.codable-api-1mb", configuration: configuration(4)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try json.decode([APIRecord].self, from: api1MB))
        }
    }
    Benchmark("JSON.codable-api-1mb-JSONDecoder", configuration: configuration(4)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoder().decode([APIRecord].self, from: api1MBData))
        }
    }
    let api20MBData = Data(api20MB)
    Benchmark("JSON.codable-api-20mb", configuration: configuration(12)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try json.decode([APIRecord].self, from: api20MB))
        }
    }
    Benchmark("JSON.codable-api-20mb-JSONDecoder", configuration: configuration(12)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoder().decode([APIRecord].self, from: api20MBData))
        }
    }
    Benchmark("JSON.codable-geojson-2mb", configuration: configuration(4)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try json.decode(FeatureCollection.self, from: geoJSON))
        }
    }
    Benchmark("JSON.codable-geojson-2mb-JSONDecoder", configuration: configuration(4)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoder().decode(FeatureCollection.self, from: geoJSONData))
        }
    }

    for (name, input) in [("api-1mb", api1MB), ("geojson-2mb", geoJSON)] {
        let value = try! json.decode(input).resolved() // a tree held in memory, as an application builds one
        let object = try! JSONSerialization.jsonObject(with: Data(input))
        Benchmark("JSON.encode-\(name)", configuration: configuration(4)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try json.encode(value))
            }
        }
        Benchmark("JSON.encode-\(name)-JSONSerialization", configuration: configuration(4)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONSerialization.data(withJSONObject: object))
            }
        }
    }
}
