import FoundationEssentials
import Parley

/// Reads CBOR items from bytes into `Value`s, iteratively: open arrays, maps and tags are frames
/// on an explicit stack and finished children wait on two flat stacks (object members and other
/// items, `Value.ChildStack`), so nesting costs heap, never machine stack, and is bounded by
/// `DecodingLimits/maxDepth`.
///
/// A map's text keys go straight to the member stack with their values; a map whose key is not a
/// text string moves its members to the item stack as key/value pairs and finishes there, where
/// `CBORMapKeys` decides what it becomes.
struct CBORReader {
    private var input: BinaryInput
    private let options: CBORFormat.Options

    /// An open container or tag. `remaining` counts what is still to come (an array's elements, a
    /// map's entries, a kept map's keys and values), or is -1 for an indefinite length; `start` is
    /// where its children begin on their stack (members for `.map`, items otherwise).
    private struct Frame {
        enum Kind {
            /// A map whose keys so far are all text: its members are on the member stack.
            case map
            /// A map with a key that is not text: its keys and values alternate on the item stack.
            case pairs
            case array, tag
        }
        var kind: Kind
        var remaining: Int
        var start: Int
        var tag: UInt64
        var position: Int
        /// For `.map`: whether the next item is a key.
        var awaitingKey = true
    }

    /// What one item's head (and payload, for scalars and strings) stands for.
    private enum Item {
        case scalar(Value)
        case container(isMap: Bool, count: Int?)
        case tag(UInt64)
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits, options: CBORFormat.Options) {
        input = BinaryInput(bytes, format: CBORFormat.formatName, limits: limits)
        self.options = options
    }

    /// Reads the single item the bytes hold; anything after it is malformed.
    mutating func readSingle() throws(FormatError) -> Value {
        let value = try readItem()
        guard input.remaining == 0 else {
            throw malformed("\(input.remaining) byte(s) after the item", at: input.offset)
        }
        return value
    }

    /// Reads every item of a CBOR sequence (RFC 8742) into an array; empty input is `[]`.
    mutating func readSequence() throws(FormatError) -> Value {
        var items: [Value] = []
        while input.remaining > 0 { items.append(try readItem()) }
        return .array(items)
    }

    /// Reads the next item of a sequence, or `nil` at the end of the input.
    ///
    /// A guard, not `offset < bytes.count ? try readItem() : nil`: Swift 6.3.1's debug build
    /// miscompiles that ternary under typed throws (the caller crashed allocating 26 GB).
    mutating func readNextItem() throws(FormatError) -> Value? {
        guard input.remaining > 0 else { return nil }
        return try readItem()
    }

