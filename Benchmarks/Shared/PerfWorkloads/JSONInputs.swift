import BenchmarkInputs
import Foundation
public import Parley
import ParleyJSON

// JSON documents and the full read a caller does: JSONBenchmarks times them, PerfGate counts them.

/// A GeoJSON FeatureCollection of polygons, at least `size` bytes: number-heavy (6-decimal coordinates).
public func makeGeoJSON(size: Int, seed: UInt64) -> [UInt8] {
    var g = SeededGenerator(seed: seed)
    var out: [UInt8] = Array(#"{"type":"FeatureCollection","features":["#.utf8)
    out.reserveCapacity(size + 4096)
    var index = 0
    while out.count < size {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        let baseLng = Double(g.int(-179_000_000..<179_000_000)) / 1_000_000
        let baseLat = Double(g.int(-89_000_000..<89_000_000)) / 1_000_000
        var ring: [String] = []
        for _ in 0..<g.int(8..<40) {
            let lng = baseLng + Double(g.int(0..<100_000)) / 1_000_000
            let lat = baseLat + Double(g.int(0..<100_000)) / 1_000_000
            ring.append("[\(String(format: "%.6f", lng)),\(String(format: "%.6f", lat))]")
        }
        ring.append(ring[0])
        let feature = """
        {"type":"Feature","properties":{"name":"\(g.pick(words)) \(index)","population":\(g.int(0..<10_000_000))},\
        "geometry":{"type":"Polygon","coordinates":[[\(ring.joined(separator: ","))]]}}
        """
        out.append(contentsOf: feature.utf8)
        index += 1
    }
    out.append(contentsOf: "]}".utf8)
    return out
}

/// One record of ``makeAPIDocument(size:seed:)``, for the Codable paths.
public struct APIRecord: Codable, Sendable {
    public struct Geo: Codable, Sendable { public var lat: Double; public var lng: Double }
    public struct Address: Codable, Sendable {
        public var street: String; public var city: String; public var zip: String; public var geo: Geo
    }
    public struct Friend: Codable, Sendable { public var id: Int; public var name: String }
    public var id: Int
    public var guid: String
    public var isActive: Bool
    public var balance: Double
    public var age: Int
    public var name: String
    public var email: String
    public var tags: [String]
    public var address: Address
    public var friends: [Friend]
    public var registered: String
    public var about: String
}

/// The document of ``makeGeoJSON(size:seed:)``, for the Codable paths.
public struct FeatureCollection: Codable, Sendable {
    public struct Feature: Codable, Sendable {
        public struct Properties: Codable, Sendable { public var name: String; public var population: Int }
        public struct Geometry: Codable, Sendable { public var type: String; public var coordinates: [[[Double]]] }
        public var type: String
        public var properties: Properties
        public var geometry: Geometry
    }
    public var type: String
    public var features: [Feature]
}

/// Visits every value of `value`, reading every string: what a caller reading a whole document does.
public func walk(_ value: Value) -> Int {
    switch value {
    case .array(let elements):
        var visited = 1
        for element in elements { visited &+= walk(element) }
        return visited
    case .object(let object):
        var visited = 1
        for member in object { visited &+= walk(member.value) &+ member.key.utf8.count }
        return visited
    case .string(let string): return string.utf8.count
    default: return 1
    }
}

/// ``walk(_:)`` over JSONSerialization's objects: the same count, so the comparison is like for like.
public func walkFoundation(_ value: Any) -> Int {
    if let elements = value as? [Any] {
        var visited = 1
        for element in elements { visited &+= walkFoundation(element) }
        return visited
    }
    if let object = value as? [String: Any] {
        var visited = 1
        for (key, member) in object { visited &+= walkFoundation(member) &+ key.utf8.count }
        return visited
    }
    if let string = value as? String { return string.utf8.count }
    return 1
}
