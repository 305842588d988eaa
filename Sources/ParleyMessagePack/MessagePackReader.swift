import FoundationEssentials
import Parley

/// Reads one MessagePack value from bytes into a `Value`, iteratively: containers are tracked
/// on an explicit stack of frames, their finished children on two flat stacks (map members and
/// array elements, `Value.ChildStack`), so nesting costs heap, never machine stack, and is
/// bounded by `DecodingLimits/maxDepth`.
struct MessagePackReader {
    private var input: BinaryInput
    /// The short map keys read so far, made again from the table when they repeat (large inputs only).
    private var keys: RecentKeys?

    /// An open array or map: how many elements (map entries) are still to come, where its
    /// finished children start on their stack, and whether a map's next item is a key.
    private struct Frame {
        var isMap: Bool
        var remaining: Int
        var start: Int
        var awaitingKey: Bool
    }

    /// What one header byte (and its payload) stands for.
    private enum Item {
        case scalar(Value)
        case array(count: Int)
        case map(count: Int)
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) {
        input = BinaryInput(bytes, format: MessagePackFormat.formatName, limits: limits)
        keys = RecentKeys.forInput(ofCount: bytes.count)
    }

    /// Reads the single value the bytes hold.
    mutating func read() throws(FormatError) -> Value {
        // The finished children of the open maps (a key is pushed with a placeholder its value
        // replaces) and of the open arrays.
        var members = Value.ChildStack<Value.Object.Member>()
        var elements = Value.ChildStack<Value>()
        var frames: [Frame] = []
        while true {
            // In a map, a key comes first: pushed with a placeholder its value replaces.
            var isMapValue = false
            if let top = frames.last, top.isMap {
                if top.awaitingKey {
                    members.append(Value.Object.Member(key: try readKey(), value: .null))
                    frames[frames.count - 1].awaitingKey = false
                }
                isMapValue = true
            }
            let start = input.offset
            var value: Value
            switch try readItem() {
            case .scalar(let scalar):
                value = scalar
            case .array(let count):
                guard count > 0 else { value = .array([]); break }
                try input.checkDepth(frames.count + 1, at: start)
                frames.append(Frame(isMap: false, remaining: count, start: elements.count, awaitingKey: false))
                continue
            case .map(let count):
                guard count > 0 else { value = .object(Value.Object()); break }
                try input.checkDepth(frames.count + 1, at: start)
                frames.append(Frame(isMap: true, remaining: count, start: members.count, awaitingKey: true))
                continue
            }
            // Hand the finished value to its container; close every container it completes.
            while let last = frames.indices.last {
                if isMapValue {
                    members[members.count - 1].value = value
                    frames[last].awaitingKey = true
                } else {
                    elements.append(value)
                }
                frames[last].remaining -= 1
                guard frames[last].remaining == 0 else { break }
                let frame = frames.removeLast()
                value = frame.isMap ? .object(Value.Object(members.removeTail(from: frame.start)))
                    : .array(elements.removeTail(from: frame.start))
                isMapValue = frames.last?.isMap ?? false
            }
            if frames.isEmpty {
                guard input.remaining == 0 else {
                    throw malformed("\(input.remaining) byte(s) after the value", at: input.offset)
                }
                return value
            }
        }
    }

    // MARK: Items

    private mutating func readItem() throws(FormatError) -> Item {
        let start = input.offset
        try input.countItem(at: start)
        let byte = try input.readByte()
        switch byte {
        case 0x00...0x7F: return .scalar(.integer(Int64(byte)))
        case 0x80...0x8F: return .map(count: try mapCount(UInt64(byte & 0x0F), at: start))
        case 0x90...0x9F: return .array(count: try arrayCount(UInt64(byte & 0x0F), at: start))
        case 0xA0...0xBF: return .scalar(.string(try readString(length: Int(byte & 0x1F), at: start)))
        case 0xC0: return .scalar(.null)
        case 0xC1: throw malformed("0xC1 is never used", at: start)
        case 0xC2: return .scalar(.bool(false))
        case 0xC3: return .scalar(.bool(true))
        case 0xC4, 0xC5, 0xC6:
            let length = try readLength(widthCode: byte - 0xC4)
            return .scalar(.bytes(Array(try input.take(UInt64(length), at: start))))
        case 0xC7, 0xC8, 0xC9:
            let length = try readLength(widthCode: byte - 0xC7)
            return .scalar(try readExtension(length: length, at: start))
        case 0xCA: return .scalar(.float(Double(Float(bitPattern: UInt32(try input.readBigEndian(4))))))
        case 0xCB: return .scalar(.float(Double(bitPattern: try input.readBigEndian(8))))
        case 0xCC: return .scalar(.integer(Int64(try input.readBigEndian(1))))
        case 0xCD: return .scalar(.integer(Int64(try input.readBigEndian(2))))
        case 0xCE: return .scalar(.integer(Int64(try input.readBigEndian(4))))
        case 0xCF:
            let u = try input.readBigEndian(8)
            return .scalar(u <= UInt64(Int64.max) ? .integer(Int64(u)) : .number(String(u)))
        case 0xD0: return .scalar(.integer(Int64(Int8(truncatingIfNeeded: try input.readBigEndian(1)))))
        case 0xD1: return .scalar(.integer(Int64(Int16(truncatingIfNeeded: try input.readBigEndian(2)))))
        case 0xD2: return .scalar(.integer(Int64(Int32(truncatingIfNeeded: try input.readBigEndian(4)))))
        case 0xD3: return .scalar(.integer(Int64(bitPattern: try input.readBigEndian(8))))
        case 0xD4, 0xD5, 0xD6, 0xD7, 0xD8:
            return .scalar(try readExtension(length: 1 << Int(byte - 0xD4), at: start))
        case 0xD9, 0xDA, 0xDB:
            let length = try readLength(widthCode: byte - 0xD9)
            return .scalar(.string(try readString(length: length, at: start)))
        case 0xDC, 0xDD:
            let count = try readLength(widthCode: byte - 0xDC + 1)
            return .array(count: try arrayCount(UInt64(count), at: start))
        case 0xDE, 0xDF:
            let count = try readLength(widthCode: byte - 0xDE + 1)
            return .map(count: try mapCount(UInt64(count), at: start))
        default: // 0xE0...0xFF: negative fixint
            return .scalar(.integer(Int64(Int8(bitPattern: byte))))
        }
    }

