import Foundation
public import Logging

/// A swift-log handler that formats each message as one line and hands it to a
/// ``LogLineWriter``: logging costs a format and a buffer append, never a blocking write.
///
/// A line reads `2026-11-28T11:00:00.123Z info parley-gateway: request key=value …`, metadata
/// sorted by key; values with spaces, quotes or `=` are quoted.
public struct BufferedLogHandler: LogHandler {
    /// The writer lines go to.
    public let writer: LogLineWriter
    /// The logger's label, printed on every line.
    public let label: String
    /// The least severe level written.
    public var logLevel: Logger.Level = .info
    /// Metadata added to every line.
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler for the logger labelled `label`.
    public init(label: String, writer: LogLineWriter) {
        self.label = label
        self.writer = writer
    }

    /// The metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Formats the event and queues it.
    public func log(event: LogEvent) {
        var merged = metadata.isEmpty ? event.metadata ?? [:] : metadata.merging(event.metadata ?? [:]) { $1 }
        if let error = event.error { merged["error"] = "\(error)" }
        writer.submit(Self.line(date: Date(), level: event.level, label: label, message: event.message.description,
                                metadata: merged))
    }

    /// One log line (without its newline).
    static func line(date: Date, level: Logger.Level, label: String, message: String,
                     metadata: Logger.Metadata) -> String {
        line(date: date, level: level, label: label, message: message) { field in
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { field(key, value.description) }
        }
    }

    /// One log line (without its newline) whose metadata `fields` hands over in key order, the
    /// order the line lists metadata in: a caller that knows its keys needs no dictionary.
    static func line(date: Date, level: Logger.Level, label: String, message: String,
                     fields: ((_ key: String, _ value: String) -> Void) -> Void) -> String {
        var bytes: [UInt8] = []
        appendLine(to: &bytes, date: date, level: level, label: label, message: message, fields: fields)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``line(date:level:label:message:fields:)`` appended to `bytes` as UTF-8: the access log
    /// writes each line into a buffer its connection reuses, and queues the bytes (no string is made).
    static func appendLine(to bytes: inout [UInt8], date: Date, level: Logger.Level, label: String, message: String,
                           fields: ((_ key: String, _ value: String) -> Void) -> Void) {
        bytes.reserveCapacity(bytes.count + 256)   // an access-log line fits: it grows once or not at all
        appendTimestamp(date, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: level.rawValue.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: label.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        appendQuoted(message, to: &bytes)
        fields { key, value in
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: key.utf8)
            bytes.append(UInt8(ascii: "="))
            appendQuoted(value, to: &bytes)
        }
    }

    /// Appends `date` in UTC as ISO 8601 with milliseconds (`2026-11-28T11:00:00.123Z`), from the C
    /// library's calendar: every access-log line has one, and Foundation's format style is heavy.
    static func appendTimestamp(_ date: Date, to bytes: inout [UInt8]) {
        let (seconds, milliseconds) = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            .quotientAndRemainder(dividingBy: 1000)
        var time = time_t(milliseconds < 0 ? seconds - 1 : seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func append(_ value: Int32, digits: Int, then separator: UInt8) {
            var divisor: Int32 = 1
            for _ in 1..<digits { divisor *= 10 }
            var value = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
            bytes.append(separator)
        }
        append(parts.tm_year + 1900, digits: 4, then: UInt8(ascii: "-"))
        append(parts.tm_mon + 1, digits: 2, then: UInt8(ascii: "-"))
        append(parts.tm_mday, digits: 2, then: UInt8(ascii: "T"))
        append(parts.tm_hour, digits: 2, then: UInt8(ascii: ":"))
        append(parts.tm_min, digits: 2, then: UInt8(ascii: ":"))
        append(parts.tm_sec, digits: 2, then: UInt8(ascii: "."))
        append(Int32(milliseconds < 0 ? milliseconds + 1000 : milliseconds), digits: 3, then: UInt8(ascii: "Z"))
    }

    /// Appends ``quoted(_:)`` of `value`, byte by byte, without a string made: the characters it
    /// escapes are all ASCII, so a byte of a scalar past ASCII (0x80 or more) is copied as it is.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        guard !isPlain(value) else { return bytes.append(contentsOf: value.utf8) }
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7F: bytes.append(contentsOf: "\\u{\(String(byte, radix: 16))}".utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether `value` is one plain token, written unquoted: not empty, no space, control
    /// character, `"`, `=` or `\` (bytes of other scalars than ASCII are all 0x80 or more).
    private static func isPlain(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { byte in
            byte > 0x20 && byte != 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "=")
                && byte != UInt8(ascii: "\\")
        }
    }

    /// `value` as it is when it is one plain token, else in double quotes with `"`, `\` and
    /// control characters escaped (so one log line is always one line).
    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
