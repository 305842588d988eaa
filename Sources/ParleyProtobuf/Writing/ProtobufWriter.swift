import Parley

/// Writes a value in ProtoJSON form as the wire bytes of a message type, driven by the schema's field tables.
///
/// Members are matched by ProtoJSON or `.proto` name; `null` members are left out (except where the
/// field is a `google.protobuf.Value` or `NullValue`); fields are written in field-number order,
/// defaults of fields without presence left out, repeated scalars packed where the schema says.
struct ProtobufWriter {
    let schema: ProtobufSchema
    let maxDepth: Int

    func error(_ path: String, _ message: String) -> FormatError {
        FormatError(.unsupportedValue, format: ProtobufFormat.formatName,
                    path.isEmpty ? message : "\(path): \(message)")
    }

    func messageTable(_ name: String) throws(FormatError) -> MessageTable {
        guard let table = schema.messages[name] else {
            throw FormatError(ProtobufFormat.unknownMessageType, format: ProtobufFormat.formatName,
                              "no registered descriptor set defines message type \(name)")
        }
        return table
    }

    /// The wire bytes of `value` as a message of `table`.
    mutating func message(_ table: MessageTable, _ value: Value, path: String,
                          depth: Int) throws(FormatError) -> [UInt8] {
        guard depth < maxDepth else {
            throw FormatError.limitExceeded(format: ProtobufFormat.formatName, limit: "maxDepth", maximum: maxDepth)
        }
        if let wellKnown = WellKnownType(rawValue: table.fullName) {
            return try writeWellKnown(wellKnown, table, value, path: path, depth: depth)
        }
        guard case .object(let object) = value else {
            throw error(path, "\(table.fullName) is written from an object, not \(value.kindName)")
        }
        var assigned = [Value?](repeating: nil, count: table.fields.count)
        var unknown: [UInt8] = []
        for member in object {
            if member.key == ProtobufFormat.unknownFieldsKey {
                unknown += try bytes(member.value, path: path + "." + member.key)
                continue
            }
            guard let index = table.indexByName[member.key] else {
                throw error(path, "message \(table.fullName) has no field \(member.key)")
            }
            if case .null = member.value, !Self.takesNull(table.fields[index]) { continue }
            assigned[index] = member.value
        }
        var out: [UInt8] = []
        for (index, value) in assigned.enumerated() {
            guard let value else { continue }
            let field = table.fields[index]
            try write(field, value, path: path + "." + field.jsonName, depth: depth, into: &out)
        }
        return out + unknown
    }

    /// Whether a `null` member sets the field rather than leaving it out.
    private static func takesNull(_ field: FieldInfo) -> Bool {
        switch field.kind {
        case .message(WellKnownType.value.rawValue), .enumeration(WellKnownType.nullValue): !field.isRepeated
        default: false
        }
    }

    mutating func write(_ field: FieldInfo, _ value: Value, path: String, depth: Int,
                        into out: inout [UInt8]) throws(FormatError) {
        if field.isMap {
            guard case .object(let entries) = value else { throw error(path, "a map is written from an object") }
            guard case .message(let name) = field.kind else { return }
            let entry = try messageTable(name)
            let keyField = entry.fields[0]
            let valueField = entry.fields[1]
            for member in entries {
                var body: [UInt8] = []
                let key = try mapKey(keyField, member.key, path: path)
                try writeSingle(keyField, key, path: path, depth: depth, into: &body, keepsDefault: true)
                try writeSingle(valueField, member.value, path: path + "." + member.key, depth: depth,
                                into: &body, keepsDefault: true)
                Wire.appendTag(field.number, .lengthDelimited, to: &out)
                Wire.appendLengthDelimited(body, to: &out)
            }
        } else if field.isRepeated {
            guard case .array(let items) = value else { throw error(path, "a repeated field is written from an array") }
            if field.isPacked {
                guard !items.isEmpty else { return }
                var body: [UInt8] = []
                for (index, item) in items.enumerated() {
                    Wire.append(try scalar(field, item, path: path + "[\(index)]"), to: &body)
                }
                Wire.appendTag(field.number, .lengthDelimited, to: &out)
                Wire.appendLengthDelimited(body, to: &out)
            } else {
                for (index, item) in items.enumerated() {
                    try writeSingle(field, item, path: path + "[\(index)]", depth: depth, into: &out,
                                    keepsDefault: true)
                }
            }
        } else {
            try writeSingle(field, value, path: path, depth: depth, into: &out, keepsDefault: field.hasPresence)
        }
    }

    private mutating func writeSingle(_ field: FieldInfo, _ value: Value, path: String, depth: Int,
                                      into out: inout [UInt8], keepsDefault: Bool) throws(FormatError) {
        if let name = field.kind.messageName {
            let body = try message(messageTable(name), value, path: path, depth: depth + 1)
            if case .group = field.kind {
                Wire.appendTag(field.number, .startGroup, to: &out)
                out += body
                Wire.appendTag(field.number, .endGroup, to: &out)
            } else {
                Wire.appendTag(field.number, .lengthDelimited, to: &out)
                Wire.appendLengthDelimited(body, to: &out)
            }
            return
        }
        let raw = try scalar(field, value, path: path)
        if !keepsDefault && raw.isDefault { return }
        Wire.appendTag(field.number, field.kind.wireType, to: &out)
        Wire.append(raw, to: &out)
    }

    /// A map key's text as the value of the key field.
    private func mapKey(_ field: FieldInfo, _ key: String, path: String) throws(FormatError) -> Value {
        switch field.kind {
        case .string: return .string(key)
        case .bool:
            guard key == "true" || key == "false" else { throw error(path, "map key \(key) is not a bool") }
            return .bool(key == "true")
        default: return .string(key)
        }
    }

