/// JSON string literals for line-oriented tool output (the CLI, check reports): the one place
/// that escapes quotes, backslashes and control characters (RFC 8259 §7).
package enum JSONStringLiteral {
    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        // Most text needs no escape: quote it whole.
        if !text.utf8.contains(where: needsEscape) { return "\"" + text + "\"" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, quotes included, to `bytes`.
    package static func append(_ text: String, to bytes: inout [UInt8]) {
        forEachRun(of: text) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with the bytes of `text` as a JSON string literal, in order: the opening
    /// quote, runs of text that need no escape (copied whole), each escape, the closing quote.
    /// For writers with a byte buffer of their own.
    package static func forEachRun(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        func run(_ literal: StaticString) { literal.withUTF8Buffer(body) }
        run("\"")
        forEachRunOfContents(of: text, body)
        run("\"")
    }

    /// ``forEachRun(of:_:)`` without the quotes: what goes between them.
    package static func forEachRunOfContents(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        func run(_ literal: StaticString) { literal.withUTF8Buffer(body) }
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard needsEscape(byte) else { continue }
                if index > runStart { body(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): run(#"\""#)
                case UInt8(ascii: "\\"): run(#"\\"#)
                case UInt8(ascii: "\n"): run(#"\n"#)
                case UInt8(ascii: "\r"): run(#"\r"#)
                case UInt8(ascii: "\t"): run(#"\t"#)
                default:
                    let escape = [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                  hexDigit(byte >> 4), hexDigit(byte & 0xF)]
                    escape.withUnsafeBufferPointer(body)
                }
            }
            if utf8.count > runStart { body(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
    }

    /// Whether any of `utf8` needs an escape in a JSON string literal: when none does, the
    /// literal is the bytes between two quotes.
    package static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in utf8 where needsEscape(byte) { return true }
        return false
    }

    /// The lower-case hexadecimal digit of `value` (0–15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
