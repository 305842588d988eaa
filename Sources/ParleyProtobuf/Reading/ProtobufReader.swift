import FoundationEssentials
import Parley

/// Reads protobuf wire bytes of a message type into the value tree, as the ProtoJSON mapping
/// says (see the ParleyProtobuf documentation), driven by the schema's read plans.
struct ProtobufReader {
    let schema: ProtobufSchema
    let plans: [ReadPlan]
    let enumNames: [EnumNames]
    let options: ProtobufFormat.Options
    let limits: DecodingLimits
    let maxDepth: Int
    var nodes = 0
    var unknownBytes = 0
    /// For each field of the messages being read, the position of its member (`-1`: none yet): one run
    /// per message, pushed when it starts and popped when it ends, so a message needs no table of its own.
    var positions: [Int] = []

    init(schema: ProtobufSchema, options: ProtobufFormat.Options, limits: DecodingLimits) {
        self.schema = schema
        plans = schema.plans
        enumNames = schema.enumNames
        self.options = options
        self.limits = limits
        maxDepth = min(limits.maxDepth, options.maxDepth)
    }

    /// The read plan of message type `name`.
    func plan(named name: String) throws(FormatError) -> ReadPlan {
        guard let plan = schema.plan(name) else {
            throw FormatError(ProtobufFormat.unknownMessageType, format: ProtobufFormat.formatName,
                              "no registered descriptor set defines message type \(name)")
        }
        return plan
    }

