import FoundationEssentials

extension Value {
    /// This value in typed JSON: a tree of only JSON-representable values that shows exactly
    /// what was decoded, the form `parley decode` prints and corpus expectations use.
    ///
    /// | value | typed JSON |
    /// |---|---|
    /// | ``integer(_:)``, integral ``number(_:)`` | `{"$int": "18446744073709551615"}` |
    /// | ``float(_:)``, other ``number(_:)`` | `{"$real": "1.5"}` (`"nan"`, `"inf"`, `"-inf"`, `"-0.0"`) |
    /// | ``date(_:)`` | `{"$date": "2001-01-01T00:00:00Z"}` (UTC, milliseconds when present) |
    /// | ``bytes(_:)`` | `{"$data": "<base64>"}` |
    /// | `tagged("uid", integer)` | `{"$uid": n}` |
    /// | other ``tagged(_:_:)`` | `{"$tag": "<tag>", "value": …}` |
    /// | strings, Booleans, null, arrays, objects | themselves |
    public var typedJSON: Value {
        switch self {
        case .null, .bool, .string: return self
        case .integer(let i): return ["$int": .string(String(i))]
        case .number(let text):
            let integral = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            return integral ? ["$int": .string(text)] : ["$real": .string(text)]
        case .float(let d): return ["$real": .string(Self.realText(d))]
        case .date(let date):
            if let text = ISO8601Text.string(from: date) { return ["$date": .string(text)] }
            // Too far from 1970 for a timestamp: the seconds themselves, which the reader accepts.
            return ["$date": "", "since2001": .number(Self.realText(date.timeIntervalSinceReferenceDate))]
        case .bytes(let bytes): return ["$data": .string(Base64Text.string(from: bytes))]
        case .array(let elements): return .array(elements.map(\.typedJSON))
        case .object(let object):
            return .object(Object(object.members.map { Object.Member(key: $0.key, value: $0.value.typedJSON) }))
        case .tagged("uid", .integer(let n)): return ["$uid": .integer(n)]
        case .tagged(let tag, let value): return ["$tag": .string(tag), "value": value.typedJSON]
        }
    }

    /// Reads typed JSON back into the value it describes (the inverse of ``typedJSON``).
    ///
    /// `{"$date": …}` may carry `"since2001"` (seconds since 2001-01-01, the exact binary
    /// property-list encoding), which wins over the text.
    ///
    /// - Throws: ``FormatError`` with code ``FormatError/Code/malformed`` for a marker object
    ///   whose content is not what it claims.
    public init(typedJSON: Value) throws(FormatError) {
        func bad(_ message: String) -> FormatError { FormatError(.malformed, format: "typed-json", message) }
        switch typedJSON {
        case .array(let elements):
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try Value(typedJSON: element)) }
            self = .array(values)
        case .object(let object):
            let keys = object.keys
            if keys.first?.hasPrefix("$") == true {
                switch (keys.first!, object.members.first!.value) {
                case ("$int", .string(let text)):
                    guard Self.isIntegerText(text) else { throw bad("'\(text)' is not an integer") }
                    self = Int64(text).map(Value.integer) ?? .number(text)
                    return
                case ("$real", .string(let text)):
                    switch text {
                    case "nan": self = .float(.nan)
                    case "inf": self = .float(.infinity)
                    case "-inf": self = .float(-.infinity)
                    default:
                        guard let d = Double(text) else { throw bad("'\(text)' is not a real") }
                        self = d.isFinite ? .float(d) : .number(text)
                    }
                    return
                case ("$date", .string(let text)):
                    if let seconds = object["since2001"]?.doubleValue {
                        self = .date(Date(timeIntervalSinceReferenceDate: seconds))
                    } else if let date = ISO8601Text.date(from: text) {
                        self = .date(date)
                    } else {
                        throw bad("'\(text)' is not a date")
                    }
                    return
                case ("$data", .string(let text)):
                    guard let bytes = Base64Text.bytes(from: text) else { throw bad("'\(text)' is not base64") }
                    self = .bytes(bytes)
                    return
                case ("$uid", let n):
                    guard let id = n.integerValue else { throw bad("a UID must be an integer") }
                    self = .tagged("uid", .integer(id))
                    return
                case ("$tag", .string(let tag)):
                    self = .tagged(tag, try Value(typedJSON: object["value"] ?? .null))
                    return
                default:
                    break
                }
            }
            var members: [Object.Member] = []
            members.reserveCapacity(object.count)
            for member in object.members {
                members.append(Object.Member(key: member.key, value: try Value(typedJSON: member.value)))
            }
            self = .object(Object(members))
        case .integer, .float, .number:
            // Plain JSON numbers are accepted as themselves.
            self = typedJSON
        default:
            self = typedJSON
        }
    }

    /// Python-`repr`-like text of a double: shortest round-trip digits, `nan`, `inf`, `-0.0`.
    static func realText(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        return d.description
    }

    static func isIntegerText(_ text: String) -> Bool {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}