    /// Reads one whole data item.
    private mutating func readItem() throws(FormatError) -> Value {
        var frames: [Frame] = []
        var members = Value.ChildStack<Value.Object.Member>()
        var items = Value.ChildStack<Value>()
        var indefiniteNesting = 0
        while true {
            // A map's text key goes on the member stack with a placeholder its value replaces; any
            // other key turns the map into key/value pairs on the item stack.
            if let top = frames.indices.last, frames[top].kind == .map, frames[top].awaitingKey,
               input.remaining > 0, input.bytes[input.offset] != 0xFF {
                if let key = try readTextKey() {
                    members.append(Value.Object.Member(key: key, value: .null))
                    frames[top].awaitingKey = false
                } else {
                    let start = items.count
                    for member in members.removeTail(from: frames[top].start) {
                        items.append(.string(member.key))
                        items.append(member.value)
                    }
                    let remaining = frames[top].remaining
                    frames[top] = Frame(kind: .pairs, remaining: remaining < 0 ? -1 : remaining * 2, start: start,
                                        tag: 0, position: frames[top].position)
                }
            }
            let start = input.offset
            var value: Value
            if input.remaining > 0, input.bytes[start] == 0xFF {
                guard let top = frames.last, top.kind != .tag, top.remaining < 0 else {
                    throw malformed("a break (0xFF) outside an indefinite-length array or map", at: start)
                }
                if top.kind == .map ? !top.awaitingKey : top.kind == .pairs && (items.count - top.start) % 2 != 0 {
                    throw malformed("an indefinite-length map ends after a key, before its value", at: start)
                }
                input.offset += 1
                frames.removeLast()
                indefiniteNesting -= 1
                value = close(top, &members, &items)
            } else {
                switch try readHead() {
                case .scalar(let scalar):
                    value = scalar
                case .container(let isMap, let count):
                    try input.checkDepth(frames.count + 1, at: start)
                    if count == 0 {
                        value = isMap ? .object(Value.Object()) : .array([])
                        break
                    }
                    if count == nil {
                        indefiniteNesting += 1
                        if indefiniteNesting > options.maxIndefiniteNesting {
                            throw FormatError.limitExceeded(
                                format: CBORFormat.formatName, limit: "maxIndefiniteNesting",
                                maximum: options.maxIndefiniteNesting, actual: indefiniteNesting,
                                location: .init(byteOffset: start))
                        }
                    }
                    frames.append(Frame(kind: isMap ? .map : .array, remaining: count ?? -1,
                                        start: isMap ? members.count : items.count, tag: 0, position: start))
                    continue
                case .tag(let number):
                    try input.checkDepth(frames.count + 1, at: start)
                    frames.append(Frame(kind: .tag, remaining: 1, start: items.count, tag: number, position: start))
                    continue
                }
            }
            // Hand the finished value to its parent; close every container and tag it completes.
            while let last = frames.indices.last {
                switch frames[last].kind {
                case .tag:
                    let frame = frames.removeLast()
                    value = try CBORTags.apply(frame.tag, to: value, at: frame.position, options: options)
                    continue
                case .map:
                    members[members.count - 1].value = value
                    frames[last].awaitingKey = true
                case .pairs, .array:
                    items.append(value)
                }
                guard frames[last].remaining > 0 else { break }
                frames[last].remaining -= 1
                guard frames[last].remaining == 0 else { break }
                let frame = frames.removeLast()
                value = close(frame, &members, &items)
            }
            if frames.isEmpty { return value }
        }
    }

    /// The array or map of a finished frame, its children moved off their stack.
    private func close(_ frame: Frame, _ members: inout Value.ChildStack<Value.Object.Member>,
                       _ items: inout Value.ChildStack<Value>) -> Value {
        switch frame.kind {
        case .map: .object(Value.Object(members.removeTail(from: frame.start)))
        case .pairs: CBORMapKeys.value(ofMapItems: items.removeTail(from: frame.start),
                                       keepsNonTextKeys: options.keepsNonTextKeys)
        default: .array(items.removeTail(from: frame.start))
        }
    }

    /// A map key that is a definite-length text string, read; `nil` (nothing read) for any other key.
    private mutating func readTextKey() throws(FormatError) -> String? {
        let initial = input.bytes[input.offset]
        guard initial >> 5 == 3, initial & 0x1F < 28 else { return nil }
        let start = input.offset
        try input.countItem(at: start)
        input.offset += 1
        return try readText(try input.take(try readArgument(info: initial & 0x1F, at: start), at: start))
    }

    // MARK: Heads