    /// A map key: a string, or an integer written as its decimal text.
    private mutating func readKey() throws(FormatError) -> String {
        let start = input.offset
        // A fixstr (at most 15 bytes) the input holds comes from the table of recent keys.
        if start < input.bytes.count, input.bytes[start] & 0xF0 == 0xA0,
           case let length = Int(input.bytes[start] & 0x0F), length < input.remaining,
           let key = try keys?.key(in: input.bytes, at: start + 1, count: length, make: Self.text) {
            try input.countItem(at: start)
            input.offset = start + 1 + length
            return key
        }
        switch try readItem() {
        case .scalar(.string(let key)): return key
        case .scalar(.integer(let key)): return String(key)
        case .scalar(.number(let key)): return key
        case .scalar(let other):
            throw FormatError(.unsupportedValue, format: MessagePackFormat.formatName,
                              "a \(other.kindName) map key has no object-key form (only strings and integers)",
                              location: .init(byteOffset: start))
        case .array, .map:
            throw FormatError(.unsupportedValue, format: MessagePackFormat.formatName,
                              "a container map key has no object-key form (only strings and integers)",
                              location: .init(byteOffset: start))
        }
    }

    private mutating func readExtension(length: Int, at start: Int) throws(FormatError) -> Value {
        let type = Int8(bitPattern: try input.readByte())
        let payload = try input.take(UInt64(length), at: start)
        guard type == -1 else {
            return .tagged(MessagePackFormat.extensionTag(type), .bytes(Array(payload)))
        }
        guard let date = MessagePackTimestamp.date(from: payload) else {
            throw malformed("a timestamp needs 4, 8 or 12 bytes and nanoseconds below 10^9", at: start)
        }
        return .date(date)
    }

    /// A `str` payload.
    private mutating func readString(length: Int, at start: Int) throws(FormatError) -> String {
        try Self.text(try input.take(UInt64(length), at: start))
    }

    /// A `str` payload's text: ASCII checked eight bytes at a time and made into a string directly; anything else
    /// validated as UTF-8 first.
    private static func text(_ slice: Slice<UnsafeBufferPointer<UInt8>>) throws(FormatError) -> String {
        let payload = UnsafeBufferPointer(rebasing: slice)
        guard let base = payload.baseAddress else { return "" }
        let length = payload.count
        var i = 0
        while i &+ 8 <= length {
            if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            i &+= 8
        }
        while i < length && base[i] < 0x80 { i &+= 1 }
        if i < length, let bad = Charset.firstInvalidUTF8(UnsafeBufferPointer(rebasing: payload[i...])) {
            throw FormatError(.invalidText, format: MessagePackFormat.formatName, "a str is not valid UTF-8",
                              location: .init(byteOffset: slice.startIndex + i + bad))
        }
        return String(decoding: payload, as: UTF8.self)
    }

    /// An array's declared element count, plausible only if the bytes left could hold that many elements.
    private func arrayCount(_ count: UInt64, at start: Int) throws(FormatError) -> Int {
        try input.checkedCount(count, bytesEach: 1, noun: "element(s)", at: start)
    }

    /// A map's declared entry count, plausible only if the bytes left could hold a key and a value for each.
    private func mapCount(_ count: UInt64, at start: Int) throws(FormatError) -> Int {
        try input.checkedCount(count, bytesEach: 2, noun: "entries", at: start)
    }

    /// Reads a length field of 1, 2 or 4 bytes (`widthCode` 0, 1, 2).
    private mutating func readLength(widthCode: UInt8) throws(FormatError) -> Int {
        Int(try input.readBigEndian(1 << Int(widthCode)))
    }

    private func malformed(_ message: String, at position: Int) -> FormatError {
        input.malformed(message, at: position)
    }
}
