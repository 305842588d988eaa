import Parley

/// A position in protobuf wire bytes: reads varints, fixed-width values and length-delimited
/// ranges, and checks every declared length against the bytes left before anything is allocated.
struct WireCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of `bytes` in the whole body, for error locations.
    let base: Int
    var position: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, base: Int) {
        self.bytes = bytes
        self.base = base
        position = 0
        end = bytes.count
    }

    var isAtEnd: Bool { position >= end }

    func error(_ code: FormatError.Code, _ message: String, at offset: Int? = nil) -> FormatError {
        FormatError(code, format: ProtobufFormat.formatName, message,
                    location: FormatError.Location(byteOffset: base + (offset ?? position)))
    }

    /// A base-128 varint of at most ten bytes.
    mutating func readVarint() throws(FormatError) -> UInt64 {
        // Most varints (tags, small numbers) are one byte.
        if position < end, bytes[position] < 0x80 {
            position += 1
            return UInt64(bytes[position - 1])
        }
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw error(.truncated, "the input ends inside a varint", at: start) }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 {
                throw error(.malformed, "a varint longer than 64 bits", at: start)
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func readFixed32() throws(FormatError) -> UInt32 {
        guard end - position >= 4 else { throw error(.truncated, "the input ends inside a 32-bit value") }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[position + index]) << (8 * index) }
        position += 4
        return value
    }

    mutating func readFixed64() throws(FormatError) -> UInt64 {
        guard end - position >= 8 else { throw error(.truncated, "the input ends inside a 64-bit value") }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * index) }
        position += 8
        return value
    }

    /// A length prefix and the range it covers, checked against the bytes left.
    mutating func readLengthDelimited() throws(FormatError) -> Range<Int> {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(end - position) else {
            throw error(.truncated, "a declared length of \(length) bytes runs past the end of the input", at: start)
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// How many values of `wireType` the rest of the bytes hold when packed: each varint ends with the one
    /// byte of it below 0x80.
    func valueCount(of wireType: WireType) -> Int {
        switch wireType {
        case .fixed32: return (end - position) / 4
        case .fixed64: return (end - position) / 8
        default:
            var count = 0
            for index in position..<end where bytes[index] < 0x80 { count += 1 }
            return count
        }
    }

    /// The bytes of `range` as their own buffer.
    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// A tag: the field number and the wire type.
    mutating func readTag() throws(FormatError) -> (number: UInt32, wireType: WireType) {
        let start = position
        let tag = try readVarint()
        guard let wireType = WireType(rawValue: UInt8(tag & 7)) else {
            throw error(.malformed, "wire type \(tag & 7) does not exist", at: start)
        }
        let number = tag >> 3
        guard number >= 1, number <= 536_870_911 else {
            throw error(.malformed, "field number \(number) is out of range", at: start)
        }
        return (UInt32(number), wireType)
    }

    /// Skips the value of a field with `wireType` (a group up to its end tag, nested groups
    /// counted against `maxDepth`).
    mutating func skip(_ wireType: WireType, number: UInt32, depth: Int, maxDepth: Int) throws(FormatError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .endGroup: throw error(.malformed, "an end-group tag without its start")
        case .startGroup: _ = try readGroup(number: number, depth: depth, maxDepth: maxDepth)
        }
    }

    /// The fields of group `number`, whose start tag has been read: the range up to its end tag, which is
    /// read too. Nested groups are counted against `maxDepth`.
    mutating func readGroup(number: UInt32, depth: Int, maxDepth: Int) throws(FormatError) -> Range<Int> {
        guard depth < maxDepth else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxDepth",
                                            maximum: maxDepth, location: .init(byteOffset: base + position))
        }
        let start = position
        while true {
            guard !isAtEnd else { throw error(.truncated, "the input ends inside group \(number)") }
            let tagStart = position
            let tag = try readTag()
            if tag.wireType == .endGroup {
                guard tag.number == number else {
                    throw error(.malformed, "group \(number) ends with the end tag of \(tag.number)")
                }
                return start..<tagStart
            }
            try skip(tag.wireType, number: tag.number, depth: depth + 1, maxDepth: maxDepth)
        }
    }
}