    private mutating func readHead() throws(FormatError) -> Item {
        let start = input.offset
        try input.countItem(at: start)
        let initial = try input.readByte()
        let major = initial >> 5
        let info = initial & 0x1F
        if info == 31 {
            switch major {
            case 2, 3: return .scalar(try readIndefiniteString(isText: major == 3, at: start))
            case 4: return .container(isMap: false, count: nil)
            case 5: return .container(isMap: true, count: nil)
            default: throw malformed("major type \(major) has no indefinite length", at: start)
            }
        }
        if major == 7 { return .scalar(try readSimple(info: info, at: start)) }
        let argument = try readArgument(info: info, at: start)
        switch major {
        case 0:
            return .scalar(argument <= UInt64(Int64.max) ? .integer(Int64(argument)) : .number(String(argument)))
        case 1:
            if argument <= UInt64(Int64.max) { return .scalar(.integer(-1 - Int64(argument))) }
            return .scalar(.number(argument == .max ? "-18446744073709551616" : "-\(argument + 1)"))
        case 2:
            return .scalar(.bytes(Array(try input.take(argument, at: start))))
        case 3:
            return .scalar(.string(try readText(try input.take(argument, at: start))))
        case 4:
            let count = try input.checkedCount(argument, bytesEach: 1, noun: "element(s)", at: start)
            return .container(isMap: false, count: count)
        case 5:
            let count = try input.checkedCount(argument, bytesEach: 2, noun: "pair(s)", at: start)
            return .container(isMap: true, count: count)
        default:
            return .tag(argument)
        }
    }

    /// The argument of a head whose additional information is `info` (not 31).
    private mutating func readArgument(info: UInt8, at start: Int) throws(FormatError) -> UInt64 {
        switch info {
        case 0...23: return UInt64(info)
        case 24: return try input.readBigEndian(1)
        case 25: return try input.readBigEndian(2)
        case 26: return try input.readBigEndian(4)
        case 27: return try input.readBigEndian(8)
        default: throw malformed("additional information \(info) is reserved", at: start)
        }
    }

    private mutating func readSimple(info: UInt8, at start: Int) throws(FormatError) -> Value {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .tagged(CBORFormat.undefinedTag, .null)
        case 24:
            let number = try input.readByte()
            // RFC 8949 §3.3: 0–23 have the one-byte form only. 24–31 are read as RFC 7049 allowed.
            guard number >= 24 else { throw malformed("simple value \(number) in two bytes", at: start) }
            return .tagged(CBORFormat.simpleValueTag, .integer(Int64(number)))
        case 25: return .float(HalfFloat.double(fromBits: UInt16(try input.readBigEndian(2))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try input.readBigEndian(4)))))
        case 27: return .float(Double(bitPattern: try input.readBigEndian(8)))
        case 28...30: throw malformed("additional information \(info) is reserved", at: start)
        default: return .tagged(CBORFormat.simpleValueTag, .integer(Int64(info)))
        }
    }

    /// The chunks of an indefinite-length byte or text string up to its break, joined. Each chunk
    /// is a definite-length string of the same major type; text chunks are each valid UTF-8.
    private mutating func readIndefiniteString(isText: Bool, at start: Int) throws(FormatError) -> Value {
        var joined: [UInt8] = []
        while true {
            let chunkStart = input.offset
            let initial = try input.readByte()
            if initial == 0xFF { break }
            guard initial >> 5 == (isText ? 3 : 2), initial & 0x1F != 31 else {
                throw malformed("a chunk of an indefinite-length \(isText ? "text" : "byte") string must be a "
                                + "definite-length \(isText ? "text" : "byte") string", at: chunkStart)
            }
            try input.countItem(at: chunkStart)
            let chunk = try input.take(try readArgument(info: initial & 0x1F, at: chunkStart), at: chunkStart)
            if isText { _ = try readText(chunk) }
            joined.append(contentsOf: chunk)
        }
        return isText ? .string(String(decoding: joined, as: UTF8.self)) : .bytes(joined)
    }

    /// A text string's payload, checked to be UTF-8: ASCII eight bytes at a time, the rest by
    /// the validator.
    private func readText(_ slice: Slice<UnsafeBufferPointer<UInt8>>) throws(FormatError) -> String {
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
            throw FormatError(.invalidText, format: CBORFormat.formatName, "a text string is not valid UTF-8",
                              location: .init(byteOffset: slice.startIndex + i + bad))
        }
        return String(utf8: payload)
    }

    private func malformed(_ message: String, at position: Int) -> FormatError {
        input.malformed(message, at: position)
    }
}
