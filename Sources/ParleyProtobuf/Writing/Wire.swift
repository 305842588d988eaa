/// Appending wire-format pieces: tags, varints, fixed-width values, length-delimited bytes.
enum Wire {
    /// One scalar's wire form.
    enum Raw {
        case varint(UInt64)
        case fixed32(UInt32)
        case fixed64(UInt64)
        case bytes([UInt8])

        /// Whether it is the type's default: zero bits or no bytes.
        var isDefault: Bool {
            switch self {
            case .varint(let number): number == 0
            case .fixed32(let bits): bits == 0
            case .fixed64(let bits): bits == 0
            case .bytes(let bytes): bytes.isEmpty
            }
        }
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    static func appendTag(_ number: UInt32, _ wireType: WireType, to out: inout [UInt8]) {
        appendVarint(UInt64(number) << 3 | UInt64(wireType.rawValue), to: &out)
    }

    static func appendLengthDelimited(_ bytes: [UInt8], to out: inout [UInt8]) {
        appendVarint(UInt64(bytes.count), to: &out)
        out += bytes
    }

    static func append(_ raw: Raw, to out: inout [UInt8]) {
        switch raw {
        case .varint(let number): appendVarint(number, to: &out)
        case .fixed32(let bits):
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        case .fixed64(let bits):
            for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        case .bytes(let bytes): appendLengthDelimited(bytes, to: &out)
        }
    }
}
