import Parley

/// Reads protobuf wire bytes of a message type into the value tree, as the ProtoJSON mapping
/// says (see the ParleyProtobuf documentation), driven by the schema's field tables.
struct ProtobufReader {
    let schema: ProtobufSchema
    let options: ProtobufFormat.Options
    let limits: DecodingLimits
    var nodes = 0
    var unknownBytes = 0

    init(schema: ProtobufSchema, options: ProtobufFormat.Options, limits: DecodingLimits) {
        self.schema = schema
        self.options = options
        self.limits = limits
    }

    var maxDepth: Int { min(limits.maxDepth, options.maxDepth) }

    /// What has been read for one field so far.
    enum Slot {
        case empty
        case single(Value, isDefault: Bool)
        case list([Value])
        /// A singular message: every occurrence's bytes, merged when read.
        case message([Range<Int>])
        case map([String: Int], [Value.Object.Member])

        var isEmpty: Bool {
            if case .empty = self { return true }
            return false
        }
    }

    mutating func read(_ table: MessageTable, _ bytes: UnsafeBufferPointer<UInt8>, base: Int,
                       depth: Int) throws(FormatError) -> Value {
        guard depth < maxDepth else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxDepth",
                                            maximum: maxDepth, location: .init(byteOffset: base))
        }
        if let wellKnown = table.wellKnown {
            return try readWellKnown(wellKnown, table, bytes, base: base, depth: depth)
        }
        let slots = try readSlots(table, bytes, base: base, depth: depth)
        return try object(table, slots.slots, unknown: slots.unknown, bytes, base: base, depth: depth)
    }

    mutating func readSlots(_ table: MessageTable, _ bytes: UnsafeBufferPointer<UInt8>, base: Int,
                                    depth: Int) throws(FormatError) -> (slots: [Slot], unknown: [UInt8]) {
        var cursor = WireCursor(bytes, base: base)
        var slots = [Slot](repeating: .empty, count: table.fields.count)
        var oneofs: [Int: Int] = [:]
        var unknown: [UInt8] = []
        while !cursor.isAtEnd {
            let tagStart = cursor.position
            let tag = try cursor.readTag()
            guard let index = table.index(ofField: tag.number) else {
                if tag.wireType == .endGroup { throw cursor.error(.malformed, "an end-group tag without its start") }
                try cursor.skip(tag.wireType, number: tag.number, depth: depth + 1, maxDepth: maxDepth)
                try keepUnknown(bytes, tagStart..<cursor.position, into: &unknown, base: base)
                continue
            }
            let field = table.fields[index]
            if let oneof = field.oneofIndex {
                if let previous = oneofs[oneof], previous != index { slots[previous] = .empty }
                oneofs[oneof] = index
            }
            try countNode(at: base + tagStart)
            if field.isMap {
                guard tag.wireType == .lengthDelimited else { throw wrongWireType(field, tag.wireType, cursor) }
                let range = try cursor.readLengthDelimited()
                let entry = try mapEntry(field, cursor.slice(range), base: base + range.lowerBound, depth: depth + 1)
                var (positions, members) = (([String: Int](), [Value.Object.Member]()))
                if case .map(let p, let m) = slots[index] { (positions, members) = (p, m) }
                slots[index] = .empty
                if let existing = positions[entry.key] {
                    members[existing].value = entry.value
                } else {
                    positions[entry.key] = members.count
                    members.append(entry)
                }
                slots[index] = .map(positions, members)
            } else if let name = field.kind.messageName {
                guard tag.wireType == field.kind.wireType else { throw wrongWireType(field, tag.wireType, cursor) }
                let range: Range<Int>
                if tag.wireType == .startGroup {
                    range = try cursor.readGroup(number: tag.number, depth: depth + 1, maxDepth: maxDepth)
                } else {
                    range = try cursor.readLengthDelimited()
                }
                if field.isRepeated {
                    let value = try read(messageTable(name), cursor.slice(range), base: base + range.lowerBound,
                                         depth: depth + 1)
                    append(value, to: &slots[index])
                } else {
                    var ranges: [Range<Int>] = []
                    if case .message(let earlier) = slots[index] { ranges = earlier }
                    ranges.append(range)
                    slots[index] = .message(ranges)
                }
            } else if field.isRepeated && tag.wireType == .lengthDelimited && field.kind.isPackable {
                let range = try cursor.readLengthDelimited()
                var packed = WireCursor(cursor.slice(range), base: base + range.lowerBound)
                var values: [Value] = []
                if case .list(let earlier) = slots[index] { values = earlier }
                slots[index] = .empty
                while !packed.isAtEnd {
                    try countNode(at: packed.base + packed.position)
                    values.append(try scalar(field, field.kind.wireType, &packed).value)
                }
                slots[index] = .list(values)
            } else {
                guard tag.wireType == field.kind.wireType else { throw wrongWireType(field, tag.wireType, cursor) }
                let value = try scalar(field, tag.wireType, &cursor)
                if field.isRepeated {
                    append(value.value, to: &slots[index])
                } else {
                    slots[index] = .single(value.value, isDefault: value.isDefault)
                }
            }
        }
        return (slots, unknown)
    }

    private func append(_ value: Value, to slot: inout Slot) {
        var values: [Value] = []
        if case .list(let earlier) = slot { values = earlier }
        slot = .empty
        values.append(value)
        slot = .list(values)
    }

    private mutating func keepUnknown(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                      into unknown: inout [UInt8], base: Int) throws(FormatError) {
        guard options.keepsUnknownFields else { return }
        unknownBytes += range.count
        guard unknownBytes <= options.maxUnknownFieldBytes else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxUnknownFieldBytes",
                                            maximum: options.maxUnknownFieldBytes, actual: unknownBytes,
                                            location: .init(byteOffset: base + range.lowerBound))
        }
        unknown.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    private mutating func countNode(at offset: Int) throws(FormatError) {
        nodes += 1
        guard nodes <= limits.maxNodes else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxNodes",
                                            maximum: limits.maxNodes, location: .init(byteOffset: offset))
        }
    }

    private func wrongWireType(_ field: FieldInfo, _ wireType: WireType, _ cursor: WireCursor) -> FormatError {
        cursor.error(.malformed, "field \(field.name) (\(field.number)) arrives with wire type \(wireType.rawValue)")
    }

    func messageTable(_ name: String) throws(FormatError) -> MessageTable {
        guard let table = schema.messages[name] else {
            throw FormatError(ProtobufFormat.unknownMessageType, format: ProtobufFormat.formatName,
                              "no registered descriptor set defines message type \(name)")
        }
        return table
    }

    /// The members of a message in field-number order, defaults left out where the field has no presence.
    mutating func object(_ table: MessageTable, _ slots: [Slot], unknown: [UInt8],
                                 _ bytes: UnsafeBufferPointer<UInt8>, base: Int,
                                 depth: Int) throws(FormatError) -> Value {
        var members: [Value.Object.Member] = []
        members.reserveCapacity(slots.count(where: { !$0.isEmpty }) + (unknown.isEmpty ? 0 : 1))
        for (index, slot) in slots.enumerated() {
            let field = table.fields[index]
            switch slot {
            case .empty: continue
            case .single(let value, let isDefault):
                if isDefault && !field.hasPresence { continue }
                members.append(Value.Object.Member(key: field.jsonName, value: value))
            case .list(let values):
                // An empty packed run sets no element: the field is absent, as for any empty repeated field.
                if values.isEmpty { continue }
                members.append(Value.Object.Member(key: field.jsonName, value: .array(values)))
            case .map(_, let entries):
                members.append(Value.Object.Member(key: field.jsonName, value: .object(Value.Object(entries))))
            case .message(let ranges):
                guard let name = field.kind.messageName else { continue }
                let table = try messageTable(name)
                let value: Value
                if ranges.count == 1 {
                    value = try read(table, UnsafeBufferPointer(rebasing: bytes[ranges[0]]),
                                     base: base + ranges[0].lowerBound, depth: depth + 1)
                } else {
                    var merged: [UInt8] = []
                    for range in ranges { merged.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range])) }
                    let start = base + ranges[0].lowerBound
                    value = try merged.withUnsafeBufferPointer { buffer throws(FormatError) in
                        try read(table, buffer, base: start, depth: depth + 1)
                    }
                }
                members.append(Value.Object.Member(key: field.jsonName, value: value))
            }
        }
        if !unknown.isEmpty {
            members.append(Value.Object.Member(key: ProtobufFormat.unknownFieldsKey, value: .bytes(unknown)))
        }
        return .object(Value.Object(members))
    }

    private mutating func mapEntry(_ field: FieldInfo, _ bytes: UnsafeBufferPointer<UInt8>, base: Int,
                                   depth: Int) throws(FormatError) -> Value.Object.Member {
        guard case .message(let name) = field.kind else { preconditionFailure("a map field is a message field") }
        let table = try messageTable(name)
        guard let keyIndex = table.index(ofField: 1), let valueIndex = table.index(ofField: 2) else {
            throw FormatError(.malformed, format: ProtobufFormat.formatName, "map entry \(name) lacks its key or value")
        }
        let slots = try readSlots(table, bytes, base: base, depth: depth).slots
        let keyField = table.fields[keyIndex]
        var key: String
        switch slots[keyIndex] {
        case .single(let value, _): key = Self.mapKey(value)
        default: key = keyField.kind == .bool ? "false" : keyField.kind == .string ? "" : "0"
        }
        let valueField = table.fields[valueIndex]
        let value: Value
        switch slots[valueIndex] {
        case .single(let scalar, _): value = scalar
        case .message(let ranges):
            var merged: [UInt8] = []
            for range in ranges { merged.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range])) }
            let table = try messageTable(Self.messageName(valueField))
            value = try merged.withUnsafeBufferPointer { buffer throws(FormatError) in
                try read(table, buffer, base: base + ranges[0].lowerBound, depth: depth + 1)
            }
        default: value = try defaultValue(valueField, depth: depth + 1)
        }
        key = key.isEmpty && keyField.kind != .string ? "0" : key
        return Value.Object.Member(key: key, value: value)
    }

    private static func messageName(_ field: FieldInfo) -> String {
        if case .message(let name) = field.kind { return name }
        return ""
    }

    private static func mapKey(_ value: Value) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        default: ""
        }
    }

    /// The ProtoJSON form of a field's default value (a missing map value).
    mutating func defaultValue(_ field: FieldInfo, depth: Int) throws(FormatError) -> Value {
        switch field.kind {
        case .message(let name):
            return try [UInt8]().withUnsafeBufferPointer { buffer throws(FormatError) in
                try read(messageTable(name), buffer, base: 0, depth: depth)
            }
        case .enumeration(let name):
            if name == WellKnownType.nullValue { return .null }
            if let label = schema.enums[name]?.nameByNumber[0] { return .string(label) }
            return .integer(0)
        case .string, .bytes: return .string("")
        case .bool: return .bool(false)
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: return .string("0")
        case .double, .float: return .float(0)
        default: return .integer(0)
        }
    }

    /// One scalar value of `field`, and whether it is the type's default (zero, empty, false).
    mutating func scalar(_ field: FieldInfo, _ wireType: WireType,
                         _ cursor: inout WireCursor) throws(FormatError) -> (value: Value, isDefault: Bool) {
        switch field.kind {
        case .int32:
            let number = Int32(truncatingIfNeeded: try cursor.readVarint())
            return (.integer(Int64(number)), number == 0)
        case .uint32:
            let number = UInt32(truncatingIfNeeded: try cursor.readVarint())
            return (.integer(Int64(number)), number == 0)
        case .sint32:
            let raw = UInt32(truncatingIfNeeded: try cursor.readVarint())
            let number = Int32(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
            return (.integer(Int64(number)), number == 0)
        case .int64:
            let number = Int64(bitPattern: try cursor.readVarint())
            return (.string(String(number)), number == 0)
        case .uint64:
            let number = try cursor.readVarint()
            return (.string(String(number)), number == 0)
        case .sint64:
            let raw = try cursor.readVarint()
            let number = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
            return (.string(String(number)), number == 0)
        case .fixed32:
            let number = try cursor.readFixed32()
            return (.integer(Int64(number)), number == 0)
        case .sfixed32:
            let number = Int32(bitPattern: try cursor.readFixed32())
            return (.integer(Int64(number)), number == 0)
        case .fixed64:
            let number = try cursor.readFixed64()
            return (.string(String(number)), number == 0)
        case .sfixed64:
            let number = Int64(bitPattern: try cursor.readFixed64())
            return (.string(String(number)), number == 0)
        case .bool:
            let flag = try cursor.readVarint() != 0
            return (.bool(flag), !flag)
        case .float:
            let bits = try cursor.readFixed32()
            let number = Float(bitPattern: bits)
            return (Self.floatValue(Self.shortestDecimal(number)), bits == 0)
        case .double:
            let bits = try cursor.readFixed64()
            return (Self.floatValue(Double(bitPattern: bits)), bits == 0)
        case .string:
            let range = try cursor.readLengthDelimited()
            guard let text = String(validating: cursor.slice(range), as: UTF8.self) else {
                throw cursor.error(.invalidText, "field \(field.name) holds invalid UTF-8", at: range.lowerBound)
            }
            return (.string(text), text.isEmpty)
        case .bytes:
            let range = try cursor.readLengthDelimited()
            return (.string(Base64Text.string(from: Array(cursor.slice(range)))), range.isEmpty)
        case .enumeration(let name):
            let number = Int32(truncatingIfNeeded: try cursor.readVarint())
            if name == WellKnownType.nullValue { return (.null, number == 0) }
            if let label = schema.enums[name]?.nameByNumber[number] { return (.string(label), number == 0) }
            return (.integer(Int64(number)), number == 0)
        case .message, .group:
            preconditionFailure("messages and groups are not scalars")
        }
    }

    /// The double a float reads as in ProtoJSON: the decimal of the fewest significant digits, at least
    /// six, that reads back as the same float (as Google's Python runtime prints floats: `%.6g`, `%.7g`, …).
    static func shortestDecimal(_ number: Float) -> Double {
        guard number.isFinite, number != 0 else { return Double(number) }
        let exact = Double(number)
        let (digits, exponent) = DecimalDigits.of(exact.magnitude)
        for precision in 6...9 {
            let (rounded, roundedExponent) = DecimalDigits.round(digits, exponent, to: precision)
            let candidate = DecimalDigits.double(rounded, exponent: roundedExponent, isNegative: exact < 0)
            if let candidate, Float(candidate) == number { return candidate }
        }
        return exact
    }

    /// A double as ProtoJSON writes it: a number, or `"NaN"`, `"Infinity"`, `"-Infinity"`.
    static func floatValue(_ number: Double) -> Value {
        if number.isNaN { return .string("NaN") }
        if number.isInfinite { return .string(number < 0 ? "-Infinity" : "Infinity") }
        return .float(number)
    }
}

