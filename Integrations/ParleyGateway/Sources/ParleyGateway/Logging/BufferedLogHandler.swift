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
        var line = LogLine()
        line.make(date: date, level: level, label: label, message: message) { field in
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { field(key, .text(value.description)) }
        }
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// `value` as it is when it is one plain token, else in double quotes with `"`, `\` and
    /// control characters escaped (so one log line is always one line).
    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        LogLine.appendQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