    mutating func read(_ plan: ReadPlan, _ bytes: UnsafeBufferPointer<UInt8>, base: Int,
                       depth: Int) throws(FormatError) -> Value {
        guard depth < maxDepth else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxDepth",
                                            maximum: maxDepth, location: .init(byteOffset: base))
        }
        if let wellKnown = plan.wellKnown {
            return try readWellKnown(wellKnown, plan, bytes, base: base, depth: depth)
        }
        let members = try members(plan, bytes, base: base, depth: depth, keepsUnknown: options.keepsUnknownFields)
        return .object(Value.Object(members))
    }

    /// The members of a message in field-number order, defaults left out where the field has no presence, and
    /// the unknown fields last when `keepsUnknown`.
    mutating func members(_ plan: ReadPlan, _ bytes: UnsafeBufferPointer<UInt8>, base: Int, depth: Int,
                          keepsUnknown: Bool) throws(FormatError) -> [Value.Object.Member] {
        // Every field takes at least two bytes (a tag and a value).
        let fieldCount = plan.fields.count
        var list = MemberList(keys: plan.keys, first: positions.count, capacity: min(fieldCount, bytes.count / 2))
        for _ in 0..<fieldCount { positions.append(-1) }
        defer { positions.removeLast(fieldCount) }
        var cursor = WireCursor(bytes, base: base)
        var unknown: [UInt8] = []
        var oneofs: [Int: Int] = [:]
        // Singular messages (every occurrence's bytes, merged when read) and maps, filled in at the end.
        var messages: [Int: [Range<Int>]] = [:]
        var maps: [Int: MapMembers] = [:]
        while !cursor.isAtEnd {
            let tagStart = cursor.position
            let tag = try cursor.readTag()
            guard let index = plan.index(ofField: tag.number) else {
                if tag.wireType == .endGroup { throw cursor.error(.malformed, "an end-group tag without its start") }
                try cursor.skip(tag.wireType, number: tag.number, depth: depth + 1, maxDepth: maxDepth)
                try countUnknown(tagStart..<cursor.position, base: base)
                if keepsUnknown { unknown.append(contentsOf: cursor.slice(tagStart..<cursor.position)) }
                continue
            }
            let field = plan.fields[index]
            if field.oneof >= 0 {
                if let previous = oneofs[field.oneof], previous != index {
                    list.remove(field: previous, &positions)
                    messages[previous] = nil
                    maps[previous] = nil
                }
                oneofs[field.oneof] = index
            }
            try countNode(at: base + tagStart)
            if field.isMap {
                guard tag.wireType == .lengthDelimited else { throw wrongWireType(plan, index, tag.wireType, cursor) }
                let range = try cursor.readLengthDelimited()
                let entry = try mapEntry(field, cursor.slice(range), base: base + range.lowerBound, depth: depth + 1)
                if maps[index] == nil { list.set(.null, field: index, &positions) }
                maps[index, default: MapMembers()].insert(entry)
            } else if field.kind == .message || field.kind == .group {
                guard tag.wireType == field.wireType else { throw wrongWireType(plan, index, tag.wireType, cursor) }
                let range: Range<Int>
                if tag.wireType == .startGroup {
                    range = try cursor.readGroup(number: tag.number, depth: depth + 1, maxDepth: maxDepth)
                } else {
                    range = try cursor.readLengthDelimited()
                }
                if field.isRepeated {
                    let value = try read(plans[field.target], cursor.slice(range), base: base + range.lowerBound,
                                         depth: depth + 1)
                    list.append(value, field: index, &positions)
                } else {
                    if messages[index] == nil { list.set(.null, field: index, &positions) }
                    messages[index, default: []].append(range)
                }
            } else if field.isRepeated && tag.wireType == .lengthDelimited && field.isPackable {
                let range = try cursor.readLengthDelimited()
                var packed = WireCursor(cursor.slice(range), base: base + range.lowerBound)
                var values: [Value] = []
                values.reserveCapacity(packed.valueCount(of: field.wireType))
                while !packed.isAtEnd {
                    try countNode(at: packed.base + packed.position)
                    values.append(try scalar(field, plan, index, &packed).value)
                }
                // An empty packed run sets no element: the field is absent, as for any empty repeated field.
                if !values.isEmpty { list.append(contentsOf: values, field: index, &positions) }
            } else {
                guard tag.wireType == field.wireType else { throw wrongWireType(plan, index, tag.wireType, cursor) }
                let value = try scalar(field, plan, index, &cursor)
                if field.isRepeated {
                    list.append(value.value, field: index, &positions)
                } else if value.isDefault && !field.hasPresence {
                    list.remove(field: index, &positions)
                } else {
                    list.set(value.value, field: index, &positions)
                }
            }
        }
        if !messages.isEmpty {
            for (index, ranges) in messages.sorted(by: { $0.key < $1.key }) {
                let value = try message(plans[plan.fields[index].target], ranges, bytes, base: base, depth: depth + 1)
                list.members[positions[list.first + index]].value = value
            }
        }
        for (index, map) in maps {
            list.members[positions[list.first + index]].value = .object(Value.Object(map.members))
        }
        var members = list.finish(positions)
        if !unknown.isEmpty {
            members.append(Value.Object.Member(key: ProtobufFormat.unknownFieldsKey, value: .bytes(unknown)))
        }
        return members
    }

    /// A singular message from the bytes of all its occurrences, merged.
    private mutating func message(_ plan: ReadPlan, _ ranges: [Range<Int>], _ bytes: UnsafeBufferPointer<UInt8>,
                                  base: Int, depth: Int) throws(FormatError) -> Value {
        if ranges.count == 1 {
            return try read(plan, UnsafeBufferPointer(rebasing: bytes[ranges[0]]), base: base + ranges[0].lowerBound,
                            depth: depth)
        }
        var merged: [UInt8] = []
        for range in ranges { merged.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range])) }
        let start = base + ranges[0].lowerBound
        return try merged.withUnsafeBufferPointer { buffer throws(FormatError) in
            try read(plan, buffer, base: start, depth: depth)
        }
    }

    /// Counts unknown-field bytes against the limit when they are kept.
    private mutating func countUnknown(_ range: Range<Int>, base: Int) throws(FormatError) {
        guard options.keepsUnknownFields else { return }
        unknownBytes += range.count
        guard unknownBytes <= options.maxUnknownFieldBytes else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxUnknownFieldBytes",
                                            maximum: options.maxUnknownFieldBytes, actual: unknownBytes,
                                            location: .init(byteOffset: base + range.lowerBound))
        }
    }

    private mutating func countNode(at offset: Int) throws(FormatError) {
        nodes += 1
        guard nodes <= limits.maxNodes else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxNodes",
                                            maximum: limits.maxNodes, location: .init(byteOffset: offset))
        }
    }

    private func wrongWireType(_ plan: ReadPlan, _ index: Int, _ wireType: WireType,
                               _ cursor: WireCursor) -> FormatError {
        cursor.error(.malformed, "field \(plan.names[index]) (\(plan.numbers[index])) arrives with wire type "
                                    + "\(wireType.rawValue)")
    }

    /// One entry of a map field: its key as text and its value.
    private mutating func mapEntry(_ field: ReadField, _ bytes: UnsafeBufferPointer<UInt8>, base: Int,
                                   depth: Int) throws(FormatError) -> Value.Object.Member {
        let plan = plans[field.target]
        guard let keyIndex = plan.index(ofField: 1), let valueIndex = plan.index(ofField: 2) else {
            throw FormatError(.malformed, format: ProtobufFormat.formatName,
                              "map entry \(plan.fullName) lacks its key or value")
        }
        var cursor = WireCursor(bytes, base: base)
        var key: Value?
        var value: Value?
        var valueRanges: [Range<Int>] = []
        while !cursor.isAtEnd {
            let tagStart = cursor.position
            let tag = try cursor.readTag()
            guard let index = plan.index(ofField: tag.number) else {
                if tag.wireType == .endGroup { throw cursor.error(.malformed, "an end-group tag without its start") }
                try cursor.skip(tag.wireType, number: tag.number, depth: depth + 1, maxDepth: maxDepth)
                try countUnknown(tagStart..<cursor.position, base: base)
                continue
            }
            let entryField = plan.fields[index]
            try countNode(at: base + tagStart)
            guard tag.wireType == entryField.wireType else { throw wrongWireType(plan, index, tag.wireType, cursor) }
            if entryField.kind == .message || entryField.kind == .group {
                if tag.wireType == .startGroup {
                    _ = try cursor.readGroup(number: tag.number, depth: depth + 1, maxDepth: maxDepth)
                } else {
                    let range = try cursor.readLengthDelimited()
                    if index == valueIndex { valueRanges.append(range) }
                }
            } else {
                let scalar = try scalar(entryField, plan, index, &cursor).value
                if index == keyIndex { key = scalar } else if index == valueIndex { value = scalar }
            }
        }
        let keyField = plan.fields[keyIndex]
        var text: String
        switch key {
        case .string(let string)?: text = string
        case .integer(let number)?: text = String(number)
        case .bool(let flag)?: text = flag ? "true" : "false"
        case nil: text = keyField.kind == .bool ? "false" : keyField.kind == .string ? "" : "0"
        default: text = ""
        }
        if text.isEmpty && keyField.kind != .string { text = "0" }
        let valueField = plan.fields[valueIndex]
        if !valueRanges.isEmpty {
            value = try message(plans[valueField.target], valueRanges, bytes, base: base, depth: depth + 1)
        }
        if let value { return Value.Object.Member(key: text, value: value) }
        return Value.Object.Member(key: text, value: try defaultValue(valueField, depth: depth + 1))
    }

    /// The ProtoJSON form of a field's default value (a missing map value).
    mutating func defaultValue(_ field: ReadField, depth: Int) throws(FormatError) -> Value {
        switch field.kind {
        case .message, .group:
            return try read(plans[field.target], UnsafeBufferPointer(start: nil, count: 0), base: 0, depth: depth)
        case .nullValue: return .null
        case .enumeration:
            if let label = enumNames[field.target].name(of: 0) { return .string(label) }
            return .integer(0)
        case .string, .bytes: return .string("")
        case .bool: return .bool(false)
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: return .string("0")
        case .double, .float: return .float(0)
        case .int32, .uint32, .sint32, .fixed32, .sfixed32: return .integer(0)
        }
    }

    /// One scalar value of `field` (field `index` of `plan`), and whether it is the type's default (zero, empty,
    /// false).
    func scalar(_ field: ReadField, _ plan: ReadPlan, _ index: Int,
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
            let bytes = cursor.slice(range)
            // ASCII is valid UTF-8: only other text needs validating.
            if bytes.allSatisfy({ $0 < 0x80 }) {
                return (.string(String(decoding: bytes, as: UTF8.self)), range.isEmpty)
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw cursor.error(.invalidText, "field \(plan.names[index]) holds invalid UTF-8", at: range.lowerBound)
            }
            return (.string(text), text.isEmpty)
        case .bytes:
            let range = try cursor.readLengthDelimited()
            return (.string(Data(buffer: cursor.slice(range)).base64EncodedString()), range.isEmpty)
        case .enumeration:
            let number = Int32(truncatingIfNeeded: try cursor.readVarint())
            if let label = enumNames[field.target].name(of: number) { return (.string(label), number == 0) }
            return (.integer(Int64(number)), number == 0)
        case .nullValue:
            let number = Int32(truncatingIfNeeded: try cursor.readVarint())
            return (.null, number == 0)
        case .message, .group:
            preconditionFailure("messages and groups are not scalars")
        }
    }

    /// The double a float reads as in ProtoJSON: the decimal of the fewest significant digits, at least
    /// six, that reads back as the same float (as Google's Python runtime prints floats: `%.6g`, `%.7g`, …).
    static func shortestDecimal(_ number: Float) -> Double {
        guard number.isFinite, number != 0 else { return Double(number) }
        // A float that is exactly a decimal of at most six digits (42, 0.5, 617.25) is its own `%.6g` text; the
        // scaling by ten is exact, as the float's 24 bits and six factors of five fit a double.
        let exact = Double(number)
        var scaled = exact.magnitude
        for _ in 0...6 where scaled < 1_000_000 {
            if scaled == scaled.rounded(.towardZero) { return exact }
            scaled *= 10
        }
        // A normal float's shortest text of at most six digits is its exact value rounded to six digits: the
        // float's half step is less than half a step of the sixth digit.
        let shortest = DecimalDigits(number.description)
        if number.isNormal, shortest.count <= 6, let candidate = shortest.double(isNegative: number < 0),
           Float(candidate) == number {
            return candidate
        }
        let digits = DecimalDigits(exact.magnitude.description)
        for precision in 6...9 {
            let candidate = digits.rounded(to: precision).double(isNegative: exact < 0)
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

/// The members of one message as its fields arrive, in arrival order, with the position of each field's
/// member kept in the reader's position stack from `first`: `-1` for none yet, `-2 - position` for a member
/// removed (left out at the end, and reused if the field comes again).
struct MemberList {
    var members: [Value.Object.Member] = []
    /// The ProtoJSON name of each field.
    let keys: [String]
    let first: Int
    var lastField = -1
    var inOrder = true
    var removed = 0

    init(keys: [String], first: Int, capacity: Int) {
        self.keys = keys
        self.first = first
        members.reserveCapacity(capacity)
    }

    /// Sets the value of field `field`'s member, adding the member the first time.
    mutating func set(_ value: consuming Value, field: Int, _ positions: inout [Int]) {
        let position = positions[first + field]
        if position >= 0 {
            members[position].value = value
        } else if position <= -2 {
            members[-2 - position].value = value
            positions[first + field] = -2 - position
            removed -= 1
        } else {
            positions[first + field] = members.count
            members.append(Value.Object.Member(key: keys[field], value: value))
            if field < lastField { inOrder = false }
            lastField = field
        }
    }

    /// Appends `value` to the array of repeated field `field`, adding the member the first time.
    mutating func append(_ value: consuming Value, field: Int, _ positions: inout [Int]) {
        let position = positions[first + field]
        guard position >= 0, case .array(var list) = members[position].value else {
            set(.array([value]), field: field, &positions)
            return
        }
        // Take the array out of the member so that appending does not copy it.
        members[position].value = .null
        list.append(value)
        members[position].value = .array(list)
    }

    /// Appends `values` to the array of repeated field `field`, adding the member the first time.
    mutating func append(contentsOf values: consuming [Value], field: Int, _ positions: inout [Int]) {
        let position = positions[first + field]
        guard position >= 0, case .array(var list) = members[position].value else {
            set(.array(values), field: field, &positions)
            return
        }
        members[position].value = .null
        list.append(contentsOf: values)
        members[position].value = .array(list)
    }

    /// Removes field `field`'s member, if it has one.
    mutating func remove(field: Int, _ positions: inout [Int]) {
        let position = positions[first + field]
        guard position >= 0 else { return }
        positions[first + field] = -2 - position
        removed += 1
    }

    /// The members in field-number order, removed ones left out (taken out of the list).
    mutating func finish(_ positions: [Int]) -> [Value.Object.Member] {
        defer { members = [] }
        guard !inOrder || removed > 0 else { return members }
        var fields = [Int](repeating: -1, count: members.count)
        for field in keys.indices where positions[first + field] >= 0 { fields[positions[first + field]] = field }
        var kept = zip(fields, members).filter { $0.0 >= 0 }
        if !inOrder { kept.sort { $0.0 < $1.0 } }
        return kept.map(\.1)
    }
}

/// The entries of one map field so far: a later entry with the same key replaces the earlier one's value.
struct MapMembers {
    var members: [Value.Object.Member] = []
    var positions: [String: Int] = [:]

    mutating func insert(_ entry: Value.Object.Member) {
        if let existing = positions[entry.key] {
            members[existing].value = entry.value
        } else {
            positions[entry.key] = members.count
            members.append(entry)
        }
    }
}
