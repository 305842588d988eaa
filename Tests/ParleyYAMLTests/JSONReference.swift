import Foundation
import Parley

/// Reads the yaml-test-suite's expected JSON (one JSON value per document, concatenated) with
/// Foundation, and compares it with a decoded ``Value``.
enum JSONReference {
    /// The JSON values in `data`, in order.
    static func values(in data: Data) throws -> [Value] {
        try chunks(of: Array(data)).map { chunk in
            try value(from: JSONSerialization.jsonObject(with: Data(chunk), options: [.fragmentsAllowed]))
        }
    }

    /// Splits a JSON text sequence into one byte range per top-level value.
    static func chunks(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        while index < bytes.count {
            if isSpace(bytes[index]) {
                index += 1
                continue
            }
            let start = index
            let first = bytes[index]
            if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") || first == UInt8(ascii: "\"") {
                var depth = 0
                var inString = false
                repeat {
                    let byte = bytes[index]
                    if inString {
                        if byte == UInt8(ascii: "\\") {
                            index += 1
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                        }
                    } else if byte == UInt8(ascii: "\"") {
                        inString = true
                    } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                        depth += 1
                    } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                        depth -= 1
                    }
                    index += 1
                } while index < bytes.count && (depth > 0 || inString)
            } else {
                while index < bytes.count && !isSpace(bytes[index]) { index += 1 }
            }
            result.append(bytes[start..<index])
        }
        return result
    }

    /// Converts what `JSONSerialization` returns into a ``Value``.
    static func value(from object: Any) -> Value {
        switch object {
        case is NSNull:
            return .null
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" { return .bool(number.boolValue) }
            if type == "d" || type == "f" { return .float(number.doubleValue) }
            return .integer(number.int64Value)
        case let array as [Any]:
            return .array(array.map(value(from:)))
        case let dictionary as [String: Any]:
            return .object(
                Value.Object(
                    dictionary.keys.sorted().map { Value.Object.Member(key: $0, value: value(from: dictionary[$0]!)) }))
        default:
            return .string("\(object)")
        }
    }

    /// Whether a decoded YAML value equals the expected JSON value: tags are ignored (JSON has
    /// none), numbers compare by numeric value, object members by key regardless of order, and
    /// `!!binary` bytes equal the base64 text JSON holds.
    static func matches(_ decoded: Value, _ expected: Value) -> Bool {
        switch (decoded, expected) {
        case (.tagged(_, let inner), _):
            return matches(inner, expected)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.members.allSatisfy { member in b[member.key].map { matches(member.value, $0) } ?? false }
        case (.bytes(let bytes), .string(let text)):
            return Data(base64Encoded: text.filter { !$0.isWhitespace }).map { Array($0) == bytes } ?? false
        default:
            if let x = decoded.doubleValue, let y = expected.doubleValue { return x == y }
            return decoded == expected
        }
    }
}