    func bytes(_ value: Value, path: String) throws(FormatError) -> [UInt8] {
        switch value {
        case .bytes(let bytes): return bytes
        case .string(let text):
            var normalized = text.replacingBase64URLAlphabet()
            while normalized.utf8.count % 4 != 0 { normalized += "=" }
            guard let bytes = Base64Text.bytes(from: normalized) else { throw error(path, "\(text) is not base64") }
            return bytes
        default: throw error(path, "bytes are written from base64 text, not \(value.kindName)")
        }
    }

    /// The wire form of one scalar (or enum) value of `field`.
    func scalar(_ field: FieldInfo, _ value: Value, path: String) throws(FormatError) -> Wire.Raw {
        switch field.kind {
        case .int32, .sint32, .sfixed32:
            guard let number = integer(value), let small = Int32(exactly: number) else {
                throw error(path, "\(value.kindDescription) is not an int32")
            }
            switch field.kind {
            case .sint32: return .varint(UInt64(UInt32(bitPattern: (small << 1) ^ (small >> 31))))
            case .sfixed32: return .fixed32(UInt32(bitPattern: small))
            default: return .varint(UInt64(bitPattern: Int64(small)))
            }
        case .uint32, .fixed32:
            guard let number = unsigned(value), let small = UInt32(exactly: number) else {
                throw error(path, "\(value.kindDescription) is not a uint32")
            }
            return field.kind == .fixed32 ? .fixed32(small) : .varint(UInt64(small))
        case .int64, .sint64, .sfixed64:
            guard let number = integer(value) else { throw error(path, "\(value.kindDescription) is not an int64") }
            switch field.kind {
            case .sint64: return .varint(UInt64(bitPattern: (number << 1) ^ (number >> 63)))
            case .sfixed64: return .fixed64(UInt64(bitPattern: number))
            default: return .varint(UInt64(bitPattern: number))
            }
        case .uint64, .fixed64:
            guard let number = unsigned(value) else { throw error(path, "\(value.kindDescription) is not a uint64") }
            return field.kind == .fixed64 ? .fixed64(number) : .varint(number)
        case .double:
            guard let number = double(value) else { throw error(path, "\(value.kindDescription) is not a double") }
            return .fixed64(number.bitPattern)
        case .float:
            guard let number = double(value) else { throw error(path, "\(value.kindDescription) is not a float") }
            // In range when it rounds to a finite float: a float's shortest decimal (3.4028235e+38 for
            // the largest) may lie past the float itself.
            guard !number.isFinite || Float(number).isFinite else {
                throw error(path, "\(number) is out of range for a float")
            }
            return .fixed32(Float(number).bitPattern)
        case .bool:
            guard case .bool(let flag) = value else { throw error(path, "\(value.kindDescription) is not a bool") }
            return .varint(flag ? 1 : 0)
        case .string:
            guard case .string(let text) = value else { throw error(path, "\(value.kindDescription) is not a string") }
            return .bytes(Array(text.utf8))
        case .bytes:
            return .bytes(try bytes(value, path: path))
        case .enumeration(let name):
            if name == WellKnownType.nullValue, case .null = value { return .varint(0) }
            switch value {
            case .string(let label):
                if let number = schema.enums[name]?.numberByName[label] {
                    return .varint(UInt64(bitPattern: Int64(number)))
                }
                throw error(path, "enum \(name) has no value \(label)")
            default:
                guard let number = integer(value), let small = Int32(exactly: number) else {
                    throw error(path, "\(value.kindDescription) is not a value of enum \(name)")
                }
                return .varint(UInt64(bitPattern: Int64(small)))
            }
        case .message, .group:
            throw error(path, "\(field.name) is not a scalar field")
        }
    }

    private func integer(_ value: Value) -> Int64? {
        switch value {
        case .integer(let number): return number
        case .float(let number): return number.rounded() == number ? Int64(exactly: number) : nil
        case .number(let text), .string(let text):
            if let number = Int64(text) { return number }
            guard let number = Double(text), number.rounded() == number else { return nil }
            return Int64(exactly: number)
        default: return nil
        }
    }

    private func unsigned(_ value: Value) -> UInt64? {
        switch value {
        case .integer(let number): return UInt64(exactly: number)
        case .float(let number): return number.rounded() == number ? UInt64(exactly: number) : nil
        case .number(let text), .string(let text):
            if let number = UInt64(text) { return number }
            guard let number = Double(text), number.rounded() == number else { return nil }
            return UInt64(exactly: number)
        default: return nil
        }
    }

    private func double(_ value: Value) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .float(let number): return number
        case .number(let text): return Double(text)
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string(let text):
            guard let number = Double(text), number.isFinite else { return nil }
            return number
        default: return nil
        }
    }
}

extension Value {
    /// A short name of the value's case for messages (`"a string"`).
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .integer, .float, .number: "a number"
        case .string: "a string"
        case .bytes: "bytes"
        case .date: "a date"
        case .array: "an array"
        case .object: "an object"
        case .tagged(let tag, _): "a \(tag) value"
        }
    }

    /// The value itself for scalars, its kind for containers.
    var kindDescription: String {
        switch self {
        case .integer(let number): String(number)
        case .float(let number): String(number)
        case .number(let text): text
        case .string(let text): "\"\(text)\""
        default: kindName
        }
    }
}

extension String {
    /// The text with base64url's `-` and `_` as base64's `+` and `/`.
    fileprivate func replacingBase64URLAlphabet() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }))
    }
}
