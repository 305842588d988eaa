import Parley

extension ProtobufWriter {
    mutating func writeWellKnown(_ type: WellKnownType, _ table: MessageTable, _ value: Value, path: String,
                                 depth: Int) throws(FormatError) -> [UInt8] {
        var out: [UInt8] = []
        switch type {
        case .timestamp, .duration:
            guard case .string(let text) = value,
                  let (seconds, nanos) = type == .timestamp ? TimeText.parseTimestamp(text)
                                                            : TimeText.parseDuration(text)
            else { throw error(path, "\(value.kindDescription) is not a \(type.rawValue) text") }
            if seconds != 0 {
                Wire.appendTag(1, .varint, to: &out)
                Wire.appendVarint(UInt64(bitPattern: seconds), to: &out)
            }
            if nanos != 0 {
                Wire.appendTag(2, .varint, to: &out)
                Wire.appendVarint(UInt64(bitPattern: Int64(nanos)), to: &out)
            }
        case .fieldMask:
            guard case .string(let text) = value else { throw error(path, "a FieldMask is written from a string") }
            let paths = text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map {
                Value.string(Self.snakeCase(String($0)))
            }
            try write(table.fields[0], .array(paths), path: path, depth: depth, into: &out)
        case .structure:
            guard case .object = value else { throw error(path, "a Struct is written from an object") }
            try write(table.fields[0], value, path: path, depth: depth, into: &out)
        case .listValue:
            guard case .array = value else { throw error(path, "a ListValue is written from an array") }
            try write(table.fields[0], value, path: path, depth: depth, into: &out)
        case .value:
            let number: UInt32
            var member = value
            switch value {
            case .null: number = 1
            case .integer, .float, .number: number = 2
            case .string: number = 3
            case .bool: number = 4
            case .object: number = 5
            case .array: number = 6
            case .tagged(_, let inner): return try writeWellKnown(type, table, inner, path: path, depth: depth)
            case .bytes, .date: throw error(path, "a google.protobuf.Value cannot hold \(value.kindName)")
            }
            if case .null = value { member = .null }
            guard let index = table.index(ofField: number) else { return out }
            try write(table.fields[index], member, path: path, depth: depth, into: &out)
        case .any:
            guard case .object(let object) = value else { throw error(path, "an Any is written from an object") }
            if object.isEmpty { return out }
            guard case .string(let typeURL)? = object["@type"] else { throw error(path, "an Any needs its @type") }
            let name = String(typeURL.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
            let inner = try messageTable(name)
            let payload: [UInt8]
            if WellKnownType(rawValue: name) != nil {
                payload = try message(inner, object["value"] ?? .null, path: path + ".value", depth: depth + 1)
            } else {
                var rest = Value.Object()
                for member in object where member.key != "@type" { rest.append(key: member.key, value: member.value) }
                payload = try message(inner, .object(rest), path: path, depth: depth + 1)
            }
            Wire.appendTag(1, .lengthDelimited, to: &out)
            Wire.appendLengthDelimited(Array(typeURL.utf8), to: &out)
            if !payload.isEmpty {
                Wire.appendTag(2, .lengthDelimited, to: &out)
                Wire.appendLengthDelimited(payload, to: &out)
            }
        default:
            guard type.isWrapper else { return out }
            try write(table.fields[0], value, path: path, depth: depth, into: &out)
        }
        return out
    }

    /// `fooBar` → `foo_bar`, the `.proto` form of a FieldMask path segment.
    static func snakeCase(_ path: String) -> String {
        var result = ""
        for character in path {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
