import Parley

/// Writes a `Value` as MessagePack, iteratively (an explicit stack, never the machine stack),
/// each integer, string, byte string and container header in its smallest form. An object that
/// builds its members on demand (a JSON body's) is written straight from the document it was
/// parsed into, through the same scalar and header writers (`ValueEventWriter`).
struct MessagePackWriter: ValueEventWriter {
    let options: MessagePackFormat.Options
    /// The bytes written so far; a typical API answer's size at first (smaller starts grew it
    /// several times over).
    let output = ByteOutput(capacity: 1_024)

    private enum Frame {
        case array([Value], next: Int)
        case object([Value.Object.Member], next: Int)
    }

    init(options: MessagePackFormat.Options) {
        self.options = options
    }

    mutating func write(_ root: Value) throws(FormatError) {
        var stack: [Frame] = []
        var pending: Value? = root
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: writeNull()
                case .bool(let b): writeBool(b)
                case .integer(let i): writeInteger(i)
                case .float(let d): writeFloat(d)
                case .number(let text): try writeNumber(text)
                case .string(let s): try writeString(s)
                case .bytes(let b):
                    try writeHeader(count: b.count, codes: (0xC4, 0xC5, 0xC6))
                    output.append(contentsOf: b)
                case .date(let date):
                    guard let payload = MessagePackTimestamp.payload(for: date) else {
                        throw unsupported("the date \(date) is outside the timestamp range")
                    }
                    try writeExtension(type: MessagePackTimestamp.extensionType, payload: payload)
                case .array(let elements):
                    try beginArray(count: elements.count)
                    if !elements.isEmpty { stack.append(.array(elements, next: 0)) }
                case .object(let object):
                    if try object.writeDeferredEvents(to: &self) { break }
                    try beginObject(count: object.count)
                    if !object.isEmpty { stack.append(.object(object.members, next: 0)) }
                case .tagged(let tag, let inner):
                    if case .bytes(let payload) = inner, let type = Self.extensionType(ofTag: tag) {
                        try writeExtension(type: type, payload: payload)
                    } else {
                        pending = inner
                        continue
                    }
                }
            }
            guard let frame = stack.popLast() else { return }
            switch frame {
            case .array(let elements, let next):
                pending = elements[next]
                if next + 1 < elements.count { stack.append(.array(elements, next: next + 1)) }
            case .object(let members, let next):
                try writeString(members[next].key)
                pending = members[next].value
                if next + 1 < members.count { stack.append(.object(members, next: next + 1)) }
            }
        }
    }

    /// The extension type a `msgpack.ext.<n>` tag names, or `nil` for other tags.
    static func extensionType(ofTag tag: String) -> Int8? {
        let prefix = "msgpack.ext."
        guard tag.hasPrefix(prefix) else { return nil }
        return Int8(tag.dropFirst(prefix.count))
    }

    // MARK: Scalars

    mutating func writeInteger(_ i: Int64) {
        if i >= 0 {
            writeUnsigned(UInt64(i))
        } else if i >= -32 {
            output.append(UInt8(bitPattern: Int8(i)))
        } else if i >= Int64(Int8.min) {
            output.append(0xD0)
            output.appendBigEndian(UInt64(bitPattern: i), width: 1)
        } else if i >= Int64(Int16.min) {
            output.append(0xD1)
            output.appendBigEndian(UInt64(bitPattern: i), width: 2)
        } else if i >= Int64(Int32.min) {
            output.append(0xD2)
            output.appendBigEndian(UInt64(bitPattern: i), width: 4)
        } else {
            output.append(0xD3)
            output.appendBigEndian(UInt64(bitPattern: i), width: 8)
        }
    }

    private mutating func writeUnsigned(_ u: UInt64) {
        switch u {
        case 0...0x7F: output.append(UInt8(u))
        case 0...0xFF: output.append(0xCC); output.appendBigEndian(u, width: 1)
        case 0...0xFFFF: output.append(0xCD); output.appendBigEndian(u, width: 2)
        case 0...0xFFFF_FFFF: output.append(0xCE); output.appendBigEndian(u, width: 4)
        default: output.append(0xCF); output.appendBigEndian(u, width: 8)
        }
    }

    mutating func writeFloat(_ d: Double) {
        output.append(0xCB)
        output.appendBigEndian(d.bitPattern, width: 8)
    }

    mutating func writeNumber(_ text: String) throws(FormatError) {
        if let i = Int64(text) { return writeInteger(i) }
        if let u = UInt64(text) { return writeUnsigned(u) }
        guard let exact = DecimalText(text), let d = Double(text), d.isFinite else {
            throw unsupported("'\(text)' is not a number MessagePack can hold")
        }
        if options.roundsInexactNumbers || DecimalText("\(d)") == exact {
            return writeFloat(d)
        }
        throw unsupported(
            "'\(text)' is neither a 64-bit integer nor exactly a float64 (set roundsInexactNumbers to round it)")
    }

    private mutating func writeString(_ s: String) throws(FormatError) {
        var s = s
        try s.withUTF8Bytes { (utf8) throws(FormatError) in try writeString(utf8) }
    }

    // MARK: Events

    /// Room for as many bytes as the document had: a document's MessagePack is seldom longer
    /// than its text.
    mutating func prepare(forDocumentOf byteCount: Int) { output.reserveCapacity(byteCount) }

    mutating func writeNull() { output.append(0xC0) }

    mutating func writeBool(_ bool: Bool) { output.append(bool ? 0xC3 : 0xC2) }

    mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) throws(FormatError) {
        // Most strings are short: their fixstr header is written here, without the general case.
        if utf8.count <= 31 {
            output.append(0xA0 | UInt8(truncatingIfNeeded: utf8.count))
        } else {
            try writeHeader(count: utf8.count, codes: (0xD9, 0xDA, 0xDB))
        }
        output.append(contentsOf: utf8)
    }

    mutating func beginArray(count: Int) throws(FormatError) {
        // Most arrays and objects are small: their fixarray or fixmap header is written here,
        // without the general case.
        if count <= 15 { return output.append(0x90 | UInt8(truncatingIfNeeded: count)) }
        try writeHeader(count: count, codes: (0xDC, 0xDC, 0xDD))
    }

    mutating func endArray() {}

    mutating func beginObject(count: Int) throws(FormatError) {
        if count <= 15 { return output.append(0x80 | UInt8(truncatingIfNeeded: count)) }
        try writeHeader(count: count, codes: (0xDE, 0xDE, 0xDF))
    }

    mutating func writeKey(_ utf8: UnsafeBufferPointer<UInt8>) throws(FormatError) { try writeString(utf8) }

    mutating func endObject() {}

    mutating func writeValue(_ value: Value) throws(FormatError) { try write(value) }

    private mutating func writeExtension(type: Int8, payload: [UInt8]) throws(FormatError) {
        switch payload.count {
        case 1: output.append(0xD4)
        case 2: output.append(0xD5)
        case 4: output.append(0xD6)
        case 8: output.append(0xD7)
        case 16: output.append(0xD8)
        default: try writeHeader(count: payload.count, codes: (0xC7, 0xC8, 0xC9))
        }
        output.append(UInt8(bitPattern: type))
        output.append(contentsOf: payload)
    }

    // MARK: Headers

    /// Writes a length or count too large for a fix form (the callers write those) with 1, 2 or 4
    /// bytes under `codes` (a container passes its 16-bit code twice: it has no 8-bit form).
    private mutating func writeHeader(count: Int, codes: (UInt8, UInt8, UInt8)) throws(FormatError) {
        if count <= 0xFF && codes.0 != codes.1 {
            output.append(codes.0)
            output.appendBigEndian(UInt64(count), width: 1)
        } else if count <= 0xFFFF {
            output.append(codes.1)
            output.appendBigEndian(UInt64(count), width: 2)
        } else if count <= 0xFFFF_FFFF {
            output.append(codes.2)
            output.appendBigEndian(UInt64(count), width: 4)
        } else {
            throw unsupported("\(count) elements or bytes exceed MessagePack's 2^32 − 1")
        }
    }

    private func unsupported(_ message: String) -> FormatError {
        FormatError(.unsupportedValue, format: MessagePackFormat.formatName, message)
    }
}
