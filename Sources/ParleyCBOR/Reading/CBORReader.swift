import FoundationEssentials
import Parley

/// Reads CBOR items from bytes into `Value`s, iteratively: open arrays, maps and tags are frames
/// on an explicit stack, so nesting costs heap, never machine stack, and is bounded by
/// `DecodingLimits/maxDepth`.
///
/// Each open array and map collects its children in its own array, reserved from its declared
/// count when it opens, so a child is appended once where it stays. The reservation is bounded
/// by the input: every item takes at least one byte, so a container reserves no more children
/// than the bytes that remain beyond those its open ancestors' unread items need, and lying
/// counts nested inside each other reserve nothing.
///
/// A map's text keys become members with their values; a map whose key is not a text string
/// moves its members to its elements as key/value pairs and finishes there, where
/// `CBORMapKeys` decides what it becomes.
struct CBORReader {
    private var input: BinaryInput
    private let options: CBORFormat.Options
    /// The short map keys read so far, made again from the table when they repeat (large inputs only).
    private var keys: RecentKeys?

    /// An open container or tag, or the root that receives the whole item.
    private struct Frame {
        enum Kind {
            case root
            /// A map whose keys so far are all text: its members are in `members`.
            case map
            /// A map with a key that is not text: its keys and values alternate in `elements`.
            case pairs
            case array, tag
        }
        var kind: Kind
        /// What is still to come (an array's elements, a map's entries, a kept map's keys and
        /// values), or -1 for an indefinite length.
        var remaining: Int
        var elements: [Value] = []
        var members: [Value.Object.Member] = []
        /// For `.map`: the key of the member whose value is being read.
        var key = ""
        var tag: UInt64 = 0
        var position = 0

        /// Turns a map whose keys so far were text into one whose keys and values alternate in
        /// `elements`, for a key that is not text.
        mutating func becomePairs() {
            elements.reserveCapacity(2 * members.count)
            for member in members {
                elements.append(.string(member.key))
                elements.append(member.value)
            }
            members = []
            kind = .pairs
            if remaining > 0 { remaining *= 2 }
        }

