import FuzzSupport
import Parley
import ParleyJSON

let format = JSONFormat()

/// Any JSON read through Codable containers only, so both Codable paths (the tape and the
/// tree) are driven through every container call.
indirect enum AnyJSON: Decodable, Equatable {
    case null, bool(Bool), integer(Int64), double(Double), string(String), undecodable
    case array([AnyJSON]), object([String], [AnyJSON])

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            let keys = keyed.allKeys
            self = .object(keys.map(\.stringValue), try keys.map { try keyed.decode(AnyJSON.self, forKey: $0) })
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [AnyJSON] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(AnyJSON.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let i = try? single.decode(Int64.self) { self = .integer(i) }
            else if let s = try? single.decode(String.self) { self = .string(s) }
            else if let d = try? single.decode(Double.self) { self = .double(d) }
            else { self = .undecodable }
        }
    }
}

/// Arbitrary bytes as application/json: only a value or a FormatError, and our own output
/// decodes again; Codable read straight from the bytes agrees with Codable over the tree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    fuzzDecodeAndRoundTrip(format, as: "application/json", bytes: bytes)
    let direct = Result { try format.decode(AnyJSON.self, from: bytes) }
    let tree = Result { try ValueDecoder().decode(AnyJSON.self, from: try format.decode(bytes)) }
    switch (direct, tree) {
    case (.success(let a), .success(let b)) where a == b: break
    case (.failure(let a), .failure(let b)) where "\(a)" == "\(b)": break
    default: fatalError("the direct and tree Codable paths disagree: \(direct) vs \(tree)")
    }
    return 0
}
