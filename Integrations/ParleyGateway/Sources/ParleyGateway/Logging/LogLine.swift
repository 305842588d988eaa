import Foundation
import Logging

/// The bytes of one log line, `2026-11-28T11:00:00.123Z info parley-gateway: request key=value …`,
/// made in storage that is kept from one line to the next: the access log makes one per request.
///
/// Numbers are written as digits (no string is made of them), and the timestamp's date and time of
/// day are kept from the line before while the second stays the same (the C library's calendar
/// is then not asked again).
struct LogLine {
    /// The line (without its newline).
    private(set) var bytes: [UInt8] = []
    /// The second ``timestampPrefix`` is of.
    private var prefixSecond: Int64?
    /// `2026-11-28T11:00:00.` for ``prefixSecond``.
    private var timestampPrefix: [UInt8] = []

    /// A metadata value as the line writes it.
    enum Value {
        /// Text: written as it is when it is one plain token, else quoted (``LogLine/appendQuoted(_:to:)``).
        case text(String)
        /// An integer in decimal.
        case integer(Int)
        /// A duration in milliseconds, rounded to the microsecond, as `Double`'s description writes
        /// such a number: `1.5`, `0.187`, `2000.0`.
        case milliseconds(Duration)
    }

    /// Makes the line afresh, its metadata handed over by `fields` in the order the line lists it.
    mutating func make(date: Date, level: Logger.Level, label: String, message: String,
                       fields: ((_ key: String, _ value: Value) -> Void) -> Void) {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(256)   // an access-log line fits: it grows once or not at all
        appendTimestamp(date)
        bytes.append(UInt8(ascii: " "))
        Self.appendUTF8(level.rawValue, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        Self.appendUTF8(label, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        Self.appendQuoted(message, to: &bytes)
        fields { key, value in
            bytes.append(UInt8(ascii: " "))
            Self.appendUTF8(key, to: &bytes)
            bytes.append(UInt8(ascii: "="))
            Self.append(value, to: &bytes)
        }
    }

    /// Appends `date` in UTC as ISO 8601 with milliseconds (`2026-11-28T11:00:00.123Z`).
    private mutating func appendTimestamp(_ date: Date) {
        let (second, millisecond) = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            .quotientAndRemainder(dividingBy: 1000)
        let (wholeSecond, milliseconds) = millisecond < 0 ? (second - 1, millisecond + 1000) : (second, millisecond)
        if prefixSecond != wholeSecond {
            prefixSecond = wholeSecond
            timestampPrefix = Self.timestampPrefix(of: wholeSecond)
        }
        bytes.append(contentsOf: timestampPrefix)
        Self.appendDigits(Int(milliseconds), count: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `2026-11-28T11:00:00.` for the second `second` after the epoch, from the C library's calendar
    /// (Foundation's format style is heavy).
    private static func timestampPrefix(of second: Int64) -> [UInt8] {
        var time = time_t(second)
        var date = tm()
        gmtime_r(&time, &date)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        let parts: [(value: Int32, digits: Int, separator: Unicode.Scalar)] = [
            (date.tm_year + 1900, 4, "-"), (date.tm_mon + 1, 2, "-"), (date.tm_mday, 2, "T"),
            (date.tm_hour, 2, ":"), (date.tm_min, 2, ":"), (date.tm_sec, 2, "."),
        ]
        for (value, digits, separator) in parts {
            appendDigits(Int(value), count: digits, to: &bytes)
            bytes.append(UInt8(ascii: separator))
        }
        return bytes
    }

    /// Appends `value` as the line writes it.
    fileprivate static func append(_ value: Value, to bytes: inout [UInt8]) {
        switch value {
        case .text(let text):
            appendQuoted(text, to: &bytes)
        case .integer(let number):
            appendDecimal(number, to: &bytes)
        case .milliseconds(let duration):
            let (seconds, attoseconds) = duration.components
            // Rounded half away from zero, as `Double.rounded()` rounds.
            let rounding: Int64 = attoseconds < 0 ? -500_000_000_000 : 500_000_000_000
            let microseconds = Int(seconds) * 1_000_000 + Int((attoseconds + rounding) / 1_000_000_000_000)
            if microseconds < 0 { bytes.append(UInt8(ascii: "-")) }
            let (whole, fraction) = microseconds.magnitude.quotientAndRemainder(dividingBy: 1000)
            appendDecimal(Int(whole), to: &bytes)
            bytes.append(UInt8(ascii: "."))
            // At least one decimal, without trailing zeros.
            var digits = 3
            var decimals = Int(fraction)
            while digits > 1, decimals % 10 == 0 {
                decimals /= 10
                digits -= 1
            }
            appendDigits(decimals, count: digits, to: &bytes)
        }
    }

    /// Appends `number` in decimal.
    private static func appendDecimal(_ number: Int, to bytes: inout [UInt8]) {
        // The digits are made from the last, in room for the longest number, and appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = number.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends the UTF-8 of `text`, copied at once rather than byte by byte.
    private static func appendUTF8(_ text: String, to bytes: inout [UInt8]) {
        text.withUTF8Bytes { bytes.append(contentsOf: $0) }
    }

    /// Appends the last `count` decimal digits of the non-negative `number`, with leading zeros.
    private static func appendDigits(_ number: Int, count: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(number / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends `value` as it is when it is one plain token, else in double quotes with `"`, `\`
    /// and control characters escaped (so one log line is always one line). The characters it
    /// escapes are all ASCII, so a byte of a scalar past ASCII (0x80 or more) is copied as it is.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        value.withUTF8Bytes { utf8 in
            guard !isPlain(utf8) else { return bytes.append(contentsOf: utf8) }
            bytes.append(UInt8(ascii: "\""))
            // Runs of bytes kept as they are (a space or `=` is one) are copied at once.
            var run = 0
            for (index, byte) in utf8.enumerated() {
                // Printable ASCII but `"` and `\`, and the bytes of scalars past ASCII: kept.
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0x7F { continue }
                let escape: String
                switch byte {
                case UInt8(ascii: "\""): escape = #"\""#
                case UInt8(ascii: "\\"): escape = #"\\"#
                case UInt8(ascii: "\n"): escape = #"\n"#
                case UInt8(ascii: "\r"): escape = #"\r"#
                case UInt8(ascii: "\t"): escape = #"\t"#
                default: escape = "\\u{\(String(byte, radix: 16))}"  // the other controls, and DEL
                }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[run..<index]))
                bytes.append(contentsOf: escape.utf8)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: utf8[run...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Whether the text of `utf8` is one plain token, written unquoted: not empty, no space,
    /// control character, `"`, `=` or `\` (bytes of other scalars than ASCII are all 0x80 or more).
    private static func isPlain(_ utf8: UnsafeRawBufferPointer) -> Bool {
        guard !utf8.isEmpty else { return false }
        for byte in utf8 {
            guard byte > 0x20 && byte != 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "=")
                && byte != UInt8(ascii: "\\") else { return false }
        }
        return true
    }
}

extension LogLine.Value {
    /// The value's text, for a handler that takes metadata as text: what the line writes for it,
    /// before any quoting.
    var text: String {
        if case .text(let text) = self { return text }
        var bytes: [UInt8] = []
        LogLine.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
