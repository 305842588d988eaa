import Parley
import ParleyCBOR

// CBOR: maps (text keys, repeated keys, integer keys checked for collisions), arrays, the chunks
// of indefinite-length strings and the self-describe-tagged items sniffing reads.

let cborWorkloads: [Workload] = [
    Workload("cbor.map-distinct-keys", unit: "keys", count: 500) { n in
        let bytes = try! CBORFormat().encode(objectValue(n))
        return { keep(try CBORFormat().decode(bytes)) }
    },
    Workload("cbor.map-repeated-key", unit: "members", count: 500) { n in
        // A map of n members, each the key "a" with a small integer.
        var map: [UInt8] = [0xBA] + withUnsafeBytes(of: UInt32(n).bigEndian) { Array($0) }
        for index in 0..<n { map += [0x61, UInt8(ascii: "a"), UInt8(index % 24)] }
        let bytes = map
        return { keep(try CBORFormat().decode(bytes)) }
    },
    Workload("cbor.map-integer-keys", unit: "keys", count: 500) { n in
        // Integer keys become text after a collision check against the map's text keys.
        let pairs = (0..<n).map { Value.array([.integer(Int64($0)), .null]) } + [["last", .null]]
        let bytes = try! CBORFormat().encode(.tagged(CBORFormat.mapTag, .array(pairs)))
        return { keep(try CBORFormat().decode(bytes)) }
    },
    Workload("cbor.array-elements", unit: "elements", count: 500) { n in
        let value = Value.array((0..<n).map { .array([.integer(Int64($0)), .string("n\($0)")]) })
        let bytes = try! CBORFormat().encode(value)
        return { keep(try CBORFormat().decode(bytes)) }
    },
    Workload("cbor.indefinite-string-chunks", unit: "chunks", count: 500) { n in
        let bytes: [UInt8] = [0x7F] + (0..<n).flatMap { _ in [0x62, 0x61, 0x62] as [UInt8] } + [0xFF]
        return { keep(try CBORFormat().decode(bytes)) }
    },
    Workload("cbor.sniff-array", unit: "elements", count: 500) { n in
        let bytes = try! CBORFormat().encode(.array((0..<n).map { .integer(Int64($0)) }))
        return { keep(bytes.withUnsafeBytes { CBORFormat().sniff($0) }) }
    },
]
