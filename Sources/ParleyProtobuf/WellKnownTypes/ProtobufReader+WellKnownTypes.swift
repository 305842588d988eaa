import Parley

/// The well-known types ProtoJSON gives a form of their own, by full name.
enum WellKnownType: String, Sendable {
    case any = "google.protobuf.Any"
    case timestamp = "google.protobuf.Timestamp"
    case duration = "google.protobuf.Duration"
    case fieldMask = "google.protobuf.FieldMask"
    case structure = "google.protobuf.Struct"
    case value = "google.protobuf.Value"
    case listValue = "google.protobuf.ListValue"
    case doubleValue = "google.protobuf.DoubleValue"
    case floatValue = "google.protobuf.FloatValue"
    case int64Value = "google.protobuf.Int64Value"
    case uint64Value = "google.protobuf.UInt64Value"
    case int32Value = "google.protobuf.Int32Value"
    case uint32Value = "google.protobuf.UInt32Value"
    case boolValue = "google.protobuf.BoolValue"
    case stringValue = "google.protobuf.StringValue"
    case bytesValue = "google.protobuf.BytesValue"

    static let nullValue = "google.protobuf.NullValue"

    var isWrapper: Bool {
        switch self {
        case .doubleValue, .floatValue, .int64Value, .uint64Value, .int32Value, .uint32Value, .boolValue,
             .stringValue, .bytesValue: true
        default: false
        }
    }

    /// Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the range RFC 3339 text holds.
    static let timestampSeconds: ClosedRange<Int64> = -62_135_596_800...253_402_300_799
    /// The range of a Duration's seconds (about ±10,000 years).
    static let durationSeconds: ClosedRange<Int64> = -315_576_000_000...315_576_000_000
}

extension ProtobufReader {
    mutating func readWellKnown(_ type: WellKnownType, _ plan: ReadPlan, _ bytes: UnsafeBufferPointer<UInt8>,
                                base: Int, depth: Int) throws(FormatError) -> Value {
        switch type {
        case .timestamp, .duration:
            let (seconds, nanos) = try readSecondsAndNanos(bytes, base: base)
            let text = type == .timestamp ? TimeText.timestamp(seconds: seconds, nanos: nanos)
                                          : TimeText.duration(seconds: seconds, nanos: nanos)
            guard let text else {
                throw FormatError(.unsupportedValue, format: ProtobufFormat.formatName,
                                  "\(type.rawValue) \(seconds) s \(nanos) ns is out of range",
                                  location: .init(byteOffset: base))
            }
            return .string(text)
        case .any:
            return try readAny(bytes, base: base, depth: depth)
        default:
            let object = Value.Object(try members(plan, bytes, base: base, depth: depth, keepsUnknown: false))
            switch type {
            case .fieldMask:
                guard case .array(let paths)? = object["paths"] else { return .string("") }
                var names: [String] = []
                for path in paths.compactMap(\.stringValue) {
                    let name = MessageTable.lowerCamelCase(path)
                    // ProtoJSON has no text for a path that would not read back as itself (`fooBar`, `a__b`).
                    guard ProtobufWriter.snakeCase(name) == path, !name.contains(",") else {
                        throw FormatError(.unsupportedValue, format: ProtobufFormat.formatName,
                                          "FieldMask path \(path) has no ProtoJSON form",
                                          location: .init(byteOffset: base))
                    }
                    names.append(name)
                }
                return .string(names.joined(separator: ","))
            case .structure: return object["fields"] ?? .object([:])
            case .listValue: return object["values"] ?? .array([])
            case .value:
                guard let member = object.first else {
                    throw FormatError(.malformed, format: ProtobufFormat.formatName,
                                      "a google.protobuf.Value sets none of its kinds",
                                      location: .init(byteOffset: base))
                }
                // A non-finite number_value would read back as a string_value.
                if member.key == "numberValue", case .string = member.value {
                    throw FormatError(.unsupportedValue, format: ProtobufFormat.formatName,
                                      "a google.protobuf.Value holds \(member.value.kindDescription), "
                                        + "which JSON cannot",
                                      location: .init(byteOffset: base))
                }
                return member.value
            default:
                if let value = object["value"] { return value }
                return try defaultValue(plan.fields[0], depth: depth)
            }
        }
    }

    private func readSecondsAndNanos(_ bytes: UnsafeBufferPointer<UInt8>,
                                     base: Int) throws(FormatError) -> (Int64, Int32) {
        var cursor = WireCursor(bytes, base: base)
        var seconds: Int64 = 0
        var nanos: Int32 = 0
        while !cursor.isAtEnd {
            let tag = try cursor.readTag()
            switch (tag.number, tag.wireType) {
            case (1, .varint): seconds = Int64(bitPattern: try cursor.readVarint())
            case (2, .varint): nanos = Int32(truncatingIfNeeded: try cursor.readVarint())
            case (1, _), (2, _):
                throw cursor.error(.malformed, "field \(tag.number) arrives with wire type \(tag.wireType.rawValue)")
            default: try cursor.skip(tag.wireType, number: tag.number, depth: 0, maxDepth: maxDepth)
            }
        }
        return (seconds, nanos)
    }

    private mutating func readAny(_ bytes: UnsafeBufferPointer<UInt8>, base: Int,
                                  depth: Int) throws(FormatError) -> Value {
        var cursor = WireCursor(bytes, base: base)
        var typeURL = ""
        var payload: [Range<Int>] = []
        while !cursor.isAtEnd {
            let tag = try cursor.readTag()
            switch (tag.number, tag.wireType) {
            case (1, .lengthDelimited):
                let range = try cursor.readLengthDelimited()
                guard let text = String(validating: cursor.slice(range), as: UTF8.self) else {
                    throw cursor.error(.invalidText, "an Any's type URL is not UTF-8", at: range.lowerBound)
                }
                typeURL = text
            case (2, .lengthDelimited): payload.append(try cursor.readLengthDelimited())
            case (1, _), (2, _):
                throw cursor.error(.malformed, "field \(tag.number) arrives with wire type \(tag.wireType.rawValue)")
            default: try cursor.skip(tag.wireType, number: tag.number, depth: 0, maxDepth: maxDepth)
            }
        }
        if typeURL.isEmpty && payload.allSatisfy(\.isEmpty) { return .object([:]) }
        let name = String(typeURL.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        let plan = try plan(named: name)
        var merged: [UInt8] = []
        for range in payload { merged.append(contentsOf: cursor.slice(range)) }
        let start = base + (payload.first?.lowerBound ?? 0)
        let inner = try merged.withUnsafeBufferPointer { buffer throws(FormatError) in
            try read(plan, buffer, base: start, depth: depth + 1)
        }
        var object = Value.Object()
        object.append(key: "@type", value: .string(typeURL))
        if WellKnownType(rawValue: name) != nil {
            object.append(key: "value", value: inner)
        } else if case .object(let members) = inner {
            for member in members { object.append(key: member.key, value: member.value) }
        }
        return .object(object)
    }
}
