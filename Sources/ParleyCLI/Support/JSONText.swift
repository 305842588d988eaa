import Foundation
import Parley

/// Minimal JSON text for the CLI's own line-oriented output and batch input.
package enum JSONText {
    /// `text` as a JSON string literal.
    package static func quote(_ text: String) -> String {
        JSONStringLiteral.quoted(text)
    }

    /// `text` quoted, or `null`.
    package static func quote(_ text: String?) -> String {
        text.map { quote($0) } ?? "null"
    }

    /// Parses one batch line as a JSON object.
    package static func object(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw InputError(message: "expected a JSON object per line")
        }
        return object
    }

    /// The strings of a JSON array value, or `nil` when absent or null.
    package static func strings(_ value: Any?) throws -> [String]? {
        guard let value, !(value is NSNull) else { return nil }
        guard let array = value as? [Any], array.allSatisfy({ $0 is String }) else {
            throw InputError(message: "expected an array of strings")
        }
        return array as? [String]
    }
}

/// Reads standard input line by line, skipping blank lines, and writes one output line each.
package func forEachBatchLine(_ body: (String) -> String) {
    while let line = readLine(strippingNewline: true) {
        if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
        print(body(line))
    }
}
