import FoundationEssentials
import Parley

/// Reads `bplist00` documents: validates the trailer and offset table up front, then decodes
/// objects by reference with depth, node-count and cycle checks (shared references are fine).
///
/// An object referenced more than once is copied into the tree at each reference, so a small
/// document can describe a huge tree (`[s, s]` over `[s, s]` … doubles at each level). Every
/// copy after an object's first is counted against an expansion budget of 64 KiB +
/// `maxExpansionRatio` × the document's size: one unit per object plus the bytes of a string or
/// data value. Past it the decode throws `limitExceeded` (`maxExpansionRatio`).
struct BinaryPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: DecodingLimits
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    let offsetTableStart: Int
    /// Objects on the path from the top object to the one being read, for cycle detection.
    var visiting: [Bool]
    /// Objects read at least once: reading one again copies it, which counts as expansion.
    var alreadyRead: [Bool]
    var nodesProduced = 0
    /// Units (objects and bytes) produced by copies of objects already read, and their budget.
    var expansion = 0
    let expansionBudget: Int

    static let format = "plist"

    static func error(_ message: String, at offset: Int? = nil) -> FormatError {
        FormatError(.malformed, format: format, message, location: offset.map { .init(byteOffset: $0) })
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(FormatError) {
        self.bytes = bytes
        self.limits = limits
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw Self.error("not a bplist00 document, or shorter than its header and trailer")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.readUnsigned(bytes, at: trailer + 8, size: 8)
        let top = Self.readUnsigned(bytes, at: trailer + 16, size: 8)
        let table = Self.readUnsigned(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Self.error(
                "offset size \(offsetSize) or reference size \(referenceSize) is not 1 to 8 bytes", at: trailer + 6)
        }
        guard count >= 1, count <= UInt64(limits.maxNodes) else {
            if count > UInt64(limits.maxNodes) {
                throw FormatError.limitExceeded(format: Self.format, limit: "maxNodes", maximum: limits.maxNodes,
                                                location: .init(byteOffset: trailer + 8))
            }
            throw Self.error("the trailer declares no objects", at: trailer + 8)
        }
        guard top < count else {
            throw Self.error("top object \(top) is not below the object count \(count)", at: trailer + 16)
        }
        let (tableBytes, overflow) = Int(count).multipliedReportingOverflow(by: offsetSize)
        guard table >= 9, table < UInt64(trailer), !overflow, Int(table) + tableBytes <= trailer else {
            throw Self.error(
                "the offset table at \(table) does not fit between the header and the trailer", at: trailer + 24)
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableStart = Int(table)
        visiting = [Bool](repeating: false, count: objectCount)
        alreadyRead = [Bool](repeating: false, count: objectCount)
        expansionBudget = CheckedArithmetic.expansionBudget(ratio: limits.maxExpansionRatio, inputBytes: bytes.count)
    }

    /// An open container on the explicit stack.
    struct Frame {
        var index: Int
        var isDictionary: Bool
        var count: Int
        var firstReference: Int
        /// Children read so far (for a dictionary: keys and values interleaved).
        var position = 0
        var elements: [Value] = []
        var members: [Value.Object.Member] = []
        var pendingKey: String?
    }

    /// What one object is: a finished value, or a container whose children come next.
    enum Object {
        case value(Value)
        case container(isDictionary: Bool, count: Int, firstReference: Int)
    }

    /// Decodes the top object without recursion: containers go on an explicit stack.
    mutating func read() throws(FormatError) -> Value {
        var stack: [Frame] = []
        var next = topObject
        while true {
            var produced: Value
            switch try object(next, depth: stack.count + 1) {
            case .value(let value):
                produced = value
            case .container(let isDictionary, let count, let first):
                if count == 0 {
                    produced = isDictionary ? .object([:]) : .array([])
                } else {
                    try enter(next)
                    var frame = Frame(index: next, isDictionary: isDictionary, count: count, firstReference: first)
                    if isDictionary { frame.members.reserveCapacity(min(count, objectCount)) } else {
                        frame.elements.reserveCapacity(min(count, objectCount))
                    }
                    stack.append(frame)
                    next = childReference(of: frame)
                    continue
                }
            }
            // Deliver `produced` upwards, closing every container it completes.
            while true {
                guard !stack.isEmpty else { return produced }
                let top = stack.count - 1
                if stack[top].isDictionary {
                    if stack[top].position % 2 == 0 {
                        guard case .string(let key) = produced else {
                            throw Self.error("a dictionary key is a \(produced.kindName), not a string")
                        }
                        stack[top].pendingKey = key
                    } else {
                        stack[top].members.append(.init(key: stack[top].pendingKey ?? "", value: produced))
                    }
                } else {
                    stack[top].elements.append(produced)
                }
                stack[top].position += 1
                let total = stack[top].isDictionary ? 2 * stack[top].count : stack[top].count
                if stack[top].position < total {
                    next = childReference(of: stack[top])
                    break
                }
                let frame = stack.removeLast()
                visiting[frame.index] = false
                produced = frame.isDictionary ? .object(Value.Object(frame.members)) : .array(frame.elements)
            }
        }
    }

    /// The object index of a frame's next child (dictionary keys first, then their values).
    func childReference(of frame: Frame) -> Int {
        let slot = frame.isDictionary
            ? (frame.position % 2 == 0 ? frame.position / 2 : frame.count + frame.position / 2)
            : frame.position
        return reference(at: frame.firstReference + slot * referenceSize)
    }

    static func readUnsigned(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    /// The byte offset of object `index`, which must lie in the object area.
    func offset(of index: Int) throws(FormatError) -> Int {
        let offset = Self.readUnsigned(bytes, at: offsetTableStart + index * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(offsetTableStart) else {
            throw Self.error(
                "object \(index) is at \(offset), outside the object area", at: offsetTableStart + index * offsetSize)
        }
        return Int(offset)
    }

    /// Checks that `count` bytes from `start` lie in the object area.
    func checkRange(_ start: Int, _ count: Int, _ what: String) throws(FormatError) {
        guard CheckedArithmetic.fits(count, in: offsetTableStart, from: start) else {
            throw Self.error("\(what) of \(count) bytes at \(start) runs past the object area", at: start)
        }
    }

    /// The length in a marker's low nibble, or the integer object after it when the nibble is 0xF.
    func length(_ low: UInt8, after marker: Int) throws(FormatError) -> (count: Int, start: Int) {
        if low != 0xF { return (Int(low), marker + 1) }
        try checkRange(marker + 1, 1, "a length marker")
        let lengthMarker = bytes[marker + 1]
        guard lengthMarker >> 4 == 0x1, lengthMarker & 0xF <= 3 else {
            throw Self.error("a length must be an integer of 1 to 8 bytes", at: marker + 1)
        }
        let size = 1 << Int(lengthMarker & 0xF)
        try checkRange(marker + 2, size, "a length")
        let value = Self.readUnsigned(bytes, at: marker + 2, size: size)
        guard value <= UInt64(offsetTableStart) else {
            throw Self.error("length \(value) is larger than the document", at: marker + 1)
        }
        return (Int(value), marker + 2 + size)
    }

    /// The object index at `position`; one too large for `Int` becomes `Int.max`, which the
    /// object-count check then rejects.
    func reference(at position: Int) -> Int {
        Int(clamping: Self.readUnsigned(bytes, at: position, size: referenceSize))
    }

    /// Counts a copy of object `index` (after its first read) of `bytes` bytes against the
    /// expansion budget.
    mutating func countCopy(of index: Int, bytes: Int) throws(FormatError) {
        guard alreadyRead[index] else {
            alreadyRead[index] = true
            return
        }
        expansion = CheckedArithmetic.sum(expansion, CheckedArithmetic.sum(bytes, 1) ?? Int.max) ?? Int.max
        guard expansion <= expansionBudget else {
            throw FormatError.limitExceeded(
                format: Self.format, limit: "maxExpansionRatio", maximum: limits.maxExpansionRatio,
                location: .init(byteOffset: offsetTableStart + index * offsetSize))
        }
    }

    mutating func object(_ index: Int, depth: Int) throws(FormatError) -> Object {
        guard index < objectCount else {
            throw Self.error("reference \(index) is not below the object count \(objectCount)")
        }
        guard depth <= limits.maxDepth else {
            throw FormatError.limitExceeded(
                format: Self.format, limit: "maxDepth", maximum: limits.maxDepth, actual: depth)
        }
        nodesProduced += 1
        guard nodesProduced <= limits.maxNodes else {
            throw FormatError.limitExceeded(format: Self.format, limit: "maxNodes", maximum: limits.maxNodes)
        }
        let start = try offset(of: index)
        let marker = bytes[start]
        let object = try decodeObject(marker: marker, at: start)
        switch object {
        case .value(.string(let text)): try countCopy(of: index, bytes: text.utf8.count)
        case .value(.bytes(let data)): try countCopy(of: index, bytes: data.count)
        default: try countCopy(of: index, bytes: 0)
        }
        return object
    }

    /// Decodes the object whose marker byte is at `start`.
    func decodeObject(marker: UInt8, at start: Int) throws(FormatError) -> Object {
        let low = marker & 0xF
        switch marker >> 4 {
        case 0x0:
            switch low {
            case 0x8: return .value(.bool(false))
            case 0x9: return .value(.bool(true))
            default: throw Self.error("unknown marker 0x\(String(marker, radix: 16))", at: start)
            }
        case 0x1:
            return .value(try integer(low, at: start))
        case 0x2:
            guard low == 2 || low == 3 else { throw Self.error("a real must be 4 or 8 bytes", at: start) }
            let size = 1 << Int(low)
            try checkRange(start + 1, size, "a real")
            let raw = Self.readUnsigned(bytes, at: start + 1, size: size)
            return .value(.float(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)))
        case 0x3:
            guard low == 3 else { throw Self.error("a date must be an 8-byte real", at: start) }
            try checkRange(start + 1, 8, "a date")
            let seconds = Double(bitPattern: Self.readUnsigned(bytes, at: start + 1, size: 8))
            guard seconds.isFinite else { throw Self.error("a date must be finite", at: start) }
            return .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case 0x4:
            let (count, first) = try length(low, after: start)
            try checkRange(first, count, "data")
            return .value(.bytes(Array(UnsafeBufferPointer(rebasing: bytes[first..<first + count]))))
        case 0x5:
            let (count, first) = try length(low, after: start)
            try checkRange(first, count, "an ASCII string")
            // Writers such as iTunes put UTF-8 bytes in ASCII-marked strings: read them as UTF-8
            // when they are valid, and refuse anything else rather than guess a charset.
            let raw = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[first..<first + count])
            if let bad = Charset.firstInvalidUTF8(raw.bindMemory(to: UInt8.self)) {
                throw Self.error(
                    "an ASCII string holds byte 0x\(String(raw[bad], radix: 16, uppercase: true)), which is neither "
                        + "ASCII nor part of UTF-8",
                    at: first + bad)
            }
            return .value(.string(String(decoding: raw, as: UTF8.self)))
        case 0x6:
            let (units, first) = try length(low, after: start)
            let (count, overflow) = units.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw Self.error("string length overflows", at: start) }
            try checkRange(first, count, "a UTF-16 string")
            let text = try Charset.utf16BigEndian.decode(
                UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[first..<first + count]),
                format: Self.format)
            return .value(.string(text))
        case 0x8:
            let size = Int(low) + 1
            try checkRange(start + 1, size, "a UID")
            let raw = Self.readUnsigned(bytes, at: start + 1, size: size)
            guard raw <= UInt64(Int64.max) else { throw Self.error("UID out of range", at: start) }
            return .value(.tagged("uid", .integer(Int64(raw))))
        case 0xA, 0xC:
            let (count, first) = try length(low, after: start)
            let (size, overflow) = count.multipliedReportingOverflow(by: referenceSize)
            guard !overflow else { throw Self.error("array length overflows", at: start) }
            try checkRange(first, size, "an array's references")
            return .container(isDictionary: false, count: count, firstReference: first)
        case 0xD:
            let (count, first) = try length(low, after: start)
            let (size, overflow) = count.multipliedReportingOverflow(by: 2 * referenceSize)
            guard !overflow else { throw Self.error("dictionary length overflows", at: start) }
            try checkRange(first, size, "a dictionary's references")
            return .container(isDictionary: true, count: count, firstReference: first)
        default:
            throw Self.error("unknown marker 0x\(String(marker, radix: 16))", at: start)
        }
    }

    /// Marks a container as being read; a reference back to it is a cycle.
    mutating func enter(_ index: Int) throws(FormatError) {
        guard !visiting[index] else { throw Self.error("object \(index) contains itself (a reference cycle)") }
        visiting[index] = true
    }

    func integer(_ low: UInt8, at start: Int) throws(FormatError) -> Value {
        switch low {
        case 0, 1, 2:
            let size = 1 << Int(low)
            try checkRange(start + 1, size, "an integer")
            return .integer(Int64(Self.readUnsigned(bytes, at: start + 1, size: size)))
        case 3:
            try checkRange(start + 1, 8, "an integer")
            return .integer(Int64(bitPattern: Self.readUnsigned(bytes, at: start + 1, size: 8)))
        case 4:
            try checkRange(start + 1, 16, "an integer")
            let high = Self.readUnsigned(bytes, at: start + 1, size: 8)
            let lowBits = Self.readUnsigned(bytes, at: start + 9, size: 8)
            if high == 0 {
                return lowBits <= UInt64(Int64.max) ? .integer(Int64(lowBits)) : .number(String(lowBits))
            }
            if high == UInt64.max && lowBits >= 1 << 63 { return .integer(Int64(bitPattern: lowBits)) }
            throw Self.error("a 128-bit integer outside -2^63 … 2^64-1", at: start)
        default:
            throw Self.error("an integer of \(1 << Int(low)) bytes", at: start)
        }
    }
}