        /// The bytes this frame's items after the one being read need at least, one each (a
        /// break for an indefinite length).
        var bytesAfterCurrentItem: Int {
            switch kind {
            case .root, .tag: 0
            case _ where remaining < 0: 1
            case .map: 2 * (remaining - 1)
            case .pairs, .array: remaining - 1
            }
        }
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits, options: CBORFormat.Options) {
        input = BinaryInput(bytes, format: CBORFormat.formatName, limits: limits)
        keys = RecentKeys.forInput(ofCount: bytes.count)
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

    /// Reads one whole data item. The innermost open frame is `top`; the ones around it wait in
    /// `frames`, and `pending` sums the bytes their items after the current ones need.
    private mutating func readItem() throws(FormatError) -> Value {
        var frames: [Frame] = []
        var top = Frame(kind: .root, remaining: 1)
        var pending = 0
        var indefiniteNesting = 0
        while true {
            // A map's text key is read with its value; any other key turns the map into
            // key/value pairs.
            var afterKey = false
            if top.kind == .map, input.remaining > 0 {
                let start = input.offset
                let initial = input.bytes[start]
                let length = Int(initial & 0x1F)
                if initial &- 0x60 < 24, length < input.bytes.count - start {
                    // The common key, a text string of at most 23 bytes the input holds, read here.
                    try input.countItem(at: start)
                    if let key = try keys?.key(in: input.bytes, at: start + 1, count: length, make: Self.text) {
                        top.key = key
                    } else {
                        top.key = try Self.text(input.bytes[(start + 1)..<(start + 1 + length)])
                    }
                    input.offset = start + 1 + length
                    afterKey = true
                } else if initial != 0xFF {
                    if try readTextKey(into: &top.key) {
                        afterKey = true
                    } else {
                        top.becomePairs()
                    }
                }
            }
            let start = input.offset
            guard start < input.bytes.count else { throw input.truncated(at: start) }
            let initial = input.bytes[start]
            input.offset = start + 1
            var value: Value
            let length = Int(initial & 0x1F)
            if initial < 24 {
                // The common items read here: integers 0–23 and text strings of at most 23 bytes
                // the input holds.
                try input.countItem(at: start)
                value = .integer(Int64(initial))
            } else if initial &- 0x60 < 24, length < input.bytes.count - start {
                try input.countItem(at: start)
                value = .string(try Self.text(input.bytes[(start + 1)..<(start + 1 + length)]))
                input.offset = start + 1 + length
            } else if initial == 0xFF {
                guard top.kind != .tag, top.kind != .root, top.remaining < 0 else {
                    throw malformed("a break (0xFF) outside an indefinite-length array or map", at: start)
                }
                if afterKey || top.kind == .pairs && top.elements.count % 2 != 0 {
                    throw malformed("an indefinite-length map ends after a key, before its value", at: start)
                }
                indefiniteNesting -= 1
                var frame = frames.removeLast()
                swap(&frame, &top)
                pending -= top.bytesAfterCurrentItem
                value = close(frame)
            } else {
                try input.countItem(at: start)
                let major = initial >> 5
                let info = initial & 0x1F
                if major == 7 {
                    value = try readSimple(info: info, at: start)
                } else if info == 31 {
                    switch major {
                    case 2, 3:
                        value = try readIndefiniteString(isText: major == 3, at: start)
                    case 4, 5:
                        try input.checkDepth(frames.count + 1, at: start)
                        indefiniteNesting += 1
                        if indefiniteNesting > options.maxIndefiniteNesting {
                            throw FormatError.limitExceeded(
                                format: CBORFormat.formatName, limit: "maxIndefiniteNesting",
                                maximum: options.maxIndefiniteNesting, actual: indefiniteNesting,
                                location: .init(byteOffset: start))
                        }
                        pending += top.bytesAfterCurrentItem
                        push(Frame(kind: major == 5 ? .map : .array, remaining: -1), over: &top, &frames)
                        continue
                    default:
                        throw malformed("major type \(major) has no indefinite length", at: start)
                    }
                } else {
                    let argument = info < 24 ? UInt64(info) : try readArgument(info: info, at: start)
                    switch major {
                    case 0:
                        value = argument <= UInt64(Int64.max) ? .integer(Int64(argument)) : .number(String(argument))
                    case 1:
                        if argument <= UInt64(Int64.max) {
                            value = .integer(-1 - Int64(argument))
                        } else {
                            value = .number(argument == .max ? "-18446744073709551616" : "-\(argument + 1)")
                        }
                    case 2:
                        value = .bytes(Array(try input.take(argument, at: start)))
                    case 3:
                        value = .string(try Self.text(input.take(argument, at: start)))
                    case 4, 5:
                        let isMap = major == 5
                        let count = isMap
                            ? try input.checkedCount(argument, bytesEach: 2, noun: "pair(s)", at: start)
                            : try input.checkedCount(argument, bytesEach: 1, noun: "element(s)", at: start)
                        try input.checkDepth(frames.count + 1, at: start)
                        if count == 0 {
                            value = isMap ? .object(Value.Object()) : .array([])
                            break
                        }
                        pending += top.bytesAfterCurrentItem
                        push(Frame(kind: isMap ? .map : .array, remaining: count), over: &top, &frames)
                        // Room for the children the bytes beyond the ancestors' needs can hold.
                        let room = min(count, max(input.remaining - pending, 0))
                        if isMap { top.members.reserveCapacity(room) } else { top.elements.reserveCapacity(room) }
                        continue
                    default:
                        try input.checkDepth(frames.count + 1, at: start)
                        pending += top.bytesAfterCurrentItem
                        push(Frame(kind: .tag, remaining: 1, tag: argument, position: start), over: &top, &frames)
                        continue
                    }
                }
            }
            // Hand the finished value to its parent; close every container and tag it completes.
            while true {
                switch top.kind {
                case .root:
                    return value
                case .tag:
                    value = try CBORTags.apply(top.tag, to: value, at: top.position, options: options)
                    top = frames.removeLast()
                    pending -= top.bytesAfterCurrentItem
                    continue
                case .map:
                    // The key and the value move into the member: no copy to retain, no old one to release.
                    var key = ""
                    swap(&key, &top.key)
                    top.members.append(Value.Object.Member(key: key, value: consume value))
                case .pairs, .array:
                    top.elements.append(consume value)
                }
                guard top.remaining > 0 else { break }
                top.remaining -= 1
                guard top.remaining == 0 else { break }
                var frame = frames.removeLast()
                swap(&frame, &top)
                pending -= top.bytesAfterCurrentItem
                value = close(frame)
            }
        }
    }

    /// Makes `frame` the innermost, `top` moving onto `frames` without a copy.
    private func push(_ frame: consuming Frame, over top: inout Frame, _ frames: inout [Frame]) {
        var parent = frame
        swap(&parent, &top)
        frames.append(parent)
    }

    /// The array or map of a finished frame.
    private func close(_ frame: consuming Frame) -> Value {
        switch frame.kind {
        case .map: .object(Value.Object(frame.members))
        case .pairs: CBORMapKeys.value(ofMapItems: frame.elements, keepsNonTextKeys: options.keepsNonTextKeys)
        default: .array(frame.elements)
        }
    }

    /// Reads a map key that is a definite-length text string into `key`; `false` (nothing read)
    /// for any other key.
    private mutating func readTextKey(into key: inout String) throws(FormatError) -> Bool {
        let initial = input.bytes[input.offset]
        guard initial >> 5 == 3, initial & 0x1F < 28 else { return false }
        let start = input.offset
        try input.countItem(at: start)
        input.offset += 1
        let info = initial & 0x1F
        let length = info < 24 ? UInt64(info) : try readArgument(info: info, at: start)
        key = try Self.text(input.take(length, at: start))
        return true
    }

    // MARK: Heads

    /// The argument of a head whose additional information is `info` (not 31).
    private mutating func readArgument(info: UInt8, at start: Int) throws(FormatError) -> UInt64 {
        switch info {
        case 0...23: return UInt64(info)
        case 24...27: return try readBigEndian(1 << (info - 24))
        default: throw malformed("additional information \(info) is reserved", at: start)
        }
    }

    /// The big-endian unsigned integer of the next `width` (1, 2, 4 or 8) bytes, loaded whole.
    private mutating func readBigEndian(_ width: Int) throws(FormatError) -> UInt64 {
        let offset = input.offset
        guard width <= input.bytes.count - offset, let base = input.bytes.baseAddress else {
            throw input.truncated(at: offset)
        }
        input.offset = offset + width
        let raw = UnsafeRawPointer(base + offset)
        switch width {
        case 1: return UInt64(raw.load(as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: raw.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))
        default: return UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
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
        case 25: return .float(HalfFloat.double(fromBits: UInt16(try readBigEndian(2))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try readBigEndian(4)))))
        case 27: return .float(Double(bitPattern: try readBigEndian(8)))
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
            if isText { _ = try Self.text(chunk) }
            joined.append(contentsOf: chunk)
        }
        return isText ? .string(String(decoding: joined, as: UTF8.self)) : .bytes(joined)
    }

    /// A text string's payload, checked to be UTF-8: ASCII eight bytes at a time, the rest by
    /// the validator.
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
            throw FormatError(.invalidText, format: CBORFormat.formatName, "a text string is not valid UTF-8",
                              location: .init(byteOffset: slice.startIndex + i + bad))
        }
        if i == length && length <= 15 {
            // ASCII that fits in a small string: copied straight into the string's storage, where
            // the standard library finds it ASCII from two words.
            return String(unsafeUninitializedCapacity: length) { storage in
                storage.baseAddress!.initialize(from: base, count: length)
                return length
            }
        }
        return String(utf8: payload)
    }

    private func malformed(_ message: String, at position: Int) -> FormatError {
        input.malformed(message, at: position)
    }
}
