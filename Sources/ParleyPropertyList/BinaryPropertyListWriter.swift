import FoundationEssentials
import Parley

/// Writes `bplist00` documents: values are numbered in pre-order, then written with the
/// smallest integer, reference and offset sizes that fit.
struct BinaryPropertyListWriter {
    enum Node {
        case scalar(Value)
        case key(String)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    var nodes: [Node] = []
    static let format = "plist"

    static func write(_ value: Value) throws(FormatError) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        _ = try writer.flatten(value, depth: 1)
        return try writer.serialize()
    }

    mutating func flatten(_ value: Value, depth: Int) throws(FormatError) -> Int {
        guard depth <= 512 else {
            throw FormatError(.unsupportedValue, format: Self.format, "nesting deeper than 512 levels")
        }
        let index = nodes.count
        switch value {
        case .array(let elements):
            nodes.append(.array([]))
            var references: [Int] = []
            references.reserveCapacity(elements.count)
            for element in elements { references.append(try flatten(element, depth: depth + 1)) }
            nodes[index] = .array(references)
        case .object(let object):
            nodes.append(.dictionary(keys: [], values: []))
            var keys: [Int] = [], values: [Int] = []
            for member in object.members {
                keys.append(nodes.count)
                nodes.append(.key(member.key))
            }
            for member in object.members { values.append(try flatten(member.value, depth: depth + 1)) }
            nodes[index] = .dictionary(keys: keys, values: values)
        case .null:
            throw FormatError(.unsupportedValue, format: Self.format, "property lists have no null")
        case .tagged(let tag, _) where tag != "uid":
            throw FormatError(.unsupportedValue, format: Self.format, "property lists cannot hold a '\(tag)' value")
        default:
            nodes.append(.scalar(value))
        }
        return index
    }

    static func byteCount(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    func serialize() throws(FormatError) -> [UInt8] {
        let referenceSize = Self.byteCount(for: UInt64(nodes.count))
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(nodes.count)
        func appendBigEndian(_ value: UInt64, size: Int) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        func appendMarker(_ high: UInt8, count: Int) {
            if count < 15 {
                out.append(high << 4 | UInt8(count))
            } else {
                out.append(high << 4 | 0xF)
                let size = Self.byteCount(for: UInt64(count))
                out.append(0x10 | UInt8(size.trailingZeroBitCount))
                appendBigEndian(UInt64(count), size: size)
            }
        }
        func appendString(_ text: String) {
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: text.utf8.count)
                out.append(contentsOf: text.utf8)
            } else {
                let units = Array(text.utf16)
                appendMarker(0x6, count: units.count)
                for unit in units { appendBigEndian(UInt64(unit), size: 2) }
            }
        }
        for node in nodes {
            offsets.append(out.count)
            switch node {
            case .key(let key): appendString(key)
            case .array(let references):
                appendMarker(0xA, count: references.count)
                for r in references { appendBigEndian(UInt64(r), size: referenceSize) }
            case .dictionary(let keys, let values):
                appendMarker(0xD, count: keys.count)
                for r in keys + values { appendBigEndian(UInt64(r), size: referenceSize) }
            case .scalar(let value):
                switch value {
                case .bool(let b): out.append(b ? 0x09 : 0x08)
                case .integer(let i):
                    if i < 0 {
                        out.append(0x13)
                        appendBigEndian(UInt64(bitPattern: i), size: 8)
                    } else {
                        let size = Self.byteCount(for: UInt64(i))
                        out.append(0x10 | UInt8(size.trailingZeroBitCount))
                        appendBigEndian(UInt64(i), size: size)
                    }
                case .number(let text):
                    if let unsigned = UInt64(text) {
                        out.append(0x14)
                        appendBigEndian(0, size: 8)
                        appendBigEndian(unsigned, size: 8)
                    } else if let d = Double(text), d.isFinite {
                        out.append(0x23)
                        appendBigEndian(d.bitPattern, size: 8)
                    } else {
                        throw FormatError(
                            .unsupportedValue, format: Self.format, "number \(text) has no property-list form")
                    }
                case .float(let d):
                    out.append(0x23)
                    appendBigEndian(d.bitPattern, size: 8)
                case .date(let date):
                    out.append(0x33)
                    appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
                case .bytes(let bytes):
                    appendMarker(0x4, count: bytes.count)
                    out.append(contentsOf: bytes)
                case .string(let text): appendString(text)
                case .tagged(_, let inner):
                    guard let id = inner.integerValue, id >= 0 else {
                        throw FormatError(
                            .unsupportedValue, format: Self.format, "a UID must be a non-negative integer")
                    }
                    let size = Self.byteCount(for: UInt64(id))
                    out.append(0x80 | UInt8(size - 1))
                    appendBigEndian(UInt64(id), size: size)
                default:
                    throw FormatError(.unsupportedValue, format: Self.format, "cannot write a \(value.kindName)")
                }
            }
        }
        let offsetTable = out.count
        let offsetSize = Self.byteCount(for: UInt64(offsetTable))
        for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        appendBigEndian(UInt64(nodes.count), size: 8)
        appendBigEndian(0, size: 8)
        appendBigEndian(UInt64(offsetTable), size: 8)
        return out
    }
}
